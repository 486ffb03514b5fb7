package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plan on several streams written as a minimalloc CSV lost what made it safe: the CSV's
 * intervals do not say that buffers of unordered streams are live at once, so planning the CSV
 * again shared bytes between branches that run concurrently (inception on 4 streams, --sync none:
 * 677,376 B planned, 602,112 B re-planned from its CSV; breaker9's finding 2). It is refused now;
 * JSON keeps the events and conflicts, and one stream still writes CSV. The refusal comes before
 * the report (breaker10: the table was printed, then the plan refused).
 */
class CsvOfStreamsCliTest {
    @TempDir
    Path dir;

    @Test
    void aMultiStreamPlanIsNotWrittenAsCsv() throws Exception {
        Path csv = dir.resolve("i.csv");
        Cli r = Cli.run("plan", "--model", "inception", "--streams", "4", "--sync", "none", "--out", csv.toString());
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).as(r.toString()).startsWith("arenaplan: --out " + csv + ": a plan on 4 streams reuses bytes across streams only where happens-before")
                .doesNotContain("\n").doesNotContain("Exception");
        assertThat(Files.exists(csv)).isFalse();
        assertThat(r.out()).as("refused before the report is printed").isEmpty();
        Path json = dir.resolve("i.json");
        assertThat(Cli.run("plan", "--model", "inception", "--streams", "4", "--sync", "none", "--out", json.toString()).code()).isZero();
        assertThat(Cli.run("plan", "--model", "inception", "--out", csv.toString()).code()).isZero();
        assertThat(Files.readString(csv)).contains("offset");
    }
}
