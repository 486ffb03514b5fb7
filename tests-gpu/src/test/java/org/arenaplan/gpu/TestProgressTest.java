package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@link TestProgress}, found through META-INF/services as the console launcher on the GPU machine
 * finds it: with the configuration parameter it writes one line per test event as it happens;
 * without it, nothing.
 */
class TestProgressTest {
    @TempDir
    Path dir;

    /** Run by the launcher below only (a static nested class: neither surefire nor Jupiter picks it up on its own). */
    static class Fixture {
        @Test
        void passes() { }

        @Test
        void fails() {
            assertThat(1).as("on purpose").isEqualTo(2);
        }

        @Test
        @Disabled("on purpose")
        void isSkipped() { }
    }

    private void runFixture(String progressFile) {
        var request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Fixture.class));
        if (progressFile != null) request.configurationParameter(TestProgress.FILE_PARAMETER, progressFile);
        LauncherFactory.create().execute(request.build());
    }

    @Test
    void writesEachOutcomeAsItHappens() throws Exception {
        Path file = dir.resolve("progress.tsv");
        runFixture(file.toString());
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String name = Fixture.class.getName();
        assertThat(lines).contains("started\t" + name + ".passes()", "started\t" + name + ".fails()", "skipped\t" + name + ".isSkipped()\t0\ton purpose");
        assertThat(lines).anyMatch(l -> l.matches("passed\t" + java.util.regex.Pattern.quote(name) + "\\.passes\\(\\)\t\\d+\\.\\d{3}\t"));
        assertThat(lines).anyMatch(l -> l.startsWith("failed\t" + name + ".fails()\t") && l.contains("on purpose"));
        assertThat(lines.indexOf("started\t" + name + ".passes()")).isLessThan(lines.indexOf(lines.stream().filter(l -> l.startsWith("passed\t")).findFirst().orElseThrow()));
    }

    @Test
    void withoutTheParameterItWritesNothing() throws Exception {
        runFixture(null);
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
