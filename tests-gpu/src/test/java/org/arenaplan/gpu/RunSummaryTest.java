package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.arenaplan.cuda.DeviceBench;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.RunReport;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * results.json of a GPU run from what run.sh left in OUTDIR: without a CUDA device it says so and
 * which steps were skipped (exit 3); a tests step killed before the launcher wrote its XML still
 * gives the tests that finished and names the one that did not; a doctor step that left no
 * probe.json is not taken for "no CUDA"; the benchmark's and real models' figures are carried.
 */
class RunSummaryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path out;

    private int summarize() throws Exception {
        return RunSummary.write(out, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    private JsonNode results() throws Exception {
        return JSON.readTree(out.resolve("results.json").toFile());
    }

    private void probe(boolean available) throws Exception {
        Files.writeString(out.resolve("probe.json"), available
                ? "{\"cuda_available\": true, \"unavailability_cause\": null, \"device\": \"NVIDIA H200\", \"total_memory_bytes\": 150000000000,"
                  + " \"compute_capability\": \"9.0\", \"driver_version\": 13000, \"cublas\": false}"
                : "{\"cuda_available\": false, \"unavailability_cause\": \"no NVIDIA driver here\", \"device\": null, \"total_memory_bytes\": 0,"
                  + " \"compute_capability\": null, \"driver_version\": 0, \"cublas\": false}");
    }

    @Test
    void withoutACudaDeviceItSaysSoAndWhichStepsWereSkipped() throws Exception {
        probe(false);
        Files.writeString(out.resolve("steps.tsv"), "doctor\t3\t2\t15\ntests\t0\t3\t100\n"
                + "bench\tskipped\t0\t50\tno CUDA device (see doctor.txt)\nreal-models\tskipped\t0\t35\tno CUDA device (see doctor.txt)\n");
        assertThat(summarize()).isEqualTo(3);
        JsonNode r = results();
        assertThat(r.get("cuda_available").asBoolean()).isFalse();
        assertThat(r.get("outcome").asText()).startsWith("no CUDA device found: no NVIDIA driver here")
                .contains("bench skipped (no CUDA device (see doctor.txt))", "real-models skipped (no CUDA device");
        JsonNode bench = r.get("steps").get(2);
        assertThat(bench.get("status").asText()).isEqualTo("skipped");
        assertThat(bench.get("exit_code").isNull()).isTrue();
        assertThat(bench.get("reason").asText()).isEqualTo("no CUDA device (see doctor.txt)");
        assertThat(r.get("steps").get(1).get("status").asText()).isEqualTo("passed");
    }

    @Test
    void aKilledTestsStepStillGivesTheFinishedTestsAndNamesTheOneRunning() throws Exception {
        probe(true);
        Files.writeString(out.resolve("steps.tsv"), "doctor\t0\t2\t15\ntests\t137\t103\t100\n");
        Files.writeString(out.resolve(RunSummary.PROGRESS_FILE), String.join("\n",
                "started\torg.arenaplan.gpu.A.ok()",
                "passed\torg.arenaplan.gpu.A.ok()\t1.250\t",
                "started\torg.arenaplan.gpu.A.wrong()",
                "failed\torg.arenaplan.gpu.A.wrong()\t0.500\torg.opentest4j.AssertionFailedError: expected 1",
                "skipped\torg.arenaplan.gpu.B\t0\tno usable GPU",
                "started\torg.arenaplan.gpu.C.hangs()", ""));
        assertThat(summarize()).isEqualTo(1);
        JsonNode t = results().get("tests");
        assertThat(t.get("source").asText()).isEqualTo("progress");
        assertThat(List.of(t.get("found").asInt(), t.get("passed").asInt(), t.get("failed").asInt(), t.get("skipped").asInt(), t.get("unfinished").asInt()))
                .containsExactly(4, 1, 1, 1, 1);
        assertThat(t.get("cases").get(0).get("seconds").asDouble()).isEqualTo(1.25);
        assertThat(t.get("cases").get(3).get("test").asText()).isEqualTo("org.arenaplan.gpu.C.hangs()");
        assertThat(t.get("cases").get(3).get("outcome").asText()).isEqualTo("unfinished");
        assertThat(results().get("outcome").asText()).contains("1 unfinished", "tests timed out (limit 100 s)");
    }

    @Test
    void aJsonFileCutShortByAKilledStepStillGivesTheSummary() throws Exception {
        Files.writeString(out.resolve("probe.json"), "");
        Files.writeString(out.resolve("steps.tsv"), "doctor\t0\t2\t13\nbench\t137\t53\t50\n");
        Files.writeString(out.resolve("bench.json"), "[{\"mod");
        assertThat(summarize()).isEqualTo(1);
        JsonNode r = results();
        assertThat(r.get("cuda_available").isNull()).isTrue();
        assertThat(r.get("unavailability_cause").asText()).startsWith("unknown: probe.json: empty; the doctor step passed");
        assertThat(r.get("bench").get(RunSummary.UNREADABLE).asText()).startsWith("bench.json: not JSON (");
    }

    @Test
    void aDoctorStepThatLeftNoProbeIsNotTakenForNoCuda() throws Exception {
        Files.writeString(out.resolve("steps.tsv"), "doctor\t124\t15\t15\n"
                + "tests\tskipped\t0\t100\tthe doctor step timed out: the CUDA driver may hang (see run.log)\n");
        assertThat(summarize()).isEqualTo(1);
        JsonNode r = results();
        assertThat(r.get("cuda_available").isNull()).isTrue();
        assertThat(r.get("unavailability_cause").asText()).contains("the doctor step timed out (exit 124)");
        assertThat(r.get("outcome").asText()).startsWith("CUDA device unknown").contains("tests skipped (the doctor step timed out");
    }

    @Test
    void theBenchmarkAndRealModelFiguresAreCarriedForEveryMode() throws Exception {
        probe(true);
        Files.writeString(out.resolve("steps.tsv"), "doctor\t0\t2\t15\nbench\t0\t20\t50\nreal-models\t0\t20\t35\n");
        var plan = ArenaPlanner.plan(GpuGraphs.mlp());
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceBench.writeJson(DeviceBench.run(d, DeviceBench.IterationTimer.NONE, Map.of("gpu-mlp", GpuGraphs.mlp()), 0, 1,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)), out.resolve("bench.json"));
            RunReport.Report rep = RunReport.measure(plan, d, "test", List.of(Mode.values()), 1);
            RealModels.writeJson(List.of(new RealModels.Result("m", "ran", null, rep.rows(), true, 0.0, true)), out.resolve("real.json"));
        }
        summarize();
        JsonNode r = results();
        assertThat(r.get("bench")).hasSize(Mode.values().length);
        for (JsonNode row : r.get("bench"))
            assertThat(row.fieldNames()).toIterable().contains("mode", "host_millis", "device_millis", "allocator_calls", "peak_bytes", "held_bytes", "outputs_equal_planned");
        assertThat(r.get("bench").findValuesAsText("mode")).containsExactly("planned", "per-tensor", "pool", "graph");
        JsonNode modes = r.get("real_models").get(0).get("modes");
        assertThat(modes).hasSize(Mode.values().length);
        assertThat(modes.get(0).fieldNames()).toIterable().contains("mode", "peak_device_bytes", "held_device_bytes", "allocator_calls_per_iteration", "ms_per_iteration");
    }
}
