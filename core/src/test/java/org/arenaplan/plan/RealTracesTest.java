package org.arenaplan.plan;

import org.arenaplan.io.ProblemCsv;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Every placement problem in ../shared/problems/real plans with `best` and validates. */
class RealTracesTest {
    static final Path REAL = Path.of("..", "..", "shared", "problems", "real");

    static List<Path> realTraces() throws IOException {
        Path dir = REAL.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) dir = Path.of("..", "shared", "problems", "real").toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> bestPlansEveryRealTraceValidly() throws IOException {
        List<Path> files = realTraces();
        if (files.isEmpty()) {
            System.out.println("RealTracesTest skipped: ../shared/problems/real not found (a user's clone has no shared data)");
        }
        assumeTrue(!files.isEmpty(), "../shared/problems/real not found");
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            Problem p = ProblemCsv.read(f, 1);
            Placement s = new BestPlanner().place(p);
            assertThat(PlacementValidator.validate(p, s)).isEmpty();
            long lb = p.lowerBound();
            assertThat(s.arenaBytes()).isGreaterThanOrEqualTo(lb);
            System.out.printf("%-16s buffers=%6d LB=%12d best=%12d ratio=%.4f (%s)%n", f.getFileName(), p.size(), lb, s.arenaBytes(),
                    (double) s.arenaBytes() / lb, s.planner());
        }));
    }
}
