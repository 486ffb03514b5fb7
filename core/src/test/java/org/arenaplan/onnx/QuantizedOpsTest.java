package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv through import, planning and the
 * simulator: hand-worked sums, rounding half to even and saturation, ONNX Runtime (exactly), refusals.
 */
class QuantizedOpsTest {
    @TempDir
    Path dir;

    private static TensorValue ints(DType t, long seed, long lo, long hi, long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        Random r = new Random(seed);
        long[] v = new long[(int) n];
        for (int i = 0; i < n; i++) v[i] = lo + (long) (r.nextDouble() * (hi - lo + 1));
        return TensorValue.ofLongs(t, shape, v);
    }

    private static TensorValue scalar(DType t, double v) {
        return TensorValue.ofDoubles(t, new long[0], v);
    }

    private static TinyOnnx dynamicQuantize(long... shape) {
        Object[] dims = java.util.Arrays.stream(shape).boxed().toArray();
        return new TinyOnnx().opset(11).input("x", dims).output(OnnxDTypes.UINT8, "y", dims).output("s").output(OnnxDTypes.UINT8, "z")
                .node("dq", "DynamicQuantizeLinear", List.of("x"), List.of("y", "s", "z"));
    }

    @Test
    void dynamicQuantizeLinearByHandAndAgainstOnnxRuntime() throws Exception {
        // range [min(0, -1), max(0, 1.55)] = [-1, 1.55]: scale 2.55 / 255 = 0.01, zero point rint(100) = 100;
        // y = rint(x / 0.01) + 100: -1 -> 0, 0.005 -> rint(0.5) = 0 (half to even) + 100, 0.015 -> 2 + 100, 1.55 -> 255
        TensorValue x = TensorValue.ofFloats(new long[] {4}, new float[] {-1, 0.005f, 0.015f, 1.55f});
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, dynamicQuantize(4), Map.of("x", x));
        float scale = (1.55f - -1f) / 255f;
        assertThat(out.get("s").floats()).containsExactly(scale);
        assertThat(out.get("z").doubles()).containsExactly(Math.rint(0f - -1f / scale));
        long[] want = new long[4];
        for (int i = 0; i < 4; i++) want[i] = Math.max(0, Math.min(255, (long) Math.rint(x.floats()[i] / scale) + (long) Math.rint(0f - -1f / scale)));
        assertThat(out.get("y").dtype()).isEqualTo(DType.U8);
        assertThat(out.get("y").doubles()).containsExactly(java.util.Arrays.stream(want).asDoubleStream().toArray());
        // every value positive: the range still starts at 0, zero point 0
        out = OnnxOpRuns.run(dir, dynamicQuantize(2), Map.of("x", TensorValue.ofFloats(new long[] {2}, new float[] {2.55f, 5.1f})));
        assertThat(out.get("s").floats()).containsExactly(5.1f / 255f);
        assertThat(out.get("z").doubles()).containsExactly(0);
        // all zeros: scale 1/255 as the ONNX reference (not 0, which would divide by zero)
        out = OnnxOpRuns.run(dir, dynamicQuantize(3), Map.of("x", TensorValue.ofFloats(new long[] {3}, new float[3])));
        assertThat(out.get("s").floats()).containsExactly(1f / 255f);
        assertThat(out.get("y").doubles()).containsExactly(0, 0, 0);
        // a larger tensor (more values than the CUDA kernel's 256 slots), against ONNX Runtime: uint8 outputs exactly
        float[] v = new float[3 * 7 * 29];
        Random r = new Random(5);
        for (int i = 0; i < v.length; i++) v[i] = (float) (r.nextGaussian() * 3 + 1);
        OnnxOpRuns.agree(dir, dynamicQuantize(3, 7, 29), Map.of("x", TensorValue.ofFloats(new long[] {3, 7, 29}, v)), 0, 0);
    }

    @Test
    void matMulIntegerByHand() throws Exception {
        // A = [[1, 2], [3, 4]] - [1, 2] per row, B = [[5, 6], [7, 8]] - 5: [[0, 1], [1, 2]] x [[0, 1], [2, 3]] = [[2, 3], [4, 7]]
        TinyOnnx m = new TinyOnnx().opset(10).input(OnnxDTypes.UINT8, "a", 2L, 2L).input(OnnxDTypes.UINT8, "b", 2L, 2L)
                .input(OnnxDTypes.UINT8, "az", 2L).input(OnnxDTypes.UINT8, "bz").output(OnnxDTypes.INT32, "y", 2L, 2L)
                .node("mm", "MatMulInteger", List.of("a", "b", "az", "bz"), List.of("y"));
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, m, Map.of("a", TensorValue.ofLongs(DType.U8, new long[] {2, 2}, 1, 2, 3, 4),
                "b", TensorValue.ofLongs(DType.U8, new long[] {2, 2}, 5, 6, 7, 8), "az", TensorValue.ofLongs(DType.U8, new long[] {2}, 1, 2),
                "bz", TensorValue.ofLongs(DType.U8, new long[0], 5)));
        assertThat(out.get("y").dtype()).isEqualTo(DType.I32);
        assertThat(out.get("y").doubles()).containsExactly(2, 3, 4, 7);
    }

    @Test
    void qLinearMatMulRoundsHalfToEvenAndSaturates() throws Exception {
        // sums [1, 3, 5, 400] (a = [1, 3, 5, 400] as a column of one, b = [[1]]) times 0.5 / 1: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, 200 + 100 -> 255
        TinyOnnx m = new TinyOnnx().opset(10).input(OnnxDTypes.INT32, "dummy").input(OnnxDTypes.UINT8, "a", 4L, 1L).input("as").input(OnnxDTypes.UINT8, "az")
                .input(OnnxDTypes.UINT8, "b", 1L, 1L).input("bs").input(OnnxDTypes.UINT8, "bz").input("ys").input(OnnxDTypes.UINT8, "yz")
                .output(OnnxDTypes.UINT8, "y", 4L, 1L)
                .node("q", "QLinearMatMul", List.of("a", "as", "az", "b", "bs", "bz", "ys", "yz"), List.of("y"));
        Map<String, TensorValue> in = new LinkedHashMap<>();
        in.put("dummy", TensorValue.ofLongs(DType.I32, new long[0], 0));
        in.put("a", TensorValue.ofLongs(DType.U8, new long[] {4, 1}, 1, 3, 5, 200));
        in.put("as", scalar(DType.F32, 0.5));
        in.put("az", TensorValue.ofLongs(DType.U8, new long[0], 0));
        in.put("b", TensorValue.ofLongs(DType.U8, new long[] {1, 1}, 2));
        in.put("bs", scalar(DType.F32, 0.5));
        in.put("bz", TensorValue.ofLongs(DType.U8, new long[0], 1));
        in.put("ys", scalar(DType.F32, 0.5));
        in.put("yz", TensorValue.ofLongs(DType.U8, new long[0], 0));
        // (a - 0) (2 - 1) * 0.5 * 0.5 / 0.5 = a / 2: 0.5, 1.5, 2.5, 100
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").doubles()).containsExactly(0, 2, 2, 100);
        in.put("yz", TensorValue.ofLongs(DType.U8, new long[0], 200));
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").doubles()).containsExactly(200, 202, 202, 255);
    }

    @Test
    void agreeWithOnnxRuntime() throws Exception {
        // MatMulInteger uint8 x int8, a per-column b zero point (ONNX Runtime takes no per-row a zero point), a batched A against a 2-D B
        TinyOnnx mi = new TinyOnnx().opset(10).input(OnnxDTypes.UINT8, "a", 2L, 3L, 4L).input(OnnxDTypes.INT8, "b", 4L, 5L)
                .input(OnnxDTypes.UINT8, "az").input(OnnxDTypes.INT8, "bz", 5L).outputOfType(OnnxDTypes.INT32, "y")
                .node("mm", "MatMulInteger", List.of("a", "b", "az", "bz"), List.of("y"));
        OnnxOpRuns.agree(dir, mi, Map.of("a", ints(DType.U8, 1, 0, 255, 2, 3, 4), "b", ints(DType.I8, 2, -128, 127, 4, 5),
                "az", TensorValue.ofLongs(DType.U8, new long[0], 131), "bz", ints(DType.I8, 3, -128, 127, 5)), 0, 0);
        // ConvInteger uint8 with padding and strides, no zero point for w
        TinyOnnx ci = new TinyOnnx().opset(10).input(OnnxDTypes.UINT8, "x", 1L, 2L, 5L, 5L).input(OnnxDTypes.UINT8, "w", 3L, 2L, 3L, 3L)
                .input(OnnxDTypes.UINT8, "xz").outputOfType(OnnxDTypes.INT32, "y")
                .node("c", "ConvInteger", List.of("x", "w", "xz"), List.of("y"), "pads", new long[] {1, 1, 1, 1}, "strides", new long[] {2, 1});
        OnnxOpRuns.agree(dir, ci, Map.of("x", ints(DType.U8, 4, 0, 255, 1, 2, 5, 5), "w", ints(DType.U8, 5, 0, 255, 3, 2, 3, 3),
                "xz", TensorValue.ofLongs(DType.U8, new long[0], 17)), 0, 0);
        // QLinearMatMul int8, per-tensor scales, 3-D
        TinyOnnx qm = new TinyOnnx().opset(10).input(OnnxDTypes.INT8, "a", 2L, 3L, 4L).input("as").input(OnnxDTypes.INT8, "az")
                .input(OnnxDTypes.INT8, "b", 2L, 4L, 2L).input("bs").input(OnnxDTypes.INT8, "bz").input("ys").input(OnnxDTypes.INT8, "yz")
                .outputOfType(OnnxDTypes.INT8, "y")
                .node("q", "QLinearMatMul", List.of("a", "as", "az", "b", "bs", "bz", "ys", "yz"), List.of("y"));
        Map<String, TensorValue> in = new LinkedHashMap<>();
        in.put("a", ints(DType.I8, 6, -128, 127, 2, 3, 4));
        in.put("as", scalar(DType.F32, 0.0213));
        in.put("az", TensorValue.ofLongs(DType.I8, new long[0], 3));
        in.put("b", ints(DType.I8, 7, -128, 127, 2, 4, 2));
        in.put("bs", scalar(DType.F32, 0.0117));
        in.put("bz", TensorValue.ofLongs(DType.I8, new long[0], -2));
        in.put("ys", scalar(DType.F32, 0.05));
        in.put("yz", TensorValue.ofLongs(DType.I8, new long[0], 5));
        OnnxOpRuns.agree(dir, qm, in, 0, 0);
        // QLinearConv uint8 with per-channel w scales and zero points and a bias
        TinyOnnx qc = new TinyOnnx().opset(10).input(OnnxDTypes.UINT8, "x", 1L, 2L, 4L, 4L).input("xs").input(OnnxDTypes.UINT8, "xz")
                .input(OnnxDTypes.UINT8, "w", 3L, 2L, 3L, 3L).input("ws", 3L).input(OnnxDTypes.UINT8, "wz", 3L).input("ys").input(OnnxDTypes.UINT8, "yz")
                .input(OnnxDTypes.INT32, "b", 3L).outputOfType(OnnxDTypes.UINT8, "y")
                .node("c", "QLinearConv", List.of("x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"), List.of("y"), "pads", new long[] {1, 1, 1, 1});
        Map<String, TensorValue> cin = new LinkedHashMap<>();
        cin.put("x", ints(DType.U8, 8, 0, 255, 1, 2, 4, 4));
        cin.put("xs", scalar(DType.F32, 0.02));
        cin.put("xz", TensorValue.ofLongs(DType.U8, new long[0], 120));
        cin.put("w", ints(DType.U8, 9, 0, 255, 3, 2, 3, 3));
        cin.put("ws", TensorValue.ofDoubles(DType.F32, new long[] {3}, 0.01, 0.003, 0.02));
        cin.put("wz", TensorValue.ofLongs(DType.U8, new long[] {3}, 128, 128, 128));   // ONNX Runtime takes one value per channel only when all are equal
        cin.put("ys", scalar(DType.F32, 0.9));
        cin.put("yz", TensorValue.ofLongs(DType.U8, new long[0], 128));
        cin.put("b", ints(DType.I32, 10, -3000, 3000, 3));
        OnnxOpRuns.agree(dir, qc, cin, 0, 0);
    }

    @Test
    void refusesFloatOperandsAndHalfScalesBeforeOpset21() throws Exception {
        TinyOnnx f = new TinyOnnx().opset(10).input("a", 2L, 2L).input("b", 2L, 2L).outputOfType(OnnxDTypes.INT32, "y")
                .node("mm", "MatMulInteger", List.of("a", "b"), List.of("y"));
        OnnxOpRuns.refused(dir, f, "MatMulInteger takes uint8 or int8");
        TinyOnnx h = new TinyOnnx().opset(20).input(OnnxDTypes.UINT8, "a", 2L, 2L).input(OnnxDTypes.FLOAT16, "as").input(OnnxDTypes.UINT8, "az")
                .input(OnnxDTypes.UINT8, "b", 2L, 2L).input(OnnxDTypes.FLOAT16, "bs").input(OnnxDTypes.UINT8, "bz").input(OnnxDTypes.FLOAT16, "ys")
                .input(OnnxDTypes.UINT8, "yz").outputOfType(OnnxDTypes.UINT8, "y")
                .node("q", "QLinearMatMul", List.of("a", "as", "az", "b", "bs", "bz", "ys", "yz"), List.of("y"));
        OnnxOpRuns.refused(dir, h, "f16 and bf16 from opset 21");
    }
}
