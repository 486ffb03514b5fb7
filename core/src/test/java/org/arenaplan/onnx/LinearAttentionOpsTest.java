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
import static org.assertj.core.api.Assertions.within;

/**
 * LinearAttention (opset 27) through import, planning and the simulator, against values worked by
 * hand from the spec's recurrences (onnx/reference/ops/op_linear_attention.py); refusals name the
 * node and the attribute or input.
 */
class LinearAttentionOpsTest {
    @TempDir
    Path dir;

    private Map<String, TensorValue> run(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return OnnxOpRuns.run(dir, model, inputs);
    }

    @Test
    void linearRuleWithTwoQueryHeadsPerKvHeadByHand() throws Exception {
        // B 1, T 2, Hq 2, Hkv 1, dk 2, dv 1, scale 1: S0 = k0 v0 = [1, 2]; S1 = S0 + [3, 0] * 2 = [7, 2];
        // out t0: [1, 0].S0 = 1, [0, 1].S0 = 2; t1: [1, 1].S1 = 9, [2, 0].S1 = 14
        TinyOnnx m = new TinyOnnx().opset(27).input("q", 1L, 2L, 4L).input("k", 1L, 2L, 2L).input("v", 1L, 2L, 1L)
                .output("y").output("state").node("la", "LinearAttention", List.of("q", "k", "v"), List.of("y", "state"),
                        "update_rule", "linear", "q_num_heads", 2L, "kv_num_heads", 1L, "scale", 1.0, "chunk_size", 16L);
        Map<String, TensorValue> out = run(m, TransformerOpsTest.feed("q", TensorValue.ofFloats(new long[]{1, 2, 4}, 1, 0, 0, 1, 1, 1, 2, 0),
                "k", TensorValue.ofFloats(new long[]{1, 2, 2}, 1, 2, 3, 0), "v", TensorValue.ofFloats(new long[]{1, 2, 1}, 1, 2)));
        assertThat(out.get("y").shape()).containsExactly(1, 2, 2);
        assertThat(out.get("y").floats()).containsExactly(1f, 2f, 9f, 14f);
        assertThat(out.get("state").shape()).containsExactly(1, 1, 2, 1);
        assertThat(out.get("state").floats()).containsExactly(7f, 2f);
    }

    @Test
    void gatedDeltaRuleWithPastStateByHand() throws Exception {
        // default rule gated_delta, default scale 1/sqrt(dk = 2); past [2, 4] decayed by exp(ln 0.5) to [1, 2];
        // r = S.k = 1 for k = [1, 0]; u = beta (v - r) = 0.5 (5 - 1) = 2; S = [1, 2] + [1, 0] * 2 = [3, 2]; out = [1, 1].S / sqrt 2
        TinyOnnx m = new TinyOnnx().opset(27).input("q", 1L, 1L, 2L).input("k", 1L, 1L, 2L).input("v", 1L, 1L, 1L)
                .input("past", 1L, 1L, 2L, 1L).input("g", 1L, 1L, 1L).input("beta", 1L, 1L, 1L)
                .output("y").output("state").node("la", "LinearAttention", List.of("q", "k", "v", "past", "g", "beta"), List.of("y", "state"),
                        "q_num_heads", 1L, "kv_num_heads", 1L);
        Map<String, TensorValue> out = run(m, TransformerOpsTest.feed("q", TensorValue.ofFloats(new long[]{1, 1, 2}, 1, 1),
                "k", TensorValue.ofFloats(new long[]{1, 1, 2}, 1, 0), "v", TensorValue.ofFloats(new long[]{1, 1, 1}, 5),
                "past", TensorValue.ofFloats(new long[]{1, 1, 2, 1}, 2, 4), "g", TensorValue.ofFloats(new long[]{1, 1, 1}, (float) Math.log(0.5)),
                "beta", TensorValue.ofFloats(new long[]{1, 1, 1}, 0.5f)));
        assertThat(out.get("y").floats()[0]).isCloseTo((float) (5 / Math.sqrt(2)), within(1e-5f));
        assertThat(out.get("state").floats()[0]).isCloseTo(3f, within(1e-5f));
        assertThat(out.get("state").floats()[1]).isCloseTo(2f, within(1e-5f));
    }

    @Test
    void withoutPresentStateOnlyTheOutputIsWritten() throws Exception {
        // the delta rule without past: S = 0, r = 0, u = 1 * 3; S = [3, 0]; out = [2, 0].S * 1 = 6
        TinyOnnx m = new TinyOnnx().opset(27).input("q", 1L, 1L, 2L).input("k", 1L, 1L, 2L).input("v", 1L, 1L, 1L).input("beta", 1L, 1L, 1L)
                .output("y").node("la", "LinearAttention", List.of("q", "k", "v", "", "", "beta"), List.of("y"),
                        "update_rule", "delta", "q_num_heads", 1L, "kv_num_heads", 1L, "scale", 1.0);
        Map<String, TensorValue> out = run(m, TransformerOpsTest.feed("q", TensorValue.ofFloats(new long[]{1, 1, 2}, 2, 0),
                "k", TensorValue.ofFloats(new long[]{1, 1, 2}, 1, 0), "v", TensorValue.ofFloats(new long[]{1, 1, 1}, 3),
                "beta", TensorValue.ofFloats(new long[]{1, 1, 1}, 1)));
        assertThat(out.get("y").floats()).containsExactly(6f);
    }

    @Test
    void refusalsNameTheNode() throws Exception {
        refused(linear("q_num_heads", 1L, "kv_num_heads", 1L, "update_rule", "softmax"), "update_rule 'softmax' is not 'linear', 'gated', 'delta' or 'gated_delta'");
        refused(linear("q_num_heads", 1L, "kv_num_heads", 1L, "update_rule", "gated"), "update_rule 'gated' requires decay input");
        refused(linear("q_num_heads", 2L, "kv_num_heads", 1L, "update_rule", "linear"), "key [1, 2, 4] must be [1, 2, 2] (kv_num_heads * dk)");
        refused(linear("q_num_heads", 4L, "kv_num_heads", 3L, "update_rule", "linear"), "q_num_heads 4 is not a multiple of kv_num_heads 3");
        refused(linear("kv_num_heads", 1L, "update_rule", "linear"), "q_num_heads");
        refused(new TinyOnnx().opset(27).input("q", 1L, 2L, 4L).input("k", 1L, 2L, 4L).input("v", 1L, 2L, 2L).input("beta", 1L, 2L, 1L).output("y")
                .node("la", "LinearAttention", List.of("q", "k", "v", "", "", "beta"), List.of("y"), "q_num_heads", 1L, "kv_num_heads", 1L,
                        "update_rule", "linear"), "update_rule 'linear' takes no beta input");
        refused(new TinyOnnx().opset(27).input("q", 1L, 2L, 4L).input("k", 1L, 2L, 4L).input("v", 1L, 2L, 2L).input("g", 1L, 2L, 3L).output("y")
                .node("la", "LinearAttention", List.of("q", "k", "v", "", "g"), List.of("y"), "q_num_heads", 1L, "kv_num_heads", 1L,
                        "update_rule", "gated"), "decay [1, 2, 3] must be [1, 2, 4] (per key) or [1, 2, 1] (per head)");
        refused(new TinyOnnx().opset(27).input("q", 1L, 2L, 4L).input("k", 1L, 2L, 4L).input("v", 1L, 2L, 2L).input("past", 1L, 1L, 2L, 4L).output("y")
                .node("la", "LinearAttention", List.of("q", "k", "v", "past"), List.of("y"), "q_num_heads", 1L, "kv_num_heads", 1L,
                        "update_rule", "linear"), "past_state [1, 1, 2, 4] must be [1, 1, 4, 2]");
        refused(linear("q_num_heads", 1L, "kv_num_heads", 1L, "update_rule", "linear").opset(26), "LinearAttention");
    }

    private static TinyOnnx linear(Object... attrs) {
        return new TinyOnnx().opset(27).input("q", 1L, 2L, 4L).input("k", 1L, 2L, 4L).input("v", 1L, 2L, 2L).output("y")
                .node("la", "LinearAttention", List.of("q", "k", "v"), List.of("y"), attrs);
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).contains("la").contains("bad.onnx").doesNotContain("\n"));
    }
}
