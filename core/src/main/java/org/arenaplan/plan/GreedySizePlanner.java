package org.arenaplan.plan;

/**
 * Best-fit decreasing (TFLite Micro's GreedyMemoryPlanner): buffers from largest to smallest
 * (ties: longer-lived, then earlier, then index), each into the smallest gap among its placed
 * conflicting neighbours that holds it (ties: lowest offset), else on top of them.
 * Guarantees a valid placement; no bound on its distance from the optimum.
 */
public final class GreedySizePlanner implements Planner {
    @Override
    public String name() {
        return "greedy-size";
    }

    @Override
    public Placement place(Problem problem) {
        return Placement.of(problem, GreedyPlacer.place(problem, Orders.bySizeDesc(problem), GreedyPlacer.Fit.BEST), name());
    }
}
