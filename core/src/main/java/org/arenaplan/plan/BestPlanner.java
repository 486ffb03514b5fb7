package org.arenaplan.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs every greedy heuristic, with several deterministic tie orders and both fit rules, and
 * keeps the smallest arena (as XLA's and ExecuTorch's planners do). Never worse than any single
 * heuristic it runs to the end, by construction.
 *
 * <p>Steps: build the problem's interval index once; run the {@value #COUNT} candidates below on
 * the common fork-join pool (they are independent), each through {@link GreedyPlacer#place}
 * (exact where that is affordable, else swept); where it was exact, run them again swept
 * ({@link SweepPlacer}), which packs some traces tighter (S_1: 1.0070 x LB swept against 1.0158
 * exact); keep the smallest arena, ties to the earlier run (exact before swept), so the result
 * does not depend on thread timing. Cost: the runs' costs divided among the cores, plus
 * O(n log n) per order.
 *
 * <p>Time limit (null: none): every candidate reads the clock as it places (see
 * {@link GreedyPlacer}); past the deadline each stacks its unplaced buffers on top, and
 * candidates not yet started are skipped (the first always runs), so the call returns within
 * the limit plus the sorts already under way and {@value GreedyPlacer#CLOCK_EVERY} placements. The winner is still the smallest
 * arena; its label says "cut at the time limit" when it did not finish.
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
    private static final int COUNT = 8;

    private final Duration timeLimit;

    /** No time limit. */
    public BestPlanner() {
        this(null);
    }

    /** @param timeLimit how long one {@link #place} may take, or null for no limit */
    public BestPlanner(Duration timeLimit) {
        this.timeLimit = timeLimit;
    }

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
        return place(problem, GreedyPlacer.deadlineAfter(timeLimit));
    }

    /**
     * @param deadline a {@link System#nanoTime()} value by which to return (the candidates cut
     *                 short there), or {@link GreedyPlacer#NO_DEADLINE}
     */
    public Placement place(Problem problem, long deadline) {
        if (problem.size() == 0) return new Placement(new long[0], 0, name(), true);
        long lb = problem.lowerBound();
        problem.index();   // build the shared index once, before the threads use it
        boolean alsoSwept = GreedyPlacer.isExactAffordable(problem) && !problem.hasExtraConflicts();
        List<Run> runs = new ArrayList<>();
        for (Candidate c : CANDIDATES) runs.add(new Run(c, false));
        if (alsoSwept) for (Candidate c : CANDIDATES) runs.add(new Run(c, true));
        List<GreedyPlacer.Result> results = runs.parallelStream()
                .map(r -> r != runs.get(0) && GreedyPlacer.passed(deadline) ? null : r.place(problem, deadline))
                .toList();
        int winner = 0;
        long bestArena = Long.MAX_VALUE;
        for (int c = 0; c < results.size(); c++) {
            if (results.get(c) == null) continue;        // not started: the deadline had passed
            long arena = Placement.arenaOf(problem, results.get(c).offsets());
            if (arena < bestArena) {
                bestArena = arena;
                winner = c;
            }
        }
        String label = runs.get(winner).candidate().label() + GreedyPlacer.notes(results.get(winner), ", ", "");
        return new Placement(results.get(winner).offsets(), bestArena, name() + "(" + label + ")", bestArena <= lb);
    }

    /** A candidate placed by {@link GreedyPlacer#place}, or swept whatever the problem's size. */
    private record Run(Candidate candidate, boolean swept) {
        GreedyPlacer.Result place(Problem problem, long deadline) {
            int[] order = candidate.order().apply(problem);
            return swept ? SweepPlacer.place(problem, order, candidate.fit(), SweepPlacer.HEAVY_HALF, deadline)
                    : GreedyPlacer.place(problem, order, candidate.fit(), deadline);
        }
    }
}
