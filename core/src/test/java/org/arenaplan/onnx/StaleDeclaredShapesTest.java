package org.arenaplan.onnx;

import org.arenaplan.exec.AllClose;
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
 * A model with symbolic input dims may declare a graph output or value_info with the extents of
 * the shapes it was exported at (PyTorch's dynamo exporter declares a bidirectional LSTM's output
 * [s77, 16, 10] for an input [s77, s27]): run at other extents, the declared number is stale, and
 * ONNX Runtime runs the model (warning that the shapes differ). arenaplan runs it too, against
 * ONNX Runtime; a declared symbol that disagrees, and any mismatch in a model without symbolic
 * input dims, is still refused.
 */
class StaleDeclaredShapesTest {
    @TempDir
    Path dir;

    /** x [batch, seq, 4] @ w [4, 3] -> y, declared [batch, 16, 3] (the extents of the export), and its value_info likewise. */
    private static TinyOnnx exportedAtSixteen(Object declaredSeq) {
        return new TinyOnnx().opset(17).input("x", "batch", "seq", 4L).floats("w", 0.5f, 4, 3).output("y", "batch", declaredSeq, 3L)
                .valueInfo(OnnxDTypes.FLOAT, "h", "batch", declaredSeq, 3L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("h"))
                .node("act", "Tanh", List.of("h"), List.of("y"));
    }

    @Test
    void aStaleDeclaredExtentOfADynamicModelRunsAsOnnxRuntimeRunsIt() throws Exception {
        TinyOnnx m = exportedAtSixteen(16L);
        TensorValue x = TensorValue.ofFloats(new long[] {2, 24, 4}, OnnxRuntimeDifferentialTest.random(2 * 24 * 4, 5));
        Map<String, TensorValue> want = OrtOracle.run(m.bytes(), Map.of("x", x));
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, m, Map.of("batch", 2L, "seq", 24L), Map.of("x", x));
        assertThat(got.get("y").shape()).containsExactly(2, 24, 3).isEqualTo(want.get("y").shape());
        AllClose c = AllClose.compare(got.get("y"), want.get("y"), 1e-5, 1e-6);
        assertThat(c.ok()).as(c.describe(want.get("y").shape())).isTrue();
    }

    @Test
    void aDeclaredSymbolOrAStaticModelMustStillAgree() throws Exception {
        Path sym = dir.resolve("sym.onnx");
        Files.write(sym, exportedAtSixteen("batch").bytes());   // axis 1 declared 'batch', a symbol the inputs give: not stale, wrong
        assertThatThrownBy(() -> OnnxImporter.load(sym, Map.of("batch", 2L, "seq", 24L))).isInstanceOf(OnnxException.class)
                .hasMessageContaining("graph output 'y' is declared [2, 2, 3] but infers to [2, 24, 3]");
        Path fixed = dir.resolve("fixed.onnx");
        Files.write(fixed, new TinyOnnx().input("x", 2L, 24L, 4L).floats("w", 0.5f, 4, 3).output("y", 2L, 16L, 3L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(fixed, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("graph output 'y' is declared [2, 16, 3] but infers to [2, 24, 3]");
    }

    /**
     * A static model whose graph output (and value_info) is declared with as many elements as the
     * nodes compute, in another shape: TorchScript's {@code scatter_reduce(..., "amax")} export at
     * opsets 16/17 declares [15] for [3, 5]. ONNX Runtime warns ("Falling back to lenient merge")
     * and gives [3, 5]; so does arenaplan, in every executor mode. Refused before ("is declared [15]
     * but infers to [3, 5]"); another element count is still refused (above).
     */
    @Test
    void aDeclaredShapeOfTheSameElementsIsStaleAsOnnxRuntimeRunsIt() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(16).input("x", 3L, 5L).output("y", 15L).valueInfo(OnnxDTypes.FLOAT, "h", 5L, 3L)
                .node("t", "Tanh", List.of("x"), List.of("h")).node("n", "Neg", List.of("h"), List.of("y"));
        TensorValue x = TensorValue.ofFloats(new long[] {3, 5}, OnnxRuntimeDifferentialTest.random(15, 6));
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, m, Map.of("x", x), 1e-6, 1e-6);
        assertThat(got.get("y").shape()).containsExactly(3, 5);
    }
}
