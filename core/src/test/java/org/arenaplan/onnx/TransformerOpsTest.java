package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transformer ops of opset 23 (RMSNormalization, RotaryEmbedding, Attention) through import,
 * planning and the simulator, against ONNX Runtime and hand-worked values; refusals name the node
 * and the attribute or input.
 */
class TransformerOpsTest {
    @TempDir
    Path dir;

    private Map<String, TensorValue> run(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return OnnxOpRuns.run(dir, model, inputs);
    }

    private void agree(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        OnnxOpRuns.agree(dir, model, inputs, 1e-4, 1e-5);
    }

    static TensorValue x(long seed, long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        return TensorValue.ofFloats(shape, OnnxRuntimeDifferentialTest.random((int) n, seed + n));
    }

    static Map<String, TensorValue> feed(Object... nameValue) {
        Map<String, TensorValue> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) m.put((String) nameValue[i], (TensorValue) nameValue[i + 1]);
        return m;
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void rmsNormalizationOnEveryAxisMatchesTheSpecFormula() throws Exception {
        // ONNX Runtime 1.22 refuses opset 23, so the oracle is the spec's function body written out here:
        // y = x / sqrt(mean(x^2 over the axes from axis on) + epsilon) * scale
        TensorValue in = x(5, 2, 3, 4);
        for (long axis : new long[]{0, 1, 2, -1, -2}) {
            int a = (int) (axis < 0 ? axis + 3 : axis);
            long[] norm = java.util.Arrays.copyOfRange(new long[]{2, 3, 4}, a, 3);
            Object[] dims = java.util.Arrays.stream(norm).boxed().toArray();
            TensorValue s = x(6, norm);
            TinyOnnx m = new TinyOnnx().opset(23).input("x", 2L, 3L, 4L).input("s", dims).output("y")
                    .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y"), "axis", axis, "epsilon", 1e-3);
            float[] got = run(m, feed("x", in, "s", s)).get("y").floats();
            int group = s.floats().length, groups = 24 / group;
            for (int g = 0; g < groups; g++) {
                double squares = 0;
                for (int j = 0; j < group; j++) squares += (double) in.floats()[g * group + j] * in.floats()[g * group + j];
                double inv = 1 / Math.sqrt(squares / group + 1e-3);
                for (int j = 0; j < group; j++)
                    assertThat(got[g * group + j]).as("axis %d, element %d", axis, g * group + j)
                            .isCloseTo((float) (in.floats()[g * group + j] * inv * s.floats()[j]), org.assertj.core.data.Offset.offset(1e-6f));
            }
        }
    }

    @Test
    void rmsNormalizationByHand() throws Exception {
        // one row [1, 2, 3, 4]: mean of squares 7.5; scale [1, 2, 1, 1], epsilon 0
        TinyOnnx m = new TinyOnnx().opset(23).input("x", 1L, 4L).input("s", 4L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y"), "epsilon", 0.0);
        float[] y = run(m, feed("x", TensorValue.ofFloats(new long[]{1, 4}, 1, 2, 3, 4), "s", TensorValue.ofFloats(new long[]{4}, 1, 2, 1, 1))).get("y").floats();
        double r = Math.sqrt(7.5);
        assertThat(y).containsExactly((float) (1 / r), (float) (4 / r), (float) (3 / r), (float) (4 / r));
    }

    @Test
    void rmsNormalizationRefusals() throws Exception {
        refused(new TinyOnnx().opset(23).input("x", 2L, 3L).input("s", 3L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y"), "stash_type", 10L), "stash_type 10 is not supported");
        refused(new TinyOnnx().opset(23).input("x", 2L, 3L).input("s", 2L, 3L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y")), "does not broadcast to the normalised axes [3]");
        refused(new TinyOnnx().opset(22).input("x", 2L, 3L).input("s", 3L).output("y")
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y")), "RMSNormalization");
    }

    // ---- RotaryEmbedding ----

    @Test
    void rotaryEmbeddingInHalvesAndInterleavedByHand() throws Exception {
        // one head of 4 at position 1 of a 2-row cache: c = [0.5, 0.25], s = [2, 3]
        TensorValue x = TensorValue.ofFloats(new long[]{1, 1, 1, 4}, 1, 2, 3, 4);
        TensorValue cos = TensorValue.ofFloats(new long[]{2, 2}, 9, 9, 0.5f, 0.25f), sin = TensorValue.ofFloats(new long[]{2, 2}, 9, 9, 2, 3);
        TensorValue pos = TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{1, 1}, 1);
        for (long interleaved = 0; interleaved <= 1; interleaved++) {
            TinyOnnx m = new TinyOnnx().opset(23).input("x", 1L, 1L, 1L, 4L).input("cos", 2L, 2L).input("sin", 2L, 2L)
                    .input(OnnxDTypes.INT64, "pos", 1L, 1L).output("y")
                    .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin", "pos"), List.of("y"), "interleaved", interleaved);
            float[] y = run(m, feed("x", x, "cos", cos, "sin", sin, "pos", pos)).get("y").floats();
            if (interleaved == 0)   // pairs (x0, x2), (x1, x3)
                assertThat(y).containsExactly(0.5f * 1 - 2 * 3, 0.25f * 2 - 3 * 4, 2 * 1 + 0.5f * 3, 3 * 2 + 0.25f * 4);
            else                    // pairs (x0, x1), (x2, x3)
                assertThat(y).containsExactly(0.5f * 1 - 2 * 2, 2 * 1 + 0.5f * 2, 0.25f * 3 - 3 * 4, 3 * 3 + 0.25f * 4);
        }
        // rotary_embedding_dim 2 of a 3D input with 2 heads of 4, no position_ids (cache [B, S, 1]): dims 2 and 3 of each head pass through
        TinyOnnx partial = new TinyOnnx().opset(23).input("x", 1L, 1L, 8L).input("cos", 1L, 1L, 1L).input("sin", 1L, 1L, 1L).output("y")
                .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin"), List.of("y"), "num_heads", 2L, "rotary_embedding_dim", 2L);
        float[] y = run(partial, feed("x", TensorValue.ofFloats(new long[]{1, 1, 8}, 1, 2, 3, 4, 5, 6, 7, 8),
                "cos", TensorValue.ofFloats(new long[]{1, 1, 1}, 0.5f), "sin", TensorValue.ofFloats(new long[]{1, 1, 1}, 2))).get("y").floats();
        assertThat(y).containsExactly(0.5f * 1 - 2 * 2, 2 * 1 + 0.5f * 2, 3, 4, 0.5f * 5 - 2 * 6, 2 * 5 + 0.5f * 6, 7, 8);
    }

    @Test
    void rotaryEmbeddingRefusalsAndAPositionOutsideTheCache() throws Exception {
        refused(new TinyOnnx().opset(23).input("x", 1L, 1L, 1L, 4L).input("cos", 2L, 1L).input("sin", 2L, 1L).input(OnnxDTypes.INT64, "pos", 1L, 1L).output("y")
                .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin", "pos"), List.of("y"), "rotary_embedding_dim", 3L), "rotary_embedding_dim 3 must be even");
        refused(new TinyOnnx().opset(23).input("x", 1L, 1L, 1L, 4L).input("cos", 2L, 2L).input("sin", 2L, 2L).input(OnnxDTypes.INT32, "pos", 1L, 1L).output("y")
                .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin", "pos"), List.of("y")), "position_ids pos[1, 1] is i32, not i64");
        refused(new TinyOnnx().opset(23).input("x", 1L, 1L, 8L).input("cos", 1L, 1L, 2L).input("sin", 1L, 1L, 2L).output("y")
                .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin"), List.of("y")), "num_heads 0 must be given");
        refused(new TinyOnnx().opset(23).input("x", 1L, 1L, 1L, 4L).input("cos", 2L, 3L).input("sin", 2L, 3L).input(OnnxDTypes.INT64, "pos", 1L, 1L).output("y")
                .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin", "pos"), List.of("y")), "cos_cache [2, 3] must be [max_position, 2] with position_ids");
        TinyOnnx m = new TinyOnnx().opset(23).input("x", 1L, 1L, 1L, 4L).input("cos", 2L, 2L).input("sin", 2L, 2L).input(OnnxDTypes.INT64, "pos", 1L, 1L).output("y")
                .node("rope", "RotaryEmbedding", List.of("x", "cos", "sin", "pos"), List.of("y"));
        assertThatThrownBy(() -> run(m, feed("x", x(1, 1, 1, 1, 4), "cos", x(2, 2, 2), "sin", x(3, 2, 2),
                "pos", TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{1, 1}, 2)))).hasMessageContaining("position 2").hasMessageContaining("cache of 2 rows");
    }

    // ---- Attention ----

    /**
     * onnx/reference/ops/op_attention.py written out in double over [B, H, S, D] arrays (Q, K, V
     * already 4D; past already prepended): the mask (f32, or null) padded with -inf to T, the
     * causal frontier j &lt;= i + offset, softcap, softmax, the fully-masked-row guard. Returns Y
     * and the qk output of {@code mode}.
     */
    static double[][] reference(float[] q, float[] k, float[] v, float[] mask, long[] maskShape, int b, int hq, int hkv, int sq, int t, int d, int dv,
                                boolean causal, long offset, double scale, double softcap, int mode) {
        double[] y = new double[b * hq * sq * dv], qk = new double[b * hq * sq * t];
        int group = hq / hkv;
        for (int bb = 0; bb < b; bb++)
            for (int h = 0; h < hq; h++)
                for (int i = 0; i < sq; i++) {
                    double[] x = new double[t], bias = new double[t];
                    for (int j = 0; j < t; j++) {
                        double m = 0;
                        if (mask != null) {
                            int r = maskShape.length;
                            long tm = maskShape[r - 1];
                            if (j >= tm) m = Double.NEGATIVE_INFINITY;
                            else {   // right-aligned broadcast of [.., Sq, Tm] over (b, h, i)
                                long at = j, stride = tm;
                                long[] idx = {bb, h, i};
                                for (int a = 2, dd = r - 2; a >= 0 && dd >= 0; a--, dd--) {
                                    if (maskShape[dd] != 1) at += idx[a] * stride;
                                    stride *= maskShape[dd];
                                }
                                m = mask[(int) at];
                            }
                        }
                        if (causal && j > i + offset) m += Double.NEGATIVE_INFINITY;
                        bias[j] = m;
                        double dot = 0;
                        for (int e = 0; e < d; e++) dot += q[((bb * hq + h) * sq + i) * d + e] * (double) k[((bb * hkv + h / group) * t + j) * d + e];
                        double raw = dot * scale, capped = softcap > 0 ? softcap * Math.tanh(raw / softcap) : raw;
                        x[j] = capped + m;
                        qk[((bb * hq + h) * sq + i) * t + j] = mode == 0 ? raw : mode == 1 ? capped : x[j];
                    }
                    double max = Double.NEGATIVE_INFINITY, sum = 0;
                    boolean all = true;
                    for (int j = 0; j < t; j++) {
                        max = Math.max(max, x[j]);
                        all &= bias[j] == Double.NEGATIVE_INFINITY;
                    }
                    for (int j = 0; j < t; j++) sum += Math.exp(x[j] - max);
                    for (int j = 0; j < t; j++) {
                        double p = all ? 0 : Math.exp(x[j] - max) / sum;
                        if (mode == 3) qk[((bb * hq + h) * sq + i) * t + j] = p;
                        for (int e = 0; e < dv; e++) y[((bb * hq + h) * sq + i) * dv + e] += p * v[((bb * hkv + h / group) * t + j) * dv + e];
                    }
                }
        return new double[][]{y, qk};
    }

    /** [B, S, H*W] to [B, H, S, W]. */
    static float[] heads(float[] x, int b, int s, int h, int w) {
        float[] out = new float[x.length];
        for (int bb = 0; bb < b; bb++) for (int ss = 0; ss < s; ss++) for (int hh = 0; hh < h; hh++) for (int e = 0; e < w; e++)
            out[((bb * h + hh) * s + ss) * w + e] = x[((bb * s + ss) * h + hh) * w + e];
        return out;
    }

    /** past [B, H, P, W] then cur [B, H, S, W] along the sequence. */
    static float[] concat(float[] past, float[] cur, int b, int h, int p, int s, int w) {
        float[] out = new float[b * h * (p + s) * w];
        for (int bh = 0; bh < b * h; bh++) {
            System.arraycopy(past, bh * p * w, out, bh * (p + s) * w, p * w);
            System.arraycopy(cur, bh * s * w, out, (bh * (p + s) + p) * w, s * w);
        }
        return out;
    }

    private static void close(float[] got, double[] want, String what) {
        org.arenaplan.exec.AllClose c = org.arenaplan.exec.AllClose.compare(java.util.Arrays.stream(toDoubles(got)).toArray(), want, 1e-4, 1e-5);
        assertThat(c.ok()).as(what + ": " + c.describe(new long[]{got.length})).isTrue();
    }

    private static double[] toDoubles(float[] f) {
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }

    @Test
    void attention3dGqaWithPastMaskCausalSoftcapAndEveryQkModeMatchesTheReference() throws Exception {
        // B 2, Hq 4, Hkv 2, Sq 3, Skv 2, past 3 (T 5), D 4, Dv 6; a float mask [3, 4] one key short of T (padded with -inf)
        int b = 2, hq = 4, hkv = 2, sq = 3, skv = 2, past = 3, t = past + skv, d = 4, dv = 6;
        TensorValue q = x(10, b, sq, hq * d), k = x(11, b, skv, hkv * d), v = x(12, b, skv, hkv * dv), pk = x(13, b, hkv, past, d), pv = x(14, b, hkv, past, dv);
        TensorValue mask = x(15, sq, 4);
        float[] k4 = concat(pk.floats(), heads(k.floats(), b, skv, hkv, d), b, hkv, past, skv, d);
        float[] v4 = concat(pv.floats(), heads(v.floats(), b, skv, hkv, dv), b, hkv, past, skv, dv);
        for (int mode = 0; mode <= 3; mode++) {
            double softcap = mode == 0 ? 0 : 1.5;
            TinyOnnx m = new TinyOnnx().opset(23).input("q", (long) b, (long) sq, (long) hq * d).input("k", (long) b, (long) skv, (long) hkv * d)
                    .input("v", (long) b, (long) skv, (long) hkv * dv).input("mask", (long) sq, 4L).input("pk", (long) b, (long) hkv, (long) past, (long) d)
                    .input("pv", (long) b, (long) hkv, (long) past, (long) dv).output("y").output("present_k").output("present_v").output("qk")
                    .node("attn", "Attention", List.of("q", "k", "v", "mask", "pk", "pv"), List.of("y", "present_k", "present_v", "qk"),
                            "q_num_heads", (long) hq, "kv_num_heads", (long) hkv, "is_causal", 1L, "softcap", softcap, "qk_matmul_output_mode", (long) mode,
                            "scale", 0.4);
            Map<String, TensorValue> out = run(m, feed("q", q, "k", k, "v", v, "mask", mask, "pk", pk, "pv", pv));
            double[][] want = reference(heads(q.floats(), b, sq, hq, d), k4, v4, mask.floats(), new long[]{sq, 4}, b, hq, hkv, sq, t, d, dv, true, past, 0.4,
                    softcap, mode);
            // Y back to [B, S, H*Dv]
            double[] y3 = new double[want[0].length];
            for (int bb = 0; bb < b; bb++) for (int h = 0; h < hq; h++) for (int i = 0; i < sq; i++) for (int e = 0; e < dv; e++)
                y3[((bb * sq + i) * hq + h) * dv + e] = want[0][((bb * hq + h) * sq + i) * dv + e];
            close(out.get("y").floats(), y3, "Y, mode " + mode);
            close(out.get("qk").floats(), want[1], "qk_matmul_output, mode " + mode);
            assertThat(out.get("present_k").floats()).containsExactly(k4);
            assertThat(out.get("present_v").floats()).containsExactly(v4);
            assertThat(out.get("qk").shape()).containsExactly(b, hq, sq, t);
        }
    }

    @Test
    void aFullyMaskedRowIsZeroAndABoolMaskSelects() throws Exception {
        // 4D, one head, 2 queries, 3 keys; row 0 attends keys 0 and 2, row 1 none
        TensorValue q = x(20, 1, 1, 2, 4), k = x(21, 1, 1, 3, 4), v = x(22, 1, 1, 3, 2);
        byte[] sel = {1, 0, 1, 0, 0, 0};
        TensorValue mask = new TensorValue(org.arenaplan.ir.DType.BOOL, new long[]{2, 3}, sel);
        TinyOnnx m = new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L)
                .input(OnnxDTypes.BOOL, "mask", 2L, 3L).output("y").output("qk")
                .node("attn", "Attention", List.of("q", "k", "v", "mask"), List.of("y", "", "", "qk"), "qk_matmul_output_mode", 3L);
        Map<String, TensorValue> out = run(m, feed("q", q, "k", k, "v", v, "mask", mask));
        float[] p = out.get("qk").floats(), y = out.get("y").floats();
        assertThat(p[1]).isZero();
        assertThat(p[0] + p[2]).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(java.util.Arrays.copyOfRange(p, 3, 6)).containsOnly(0f);
        assertThat(java.util.Arrays.copyOfRange(y, 2, 4)).containsOnly(0f);
        float[] vv = v.floats();
        assertThat(y[0]).isCloseTo(p[0] * vv[0] + p[2] * vv[4], org.assertj.core.data.Offset.offset(1e-6f));
    }

    @Test
    void nonpadKvSeqlenOffsetsTheCausalFrontierAtOpset24() throws Exception {
        // B 2, one head, Sq 2, 4 keys; nonpad [4, 1]: batch 0 offset 2 (row 0 sees keys 0..2), batch 1 offset -1 (row 0 sees none, row 1 key 0)
        TensorValue q = x(30, 2, 1, 2, 3), k = x(31, 2, 1, 4, 3), v = x(32, 2, 1, 4, 2);
        TinyOnnx m = new TinyOnnx().opset(24).input("q", 2L, 1L, 2L, 3L).input("k", 2L, 1L, 4L, 3L).input("v", 2L, 1L, 4L, 2L)
                .input(OnnxDTypes.INT64, "n", 2L).output("y").output("qk")
                .node("attn", "Attention", List.of("q", "k", "v", "", "", "", "n"), List.of("y", "", "", "qk"), "is_causal", 1L, "qk_matmul_output_mode", 3L);
        float[] p = run(m, feed("q", q, "k", k, "v", v, "n", TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{2}, 4, 1))).get("qk").floats();
        // [b][i][j]
        assertThat(p[3]).isZero();                                  // b 0, i 0, j 3 > 0 + 2
        assertThat(p[0] + p[1] + p[2]).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(p[4] + p[5] + p[6] + p[7]).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(java.util.Arrays.copyOfRange(p, 8, 12)).containsOnly(0f);     // b 1, i 0: fully masked
        assertThat(java.util.Arrays.copyOfRange(p, 12, 16)).containsExactly(1f, 0f, 0f, 0f);   // b 1, i 1: key 0 only
    }

    @Test
    void aSlidingWindowAtOpset25LimitsTheKeysEachQuerySees() throws Exception {
        // one head, 4 queries over 4 keys, left 1, right 0: query i sees keys i - 1 and i
        TinyOnnx m = new TinyOnnx().opset(25).input("q", 1L, 1L, 4L, 3L).input("k", 1L, 1L, 4L, 3L).input("v", 1L, 1L, 4L, 2L).output("y").output("qk")
                .node("attn", "Attention", List.of("q", "k", "v"), List.of("y", "", "", "qk"), "left_window_size", 1L, "right_window_size", 0L,
                        "qk_matmul_output_mode", 3L);
        float[] p = run(m, feed("q", x(40, 1, 1, 4, 3), "k", x(41, 1, 1, 4, 3), "v", x(42, 1, 1, 4, 2))).get("qk").floats();
        for (int i = 0; i < 4; i++) {
            double sum = 0;
            for (int j = 0; j < 4; j++) {
                boolean seen = j >= i - 1 && j <= i;
                if (!seen) assertThat(p[i * 4 + j]).as("query %d, key %d", i, j).isZero();
                else assertThat(p[i * 4 + j]).as("query %d, key %d", i, j).isPositive();
                sum += p[i * 4 + j];
            }
            assertThat(sum).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-6));
        }
        refused(new TinyOnnx().opset(24).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v"), List.of("y"), "left_window_size", 1L), "attribute 'left_window_size' exists from Attention-25");
        refused(new TinyOnnx().opset(25).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v"), List.of("y"), "q_num_heads", 1L, "kv_num_heads", 1L),
                "must not be given with 4D inputs from Attention-25");
    }

    @Test
    void attentionRefusalsNameTheNodeAndTheAttributeOrInput() throws Exception {
        TinyOnnx base = new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).output("y");
        refused(base.node("attn", "Attention", List.of("q", "k", "v"), List.of("y"), "softmax_precision", 10L), "softmax_precision 10 is not supported");
        TinyOnnx qk = new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).output("y").output("qk");
        refused(qk.node("attn", "Attention", List.of("q", "k", "v"), List.of("y", "", "", "qk"), "softcap", 2.0),
                "qk_matmul_output_mode 0 with softcap 2.0 is refused");
        refused(new TinyOnnx().opset(23).input("q", 1L, 3L, 2L, 4L).input("k", 1L, 2L, 3L, 4L).input("v", 1L, 2L, 3L, 2L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v"), List.of("y")), "q_num_heads 3 is not a multiple of kv_num_heads 2");
        refused(new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).input("pk", 1L, 1L, 1L, 4L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v", "", "pk"), List.of("y")), "past_key and past_value must be given together");
        refused(new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).input(OnnxDTypes.INT64, "n", 1L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v", "", "", "", "n"), List.of("y")), "has 7 inputs; Attention takes 3 to 6");
        refused(new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).input(OnnxDTypes.INT64, "m", 2L, 3L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v", "m"), List.of("y")), "Attention takes masks of Q's type (f32) or bool");
        refused(new TinyOnnx().opset(23).input("q", 1L, 1L, 2L, 4L).input("k", 1L, 1L, 3L, 4L).input("v", 1L, 1L, 3L, 2L).input("m", 2L, 4L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v", "m"), List.of("y")), "its last extent must be 1..3");
        refused(new TinyOnnx().opset(23).input("q", 1L, 2L, 8L).input("k", 1L, 3L, 8L).input("v", 1L, 3L, 4L).output("y")
                .node("attn", "Attention", List.of("q", "k", "v"), List.of("y")), "3D inputs need attributes q_num_heads and kv_num_heads");
    }
}
