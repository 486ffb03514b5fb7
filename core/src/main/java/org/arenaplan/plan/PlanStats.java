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

    /**
     * Whether the arena is proven optimal: it meets the lower bound (on several streams, the plan's:
     * live bytes plus the storages no event orders), or the planner proved every smaller arena
     * infeasible ({@code placementProven}, {@link Placement#provenOptimal()}): the plan JSON's
     * {@code proven_optimal}, as the table's "optimal" note.
     */
    public boolean provenOptimal(boolean placementProven) {
        return placementProven || arenaBytes <= lowerBoundBytes;
    }

    /** Fraction of the naive arena (the sum) saved. */
    public double savedFraction() {
        return sumBytes == 0 ? 0 : 1.0 - (double) arenaBytes / sumBytes;
    }
}
