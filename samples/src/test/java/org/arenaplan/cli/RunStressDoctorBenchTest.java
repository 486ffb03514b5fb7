package org.arenaplan.cli;

import org.arenaplan.cuda.Cuda;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The run, stress, doctor and bench commands through picocli, on the simulator. */
class RunStressDoctorBenchTest {
    @TempDir
    Path dir;

    private static final Path MODELS = Path.of("..", "..", "shared", "models", "onnx-light");

    @Test
    void runFallsBackToTheSimulatorSayingSoAndComparesModes() throws Exception {
        Path json = dir.resolve("run.json");
        Cli r = Cli.run("run", "--model", "mlp", "--streams", "2", "--iterations", "2", "--json", json.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("device: simulated device").contains("planned").contains("per-tensor").contains("pool")
                .contains("outputs equal across modes: yes");
        assertThat(Files.readString(json)).contains("\"outputs_equal\" : true");
    }

    @Test
    void runIsCheckedAsUsage() {
        assertThat(Cli.run("run", "--model", "mlp", "--device", "tpu").code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(Cli.run("run", "--model", "mlp", "--iterations", "0").code()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void cudaAskedForWithoutCudaExitsThreeWithTheProbesCause() {
        if (Cuda.isAvailable()) System.out.println("skipped: CUDA is available here");
        assumeTrue(!Cuda.isAvailable(), "CUDA is available here");
        Cli r = Cli.run("run", "--model", "mlp", "--device", "cuda");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.DEVICE_UNAVAILABLE);
        assertThat(r.err().lines()).as(r.toString()).hasSize(1);
        assertThat(r.err()).contains("device 'cuda' is not available: " + Cuda.unavailabilityCause().getMessage())
                .doesNotContain("internal error");
    }

    @Test
    void anOpTheExecutorsCannotRunIsBadInputNamingIt() throws Exception {
        Path g = dir.resolve("g.json");
        Files.writeString(g, "{\"format\":\"arenaplan-graph/1\",\"tensors\":[{\"name\":\"x\",\"dtype\":\"float32\",\"shape\":[4]},"
                + "{\"name\":\"y\",\"dtype\":\"float32\",\"shape\":[4]}],\"inputs\":[{\"name\":\"x\"}],\"outputs\":[\"y\"],"
                + "\"ops\":[{\"name\":\"f\",\"kind\":\"Foo\",\"inputs\":[\"x\"],\"outputs\":[\"y\"]}]}");
        Cli r = Cli.run("run", g.toString(), "--device", "sim");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("op 'f' (Foo): unknown op kind 'Foo'").doesNotContain("internal error");
    }

    @Test
    void aGraphTooBigForTheDeviceExitsThreeNotAnInternalError() throws Exception {
        Path g = dir.resolve("big.json");
        // two intermediates of 2 EiB between a small graph input and output: plannable, but no device
        // holds them (graph inputs and outputs past one host array are bad input, exit 2: HostArrays);
        // the arena is allocated before any launch, so the opaque ops e and s are never run
        long half = 1L << 61;
        Files.writeString(g, "{\"format\":\"arenaplan-graph/1\",\"tensors\":[{\"name\":\"x\",\"dtype\":\"float32\",\"shape\":[4]},"
                + "{\"name\":\"b\",\"dtype\":\"float32\",\"shape\":[" + half / 4 + "]},{\"name\":\"c\",\"dtype\":\"float32\",\"shape\":[" + half / 4 + "]},"
                + "{\"name\":\"y\",\"dtype\":\"float32\",\"shape\":[4]}],\"inputs\":[{\"name\":\"x\"}],\"outputs\":[\"y\"],"
                + "\"ops\":[{\"name\":\"e\",\"kind\":\"Opaque\",\"inputs\":[\"x\"],\"outputs\":[\"b\"]},{\"name\":\"r\",\"kind\":\"Relu\",\"inputs\":[\"b\"],\"outputs\":[\"c\"]},"
                + "{\"name\":\"s\",\"kind\":\"Opaque\",\"inputs\":[\"c\"],\"outputs\":[\"y\"]}]}");
        Cli r = Cli.run("run", g.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.NO_PLACEMENT);
        assertThat(r.err().strip().lines()).as(r.toString()).hasSize(1);
        assertThat(r.err()).contains("the device cannot hold the run").contains("simulated allocation of").doesNotContain("internal error");
    }

    @Test
    void runsAnOnnxModelAgainstItsReferenceOutput() throws Exception {
        Path model = MODELS.resolve("light_squeezenet.onnx");
        if (!Files.exists(model)) System.out.println("skipped: " + MODELS + " not found (a user's clone has no shared data)");
        assumeTrue(Files.exists(model), "../shared/models/onnx-light not found");
        Path out = dir.resolve("y.pb");
        Cli r = Cli.run("run", model.toString(), "--mode", "planned", "--iterations", "1", "--output", out.toString(),
                "--expect", MODELS.resolve("light_squeezenet_output_0.pb").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("reference").contains(": matches");
        Cli again = Cli.run("run", model.toString(), "--mode", "planned", "--iterations", "1", "--input", MODELS.resolve("light_squeezenet_output_0.pb").toString());
        assertThat(again.code()).as("a 1000-value file is not a [1,3,224,224] input").isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(again.err()).contains("holds 1000 values");
    }

    @Test
    void stressEndsWithTheContractLine() {
        Cli safe = Cli.run("stress", "--graphs", "20", "--streams", "3", "--seed", "5");
        assertThat(safe.code()).as(safe.toString()).isZero();
        String[] lines = safe.out().strip().split("\\R");
        assertThat(lines[lines.length - 1]).isEqualTo("premature_reuses=0 runs=20");
        Cli unsafe = Cli.run("stress", "--graphs", "40", "--unsafe", "--seed", "5");
        assertThat(unsafe.code()).isEqualTo(1);
        String last = unsafe.out().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(last).matches("premature_reuses=[1-9][0-9]* runs=40");
    }

    @Test
    void doctorExplainsItselfWithoutAGpu() {
        Cli r = Cli.run("doctor");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("java:").contains("cuda:").contains("auto picks:");
        assertThat(r.err()).doesNotContain("Exception");
    }

    @Test
    void benchOnTheSimulatorAndSearchOnAGeneratedSet() {
        Cli sim = Cli.run("bench", "models", "--device", "sim", "--iterations", "1", "--warmup", "0");
        assertThat(sim.code()).as(sim.toString()).isZero();
        assertThat(sim.out()).contains("transformer").contains("per-tensor");
        Cli bad = Cli.run("bench", "search", "--set", "nope");
        assertThat(bad.code()).isEqualTo(ExitCodes.BAD_INPUT);
        Cli noNodes = Cli.run("bench", "search", "--set", "perfect", "--node-limit", "0");
        assertThat(noNodes.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(noNodes.err()).contains("--node-limit");
    }
}
