package org.arenaplan.plan;

/**
 * The smallest arena, in bytes, that any of several placement runs racing for the smallest
 * arena has reached so far ({@link BestPlanner}'s candidates): branch and bound over whole runs.
 * A greedy run only ever raises its arena (each buffer goes at or above offset 0 and nothing
 * moves), so a run whose placed buffers already reach above the bound ends strictly above it
 * and cannot be the smallest; it may stop there ({@link GreedyPlacer.Result#outrun()}). Stopping
 * only when strictly above keeps the winner, ties included, what it would be had every run
 * finished. Thread-safe; lowered only.
 */
final class ArenaBound {
    /** A bound that never stops a run (a planner running alone). */
    static final ArenaBound NONE = new ArenaBound(false);

    private final boolean lowerable;
    private volatile long bytes = Long.MAX_VALUE;

    /** A bound at 2^63-1 bytes, lowered by {@link #offer}. */
    ArenaBound() {
        this(true);
    }

    private ArenaBound(boolean lowerable) {
        this.lowerable = lowerable;
    }

    /** Lowers the bound to {@code arena} (bytes) when that is smaller: a finished run's arena. */
    void offer(long arena) {
        if (!lowerable) return;
        synchronized (this) {
            if (arena < bytes) bytes = arena;
        }
    }

    /** Whether buffers placed up to {@code top} bytes already put a run strictly above the bound. */
    boolean exceededBy(long top) {
        return top > bytes;
    }
}
