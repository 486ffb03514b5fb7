package org.arenaplan.bench;

import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.BestPlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.WideTraces;
import org.arenaplan.plan.search.SearchPlanner;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code best}'s last step, the exact search under a node limit ({@code ExactFinish}), on the
 * problems it runs on: {@code best} against its heuristics alone ({@code heuristics}), so the
 * difference is the step; and {@code search} with a capacity ({@code searchCapacity}: MiniMalloc's
 * capacity on its challenging instances, the heuristics' arena elsewhere), which runs the same
 * step after a fit. Problems: resnet50 and tiny_bert (../shared/problems/real), MiniMalloc's
 * challenging A, C, E, G, I and K (../shared/problems/challenging), and a wide trace of 1,000
 * buffers about 100 live at once ({@code WideTraces.generate(1, 1000, 100)}, on which the step
 * stops at its node limit). Each trial prints its last arena (lines starting {@code arena};
 * the benchmarks run in alphabetical order), so runs of two builds can be checked for the same
 * answers. Uses only API that main had before
 * the incremental ranking, so the same source measures both.
 *
 * <pre>java -cp samples/target/arenaplan.jar org.openjdk.jmh.Main ExactFinishBench</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ExactFinishBench {
    private static final PlannerOptions NO_LIMIT = new PlannerOptions(null, null);

    @State(Scope.Benchmark)
    public static class Instance {
        @Param({"resnet50", "tiny_bert", "A", "C", "E", "G", "I", "K", "wide-1000-100"})
        public String problem;

        Problem p;
        long capacity;
        long arena;

        @Setup(Level.Trial)
        public void read() throws Exception {
            p = switch (problem) {
                case "wide-1000-100" -> WideTraces.generate(1, 1_000, 100);
                case "resnet50", "tiny_bert" -> ProblemCsv.read(shared("real/" + problem + ".csv"), 1);
                default -> ProblemCsv.read(shared("challenging/" + problem + ".1048576.csv"), 1);
            };
            capacity = problem.length() == 1 ? ChallengingBench.CHALLENGING_CAPACITY : BestPlanner.heuristicsOnly().place(p).arenaBytes();
        }

        @TearDown(Level.Trial)
        public void report() {
            System.out.printf(Locale.ROOT, "%narena %s: %d (lower bound %d, %d buffers)%n", problem, arena, p.lowerBound(), p.size());
        }
    }

    /** ../shared/problems/RELATIVE, from the repository root or a module folder; IllegalStateException when absent. */
    static Path shared(String relative) {
        for (String root : new String[]{"../shared/problems/", "../../shared/problems/"}) {
            Path f = Path.of(root + relative);
            if (Files.exists(f)) return f;
        }
        throw new IllegalStateException(relative + " not found under ../shared/problems (run from the repo root)");
    }

    @Benchmark
    public Placement best(Instance s) {
        Placement out = new BestPlanner().place(s.p);
        s.arena = out.arenaBytes();
        return out;
    }

    @Benchmark
    public Placement heuristics(Instance s) {
        Placement out = BestPlanner.heuristicsOnly().place(s.p);
        s.arena = out.arenaBytes();
        return out;
    }

    @Benchmark
    public Placement searchCapacity(Instance s) {
        Placement out = new SearchPlanner(NO_LIMIT.withCapacity(s.capacity)).place(s.p);
        s.arena = out.arenaBytes();
        return out;
    }
}
