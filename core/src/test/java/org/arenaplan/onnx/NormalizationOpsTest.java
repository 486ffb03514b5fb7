package org.arenaplan.onnx;

import org.arenaplan.exec.AllClose;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The normalisations, CumSum, TopK and the losses through import, planning and the simulator,
 * against ONNX Runtime (every output, integers exactly) and hand-worked values; refusals name
 * the node and the reason.
 */
class NormalizationOpsTest {
    @TempDir
    Path dir;

    private Map<String, TensorValue> run(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return OnnxOpRuns.run(dir, model, inputs);
    }

    private void agree(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        OnnxOpRuns.agree(dir, model, inputs, 1e-4, 1e-5);
    }

    private static TensorValue x(long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        return TensorValue.ofFloats(shape, OnnxRuntimeDifferentialTest.random((int) n, 31 + n));
    }

    private static Map<String, TensorValue> feed(Object... nameValue) {
        Map<String, TensorValue> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) m.put((String) nameValue[i], (TensorValue) nameValue[i + 1]);
        return m;
    }

    @Test
    void layerNormalizationOnEveryAxisWithItsStatistics() throws Exception {
        for (long axis : new long[]{0, 1, 2, -1, -2}) {
            int a = (int) (axis < 0 ? axis + 3 : axis);
            long[] norm = java.util.Arrays.copyOfRange(new long[]{2, 3, 4}, a, 3);
            Object[] dims = java.util.Arrays.stream(norm).boxed().toArray();
            TinyOnnx m = new TinyOnnx().opset(17).input("x", 2L, 3L, 4L).input("s", dims).input("b", dims).output("y").output("mean").output("inv")
                    .node("ln", "LayerNormalization", List.of("x", "s", "b"), List.of("y", "mean", "inv"), "axis", axis, "epsilon", 1e-3);
            agree(m, feed("x", x(2, 3, 4), "s", x(norm), "b", x(norm)));
        }
        // no bias, a scale [4] broadcast over the normalised axes [3, 4] (the spec allows it, ONNX Runtime does not):
        // the same as ONNX Runtime with the scale repeated to [3, 4]
        TensorValue s4 = x(4), in = x(2, 3, 4);
        float[] rep = new float[12];
        for (int i = 0; i < 12; i++) rep[i] = s4.floats()[i % 4];
        TinyOnnx full = new TinyOnnx().opset(17).input("x", 2L, 3L, 4L).input("s", 3L, 4L).output("y")
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y"), "axis", 1L);
        TensorValue want = OrtOracle.run(full.bytes(), feed("x", in, "s", TensorValue.ofFloats(new long[]{3, 4}, rep))).get("y");
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 2L, 3L, 4L).input("s", 4L).output("y")
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y"), "axis", 1L);
        AllClose c = AllClose.compare(run(m, feed("x", in, "s", s4)).get("y").doubles(), want.doubles(), 1e-4, 1e-5);
        assertThat(c.ok()).as(c.describe(want.shape())).isTrue();
    }

    @Test
    void layerNormalizationByHand() throws Exception {
        // one row [1, 2, 3, 4]: mean 2.5, variance 1.25; scale 1, no bias, epsilon 0
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 1L, 4L).input("s", 4L).output("y").output("mean").output("inv")
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y", "mean", "inv"), "epsilon", 0.0);
        Map<String, TensorValue> out = run(m, feed("x", TensorValue.ofFloats(new long[]{1, 4}, new float[]{1, 2, 3, 4}),
                "s", TensorValue.ofFloats(new long[]{4}, new float[]{1, 1, 1, 1})));
        float inv = (float) (1 / Math.sqrt(1.25));
        assertThat(out.get("mean").floats()).containsExactly(2.5f);
        assertThat(out.get("inv").floats()).containsExactly(inv);
        assertThat(out.get("y").floats()).containsExactly((float) (-1.5 / Math.sqrt(1.25)), (float) (-0.5 / Math.sqrt(1.25)),
                (float) (0.5 / Math.sqrt(1.25)), (float) (1.5 / Math.sqrt(1.25)));
    }

    @Test
    void lpNormalizationOfAnAllZeroGroupIsZero() throws Exception {
        // column 1 of [[3, 0], [4, 0]] has norm 0: 0, not 0/0 = NaN (the ONNX reference and test_l2normalization_axis_0)
        for (long p = 1; p <= 2; p++) {
            TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 2L).output("y").node("lp", "LpNormalization", List.of("x"), List.of("y"), "axis", 0L, "p", p);
            float[] y = run(m, feed("x", TensorValue.ofFloats(new long[]{2, 2}, new float[]{3, 0, 4, 0}))).get("y").floats();
            assertThat(y).containsExactly(p == 1 ? 3f / 7 : 0.6f, 0f, p == 1 ? 4f / 7 : 0.8f, 0f);
        }
    }

    @Test
    void batchNormalizationInTrainingModeByHand() throws Exception {
        // x [N 2, C 2, 1]: channel 0 holds 1, 3 (mean 2, biased variance 1; unbiased would be 2), channel 1 holds 2, 4 (mean 3, variance 1)
        Map<String, TensorValue> in = feed("x", TensorValue.ofFloats(new long[]{2, 2, 1}, new float[]{1, 2, 3, 4}),
                "s", TensorValue.ofFloats(new long[]{2}, new float[]{1, 2}), "b", TensorValue.ofFloats(new long[]{2}, new float[]{0, 1}),
                "mean", TensorValue.ofFloats(new long[]{2}, new float[]{0, 10}), "var", TensorValue.ofFloats(new long[]{2}, new float[]{3, 5}));
        for (int outputs = 1; outputs <= 3; outputs++) {
            List<String> names = List.of("y", "running_mean", "running_var").subList(0, outputs);
            TinyOnnx m = new TinyOnnx().opset(15).input("x", 2L, 2L, 1L).input("s", 2L).input("b", 2L).input("mean", 2L).input("var", 2L).output("y");
            if (outputs > 1) m.output("running_mean", 2L);
            if (outputs > 2) m.output("running_var", 2L);
            m.node("bn", "BatchNormalization", List.of("x", "s", "b", "mean", "var"), names, "epsilon", 0.0, "momentum", 0.5, "training_mode", 1L);
            Map<String, TensorValue> out = run(m, in);
            // y normalised by the batch's statistics, not by the inputs mean and var
            assertThat(out.get("y").floats()).containsExactly(-1, -1, 1, 3);
            if (outputs > 1) assertThat(out.get("running_mean").floats()).containsExactly(1, 6.5f);
            if (outputs > 2) assertThat(out.get("running_var").floats()).containsExactly(2, 3);
        }
        refused(new TinyOnnx().opset(13).input("x", 2L, 2L, 1L).input("s", 2L).input("b", 2L).input("mean", 2L).input("var", 2L).output("y")
                .node("bn", "BatchNormalization", List.of("x", "s", "b", "mean", "var"), List.of("y"), "training_mode", 1L),
                "training_mode exists from opset 14");
    }

    @Test
    void instanceMeanVarianceAndLpNormalization() throws Exception {
        agree(new TinyOnnx().opset(13).input("x", 2L, 3L, 4L, 5L).input("s", 3L).input("b", 3L).output("y")
                .node("in", "InstanceNormalization", List.of("x", "s", "b"), List.of("y"), "epsilon", 1e-4), feed("x", x(2, 3, 4, 5), "s", x(3), "b", x(3)));
        agree(new TinyOnnx().opset(13).input("x", 2L, 3L, 4L, 5L).output("y")
                .node("mvn", "MeanVarianceNormalization", List.of("x"), List.of("y")), feed("x", x(2, 3, 4, 5)));
        agree(new TinyOnnx().opset(13).input("x", 2L, 3L, 4L, 5L).output("y")
                .node("mvn", "MeanVarianceNormalization", List.of("x"), List.of("y"), "axes", new long[]{1, -1}), feed("x", x(2, 3, 4, 5)));
        for (long p = 1; p <= 2; p++) {
            for (long axis : new long[]{0, 1, -1}) {
                agree(new TinyOnnx().opset(13).input("x", 3L, 4L, 5L).output("y")
                        .node("lp", "LpNormalization", List.of("x"), List.of("y"), "axis", axis, "p", p), feed("x", x(3, 4, 5)));
            }
        }
    }

    /** Gaussian f64 values of {@code shape}. */
    private static TensorValue f64(long seed, long... shape) {
        return HalfPrecisionOpsTest.random(DType.F64, seed, shape);
    }

    /**
     * LayerNormalization (Y, and Mean and InvStdDev in f32 as ONNX gives them for stash_type 1),
     * GroupNormalization-18 (GroupNormalization-21 in f64 refused: its stash_type 1 computes in f32), LpNormalization (p 1 and 2) with
     * f64 operands, and RMSNormalization-23 by hand (a float64 model's export: torch's dynamo exporter writes LayerNormalization-18
     * for nn.LayerNorm on float64), against ONNX Runtime's double kernels, in every executor mode,
     * within 1e-12. They were refused ("LayerNormalization computes f32 and f16").
     */
    @Test
    void normalizationsInF64AgreeWithOnnxRuntimeInEveryMode() throws Exception {
        int d = OnnxDTypes.DOUBLE;
        OnnxOpRuns.agreeInEveryMode(dir, new TinyOnnx().opset(18).input(d, "x", 2L, 5L, 16L).input(d, "s", 16L).input(d, "b", 16L)
                        .output(d, "y", 2L, 5L, 16L).output("mean", 2L, 5L, 1L).output("inv", 2L, 5L, 1L)
                        .node("ln", "LayerNormalization", List.of("x", "s", "b"), List.of("y", "mean", "inv"), "epsilon", 1e-5),
                feed("x", f64(60, 2, 5, 16), "s", f64(61, 16), "b", f64(62, 16)), 1e-12, 1e-12);
        OnnxOpRuns.agreeInEveryMode(dir, new TinyOnnx().opset(17).input(d, "x", 2L, 3L, 4L).input(d, "s", 3L, 4L).output(d, "y", 2L, 3L, 4L)
                        .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y"), "axis", 1L),
                feed("x", f64(63, 2, 3, 4), "s", f64(64, 3, 4)), 1e-12, 1e-12);
        OnnxOpRuns.agreeInEveryMode(dir, new TinyOnnx().opset(18).input(d, "x", 2L, 4L, 3L, 3L).input(d, "s", 2L).input(d, "b", 2L).output(d, "y", 2L, 4L, 3L, 3L)
                        .node("gn", "GroupNormalization", List.of("x", "s", "b"), List.of("y"), "num_groups", 2L),
                feed("x", f64(65, 2, 4, 3, 3), "s", f64(66, 2), "b", f64(67, 2)), 1e-12, 1e-12);
        // from 21 the function body casts X to stash_type (float) first: ONNX Runtime's f64 result is f32-accurate (3e-7 off double)
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(21).input(d, "x", 2L, 4L, 3L).input(d, "s", 4L).input(d, "b", 4L).output(d, "y", 2L, 4L, 3L)
                .node("gn", "GroupNormalization", List.of("x", "s", "b"), List.of("y"), "num_groups", 2L), "GroupNormalization from opset 21 computes it in f32");
        // RMSNormalization-23: ONNX Runtime 1.22 refuses opset 23; by hand in double (1.30's double kernel, checked in Python, is within 4e-13 of it)
        TensorValue rx = f64(69, 2, 3, 8), rs = f64(70, 8);
        double[] xs = rx.doubles(), ss = rs.doubles(), want = new double[xs.length];
        double eps = (float) 1e-5;   // the attribute is a float
        for (int row = 0; row < 6; row++) {
            double sq = 0;
            for (int j = 0; j < 8; j++) sq += xs[8 * row + j] * xs[8 * row + j];
            for (int j = 0; j < 8; j++) want[8 * row + j] = xs[8 * row + j] / Math.sqrt(sq / 8 + eps) * ss[j];
        }
        TensorValue rms = run(new TinyOnnx().opset(23).input(d, "x", 2L, 3L, 8L).input(d, "s", 8L).output(d, "y", 2L, 3L, 8L)
                .node("rms", "RMSNormalization", List.of("x", "s"), List.of("y")), feed("x", rx, "s", rs)).get("y");
        assertThat(AllClose.compare(rms, TensorValue.ofDoubles(DType.F64, new long[]{2, 3, 8}, want), 1e-12, 1e-12).ok()).isTrue();
        for (long p : new long[]{1, 2})
            OnnxOpRuns.agreeInEveryMode(dir, new TinyOnnx().opset(13).input(d, "x", 3L, 4L, 5L).output(d, "y", 3L, 4L, 5L)
                    .node("lp", "LpNormalization", List.of("x"), List.of("y"), "axis", 1L, "p", p), feed("x", f64(68, 3, 4, 5)), 1e-12, 1e-12);
    }

    @Test
    void groupNormalizationPerGroupAt18AndPerChannelAt21ByHand() throws Exception {
        // x [1, 4, 2]: channels (1, 3), (5, 7), (0, 0), (2, 6); groups of 2 channels: [1, 3, 5, 7] and [0, 0, 2, 6]
        TensorValue in = TensorValue.ofFloats(new long[]{1, 4, 2}, new float[]{1, 3, 5, 7, 0, 0, 2, 6});
        double m1 = 4, v1 = 5, m2 = 2, v2 = 6;
        float[] z = new float[8];
        double[] xs = {1, 3, 5, 7, 0, 0, 2, 6};
        for (int i = 0; i < 8; i++) z[i] = (float) (i < 4 ? (xs[i] - m1) / Math.sqrt(v1) : (xs[i] - m2) / Math.sqrt(v2));
        TinyOnnx g18 = new TinyOnnx().opset(18).input("x", 1L, 4L, 2L).input("s", 2L).input("b", 2L).output("y")
                .node("gn", "GroupNormalization", List.of("x", "s", "b"), List.of("y"), "num_groups", 2L, "epsilon", 0.0);
        float[] y18 = run(g18, feed("x", in, "s", TensorValue.ofFloats(new long[]{2}, new float[]{2, 1}), "b", TensorValue.ofFloats(new long[]{2}, new float[]{0, 10}))).get("y").floats();
        for (int i = 0; i < 8; i++) assertThat(y18[i]).isCloseTo(i < 4 ? 2 * z[i] : z[i] + 10, org.assertj.core.data.Offset.offset(1e-5f));
        TinyOnnx g21 = new TinyOnnx().opset(21).input("x", 1L, 4L, 2L).input("s", 4L).input("b", 4L).output("y")
                .node("gn", "GroupNormalization", List.of("x", "s", "b"), List.of("y"), "num_groups", 2L, "epsilon", 0.0);
        float[] s = {1, 2, 3, 4}, b = {0, 1, 0, -1};
        float[] y21 = run(g21, feed("x", in, "s", TensorValue.ofFloats(new long[]{4}, s), "b", TensorValue.ofFloats(new long[]{4}, b))).get("y").floats();
        for (int i = 0; i < 8; i++) assertThat(y21[i]).isCloseTo(z[i] * s[i / 2] + b[i / 2], org.assertj.core.data.Offset.offset(1e-5f));
    }

    @Test
    void cumSumAndTopKAgreeWithOnnxRuntime() throws Exception {
        for (long axis : new long[]{0, 1, -1}) {
            for (long exclusive = 0; exclusive <= 1; exclusive++) {
                for (long reverse = 0; reverse <= 1; reverse++) {
                    TinyOnnx m = new TinyOnnx().opset(14).input("x", 3L, 4L, 5L).ints("axis", axis).output("y")
                            .node("c", "CumSum", List.of("x", "axis"), List.of("y"), "exclusive", exclusive, "reverse", reverse);
                    agree(m, feed("x", x(3, 4, 5)));
                }
            }
        }
        long[] v = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4};
        TensorValue ints = TensorValue.ofLongs(DType.I64, new long[]{2, 3, 4}, v);
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) f[i] = v[i];
        TensorValue floats = TensorValue.ofFloats(new long[]{2, 3, 4}, f);
        for (long axis : new long[]{0, 1, 2, -1}) {
            int a = (int) (axis < 0 ? axis + 3 : axis);
            for (long k : new long[]{1, 2}) {
                for (long largest = 0; largest <= 1; largest++) {
                    List<Object> dims = new ArrayList<>();
                    for (int d = 0; d < 3; d++) dims.add(d == a ? k : new long[]{2, 3, 4}[d]);
                    for (TensorValue in : new TensorValue[]{floats, ints}) {
                        int type = in.dtype() == DType.I64 ? OnnxDTypes.INT64 : OnnxDTypes.FLOAT;
                        TinyOnnx m = new TinyOnnx().opset(11).input(type, "x", 2L, 3L, 4L).ints("k", k)
                                .output(type, "values", dims.toArray()).output(OnnxDTypes.INT64, "indices", dims.toArray())
                                .node("t", "TopK", List.of("x", "k"), List.of("values", "indices"), "axis", axis, "largest", largest);
                        agree(m, feed("x", in));
                    }
                }
            }
        }
    }

    @Test
    void lossesWithEveryReductionWeightsAndIgnoredTargets() throws Exception {
        TensorValue targets = TensorValue.ofLongs(DType.I64, new long[]{3, 2}, 0, 4, 2, 1, 3, 1);
        for (String op : new String[]{"SoftmaxCrossEntropyLoss", "NegativeLogLikelihoodLoss"}) {
            for (String reduction : new String[]{"none", "sum", "mean"}) {
                for (boolean weights : new boolean[]{false, true}) {
                    for (boolean ignore : new boolean[]{false, true}) {
                        TinyOnnx m = new TinyOnnx().opset(13).input("x", 3L, 5L, 2L).input(OnnxDTypes.INT64, "t", 3L, 2L);
                        List<String> ins = new ArrayList<>(List.of("x", "t"));
                        if (weights) { m.input("w", 5L); ins.add("w"); }
                        boolean logProb = op.startsWith("Softmax");
                        m.output("loss");
                        if (logProb) m.output("logp");
                        List<Object> attrs = new ArrayList<>(List.of("reduction", reduction));
                        if (ignore) { attrs.add("ignore_index"); attrs.add(1L); }
                        m.node("l", op, ins, logProb ? List.of("loss", "logp") : List.of("loss"), attrs.toArray());
                        Map<String, TensorValue> in = feed("x", x(3, 5, 2), "t", targets);
                        if (weights) in.put("w", TensorValue.ofFloats(new long[]{5}, new float[]{0.5f, 1, 2, 0.25f, 3}));
                        agree(m, in);
                    }
                }
            }
        }
    }

    @Test
    void einsumContractionsDiagonalsEllipsesAndImplicitOutputsAgreeWithOnnxRuntime() throws Exception {
        Object[][] cases = {
            {"ij,jk->ik", new long[]{3, 4}, new long[]{4, 5}}, {"bij,bjk->bik", new long[]{2, 3, 4}, new long[]{2, 4, 5}},
            {"ij,jk", new long[]{3, 4}, new long[]{4, 5}}, {"i,i", new long[]{6}, new long[]{6}}, {"ij->ji", new long[]{3, 4}, null},
            {"ij->i", new long[]{3, 4}, null}, {"ii->i", new long[]{4, 4}, null}, {"...ii->...i", new long[]{2, 3, 3}, null},
            {"...ij,...jk->...ik", new long[]{2, 1, 3, 4}, new long[]{2, 5, 4, 2}}, {"i,j->ij", new long[]{3}, new long[]{4}}, {"ij->", new long[]{3, 4}, null}};
        for (Object[] c : cases) {
            long[] a = (long[]) c[1], b = (long[]) c[2];
            TinyOnnx m = new TinyOnnx().opset(12).input("a", java.util.Arrays.stream(a).boxed().toArray()).output("y");
            Map<String, TensorValue> in = feed("a", x(a));
            if (b != null) {
                m.input("b", java.util.Arrays.stream(b).boxed().toArray());
                in.put("b", x(b));
            }
            m.node("e", "Einsum", b == null ? List.of("a") : List.of("a", "b"), List.of("y"), "equation", c[0]);
            agree(m, in);
        }
        refused(new TinyOnnx().opset(12).input("a", 3L, 4L).input("b", 5L, 6L).output("y").node("e", "Einsum", List.of("a", "b"), List.of("y"), "equation", "ij,jk->ik"),
                "equation 'ij,jk->ik': 'j' has extents 4 and 5");
    }

    @Test
    void refusalsNameTheNodeAndTheReason() throws Exception {
        refused(new TinyOnnx().opset(17).input("x", 2L, 3L).input("s", 3L).output("y")
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y"), "stash_type", 10L), "stash_type 10 is not supported");
        refused(new TinyOnnx().opset(17).input("x", 2L, 3L).input("s", 2L).output("y")
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y")), "shapes [3] and [2] do not broadcast (inputs x[2, 3], s[2])");
        refused(new TinyOnnx().opset(16).input("x", 2L, 3L).input("s", 3L).output("y")
                .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y")), "LayerNormalization");
        refused(new TinyOnnx().opset(21).input("x", 1L, 4L, 2L).input("s", 2L).input("b", 2L).output("y")
                .node("gn", "GroupNormalization", List.of("x", "s", "b"), List.of("y"), "num_groups", 2L), "must be [4] (per channel from opset 21)");
        refused(new TinyOnnx().opset(13).input("x", 2L, 3L).output("y").node("lp", "LpNormalization", List.of("x"), List.of("y"), "p", 3L),
                "attribute 'p' = 3 is out of range [1, 2]");
        refused(new TinyOnnx().opset(11).input("x", 2L, 3L).ints("k", 4).output("v").output("i")
                .node("t", "TopK", List.of("x", "k"), List.of("v", "i")), "K = 4 must be in [0, 3]");
        refused(new TinyOnnx().opset(13).input("x", 2L, 3L).input(OnnxDTypes.INT64, "t", 2L).output("l")
                .node("l", "NegativeLogLikelihoodLoss", List.of("x", "t"), List.of("l"), "reduction", "avg"), "reduction 'avg' must be none, sum or mean");
        refused(new TinyOnnx().opset(13).input("x", 2L, 3L).input("t", 2L).output("l")
                .node("l", "NegativeLogLikelihoodLoss", List.of("x", "t"), List.of("l")), "not int64 or int32");
        refused(new TinyOnnx().opset(14).input("x", 2L, 3L).input(OnnxDTypes.INT64, "axis", 1L).output("y")
                .node("c", "CumSum", List.of("x", "axis"), List.of("y")), "axis (input #1 'axis') must be a constant known at import time");
    }

    @Test
    void aTargetOutsideTheClassesStopsTheRunNamingTheOp() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 3L).input(OnnxDTypes.INT64, "t", 2L).output("l")
                .node("nll", "NegativeLogLikelihoodLoss", List.of("x", "t"), List.of("l"));
        assertThatThrownBy(() -> run(m, feed("x", x(2, 3), "t", TensorValue.ofLongs(DType.I64, new long[]{2}, 0, 3))))
                .hasMessageContaining("target 3").hasMessageContaining("outside [0, 3)");
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
