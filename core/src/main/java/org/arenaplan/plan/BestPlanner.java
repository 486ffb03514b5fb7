package org.arenaplan.plan;

import org.arenaplan.plan.search.CapacityProbes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Runs every greedy heuristic, with several deterministic tie orders and both fit rules, and
 * keeps the smallest arena (as XLA's and ExecuTorch's planners do). Never worse than any single
 * heuristic it runs to the end, by construction.
 *
 * <p>Steps: build the problem's lower bound, interval index and overlap count once; run the
 * {@value #COUNT} candidates below, each through {@link GreedyPlacer#place} (exact where that is
 * affordable, else swept; greedy-size and greedy-breadth then through {@link SqueakySweep}, as the
 * planners of those names), and where they were exact run them again swept ({@link SweepPlacer}),
 * which packs some traces tighter (S_1: 1.0070 x LB swept against 1.0158 exact); the runs go on
 * as many threads as there are cores (the caller and the common fork-join pool), each thread
 * taking the next run (exact ones first, each kind in {@link #RUN_ORDER}, cheapest first) until
 * none is left; keep the smallest arena, ties to the run listed first (exact before swept, then
 * as in {@link #CANDIDATES}), so the result does not depend on thread timing. Branch and bound
 * ({@link ArenaBound}): each finished run lowers a shared bound to its arena, and a run whose
 * placed buffers already reach strictly above the bound stops, as it cannot win; the winner is
 * the one every run finishing would give. Cost: the runs' costs (see {@link GreedyPlacer},
 * {@link SweepPlacer}) divided among the cores, less what the bound cuts (on
 * {@code WideTraces.generate(42, 62_000, 9_000)} a losing run passes the smallest arena about
 * half-way through its sweep), plus O(n log n) per order.
 *
 * <p>Last step ({@link ExactFinish}): when the smallest arena is above the lower bound, no run
 * was cut, and the problem has at most {@value ExactFinish#MAX_BUFFERS} buffers, the exact
 * search of {@code search} probes the capacities below it, the lower bound first, within a
 * node limit ({@value ExactFinish#NODE_LIMIT}, or {@value ExactFinish#NODE_WORK} / n when
 * smaller) on one thread, and its placement replaces the heuristics' where it is smaller (label
 * {@code best(exact search)}); where it refutes every smaller capacity the heuristics' placement
 * is marked proven optimal. Deterministic (nodes are counted, not timed). Cost: nothing where
 * it does not run; else see {@link ExactFinish} (at most about a second of CPU).
 *
 * <p>Time limit (null: none): the candidates' sorts ({@link Orders}) and placements
 * ({@link GreedyPlacer}) read the clock; past the deadline a candidate stacks the buffers it has
 * not placed on top (all of them, in index order, when it was still sorting: valid, not tight),
 * and no further candidate starts (when none had, the first in {@link #RUN_ORDER} stacks every
 * buffer). The cheapest candidates run first (see {@link #RUN_ORDER}), so a complete placement
 * exists early. The winner is the smallest arena among those that exist; its label says "cut
 * at the time limit" when it did not finish, and "k of N runs finished" when the deadline
 * stopped or kept out any run (the arena may then be above what {@code best} finds without
 * a limit, even when the winner itself finished). Work done past the deadline, per thread: at most
 * one merge (O(n)) and a {@value Orders#CLOCK_RUN}-index sort, or
 * {@value GreedyPlacer#CLOCK_EVERY} placements; then O(n) per candidate to stack and measure.
 * Not cut: the lower bound, interval index and overlap count, built once per problem before
 * the candidates start (a few primitive O(n log n) sorts; under 0.1 s for 62,000 buffers).
 *
 * <p>Memory: every run's offsets are kept until the winner is chosen, a {@code long} per buffer
 * per run (R runs: {@value #COUNT}, or twice that when the exact runs are rerun swept), so
 * O(R n); plus, on each thread, the scratch of the run it is doing (see
 * {@link GreedySizePlanner} and {@link GreedyBreadthPlanner}), and the shared interval index
 * (O(n)).
 */
public final class BestPlanner extends TimeLimitedPlanner {
    /** Where a candidate sweeps: as the planner of its label does. */
    private enum Sweep {
        /** {@link GreedyPlacer#place}: {@link SweepPlacer#placeSmaller}. */
        FORWARD,
        /** {@link SqueakySweep} without the rounds: the two peak sweeps ({@code greedy-size}). */
        PEAK,
        /** {@link SqueakySweep}: the two peak sweeps and a squeaky-wheel round ({@code greedy-breadth}). */
        PEAK_AND_ROUND
    }

    /** @param sweep how it places where the problem is swept */
    private record Candidate(String label, Orders.Order order, GreedyPlacer.Fit fit, Sweep sweep) {
        Candidate(String label, Orders.Order order, GreedyPlacer.Fit fit) {
            this(label, order, fit, Sweep.FORWARD);
        }
    }

    private static final List<Candidate> CANDIDATES = List.of(
            new Candidate("greedy-size", Orders::bySizeDesc, GreedyPlacer.Fit.BEST, Sweep.PEAK),
            new Candidate("greedy-breadth", Orders::byBreadth, GreedyPlacer.Fit.BEST, Sweep.PEAK_AND_ROUND),
            new Candidate("size-then-start", Orders::bySizeThenStart, GreedyPlacer.Fit.BEST),
            new Candidate("size-then-end", Orders::bySizeThenEndDesc, GreedyPlacer.Fit.BEST),
            new Candidate("area", Orders::byAreaDesc, GreedyPlacer.Fit.BEST),
            new Candidate("duration", Orders::byDurationDesc, GreedyPlacer.Fit.BEST),
            new Candidate("size-first-fit", Orders::bySizeDesc, GreedyPlacer.Fit.FIRST),
            new Candidate("breadth-first-fit", Orders::byBreadth, GreedyPlacer.Fit.FIRST));
    private static final int COUNT = 8;
    /**
     * Indices into {@link #CANDIDATES}, in the order the threads start them: size-first-fit (the
     * cheapest: on S_1 about 80 ms of CPU against about 200 ms for each best-fit candidate; on
     * wide traces a fifth to a quarter of best fit, and the winner there), size-then-start (the
     * winner on most real traces), breadth-first-fit, then the best-fit ones.
     */
    private static final int[] RUN_ORDER = {6, 2, 7, 0, 1, 5, 3, 4};

    private final boolean bounded;
    /** Whether {@link ExactFinish} runs after the heuristics (not for {@code search}, which runs its own). */
    private final boolean exactFinish;
    /** {@link #progressNote()}'s note of the exact step while it probes, else empty. */
    private volatile String exactNote = "";
    /** {@link #progressNote()}: runs finished, out of {@link #total}. */
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicInteger total = new AtomicInteger(COUNT);
    /** Runs stopped once past the smallest arena finished so far ({@link ArenaBound}). */
    private final AtomicInteger outrun = new AtomicInteger();

    /** No time limit. */
    public BestPlanner() {
        this(null);
    }

    /** @param timeLimit how long one {@link #place} may take, or null for no limit */
    public BestPlanner(Duration timeLimit) {
        this(timeLimit, true);
    }

    /** @param bounded whether runs stop once past the smallest finished arena (false: every run finishes; for tests) */
    BestPlanner(Duration timeLimit, boolean bounded) {
        this(timeLimit, bounded, true);
    }

    private BestPlanner(Duration timeLimit, boolean bounded, boolean exactFinish) {
        super(timeLimit);
        this.bounded = bounded;
        this.exactFinish = exactFinish;
    }

    /**
     * The heuristics alone, without {@link ExactFinish}, and no time limit of their own: the
     * incumbent of the {@code search} planner, which runs the exact search itself afterwards.
     */
    public static BestPlanner heuristicsOnly() {
        return new BestPlanner(null, true, false);
    }

    @Override
    public String name() {
        return "best";
    }

    /** "k of 8 heuristics finished" (of 16 where each also runs swept), and how many of those stopped at the bound. */
    @Override
    public String progressNote() {
        int o = outrun.get();
        return finished.get() + " of " + total.get() + " heuristics finished" + (o == 0 ? "" : ", " + o + " of them stopped once past the smallest arena") + exactNote;
    }

    /** Labels of the heuristics tried, in order. */
    public static List<String> heuristics() {
        List<String> l = new ArrayList<>();
        for (Candidate c : CANDIDATES) l.add(c.label());
        return l;
    }

    @Override
    Placement placeBy(Problem problem, long deadline) {
        if (problem.size() == 0) return new Placement(new long[0], 0, name(), true);
        finished.set(0);
        outrun.set(0);
        boolean alsoSwept;
        try {                         // past the deadline, no thread starts a run: the setup is skipped
            if (GreedyPlacer.passed(deadline)) throw new Orders.TimeUp();
            alsoSwept = GreedyPlacer.isExactAffordable(problem, deadline) && !problem.hasExtraConflicts();
            problem.index();          // shared by the threads: built once, before them
        } catch (Orders.TimeUp e) {
            alsoSwept = false;
        }
        int runs = alsoSwept ? 2 * COUNT : COUNT;  // run r: candidate r % COUNT, swept when r >= COUNT
        int[] runOrder = new int[runs];
        for (int k = 0; k < runs; k++) runOrder[k] = RUN_ORDER[k % COUNT] + (k >= COUNT ? COUNT : 0);
        total.set(runs);
        GreedyPlacer.Result[] results = new GreedyPlacer.Result[runs];
        AtomicInteger next = new AtomicInteger();
        ArenaBound bound = bounded ? new ArenaBound() : ArenaBound.NONE;
        int threads = Math.min(runs, Runtime.getRuntime().availableProcessors());
        IntStream.range(0, threads).parallel().forEach(t -> {
            for (int k = next.getAndIncrement(); k < runs && !GreedyPlacer.passed(deadline); k = next.getAndIncrement()) {
                GreedyPlacer.Result r = run(problem, runOrder[k], deadline, bound);
                results[runOrder[k]] = r;
                if (r.outrun()) outrun.incrementAndGet();
                else bound.offer(Placement.arenaOf(problem, r.offsets()));
                if (r.outrun() || !r.cut()) finished.incrementAndGet();
            }
        });
        if (results[runOrder[0]] == null)          // the deadline had passed before any thread began
            results[runOrder[0]] = run(problem, runOrder[0], deadline, ArenaBound.NONE);
        int winner = 0;
        long bestArena = Long.MAX_VALUE;
        for (int c = 0; c < results.length; c++) {
            if (results[c] == null || results[c].outrun()) continue;   // not started (deadline), or past the bound
            long arena = Placement.arenaOf(problem, results[c].offsets());
            if (arena < bestArena) {
                bestArena = arena;
                winner = c;
            }
        }
        GreedyPlacer.Result w = results[winner];
        int done = finished.get();            // runs that placed every buffer or were outrun: the others were cut or never began
        String stopped = done < runs ? done + " of " + runs + " runs finished" : "";
        String label = Placement.label(name(), "(", ")", w.cut(), CANDIDATES.get(winner % COUNT).label(), GreedyPlacer.sweptNote(w), stopped);
        Placement heuristic = new Placement(w.offsets(), bestArena, label, Placement.reachesLowerBound(problem, bestArena, w.cut()), w.cut());
        return exactFinish && done == runs && !w.cut() && ExactFinish.applies(problem, bestArena) ? finish(problem, heuristic, deadline) : heuristic;
    }

    /** {@link ExactFinish}: the exact search's smaller placement, or the heuristics' (proven optimal where every smaller capacity was refuted). */
    private Placement finish(Problem problem, Placement heuristic, long deadline) {
        CapacityProbes.Result r = ExactFinish.lower(problem, heuristic.arenaBytes(), deadline,
                (cap, probesLeft, arena, proven) -> exactNote = ", exact search probing " + cap + " B (" + probesLeft + " probe(s) left at most)");
        exactNote = "";
        boolean optimal = r.arena() <= r.provenLowerBound();
        if (r.offsets() == null) return new Placement(heuristic.offsets(), heuristic.arenaBytes(), heuristic.planner(), optimal);
        return new Placement(r.offsets(), r.arena(), Placement.label(name(), "(", ")", false, ExactFinish.LABEL), optimal);
    }

    /**
     * Run r: candidate {@code r % COUNT} through {@link GreedyPlacer#place} (greedy-size and
     * greedy-breadth, where that would sweep, through {@link SqueakySweep}, as
     * {@link GreedySizePlanner} and {@link GreedyBreadthPlanner} do), or swept when {@code r >= COUNT}.
     */
    private static GreedyPlacer.Result run(Problem problem, int r, long deadline, ArenaBound bound) {
        Candidate c = CANDIDATES.get(r % COUNT);
        int[] order = Orders.orIndexOrder(c.order(), problem, deadline);
        if (r >= COUNT) return SweepPlacer.placeSmaller(problem, order, c.fit(), deadline, bound);
        return c.sweep() == Sweep.FORWARD ? GreedyPlacer.place(problem, order, c.fit(), deadline, bound)
                : SqueakySweep.placeOrExact(problem, order, c.fit(), deadline, bound, c.sweep() == Sweep.PEAK_AND_ROUND);
    }
}
