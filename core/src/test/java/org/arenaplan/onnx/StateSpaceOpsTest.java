package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CausalConvWithState (opset 27) through import, planning and the simulator, against values worked
 * by hand from the spec's function body (Concat(past_state or zeros, input), depthwise Conv, Slice);
 * refusals name the node and the attribute or input.
 */
class StateSpaceOpsTest {
    @TempDir
    Path dir;

    private static final TensorValue X = TensorValue.ofFloats(new long[]{1, 1, 3}, 1, 2, 3), W = TensorValue.ofFloats(new long[]{1, 1, 2}, 10, 1);

    private Map<String, TensorValue> run(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return OnnxOpRuns.run(dir, model, inputs);
    }

    @Test
    void pastStateAndBiasByHand() throws Exception {
        // seq = past then x = [5, 1, 2, 3]; y[t] = 10 seq[t] + seq[t + 1] + 0.5; present = the last K-1 = 1 position
        TinyOnnx m = new TinyOnnx().opset(27).input("x", 1L, 1L, 3L).input("w", 1L, 1L, 2L).input("b", 1L).input("past", 1L, 1L, 1L)
                .output("y").output("state").node("cc", "CausalConvWithState", List.of("x", "w", "b", "past"), List.of("y", "state"));
        Map<String, TensorValue> out = run(m, TransformerOpsTest.feed("x", X, "w", W, "b", TensorValue.ofFloats(new long[]{1}, 0.5f),
                "past", TensorValue.ofFloats(new long[]{1, 1, 1}, 5)));
        assertThat(out.get("y").floats()).containsExactly(51.5f, 12.5f, 23.5f);
        assertThat(out.get("state").floats()).containsExactly(3f);
    }

    @Test
    void withoutPastStateTheLeftPaddingIsZeroAndSiluIsFused() throws Exception {
        for (String activation : new String[]{"none", "silu", "swish"}) {
            // bias left out before past_state ("" input) and past_state absent: seq = [0, 1, 2, 3]
            TinyOnnx m = new TinyOnnx().opset(27).input("x", 1L, 1L, 3L).input("w", 1L, 1L, 2L).output("y")
                    .node("cc", "CausalConvWithState", List.of("x", "w"), List.of("y"), "activation", activation);
            float[] y = run(m, TransformerOpsTest.feed("x", X, "w", W)).get("y").floats();
            float[] want = {1, 12, 23};
            for (int i = 0; i < 3; i++) {
                double v = want[i];
                assertThat(y[i]).as(activation + " " + i).isEqualTo(activation.equals("none") ? want[i] : (float) (v / (1 + Math.exp(-v))));
            }
        }
    }

    @Test
    void refusalsNameTheNode() throws Exception {
        refused(new TinyOnnx().opset(27).input("x", 1L, 1L, 3L).input("w", 1L, 1L, 2L).output("y")
                .node("cc", "CausalConvWithState", List.of("x", "w"), List.of("y"), "activation", "relu"), "activation 'relu' is not 'none', 'silu' or 'swish'");
        refused(new TinyOnnx().opset(27).input("x", 1L, 2L, 3L).input("w", 1L, 1L, 2L).output("y")
                .node("cc", "CausalConvWithState", List.of("x", "w"), List.of("y")), "weight [1, 1, 2] must be [2, 1, k]");
        refused(new TinyOnnx().opset(27).input("x", 1L, 1L, 3L).input("w", 1L, 1L, 3L).input("past", 1L, 1L, 1L).output("y")
                .node("cc", "CausalConvWithState", List.of("x", "w", "", "past"), List.of("y")), "past_state [1, 1, 1] must be [1, 1, 2]");
        refused(new TinyOnnx().opset(26).input("x", 1L, 1L, 3L).input("w", 1L, 1L, 2L).output("y")
                .node("cc", "CausalConvWithState", List.of("x", "w"), List.of("y")), "CausalConvWithState");
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).contains("cc").doesNotContain("\n"));
    }
}
