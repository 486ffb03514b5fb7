package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The ai.onnx.preview.training optimizers (ops.OptimizerOps) imported and run on the simulator.
 * ONNX Runtime's Java API (1.22, an inference build) has no kernels for this domain, so the
 * oracle is the ONNX reference implementation: the expected values below were printed by
 * onnx 1.23.1's {@code onnx/reference/ops/aionnx_preview_training} (_apply_adam, _apply_nesterov)
 * for these inputs (the backend node tests test_adam*, test_momentum*, test_nesterov_momentum,
 * test_adagrad* run the same ops against the reference's stored outputs).
 */
class OptimizerOpsTest {
    @TempDir
    Path dir;

    private static final String DOMAIN = "ai.onnx.preview.training";

    private static final Map<String, TensorValue> IN = Map.of(
            "r", TensorValue.ofFloats(new long[0], 0.1f), "t", TensorValue.ofLongs(DType.I64, new long[0], 3),
            "x1", TensorValue.ofFloats(new long[]{2}, 1f, -2f), "g1", TensorValue.ofFloats(new long[]{2}, 0.5f, 0.25f),
            "v1", TensorValue.ofFloats(new long[]{2}, 0.1f, -0.2f), "h1", TensorValue.ofFloats(new long[]{2}, 0.3f, 0.4f),
            "x2", TensorValue.ofFloats(new long[]{1}, 3f), "g2", TensorValue.ofFloats(new long[]{1}, -1f),
            "v2", TensorValue.ofFloats(new long[]{1}, 0f), "h2", TensorValue.ofFloats(new long[]{1}, 1f));

    private static TinyOnnx model(String op, List<String> states, Object... attrs) {
        TinyOnnx m = new TinyOnnx().opset(17).input("r").input(OnnxDTypes.INT64, "t");
        List<String> in = new ArrayList<>(List.of("r", "t")), out = new ArrayList<>();
        List<String> inGroups = new ArrayList<>(List.of("x", "g")), outGroups = new ArrayList<>(List.of("x"));
        inGroups.addAll(states);
        outGroups.addAll(states);
        for (String group : inGroups)
            for (int k = 1; k <= 2; k++) {
                in.add(group + k);
                m.input(group + k, k == 1 ? 2L : 1L);
            }
        for (String group : outGroups)
            for (int k = 1; k <= 2; k++) {
                out.add(group + k + "_new");
                m.output(group + k + "_new", k == 1 ? 2L : 1L);
            }
        return m.node("opt", op, in, out, attrs).domain(DOMAIN);
    }

    private static TinyOnnx adam() {
        return model("Adam", List.of("v", "h"), "alpha", 0.9, "beta", 0.999, "epsilon", 1e-6, "norm_coefficient", 0.01, "norm_coefficient_post", 0.001);
    }

    private static void close(TensorValue got, float... want) {
        float[] g = got.floats();
        assertThat(g).hasSize(want.length);
        for (int i = 0; i < want.length; i++) assertThat(g[i]).isCloseTo(want[i], within(Math.abs(want[i]) * 1e-5f + 1e-6f));
    }

    /** The ONNX backend tests simple/test_gradient_of_add*: a Gradient node is refused saying why, in one line. */
    @Test
    void aGradientNodeIsRefusedSayingWhy() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(12).input("a", 1L).input("b", 1L).output("c").output("dc_da").output("dc_db")
                .node("add", "Add", List.of("a", "b"), List.of("c"))
                .node("my_gradient", "Gradient", List.of("a", "b"), List.of("dc_da", "dc_db"), "xs", new String[]{"a", "b"}, "y", "c").domain(DOMAIN);
        OnnxOpRuns.refused(dir, m, "1 unsupported op type: ai.onnx.preview.training.Gradient (1 node: my_gradient; Gradient asks for the symbolic gradient"
                + " of the graph it sits in, which no arenaplan pass derives from a node (ONNX Runtime has no kernel for it either); --train plans a forward graph's training step instead)");
    }

    @Test
    void adamOfTwoTensorsGivesTheReferenceValues() throws Exception {
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, adam(), IN);
        close(out.get("x1_new"), 0.9938045f, -1.9929881f);
        close(out.get("v1_new"), 0.141f, -0.15699999f);
        close(out.get("h1_new"), 0.29996014f, 0.3996529f);
        close(out.get("x2_new"), 2.9989576f);
        close(out.get("v2_new"), -0.097f);
        close(out.get("h2_new"), 0.99994093f);
    }

    @Test
    void nesterovMomentumGivesTheReferenceValues() throws Exception {
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, model("Momentum", List.of("v"), "alpha", 0.9, "beta", 0.5, "mode", "nesterov", "norm_coefficient", 0.01), IN);
        close(out.get("x1_new"), 0.91795f, -2.01715f);
        close(out.get("v1_new"), 0.345f, -0.06499999f);
        close(out.get("x2_new"), 3.14065f);
        close(out.get("v2_new"), -0.485f);
    }

    /**
     * With the graph inputs donated, each output is hinted over the input it updates and granted
     * (X_new shares X's storage, V_new V's, H_new H's; G and R, T are never overwritten), and the
     * values run in place are the reference's; without donation the caller's inputs are left alone.
     */
    @Test
    void donatedInputsAreUpdatedInPlaceWithTheSameValues() throws Exception {
        Path file = dir.resolve("adam.onnx");
        Files.write(file, adam().bytes());
        Graph donated = OnnxImporter.load(file, OnnxImporter.Options.DEFAULT.withDonateInputs(true));
        Lifetimes l = Lifetimes.of(donated);
        assertThat(l.refusals()).isEmpty();
        for (String t : List.of("x1", "x2", "v1", "v2", "h1", "h2")) assertThat(l.storageOf(t + "_new")).as(t).isEqualTo(l.storageOf(t));
        assertThat(l.storageOf("g1")).isNotEqualTo(l.storageOf("x1_new"));
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            Map<String, TensorValue> out = Executors.run(ArenaPlanner.plan(donated), device, List.of(Mode.PLANNED), 1, IN, 1).last(Mode.PLANNED).outputs();
            close(out.get("x1_new"), 0.9938045f, -1.9929881f);
            close(out.get("h2_new"), 0.99994093f);
        }
        Graph kept = OnnxImporter.load(file, Map.of());
        assertThat(kept.ops().get(0).inPlace()).isEmpty();
    }

    @Test
    void whatTheOptimizersDoNotTakeIsRefusedNamingTheNode() throws Exception {
        OnnxOpRuns.refused(dir, model("Momentum", List.of("v"), "alpha", 0.9, "beta", 0.5, "mode", "heavy_ball", "norm_coefficient", 0.01),
                "node 'opt' (Momentum, #0, ai.onnx.preview.training opset 1): attribute 'mode' is 'heavy_ball'; Momentum takes standard or nesterov");
        OnnxOpRuns.refused(dir, model("Momentum", List.of("v"), "alpha", 0.9, "mode", "standard", "norm_coefficient", 0.01),
                "node 'opt' (Momentum, #0, ai.onnx.preview.training opset 1): attribute 'beta' is required (ai.onnx.preview.training Momentum)");
        // Adam's inputs read as Adagrad's: 10 inputs do not make R, T and 3 groups
        OnnxOpRuns.refused(dir, model("Adagrad", List.of("v", "h")), "has 10 inputs; Adagrad takes R, T and 3 groups of as many tensors each");
        TinyOnnx wrongShape = new TinyOnnx().opset(17).input("r").input(OnnxDTypes.INT64, "t").input("x", 2L).input("g", 3L).input("h", 2L)
                .output("x_new", 2L).output("h_new", 2L)
                .node("opt", "Adagrad", List.of("r", "t", "x", "g", "h"), List.of("x_new", "h_new")).domain(DOMAIN);
        OnnxOpRuns.refused(dir, wrongShape, "node 'opt' (Adagrad, #0, ai.onnx.preview.training opset 1): input #3 [3] must have the shape of X #2 [2]");
        TinyOnnx defaultDomain = new TinyOnnx().opset(17).input("r").input(OnnxDTypes.INT64, "t").input("x", 2L).input("g", 2L).input("h", 2L)
                .output("x_new", 2L).output("h_new", 2L)
                .node("opt", "Adagrad", List.of("r", "t", "x", "g", "h"), List.of("x_new", "h_new"));
        OnnxOpRuns.refused(dir, defaultDomain, "Adagrad is an operator of the ai.onnx.preview.training domain, not of ''");
    }
}
