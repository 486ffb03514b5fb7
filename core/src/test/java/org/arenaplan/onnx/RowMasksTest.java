package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.TransformerOpsTest.feed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Masked assignment with a mask over x's leading axes ({@link RowMasks}): {@code y[m] = v} and
 * {@code y[m] = x[m] * 2} for x [5, 3] with m [5] and x [2, 3, 4] with m [2, 3], as torch 2.13's
 * TorchScript (opset 14) and dynamo (opset 18) exporters write them, through import, planning and
 * every executor mode on the simulator against ONNX Runtime; some, none and all rows selected, f32 and
 * int64. Refused before at the Reshape of the selected values to [-1] ("splitting or merging the
 * bounded axis 0") or, for the dynamo exporter's {@code y[m] = v}, at ScatterND ("updates [6] must be
 * [15]": its count of m's true rows tied to no NonZero).
 */
class RowMasksTest {
    @TempDir
    Path dir;

    private static final List<long[]> ROWS5 = List.of(new long[]{1, 0, 1, 1, 0}, new long[5], new long[]{1, 1, 1, 1, 1});
    private static final List<long[]> ROWS23 = List.of(new long[]{0, 1, 1, 0, 0, 1}, new long[6], new long[]{1, 1, 1, 1, 1, 1});

    /**
     * The TorchScript exporter's {@code y = x.clone(); y[m] = x[m] * 2} (opset 14 and 17 alike): the
     * values by NonZero(m), Transpose, GatherND, Mul, Reshape to [-1]; the coordinates of every element
     * of the selected rows by NonZero(Expand(Unsqueeze(m, k), Shape(x))), Transpose; ScatterND by
     * Slice(values, 0, Shape(coordinates)[0]). Imported by rows: one NonZero, no Reshape, no Slice.
     */
    private static TinyOnnx torchScript(int elem, long[] x, long[] m) {
        int k = m.length;
        return new TinyOnnx().opset(14).input(elem, "x", (Object[]) box(x)).input(OnnxDTypes.BOOL, "m", (Object[]) box(m))
                .ints("flat", -1).scalar("first", 0).ints("zero", 0).ints("k", k)
                .node("nz", "NonZero", List.of("m"), List.of("i")).node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel")).node("mul", "Mul", List.of("sel", "two"), List.of("vals"))
                .node("um", "Unsqueeze", List.of("m", "k"), List.of("mu"))
                .node("sx", "Shape", List.of("x"), List.of("xs")).node("em", "Expand", List.of("mu", "xs"), List.of("me"))
                .node("nz1", "NonZero", List.of("me"), List.of("i1")).node("tr1", "Transpose", List.of("i1"), List.of("coords"), "perm", new long[]{1, 0})
                .node("flat", "Reshape", List.of("vals", "flat"), List.of("vf"), "allowzero", 0L)
                .node("sc", "Shape", List.of("coords"), List.of("cs")).node("g", "Gather", List.of("cs", "first"), List.of("n"), "axis", 0L)
                .node("un", "Unsqueeze", List.of("n", "zero"), List.of("end")).node("sl", "Slice", List.of("vf", "zero", "end", "zero"), List.of("u"))
                .node("put", "ScatterND", List.of("x", "coords", "u"), List.of("y")).outputOfType(elem, "y");
    }

    /**
     * The dynamo exporter's {@code y[m] = v} and {@code y[m] = x[m] * 2}: the coordinates as above (no
     * Shape: the expanded shape is a constant); the count of m's true rows, ReduceSum(Cast(Reshape(m, [-1]))),
     * then Concat with x's trailing extents; Expand(v, it) and Expand(x[m] * 2, it) (x[m] by NonZero(m),
     * Transpose, GatherND), each Reshape to [-1], ScatterND; v = 2.5 (int64: 7).
     */
    private static TinyOnnx dynamo(int elem, long[] x, long[] m) {
        long[] trailing = java.util.Arrays.copyOfRange(x, m.length, x.length);
        long[] ones = new long[x.length - m.length];
        for (int a = 0; a < ones.length; a++) ones[a] = m.length + a;
        TinyOnnx t = new TinyOnnx().opset(18).input(elem, "x", (Object[]) box(x)).input(OnnxDTypes.BOOL, "m", (Object[]) box(m));
        return (elem == OnnxDTypes.FLOAT ? t.floats("v", 2.5f) : t.scalar("v", 7)).ints("flat", -1).ints("ax", ones).ints("shape", x).ints("trailing", trailing)
                .node("um", "Unsqueeze", List.of("m", "ax"), List.of("mu")).node("em", "Expand", List.of("mu", "shape"), List.of("me"))
                .node("nz1", "NonZero", List.of("me"), List.of("i1")).node("tr1", "Transpose", List.of("i1"), List.of("coords"), "perm", new long[]{1, 0})
                .node("mf", "Reshape", List.of("m", "flat"), List.of("m1")).node("c", "Cast", List.of("m1"), List.of("mi"), "to", 7L)
                .node("count", "ReduceSum", List.of("mi"), List.of("n")).node("cat", "Concat", List.of("n", "trailing"), List.of("ns"), "axis", 0L)
                .node("e", "Expand", List.of("v", "ns"), List.of("ve")).node("r", "Reshape", List.of("ve", "flat"), List.of("u"))
                .node("put", "ScatterND", List.of("x", "coords", "u"), List.of("y"))
                .node("nz", "NonZero", List.of("m"), List.of("i")).node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel")).node("mul", "Mul", List.of("sel", "two"), List.of("w"))
                .node("e2", "Expand", List.of("w", "ns"), List.of("we")).node("r2", "Reshape", List.of("we", "flat"), List.of("u2"))
                .node("put2", "ScatterND", List.of("x", "coords", "u2"), List.of("y2")).outputOfType(elem, "y").outputOfType(elem, "y2");
    }

    private static Long[] box(long[] dims) {
        return java.util.Arrays.stream(dims).boxed().toArray(Long[]::new);
    }

    /** The constant two = 2 of x's element type. */
    private static TinyOnnx constants(TinyOnnx t, int elem) {
        return elem == OnnxDTypes.FLOAT ? t.floats("two", 2f) : t.scalar("two", 2);
    }

    private static TensorValue x(int elem, long[] shape) {
        int n = (int) java.util.Arrays.stream(shape).reduce(1, Math::multiplyExact);
        long[] v = new long[n];
        float[] f = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = i - 4;
            f[i] = (i - 4) * 0.5f;
        }
        return elem == OnnxDTypes.FLOAT ? TensorValue.ofFloats(shape, f) : TensorValue.ofLongs(DType.I64, shape, v);
    }

    @Test
    void aRowMaskSetitemOfTheTorchScriptExporterAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        assertThat(agreeOverRows(RowMasksTest::torchScript)).containsExactly(-8, -6, -4, -1, 0, 1, 4, 6, 8, 10, 12, 14, 8, 9, 10);
        Graph g = load(constants(torchScript(OnnxDTypes.FLOAT, new long[]{5, 3}, new long[]{5}), OnnxDTypes.FLOAT));
        assertThat(g.ops().stream().map(o -> o.kind()).filter(k -> k.equals("NonZero") || k.equals("Reshape") || k.equals("Slice")).toList()).containsExactly("NonZero");
    }

    @Test
    void aRowMaskSetitemOfTheDynamoExporterAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        assertThat(agreeOverRows(RowMasksTest::dynamo)).containsExactly(7, 7, 7, -1, 0, 1, 7, 7, 7, 7, 7, 7, 8, 9, 10);
        Graph g = load(constants(dynamo(OnnxDTypes.FLOAT, new long[]{5, 3}, new long[]{5}), OnnxDTypes.FLOAT));
        assertThat(g.bounded("ve").extent()).isEqualTo(g.bounded("we").extent()).isEqualTo(g.bounded("sel").extent());
    }

    /** An exporter's graph for x of element type {@code elem} and shape {@code x}, m of shape {@code m}. */
    private interface Export {
        TinyOnnx of(int elem, long[] x, long[] m);
    }

    /**
     * Runs {@code export}'s graph in every mode against ONNX Runtime for x [5, 3] (f32 and int64) and x [2, 3, 4] (f32),
     * some, no and all rows selected; returns output y of the int64 x [5, 3] with rows 0, 2 and 3 selected.
     */
    private long[] agreeOverRows(Export export) throws Exception {
        long[] y = null;
        for (int elem : new int[]{OnnxDTypes.FLOAT, OnnxDTypes.INT64})
            for (long[] m : ROWS5) {
                Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, constants(export.of(elem, new long[]{5, 3}, new long[]{5}), elem),
                        feed("x", x(elem, new long[]{5, 3}), "m", TensorValue.ofLongs(DType.BOOL, new long[]{5}, m)), 0, 0);
                if (m == ROWS5.get(0) && elem == OnnxDTypes.INT64) y = got.get("y").longs();
            }
        for (long[] m : ROWS23)
            OnnxOpRuns.agreeInEveryMode(dir, constants(export.of(OnnxDTypes.FLOAT, new long[]{2, 3, 4}, new long[]{2, 3}), OnnxDTypes.FLOAT),
                    feed("x", x(OnnxDTypes.FLOAT, new long[]{2, 3, 4}), "m", TensorValue.ofLongs(DType.BOOL, new long[]{2, 3}, m)), 0, 0);
        return y;
    }

    /**
     * Where another node reads the coordinates (here a graph output), their NonZero and Transpose are
     * imported as the file has them, and the assignment still runs by rows; a Shape of them read as a
     * constant (the count as a graph output) is refused with its line, since their axis 0 is bounded.
     */
    @Test
    void coordinatesReadElsewhereAreImportedAndTheirCountIsNotAConstant() throws Exception {
        TinyOnnx t = constants(torchScript(OnnxDTypes.FLOAT, new long[]{5, 3}, new long[]{5}), OnnxDTypes.FLOAT).outputOfType(OnnxDTypes.INT64, "coords");
        for (long[] m : ROWS5)
            OnnxOpRuns.agreeInEveryMode(dir, t, feed("x", x(OnnxDTypes.FLOAT, new long[]{5, 3}), "m", TensorValue.ofLongs(DType.BOOL, new long[]{5}, m)), 0, 0);
        OnnxOpRuns.refused(dir, constants(torchScript(OnnxDTypes.FLOAT, new long[]{5, 3}, new long[]{5}), OnnxDTypes.FLOAT).outputOfType(OnnxDTypes.INT64, "n"),
                "node 'sc' (Shape, #10, opset 14): reads a tensor computed from a data-dependent output of node 'nz1', whose shape is known only after its kernel runs;"
                        + " Shape is evaluated at import, from the upper bound; its axis 0 of 'coords' is the bounded one, and node graph output 'n' reads the value as a constant");
    }

    /** Rows of another mask than the coordinates' (their counts may differ) are refused naming both NonZero ops. */
    @Test
    void valuesOfAnotherMasksRowsAreRefused() throws Exception {
        TinyOnnx t = new TinyOnnx().opset(14).input("x", 5L, 3L).input(OnnxDTypes.BOOL, "m", 5L).input(OnnxDTypes.BOOL, "other", 5L)
                .ints("flat", -1).ints("k", 1).ints("shape", 5, 3)
                .node("nz", "NonZero", List.of("other"), List.of("i")).node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("um", "Unsqueeze", List.of("m", "k"), List.of("mu")).node("em", "Expand", List.of("mu", "shape"), List.of("me"))
                .node("nz1", "NonZero", List.of("me"), List.of("i1")).node("tr1", "Transpose", List.of("i1"), List.of("coords"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel")).node("flat", "Reshape", List.of("sel", "flat"), List.of("u"))
                .node("put", "ScatterND", List.of("x", "coords", "u"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y");
        OnnxOpRuns.refused(dir, t, "op 'put' (ScatterND, position ");
        OnnxOpRuns.refused(dir, t, "bounded by the runtime extents of op 'nz1/rows' and op 'nz', whose actual extents may differ");
    }

    private Graph load(TinyOnnx t) throws Exception {
        Path file = dir.resolve("rows.onnx");
        Files.write(file, t.bytes());
        return OnnxImporter.load(file, Map.of());
    }
}
