package org.arenaplan.plan;

import java.time.Duration;

/**
 * Greedy by breadth (Pisarchyk and Lee, "Efficient Memory Management for Deep Neural Net
 * Inference", 2020): instants in decreasing order of live bytes; at each, its unplaced buffers
 * from largest to smallest, each into the smallest gap that holds it. It packs the widest
 * instants first, where the lower bound is decided. Valid always; optimal never promised.
 *
 * <p>Steps and cost: the live-bytes curve (computed once per problem, shared with the lower
 * bound and the peak sweep) and a sparse table over it give each buffer its widest instant
 * (O(n log n)); sort; place with {@link GreedyPlacer} (its comment gives the cost
 * of finding each gap). Past {@link GreedyPlacer#EXACT_PAIRS} overlapping pairs, where
 * {@link GreedyPlacer} would sweep, {@link SqueakySweep} places instead: a sweep outward from
 * the widest instant ({@link PeakSweep}) twice, the buffers live there stacked by start and by
 * end, the smaller again with a second stack where it made its arena ({@link SecondStack}; again,
 * pinning at more instants, while that wins), then
 * one squeaky-wheel round after the smaller peak sweep that places the buffers it left above the
 * lower bound exactly with the heavy ones, and, unless one of these reached the lower bound, a
 * third peak sweep with the stack by the nearer end of each buffer's lifetime (and its second
 * stack where it wins); before the round, a peak sweep stacked by start with a hole where the
 * first made its arena (the stack's buffers that end before the buffer there starts moved to
 * the top; and its second stack where it wins), keeping the smallest arena (about six sweeps, the
 * later ones cut short once they lose; on {@code WideTraces.generate(seed, 62_000, 9_000)},
 * seeds 1 to 95, no worse than exact placement in breadth order: seed 42 1.00000 x LB
 * where exact placement gives 1.00334, seed 69 1.00000 against 1.00069; docs/scale.md). With a time limit, the sort and the
 * placement read the clock; buffers not placed by then are stacked on top (all of them, in
 * index order, when the sort was cut) and the planner's label says "cut at the time limit"; it
 * says so too where the deadline cut a later sweep and an earlier, complete one was kept.
 *
 * <p>Memory: the live-bytes curve and its sparse table (O(T log T) entries for T instants), the
 * order and the offsets (O(n)), plus the placer's own: the neighbours of one buffer at a time
 * (O(w)) when narrow, the {@link OccupancyTree}'s byte ranges (O(n log T) at most) when wide, a
 * free list of g gaps (O(g)) per sweep when swept, and the offsets of the sweeps compared (O(n)
 * each, at most the six or so sweeps above).
 */
public final class GreedyBreadthPlanner extends TimeLimitedPlanner {
    public GreedyBreadthPlanner() {
        this(null);
    }

    /** @param timeLimit how long one {@link #place} may take, or null for no limit */
    public GreedyBreadthPlanner(Duration timeLimit) {
        super(timeLimit);
    }

    @Override
    public String name() {
        return "greedy-breadth";
    }

    @Override
    Placement placeBy(Problem problem, long deadline) {
        int[] order = Orders.orIndexOrder(Orders::byBreadth, problem, deadline);
        return GreedyPlacer.placement(problem, SqueakySweep.placeOrExact(problem, order, GreedyPlacer.Fit.BEST, deadline, ArenaBound.NONE, true), name());
    }
}
