package org.arenaplan.plan.search;

/** How a {@link SearchPlanner} run ended. */
public enum SearchStatus {
    /** No capacity given: the arena is proven minimal (it equals the lower bound, or every smaller one was refuted). */
    OPTIMAL,
    /** A capacity was given and the placement fits in it. */
    FOUND_WITHIN_CAPACITY,
    /** A capacity was given and no placement fits in it, proven; the placement returned is the best found, over capacity. */
    INFEASIBLE_PROVEN,
    /** A capacity was given and the time ran out before a fitting placement was found or refuted; the placement returned is the best found, over capacity. */
    TIMEOUT_NOT_FOUND,
    /** No capacity given and the time ran out before the arena was proven minimal; the placement returned is the best found. */
    TIMEOUT_BEST_EFFORT
}
