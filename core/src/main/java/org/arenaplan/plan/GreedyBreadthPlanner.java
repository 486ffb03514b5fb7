package org.arenaplan.plan;

/**
 * Greedy by breadth (Pisarchyk and Lee, "Efficient Memory Management for Deep Neural Net
 * Inference", 2020): instants in decreasing order of live bytes; at each, its unplaced buffers
 * from largest to smallest, each into the smallest gap that holds it. It packs the widest
 * instants first, where the lower bound is decided. Valid always; optimal never promised.
 */
public final class GreedyBreadthPlanner implements Planner {
    @Override
    public String name() {
        return "greedy-breadth";
    }

    @Override
    public Placement place(Problem problem) {
        return Placement.of(problem, GreedyPlacer.place(problem, Orders.byBreadth(problem), GreedyPlacer.Fit.BEST), name());
    }
}
