package org.arenaplan.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs every greedy heuristic, with several deterministic tie orders and both fit rules, and
 * keeps the smallest arena (as XLA's and ExecuTorch's planners do). Stops early once one
 * reaches the lower bound. Never worse than any single heuristic it runs, by construction.
 */
public final class BestPlanner implements Planner {
    private record Candidate(String label, Function<Problem, int[]> order, GreedyPlacer.Fit fit) { }

    private static final List<Candidate> CANDIDATES = List.of(
            new Candidate("greedy-size", Orders::bySizeDesc, GreedyPlacer.Fit.BEST),
            new Candidate("greedy-breadth", Orders::byBreadth, GreedyPlacer.Fit.BEST),
            new Candidate("size-then-start", Orders::bySizeThenStart, GreedyPlacer.Fit.BEST),
            new Candidate("size-then-end", Orders::bySizeThenEndDesc, GreedyPlacer.Fit.BEST),
            new Candidate("area", Orders::byAreaDesc, GreedyPlacer.Fit.BEST),
            new Candidate("duration", Orders::byDurationDesc, GreedyPlacer.Fit.BEST),
            new Candidate("size-first-fit", Orders::bySizeDesc, GreedyPlacer.Fit.FIRST),
            new Candidate("breadth-first-fit", Orders::byBreadth, GreedyPlacer.Fit.FIRST));

    @Override
    public String name() {
        return "best";
    }

    /** Labels of the heuristics tried, in order. */
    public static List<String> heuristics() {
        List<String> l = new ArrayList<>();
        for (Candidate c : CANDIDATES) l.add(c.label());
        return l;
    }

    @Override
    public Placement place(Problem problem) {
        long lb = problem.lowerBound();
        long[] best = null;
        long bestArena = Long.MAX_VALUE;
        String bestLabel = null;
        for (Candidate c : CANDIDATES) {
            long[] offsets = GreedyPlacer.place(problem, c.order().apply(problem), c.fit());
            long arena = Placement.arenaOf(problem, offsets);
            if (arena < bestArena) {
                bestArena = arena;
                best = offsets;
                bestLabel = c.label();
            }
            if (bestArena <= lb) break;
        }
        if (best == null) best = new long[0];
        return new Placement(best, problem.size() == 0 ? 0 : bestArena, name() + "(" + bestLabel + ")", bestArena <= lb);
    }
}
