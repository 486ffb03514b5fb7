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

    /**
     * The candidates run in parallel (they are independent); the winner is the smallest arena,
     * ties to the earlier candidate, so the result does not depend on thread timing.
     */
    @Override
    public Placement place(Problem problem) {
        if (problem.size() == 0) return new Placement(new long[0], 0, name(), true);
        long lb = problem.lowerBound();
        problem.index();   // build the shared index once, before the threads use it
        List<long[]> results = CANDIDATES.parallelStream()
                .map(c -> GreedyPlacer.place(problem, c.order().apply(problem), c.fit()))
                .toList();
        int winner = 0;
        long bestArena = Long.MAX_VALUE;
        for (int c = 0; c < results.size(); c++) {
            long arena = Placement.arenaOf(problem, results.get(c));
            if (arena < bestArena) {
                bestArena = arena;
                winner = c;
            }
        }
        return new Placement(results.get(winner), bestArena, name() + "(" + CANDIDATES.get(winner).label() + ")", bestArena <= lb);
    }
}
