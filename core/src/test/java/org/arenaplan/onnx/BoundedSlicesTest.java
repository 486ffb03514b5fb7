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
 * Slices of a masked selection {@code x[m]} that ONNX takes of its actual extent n, known only in the run
 * ({@code onnx.CountedSlices}, {@code ir.BoundedFlows#SLICE}, kernel slice_bounded), against ONNX Runtime in
 * every executor mode, for every count of selected elements or rows: starts and ends computed from the
 * count (torch.chunk, {@code x[m][:n // 2]}), and constant ones counted back from the actual extent or past
 * its start ({@code x[m][1:]}, {@code x[m][-2:]}, {@code x[m].flip(0)}). Each was refused before
 * ("it takes the bounded axis 0 from 3 by step 1, not a prefix (start 0, step 1)"; x[m][:-1]: "it ends the bounded
 * axis 0 at -1, counted from the actual extent").
 */
class BoundedSlicesTest {
    @TempDir
    Path dir;

    private static final TensorValue X6 = TensorValue.ofFloats(new long[]{6}, 3, -1, 4.5f, 4, -5, 9);
    private static final TensorValue X53 = TensorValue.ofLongs(DType.I64, new long[]{5, 3}, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15);

    /** A mask of {@code size} selecting {@code n} elements spread over it (0, 5, 4, ... modulo size). */
    private static TensorValue mask(int size, int n) {
        long[] bits = new long[size];
        for (int i = 0; i < n; i++) bits[(i * (size - 1)) % size] = 1;
        return TensorValue.ofLongs(DType.BOOL, new long[]{size}, bits);
    }

    /** sel = x[m] as both torch.onnx exporters write it: NonZero, Transpose, GatherND; and sel2 = x[m2]. */
    private static TinyOnnx selection(TinyOnnx t, int elemType, long... xShape) {
        Object[] dims = java.util.Arrays.stream(xShape).boxed().toArray();
        return t.input(elemType, "x", dims).input(OnnxDTypes.BOOL, "m", xShape[0]).input(OnnxDTypes.BOOL, "m2", xShape[0])
                .node("nz", "NonZero", List.of("m"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                .node("nz2", "NonZero", List.of("m2"), List.of("i2"))
                .node("tr2", "Transpose", List.of("i2"), List.of("t2"), "perm", new long[]{1, 0})
                .node("gn2", "GatherND", List.of("x", "t2"), List.of("sel2"));
    }

    /**
     * {@code torch.chunk(x[m], 2)} as the TorchScript exporter writes it (opset 17): c = (Shape(counted)[0] + 1) / 2,
     * then Slice(sel, 0, c) and Slice(sel, c, 2c); outputs a and b.
     */
    private static TinyOnnx chunk(String counted) {
        return selection(new TinyOnnx().opset(17), OnnxDTypes.FLOAT, 6).ints("zero", 0).ints("one", 1).ints("two", 2)
                .node("sh", "Shape", List.of(counted), List.of("s"))
                .node("g", "Gather", List.of("s", "zero"), List.of("n"), "axis", 0L)
                .node("add", "Add", List.of("n", "one"), List.of("n1"))
                .node("div", "Div", List.of("n1", "two"), List.of("c"))
                .node("mul", "Mul", List.of("c", "two"), List.of("c2"))
                .node("s0", "Slice", List.of("sel", "zero", "c", "zero"), List.of("a"))
                .node("s1", "Slice", List.of("sel", "c", "c2", "zero"), List.of("b"))
                .outputOfType(OnnxDTypes.FLOAT, "a").outputOfType(OnnxDTypes.FLOAT, "b");
    }

    /**
     * torch.chunk(x[m], 2) (TorchScript) for 0 to 6 of 6 selected: ceil(n / 2) and floor(n / 2) elements, as ONNX
     * Runtime computes c in the run. Before, the second Slice was refused naming the Add that took the Shape at its
     * upper bound (c = 3 at the bound 6).
     */
    @Test
    void aChunkOfASelectionAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        for (int n = 0; n <= 6; n++) {
            Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, chunk("sel"), Map.of("x", X6, "m", mask(6, n), "m2", mask(6, n)), 0, 0);
            assertThat(got.get("a").shape()).as("%d selected", n).containsExactly((n + 1) / 2);
            assertThat(got.get("b").shape()).as("%d selected", n).containsExactly(n / 2);
        }
    }

    /**
     * {@code x[m][:n // 2]} as the dynamo exporter writes it (opset 18): Slice(sel, [0], Reshape(Squeeze(Shape(sel,
     * 0, 1)) / 2, [-1]), [0], [1]) and the TorchScript exporter's Cast and Unsqueeze of the quotient, over rows of
     * x [5, 3] int64, 0 to 5 rows selected.
     */
    @Test
    void aHalfOfSelectedRowsAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = selection(new TinyOnnx().opset(18), OnnxDTypes.INT64, 5, 3).ints("zero", 0).ints("one", 1).ints("flat", -1).scalar("two", 2)
                .node("sh", "Shape", List.of("sel"), List.of("s"), "start", 0L, "end", 1L)
                .node("sq", "Squeeze", List.of("s", "zero"), List.of("n"))
                .node("div", "Div", List.of("n", "two"), List.of("h"))
                .node("rs", "Reshape", List.of("h", "flat"), List.of("end"))
                .node("sl", "Slice", List.of("sel", "zero", "end", "zero", "one"), List.of("a"))
                .node("cast", "Cast", List.of("h"), List.of("hc"), "to", 7L)
                .node("un", "Unsqueeze", List.of("hc", "zero"), List.of("end2"))
                .node("sl2", "Slice", List.of("sel", "end2", "end", "zero", "one"), List.of("b"))
                .node("sl3", "Slice", List.of("sel", "end2", "flat", "zero", "one"), List.of("c"))
                .outputOfType(OnnxDTypes.INT64, "a").outputOfType(OnnxDTypes.INT64, "b").outputOfType(OnnxDTypes.INT64, "c");
        for (int n = 0; n <= 5; n++) {
            Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, m, Map.of("x", X53, "m", mask(5, n), "m2", mask(5, n)), 0, 0);
            assertThat(got.get("a").shape()).as("%d selected", n).containsExactly(n / 2, 3);
            assertThat(got.get("c").shape()).as("%d selected", n).containsExactly(Math.max(0, n - n / 2 - 1), 3);
        }
    }

    /**
     * A start computed from the count that is 0 at the bound, n * 0 and n - 6 (x[m][n - 6:] of 6: the last n - (6 - n)
     * elements, a negative start counted from the actual extent), ended at the count itself: ONNX Runtime's rows for
     * 0 to 6 selected. Before, the end's prefix rewrite read the start as the constant 0 it is at the bound and the
     * Slice was refused ("... axis 0 of 'sel' and axis 0 of 'y' are bounded by two extents ...").
     */
    @Test
    void aCountedStartZeroAtTheBoundEndedAtTheCountAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        for (String op : List.of("Mul", "Sub")) {
            TinyOnnx m = selection(new TinyOnnx().opset(17), OnnxDTypes.FLOAT, 6).ints("zero", 0).ints("k", op.equals("Mul") ? 0 : 6)
                    .node("sh", "Shape", List.of("sel"), List.of("s"))
                    .node("g", "Gather", List.of("s", "zero"), List.of("n"), "axis", 0L)
                    .node("st", op, List.of("n", "k"), List.of("start"))
                    .node("sl", "Slice", List.of("sel", "start", "n"), List.of("y"))
                    .outputOfType(OnnxDTypes.FLOAT, "y");
            for (int n = 0; n <= 6; n++) {
                Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, m, Map.of("x", X6, "m", mask(6, n), "m2", mask(6, n)), 0, 0);
                long start = op.equals("Mul") ? 0 : n - 6 < 0 ? Math.max(0, 2 * n - 6) : n - 6;   // a negative start counts from the actual extent n
                assertThat(got.get("y").shape()).as("%s, %d selected", op, n).containsExactly(n - start);
            }
        }
    }

    /**
     * Slices of selected rows by constants that ONNX clamps to the actual extent: x[m][1:], x[m][-2:], x[m].flip(0)
     * (start -1, end INT64_MIN, step -1, as the dynamo exporter writes it; the TorchScript exporter's end is
     * -INT64_MAX), x[m][1:3] (narrow), x[m][:-1], x[m][::2] and x[m][-2::-2], f32 [6] and int64 [5, 3], every count.
     */
    @Test
    void slicesByConstantsCountedFromTheActualExtentAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        long[][] slices = {{1, Long.MAX_VALUE, 1}, {-2, Long.MAX_VALUE, 1}, {-1, Long.MIN_VALUE, -1}, {-1, -Long.MAX_VALUE, -1}, {1, 3, 1}, {0, -1, 1}, {0, Long.MAX_VALUE, 2},
                {-2, Long.MIN_VALUE, -2}};
        for (long[] s : slices) {
            for (boolean rows : new boolean[]{false, true}) {
                int elemType = rows ? OnnxDTypes.INT64 : OnnxDTypes.FLOAT, size = rows ? 5 : 6;
                TinyOnnx m = (rows ? selection(new TinyOnnx().opset(18), elemType, 5, 3) : selection(new TinyOnnx().opset(18), elemType, 6))
                        .ints("start", s[0]).ints("end", s[1]).ints("axes", 0).ints("step", s[2])
                        .node("sl", "Slice", List.of("sel", "start", "end", "axes", "step"), List.of("y"))
                        .outputOfType(elemType, "y");
                for (int n = 0; n <= size; n++)
                    OnnxOpRuns.agreeInEveryMode(dir, m, Map.of("x", rows ? X53 : X6, "m", mask(size, n), "m2", mask(size, n)), 0, 0);
            }
        }
        TinyOnnx columns = selection(new TinyOnnx().opset(18), OnnxDTypes.INT64, 5, 3).ints("start", 1).ints("end", Long.MAX_VALUE).ints("axes", 1)
                .node("sl", "Slice", List.of("sel", "start", "end", "axes"), List.of("y")).outputOfType(OnnxDTypes.INT64, "y");   // x[m][:, 1:]: rows stay rows
        TinyOnnx prefix = selection(new TinyOnnx().opset(18), OnnxDTypes.INT64, 5, 3).ints("start", 0, 1).ints("end", 3, Long.MAX_VALUE).ints("axes", 0, 1)
                .node("sl", "Slice", List.of("sel", "start", "end", "axes"), List.of("y")).outputOfType(OnnxDTypes.INT64, "y");   // x[m][:3, 1:]: a prefix of the rows
        for (int n = 0; n <= 5; n++) {
            OnnxOpRuns.agreeInEveryMode(dir, columns, Map.of("x", X53, "m", mask(5, n), "m2", mask(5, n)), 0, 0);
            OnnxOpRuns.agreeInEveryMode(dir, prefix, Map.of("x", X53, "m", mask(5, n), "m2", mask(5, n)), 0, 0);
        }
    }

    /**
     * A Slice by a negative step of an empty axis takes nothing (ONNX clamps start to [0, n - 1], empty for n = 0;
     * ONNX Runtime 1.30 gives [0, 2] of x [0, 2] by start -1, step -1); before, the importer's shape was [1, 2].
     */
    @Test
    void aNegativeStepOverAnEmptyAxisTakesNothing() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 0L, 2L).ints("start", -1).ints("end", Long.MIN_VALUE).ints("axes", 0).ints("step", -1)
                .node("sl", "Slice", List.of("x", "start", "end", "axes", "step"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y");
        OnnxOpRuns.agree(dir, m, Map.of("x", TensorValue.ofFloats(new long[]{0, 2})), 0, 0);
    }

    /**
     * What stays refused, in one line: starts computed from another selection's count (two runtime extents), a
     * Slice whose rows for some count exceed those at the bound ([-3:2] takes 2 of 3 selected, none of 6), x[m][1:, 1:]
     * (slice_bounded copies whole rows), a
     * quotient of a value that may be negative ((n - 3) / 2: ONNX truncates, the kernels would floor), and a counted
     * value read by another op.
     */
    @Test
    void slicesNotProvablyRightAreRefusedNamingOpAndTensor() throws Exception {
        OnnxOpRuns.refused(dir, chunk("sel2"), "node 'sh' (Shape, #6, opset 17): reads a tensor computed from a data-dependent output of node 'nz2', whose shape "
                + "is known only after its kernel runs; Shape is evaluated at import, from the upper bound; node 's0' (Slice) ends axis 0 of 'sel' with it, which "
                + "the importer reads only where axis 0 of 'sel2' and axis 0 of 'sel' are bounded by one runtime extent, and here they are bounded by two "
                + "extents, whose actual counts may differ");
        OnnxOpRuns.refused(dir, selection(new TinyOnnx().opset(18), OnnxDTypes.FLOAT, 6).ints("start", -3).ints("end", 2).ints("axes", 0)
                        .node("sl", "Slice", List.of("sel", "start", "end", "axes"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y"),
                "op 'sl' (Slice, position 6) reads 'sel', computed from a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel "
                        + "runs; Slice reads it only where its kernels leave the result compact, and here it takes up to 2 rows of the bounded axis 0 of [6] where "
                        + "fewer than 6 are kept, more than the 0 it takes of the upper bound, its output's bound");
        OnnxOpRuns.refused(dir, selection(new TinyOnnx().opset(18), OnnxDTypes.INT64, 5, 3).ints("start", 1, 1).ints("end", Long.MAX_VALUE, Long.MAX_VALUE)
                        .ints("axes", 0, 1).node("sl", "Slice", List.of("sel", "start", "end", "axes"), List.of("y")).outputOfType(OnnxDTypes.INT64, "y"),
                "Slice reads it only where its kernels leave the result compact, and here it slices axis 1 of [5, 3] too, where its bounded axis 0 is sliced by "
                        + "the actual extent; slice_bounded takes whole rows");
        TinyOnnx negative = selection(new TinyOnnx().opset(17), OnnxDTypes.FLOAT, 6).ints("zero", 0).ints("three", 3).ints("two", 2)
                .node("sh", "Shape", List.of("sel"), List.of("s"))
                .node("g", "Gather", List.of("s", "zero"), List.of("n"), "axis", 0L)
                .node("sub", "Sub", List.of("n", "three"), List.of("n3"))
                .node("div", "Div", List.of("n3", "two"), List.of("c"))
                .node("sl", "Slice", List.of("sel", "zero", "c", "zero"), List.of("y"))
                .outputOfType(OnnxDTypes.FLOAT, "y");
        OnnxOpRuns.refused(dir, negative, "its axis 0 of 'sel' is the bounded one, and node 'div' (Div) reads the value as a constant");
        OnnxOpRuns.refused(dir, chunk("sel").outputOfType(OnnxDTypes.INT64, "c"), "its axis 0 of 'sel' is the bounded one, and node graph output 'c' reads the value as a constant");
    }
}
