package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Initializers keep the values the file holds, wherever it holds them (raw_data, typed fields,
 * external data), constant subgraphs over them fold into weights, and the simulator computes
 * with them: y = x W^T + b checked against the same product computed here.
 */
class WeightsTest {
    static final int M = 2, K = 5, N = 3;

    @TempDir
    Path dir;

    static float[] random(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) (2 * r.nextDouble() - 1);
        return v;
    }

    /** x[M, K] times W^T (W is [N, K]) plus b[N], in double. */
    static float[] gemm(float[] x, float[] w, float[] b) {
        float[] y = new float[M * N];
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                double s = b[n];
                for (int k = 0; k < K; k++) s += (double) x[m * K + k] * w[n * K + k];
                y[m * N + n] = (float) s;
            }
        return y;
    }

    /** Runs f32 inputs through planned and per-tensor (equal bits), returns the f32 outputs. */
    static Map<String, float[]> run(Graph g, Map<String, float[]> inputs) {
        Map<String, org.arenaplan.ir.TensorValue> in = new java.util.LinkedHashMap<>();
        inputs.forEach((k, v) -> in.put(k, org.arenaplan.ir.TensorValue.ofFloats(g.tensor(k).shape(), v)));
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            Executors.Comparison c = Executors.run(ArenaPlanner.plan(g), device, List.of(Mode.PLANNED, Mode.PER_TENSOR), 1, in, 1);
            assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
            Map<String, float[]> out = new java.util.LinkedHashMap<>();
            c.last(Mode.PLANNED).outputs().forEach((k, v) -> out.put(k, v.floats()));
            return out;
        }
    }

    /** Graph input x and output y; {@link #gemm(TinyOnnx, String)} adds the node after any folded ones. */
    static TinyOnnx gemmModel() {
        return new TinyOnnx().input("x", (long) M, (long) K).output("y", (long) M, (long) N);
    }

    static TinyOnnx gemm(TinyOnnx m, String w) {
        return m.node("fc", "Gemm", List.of("x", w, "b"), List.of("y"), "transB", 1L);
    }

    private Path save(TinyOnnx m) throws Exception {
        Path p = dir.resolve("model.onnx");
        Files.write(p, m.bytes());
        return p;
    }

    private void assertGemm(Graph g, float[] w, float[] b) {
        float[] x = random(M * K, 3);
        float[] y = run(g, Map.of("x", x)).get("y");
        float[] want = gemm(x, w, b);
        for (int i = 0; i < want.length; i++) assertThat(y[i]).as("y[%d]", i).isCloseTo(want[i], within(1e-5f));
    }

    @Test
    void rawDataWeightsAreUsedAsTheFileHoldsThem() throws Exception {
        float[] w = random(N * K, 1), b = random(N, 2);
        Graph g = OnnxImporter.load(save(gemm(gemmModel().raw("w", w, N, K).raw("b", b), "w")), Map.of());
        assertThat(g.weightValues("w")).isNotNull();
        assertGemm(g, w, b);
    }

    @Test
    void typedFieldsAreRead() throws Exception {
        float[] w = random(N * K, 4), b = random(N, 5);
        OnnxMl.TensorProto.Builder wt = OnnxMl.TensorProto.newBuilder().setName("w").setDataType(OnnxDTypes.FLOAT).addDims(N).addDims(K);
        for (float v : w) wt.addFloatData(v);
        // b as double_data, cast to float by a Cast node that import folds into a weight
        OnnxMl.TensorProto.Builder bd = OnnxMl.TensorProto.newBuilder().setName("b64").setDataType(OnnxDTypes.DOUBLE).addDims(N);
        for (float v : b) bd.addDoubleData(v);
        TinyOnnx m = gemm(gemmModel().initializer(wt.build()).initializer(bd.build())
                .node("cast", "Cast", List.of("b64"), List.of("b"), "to", (long) OnnxDTypes.FLOAT), "w");
        Graph g = OnnxImporter.load(save(m), Map.of());
        assertThat(g.ops()).extracting(o -> o.kind()).containsExactly(OpKinds.GEMM);
        assertThat(g.isWeight("b")).isTrue();
        assertGemm(g, w, b);
    }

    @Test
    void transposeOfAWeightIsFoldedAtImport() throws Exception {
        float[] w = random(N * K, 6), b = random(N, 7);
        float[] wt = new float[K * N];                        // stored [K, N]; Transpose gives [N, K]
        for (int n = 0; n < N; n++) for (int k = 0; k < K; k++) wt[k * N + n] = w[n * K + k];
        TinyOnnx m = gemm(gemmModel().raw("wkn", wt, K, N).raw("b", b).node("t", "Transpose", List.of("wkn"), List.of("w"), "perm", new long[]{1, 0}), "w");
        Graph g = OnnxImporter.load(save(m), Map.of());
        assertThat(g.ops()).extracting(o -> o.kind()).containsExactly(OpKinds.GEMM);
        assertThat(g.tensor("w").shape()).containsExactly(N, K);
        assertGemm(g, w, b);
    }

    @Test
    void externalDataIsReadRelativeToTheModelsFolder() throws Exception {
        float[] w = random(N * K, 8), b = random(N, 9);
        ByteBuffer bin = ByteBuffer.allocate(16 + 4 * w.length).order(ByteOrder.LITTLE_ENDIAN);
        bin.position(16);
        for (float v : w) bin.putFloat(v);
        Files.createDirectories(dir.resolve("data"));
        Files.write(dir.resolve("data/weights.bin"), bin.array());
        Graph g = OnnxImporter.load(save(gemm(gemmModel().initializer(external("w", "data/weights.bin", 16, 4L * w.length)).raw("b", b), "w")), Map.of());
        assertGemm(g, w, b);
    }

    @Test
    void missingOrShortExternalDataIsBadInputNamingTheFile() throws Exception {
        Path model = save(gemm(gemmModel().initializer(external("w", "nope.bin", 0, 4L * N * K)).raw("b", random(N, 1)), "w"));
        assertThatThrownBy(() -> OnnxImporter.load(model, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("nope.bin").hasMessageContaining("no such file").hasMessageContaining("initializer 'w'");
        Files.write(dir.resolve("short.bin"), new byte[4 * N * K - 1]);
        Path shortModel = save(gemm(gemmModel().initializer(external("w", "short.bin", 0, 4L * N * K)).raw("b", random(N, 1)), "w"));
        assertThatThrownBy(() -> OnnxImporter.load(shortModel, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("short.bin").hasMessageContaining("external data is short");
    }

    /**
     * An external location is confined to the model's folder as ONNX's checker does
     * ({@code resolve_external_data_location}): a model cannot have /etc/passwd or a file beside
     * its folder read as weights, not even through a symbolic link.
     */
    @Test
    void externalDataOutsideTheModelsFolderIsRefused() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("model"));
        float[] w = random(N * K, 3);
        ByteBuffer bin = ByteBuffer.allocate(4 * w.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : w) bin.putFloat(v);
        Path outside = Files.write(dir.resolve("secret.bin"), bin.array());
        Files.write(folder.resolve("weights.bin"), bin.array());
        Files.createDirectories(folder.resolve("sub"));
        Files.createSymbolicLink(folder.resolve("escape.bin"), outside);
        Files.createSymbolicLink(folder.resolve("outdir"), dir);
        Files.createSymbolicLink(folder.resolve("inside.bin"), folder.resolve("weights.bin"));
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("/etc/passwd", "external_data location '/etc/passwd' is absolute; it must be a relative path to a file inside the model's folder");
        refused.put(outside.toString(), "is absolute");
        refused.put("../secret.bin", "external_data location '../secret.bin' has a '..' component");
        refused.put("sub/../../secret.bin", "has a '..' component");
        refused.put("sub/..\\..\\secret.bin", "has a '..' component");
        refused.put("sub", "model/sub: a folder, not a file (external data of ");
        refused.put(".", "external_data location '.' names the model's folder " + folder.toAbsolutePath().normalize() + " itself; it must name a file in it");   // breaker11: "lies outside"
        refused.put("escape.bin", "escape.bin: a symbolic link to " + outside.toRealPath() + ", outside the model's folder");
        refused.put("outdir/secret.bin", "outside the model's folder");
        for (Map.Entry<String, String> e : refused.entrySet()) {
            Path model = Files.write(folder.resolve("m.onnx"), gemm(gemmModel().initializer(external("w", e.getKey(), 0, 4L * N * K)).raw("b", random(N, 1)), "w").bytes());
            assertThatThrownBy(() -> OnnxImporter.load(model, Map.of())).as(e.getKey()).isInstanceOf(OnnxException.class)
                    .hasMessageContaining(e.getValue()).hasMessageContaining("initializer 'w'").hasMessageNotContaining("\n");
        }
        float[] b = random(N, 4);
        Path ok = Files.write(folder.resolve("m.onnx"), gemm(gemmModel().initializer(external("w", "./inside.bin", 0, 4L * N * K)).raw("b", b), "w").bytes());
        assertGemm(OnnxImporter.load(ok, Map.of()), w, b);
    }

    @Test
    void externalOffsetAndLengthAreCheckedAgainstTheFile() throws Exception {
        Files.write(dir.resolve("w.bin"), new byte[4 * N * K]);
        Map<OnnxMl.TensorProto, String> refused = Map.of(
                external("w", "w.bin", Long.MAX_VALUE, 4L * N * K), "w.bin: holds " + 4 * N * K + " B, but ",
                external("w", "w.bin", 4, 4L * N * K), "(external data is short)",
                external("w", "w.bin", -4, 4L * N * K), "external_data offset -4 is negative",
                external("w", "w.bin", 0, -1), "external_data length -1 is negative",
                external("w", "w.bin", 0, 4L * N * K + 4), "external_data length " + (4 * N * K + 4) + " B, but its dims");
        for (Map.Entry<OnnxMl.TensorProto, String> e : refused.entrySet()) {
            Path model = save(gemm(gemmModel().initializer(e.getKey()).raw("b", random(N, 1)), "w"));
            assertThatThrownBy(() -> OnnxImporter.load(model, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(e.getValue());
        }
    }

    /**
     * breakonnx: an unknown key ('offest' for 'offset') was ignored, so the weight was read from
     * offset 0; a key given twice took its last value; values both external and in raw_data took
     * the external ones. ONNX Runtime refuses the first two ("model format error"), onnx's checker
     * the third ("is stored externally and should not have data field.raw_data").
     */
    @Test
    void externalDataWithAnUnknownOrRepeatedKeyOrInlineValuesTooIsRefused() throws Exception {
        Files.write(dir.resolve("w.bin"), new byte[8 + 4 * N * K]);
        OnnxMl.TensorProto ok = external("w", "w.bin", 8, 4L * N * K);
        Map<OnnxMl.TensorProto, String> refused = Map.of(
                ok.toBuilder().setExternalData(1, OnnxMl.StringStringEntryProto.newBuilder().setKey("offest").setValue("8")).build(),
                "initializer 'w': external_data key 'offest' is none of [location, offset, length, checksum] (onnx.proto; ONNX Runtime refuses it too)",
                ok.toBuilder().addExternalData(OnnxMl.StringStringEntryProto.newBuilder().setKey("offset").setValue("0")).build(),
                "initializer 'w': external_data gives 'offset' twice",
                ok.toBuilder().setRawData(com.google.protobuf.ByteString.copyFrom(new byte[4 * N * K])).build(),
                "initializer 'w': data_location is EXTERNAL but it holds values in raw_data too; a tensor keeps its values in one place (as ONNX's checker requires)",
                ok.toBuilder().addFloatData(1f).build(),
                "initializer 'w': data_location is EXTERNAL but it holds values in float_data too; a tensor keeps its values in one place (as ONNX's checker requires)");
        for (Map.Entry<OnnxMl.TensorProto, String> e : refused.entrySet()) {
            Path model = save(gemm(gemmModel().initializer(e.getKey()).raw("b", random(N, 1)), "w"));
            assertThatThrownBy(() -> OnnxImporter.load(model, Map.of())).isInstanceOf(OnnxException.class).hasMessage(model + ": " + e.getValue());
        }
        Path checksum = save(gemm(gemmModel().initializer(ok.toBuilder()
                .addExternalData(OnnxMl.StringStringEntryProto.newBuilder().setKey("checksum").setValue("0")).build()).raw("b", random(N, 1)), "w"));
        assertThat(OnnxImporter.load(checksum, Map.of()).isWeight("w")).isTrue();
    }

    /**
     * breakonnx: an external weight past 2 GiB failed import with "internal error:
     * IllegalArgumentException: Size exceeds Integer.MAX_VALUE" (FileChannel.map, reached when
     * import looked for a uniform fill). It now imports and plans; reading its values is refused
     * naming it. The 3 GiB file is sparse: it takes no disk space.
     */
    @Test
    void anExternalWeightPastTwoGibImportsAndPlansButItsValuesAreNotRead() throws Exception {
        long rows = 1L << 28;      // [2^28, 3] f32: 3 GiB
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(dir.resolve("big.bin").toFile(), "rw")) {
            f.setLength(rows * 3 * 4);
        }
        OnnxMl.TensorProto big = OnnxMl.TensorProto.newBuilder().setName("w").setDataType(OnnxDTypes.FLOAT).addDims(rows).addDims(3)
                .setDataLocation(OnnxMl.TensorProto.DataLocation.EXTERNAL)
                .addExternalData(OnnxMl.StringStringEntryProto.newBuilder().setKey("location").setValue("big.bin")).build();
        Path model = save(new TinyOnnx().input(OnnxDTypes.INT64, "i", 2L).output("y").initializer(big)
                .node("g", "Gather", List.of("w", "i"), List.of("y")));
        Graph g = OnnxImporter.load(model, Map.of());
        assertThat(g.tensor("w").bytes()).isEqualTo(rows * 12);
        assertThat(g.weightFill("w")).isNull();
        assertThat(ArenaPlanner.plan(g).arenaBytes()).isPositive();
        assertThatThrownBy(() -> g.weightValues("w").read()).isInstanceOf(OnnxException.class)
                .hasMessage(model + ": initializer 'w' holds 3,221,225,472 B of external data, more than the 2,147,483,647 B arenaplan reads as one buffer"
                        + " (a Java ByteBuffer), so its values cannot be read: plan the model, but it cannot run");
    }

    @Test
    void rawDataOfTheWrongLengthIsBadInput() throws Exception {
        OnnxMl.TensorProto bad = TinyOnnx.rawTensor("w", random(N * K - 1, 1), N, K);
        Path model = save(gemm(gemmModel().initializer(bad).raw("b", random(N, 1)), "w"));
        assertThatThrownBy(() -> OnnxImporter.load(model, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("initializer 'w'").hasMessageContaining("raw_data holds 56 B").hasMessageContaining("need 60 B");
    }

    @Test
    void anUnreadInputCanBeFedAndAConstantOutputIsCopiedOut() throws Exception {
        float[] c = random(4, 10);
        TinyOnnx m = new TinyOnnx().input("x", 2L).input("unused", 3L).raw("c", c).output("y").output("c")
                .node("r", "Relu", List.of("x"), List.of("y"));
        Graph g = OnnxImporter.load(save(m), Map.of());
        assertThat(g.inputs()).containsExactly("x", "unused");
        Map<String, float[]> out = run(g, Map.of("x", new float[]{-1, 2}, "unused", new float[]{7, 8, 9}));
        assertThat(out.get("y")).containsExactly(0, 2);
        assertThat(out.get("c")).containsExactly(c);
    }

    @Test
    void aConstantOutputThatNodesAlsoReadIsCopiedOutAndStillRead() throws Exception {
        // breaker20: refused ("a constant that nodes also read; ... (an Identity node)"), even with that Identity in the file,
        // since Identity(c) folds to the constant; the nodes now read the weight under another name and the output is its copy
        float[] c = random(4, 11);
        for (boolean throughIdentity : new boolean[]{false, true}) {
            String out = throughIdentity ? "k" : "c";
            TinyOnnx m = new TinyOnnx().input("x", 4L).raw("c", c).output(out).output("y");
            if (throughIdentity) m.node("id", "Identity", List.of("c"), List.of("k"));
            m.node("a", "Add", List.of("x", out), List.of("y"));
            Graph g = OnnxImporter.load(save(m), Map.of());
            Map<String, float[]> got = run(g, Map.of("x", new float[]{1, 2, 3, 4}));
            assertThat(got.get(out)).as(out).containsExactly(c);
            assertThat(got.get("y")).containsExactly(1 + c[0], 2 + c[1], 3 + c[2], 4 + c[3]);
        }
    }

    @Test
    void int64TypedFieldsKeepTheirEightBytes() {
        Graph g = ShapeInferenceTest.load(new TinyOnnx().input("x", 2L, 3L).ints("shape", 3, 2).output("y")
                .node("r", "Reshape", List.of("x", "shape"), List.of("y")));
        assertThat(g.tensor("y").shape()).containsExactly(3, 2);
        OnnxModel m = OnnxProtos.read(new TinyOnnx().ints("big", Long.MAX_VALUE, -5).input("x", 1L).output("x").bytes(), "t");
        ByteBuffer b = m.graph().initializers().get(0).source().read();
        assertThat(b.remaining()).isEqualTo(16);
        assertThat(b.getLong(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(b.getLong(8)).isEqualTo(-5);
    }

    @Test
    void aConstantsValueFloatsIsAOneDimensionalFloatWeight() {
        // Constant-12's value_floats (onnx.helper.make_node('Constant', [], ['c'], value_floats=[...])) was refused as unsupported
        Graph g = ShapeInferenceTest.load(new TinyOnnx().input("x", 3L).output("y")
                .node("k", "Constant", List.of(), List.of("c"), "value_floats", new double[]{1.5, -2, 0.1})
                .node("a", "Add", List.of("x", "c"), List.of("y")));
        assertThat(g.tensor("c").shape()).containsExactly(3);
        assertThat(run(g, Map.of("x", new float[]{1, 2, 3})).get("y")).containsExactly(1 + 1.5f, 2 - 2f, 3 + 0.1f);
    }

    static OnnxMl.TensorProto external(String name, String location, long offset, long length) {
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.FLOAT).addDims(N).addDims(K)
                .setDataLocation(OnnxMl.TensorProto.DataLocation.EXTERNAL)
                .addExternalData(OnnxMl.StringStringEntryProto.newBuilder().setKey("location").setValue(location))
                .addExternalData(OnnxMl.StringStringEntryProto.newBuilder().setKey("offset").setValue(Long.toString(offset)))
                .addExternalData(OnnxMl.StringStringEntryProto.newBuilder().setKey("length").setValue(Long.toString(length)))
                .build();
    }
}
