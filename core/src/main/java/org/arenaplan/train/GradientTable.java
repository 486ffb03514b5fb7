package org.arenaplan.train;

import java.util.Map;
import java.util.Set;

/**
 * The source of the gradient rules, found with {@link java.util.ServiceLoader} (as
 * {@code exec.LoweringTable} is): {@code org.arenaplan.ops.Operators}, where each rule is declared
 * with its kind. This package reads them without depending on the op definitions.
 */
public interface GradientTable {
    /** Kind -> its gradient rule, for the kinds that have one. */
    Map<String, GradientRule> gradients();

    /** The backward-pass kinds (ReluGrad, ConvBackwardData, ...): a graph holding one is already a training step. */
    Set<String> backwardKinds();
}
