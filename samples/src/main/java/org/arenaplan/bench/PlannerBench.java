package org.arenaplan.bench;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.SyntheticGraphs;
import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Planners;
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
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Planning time at scale: whole graphs (liveness + placement) of 62,185 and 1,000,000 storages,
 * and the S_1 trace from ../shared (28,526 buffers, up to 3,218 live at once).
 *
 * <pre>java -cp samples/target/arenaplan.jar org.openjdk.jmh.Main PlannerBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
public class PlannerBench {

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
        return ArenaPlanner.plan(s.graph, ArenaPlanner.Options.DEFAULT.withPlanner(s.planner));
    }

    @State(Scope.Benchmark)
    public static class TraceState {
        @Param({"greedy-size", "greedy-breadth", "best"})
        public String planner;

        Problem problem;

        @Setup(Level.Trial)
        public void load() throws Exception {
            Path f = Path.of("..", "shared", "problems", "real", "S_1.csv");
            if (!Files.exists(f)) f = Path.of("..", "..", "shared", "problems", "real", "S_1.csv");
            if (!Files.exists(f)) throw new IllegalStateException("S_1.csv not found under ../shared/problems/real (run from the repo root)");
            problem = ProblemCsv.read(f, 1);
        }
    }

    @Benchmark
    public long placeS1(TraceState s) {
        return Planners.byName(s.planner).place(s.problem).arenaBytes();
    }
}
