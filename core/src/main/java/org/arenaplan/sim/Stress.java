package org.arenaplan.sim;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.PerTensorExecutor;
import org.arenaplan.exec.PlannedExecutor;
import org.arenaplan.exec.RunResult;
import org.arenaplan.exec.WeightRegion;
import org.arenaplan.ir.Graph;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.hb.SyncMode;

import java.io.PrintStream;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Stress runs: random graphs ({@link RandomGraphs}) planned by a planner under test and run
 * planned on the simulator, each with its own seed for graph and delays.
 *
 * <p>Per graph: generate; plan; check the plan with the static {@link PlanValidator} (for the
 * report only); run once live with random delays (or, exhaustive, trace the run
 * and try every interleaving the events allow, {@link Interleavings}); count a premature reuse
 * when the detector fires; compare outputs to a single-stream per-tensor reference run and count
 * wrong outputs. Does not: shrink failing graphs (the seed reproduces one).
 */
public final class Stress {

    /**
     * @param graphs            how many random graphs
     * @param streams           streams ops are spread over (exhaustive mode keeps 2 or 3)
     * @param seed              base seed: graph i uses a seed derived from it and i
     * @param maxOps            ops per graph in live mode (exhaustive mode uses at most 8)
     * @param maxDelayNanos     the simulator's largest delay per launch
     * @param exhaustive        try every interleaving instead of random delays
     * @param interleavingLimit per graph, in exhaustive mode
     */
    public record Options(int graphs, int streams, long seed, int maxOps, long maxDelayNanos, boolean exhaustive, long interleavingLimit) {
        public static Options live(int graphs, int streams, long seed) {
            return new Options(graphs, streams, seed, 24, 100_000, false, 0);
        }

        public static Options exhaustive(int graphs, int streams, long seed) {
            return new Options(graphs, Math.max(2, Math.min(3, streams)), seed, 8, 0, true, 200_000);
        }
    }

    /**
     * @param prematureReuses graphs where the detector fired
     * @param wrongOutputs    graphs whose outputs differ from the reference (live mode)
     * @param interleavings   complete interleavings checked (exhaustive mode)
     * @param truncated       graphs whose interleavings exceeded the limit (exhaustive mode)
     * @param invalidPlans    plans the static {@link PlanValidator} rejects (the detector's sensitivity is
     *                        how many of these it catches at run time)
     * @param caughtInvalid   invalid plans the detector caught
     */
    public record Result(int runs, int prematureReuses, int wrongOutputs, long interleavings, int truncated,
                         int invalidPlans, int caughtInvalid) { }

    private Stress() { }

    /** The planner under test by default: the streams planner, keeping the graph's streams, {@code --sync add}. */
    public static Plan defaultPlan(Graph g) {
        return StreamPlanner.plan(g, 0, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
    }

    /** Runs the stress test; prints up to 3 hazards and a summary to {@code out}. */
    public static Result run(Options o, Function<Graph, Plan> planner, PrintStream out) {
        return run(o, planner, out, done -> { });
    }

    /** As {@link #run(Options, Function, PrintStream)}, telling {@code progress} how many graphs are done. */
    public static Result run(Options o, Function<Graph, Plan> planner, PrintStream out, java.util.function.IntConsumer progress) {
        int hazards = 0, wrong = 0, truncated = 0, invalid = 0, caughtInvalid = 0;
        long interleavings = 0;
        for (int i = 0; i < o.graphs(); i++) {
            long seed = o.seed() * 1_000_003L + i;
            SplittableRandom r = new SplittableRandom(seed);
            int ops = o.exhaustive() ? 3 + r.nextInt(6) : 6 + r.nextInt(Math.max(1, o.maxOps() - 5));
            Graph g = RandomGraphs.generate(seed, ops, o.streams());
            Plan plan = planner.apply(g);
            boolean planInvalid = !PlanValidator.validate(plan).isEmpty();
            if (planInvalid) invalid++;
            PrematureReuseException hazard;
            if (o.exhaustive()) {
                Interleavings.Result x = explore(plan, o.interleavingLimit());
                interleavings += x.interleavings();
                if (!x.complete()) truncated++;
                hazard = x.hazard();
            } else {
                Outcome live = runLive(plan, seed, o.maxDelayNanos());
                hazard = live.hazard;
                if (hazard == null && Executors.difference(reference(g, seed), live.result) != null) {
                    wrong++;
                    if (wrong <= 3) out.println("graph seed " + seed + ": " + Executors.difference(reference(g, seed), live.result));
                }
            }
            if (hazard != null) {
                hazards++;
                if (planInvalid) caughtInvalid++;
                if (hazards <= 3) out.println("graph seed " + seed + " (" + g.opCount() + " ops): " + hazard.getMessage());
            }
            progress.accept(i + 1);
        }
        Result res = new Result(o.graphs(), hazards, wrong, interleavings, truncated, invalid, caughtInvalid);
        out.println("plans rejected by the static validator: " + invalid + ", of which caught at run time: " + caughtInvalid);
        if (o.exhaustive()) out.println("interleavings=" + interleavings + " truncated_graphs=" + truncated);
        else out.println("wrong_outputs=" + wrong);
        out.println("premature_reuses=" + hazards + " runs=" + o.graphs());
        return res;
    }

    private record Outcome(RunResult result, PrematureReuseException hazard) { }

    private static Outcome runLive(Plan plan, long seed, long maxDelay) {
        SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(seed).withMaxDelayNanos(maxDelay));
        RunResult result = null;
        try (d; WeightRegion w = new WeightRegion(d, plan.graph(), seed); PlannedExecutor e = new PlannedExecutor(d, plan, w)) {
            result = e.run(Inputs.of(plan.graph(), seed));
        } catch (PrematureReuseException ignored) {
            // counted below from the device's record
        }
        return new Outcome(result, d.hazards().isEmpty() ? null : d.hazards().get(0));
    }

    /** One stream, per-tensor allocation, no delays: the outputs every safe plan must give. */
    private static RunResult reference(Graph g, long seed) {
        Graph one = g.withStreams(p -> 0);
        Plan plan = ArenaPlanner.plan(one);
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT); WeightRegion w = new WeightRegion(d, one, seed);
             PerTensorExecutor e = new PerTensorExecutor(d, plan, w)) {
            return e.run(Inputs.of(one, seed));
        }
    }

    private static Interleavings.Result explore(Plan plan, long limit) {
        SimDevice d = SimDevice.tracing();
        try (d; WeightRegion w = new WeightRegion(d, plan.graph(), 1); PlannedExecutor e = new PlannedExecutor(d, plan, w)) {
            e.run(Inputs.of(plan.graph(), 1));
        } catch (PrematureReuseException ignored) {
            // known at issue (a launch overwriting its own input); kept in d.hazards()
        }
        Interleavings.Result r = Interleavings.explore(d.recorded(), limit);
        if (r.hazard() == null && !d.hazards().isEmpty()) return new Interleavings.Result(r.interleavings(), d.hazards().get(0), r.complete());
        return r;
    }

}
