package org.arenaplan.plan;

import java.time.Duration;

/**
 * Best-fit decreasing (TFLite Micro's GreedyMemoryPlanner): buffers from largest to smallest
 * (ties: longer-lived, then earlier, then index), each into the smallest gap among its placed
 * conflicting neighbours that holds it (ties: lowest offset), else on top of them.
 * Guarantees a valid placement; no bound on its distance from the optimum.
 *
 * <p>Steps and cost: sort (O(n log n)); place in that order with {@link GreedyPlacer} (its
 * comment gives the cost of finding each gap). Past {@link GreedyPlacer#EXACT_PAIRS} overlapping
 * pairs, where {@link GreedyPlacer} would sweep, {@link SqueakySweep} without its rounds places
 * instead: the sweep outward from the widest instant ({@link PeakSweep#placeSmaller}), the
 * buffers live there stacked by start, then by end (stopped once above the first), the smaller
 * kept; the order only breaks ties there (buffers starting, ending or stacked together). Where
 * the heavy half of the area is many buffers (sizes alike), {@link SweepPlacer#placeSmaller}
 * instead, as before (the peak sweeps won on none of the traces with sizes alike of
 * docs/scale.md); where it is a few but past the exact budget, that as well (stopped once above
 * the peak sweep), the peak sweep kept only when strictly smaller. Each peak sweep is O(n log n), with no exact placement and no
 * check against other buffers: the heavy-half sweep it replaces ({@link SweepPlacer}) placed
 * the heavy buffers exactly, which grew 27x for ten times {@code WideTraces.generate(42, 62_000,
 * 9_000)}, and lost to exact placement in this order on 6 of 24 seeds of that shape, where the
 * peak sweep loses on none (docs/scale.md). With a time limit, the sort and the placement read
 * the clock; buffers not placed by then are stacked on top (all of them, in index order, when
 * the sort was cut) and the planner's label says "cut at the time limit"; it says so too where
 * the deadline cut a later sweep and an earlier, complete one was kept.
 *
 * <p>Memory: the order and the offsets (O(n): an int and a long per buffer), plus the placer's
 * own: the neighbours of one buffer at a time (O(w)) when narrow, the {@link OccupancyTree}'s
 * byte ranges (O(n log T) at most, T distinct starts) when wide, a free list of g gaps (O(g))
 * when swept.
 */
public final class GreedySizePlanner extends TimeLimitedPlanner {
    public GreedySizePlanner() {
        this(null);
    }

    /** @param timeLimit how long one {@link #place} may take, or null for no limit */
    public GreedySizePlanner(Duration timeLimit) {
        super(timeLimit);
    }

    @Override
    public String name() {
        return "greedy-size";
    }

    @Override
    Placement placeBy(Problem problem, long deadline) {
        int[] order = Orders.orIndexOrder(Orders::bySizeDesc, problem, deadline);
        return GreedyPlacer.placement(problem, SqueakySweep.placeOrExact(problem, order, GreedyPlacer.Fit.BEST, deadline, ArenaBound.NONE, false), name());
    }
}
