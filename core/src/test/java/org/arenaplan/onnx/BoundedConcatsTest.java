package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concat of masked selections ({@code ir.BoundedFlows#CONCAT}, kernel concat_bounded), against ONNX Runtime in every
 * executor mode, with some, none and all selected: {@code torch.cat([x[m], x[~m]])} (inputs bounded by two runtime
 * extents) and {@code torch.cat([x[m], y])} (a bounded input and one known before the run), as both torch.onnx
 * exporters write them, over x [6] (f32) and rows of x [5, 3] (int64). The output holds the actual rows of each
 * input after those of the inputs before it, its count their sum. Refused before ("op 'cat' (Concat, position 7)
 * reads 'a' and 'b', bounded by the runtime extents of op 'nz' and op 'nzn', whose actual extents may differ";
 * with y: "Concat does not read a bounded tensor").
 */
class BoundedConcatsTest {
    @TempDir
    Path dir;

    private static final TensorValue X6 = TensorValue.ofFloats(new long[]{6}, 3, -1, 4.5f, 4, -5, 9);
    private static final TensorValue X53 = TensorValue.ofLongs(DType.I64, new long[]{5, 3}, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15);

    private static TensorValue mask(long... bits) {
        return TensorValue.ofLongs(DType.BOOL, new long[]{bits.length}, bits);
    }

    /** x[mask] as the dynamo exporter writes it (opset 18): NonZero, Transpose, Squeeze, Max, Shape, Expand, Unsqueeze, GatherND. */
    private static TinyOnnx dynamoSelect(TinyOnnx t, String tag, String x, String mask, String out) {
        return t.node("nz" + tag, "NonZero", List.of(mask), List.of("i" + tag))
                .node("tr" + tag, "Transpose", List.of("i" + tag), List.of("t" + tag), "perm", new long[]{1, 0})
                .node("sq" + tag, "Squeeze", List.of("t" + tag, "one"), List.of("q" + tag))
                .node("mx" + tag, "Max", List.of("q" + tag), List.of("top" + tag))
                .node("sh" + tag, "Shape", List.of("top" + tag), List.of("s" + tag))
                .node("ex" + tag, "Expand", List.of("q" + tag, "s" + tag), List.of("e" + tag))
                .node("us" + tag, "Unsqueeze", List.of("e" + tag, "minus1"), List.of("u" + tag))
                .node("gn" + tag, "GatherND", List.of(x, "u" + tag), List.of(out));
    }

    /**
     * {@code torch.cat([x[m], x[~m]])} (output c) by the TorchScript exporter (opset 17) or the dynamo exporter (18),
     * and {@code torch.cat([x[m], y])} (output d); x of {@code xShape} and {@code elemType}, y of x's shape.
     */
    private static TinyOnnx cats(boolean dynamo, int elemType, long... xShape) {
        Object[] dims = java.util.Arrays.stream(xShape).boxed().toArray();
        TinyOnnx t = new TinyOnnx().opset(dynamo ? 18 : 17).input(elemType, "x", dims).input(OnnxDTypes.BOOL, "m", xShape[0]).input(elemType, "y", dims)
                .node("not", "Not", List.of("m"), List.of("nm"));
        t = dynamo ? dynamoSelect(dynamoSelect(t.ints("one", 1).ints("minus1", -1), "", "x", "m", "a"), "n", "x", "nm", "b") : t.select("", "x", "m", "a").select("n", "x", "nm", "b");
        return t.node("cat", "Concat", List.of("a", "b"), List.of("c"), "axis", 0L).node("cat2", "Concat", List.of("a", "y"), List.of("d"), "axis", 0L)
                .outputOfType(elemType, "c").outputOfType(elemType, "d");
    }

    /**
     * Both forms over x [6] f32 and rows of x [5, 3] int64, some, none and all selected: c holds every element
     * (those selected first, in order), d the selected ones then y.
     */
    @Test
    void aCatOfSelectionsAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TensorValue y6 = TensorValue.ofFloats(new long[]{6}, 10, 20, 30, 40, 50, 60);
        TensorValue y53 = TensorValue.ofLongs(DType.I64, new long[]{5, 3}, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114);
        for (boolean dynamo : new boolean[]{false, true}) {
            Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, cats(dynamo, OnnxDTypes.FLOAT, 6), Map.of("x", X6, "m", mask(0, 1, 1, 0, 0, 1), "y", y6), 0, 0);
            assertThat(got.get("c").floats()).containsExactly(-1, 4.5f, 9, 3, 4, -5);
            assertThat(got.get("d").floats()).containsExactly(-1, 4.5f, 9, 10, 20, 30, 40, 50, 60);
            got = OnnxOpRuns.agreeInEveryMode(dir, cats(dynamo, OnnxDTypes.FLOAT, 6), Map.of("x", X6, "m", mask(0, 0, 0, 0, 0, 0), "y", y6), 0, 0);
            assertThat(got.get("d").shape()).containsExactly(6);
            OnnxOpRuns.agreeInEveryMode(dir, cats(dynamo, OnnxDTypes.FLOAT, 6), Map.of("x", X6, "m", mask(1, 1, 1, 1, 1, 1), "y", y6), 0, 0);
            for (TensorValue m : List.of(mask(1, 0, 0, 1, 1), mask(0, 0, 0, 0, 0), mask(1, 1, 1, 1, 1))) {
                got = OnnxOpRuns.agreeInEveryMode(dir, cats(dynamo, OnnxDTypes.INT64, 5, 3), Map.of("x", X53, "m", m, "y", y53), 0, 0);
                assertThat(got.get("c").shape()).containsExactly(5, 3);
            }
        }
    }

    /**
     * {@code torch.cat([y, x[m], x[m] * 2], 0)} (three inputs, the bounded ones after one known before the run) and
     * {@code torch.cat([x[m], x[m] * 2], 1)} of selected rows (along the other axis: each row from both, bounded by the
     * one extent): x [5, 3] f32, some, none and all rows.
     */
    @Test
    void aCatOfThreeInputsAndOneAlongTheOtherAxisAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx t = new TinyOnnx().opset(17).input("x", 5L, 3L).input(OnnxDTypes.BOOL, "m", 5L).input("y", 2L, 3L).floats("two", 2f)
                .select("", "x", "m", "a").node("mul", "Mul", List.of("a", "two"), List.of("a2"))
                .node("cat", "Concat", List.of("y", "a", "a2"), List.of("c"), "axis", 0L).node("wide", "Concat", List.of("a", "a2"), List.of("w"), "axis", 1L)
                .outputOfType(OnnxDTypes.FLOAT, "c").outputOfType(OnnxDTypes.FLOAT, "w");
        TensorValue x = TensorValue.ofFloats(new long[]{5, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), y = TensorValue.ofFloats(new long[]{2, 3}, -1, -2, -3, -4, -5, -6);
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, t, Map.of("x", x, "m", mask(0, 1, 0, 0, 1), "y", y), 0, 0);
        assertThat(got.get("c").floats()).containsExactly(-1, -2, -3, -4, -5, -6, 4, 5, 6, 13, 14, 15, 8, 10, 12, 26, 28, 30);
        assertThat(got.get("w").shape()).containsExactly(2, 6);
        got = OnnxOpRuns.agreeInEveryMode(dir, t, Map.of("x", x, "m", mask(0, 0, 0, 0, 0), "y", y), 0, 0);
        assertThat(got.get("c").shape()).containsExactly(2, 3);
        OnnxOpRuns.agreeInEveryMode(dir, t, Map.of("x", x, "m", mask(1, 1, 1, 1, 1), "y", y), 0, 0);
    }

    /**
     * What stays refused, in one line naming the Concat: along the other axis an input known before the run (ONNX needs
     * its extent there to be the actual one), or inputs bounded by two extents; along the bounded axis with an axis of
     * more than one element before it (NonZero's [2, n]: the rows would lie apart).
     */
    @Test
    void aCatTheKernelsCannotLeaveCompactIsRefused() throws Exception {
        TinyOnnx base = new TinyOnnx().opset(17).input("x", 5L, 3L).input(OnnxDTypes.BOOL, "m", 5L).input("y", 5L, 2L).select("", "x", "m", "a");
        OnnxOpRuns.refused(dir, base.node("wide", "Concat", List.of("a", "y"), List.of("w"), "axis", 1L).outputOfType(OnnxDTypes.FLOAT, "w"),
                "op 'wide' (Concat, position 3) reads 'a', computed from a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs; "
                        + "Concat reads it only where its kernels leave the result compact, and here input #1 [5, 2] is known before the run, where the others hold their "
                        + "actual extent along the bounded axis 0");
        base = new TinyOnnx().opset(17).input("x", 5L, 3L).input(OnnxDTypes.BOOL, "m", 5L).input(OnnxDTypes.BOOL, "k", 5L).select("", "x", "m", "a").select("k", "x", "k", "b");
        OnnxOpRuns.refused(dir, base.node("wide", "Concat", List.of("a", "b"), List.of("w"), "axis", 1L).outputOfType(OnnxDTypes.FLOAT, "w"),
                "op 'wide' (Concat, position 6) reads 'a' and 'b', bounded by the runtime extents of op 'nz' and op 'nzk', whose actual extents may differ");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(17).input(OnnxDTypes.BOOL, "m", 2L, 3L).input(OnnxDTypes.BOOL, "k", 2L, 3L)
                        .node("nz", "NonZero", List.of("m"), List.of("i")).node("nzk", "NonZero", List.of("k"), List.of("j"))
                        .node("cat", "Concat", List.of("i", "j"), List.of("c"), "axis", 1L).outputOfType(OnnxDTypes.INT64, "c"),
                "op 'cat' (Concat, position 2) reads 'i', a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs; "
                        + "Concat reads it only where its kernels leave the result compact, and here the bounded axis 1 of output [2, 12] has axes of more than one element before it");
    }
}
