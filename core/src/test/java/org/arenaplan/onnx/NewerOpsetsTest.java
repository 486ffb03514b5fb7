package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.ir.DType;
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
 * Opsets 23..28 (NodeLowering's class comment lists the audit): models at those opsets import,
 * and the attributes those versions add are honoured where they change nothing here and refused
 * by name where they would (Cast-24 round_mode, DequantizeLinear-23 output_dtype,
 * QuantizeLinear-23 precision and mixed x/scale types, Range-27 stash_type).
 */
class NewerOpsetsTest {
    @TempDir
    Path dir;

    private static TinyOnnx cast(long opset, Object... extra) {
        Object[] attrs = new Object[2 + extra.length];
        attrs[0] = "to";
        attrs[1] = (long) OnnxDTypes.INT32;
        System.arraycopy(extra, 0, attrs, 2, extra.length);
        return new TinyOnnx().opset(opset).input("x", 3L).output(OnnxDTypes.INT32, "y", 3L).node("c", "Cast", List.of("x"), List.of("y"), attrs);
    }

    @Test
    void modelsAtOpsets23To28ImportAndRunAnd29IsRefused() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[] {3}, 1.5f, -2.25f, 7f);
        for (long opset = 23; opset <= 28; opset++) {
            Map<String, TensorValue> out = OnnxOpRuns.run(dir, cast(opset), Map.of("x", x));
            assertThat(out.get("y").dtype()).as("opset %d", opset).isEqualTo(DType.I32);
            assertThat(out.get("y").doubles()).as("opset %d", opset).containsExactly(1, -2, 7);
        }
        Path p = dir.resolve("v29.onnx");
        Files.write(p, cast(29).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": opset 29 of the default ONNX domain is outside the supported range 1..28");
    }

    @Test
    void castRoundModeIsTakenFromOpset24WithItsThreeValuesOnly() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[] {3}, 1.5f, -2.25f, 7f);
        // round_mode applies to float8e8m0 targets only: on an int32 target each value leaves the result as it is
        for (String mode : new String[] {"up", "down", "nearest"})
            assertThat(OnnxOpRuns.run(dir, cast(24, "round_mode", mode), Map.of("x", x)).get("y").doubles()).as(mode).containsExactly(1, -2, 7);
        OnnxOpRuns.refused(dir, cast(24, "round_mode", "sideways"), "node 'c' (Cast, #0, opset 24): attribute 'round_mode' = 'sideways' is not up, down or nearest");
        OnnxOpRuns.refused(dir, cast(23, "round_mode", "up"), "node 'c' (Cast, #0, opset 23): attribute 'round_mode' needs opset 24");
        TinyOnnx like = new TinyOnnx().opset(25).input("x", 3L).input(OnnxDTypes.INT32, "t", 1L).output(OnnxDTypes.INT32, "y", 3L)
                .node("cl", "CastLike", List.of("x", "t"), List.of("y"), "round_mode", "down");
        assertThat(OnnxOpRuns.run(dir, like, Map.of("x", x, "t", TensorValue.ofLongs(DType.I32, new long[] {1}, 0))).get("y").doubles()).containsExactly(1, -2, 7);
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(25).input("x", 3L).input(OnnxDTypes.INT32, "t", 1L).output(OnnxDTypes.INT32, "y", 3L)
                .node("cl", "CastLike", List.of("x", "t"), List.of("y"), "round_mode", "UP"), "attribute 'round_mode' = 'UP' is not up, down or nearest");
    }

    private static TinyOnnx dequantize(long opset, Object... attrs) {
        return new TinyOnnx().opset(opset).input(OnnxDTypes.UINT8, "x", 3L).output("y", 3L)
                .initializer(OnnxMl.TensorProto.newBuilder().setName("s").setDataType(OnnxDTypes.FLOAT).addFloatData(0.5f).build())
                .node("dq", "DequantizeLinear", List.of("x", "s"), List.of("y"), attrs);
    }

    @Test
    void dequantizeOutputDtypeMustBeTheScalesTypeFromOpset23() throws Exception {
        TensorValue x = TensorValue.ofLongs(DType.U8, new long[] {3}, 0, 3, 255);
        assertThat(OnnxOpRuns.run(dir, dequantize(23, "output_dtype", (long) OnnxDTypes.FLOAT), Map.of("x", x)).get("y").floats()).containsExactly(0f, 1.5f, 127.5f);
        assertThat(OnnxOpRuns.run(dir, dequantize(25, "output_dtype", 0L), Map.of("x", x)).get("y").floats()).containsExactly(0f, 1.5f, 127.5f);
        OnnxOpRuns.refused(dir, dequantize(23, "output_dtype", (long) OnnxDTypes.FLOAT16),
                "node 'dq' (DequantizeLinear, #0, opset 23): attribute 'output_dtype' = 10 (f16) differs from the scale's type f32");
        OnnxOpRuns.refused(dir, dequantize(22, "output_dtype", (long) OnnxDTypes.FLOAT), "attribute 'output_dtype' of DequantizeLinear needs opset 23");
    }

    @Test
    void dequantizeTakesXAndItsZeroPointOfOneType() throws Exception {
        TinyOnnx mixed = new TinyOnnx().opset(21).input(OnnxDTypes.INT8, "x", 3L).output("y", 3L)
                .initializer(OnnxMl.TensorProto.newBuilder().setName("s").setDataType(OnnxDTypes.FLOAT).addFloatData(0.5f).build())
                .initializer(OnnxMl.TensorProto.newBuilder().setName("z").setDataType(OnnxDTypes.UINT8).addInt32Data(1).build())
                .node("dq", "DequantizeLinear", List.of("x", "s", "z"), List.of("y"));
        OnnxOpRuns.refused(dir, mixed, "node 'dq' (DequantizeLinear, #0, opset 21): zero point z[] is u8 but x x[3] is i8; DequantizeLinear takes x and its zero point of one type");
        TinyOnnx same = new TinyOnnx().opset(21).input(OnnxDTypes.INT8, "x", 3L).output("y", 3L)
                .initializer(OnnxMl.TensorProto.newBuilder().setName("s").setDataType(OnnxDTypes.FLOAT).addFloatData(0.5f).build())
                .initializer(OnnxMl.TensorProto.newBuilder().setName("z").setDataType(OnnxDTypes.INT8).addInt32Data(1).build())
                .node("dq", "DequantizeLinear", List.of("x", "s", "z"), List.of("y"));
        assertThat(OnnxOpRuns.run(dir, same, Map.of("x", TensorValue.ofLongs(DType.I8, new long[] {3}, -3, 1, 5))).get("y").floats()).containsExactly(-2f, 0f, 2f);
    }

    private static TinyOnnx quantize(long opset, int xType, Object... attrs) {
        return new TinyOnnx().opset(opset).input(xType, "x", 3L).output(OnnxDTypes.UINT8, "y", 3L)
                .initializer(OnnxMl.TensorProto.newBuilder().setName("s").setDataType(OnnxDTypes.FLOAT).addFloatData(0.5f).build())
                .node("q", "QuantizeLinear", List.of("x", "s"), List.of("y"), attrs);
    }

    @Test
    void quantizePrecisionAndTheScalesTypeFromOpset23() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[] {3}, 0f, 1.5f, 200f);
        assertThat(OnnxOpRuns.run(dir, quantize(23, OnnxDTypes.FLOAT, "precision", (long) OnnxDTypes.FLOAT), Map.of("x", x)).get("y").doubles()).containsExactly(0, 3, 255);
        assertThat(OnnxOpRuns.run(dir, quantize(28, OnnxDTypes.FLOAT), Map.of("x", x)).get("y").doubles()).containsExactly(0, 3, 255);
        OnnxOpRuns.refused(dir, quantize(23, OnnxDTypes.FLOAT, "precision", (long) OnnxDTypes.DOUBLE),
                "node 'q' (QuantizeLinear, #0, opset 23): attribute 'precision' = 11 (f64) differs from the scale's type f32");
        OnnxOpRuns.refused(dir, quantize(22, OnnxDTypes.FLOAT, "precision", (long) OnnxDTypes.FLOAT), "attribute 'precision' needs opset 23");
        // x and y_scale may differ in type from opset 23; arenaplan divides in x's type by a scale of that type
        OnnxOpRuns.refused(dir, quantize(23, OnnxDTypes.FLOAT16, new Object[0]),
                "node 'q' (QuantizeLinear, #0, opset 23): y_scale s[] is f32 but x x[3] is f16; a scale of another type than x (opset 23) is not supported");
    }

    @Test
    void quantizeWithAHalfPrecisionScaleIsRefusedFromOpset23WhereTheQuotientIsRoundedToIt() throws Exception {
        // From 23 x / y_scale is rounded to the precision (f16 here) before rounding to an integer:
        // 40.375 / 0.3 gives 135 in f32 but 134 in f16. arenaplan divides in f32, so it refuses.
        TinyOnnx half = new TinyOnnx().opset(23).input(OnnxDTypes.FLOAT16, "x", 1L).output(OnnxDTypes.UINT8, "y", 1L)
                .initializer(scalar("s", OnnxDTypes.FLOAT16, 0.3)).node("q", "QuantizeLinear", List.of("x", "s"), List.of("y"));
        OnnxOpRuns.refused(dir, half, "node 'q' (QuantizeLinear, #0, opset 23): y_scale s[] is f16: from opset 23 the division x / y_scale is rounded to the precision");
        TinyOnnx before = new TinyOnnx().opset(21).input(OnnxDTypes.FLOAT16, "x", 1L).output(OnnxDTypes.UINT8, "y", 1L)
                .initializer(scalar("s", OnnxDTypes.FLOAT16, 0.5)).node("q", "QuantizeLinear", List.of("x", "s"), List.of("y"));
        assertThat(OnnxOpRuns.run(dir, before, Map.of("x", TensorValue.ofDoubles(DType.F16, new long[] {1}, 1.5))).get("y").doubles()).containsExactly(3);
    }

    @Test
    void aConstantOfATypeArenaplanLacksIsRefusedNamingTheNode() throws Exception {
        OnnxMl.TensorProto f6 = OnnxMl.TensorProto.newBuilder().setDataType(27).setRawData(com.google.protobuf.ByteString.copyFrom(new byte[] {0})).build();
        TinyOnnx m = new TinyOnnx().opset(28).outputOfType(OnnxDTypes.FLOAT, "y").node("k", "Constant", List.of(), List.of("y"), "value", f6);
        OnnxOpRuns.refused(dir, m, "attribute 'value' of node 'k' has ONNX element type 27 (FLOAT6E2M3), which arenaplan does not support");
    }

    private static TinyOnnx toE8m0(long opset, Object... attrs) {
        return new TinyOnnx().opset(opset).input("x", 4L).output(OnnxDTypes.FLOAT8E8M0, "y", 4L)
                .node("c", "Cast", List.of("x"), List.of("y"), attrs);
    }

    @Test
    void castToFloat8e8m0ReadsRoundModeAndSaturateFromOpset24() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[] {4}, 3f, 1.5f, 3.4e38f, -0.75f);
        // up (the default) 4, 2, saturated 2^127, 1 (the sign is dropped); down 2, 1, 2^127, 0.5; nearest 4, 2, 2^127, 1
        assertThat(OnnxOpRuns.run(dir, toE8m0(24, "to", 24L), Map.of("x", x)).get("y").bytes()).containsExactly(129, 128, 254, 127);
        assertThat(OnnxOpRuns.run(dir, toE8m0(24, "to", 24L, "round_mode", "down"), Map.of("x", x)).get("y").bytes()).containsExactly(128, 127, 254, 126);
        assertThat(OnnxOpRuns.run(dir, toE8m0(25, "to", 24L, "round_mode", "nearest"), Map.of("x", x)).get("y").bytes()).containsExactly(129, 128, 254, 127);
        assertThat(OnnxOpRuns.run(dir, toE8m0(24, "to", 24L, "saturate", 0L), Map.of("x", x)).get("y").bytes()).containsExactly(129, 128, 255, 127);
        OnnxOpRuns.refused(dir, toE8m0(23, "to", 24L), "node 'c' (Cast, #0, opset 23): f8e8m0 is an element type Cast takes from opset 24");
    }

    @Test
    void float8e8m0IsStorageOnly() throws Exception {
        TinyOnnx add = new TinyOnnx().opset(24).input(OnnxDTypes.FLOAT8E8M0, "a", 2L).input(OnnxDTypes.FLOAT8E8M0, "b", 2L).output(OnnxDTypes.FLOAT8E8M0, "y", 2L)
                .node("s", "Add", List.of("a", "b"), List.of("y"));
        TensorValue x = new TensorValue(DType.F8E8M0, new long[] {2}, new byte[] {127, 127});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OnnxOpRuns.run(dir, add, Map.of("a", x, "b", x)))
                .hasMessageContaining("op 's' (Add): operands are f8e8m0, which Add does not take");
    }

    private static OnnxMl.TensorProto scalar(String name, int type, double v) {
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(type);
        if (type == OnnxDTypes.DOUBLE) t.addDoubleData(v);
        else if (type == OnnxDTypes.FLOAT16) t.setRawData(com.google.protobuf.ByteString.copyFrom(TensorValue.ofDoubles(DType.F16, new long[0], v).bytes()));
        else t.addFloatData((float) v);
        return t.build();
    }

    private static TinyOnnx range(long opset, int type, double start, double limit, double delta, Object... attrs) {
        return new TinyOnnx().opset(opset).outputOfType(type, "y").initializer(scalar("a", type, start)).initializer(scalar("b", type, limit))
                .initializer(scalar("d", type, delta)).node("r", "Range", List.of("a", "b", "d"), List.of("y"), attrs);
    }

    @Test
    void rangeComputesDoublesInDoubleAndTakesStashTypeFromOpset27() throws Exception {
        // f64: start + i * delta in double (np.arange), not in float as before
        double[] got = OnnxOpRuns.run(dir, range(13, OnnxDTypes.DOUBLE, 0.1, 1.0, 0.1), Map.of()).get("y").doubles();
        assertThat(got).hasSize(9);
        for (int i = 0; i < got.length; i++) assertThat(got[i]).as("element %d", i).isEqualTo(0.1 + i * 0.1);
        // f16 (opset 27): computed in float (stash_type 1, the default) or double (11), then rounded to f16
        for (Object[] attrs : new Object[][] {{}, {"stash_type", 1L}, {"stash_type", 11L}}) {
            TensorValue y = OnnxOpRuns.run(dir, range(27, OnnxDTypes.FLOAT16, 1, 4, 0.5, attrs), Map.of()).get("y");
            assertThat(y.dtype()).isEqualTo(DType.F16);
            assertThat(y.doubles()).containsExactly(1, 1.5, 2, 2.5, 3, 3.5);
        }
        OnnxOpRuns.refused(dir, range(27, OnnxDTypes.FLOAT16, 1, 4, 0.5, "stash_type", 10L), "node 'r' (Range, #0, opset 27): attribute 'stash_type' = 10 is not 1 (float) or 11 (double)");
        OnnxOpRuns.refused(dir, range(26, OnnxDTypes.FLOAT, 1, 4, 0.5, "stash_type", 1L), "attribute 'stash_type' needs opset 27");
    }

    private static TinyOnnx bitCast(long opset, int from, int to) {
        return new TinyOnnx().opset(opset).input(from, "x", 3L).output(to, "y", 3L).node("b", "BitCast", List.of("x"), List.of("y"), "to", (long) to);
    }

    @Test
    void bitCastKeepsTheBitsFromOpset26() throws Exception {
        float[] xs = {1.5f, -0f, Float.NaN};
        TensorValue y = OnnxOpRuns.run(dir, bitCast(26, OnnxDTypes.FLOAT, OnnxDTypes.INT32), Map.of("x", TensorValue.ofFloats(new long[] {3}, xs))).get("y");
        assertThat(y.dtype()).isEqualTo(DType.I32);
        assertThat(y.doubles()).containsExactly(Float.floatToRawIntBits(1.5f), Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(Float.NaN));
        TensorValue b = OnnxOpRuns.run(dir, bitCast(28, OnnxDTypes.INT8, OnnxDTypes.UINT8), Map.of("x", TensorValue.ofLongs(DType.I8, new long[] {3}, -1, 0, -128))).get("y");
        assertThat(b.doubles()).containsExactly(255, 0, 128);
        OnnxOpRuns.refused(dir, bitCast(26, OnnxDTypes.FLOAT, OnnxDTypes.INT64), "node 'b' (BitCast, #0, opset 26): input x[3] is f32 (32 bits) but to=7 is i64 (64 bits); BitCast needs one bit width");
        OnnxOpRuns.refused(dir, bitCast(25, OnnxDTypes.FLOAT, OnnxDTypes.INT32), "BitCast exists from opset 26 of the default domain");
        OnnxOpRuns.refused(dir, bitCast(26, OnnxDTypes.INT8, 22), "node 'b' (BitCast, #0, opset 26): input x[3] is i8 (8 bits) but to=22 is i4 (4 bits); BitCast needs one bit width");
    }

    @Test
    void swishFromOpset24() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(24).input("x", 4L).output("y", 4L).node("s", "Swish", List.of("x"), List.of("y"), "alpha", 2.0);
        float[] xs = {-3f, -0.5f, 0f, 1.25f};
        float[] got = OnnxOpRuns.run(dir, m, Map.of("x", TensorValue.ofFloats(new long[] {4}, xs))).get("y").floats();
        for (int i = 0; i < 4; i++) assertThat(got[i]).as("x = %s", xs[i]).isEqualTo((float) (xs[i] / (1 + Math.exp(-2.0 * xs[i]))));
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(23).input("x", 4L).output("y", 4L).node("s", "Swish", List.of("x"), List.of("y")), "Swish exists from opset 24");
    }

    private static TinyOnnx cumProd(long opset, int type, Object... attrs) {
        return new TinyOnnx().opset(opset).input(type, "x", 2L, 3L).output(type, "y", 2L, 3L).scalar("axis", 1)
                .node("p", "CumProd", List.of("x", "axis"), List.of("y"), attrs);
    }

    @Test
    void cumProdFromOpset26() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[] {2, 3}, 1f, 2f, 3f, -1f, 0.5f, 4f);
        assertThat(OnnxOpRuns.run(dir, cumProd(26, OnnxDTypes.FLOAT), Map.of("x", x)).get("y").floats()).containsExactly(1f, 2f, 6f, -1f, -0.5f, -2f);
        assertThat(OnnxOpRuns.run(dir, cumProd(26, OnnxDTypes.FLOAT, "exclusive", 1L, "reverse", 1L), Map.of("x", x)).get("y").floats())
                .containsExactly(6f, 3f, 1f, 2f, 4f, 1f);
        // integers wrap in 64 bits, then in their type: int32 2^16 * 2^16 = 2^32 -> 0
        TensorValue xi = TensorValue.ofLongs(DType.I32, new long[] {2, 3}, 65536, 65536, 3, -2, 5, 7);
        assertThat(OnnxOpRuns.run(dir, cumProd(28, OnnxDTypes.INT32), Map.of("x", xi)).get("y").doubles()).containsExactly(65536, 0, 0, -2, -10, -70);
        OnnxOpRuns.refused(dir, cumProd(25, OnnxDTypes.FLOAT), "CumProd exists from opset 26");
    }

    @Test
    void swigluFromOpset28() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(28).input("a", 4L).input("b", 4L).output("y", 4L).node("g", "SwiGLU", List.of("a", "b"), List.of("y"), "alpha", 1.5);
        float[] a = {-3f, -0.5f, 0f, 1.25f}, b = {2f, -1f, 7f, 0.5f};
        float[] got = OnnxOpRuns.run(dir, m, Map.of("a", TensorValue.ofFloats(new long[] {4}, a), "b", TensorValue.ofFloats(new long[] {4}, b))).get("y").floats();
        // Swish rounded to f32, then the product rounded: the two kernel calls
        for (int i = 0; i < 4; i++) assertThat(got[i]).as("a = %s", a[i]).isEqualTo((float) (a[i] * (1.0 / (1.0 + Math.exp(-1.5 * a[i])))) * b[i]);
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(28).input("a", 4L).input("b", 1L).output("y", 4L).node("g", "SwiGLU", List.of("a", "b"), List.of("y")),
                "node 'g' (SwiGLU, #0, opset 28): A a[4] and B b[1] must have one shape; SwiGLU does not broadcast");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(27).input("a", 4L).input("b", 4L).output("y", 4L).node("g", "SwiGLU", List.of("a", "b"), List.of("y")),
                "SwiGLU exists from opset 28");
    }

    private static TinyOnnx tensorScatter(long opset, boolean indices, Object... attrs) {
        TinyOnnx m = new TinyOnnx().opset(opset).input("past", 2L, 4L, 2L).input("u", 2L, 2L, 2L);
        if (indices) m.input(OnnxDTypes.INT64, "w", 2L);
        return m.output("y", 2L, 4L, 2L).node("t", "TensorScatter", indices ? List.of("past", "u", "w") : List.of("past", "u"), List.of("y"), attrs);
    }

    @Test
    void tensorScatterFromOpset24() throws Exception {
        float[] past = new float[16], upd = {1, 2, 3, 4, 5, 6, 7, 8};
        for (int i = 0; i < 16; i++) past[i] = -i - 1;
        Map<String, TensorValue> in = new java.util.HashMap<>(Map.of("past", TensorValue.ofFloats(new long[] {2, 4, 2}, past), "u", TensorValue.ofFloats(new long[] {2, 2, 2}, upd)));
        // no write indices: rows 0 and 1 of each batch entry along axis -2 (= 1)
        assertThat(OnnxOpRuns.run(dir, tensorScatter(24, false), in).get("y").floats())
                .containsExactly(1, 2, 3, 4, -5, -6, -7, -8, 5, 6, 7, 8, -13, -14, -15, -16);
        // batch 0 from row 2, batch 1 from row 1
        in.put("w", TensorValue.ofLongs(DType.I64, new long[] {2}, 2, 1));
        assertThat(OnnxOpRuns.run(dir, tensorScatter(24, true), in).get("y").floats())
                .containsExactly(-1, -2, -3, -4, 1, 2, 3, 4, -9, -10, 5, 6, 7, 8, -15, -16);
        // circular: batch 0 from row 3 wraps to row 0
        in.put("w", TensorValue.ofLongs(DType.I64, new long[] {2}, 3, 0));
        assertThat(OnnxOpRuns.run(dir, tensorScatter(25, true, "mode", "circular"), in).get("y").floats())
                .containsExactly(3, 4, -3, -4, -5, -6, 1, 2, 5, 6, 7, 8, -13, -14, -15, -16);
        // linear past the end: refused when it runs, naming the kernel's bound
        Path file = dir.resolve("over.onnx");
        Files.write(file, tensorScatter(24, true).bytes());
        org.arenaplan.ir.Graph g = OnnxImporter.load(file, Map.of());
        try (org.arenaplan.device.Device device = org.arenaplan.device.Devices.open("sim", org.arenaplan.device.DeviceOptions.DEFAULT).device()) {
            assertThatThrownBy(() -> org.arenaplan.exec.Executors.run(org.arenaplan.plan.ArenaPlanner.plan(g), device, List.of(org.arenaplan.exec.Mode.PLANNED), 1, in, 1))
                    .hasMessageContaining("write index 3 + 1 is outside 0..3");
        }
        OnnxOpRuns.refused(dir, tensorScatter(24, false, "axis", 0L), "node 't' (TensorScatter, #0, opset 24): axis 0 is the batch axis 0");
        OnnxOpRuns.refused(dir, tensorScatter(24, false, "mode", "ring"), "mode 'ring' is neither linear nor circular");
        OnnxOpRuns.refused(dir, tensorScatter(23, false), "TensorScatter exists from opset 24");
    }
}
