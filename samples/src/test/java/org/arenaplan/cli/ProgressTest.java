package org.arenaplan.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {
    @Test
    void plainLinesAtEachTenthAndAtTheEnd() {
        StringWriter w = new StringWriter();
        try (Progress p = Progress.lines("stress", 20, new PrintWriter(w))) {
            for (int i = 1; i <= 20; i++) p.stepTo(i);
        }
        String[] lines = w.toString().split("\n");
        assertThat(lines).hasSize(10);
        assertThat(lines[0]).isEqualTo("stress: 2/20 (10 %)");
        assertThat(lines[8]).isEqualTo("stress: 18/20 (90 %)");
        assertThat(lines[9]).startsWith("stress: 20/20 done in ");
    }

    @Test
    void quickWorkIsSilentAndSlowWorkReportsInLines() throws Exception {
        StringWriter quiet = new StringWriter();
        assertThat(Progress.during("fast", Duration.ofSeconds(5), Duration.ofSeconds(5), new PrintWriter(quiet), () -> 42)).isEqualTo(42);
        assertThat(quiet.toString()).isEmpty();
        StringWriter slow = new StringWriter();
        Progress.during("slow", Duration.ofMillis(20), Duration.ofMillis(20), new PrintWriter(slow), () -> {
            Thread.sleep(300);
            return null;
        });
        assertThat(slow.toString()).startsWith("slow: still running after ");
    }

    @Test
    void linesSayWhatTheWorkIsDoingNow() throws Exception {
        StringWriter out = new StringWriter();
        String[] phase = {"squeaky-wheel round 1"};
        Progress.during("search", Duration.ofMillis(20), Duration.ofMillis(20), new PrintWriter(out), () -> phase[0], () -> {
            Thread.sleep(150);
            phase[0] = "probing capacity 1024 B";
            Thread.sleep(150);
            return null;
        });
        assertThat(out.toString()).contains("search: still running after 0 s (squeaky-wheel round 1)")
                .contains("(probing capacity 1024 B)");
    }
}
