package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GPU runner's jars as this build packed them ({@code target/gpu-runner}, what pack.sh copies):
 * every class the GPU tests refer to is shipped, in a jar or in the jlink'd runtime's modules.
 * Runs after {@code package} (surefire execution {@code pack-test}).
 */
class PackIT {
    private static final Path LIB = Path.of("target", "gpu-runner");

    @Test
    void everyClassTheTestsReferToIsShippedByARuntimeWithoutJavaDesktop() throws Exception {
        List<String> modules = PackCheck.modules(LIB);
        assertThat(modules).as("protobuf and byte-buddy use sun.misc.Unsafe").contains("java.base", "jdk.zipfs", "jdk.unsupported").doesNotContain("java.desktop");
        assertThat(PackCheck.classPath(LIB)).anyMatch(p -> p.getFileName().toString().startsWith("assertj-core"));
        assertThat(Files.size(LIB.resolve(PackCheck.TESTS_JAR))).isPositive();
        List<PackCheck.Missing> missing = PackCheck.missing(LIB.resolve(PackCheck.TESTS_JAR), PackCheck.classPath(LIB), modules);
        assertThat(missing).as("classes the GPU tests refer to that the pack does not ship").isEmpty();
    }
}
