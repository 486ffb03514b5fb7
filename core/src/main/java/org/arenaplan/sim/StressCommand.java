package org.arenaplan.sim;

import org.arenaplan.ir.Graph;
import org.arenaplan.plan.Plan;

import java.io.PrintStream;
import java.util.function.Function;

/**
 * Entry point of {@code ./arenaplan stress [--graphs N] [--streams S] [--seed X] [--unsafe] [--exhaustive]}:
 * prints a summary whose last line is exactly {@code premature_reuses=K runs=N}; returns the exit
 * code, 0 when K = 0. {@code unsafe} plans with {@link UnsafePlanner} (the detector's
 * sensitivity: K should be most of N).
 */
public final class StressCommand {
    private StressCommand() { }

    public static int run(int graphs, int streams, long seed, boolean unsafe, boolean exhaustive, PrintStream out) {
        return run(graphs, streams, seed, unsafe, exhaustive, Stress::defaultPlan, out);
    }

    /** The same with the safe planner under test given (e.g. the streams planner). */
    public static int run(int graphs, int streams, long seed, boolean unsafe, boolean exhaustive,
                          Function<Graph, Plan> safePlanner, PrintStream out) {
        return run(graphs, streams, seed, unsafe, exhaustive, safePlanner, out, done -> { });
    }

    /** The same, reporting the graphs done to {@code progress} (the command line's progress bar). */
    public static int run(int graphs, int streams, long seed, boolean unsafe, boolean exhaustive,
                          Function<Graph, Plan> safePlanner, PrintStream out, java.util.function.IntConsumer progress) {
        if (graphs < 1) throw new IllegalArgumentException("--graphs must be at least 1, got " + graphs);
        if (streams < 1) throw new IllegalArgumentException("--streams must be at least 1, got " + streams);
        Stress.Options o = exhaustive ? Stress.Options.exhaustive(graphs, streams, seed) : Stress.Options.live(graphs, streams, seed);
        out.println("stress: " + graphs + " random graphs on " + o.streams() + " streams, seed " + seed + ", "
                + (unsafe ? "UNSAFE planner (position-only reuse)" : "planner under test") + ", "
                + (exhaustive ? "every interleaving" : "random delays up to " + o.maxDelayNanos() / 1000 + " us"));
        Stress.Result r = Stress.run(o, unsafe ? UnsafePlanner::plan : safePlanner, out, progress);
        return r.prematureReuses() == 0 && r.wrongOutputs() == 0 ? 0 : 1;
    }

    /** {@code java ... org.arenaplan.sim.StressCommand GRAPHS STREAMS SEED [unsafe] [exhaustive]}. */
    public static void main(String[] args) {
        int graphs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int streams = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        boolean unsafe = java.util.Arrays.asList(args).contains("unsafe");
        boolean exhaustive = java.util.Arrays.asList(args).contains("exhaustive");
        System.exit(run(graphs, streams, seed, unsafe, exhaustive, System.out));
    }
}
