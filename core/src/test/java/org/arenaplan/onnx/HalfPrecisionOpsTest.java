package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.exec.AllClose;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compute ops in the element types beyond f32 that their registry entries declare
 * ({@code OpSpec.computes}): MatMul, Gemm, Softmax, LogSoftmax, Conv, ConvTranspose, the pools,
 * Resize and LayerNormalization in f16 (as {@code model.half()} exports them), MatMul, Gemm and Softmax in f64, MaxPool in
 * uint8 and int8, each against ONNX Runtime 1.22 on the CPU (which computes a float16 node that
 * has no f16 kernel as Cast to f32, the f32 kernel, Cast back: one rounding per op, as the
 * simulator does). One op: rtol 1e-3 (an f16 ulp is at most 2^-10 of the value, so a sum
 * summed in another order may round to the neighbouring f16 at worst), f64 1e-12, the integer
 * pools exactly. A small f16 CNN and an f16 attention block end to end. Attention-23 in f16
 * (ONNX Runtime 1.22 refuses opset 23) against onnx's reference formula in double on the
 * widened inputs, rounded once to f16.
 */
class HalfPrecisionOpsTest {
    private static final int F16 = 10, F64 = 11, U8 = 2, I8 = 3;

    @TempDir
    Path dir;

    /** Gaussian values of {@code shape} in {@code t} (rounded to it once). */
    static TensorValue random(DType t, long seed, long... shape) {
        int n = 1;
        for (long d : shape) n *= (int) d;
        Random r = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = t == DType.U8 ? r.nextInt(256) : t == DType.I8 ? r.nextInt(256) - 128 : r.nextGaussian();
        return TensorValue.ofDoubles(t, shape, v);
    }

    private void agree(TinyOnnx m, Map<String, TensorValue> in, double rtol, double atol) throws Exception {
        OnnxOpRuns.agree(dir, m, in, rtol, atol);
    }

    @Test
    void matMulAndGemmInF16AndF64AgreeWithOnnxRuntime() throws Exception {
        for (int code : new int[]{F16, F64}) {
            DType t = DType.ofOnnx(code);
            double rtol = t == DType.F16 ? 1e-3 : 1e-12, atol = t == DType.F16 ? 1e-3 : 1e-12;
            // batched, B broadcast over the batch, K = 37 (a sum long enough for f16 rounding to matter)
            agree(new TinyOnnx().opset(13).input(code, "a", 2L, 3L, 37L).input(code, "b", 37L, 5L).output(code, "y", 2L, 3L, 5L)
                    .node("mm", "MatMul", List.of("a", "b"), List.of("y")), Map.of("a", random(t, 1, 2, 3, 37), "b", random(t, 2, 37, 5)), rtol, atol);
            // Gemm with transB, alpha, beta and a row C
            agree(new TinyOnnx().opset(13).input(code, "a", 4L, 9L).input(code, "b", 6L, 9L).input(code, "c", 6L).output(code, "y", 4L, 6L)
                    .node("g", "Gemm", List.of("a", "b", "c"), List.of("y"), "transB", 1L, "alpha", 0.5, "beta", 2.0),
                    Map.of("a", random(t, 3, 4, 9), "b", random(t, 4, 6, 9), "c", random(t, 5, 6)), rtol, atol);
        }
    }

    @Test
    void softmaxAndLogSoftmaxInF16AndF64AgreeWithOnnxRuntime() throws Exception {
        for (int code : new int[]{F16, F64}) {
            DType t = DType.ofOnnx(code);
            double tol = t == DType.F16 ? 1e-3 : 1e-12;
            for (String op : List.of("Softmax", "LogSoftmax"))
                for (long axis : new long[]{-1, 1})
                    agree(new TinyOnnx().opset(13).input(code, "x", 2L, 7L, 5L).output(code, "y", 2L, 7L, 5L)
                            .node("s", op, List.of("x"), List.of("y"), "axis", axis), Map.of("x", random(t, 6, 2, 7, 5)), tol, tol);
        }
    }

    @Test
    void convConvTransposeAndPoolsInF16AgreeWithOnnxRuntime() throws Exception {
        DType h = DType.F16;
        // 2-D Conv (the conv2d kernel): bias, pads, stride, 2 groups
        agree(new TinyOnnx().opset(13).input(F16, "x", 1L, 4L, 9L, 8L).input(F16, "w", 6L, 2L, 3L, 3L).input(F16, "b", 6L).output(F16, "y", 1L, 6L, 5L, 4L)
                        .node("c", "Conv", List.of("x", "w", "b"), List.of("y"), "pads", new long[]{1, 1, 1, 1}, "strides", new long[]{2, 2}, "group", 2L),
                Map.of("x", random(h, 7, 1, 4, 9, 8), "w", random(h, 8, 6, 2, 3, 3), "b", random(h, 9, 6)), 1e-3, 1e-3);
        // 1-D Conv (conv2d with height 1) and 3-D Conv (conv_nd), dilated
        agree(new TinyOnnx().opset(13).input(F16, "x", 2L, 3L, 11L).input(F16, "w", 4L, 3L, 3L).output(F16, "y", 2L, 4L, 7L)
                        .node("c", "Conv", List.of("x", "w"), List.of("y"), "dilations", new long[]{2}),
                Map.of("x", random(h, 10, 2, 3, 11), "w", random(h, 11, 4, 3, 3)), 1e-3, 1e-3);
        agree(new TinyOnnx().opset(13).input(F16, "x", 1L, 2L, 4L, 5L, 5L).input(F16, "w", 3L, 2L, 2L, 3L, 3L).output(F16, "y", 1L, 3L, 3L, 3L, 3L)
                        .node("c", "Conv", List.of("x", "w"), List.of("y")),
                Map.of("x", random(h, 12, 1, 2, 4, 5, 5), "w", random(h, 13, 3, 2, 2, 3, 3)), 1e-3, 1e-3);
        // ConvTranspose (conv_nd, transposed) with stride and bias
        agree(new TinyOnnx().opset(13).input(F16, "x", 1L, 3L, 4L, 4L).input(F16, "w", 3L, 2L, 3L, 3L).input(F16, "b", 2L).output(F16, "y", 1L, 2L, 9L, 9L)
                        .node("c", "ConvTranspose", List.of("x", "w", "b"), List.of("y"), "strides", new long[]{2, 2}),
                Map.of("x", random(h, 14, 1, 3, 4, 4), "w", random(h, 15, 3, 2, 3, 3), "b", random(h, 16, 2)), 1e-3, 1e-3);
        // pools: MaxPool with Indices, AveragePool with padding, GlobalAveragePool, GlobalMaxPool
        TensorValue x = random(h, 17, 2, 3, 6, 7);
        agree(new TinyOnnx().opset(13).input(F16, "x", 2L, 3L, 6L, 7L).output(F16, "y", 2L, 3L, 3L, 3L).output(OnnxDTypes.INT64, "i", 2L, 3L, 3L, 3L)
                .node("p", "MaxPool", List.of("x"), List.of("y", "i"), "kernel_shape", new long[]{2, 3}, "strides", new long[]{2, 2}), Map.of("x", x), 0, 0);
        agree(new TinyOnnx().opset(13).input(F16, "x", 2L, 3L, 6L, 7L).output(F16, "y", 2L, 3L, 6L, 7L)
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 3}, "pads", new long[]{1, 1, 1, 1}), Map.of("x", x), 1e-3, 1e-3);
        agree(new TinyOnnx().opset(13).input(F16, "x", 2L, 3L, 6L, 7L).output(F16, "a", 2L, 3L, 1L, 1L).output(F16, "m", 2L, 3L, 1L, 1L)
                .node("ga", "GlobalAveragePool", List.of("x"), List.of("a")).node("gm", "GlobalMaxPool", List.of("x"), List.of("m")), Map.of("x", x), 1e-3, 1e-3);
    }

    @Test
    void layerNormalizationInF16AgreesWithOnnxRuntime() throws Exception {
        DType h = DType.F16;
        agree(new TinyOnnx().opset(17).input(F16, "x", 2L, 3L, 16L).input(F16, "s", 16L).input(F16, "b", 16L).output(F16, "y", 2L, 3L, 16L)
                        .output("mean", 2L, 3L, 1L).output("inv", 2L, 3L, 1L)
                        .node("ln", "LayerNormalization", List.of("x", "s", "b"), List.of("y", "mean", "inv"), "epsilon", 1e-5),
                Map.of("x", random(h, 50, 2, 3, 16), "s", random(h, 51, 16), "b", random(h, 52, 16)), 1e-3, 1e-3);
        agree(new TinyOnnx().opset(17).input(F16, "x", 2L, 3L, 4L).input(F16, "s", 3L, 4L).output(F16, "y", 2L, 3L, 4L)
                        .node("ln", "LayerNormalization", List.of("x", "s"), List.of("y"), "axis", 1L),
                Map.of("x", random(h, 53, 2, 3, 4), "s", random(h, 54, 3, 4)), 1e-3, 1e-3);
    }

    /**
     * Resize in f16 (F.interpolate in a model.half() export: nearest, bilinear, bicubic), scales
     * 2 x 1.5, and a shrinking antialiased linear; was refused ("Resize computes f32 only").
     */
    @Test
    void resizeInF16AgreesWithOnnxRuntime() throws Exception {
        TensorValue x = random(DType.F16, 70, 1, 2, 4, 5);
        // align_corners at scale 1.5 left out: ONNX Runtime maps it through the integer output extent, onnx's reference (and arenaplan) through scale x extent
        for (String[] m : new String[][]{{"nearest", "asymmetric"}, {"linear", "half_pixel"}, {"cubic", "half_pixel"}}) {
            agree(new TinyOnnx().opset(13).input(F16, "x", 1L, 2L, 4L, 5L).raw("scales", new float[]{1, 1, 2, 1.5f}).output(F16, "y", 1L, 2L, 8L, 7L)
                    .node("r", "Resize", List.of("x", "", "scales"), List.of("y"), "mode", m[0], "coordinate_transformation_mode", m[1], "nearest_mode", "floor"),
                    Map.of("x", x), 1e-3, 1e-3);
        }
        agree(new TinyOnnx().opset(18).input(F16, "x", 1L, 2L, 4L, 5L).raw("scales", new float[]{1, 1, 0.5f, 0.6f}).output(F16, "y", 1L, 2L, 2L, 3L)
                .node("r", "Resize", List.of("x", "", "scales"), List.of("y"), "mode", "linear", "antialias", 1L), Map.of("x", x), 1e-3, 1e-3);
    }

    @Test
    void maxPoolInUint8AndInt8EqualsOnnxRuntimeExactly() throws Exception {
        for (int code : new int[]{U8, I8}) {
            DType t = DType.ofOnnx(code);
            // padding: a window partly outside the image takes the maximum of the positions inside it
            agree(new TinyOnnx().opset(12).input(code, "x", 1L, 2L, 5L, 5L).output(code, "y", 1L, 2L, 3L, 3L)
                    .node("p", "MaxPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 3}, "strides", new long[]{2, 2},
                            "pads", new long[]{1, 1, 1, 1}), Map.of("x", random(t, 18, 1, 2, 5, 5)), 0, 0);
        }
    }

    /**
     * A model.half() CNN: Conv, Relu, MaxPool, Conv (2 groups), GlobalAveragePool, Flatten, Gemm,
     * Softmax, all f16. ONNX Runtime may keep f32 between two ops it runs through casts (its
     * InsertCastTransformer drops a Cast pair between them), the simulator rounds every op's
     * output to f16: a few f16 ulps apart at the end.
     */
    @Test
    void anF16ConvNetAgreesWithOnnxRuntime() throws Exception {
        DType h = DType.F16;
        TinyOnnx m = new TinyOnnx().opset(13).input(F16, "x", 2L, 3L, 12L, 12L).input(F16, "w1", 8L, 3L, 3L, 3L).input(F16, "b1", 8L)
                .input(F16, "w2", 6L, 4L, 3L, 3L).input(F16, "wf", 6L, 5L).input(F16, "bf", 5L).output(F16, "p", 2L, 5L)
                .node("c1", "Conv", List.of("x", "w1", "b1"), List.of("a1"), "pads", new long[]{1, 1, 1, 1})
                .node("r1", "Relu", List.of("a1"), List.of("r1"))
                .node("mp", "MaxPool", List.of("r1"), List.of("m1"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2})
                .node("c2", "Conv", List.of("m1", "w2"), List.of("a2"), "group", 2L)
                .node("gap", "GlobalAveragePool", List.of("a2"), List.of("g"))
                .node("fl", "Flatten", List.of("g"), List.of("f"))
                .node("fc", "Gemm", List.of("f", "wf", "bf"), List.of("z"))
                .node("sm", "Softmax", List.of("z"), List.of("p"));
        agree(m, Map.of("x", random(h, 20, 2, 3, 12, 12), "w1", random(h, 21, 8, 3, 3, 3), "b1", random(h, 22, 8),
                "w2", random(h, 23, 6, 4, 3, 3), "wf", random(h, 24, 6, 5), "bf", random(h, 25, 5)), 4e-3, 1e-3);
    }

    /**
     * An f16 attention block as a half-precision export writes it: LayerNormalization, Q, K, V projections (MatMul),
     * heads split (Reshape, Transpose), scores (MatMul with K transposed, Mul by 1/sqrt(d)),
     * Softmax, the weighted sum (MatMul), heads merged, the output projection and the residual Add.
     */
    @Test
    void anF16AttentionBlockAgreesWithOnnxRuntime() throws Exception {
        DType h = DType.F16;
        long b = 2, s = 5, e = 8, heads = 2, d = e / heads;
        TinyOnnx m = new TinyOnnx().opset(17).input(F16, "x", b, s, e).input(F16, "wq", e, e).input(F16, "wk", e, e).input(F16, "wv", e, e)
                .input(F16, "wo", e, e).input(F16, "g", e).input(F16, "beta", e).output(F16, "y", b, s, e)
                .ints("split", b, s, heads, d).ints("merge", b, s, e)
                .initializer(half("scale", (float) (1 / Math.sqrt(d))))
                .node("ln", "LayerNormalization", List.of("x", "g", "beta"), List.of("n"))
                .node("q", "MatMul", List.of("n", "wq"), List.of("q")).node("k", "MatMul", List.of("n", "wk"), List.of("k"))
                .node("v", "MatMul", List.of("n", "wv"), List.of("v"))
                .node("qr", "Reshape", List.of("q", "split"), List.of("qr")).node("kr", "Reshape", List.of("k", "split"), List.of("kr"))
                .node("vr", "Reshape", List.of("v", "split"), List.of("vr"))
                .node("qt", "Transpose", List.of("qr"), List.of("qt"), "perm", new long[]{0, 2, 1, 3})
                .node("kt", "Transpose", List.of("kr"), List.of("kt"), "perm", new long[]{0, 2, 3, 1})
                .node("vt", "Transpose", List.of("vr"), List.of("vt"), "perm", new long[]{0, 2, 1, 3})
                .node("sc", "MatMul", List.of("qt", "kt"), List.of("sc")).node("ss", "Mul", List.of("sc", "scale"), List.of("ss"))
                .node("p", "Softmax", List.of("ss"), List.of("p"), "axis", -1L)
                .node("o", "MatMul", List.of("p", "vt"), List.of("o"))
                .node("ot", "Transpose", List.of("o"), List.of("ot"), "perm", new long[]{0, 2, 1, 3})
                .node("om", "Reshape", List.of("ot", "merge"), List.of("om"))
                .node("proj", "MatMul", List.of("om", "wo"), List.of("pr"))
                .node("res", "Add", List.of("pr", "x"), List.of("y"));
        agree(m, Map.of("x", random(h, 30, b, s, e), "wq", random(h, 31, e, e), "wk", random(h, 32, e, e), "wv", random(h, 33, e, e),
                // atol 8e-3: two f16 ulps at 4..8 (2^-8 each), the size of the projections the residual Add may cancel
                "wo", random(h, 34, e, e), "g", random(h, 35, e), "beta", random(h, 36, e)), 4e-3, 8e-3);
    }

    /** A scalar f16 initializer. */
    private static OnnxMl.TensorProto half(String name, float v) {
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(F16).addInt32Data(DType.floatToHalf(v) & 0xFFFF).build();
    }

    @Test
    void attentionInF16IsOnnxsFormulaOnWidenedInputsRoundedOnce() throws Exception {
        // ONNX Runtime 1.22 refuses opset 23: the oracle is TransformerOpsTest's double reference on the f16 inputs
        int b = 2, hq = 4, hkv = 2, sq = 3, skv = 5, d = 8, dv = 6;
        TensorValue q = random(DType.F16, 40, b, hq, sq, d), k = random(DType.F16, 41, b, hkv, skv, d), v = random(DType.F16, 42, b, hkv, skv, dv);
        TensorValue mask = random(DType.F16, 43, sq, skv);
        TinyOnnx m = new TinyOnnx().opset(23).input(F16, "q", (long) b, (long) hq, (long) sq, (long) d).input(F16, "k", (long) b, (long) hkv, (long) skv, (long) d)
                .input(F16, "v", (long) b, (long) hkv, (long) skv, (long) dv).input(F16, "mask", (long) sq, (long) skv)
                .output(F16, "y", (long) b, (long) hq, (long) sq, (long) dv).output(F16, "qk", (long) b, (long) hq, (long) sq, (long) skv)
                .node("attn", "Attention", List.of("q", "k", "v", "mask"), List.of("y", "", "", "qk"), "is_causal", 1L, "qk_matmul_output_mode", 3L);
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, m, Map.of("q", q, "k", k, "v", v, "mask", mask));
        double[][] want = TransformerOpsTest.reference(q.floats(), k.floats(), v.floats(), mask.floats(), new long[]{sq, skv}, b, hq, hkv, sq, skv, d, dv,
                true, 0, 1 / Math.sqrt(d), 0, 3);
        assertThat(out.get("y").dtype()).isEqualTo(DType.F16);
        for (int j = 0; j < 2; j++) {
            TensorValue got = out.get(j == 0 ? "y" : "qk");
            AllClose c = AllClose.compare(got.doubles(), want[j], 1e-3, 1e-3);
            assertThat(c.ok()).as((j == 0 ? "y" : "qk") + ": " + c.describe(got.shape())).isTrue();
        }
    }

    @Test
    void aTypeAKindDoesNotDeclareIsRefusedWithTheDeclaredList() throws Exception {
        Path file = dir.resolve("bf16.onnx");
        java.nio.file.Files.write(file, new TinyOnnx().opset(13).input(16, "x", 2L, 3L).output(16, "y", 2L, 3L)
                .node("s", "Softmax", List.of("x"), List.of("y")).bytes());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("is bf16; Softmax computes f32, f16 and f64");
    }
}
