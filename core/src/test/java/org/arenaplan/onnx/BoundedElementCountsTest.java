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

/**
 * The element count of a tensor computed from a data-dependent output, ReduceProd of its whole shape ({@link ElementCounts}):
 * torch's {@code x[m].std()} and {@code .var()} as the TorchScript exporter writes them ({@code ReduceProd(Shape(x[m]))},
 * cast to float, times the mean of squares, over the count less one) and the dynamo exporter's
 * {@code ReduceProd(Gather(Shape(rows), [0, 1]))}, with keepdims, and a product with a constant extent, over x [6] and rows
 * of r [5, 3] with some, one, none and all selected, in every executor mode against ONNX Runtime: the count is the actual one,
 * computed in the run. Refused before (the Shape evaluated at import from the bound, read as a constant by the ReduceProd).
 */
class BoundedElementCountsTest {
    @TempDir
    Path dir;

    /** std of sel = x[m] [n] as the TorchScript exporter writes it; the counts of rows = r[s] [n, 3] as the dynamo exporter does, and times 2. */
    private static TinyOnnx counts() {
        return new TinyOnnx().opset(18).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).input("r", 5L, 3L).input(OnnxDTypes.BOOL, "s", 5L)
                .floats("one", 1f).ints("all", 0, 1).ints("two", 2).ints("ax0", 0)
                .select("", "x", "m", "sel").select("2", "r", "s", "rows")
                .node("mean", "ReduceMean", List.of("sel"), List.of("mean"), "keepdims", 0L)
                .node("dev", "Sub", List.of("sel", "mean"), List.of("dev"))
                .node("sq", "Mul", List.of("dev", "dev"), List.of("sq"))
                .node("msq", "ReduceMean", List.of("sq"), List.of("msq"), "keepdims", 0L)
                .node("shape", "Shape", List.of("sel"), List.of("shape"))
                .node("count", "ReduceProd", List.of("shape"), List.of("count"), "keepdims", 0L)
                .node("countf", "Cast", List.of("count"), List.of("countf"), "to", 1L)
                .node("sum", "Mul", List.of("msq", "countf"), List.of("sumsq"))
                .node("less", "Sub", List.of("countf", "one"), List.of("less"))
                .node("var", "Div", List.of("sumsq", "less"), List.of("var"))
                .node("std", "Sqrt", List.of("var"), List.of("std"))
                .node("rshape", "Shape", List.of("rows"), List.of("rshape"))
                .node("g", "Gather", List.of("rshape", "all"), List.of("g"), "axis", 0L)
                .node("rcount", "ReduceProd", List.of("g"), List.of("rcount"))                                 // keepdims 1: [1]
                .node("cat", "Concat", List.of("two", "rshape"), List.of("cat"), "axis", 0L)
                .node("rcount2", "ReduceProd", List.of("cat", "ax0"), List.of("rcount2"), "keepdims", 0L)     // 2 n 3
                .outputOfType(OnnxDTypes.FLOAT, "std").outputOfType(OnnxDTypes.INT64, "count")
                .outputOfType(OnnxDTypes.INT64, "rcount").outputOfType(OnnxDTypes.INT64, "rcount2");
    }

    private static final TensorValue X = TensorValue.ofFloats(new long[]{6}, -2, 5, -3, -0.5f, 4, -1);
    private static final TensorValue R = TensorValue.ofFloats(new long[]{5, 3}, -1, -2, -3, 4, 5, 6, -7, 8, -9, 1, 1, 1, -4, -5, -6);

    private static TensorValue mask(long... bits) {
        return TensorValue.ofLongs(DType.BOOL, new long[]{bits.length}, bits);
    }

    @Test
    void countsOfSelectedElementsAndRowsAreTheRunsAndAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        // some: x[m] = -2, -3, -0.5, -1 (4 of 6: the bound's count would give another std), rows 0, 2, 4
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, counts(), feed("x", X, "m", mask(1, 0, 1, 1, 0, 1), "r", R, "s", mask(1, 0, 1, 0, 1)), 1e-6, 1e-6);
        assertThat(got.get("count").longs()).containsExactly(4);
        assertThat(got.get("std").floats()[0]).isCloseTo((float) Math.sqrt(3.6875 / 3), org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(got.get("rcount").shape()).containsExactly(1);
        assertThat(got.get("rcount").longs()).containsExactly(9);
        assertThat(got.get("rcount2").longs()).containsExactly(18);
        // none: count 0 (mean 0, 0 / -1 = -0 as ONNX Runtime), all
        got = OnnxOpRuns.agreeInEveryMode(dir, counts(), feed("x", X, "m", mask(0, 0, 0, 0, 0, 0), "r", R, "s", mask(0, 0, 0, 0, 0)), 0, 0);
        assertThat(got.get("count").longs()).containsExactly(0);
        assertThat(got.get("rcount2").longs()).containsExactly(0);
        got = OnnxOpRuns.agreeInEveryMode(dir, counts(), feed("x", X, "m", mask(0, 0, 1, 0, 0, 0), "r", R, "s", mask(0, 0, 1, 0, 0)), 0, 0);
        assertThat(got.get("std").floats()[0]).isNaN();   // one element: 0 / 0, as ONNX Runtime
        assertThat(got.get("rcount").longs()).containsExactly(3);
        got = OnnxOpRuns.agreeInEveryMode(dir, counts(), feed("x", X, "m", mask(1, 1, 1, 1, 1, 1), "r", R, "s", mask(1, 1, 1, 1, 1)), 1e-6, 1e-6);
        assertThat(got.get("rcount").longs()).containsExactly(15);
    }

    @Test
    void aProductOfPartOfTheShapeStaysRefused() throws Exception {
        // the rows' count alone (axis 0 of [n, 3]) is not the whole shape's product: read as the constant it is at the bound
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18).input("r", 5L, 3L).input(OnnxDTypes.BOOL, "s", 5L).ints("ax", 0).select("2", "r", "s", "rows")
                        .node("rshape", "Shape", List.of("rows"), List.of("rshape"))
                        .node("g", "Gather", List.of("rshape", "ax"), List.of("g"), "axis", 0L)
                        .node("n", "ReduceProd", List.of("g"), List.of("n"), "keepdims", 0L).outputOfType(OnnxDTypes.INT64, "n"),
                "its axis 0 of 'rows' is the bounded one, and node 'n' (ReduceProd) reads the value as a constant");
    }
}
