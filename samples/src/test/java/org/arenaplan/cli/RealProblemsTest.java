package org.arenaplan.cli;

import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every real trace in {@code ../shared/problems/real/} plans through {@code plan X.csv --out S.csv}
 * into a solution {@code validate} accepts. The planner is {@code greedy-size} (one heuristic:
 * {@code best} runs eight and is too slow for CI on the 28k-buffer traces); override with
 * {@code -Darenaplan.realPlanner=best}.
 */
class RealProblemsTest {
    private static final Path REAL = Path.of("..", "..", "shared", "problems", "real");
    private static final String PLANNER = System.getProperty("arenaplan.realPlanner", "greedy-size");

    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> everyRealTracePlansIntoAValidSolution() throws Exception {
        Path real = REAL.toAbsolutePath().normalize();
        if (!Files.isDirectory(real)) real = Path.of("..", "shared", "problems", "real").toAbsolutePath().normalize();
        Path root = real;
        Assumptions.assumeTrue(Files.isDirectory(root), () -> {
            System.out.println("RealProblemsTest skipped: " + root + " is absent (the shared data lives beside the repository)");
            return "no shared data at " + root;
        });
        List<Path> files;
        try (Stream<Path> s = Files.list(root)) {
            files = s.filter(f -> f.toString().endsWith(".csv")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            Path solution = dir.resolve(f.getFileName());
            Cli plan = Cli.run("plan", f.toString(), "--planner", PLANNER, "--out", solution.toString());
            assertThat(plan.code()).as(plan.toString()).isZero();
            Cli check = Cli.run("validate", f.toString(), solution.toString());
            assertThat(check.code()).as(check.toString()).isZero();
            Problem p = ProblemCsv.read(f, 1);
            long arena = arenaOf(solution);
            // Real traces: valid, and no worse than 5 % over the lower bound.
            assertThat(arena).isLessThanOrEqualTo(p.lowerBound() + p.lowerBound() / 20);
            System.out.printf("%s: %d buffers, arena %d, lower bound %d, arena/LB %.4f (%s)%n",
                    f.getFileName(), p.size(), arena, p.lowerBound(), (double) arena / p.lowerBound(), PLANNER);
        }));
    }

    private static long arenaOf(Path solution) throws Exception {
        ProblemCsv.Parsed s = ProblemCsv.readSolution(solution, 1);
        long arena = 0;
        for (int i = 0; i < s.problem().size(); i++) arena = Math.max(arena, s.offsets()[i] + s.problem().bytes(i));
        return arena;
    }
}
