package org.arenaplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.arenaplan.exec.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --warmup W}: W untimed iterations per mode before the K timed ones, as {@code bench}
 * has (default the same, {@link RunReport#DEFAULT_WARMUP}); said on the table's first line and in
 * the JSON; a negative W, or W + K past 2^31-1, is one line, exit 2.
 */
class RunWarmupTest {
    @TempDir
    Path dir;

    @Test
    void theWarmUpIsTakenSaidAndWritten() throws Exception {
        Path json = dir.resolve("run.json");
        Cli r = Cli.run("run", "--model", "mlp", "--device", "sim", "--mode", "planned", "--iterations", "1", "--warmup", "2", "--json", json.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("1 iteration(s) per mode, after 2 warm-up iteration(s)")
                .contains("outputs equal across iterations: yes");   // the warm-up's outputs are compared with the timed one's
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("warmup").asInt()).isEqualTo(2);
        assertThat(root.get("iterations").asInt()).isEqualTo(1);
    }

    @Test
    void theDefaultIsBenchsAndANegativeCountIsBadUsage() throws Exception {
        Path json = dir.resolve("run.json");
        Cli r = Cli.run("run", "--model", "mlp", "--device", "sim", "--mode", "planned", "--iterations", "1", "--json", json.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(new ObjectMapper().readTree(json.toFile()).get("warmup").asInt()).isEqualTo(RunReport.DEFAULT_WARMUP);
        assertThat(Cli.run("run", "--help").out()).contains("--warmup=W").contains("[--warmup W]");
        assertThat(Cli.run("bench", "--help").out()).contains("Untimed iterations first (default: " + RunReport.DEFAULT_WARMUP + ")");
        Cli bad = Cli.run("run", "--model", "mlp", "--device", "sim", "--warmup", "-1");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip().lines()).as(bad.toString()).hasSize(1);
        assertThat(bad.err()).contains("--warmup must be at least 0, got -1");
    }

    @Test
    void aWarmUpAndIterationsSummingPastAnIntAreBadUsageNotAnInternalError() {
        // the sum 2^31 wrapped to a negative loop bound: no run at all, then IndexOutOfBoundsException (exit 1)
        for (String[] wk : new String[][]{{"2147483647", "1"}, {"1", "2147483647"}}) {
            Cli bad = Cli.run("run", "--model", "mlp", "--device", "sim", "--mode", "planned", "--warmup", wk[0], "--iterations", wk[1]);
            assertThat(bad.code()).as(bad.toString()).isEqualTo(2);
            assertThat(bad.err().strip().lines()).as(bad.toString()).hasSize(1);
            assertThat(bad.err()).contains("--warmup " + wk[0] + " plus --iterations " + wk[1] + " make more than 2147483647 (2^31-1) runs per mode");
        }
    }
}
