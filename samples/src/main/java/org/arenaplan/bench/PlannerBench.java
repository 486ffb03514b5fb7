package org.arenaplan.bench;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.SyntheticGraphs;
import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Planner;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.WideTraces;
import org.arenaplan.plan.Problem;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Planning time at scale: whole graphs (liveness + placement) of 62,185 and 1,000,000 storages,
 * the S_1 trace from ../shared (28,526 buffers, up to 3,218 live at once), and synthetic wide
 * traces from {@link WideTraces} ({@code placeTrace}): 62,000 buffers about 9,000 live at once,
 * the same shape ten times smaller (6,200 / 900) and larger (620,000 / 90,000), and 1,000,000
 * buffers about 10,000 live.
 * {@code placeTrace} prints each planner's arena / lower bound once per trial, next to JMH's
 * time for it (lines starting {@code arena/LB}).
 *
 * <pre>java -cp samples/target/arenaplan.jar org.openjdk.jmh.Main PlannerBench.placeTrace -p trace=wide-62k-9k</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class PlannerBench {
    private static final PlannerOptions NO_LIMIT = new PlannerOptions(null, null);

    @State(Scope.Benchmark)
    public static class GraphState {
        @Param({"62185", "1000000"})
        public int storages;

        @Param({"greedy-size", "best"})
        public String planner;

        Graph graph;

        @Setup(Level.Trial)
        public void build() {
            graph = SyntheticGraphs.layered(storages - 1, 42);   // + the graph input
        }
    }

    @Benchmark
    public Plan planGraph(GraphState s) {
        return ArenaPlanner.plan(s.graph, ArenaPlanner.Options.DEFAULT.withPlanner(s.planner).withPlannerOptions(NO_LIMIT));
    }

    /** ../shared/problems/real/S_1.csv, from the repository root or a module folder. */
    static Problem readS1() throws Exception {
        return ProblemCsv.read(ExactFinishBench.shared("real/S_1.csv"), 1);
    }

    /** A wide trace (or S_1) placed by one planner, without a time limit. */
    @State(Scope.Benchmark)
    public static class WideState {
        @Param({"wide-62k-9k", "S_1", "wide-1m-10k", "wide-620k-90k", "wide-6200-900"})
        public String trace;

        @Param({"greedy-size", "greedy-breadth", "best"})
        public String planner;

        Problem problem;
        Planner chosen;
        long arena;

        @Setup(Level.Trial)
        public void build() throws Exception {
            problem = switch (trace) {
                case "wide-6200-900" -> WideTraces.generate(42, 6_200, 900);
                case "wide-62k-9k" -> WideTraces.generate(42, 62_000, 9_000);
                case "wide-620k-90k" -> WideTraces.generate(42, 620_000, 90_000);
                case "wide-1m-10k" -> WideTraces.generate(42, 1_000_000, 10_000);
                case "S_1" -> readS1();
                default -> throw new IllegalArgumentException("unknown trace " + trace);
            };
            chosen = Planners.byName(planner, NO_LIMIT);
        }

        @TearDown(Level.Trial)
        public void report() {
            System.out.printf(Locale.ROOT, "%narena/LB %s %s: %.5f (%d buffers, %d live at most)%n", trace, planner,
                    (double) arena / problem.lowerBound(), problem.size(), WideTraces.maxLive(problem));
        }
    }

    @Benchmark
    public long placeTrace(WideState s) {
        s.arena = s.chosen.place(s.problem).arenaBytes();
        return s.arena;
    }
}
