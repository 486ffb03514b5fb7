package org.arenaplan.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RunReportTest {
    @Test
    void printsOneRowPerModeAndWritesJson(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Path json = dir.resolve("run.json");
        int code = RunReport.run(ArenaPlanner.plan(TestGraphs.convNet()), "sim", "all", 2, json, new PrintStream(buf, true, StandardCharsets.UTF_8));
        String text = buf.toString(StandardCharsets.UTF_8);
        assertThat(code).isZero();
        assertThat(text).contains("device 'sim' as requested").containsPattern("planned +\\d+ +\\d+ +0\\.0 ")
                .contains("per-tensor").contains("pool").containsPattern("graph +\\d+ +\\d+ +0\\.0 ").contains("held B")
                .contains("outputs equal across modes: yes");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("outputs_equal").asBoolean()).isTrue();
        assertThat(text).contains("2 iteration(s) per mode, after " + RunReport.DEFAULT_WARMUP + " warm-up iteration(s)");
        assertThat(root.get("warmup").asInt()).isEqualTo(RunReport.DEFAULT_WARMUP);
        assertThat(root.get("modes")).hasSize(4);
        assertThat(root.get("modes").get(1).get("allocator_calls_per_iteration").asDouble()).isPositive();
        assertThat(root.get("modes").get(3).get("mode").asText()).isEqualTo("graph");
        assertThat(root.get("modes").get(3).get("allocator_calls_per_iteration").asDouble()).isZero();
        // the pool's own pages come on top of the weights' page
        assertThat(root.get("modes").get(2).get("held_device_bytes").asLong()).isGreaterThan(root.get("modes").get(0).get("held_device_bytes").asLong());
        for (JsonNode m : root.get("modes")) {
            // the simulator's model holds whole 2 MiB pages: never less than asked for
            long held = m.get("held_device_bytes").asLong();
            assertThat(held).as(m.toString()).isGreaterThanOrEqualTo(m.get("peak_device_bytes").asLong());
            assertThat(held % (2L << 20)).as(m.toString()).isZero();
        }
    }
}
