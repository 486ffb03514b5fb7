package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Element type codes (ONNX {@code TensorProto.DataType}) read from a file are told apart in one
 * way everywhere ({@link OnnxDTypes#problem}): a valid ONNX type arenaplan lacks (COMPLEX64 = 14,
 * FLOAT6E2M3 = 27) is named and called unsupported; a number onnx.proto does not define is called
 * no ONNX element type; UNDEFINED (0) is no element type. Found by a review that fed Cast codes
 * 0..99: valid types used to read "out of range [1, 20]", the registry's range for the Cast op.
 */
class ElementTypeCodesTest {
    @TempDir
    Path dir;

    private static TinyOnnx cast(long to) {
        return new TinyOnnx().opset(25).input("x", 2L).outputOfType(OnnxDTypes.FLOAT, "y").node("c", "Cast", List.of("x"), List.of("y"), "to", to);
    }

    @Test
    void castToAValidTypeArenaplanLacksNamesTheType() throws Exception {
        OnnxOpRuns.refused(dir, cast(14), "node 'c' (Cast, #0, opset 25): attribute 'to' = 14 (COMPLEX64) is an element type arenaplan does not support");
        OnnxOpRuns.refused(dir, cast(8), "attribute 'to' = 8 (STRING) is an element type arenaplan does not support");
        // onnx 1.23's Cast-28 types (they read "not an ONNX element type" before: breaker9's finding 5)
        OnnxOpRuns.refused(dir, cast(27), "attribute 'to' = 27 (FLOAT6E2M3) is an element type arenaplan does not support");
        OnnxOpRuns.refused(dir, cast(28), "attribute 'to' = 28 (FLOAT6E3M2) is an element type arenaplan does not support");
    }

    @Test
    void castToANumberThatIsNoOnnxTypeSaysSo() throws Exception {
        OnnxOpRuns.refused(dir, cast(99), "attribute 'to' = 99 is not an ONNX element type (TensorProto.DataType 1 to 28)");
        OnnxOpRuns.refused(dir, cast(-1), "attribute 'to' = -1 is not an ONNX element type");
        OnnxOpRuns.refused(dir, cast(0), "attribute 'to' = 0 is UNDEFINED, not an element type");
    }

    @Test
    void aGraphInputOfAnUnknownCodeReadsAsASentence() throws Exception {
        // it read "which not an ONNX element type" and "which UNDEFINED, not an element type" (breaker9's finding 5)
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(25).input(40, "x", 2L).output("y", 2L).node("r", "Relu", List.of("x"), List.of("y")),
                "graph input 'x' has element type code 40, which is not an ONNX element type (TensorProto.DataType 1 to 28)");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(25).input(0, "x", 2L).output("y", 2L).node("r", "Relu", List.of("x"), List.of("y")),
                "graph input 'x' has element type code 0, which is UNDEFINED, not an element type");
    }

    @Test
    void aFoldedCastAndBitCastReadTheSame() throws Exception {
        TinyOnnx folded = new TinyOnnx().opset(25).input("x", 2L).output("y", 2L).floats("w", 1f, 2L)
                .node("c", "Cast", List.of("w"), List.of("cw"), "to", 27L).node("a", "Add", List.of("x", "cw"), List.of("y"));
        OnnxOpRuns.refused(dir, folded, "node 'c' (Cast, #0, opset 25): attribute 'to' = 27 (FLOAT6E2M3) is an element type arenaplan does not support");
        TinyOnnx bitCast = new TinyOnnx().opset(26).input("x", 2L).outputOfType(OnnxDTypes.FLOAT, "y").node("b", "BitCast", List.of("x"), List.of("y"), "to", 14L);
        OnnxOpRuns.refused(dir, bitCast, "node 'b' (BitCast, #0, opset 26): attribute 'to' = 14 (COMPLEX64) is an element type arenaplan does not support");
    }

    @Test
    void aDeclaredOutputTypeArenaplanLacksIsNamed() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(25).input("x", 2L).output(27, "y", 2L).node("r", "Relu", List.of("x"), List.of("y"));
        OnnxOpRuns.refused(dir, m, "graph output 'y' is declared with element type 27 (FLOAT6E2M3) but infers to f32 (ONNX data_type 1");
    }

    @Test
    void anInitializerNothingReadsNeedNotHaveATypeArenaplanHas() throws Exception {
        OnnxMl.TensorProto complex = OnnxMl.TensorProto.newBuilder().setName("w").setDataType(14).addDims(1)
                .setRawData(ByteString.copyFrom(new byte[8])).build();
        TinyOnnx unread = new TinyOnnx().opset(25).input("x", 2L).output("y", 2L).initializer(complex).node("r", "Relu", List.of("x"), List.of("y"));
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, unread, Map.of("x", TensorValue.ofDoubles(DType.F32, new long[] {2}, -1, 3)));
        assertThat(out.get("y").doubles()).containsExactly(0, 3);
        TinyOnnx read = new TinyOnnx().opset(25).input("x", 2L).output("y", 2L).initializer(complex).node("r", "Relu", List.of("w"), List.of("y"));
        OnnxOpRuns.refused(dir, read, "initializer 'w' has ONNX element type 14 (COMPLEX64), which arenaplan does not support");
        TinyOnnx listed = new TinyOnnx().opset(25).input(14, "w", 1L).input("x", 2L).output("y", 2L).initializer(complex).node("r", "Relu", List.of("x"), List.of("y"));
        assertThat(OnnxOpRuns.run(dir, listed, Map.of("x", TensorValue.ofDoubles(DType.F32, new long[] {2}, -1, 3))).get("y").doubles()).containsExactly(0, 3);
    }

    @Test
    void rangeTakesHalfPrecisionFromOpset27Only() throws Exception {
        OnnxMl.TensorProto[] ops = new OnnxMl.TensorProto[3];
        double[] v = {0, 3, 1};
        String[] names = {"start", "limit", "delta"};
        for (int i = 0; i < 3; i++)
            ops[i] = OnnxMl.TensorProto.newBuilder().setName(names[i]).setDataType(OnnxDTypes.FLOAT16)
                    .setRawData(ByteString.copyFrom(TensorValue.ofDoubles(DType.F16, new long[0], v[i]).bytes())).build();
        for (long opset : new long[] {26, 27}) {
            TinyOnnx m = new TinyOnnx().opset(opset).output(OnnxDTypes.FLOAT16, "y", 3L).initializer(ops[0]).initializer(ops[1]).initializer(ops[2])
                    .node("r", "Range", List.of("start", "limit", "delta"), List.of("y"));
            if (opset == 26) OnnxOpRuns.refused(dir, m, "node 'r' (Range, #0, opset 26): start start[] is f16; Range takes float, double, int16, int32 or int64 (float16 and bfloat16 from opset 27)");
            else assertThat(OnnxOpRuns.run(dir, m, Map.of()).get("y").doubles()).containsExactly(0, 1, 2);
        }
    }

    @Test
    void dequantizeOutputDtypeMessagesPointWhereTheModelCanGo() throws Exception {
        OnnxMl.TensorProto half = OnnxMl.TensorProto.newBuilder().setName("s").setDataType(OnnxDTypes.FLOAT16)
                .setRawData(ByteString.copyFrom(TensorValue.ofDoubles(DType.F16, new long[0], 0.5).bytes())).build();
        TinyOnnx f16ScaleToF32 = new TinyOnnx().opset(23).input(OnnxDTypes.UINT8, "x", 2L).outputOfType(OnnxDTypes.FLOAT, "y").initializer(half)
                .node("dq", "DequantizeLinear", List.of("x", "s"), List.of("y"), "output_dtype", 1L);
        OnnxOpRuns.refused(dir, f16ScaleToF32, "attribute 'output_dtype' = 1 (f32) differs from the scale's type f16 (ONNX data_type 10); "
                + "only an output of the scale's type is supported, and for u8 x only an f32 scale");
        TinyOnnx noType = new TinyOnnx().opset(23).input(OnnxDTypes.UINT8, "x", 2L).outputOfType(OnnxDTypes.FLOAT, "y").floats("s", 0.5f)
                .node("dq", "DequantizeLinear", List.of("x", "s"), List.of("y"), "output_dtype", 99L);
        OnnxOpRuns.refused(dir, noType, "attribute 'output_dtype' = 99 is not an ONNX element type");
    }
}
