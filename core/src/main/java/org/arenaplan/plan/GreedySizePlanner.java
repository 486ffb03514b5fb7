package org.arenaplan.plan;

import java.time.Duration;

/**
 * Best-fit decreasing (TFLite Micro's GreedyMemoryPlanner): buffers from largest to smallest
 * (ties: longer-lived, then earlier, then index), each into the smallest gap among its placed
 * conflicting neighbours that holds it (ties: lowest offset), else on top of them.
 * Guarantees a valid placement; no bound on its distance from the optimum.
 *
 * <p>Steps and cost: sort (O(n log n)); place in that order with {@link GreedyPlacer} (its
 * comment gives the cost of finding each gap). With a time limit, the sort and the placement read
 * the clock; buffers not placed by then are stacked on top (all of them, in index order, when
 * the sort was cut) and the planner's label says "cut at the time limit".
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
        return GreedyPlacer.placement(problem, GreedyPlacer.place(problem, Orders.orIndexOrder(Orders::bySizeDesc, problem, deadline), GreedyPlacer.Fit.BEST, deadline), name());
    }
}
