package org.arenaplan.ops;

import java.util.List;

/** One family of op kinds (elementwise, convolution and pooling, ...): one class, listed in {@link Operators#FAMILIES}. */
public interface OpFamily {
    /** The family's op kinds, in the order the README's operator table lists them. */
    List<OpDefinition> definitions();
}
