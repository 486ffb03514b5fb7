package org.arenaplan.cli;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.onnx.OnnxTensorFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code run} with int64, bool and int32 graph inputs and outputs: files of every type, read and written with their true element size. */
class TypedRunTest {
    @TempDir
    Path dir;

    /** ids (int64) -> Gather(emb) -> e (f32); ids == 0 -> pad (bool); ids -> Cast int32 -> small. */
    private static final String GRAPH = """
            {"format": "arenaplan-graph/1", "name": "typed",
             "tensors": [
               {"name": "ids", "dtype": "i64", "shape": [2, 3]}, {"name": "emb", "dtype": "f32", "shape": [5, 4]},
               {"name": "e", "dtype": "f32", "shape": [2, 3, 4]}, {"name": "zero", "dtype": "i64", "shape": [1]},
               {"name": "pad", "dtype": "bool", "shape": [2, 3]}, {"name": "small", "dtype": "i32", "shape": [2, 3]}],
             "inputs": [{"name": "ids"}, {"name": "emb"}],
             "weights": [{"name": "zero", "fill": 0}],
             "outputs": ["e", "pad", "small"],
             "ops": [
               {"name": "embed", "kind": "Gather", "inputs": ["emb", "ids"], "outputs": ["e"], "attrs": {"axis": 0}},
               {"name": "is_pad", "kind": "Equal", "inputs": ["ids", "zero"], "outputs": ["pad"]},
               {"name": "narrow", "kind": "Cast", "inputs": ["ids"], "outputs": ["small"], "attrs": {"to": 6}}]}
            """;

    @Test
    void int64InputsAndBoolAndInt32OutputsKeepTheirTypes() throws Exception {
        Path graph = dir.resolve("typed.json");
        Files.writeString(graph, GRAPH);
        Path ids = dir.resolve("ids.pb"), emb = dir.resolve("emb.pb"), out = dir.resolve("out");
        OnnxTensorFile.write(ids, "ids", TensorValue.ofLongs(DType.I64, new long[]{2, 3}, 4, 0, -1, 2, 2, 0));
        float[] table = new float[20];
        for (int i = 0; i < 20; i++) table[i] = i;
        OnnxTensorFile.write(emb, "emb", TensorValue.ofFloats(new long[]{5, 4}, table));
        Cli r = Cli.run("run", graph.toString(), "--device", "sim", "--iterations", "1", "--input", "ids=" + ids, "--input", "emb=" + emb,
                "--output", out.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("outputs equal across modes: yes");
        TensorValue pad = OnnxTensorFile.read(out.resolve("pad.pb")).value();
        assertThat(pad.dtype()).isEqualTo(DType.BOOL);
        assertThat(pad.bytes()).containsExactly(0, 1, 0, 0, 0, 1);
        TensorValue small = OnnxTensorFile.read(out.resolve("small.pb")).value();
        assertThat(small.dtype()).isEqualTo(DType.I32);
        assertThat(small.byteCount()).isEqualTo(24);
        assertThat(small.longs()).containsExactly(4, 0, -1, 2, 2, 0);
        float[] e = OnnxTensorFile.read(out.resolve("e.pb")).value().floats();
        assertThat(e).hasSize(24);
        assertThat(java.util.Arrays.copyOfRange(e, 8, 12)).containsExactly(16, 17, 18, 19);   // id -1: the last row

        Path f32 = dir.resolve("ids_f32.pb");
        OnnxTensorFile.write(f32, "ids", TensorValue.ofFloats(new long[]{2, 3}, 1, 2, 3, 4, 5, 6));
        Cli wrongType = Cli.run("run", graph.toString(), "--device", "sim", "--input", "ids=" + f32);
        assertThat(wrongType.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(wrongType.err()).contains("--input ids=" + f32 + ": holds f32 values but input 'ids' is i64");
        Path shortIds = dir.resolve("ids_short.pb");
        OnnxTensorFile.write(shortIds, "ids", TensorValue.ofLongs(DType.I64, new long[]{3}, 1, 2, 3));
        Cli wrongSize = Cli.run("run", graph.toString(), "--device", "sim", "--input", "ids=" + shortIds);
        assertThat(wrongSize.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(wrongSize.err()).contains("--input ids=" + shortIds + ": holds 3 values [3] but input 'ids' has 6 [2, 3]");
    }
}
