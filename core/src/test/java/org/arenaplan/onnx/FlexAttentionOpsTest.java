package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Op;
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
 * FlexAttention (ai.onnx.preview 1) through import, planning and the simulator, against values
 * worked by hand from the spec (onnx/reference/ops/aionnx_preview/op_flex_attention.py); its
 * score_mod / prob_mod subgraphs run as ordinary nodes between the op's stages; refusals name the
 * node and the attribute or input.
 */
class FlexAttentionOpsTest {
    @TempDir
    Path dir;

    private static final String PREVIEW = "ai.onnx.preview";
    private static final float NEG_INF = Float.NEGATIVE_INFINITY;

    /** B 1, Hq 2, Hkv 1, L 1, S 2, E 1, Ev 1: Q [0, ln 3], K [1, 0], V [4, 8]. */
    private static TinyOnnx gqa(int type, Object... attrs) {
        return new TinyOnnx().opset(26).input(type, "q", 1L, 2L, 1L, 1L).input(type, "k", 1L, 1L, 2L, 1L).input(type, "v", 1L, 1L, 2L, 1L)
                .outputOfType(type, "y").node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y"), attrs).domain(PREVIEW);
    }

    private static Map<String, TensorValue> gqaInputs(DType t) {
        return TransformerOpsTest.feed("q", TensorValue.ofDoubles(t, new long[]{1, 2, 1, 1}, 0, Math.log(3)),
                "k", TensorValue.ofDoubles(t, new long[]{1, 1, 2, 1}, 1, 0), "v", TensorValue.ofDoubles(t, new long[]{1, 1, 2, 1}, 4, 8));
    }

    @Test
    void twoQueryHeadsShareTheKvHeadByHand() throws Exception {
        // scale 1: head 0 scores [0, 0] -> probabilities [1/2, 1/2] -> y = (4 + 8) / 2 = 6;
        // head 1 scores [ln 3, 0] -> [3/4, 1/4] -> y = 3 + 2 = 5 (both heads read the one KV head)
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, gqa(OnnxDTypes.FLOAT, "scale", 1.0), gqaInputs(DType.F32));
        assertThat(out.get("y").shape()).containsExactly(1, 2, 1, 1);
        assertThat(out.get("y").floats()[0]).isCloseTo(6f, within(1e-5f));
        assertThat(out.get("y").floats()[1]).isCloseTo(5f, within(1e-5f));
    }

    @Test
    void defaultScaleIsOneOverTheRootOfTheHeadSizeAndF16StaysF16() throws Exception {
        // E 1: default scale 1/sqrt(1) = 1, the same values as above; f16 in, f16 out (scores in f32, softmax_precision's default)
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, gqa(OnnxDTypes.FLOAT16), gqaInputs(DType.F16));
        assertThat(out.get("y").dtype()).isEqualTo(DType.F16);
        double[] y = out.get("y").doubles();
        assertThat(y[0]).isCloseTo(6, within(1e-9));
        assertThat(y[1]).isCloseTo(5, within(5e-3));      // ln 3 in f16 is 1.0986328: 3.0001 / 4.0001 of the weight, then rounded to f16
        // scale 2 doubles head 1's score: [2 ln 3, 0] -> [9/10, 1/10] -> y = 3.6 + 0.8 = 4.4
        Map<String, TensorValue> scaled = OnnxOpRuns.run(dir, gqa(OnnxDTypes.DOUBLE, "scale", 2.0), gqaInputs(DType.F64));
        assertThat(scaled.get("y").dtype()).isEqualTo(DType.F64);
        assertThat(scaled.get("y").doubles()[1]).isCloseTo(4.4, within(1e-6));    // Q and K each times sqrt(2) rounded to f32, as the reference: f^2 = 2 (1 - 1e-7)
    }

    /** score_mod adds a causal mask (a constant of the subgraph), prob_mod doubles the probabilities. */
    private static TinyOnnx masked(boolean scoreMod, boolean probMod) {
        TinyOnnx mask = new TinyOnnx().input("s", 1L, 1L, 2L, 2L).raw("m", new float[]{0, NEG_INF, 0, 0}, 2L, 2L).output("o")
                .node("add", "Add", List.of("s", "m"), List.of("o"));
        TinyOnnx twice = new TinyOnnx().input("p", 1L, 1L, 2L, 2L).output("o").node("double", "Add", List.of("p", "p"), List.of("o"));
        List<Object> attrs = new java.util.ArrayList<>(List.of("scale", 1.0));
        if (scoreMod) attrs.addAll(List.of("score_mod", mask));
        if (probMod) attrs.addAll(List.of("prob_mod", twice));
        return new TinyOnnx().opset(26).input("q", 1L, 1L, 2L, 1L).input("k", 1L, 1L, 2L, 1L).input("v", 1L, 1L, 2L, 1L).output("y")
                .node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y"), attrs.toArray()).domain(PREVIEW);
    }

    @Test
    void scoreModAndProbModRunBetweenTheStagesByHand() throws Exception {
        // Q = K = 0: scores all 0; the mask leaves row 0 [0, -inf] -> probabilities [1, 0], row 1 [1/2, 1/2];
        // doubled: [2, 0], [1, 1]; V [1, 3] -> y [2, 4]. Without prob_mod: [1, 2]; without score_mod: [2, 2] * 2 = [4, 4].
        Map<String, TensorValue> in = TransformerOpsTest.feed("q", TensorValue.ofFloats(new long[]{1, 1, 2, 1}, 0, 0),
                "k", TensorValue.ofFloats(new long[]{1, 1, 2, 1}, 0, 0), "v", TensorValue.ofFloats(new long[]{1, 1, 2, 1}, 1, 3));
        assertThat(OnnxOpRuns.run(dir, masked(true, true), in).get("y").floats()).containsExactly(2f, 4f);
        assertThat(OnnxOpRuns.run(dir, masked(true, false), in).get("y").floats()).containsExactly(1f, 2f);
        assertThat(OnnxOpRuns.run(dir, masked(false, true), in).get("y").floats()).containsExactly(4f, 4f);
        Path file = dir.resolve("masked.onnx");
        Files.write(file, masked(true, true).bytes());
        List<String> ops = OnnxImporter.load(file, Map.of()).ops().stream().map(Op::name).toList();
        assertThat(ops).containsExactly("fa/scores", "fa/score_mod/add", "fa/probs", "fa/prob_mod/double", "fa/output");
    }

    @Test
    void refusalsNameTheNode() throws Exception {
        refused(new TinyOnnx().opset(26).input("q", 1L, 3L, 1L, 2L).input("k", 1L, 2L, 1L, 2L).input("v", 1L, 2L, 1L, 2L).output("y")
                .node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y")).domain(PREVIEW), "q_num_heads 3 is not a multiple of kv_num_heads 2");
        refused(new TinyOnnx().opset(26).input("q", 1L, 1L, 1L, 2L).input("k", 1L, 1L, 1L, 3L).input("v", 1L, 1L, 1L, 2L).output("y")
                .node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y")).domain(PREVIEW), "K [1, 1, 1, 3] must be [1, kv_num_heads, kv_sequence_length, 2]");
        refused(new TinyOnnx().opset(26).input("q", 1L, 1L, 2L).input("k", 1L, 1L, 2L).input("v", 1L, 1L, 2L).output("y")
                .node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y")).domain(PREVIEW), "Q [1, 1, 2] must have rank 4");
        refused(new TinyOnnx().opset(26).input("q", 1L, 2L, 1L, 1L).input(OnnxDTypes.FLOAT16, "k", 1L, 1L, 2L, 1L).input("v", 1L, 1L, 2L, 1L).output("y")
                .node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y")).domain(PREVIEW), "is f16, not f32 (Q, K and V have one type)");
        refused(gqa(OnnxDTypes.FLOAT, "softmax_precision", 7L), "softmax_precision 7 is not the ONNX code of f32 (1), f16 (10), bf16 (16) or f64 (11)");
        refused(gqa(OnnxDTypes.FLOAT, "from_stage", 1L), "attribute 'from_stage' is arenaplan's own");
        refused(gqa(OnnxDTypes.FLOAT, "scale", 0.0), "scale 0.0 must be finite and not 0");
        // the stage attributes the importer sets are not offered as what the op takes
        refused(gqa(OnnxDTypes.FLOAT, "mask_mod", 1L), "unknown attribute 'mask_mod'; FlexAttention takes scale, softmax_precision, score_mod, prob_mod");
        refused(gqa(OnnxDTypes.FLOAT).domain(""), "FlexAttention is an operator of the ai.onnx.preview domain, not of ''");
        refused(gqa(OnnxDTypes.FLOAT).domain("com.example"), "unsupported op type: com.example.FlexAttention");
        TinyOnnx twoOut = new TinyOnnx().input("s", 1L, 2L, 1L, 2L).output("a").output("b")
                .node("n1", "Neg", List.of("s"), List.of("a")).node("n2", "Neg", List.of("s"), List.of("b"));
        refused(gqa(OnnxDTypes.FLOAT, "score_mod", twoOut), "score_mod has 1 inputs and 2 outputs; a FlexAttention modifier takes one tensor and gives one");
        TinyOnnx reshaping = new TinyOnnx().input("s", 1L, 2L, 1L, 2L).ints("perm", 1, 2, 2, 1).output("o")
                .node("r", "Reshape", List.of("s", "perm"), List.of("o"));
        refused(gqa(OnnxDTypes.FLOAT, "score_mod", reshaping), "score_mod's output fa/score_mod/o[1, 2, 2, 1] has not the shape of its input fa/scores[1, 2, 1, 2] (a modifier keeps its input's shape");
        TinyOnnx unsupported = new TinyOnnx().input("s", 1L, 2L, 1L, 2L).output("o").node("nz", "NonZero", List.of("s"), List.of("o"));
        refused(gqa(OnnxDTypes.FLOAT, "prob_mod", unsupported), "NonZero (1 node: fa/prob_mod/nz");
    }

    @Test
    void thePreviewDomainMustBeImportedAtVersionOne() throws Exception {
        ai.onnx.proto.OnnxMl.ModelProto m = gqa(OnnxDTypes.FLOAT).model();
        ai.onnx.proto.OnnxMl.ModelProto.Builder none = m.toBuilder().clearOpsetImport(), two = m.toBuilder().clearOpsetImport();
        for (ai.onnx.proto.OnnxMl.OperatorSetIdProto o : m.getOpsetImportList()) {
            if (!o.getDomain().equals(PREVIEW)) none.addOpsetImport(o);
            two.addOpsetImport(o.getDomain().equals(PREVIEW) ? o.toBuilder().setVersion(2).build() : o);
        }
        refused(none.build().toByteArray(), "opset_import names no version of the ai.onnx.preview domain, which node 'fa' (FlexAttention) uses");
        refused(two.build().toByteArray(), "opset 2 of the ai.onnx.preview domain, which node 'fa' (FlexAttention) uses, is not the version arenaplan imports (1)");
        // a refusal at a node names the version of the node's own domain, not the default domain's
        refused(gqa(OnnxDTypes.FLOAT, "scale", 0.0), "(FlexAttention, #0, ai.onnx.preview opset 1)");
        TinyOnnx toHalf = new TinyOnnx().input("s", 1L, 2L, 1L, 2L).output("o").node("c", "Cast", List.of("s"), List.of("o"), "to", 10L);
        refused(gqa(OnnxDTypes.FLOAT, "score_mod", toHalf), "(FlexAttention, #0, ai.onnx.preview opset 1): score_mod's output");   // at a stage
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        refused(model.bytes(), message);
    }

    private void refused(byte[] model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model);
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).contains("fa").contains("bad.onnx").doesNotContain("\n"));
    }
}
