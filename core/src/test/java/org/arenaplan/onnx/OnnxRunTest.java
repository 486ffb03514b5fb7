package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.hb.SyncMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * SqueezeNet (the smallest shared model with Concats) runs on the simulator in every mode with
 * bit-identical outputs that match the reference file beside the model; input from a .pb file,
 * output written as a .pb file.
 */
class OnnxRunTest {
    @TempDir
    Path dir;

    @Test
    void squeezeNetRunsInEveryModeAndMatchesTheReference() {
        Path model = OnnxModelsTest.model("light_squeezenet.onnx");
        Graph g = OnnxImporter.load(model, Map.of());
        Plan plan = ArenaPlanner.plan(g);
        String in = g.inputs().get(0), out = g.outputs().get(0);

        Path inputFile = dir.resolve("input_0.pb");
        OnnxTensorFile.write(inputFile, in, Inputs.of(g, 7).get(in));
        TensorValue input = OnnxTensorFile.read(inputFile).value();
        assertThat(input.shape()).containsExactly(g.tensor(in).shape());

        Executors.Comparison c;
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            c = Executors.run(plan, device, List.of(Mode.values()), 1, Map.of(in, input), 1);
        }
        assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
        assertThat(c.results().keySet()).containsExactly(Mode.values());

        TensorValue result = c.last(Mode.PLANNED).outputs().get(out);
        float[] got = result.floats();
        float[] reference = OnnxTensorFile.read(model.resolveSibling("light_squeezenet_output_0.pb")).value().floats();
        assertThat(got).hasSameSizeAs(reference);
        for (int i = 0; i < got.length; i++) assertThat(got[i]).as("output[%d]", i).isCloseTo(reference[i], within(1e-6f));

        Path outputFile = dir.resolve("output_0.pb");
        OnnxTensorFile.write(outputFile, out, result);
        assertThat(OnnxTensorFile.read(outputFile).value()).isEqualTo(result);
    }

    @Test
    void squeezeNetOnTwoStreamsKeepsItsMemberSlicesSafe() {
        Path model = OnnxModelsTest.model("light_squeezenet.onnx");
        Graph g = OnnxImporter.load(model, Map.of());
        Plan plan = StreamPlanner.plan(g, 2, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
        assertThat(plan.graph().streams()).hasSize(2);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        Executors.Comparison c;
        try (Device device = Devices.open("sim", new DeviceOptions(3, 20_000, 0)).device()) {
            c = Executors.run(plan, device, List.of(Mode.PLANNED, Mode.PER_TENSOR), 1, Inputs.of(g, 1), 1);
        }
        assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
        float[] reference = OnnxTensorFile.read(model.resolveSibling("light_squeezenet_output_0.pb")).value().floats();
        float[] got = c.last(Mode.PLANNED).outputs().get(g.outputs().get(0)).floats();
        for (int i = 0; i < got.length; i++) assertThat(got[i]).isCloseTo(reference[i], within(1e-6f));
    }
}
