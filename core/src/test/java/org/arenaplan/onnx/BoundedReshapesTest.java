package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.TransformerOpsTest.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reshapes that merge or split the bounded axis ({@code ir.BoundedFlows#RESHAPE}, {@code onnx.BoundedRewrites#withReshapeExtent}):
 * torch's {@code x[m].flatten()}, {@code x[m].argmax()}, {@code x[m].norm()} of selected rows r [5, 3] flatten them first,
 * a Reshape of [n, 3] to [-1] (the TorchScript exporter's shape {@code Concat(Shape(x[m])[0:0], [-1])}, the dynamo
 * exporter's constant [-1] with allowzero 1), whose actual extent is 3 n; {@code x[m].reshape(-1, 1)} and the reverse,
 * {@code x[m].view(-1).view(-1, 3)}. The output stays a view with a runtime extent of its own, which {@code reshape_extent}
 * writes, so its readers see an ordinary bounded tensor. Some, none and all rows selected, in every executor mode against
 * ONNX Runtime. Refused before ("splitting or merging the bounded axis 0").
 */
class BoundedReshapesTest {
    @TempDir
    Path dir;

    private static final TensorValue R = TensorValue.ofFloats(new long[]{5, 3}, -1, -2, -3, 4, 5, 6, -7, 8, -9, 1, 1, 1, -4, -5, -6);
    private static final TensorValue RI = TensorValue.ofLongs(DType.I64, new long[]{5, 3}, -1, -2, -3, 4, 5, 6, -7, 8, -9, 1, 1, 1, -4, -5, -6);

    private static TensorValue mask(long... bits) {
        return TensorValue.ofLongs(DType.BOOL, new long[]{bits.length}, bits);
    }

    /**
     * rows = r[s] [n, 3] (f32) and rowsi = ri[s] (int64); flat = rows flattened as the TorchScript exporter writes it, flati
     * as the dynamo exporter does; their max, product and norm (int64 max and min of none: ONNX Runtime 1.22, this oracle, gives 0,
     * 1.30 and arenaplan -2^63 and 2^63 - 1, BoundedReductionsTest), a column [3 n, 1], flat back to rows [n, 3] and its column sums.
     */
    private static TinyOnnx flattened() {
        return new TinyOnnx().opset(17).input("r", 5L, 3L).input(OnnxDTypes.INT64, "ri", 5L, 3L).input(OnnxDTypes.BOOL, "s", 5L)
                .ints("zero", 0).ints("minus1", -1).ints("col", -1, 1).ints("row3", -1, 3)
                .select("", "r", "s", "rows").node("gni", "GatherND", List.of("ri", "t"), List.of("rowsi"))
                .node("sh", "Shape", List.of("rows"), List.of("shape")).node("lead", "Slice", List.of("shape", "zero", "zero", "zero"), List.of("none"))
                .node("cat", "Concat", List.of("none", "minus1"), List.of("flatshape"), "axis", 0L)
                .node("flat", "Reshape", List.of("rows", "flatshape"), List.of("flat"))
                .node("flati", "Reshape", List.of("rowsi", "minus1"), List.of("flati"), "allowzero", 1L)
                .node("max", "ReduceMax", List.of("flat"), List.of("max"), "keepdims", 0L)
                .node("prodi", "ReduceProd", List.of("flati"), List.of("prodi"), "keepdims", 0L)
                .node("norm", "ReduceL2", List.of("flat"), List.of("norm"), "keepdims", 0L)
                .node("col", "Reshape", List.of("rows", "col"), List.of("column"))
                .node("back", "Reshape", List.of("flati", "row3"), List.of("back"), "allowzero", 1L)
                .node("sum0", "ReduceSum", List.of("back", "zero"), List.of("sum0"), "keepdims", 0L)
                .outputOfType(OnnxDTypes.FLOAT, "flat").outputOfType(OnnxDTypes.INT64, "flati").outputOfType(OnnxDTypes.FLOAT, "max")
                .outputOfType(OnnxDTypes.INT64, "prodi").outputOfType(OnnxDTypes.FLOAT, "norm").outputOfType(OnnxDTypes.FLOAT, "column")
                .outputOfType(OnnxDTypes.INT64, "back").outputOfType(OnnxDTypes.INT64, "sum0");
    }

    /** x[m].argmax() of rows: ArgMax of the flattened selection. */
    private static TinyOnnx argMax() {
        return new TinyOnnx().opset(18).input("r", 5L, 3L).input(OnnxDTypes.BOOL, "s", 5L).ints("minus1", -1).select("", "r", "s", "rows")
                .node("flat", "Reshape", List.of("rows", "minus1"), List.of("flat"), "allowzero", 1L)
                .node("am", "ArgMax", List.of("flat"), List.of("am"), "keepdims", 0L).outputOfType(OnnxDTypes.INT64, "am");
    }

    @Test
    void flattenedRowsAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        // some: rows 0, 2, 4, negative mostly: the tail's zeros would be the max
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, flattened(), feed("r", R, "ri", RI, "s", mask(1, 0, 1, 0, 1)), 1e-6, 1e-6);
        assertThat(got.get("flat").floats()).containsExactly(-1, -2, -3, -7, 8, -9, -4, -5, -6);
        assertThat(got.get("max").floats()).containsExactly(8f);
        assertThat(got.get("prodi").longs()).containsExactly(362880);   // the tail's zeros would make it 0
        assertThat(got.get("column").shape()).containsExactly(9, 1);
        assertThat(got.get("back").shape()).containsExactly(3, 3);
        assertThat(got.get("sum0").longs()).containsExactly(-12, 1, -18);
        // none: empty, max -inf, norm 0
        got = OnnxOpRuns.agreeInEveryMode(dir, flattened(), feed("r", R, "ri", RI, "s", mask(0, 0, 0, 0, 0)), 1e-6, 1e-6);
        assertThat(got.get("flat").shape()).containsExactly(0);
        assertThat(got.get("max").floats()).containsExactly(Float.NEGATIVE_INFINITY);
        assertThat(got.get("back").shape()).containsExactly(0, 3);
        // all
        got = OnnxOpRuns.agreeInEveryMode(dir, flattened(), feed("r", R, "ri", RI, "s", mask(1, 1, 1, 1, 1)), 1e-6, 1e-6);
        assertThat(got.get("flati").shape()).containsExactly(15);
    }

    @Test
    void anArgMaxOfFlattenedRowsAgreesAndStopsOverNoneAsOnnxRuntimeFailsIt() throws Exception {
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, argMax(), feed("r", R, "s", mask(1, 0, 1, 0, 1)), 0, 0);
        assertThat(got.get("am").longs()).containsExactly(4);   // 8, in row 2, the second selected
        OnnxOpRuns.agreeInEveryMode(dir, argMax(), feed("r", R, "s", mask(1, 1, 1, 1, 1)), 0, 0);
        Map<String, TensorValue> none = feed("r", R, "s", mask(0, 0, 0, 0, 0));
        assertThatThrownBy(() -> OrtOracle.run(argMax().bytes(), none)).hasMessageContaining("ArgMax");
        OnnxOpRuns.stopsInEveryMode(dir, argMax(), none, "'am': ArgMax: its input holds no element along the reduced axis in this run "
                + "(the runtime extent of its bounded input is 0); there is no index to return, and ONNX Runtime fails such a run");
    }

    @Test
    void aFlatSelectionReshapedToRowsItDoesNotFillStopsAsOnnxRuntimeFailsIt() throws Exception {
        // x[x > 0] [n] to [-1, 3]: n = 3 and 6 fill rows of 3, n = 4 does not
        TinyOnnx rows = new TinyOnnx().opset(17).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).ints("row3", -1, 3).select("", "x", "m", "sel")
                .node("r", "Reshape", List.of("sel", "row3"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y");
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 1, -2, 3, -4, 5, 6);
        assertThat(OnnxOpRuns.agreeInEveryMode(dir, rows, feed("x", x, "m", mask(1, 0, 1, 0, 1, 0)), 0, 0).get("y").shape()).containsExactly(1, 3);
        OnnxOpRuns.agreeInEveryMode(dir, rows, feed("x", x, "m", mask(1, 1, 1, 1, 1, 1)), 0, 0);
        Map<String, TensorValue> four = feed("x", x, "m", mask(1, 1, 1, 1, 0, 0));
        assertThatThrownBy(() -> OrtOracle.run(rows.bytes(), four)).hasMessageContaining("reshape");
        OnnxOpRuns.stopsInEveryMode(dir, rows, four, "'r': Reshape: its input holds 4 rows of 1 elements in this run (the runtime extent of its bounded input), "
                + "4 elements, which do not fill rows of 3; ONNX Runtime fails such a run");
    }

    @Test
    void aReshapeMergingABoundedAxisWithWiderAxesBeforeItStaysRefused() throws Exception {
        // NonZero's [2, n] is bounded along axis 1, with 2 rows before it: its actual elements are not its leading ones
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18).input("x", 2L, 3L).ints("minus1", -1).node("nz", "NonZero", List.of("x"), List.of("y"))
                        .node("r", "Reshape", List.of("y", "minus1"), List.of("z")).outputOfType(OnnxDTypes.INT64, "z"),
                "op 'r' (Reshape, position 1) reads 'y', a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs; "
                        + "Reshape reads it only where its kernels leave the result compact, and here it reshapes [2, 6] to [12], merging or splitting the bounded axis 1, "
                        + "which has axes of more than one element before it, so its actual elements are not the leading ones");
    }
}
