package org.arenaplan.cli;

import org.arenaplan.io.PlanJson;
import org.arenaplan.models.BuiltinModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --schedule} on {@code plan} and {@code run}. */
class ScheduleCommandTest {
    @TempDir
    Path dir;

    @Test
    void planPrintsBothLowerBoundsAndTheJsonKeepsTheOrderUsed() throws Exception {
        Path out = dir.resolve("p.json");
        Cli r = Cli.run("plan", "--model", "randwire", "--nodes", "16", "--seed", "1", "--schedule", "memory", "--out", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).containsPattern("schedule: memory \\((exact|heuristic|file)[^)]*\\): lower bound [0-9,]+ B at the file order, [0-9,]+ B at this order");
        PlanJson.PlanDocument doc = PlanJson.read(out);
        List<String> fileOrder = new ArrayList<>();
        BuiltinModels.build("randwire", Map.of("nodes", "16", "seed", "1")).ops().forEach(o -> fileOrder.add(o.name()));
        assertThat(doc.order()).containsExactlyInAnyOrderElementsOf(fileOrder);
        assertThat(doc.order()).isNotEqualTo(fileOrder);   // this graph's file order is not the least peak
        String json = Files.readString(out);
        assertThat(json).contains("\"mode\" : \"memory\"").contains("\"file_lower_bound_bytes\"");
    }

    @Test
    void theFileOrderIsTheDefaultAndPrintsNothingNew() {
        Cli r = Cli.run("plan", "--model", "chain");
        assertThat(r.code()).isZero();
        assertThat(r.out()).doesNotContain("schedule:");
    }

    @Test
    void aReorderedRunGivesTheSameOutputsAcrossModes() {
        Cli r = Cli.run("run", "--model", "randwire", "--nodes", "10", "--channels", "4", "--image", "6", "--device", "sim", "--schedule", "memory", "--iterations", "1");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("device: ").contains("outputs equal across modes: yes").contains("schedule: memory");
    }

    @Test
    void badScheduleFlagsAreUsageErrors() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\na,0,2,4\n");
        assertThat(Cli.run("plan", csv.toString(), "--schedule", "memory").code()).isEqualTo(2);
        Cli bogus = Cli.run("plan", "--model", "chain", "--schedule", "random");
        assertThat(bogus.code()).isEqualTo(2);
        assertThat(bogus.err()).contains("--schedule random");
        assertThat(Cli.run("plan", "--model", "chain", "--schedule", "memory", "--schedule-time-limit", "0").code()).isEqualTo(2);
    }
}
