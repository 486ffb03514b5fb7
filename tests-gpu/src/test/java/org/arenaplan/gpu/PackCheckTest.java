package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PackCheck} finds a library the tests need when it is left out (what broke the first GPU run). */
class PackCheckTest {
    private static final Path TEST_CLASSES = Path.of("target", "test-classes");

    private static List<Path> testClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of)
                .filter(p -> !p.toAbsolutePath().equals(TEST_CLASSES.toAbsolutePath())).toList();
    }

    @Test
    void aClassPathWithoutAssertJMissesTheAssertions() {
        List<Path> withoutAssertJ = testClassPath().stream().filter(p -> !p.toString().contains("assertj")).toList();
        List<PackCheck.Missing> missing = PackCheck.missing(TEST_CLASSES, withoutAssertJ, List.of("java.base"));
        assertThat(missing).extracting(PackCheck.Missing::needed).contains("org.assertj.core.api.Assertions");
        assertThat(missing).extracting(PackCheck.Missing::where).contains("not in the pack");
    }

    @Test
    void theWholeTestClassPathMissesNothingAndAMissingModuleIsNamed() {
        assertThat(PackCheck.missing(TEST_CLASSES, testClassPath(), List.of("java.se"))).isEmpty();
        List<PackCheck.Missing> noSql = PackCheck.missing(TEST_CLASSES, testClassPath(), List.of("java.base"));
        assertThat(noSql).allMatch(m -> m.where().startsWith("JDK module "));
    }
}
