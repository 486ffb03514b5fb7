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

    /**
     * f64 Q, K, V with softmax_precision f16 and bf16 give onnx 1.23.1's reference outputs bit for bit
     * (onnx.reference.ReferenceEvaluator on this model, the expected values printed with float.hex):
     * the reference casts an f64 to f16 rounded once (numpy; V[0] = 1 + 2^-11 + 2^-40 rounds up to
     * 1 + 2^-10, where a cast through f32 meets a tie and keeps 1), sums bf16 probabilities in bf16 at
     * every step (ml_dtypes' add) and takes P V in bf16 as a float32 sum that is not rounded to bf16
     * (ml_dtypes' matmul returns float32). B 1, Hq 2, Hkv 1, L 2, S 6, E 3, Ev 2, default scale.
     */
    @Test
    void f64WithANarrowSoftmaxPrecisionGivesTheReferencesBits() throws Exception {
        Map<String, TensorValue> in = TransformerOpsTest.feed(
                "q", TensorValue.ofDoubles(DType.F64, new long[]{1, 2, 2, 3}, 0.5, -1.25, 2.0, 1.5, 0.75, -0.5, -2.0, 1.0, 0.25, 0.125, -0.375, 1.75),
                "k", TensorValue.ofDoubles(DType.F64, new long[]{1, 1, 6, 3}, 1.0, 0.5, -1.5, -0.25, 2.0, 0.75, 1.25, -1.0, 0.5, 0.3, 0.1, -0.7,
                        2.5, 1.5, -0.25, -1.75, 0.625, 1.125),
                "v", TensorValue.ofDoubles(DType.F64, new long[]{1, 1, 6, 2}, 1 + 0x1p-11 + 0x1p-40, -3.0, 0.1, 2.7, -1.3, 0.9, 5.5, -0.2,
                        1 + 0x1p-11 + 0x1p-40, 4.1, -2.2, 0.33));
        double[] f16 = {-0x1.9c4p-1, 0x1.f6p-1, 0x1.0fp+0, 0x1.2f4p+1, -0x1.418p+0, 0x1.c14p-1, -0x1.36p-1, 0x1.27p+0};
        double[] bf16 = {-0x1.9b2934p-1, 0x1.f2f7f8p-1, 0x1.0ed3ecp+0, 0x1.2ff118p+1, -0x1.42307p+0, 0x1.c19b4p-1, -0x1.352f4p-1, 0x1.266dd8p+0};
        for (Object[] want : new Object[][]{{(long) OnnxDTypes.FLOAT16, f16}, {(long) OnnxDTypes.BFLOAT16, bf16}}) {
            TinyOnnx m = new TinyOnnx().opset(26).input(OnnxDTypes.DOUBLE, "q", 1L, 2L, 2L, 3L).input(OnnxDTypes.DOUBLE, "k", 1L, 1L, 6L, 3L)
                    .input(OnnxDTypes.DOUBLE, "v", 1L, 1L, 6L, 2L).outputOfType(OnnxDTypes.DOUBLE, "y")
                    .node("fa", "FlexAttention", List.of("q", "k", "v"), List.of("y"), "softmax_precision", want[0]).domain(PREVIEW);
            assertThat(OnnxOpRuns.run(dir, m, in).get("y").doubles()).as("softmax_precision %s", want[0]).containsExactly((double[]) want[1]);
        }
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
        TinyOnnx unsupported = new TinyOnnx().input("s", 1L, 2L, 1L, 2L).output("o").node("nz", "Bernoulli", List.of("s"), List.of("o"));
        refused(gqa(OnnxDTypes.FLOAT, "prob_mod", unsupported), "Bernoulli (1 node: fa/prob_mod/nz");
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
