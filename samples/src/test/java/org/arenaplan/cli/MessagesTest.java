package org.arenaplan.cli;

import org.arenaplan.cuda.Cuda;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Every message says what went wrong in the user's terms: no decoder, parser or protobuf internals. */
class MessagesTest {
    @TempDir
    Path dir;

    private Path file(String name, byte[] bytes) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static void oneLine(Cli r, int code, String... parts) {
        assertThat(r.code()).as(r.toString()).isEqualTo(code);
        assertThat(r.err().strip()).as(r.toString()).doesNotContain("\n").contains(parts)
                .doesNotContain("Input length", "Exception", "code 98", "(code", "wire type", "Unexpected");
    }

    @Test
    void invalidUtf8NamesTheLineAndTheByte() throws Exception {
        Path csv = file("bad.csv", new byte[]{'i', 'd', ',', 'l', 'o', 'w', 'e', 'r', ',', 'u', 'p', 'p', 'e', 'r', ',', 's', 'i', 'z', 'e', '\n', 'x', (byte) 0xff, ',', '0', ',', '1', ',', '4', '\n'});
        oneLine(Cli.run("plan", csv.toString()), 2, "bad.csv: line 2 is not UTF-8 text (byte 0xFF at byte offset 21)");
        Path json = file("bad.json", new byte[]{'{', '"', (byte) 0xc3, '"'});
        oneLine(Cli.run("plan", json.toString()), 2, "bad.json: line 1 is not UTF-8 text (byte 0xC3");
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheFirstName() throws Exception {
        byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
        Path csv = file("bom.csv", concat(bom, "id,lower,upper,size\nx,0,1,4\n".getBytes()));
        Cli r = Cli.run("plan", csv.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        Path json = file("bom.json", concat(bom, "{\"format\": \"arenaplan-graph/1\", \"name\": \"g\", \"tensors\": [], \"ops\": [], \"outputs\": []}".getBytes()));
        assertThat(Cli.run("plan", json.toString()).err()).doesNotContain("0xfeff").doesNotContain("malformed");
    }

    @Test
    void jsonSyntaxErrorsSayWhatJsonNeeds() throws Exception {
        oneLine(Cli.run("plan", file("a.json", "{\"tensors\": [}".getBytes()).toString()), 2, "a.json:1:14: malformed JSON: '}' where ']' should close the array");
        oneLine(Cli.run("plan", file("b.json", "{\"tensors\": [{\"name\": 1".getBytes()).toString()), 2, "the file ends before the JSON is complete");
        oneLine(Cli.run("plan", file("c.json", "{tensors: []}".getBytes()).toString()), 2, "expected a field name in double quotes, found 't'");
        oneLine(Cli.run("plan", file("d.json", "{\"a\": nope}".getBytes()).toString()), 2, "unknown word 'nope'");
    }

    @Test
    void aFileThatIsNotOnnxSaysSo() throws Exception {
        oneLine(Cli.run("plan", file("m.onnx", "garbage".getBytes()).toString()), 2, "m.onnx: not an ONNX model");
    }

    @Test
    void oneModeDoesNotClaimTheModesAgree() {
        Cli one = Cli.run("run", "--model", "mlp", "--mode", "planned", "--device", "sim", "--iterations", "2");
        assertThat(one.code()).as(one.toString()).isZero();
        assertThat(one.out()).doesNotContain("across modes: yes").contains("outputs equal across iterations: yes (bit-identical; one mode, so nothing compared across modes)");
        Cli single = Cli.run("run", "--model", "mlp", "--mode", "planned", "--device", "sim", "--iterations", "1", "--warmup", "0");
        assertThat(single.out()).contains("outputs: one mode, one iteration: nothing compared");
        Cli warm = Cli.run("run", "--model", "mlp", "--mode", "planned", "--device", "sim", "--iterations", "1");   // the warm-up's outputs are compared too
        assertThat(warm.out()).contains("outputs equal across iterations: yes");
    }

    @Test
    void benchWithoutArgumentsRunsWhereverItIs() {
        Assumptions.assumeFalse(Cuda.isAvailable(), "this machine has CUDA; the fallback is for machines without");
        Cli r = Cli.run("bench", "--iterations", "1", "--warmup", "0");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("bench: auto picked the simulator (cuda unavailable: ").contains("mlp");
        assertThat(Cli.run("bench", "--device", "cuda").code()).isEqualTo(3);
    }

    @Test
    void benchSearchOnAnEmptyFolderIsNotASuccess() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Cli r = Cli.run("bench", "search", "--dir", empty.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).doesNotContain("met the target");
        assertThat(r.err()).contains("no problems in it (*.1048576.csv)");
    }

    @Test
    void theDeviceLineIsShortAndDoctorHasTheDetails() {
        Assumptions.assumeFalse(Cuda.isAvailable(), "this machine has CUDA");
        Cli r = Cli.run("run", "--model", "mlp", "--iterations", "1");
        String first = r.out().lines().findFirst().orElseThrow();
        assertThat(first).startsWith("device: simulated device").contains("'arenaplan doctor' explains").hasSizeLessThan(200);
    }

    @Test
    void runChecksItsPathsBeforeWork() {
        oneLine(Cli.run("run", "--model", "mlp", "--expect", dir.resolve("none.pb").toString()), 2, "--expect", "none.pb");
        oneLine(Cli.run("run", "--model", "mlp", "--output", dir.resolve("no/dir/y.pb").toString()), 2, "--output", "does not exist");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** {@code Add(x, c)} with {@code c} external data at {@code location}: a model must not read files outside its folder. */
    private Path addExternal(String location) throws Exception {
        ai.onnx.proto.OnnxMl.TypeProto.Tensor.Builder t = ai.onnx.proto.OnnxMl.TypeProto.Tensor.newBuilder().setElemType(1)
                .setShape(ai.onnx.proto.OnnxMl.TensorShapeProto.newBuilder().addDim(ai.onnx.proto.OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(4)));
        ai.onnx.proto.OnnxMl.ValueInfoProto x = ai.onnx.proto.OnnxMl.ValueInfoProto.newBuilder().setName("x").setType(ai.onnx.proto.OnnxMl.TypeProto.newBuilder().setTensorType(t)).build();
        ai.onnx.proto.OnnxMl.TensorProto c = ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("c").setDataType(1).addDims(4)
                .setDataLocation(ai.onnx.proto.OnnxMl.TensorProto.DataLocation.EXTERNAL)
                .addExternalData(ai.onnx.proto.OnnxMl.StringStringEntryProto.newBuilder().setKey("location").setValue(location)).build();
        ai.onnx.proto.OnnxMl.GraphProto g = ai.onnx.proto.OnnxMl.GraphProto.newBuilder().setName("add").addInput(x).addInitializer(c)
                .addOutput(ai.onnx.proto.OnnxMl.ValueInfoProto.newBuilder().setName("y"))
                .addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setName("add").setOpType("Add").addInput("x").addInput("c").addOutput("y")).build();
        return file("m.onnx", ai.onnx.proto.OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
    }

    @Test
    void externalDataOutsideTheModelsFolderIsNotRead() throws Exception {
        Path secret = Files.write(Files.createTempFile("arenaplan-secret", ".bin"), new byte[64]);
        try {
            oneLine(Cli.run("run", addExternal(secret.toString()).toString(), "--mode", "planned", "--device", "sim"), 2,
                    "m.onnx: initializer 'c': external_data location '" + secret + "' is absolute");
            oneLine(Cli.run("plan", addExternal("../" + secret.getFileName()).toString()), 2, "initializer 'c': external_data location '../", "has a '..' component");
        } finally {
            Files.delete(secret);
        }
        Files.write(dir.resolve("c.bin"), new byte[16]);
        Cli ok = Cli.run("run", addExternal("c.bin").toString(), "--mode", "planned", "--device", "sim", "--iterations", "1");
        assertThat(ok.code()).as(ok.toString()).isZero();
    }

    @Test
    void aFolderGivenAsAnInputFileIsNamedSo() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("inputs"));
        oneLine(Cli.run("run", "--model", "mlp", "--input", "x=" + folder, "--device", "sim"), 2, "--input x=" + folder + ": a folder, not a file");
        oneLine(Cli.run("run", "--model", "mlp", "--input", folder.toString(), "--device", "sim"), 2, "--input " + folder + ": a folder, not a file");
        oneLine(Cli.run("run", "--model", "mlp", "--input", "x=", "--device", "sim"), 2, "--input x=: no file after '='; write --input x=FILE.pb");
        Path model = Files.createDirectory(dir.resolve("d.onnx"));
        oneLine(Cli.run("plan", model.toString()), 2, "MODEL.onnx " + model + ": a folder, not a file");
    }

    @Test
    void streamsThatTheOpsDoNotFillAreNotSilentlyDropped() {
        Cli run = Cli.run("run", "--model", "unet", "--streams", "3", "--mode", "planned", "--device", "sim", "--iterations", "1");
        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out()).contains("graph unet, 1 stream(s)")
                .contains("--streams 3: the ops run on 1 of the 3 streams: each independent branch gets a stream, and this graph's ops form 1 chain(s) of dependent ops");
        assertThat(Cli.run("plan", "--model", "unet", "--streams", "3").out()).contains("--streams 3: the ops run on 1 of the 3 streams");
        assertThat(Cli.run("plan", "--model", "unet", "--streams", "1").out()).doesNotContain("--streams 1:");
    }

    @Test
    void runJsonRecordsWhetherTf32WasInEffect() throws Exception {
        Path json = dir.resolve("r.json");
        Cli r = Cli.run("run", "--model", "mlp", "--device", "sim", "--mode", "planned", "--iterations", "1", "--tf32", "--json", json.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        assertThat(root.get("tf32").isBoolean()).isTrue();
        assertThat(root.get("tf32").booleanValue()).as("the simulator ignores --tf32").isFalse();
        assertThat(r.out()).contains("--tf32: ignored on the simulator");
        org.arenaplan.exec.RunReport.Report on = new org.arenaplan.exec.RunReport.Report("g", "cuda", "asked", 1, 1, java.util.List.of(), true, null, java.util.Map.of(), false).withTf32(true);
        org.arenaplan.exec.RunReport.writeJson(on, json);
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile()).get("tf32").booleanValue()).isTrue();
    }
}
