package org.arenaplan.plan;

/**
 * The numbers that say how good a plan is.
 *
 * @param allocCallsNaive   allocator calls per run of a per-tensor allocator: one malloc and one
 *                          free for every tensor that owns bytes (views own none)
 * @param allocCallsPlanned allocator calls per run of the plan: the arena is allocated once at
 *                          load, so 0 per run; 1 is reported as the arena's single allocation
 */
public record PlanStats(String planner, long arenaBytes, long sumBytes, long lowerBoundBytes, int storages, int tensors,
                        long allocCallsNaive, long allocCallsPlanned, double planningMs) {

    /** Arena over lower bound; 1.0 is optimal. */
    public double ratio() {
        return lowerBoundBytes == 0 ? 1.0 : (double) arenaBytes / lowerBoundBytes;
    }

    /** Fraction of the naive arena (the sum) saved. */
    public double savedFraction() {
        return sumBytes == 0 ? 0 : 1.0 - (double) arenaBytes / sumBytes;
    }
}
