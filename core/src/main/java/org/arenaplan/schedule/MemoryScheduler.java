package org.arenaplan.schedule;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.plan.ArenaPlanner;

import java.time.Duration;

/**
 * Chooses the op order of a graph that lowers the peak of live bytes, within the orders its data
 * dependences (and, with several streams, each stream's issue order) allow: "liveness is a
 * property of the schedule", so the arena's lower bound can only fall below the file order's by
 * reordering.
 *
 * <p>Steps:
 * <ol>
 *   <li>The dependence order ({@link Dependences}) and the incremental live-bytes model
 *       ({@link LiveModel}, whose groups and rules are {@link Lifetimes}'s).</li>
 *   <li>{@link GreedyScheduler}: a deterministic list-scheduling run, then randomised runs, for a
 *       quarter of the time limit; the incumbent is the better of it and the file order.</li>
 *   <li>{@link ExactScheduler}: dynamic programming over scheduled sets with memoisation and
 *       branch-and-bound against the incumbent, until it finishes (the order is then optimal) or
 *       hits the state cap or the time limit (then the best order seen is kept, "heuristic").</li>
 *   <li>The lower bound of the chosen order and of the file order, both from {@link Lifetimes}
 *       of the reordered graph; the file order is kept unless the chosen one is strictly lower,
 *       so the result is never worse than the file order.</li>
 * </ol>
 * Cost: steps 1 and 4 are O(ops + tensors) plus one liveness; step 2 O(runs x ops x ready ops);
 * step 3 is exponential in the graph's width and bounded by the options.
 */
public final class MemoryScheduler {
    /**
     * @param timeLimit       wall-clock limit of the search (the greedy runs get a quarter)
     * @param maxExactStates  memo entries the exact search may keep before it gives up
     */
    public record Options(ScheduleMode mode, long alignment, Duration timeLimit, long maxExactStates) {
        public static final Options DEFAULT = new Options(ScheduleMode.FILE, ArenaPlanner.CUDA_ALIGNMENT, Duration.ofSeconds(5), 1_000_000);

        public Options withMode(ScheduleMode m) { return new Options(m, alignment, timeLimit, maxExactStates); }

        public Options withAlignment(long a) { return new Options(mode, a, timeLimit, maxExactStates); }

        public Options withTimeLimit(Duration d) { return new Options(mode, alignment, d, maxExactStates); }

        public Options withMaxExactStates(long s) { return new Options(mode, alignment, timeLimit, s); }
    }

    private static final int GREEDY_RUNS = 64;
    /** Memory the exact search's memo may take, bytes (keys are bit sets over ops and hints). */
    private static final long MEMO_BYTES = 256L << 20;

    private MemoryScheduler() { }

    /** The file order, or with {@link ScheduleMode#MEMORY} the order of least peak found. */
    public static Schedule schedule(Graph g, Options o) {
        long t0 = System.nanoTime();
        long fileLb = lowerBound(g, o.alignment());
        if (o.mode() == ScheduleMode.FILE || g.opCount() < 2) {
            return new Schedule(g, o.mode(), "file", fileLb, fileLb, false, (System.nanoTime() - t0) / 1e6);
        }
        Dependences deps = Dependences.of(g);
        LiveModel model = new LiveModel(g, o.alignment());
        long limit = o.timeLimit().toNanos();
        int[] file = Reorder.identity(g.opCount());
        int[] greedy = GreedyScheduler.search(deps, model, t0 + limit / 4, GREEDY_RUNS, 1);
        int[] incumbent = model.peakOf(greedy) < model.peakOf(file) ? greedy : file;
        long keyBytes = 64 + 8L * ((g.opCount() + model.hintCount + 63) / 64);
        long states = Math.min(o.maxExactStates(), MEMO_BYTES / keyBytes);
        ExactScheduler.Result exact = ExactScheduler.search(deps, model, incumbent, states, t0 + limit);
        Graph chosen = Reorder.of(g, exact.order());
        long lb = lowerBound(chosen, o.alignment());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (lb >= fileLb) return new Schedule(g, o.mode(), "file", fileLb, fileLb, exact.exact(), ms);
        return new Schedule(chosen, o.mode(), exact.exact() ? "exact" : "heuristic", fileLb, lb, exact.exact(), ms);
    }

    /** The lower bound of any arena for the graph in its own order: the most aligned bytes live at once, per {@link Lifetimes}. */
    public static long lowerBound(Graph g, long alignment) {
        return ArenaPlanner.problemOf(Lifetimes.of(g), alignment).lowerBound();
    }
}
