package org.arenaplan.exec;

import java.util.Map;

/**
 * The source of {@link OpLowering}'s dispatch, found with {@link java.util.ServiceLoader}:
 * {@code org.arenaplan.ops.Operators}, where each kind's rule is declared with its registry entry.
 */
public interface LoweringTable {
    /** The lowering of each op kind that has one. */
    Map<String, KernelRule> rules();
}
