package org.arenaplan.onnx;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ONNX Cast, Where, Equal and Gather imported (shapes and element types) and run on the
 * simulator, every output compared bit for bit with ONNX Runtime 1.22 on the CPU.
 */
class OnnxTypedOpsTest {
    private static final int FLOAT = 1, UINT8 = 2, INT8 = 3, INT32 = 6, INT64 = 7, BOOL = 9, FLOAT16 = 10, BFLOAT16 = 16;

    @TempDir
    Path dir;

    /** ids -> Gather(emb) -> Where(ids == 0, -100, e) -> Cast f16 -> Cast bf16; ids -> Cast f32, int8, uint8; Gather on the last axis with int32 indices. */
    private static TinyOnnx tokenModel(long opset) {
        TinyOnnx t = new TinyOnnx().opset(opset)
                .input(INT64, "ids", 2L, 5L).input(FLOAT, "emb", 10L, 4L).input(INT32, "cols", 3L)
                .ints("zero", 0).floats("neg", -100f, 1)
                .node("embed", "Gather", List.of("emb", "ids"), List.of("e"), "axis", 0L)
                .node("is_pad", "Equal", List.of("ids", "zero"), List.of("pad"));
        if (opset >= 13) t.ints("axes", 2).node("unsq", "Unsqueeze", List.of("pad", "axes"), List.of("pad3"));
        else t.node("unsq", "Unsqueeze", List.of("pad"), List.of("pad3"), "axes", new long[]{2});
        return t.node("mask", "Where", List.of("pad3", "neg", "e"), List.of("y"))
                .node("to_half", "Cast", List.of("y"), List.of("yh"), "to", (long) FLOAT16)
                .node("to_bf16", "Cast", List.of("yh"), List.of("yb"), "to", (long) BFLOAT16)
                .node("ids_f", "Cast", List.of("ids"), List.of("idsf"), "to", (long) FLOAT)
                .node("ids_i8", "Cast", List.of("ids"), List.of("ids8"), "to", (long) INT8)
                .node("ids_u8", "Cast", List.of("ids"), List.of("idsu"), "to", (long) UINT8)
                .node("pick", "Gather", List.of("emb", "cols"), List.of("c"), "axis", -1L)
                .output(FLOAT, "y", 2L, 5L, 4L).output(FLOAT16, "yh", 2L, 5L, 4L).output(BFLOAT16, "yb", 2L, 5L, 4L)
                .output(BOOL, "pad", 2L, 5L).output(FLOAT, "idsf", 2L, 5L)
                .output(INT8, "ids8", 2L, 5L).output(UINT8, "idsu", 2L, 5L).output(FLOAT, "c", 10L, 3L);
    }

    private static Map<String, TensorValue> inputs() {
        Random r = new Random(3);
        double[] emb = new double[40];
        for (int i = 0; i < emb.length; i++) emb[i] = r.nextGaussian() * 1000;   // large: f16 rounding and overflow matter
        return Map.of("ids", TensorValue.ofLongs(DType.I64, new long[]{2, 5}, 3, 0, 9, -1, 7, 0, 1, -10, 4, 4),
                "emb", TensorValue.ofDoubles(DType.F32, new long[]{10, 4}, emb),
                "cols", TensorValue.ofLongs(DType.I32, new long[]{3}, -1, 0, 2));
    }

    @Test
    void importsEachOpWithItsShapeAndElementType() throws Exception {
        Path m = dir.resolve("tokens.onnx");
        Files.write(m, tokenModel(13).bytes());
        Graph g = OnnxImporter.load(m, Map.of());
        assertThat(g.tensor("ids").bytes()).isEqualTo(2 * 5 * 8);
        assertThat(g.tensor("e").dtype()).isEqualTo(DType.F32);
        assertThat(g.tensor("e").shape()).containsExactly(2, 5, 4);
        assertThat(g.tensor("pad").dtype()).isEqualTo(DType.BOOL);
        assertThat(g.tensor("pad").bytes()).isEqualTo(10);
        assertThat(g.tensor("yh").dtype()).isEqualTo(DType.F16);
        assertThat(g.tensor("yh").bytes()).isEqualTo(80);
        assertThat(g.tensor("ids8").bytes()).isEqualTo(10);
        assertThat(g.tensor("c").shape()).containsExactly(10, 3);
    }

    @Test
    void everyOutputEqualsOnnxRuntimesBitForBit() throws Exception {
        for (long opset : new long[]{11, 13}) {
            byte[] model = tokenModel(opset).bytes();
            Path m = dir.resolve("tokens" + opset + ".onnx");
            Files.write(m, model);
            Graph g = OnnxImporter.load(m, Map.of());
            Map<String, TensorValue> in = inputs(), want = OrtOracle.run(model, in);
            Executors.Comparison c;
            try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(2).withMaxDelayNanos(20_000))) {
                c = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.values()), 1, in, 1);
            }
            assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
            Map<String, TensorValue> got = c.last(Mode.PLANNED).outputs();
            assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(want.keySet());
            for (String o : want.keySet()) {
                int i = got.get(o).firstDifference(want.get(o));
                assertThat(i).as("opset " + opset + ", output " + o + (i >= 0 ? " [" + i + "]: arenaplan " + got.get(o).format(i) + ", ONNX Runtime " + want.get(o).format(i) : ""))
                        .isEqualTo(-1);
            }
        }
    }

    /** Cast to float8 (ONNX FLOAT8E5M2 = 19, FLOAT8E4M3FN = 17) with saturate 1 and 0, and back to f32, run on the simulator. */
    @Test
    void castToFloat8HonoursSaturate() throws Exception {
        final int e4m3fn = 17, e5m2 = 19;
        for (long sat : new long[] {1, 0}) {
            Path m = dir.resolve("f8_" + sat + ".onnx");
            Files.write(m, new TinyOnnx().opset(19).input("x", 6L)
                    .node("q", "Cast", List.of("x"), List.of("y"), "to", (long) e5m2, "saturate", sat)
                    .node("q4", "Cast", List.of("x"), List.of("y4"), "to", (long) e4m3fn, "saturate", sat)
                    .node("back", "Cast", List.of("y"), List.of("z"), "to", (long) FLOAT)
                    .output(e5m2, "y", 6L).output(e4m3fn, "y4", 6L).output(FLOAT, "z", 6L).bytes());
            Graph g = OnnxImporter.load(m, Map.of());
            assertThat(g.tensor("y").dtype()).isEqualTo(DType.F8E5M2);
            assertThat(g.tensor("y").bytes()).isEqualTo(6);
            Map<String, TensorValue> in = Map.of("x", TensorValue.ofFloats(new long[] {6}, 1f, -1.3f, 1e6f, Float.NEGATIVE_INFINITY, 500f, -0f));
            Executors.Comparison c;
            try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(2))) {
                c = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.values()), 1, in, 1);
            }
            assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
            Map<String, TensorValue> got = c.last(Mode.PLANNED).outputs();
            // e5m2: 1 -> 0x3C, -1.3 -> -1.25 (0xBD), 1e6 -> max 0x7B or inf 0x7C, -inf -> -max or -inf, 500 -> 512 (0x60), -0 -> 0x80
            assertThat(unsigned(got.get("y").bytes())).containsExactly(0x3C, 0xBD, sat == 1 ? 0x7B : 0x7C, sat == 1 ? 0xFB : 0xFC, 0x60, 0x80);
            // e4m3fn: 500 is past 448 + 16: max 0x7E, or NaN 0x7F
            assertThat(got.get("y4").bytes()[4] & 0xFF).isEqualTo(sat == 1 ? 0x7E : 0x7F);
            assertThat(got.get("z").floats()).containsExactly(1f, -1.25f, sat == 1 ? 57344f : Float.POSITIVE_INFINITY, sat == 1 ? -57344f : Float.NEGATIVE_INFINITY, 512f, -0f);
        }
        Path m = dir.resolve("bad_f8.onnx");
        Files.write(m, new TinyOnnx().opset(19).input("x", 2L).node("c", "Cast", List.of("x"), List.of("y"), "to", (long) e5m2, "saturate", 2L).output(e5m2, "y", 2L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'c' (Cast, #0, opset 19): attribute 'saturate' = 2 is out of range [0, 1]");
        Files.write(m, new TinyOnnx().opset(19).input("x", 2L).node("c", "Cast", List.of("x"), List.of("y"), "to", (long) e5m2)
                .node("a", "Add", List.of("y", "y"), List.of("z")).output(e5m2, "z", 2L).bytes());
        Graph add = OnnxImporter.load(m, Map.of());
        assertThatThrownBy(() -> {
            try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
                Executors.run(ArenaPlanner.plan(add), d, List.of(Mode.PLANNED), 1, Map.of("x", TensorValue.ofFloats(new long[] {2}, 1f, 2f)), 1);
            }
        }).hasMessageContaining("op 'a' (Add): operands are f8e5m2, which Add does not take");
    }

    private static int[] unsigned(byte[] b) {
        int[] u = new int[b.length];
        for (int i = 0; i < b.length; i++) u[i] = b[i] & 0xFF;
        return u;
    }

    @Test
    void typeErrorsNameTheNode() throws Exception {
        Path m = dir.resolve("bad.onnx");
        Files.write(m, new TinyOnnx().input("x", 2L).node("c", "Cast", List.of("x"), List.of("y"), "to", 8L).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'c' (Cast, #0, opset 13): attribute 'to' = 8 (STRING) is an element type arenaplan does not support");
        Files.write(m, new TinyOnnx().input("x", 2L).input("a", 2L).node("w", "Where", List.of("x", "a", "a"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'w' (Where, #0, opset 13): condition x[2] is f32, not bool");
        Files.write(m, new TinyOnnx().input("x", 4L, 2L).input("i", 2L).node("g", "Gather", List.of("x", "i"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'g' (Gather, #0, opset 13): indices i[2] are f32, not int64 or int32");
        Files.write(m, new TinyOnnx().input("x", 2L).input(INT64, "k", 2L).node("e", "Equal", List.of("x", "k"), List.of("y")).output("y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(m, Map.of())).hasMessageContaining("node 'e' (Equal, #0, opset 13): input x[2] is f32 but k[2] is i64");
    }

    /**
     * Dropout's mask in inference from opset 12: all true, as ONNX Runtime gives it, read by a node
     * and as a graph output; before 12 ONNX Runtime fills it with false and onnx's reference with
     * true, so a reader is refused.
     */
    @Test
    void anInferenceDropoutMaskIsAllTrueFromOpset12() throws Exception {
        TinyOnnx old = new TinyOnnx().opset(11).input("x", 2L, 3L).node("d", "Dropout", List.of("x"), List.of("y", "mask"))
                .output(FLOAT, "y", 2L, 3L).output(BOOL, "mask", 2L, 3L);
        OnnxOpRuns.refused(dir, old, "graph output 'mask' is an optional output of node 'd' that inference does not produce");
        for (long opset : new long[]{12, 22}) {
            TinyOnnx m = new TinyOnnx().opset(opset).input("x", 2L, 3L)
                    .node("d", "Dropout", List.of("x"), List.of("y", "mask"))
                    .node("n", "Not", List.of("mask"), List.of("off"))
                    .output(FLOAT, "y", 2L, 3L).output(BOOL, "mask", 2L, 3L).output(BOOL, "off", 2L, 3L);
            Map<String, TensorValue> in = Map.of("x", TensorValue.ofDoubles(DType.F32, new long[]{2, 3}, 1, -2, 3, -4, 5, -6));
            assertThat(OnnxOpRuns.run(dir, m, in).get("mask").bytes()).containsOnly((byte) 1);
            OnnxOpRuns.agree(dir, m, in, 0, 0);
        }
    }

    /** breaker14: a constant ratio of 1.5 ran as the identity; ONNX Runtime refuses it ("ratio must be in the range [0, 1)"). */
    @Test
    void aDropoutRatioOutsideZeroToOneIsRefused() throws Exception {
        for (float ratio : new float[]{1.5f, 1f, -0.25f}) {
            TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 3L).raw("r", new float[]{ratio})
                    .node("d", "Dropout", List.of("x", "r"), List.of("y")).output(FLOAT, "y", 2L, 3L);
            OnnxOpRuns.refused(dir, m, "node 'd' (Dropout, #0, opset 13): ratio (input #1 'r') is " + (double) ratio + "; Dropout's ratio lies in [0, 1)");
        }
    }
}
