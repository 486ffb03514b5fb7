package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An int4 model as weight-only quantized exporters write it: int4 values (a graph input here, so
 * that the import does not fold them) and an int4 zero point (packed raw_data, odd element
 * counts), DequantizeLinear with block_size (blocked quantization, ONNX
 * opset 21), and QuantizeLinear back to an int4 graph output. Its sizes everywhere (the
 * importer's tensors, the planner's storages, the executors' uploads and downloads, .pb files)
 * are ceil(n * bits / 8) bytes, and its values match a hand computation on the simulator in
 * every mode. Bad blocked shapes, short raw_data and ops that do not take packed types are
 * refused with one line naming the file and the node or tensor.
 */
class SubByteModelsTest {
    private static final int FLOAT = 1, INT4 = 22, UINT2 = 25;

    @TempDir
    Path dir;

    /** A packed tensor initializer from its element codes (first element in the low bits). */
    private static OnnxMl.TensorProto packed(String name, int dataType, int bits, long[] dims, long... values) {
        int per = 8 / bits;
        byte[] b = new byte[(values.length + per - 1) / per];
        for (int i = 0; i < values.length; i++) b[i / per] |= (byte) ((values[i] & ((1 << bits) - 1)) << (i % per * bits));
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(dataType).setRawData(ByteString.copyFrom(b));
        for (long d : dims) t.addDims(d);
        return t.build();
    }

    // x int4 [3, 3] (a graph input; 9 elements: 5 bytes, the last half-filled), scale f32 [3, 2] and zero point int4 [3, 2]: axis 1 in blocks of 2
    private static final long[] X = {1, -2, 7, -8, 0, 3, 5, 5, -1};
    private static final long[] ZP = {1, 0, -1, 2, 0, -3};
    private static final float[] SCALE = {0.5f, 2f, 1f, 0.25f, 3f, 1f};
    // y[r][c] = (x[r][c] - zp[r][c / 2]) * scale[r][c / 2], by hand
    private static final float[] Y = {0f, -1.5f, 14f, -7f, 1f, 0.25f, 15f, 15f, 2f};

    private TinyOnnx blockedModel(long blockSize, long[] scaleDims) {
        return new TinyOnnx().opset(21).input("a", 3L, 3L).input(INT4, "x", 3L, 3L)
                .initializer(packed("z", INT4, 4, new long[] {3, 2}, ZP))
                .initializer(TinyOnnx.rawTensor("s", scaleDims[0] * scaleDims[1] == 6 ? SCALE : new float[(int) (scaleDims[0] * scaleDims[1])], scaleDims))
                .node("dq", "DequantizeLinear", List.of("x", "s", "z"), List.of("y"), "axis", 1L, "block_size", blockSize)
                .node("q", "QuantizeLinear", List.of("a", "s", "z"), List.of("qa"), "axis", 1L, "block_size", blockSize)
                .output(FLOAT, "y", 3L, 3L).output(INT4, "qa", 3L, 3L);
    }

    @Test
    void blockedInt4WeightsRunAndEveryPathSizesPackedBytes() throws Exception {
        Path m = dir.resolve("w4.onnx");
        Files.write(m, blockedModel(2, new long[] {3, 2}).bytes());
        Graph g = OnnxImporter.load(m, Map.of());
        // 9 int4 take 5 bytes (not 9 = n x 1, not 4 = n / 2 rounded down); 6 take 3
        assertThat(g.tensor("x").bytes()).isEqualTo(5);
        assertThat(g.tensor("qa").bytes()).isEqualTo(5);
        assertThat(g.tensor("z").bytes()).isEqualTo(3);
        assertThat(g.tensor("qa").dtype()).isEqualTo(DType.I4);
        Plan plan = ArenaPlanner.plan(g);
        assertThat(plan.storages().stream().filter(st -> st.name().equals("qa")).map(Storage::bytes).toList()).as("the planner's size of qa").containsExactly(5L);
        Map<String, TensorValue> in = Map.of("a", TensorValue.ofFloats(new long[] {3, 3}, Y), "x", TensorValue.ofLongs(DType.I4, new long[] {3, 3}, X));
        Executors.Comparison c;
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(3))) {
            c = Executors.run(plan, d, List.of(Mode.values()), 1, in, 1);
        }
        assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
        Map<String, TensorValue> got = c.last(Mode.PLANNED).outputs();
        assertThat(got.get("y").floats()).containsExactly(Y);
        // quantizing the dequantized values gives the weight back, packed as the file packs it
        TensorValue qa = got.get("qa");
        assertThat(qa.byteCount()).isEqualTo(5);
        assertThat(qa.longs()).containsExactly(X);
        assertThat(qa.bytes()).containsExactly(packed("x", INT4, 4, new long[] {3, 3}, X).getRawData().toByteArray());
        // a .pb written and read back keeps 5 bytes and 9 elements
        Path pb = dir.resolve("qa.pb");
        OnnxTensorFile.write(pb, "qa", qa);
        TensorValue back = OnnxTensorFile.read(pb).value();
        assertThat(back.byteCount()).isEqualTo(5);
        assertThat(back.longs()).containsExactly(X);
    }

    @Test
    void int32DataHoldsPackedBytesOnePerInt32() throws Exception {
        // uint2 [5]: 0, 1, 2, 3, 1 -> bytes 0b11_10_01_00, 0b01 as int32_data (onnx numpy_helper.to_array)
        OnnxMl.TensorProto w = OnnxMl.TensorProto.newBuilder().setName("w").setDataType(UINT2).addDims(5).addInt32Data(0b11100100).addInt32Data(1).build();
        Path m = dir.resolve("u2.onnx");
        Files.write(m, new TinyOnnx().opset(25).input("a", 1L).initializer(w)
                .node("c", "Cast", List.of("w"), List.of("y"), "to", (long) FLOAT).output(FLOAT, "y", 5L).bytes());
        Graph g = OnnxImporter.load(m, Map.of());
        // the Cast of a constant is folded at import (ConstantFolding), reading the 2 packed bytes
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            Executors.Comparison c = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, Map.of("a", TensorValue.ofFloats(new long[] {1}, 0f)), 1);
            assertThat(c.last(Mode.PLANNED).outputs().get("y").floats()).containsExactly(0f, 1f, 2f, 3f, 1f);
        }
        // one int32 per element (5) is not the packed form: refused naming the tensor
        OnnxMl.TensorProto five = w.toBuilder().addInt32Data(2).addInt32Data(3).addInt32Data(1).build();
        Files.write(m, new TinyOnnx().opset(25).input("a", 1L).initializer(five)
                .node("c", "Cast", List.of("w"), List.of("y"), "to", (long) FLOAT).output(FLOAT, "y", 5L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of()))
                .hasMessageContaining("initializer 'w'").hasMessageContaining("holds 5 values in int32_data, but 5 elements of u2 (data_type 25) pack into 2 B");
    }

    @Test
    void badPackedInputIsOneLineNamingFileAndNodeOrTensor() throws Exception {
        Path m = dir.resolve("bad.onnx");
        // raw_data one byte short of ceil(9 / 2) = 5
        OnnxMl.TensorProto shortX = packed("x", INT4, 4, new long[] {3, 3}, 1, 2, 3, 4, 5, 6, 7, 8);
        Files.write(m, new TinyOnnx().opset(21).input("a", 1L).initializer(shortX)
                .node("c", "Cast", List.of("x"), List.of("y"), "to", (long) FLOAT).output(FLOAT, "y", 3L, 3L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining(m.toString()).hasMessageContaining("'x'")
                .hasMessageContaining("raw_data holds 4 B, but 9 elements of data_type 22 (i4, 2 per byte) need 5 B");
        // block_size 3 with a scale made for blocks of 2: ceil(3 / 3) = 1, not 2
        Files.write(m, blockedModel(3, new long[] {3, 2}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'dq' (DequantizeLinear, #0, opset 21)").hasMessageContaining("must be [3, 1] for blocked quantization (block_size 3)");
        // a scale of another rank
        Files.write(m, blockedModel(2, new long[] {1, 6}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'dq'").hasMessageContaining("must be [3, 2]");
        // a negative block_size
        Files.write(m, blockedModel(-1, new long[] {3, 2}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'dq'").hasMessageContaining("'block_size' = -1");
        // int4 before opset 21
        Files.write(m, new TinyOnnx().opset(19).input("a", 3L).node("c", "Cast", List.of("a"), List.of("y"), "to", (long) INT4).output(INT4, "y", 3L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'c' (Cast, #0, opset 19): i4 is an element type Cast takes from opset 21");
        // arithmetic on int4, and an op that moves elements by bytes: refused naming the node, the tensor and its type
        Files.write(m, new TinyOnnx().opset(21).input("a", 3L).node("c", "Cast", List.of("a"), List.of("y"), "to", (long) INT4)
                .node("add", "Add", List.of("y", "y"), List.of("z")).output(INT4, "z", 3L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of()))
                .hasMessageContaining("node 'add' (Add, #1, opset 21): 'y' is i4, a packed sub-byte type (2 elements per byte), which Add does not take");
        Files.write(m, new TinyOnnx().opset(21).input("a", 3L).node("c", "Cast", List.of("a"), List.of("y"), "to", (long) INT4)
                .node("t", "Transpose", List.of("y"), List.of("z")).output(INT4, "z", 3L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 't' (Transpose, #1, opset 21): 'y' is i4");
    }
}
