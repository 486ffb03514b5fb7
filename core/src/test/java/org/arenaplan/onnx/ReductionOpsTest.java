package org.arenaplan.onnx;

import org.arenaplan.exec.AllClose;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The reductions and the softmax family through import, planning and the simulator: values
 * worked out by hand from the ONNX specification, and ONNX Runtime as the reference over every
 * op, axes set, keepdims and opset variant (the attribute form before 13/18, the input form
 * after, noop_with_empty_axes, negative axes, select_last_index, Softmax's 2-D coercion before
 * 13 and one axis from 13); refusals name the node and the reason.
 */
class ReductionOpsTest {
    @TempDir
    Path dir;

    private static final String[] REDUCE_OPS = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"};

    private Map<String, TensorValue> run(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        return OnnxOpRuns.run(dir, model, inputs);
    }

    private void agree(TinyOnnx model, Map<String, TensorValue> inputs) throws Exception {
        OnnxOpRuns.agree(dir, model, inputs, 1e-5, 1e-6);
    }

    private static TensorValue x(long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        float[] v = OnnxRuntimeDifferentialTest.random((int) n, 7 + n);
        for (int i = 0; i < v.length; i++) v[i] = v[i] * 2 + 0.25f * (i % 3);   // some repeats, some negatives
        return TensorValue.ofFloats(shape, v);
    }

    private static TensorValue positive(long... shape) {
        TensorValue t = x(shape);
        float[] v = t.floats();
        for (int i = 0; i < v.length; i++) v[i] = Math.abs(v[i]) + 0.5f;
        return TensorValue.ofFloats(shape, v);
    }

    @Test
    void reduceSumAndMeanByHand() throws Exception {
        TensorValue in = TensorValue.ofFloats(new long[]{2, 3}, new float[]{1, 2, 3, 4, 5, 6});
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 2L, 3L).ints("axes", 1).output("s").output("m")
                .node("sum", "ReduceSum", List.of("x", "axes"), List.of("s"), "keepdims", 0L)
                .node("mean", "ReduceMean", List.of("x"), List.of("m"));
        Map<String, TensorValue> out = run(m, Map.of("x", in));
        assertThat(out.get("s").shape()).containsExactly(2);
        assertThat(out.get("s").floats()).containsExactly(6, 15);
        assertThat(out.get("m").shape()).containsExactly(1, 1);
        assertThat(out.get("m").floats()).containsExactly(3.5f);
    }

    @Test
    void everyReduceOpOnEveryAxesSetAgreesWithOnnxRuntime() throws Exception {
        long[][] axesSets = {{}, {0}, {1}, {2}, {-1}, {0, 2}, {2, 0}, {1, 2}, {0, 1, 2}};
        for (String op : REDUCE_OPS) {
            TensorValue in = op.equals("ReduceLogSum") || op.equals("ReduceProd") ? positive(3, 4, 5) : x(3, 4, 5);
            for (long opset : new long[]{11, 13, 18}) {
                boolean input = opset >= (op.equals("ReduceSum") ? 13 : 18);
                for (long[] axes : axesSets) {
                    for (long keep = 0; keep <= 1; keep++) {
                        TinyOnnx m = new TinyOnnx().opset(opset).input("x", 3L, 4L, 5L).output("y");
                        List<Object> attrs = new ArrayList<>(List.of("keepdims", keep));
                        List<String> ins = new ArrayList<>(List.of("x"));
                        if (axes.length > 0 && input) { m.ints("axes", axes); ins.add("axes"); }
                        if (axes.length > 0 && !input) { attrs.add("axes"); attrs.add(axes); }
                        m.node("r", op, ins, List.of("y"), attrs.toArray());
                        agree(m, Map.of("x", in));
                    }
                }
            }
        }
    }

    @Test
    void noopWithEmptyAxesIsAnIdentityAndEmptySetsGiveTheEmptyValue() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 2L, 3L).output("y")
                .node("r", "ReduceMax", List.of("x"), List.of("y"), "noop_with_empty_axes", 1L);
        TensorValue in = x(2, 3);
        assertThat(run(m, Map.of("x", in)).get("y").floats()).containsExactly(in.floats());
        // [2, 0, 4] reduced over axis 1: sum 0, prod 1, max -inf, min +inf, log-sum -inf, mean 0 (ONNX Runtime 1.22 and 1.30; NaN before)
        String[] ops = {"ReduceSum", "ReduceProd", "ReduceMax", "ReduceMin", "ReduceLogSum", "ReduceMean"};
        float[] want = {0, 1, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0};
        for (int k = 0; k < ops.length; k++) {
            TinyOnnx e = new TinyOnnx().opset(18).input("x", 2L, 0L, 4L).ints("axes", 1).output("y")
                    .node("r", ops[k], List.of("x", "axes"), List.of("y"));
            TensorValue y = run(e, Map.of("x", TensorValue.ofFloats(new long[]{2, 0, 4}, new float[0]))).get("y");
            assertThat(y.shape()).containsExactly(2, 1, 4);
            assertThat(OrtOracle.run(e.bytes(), Map.of("x", TensorValue.ofFloats(new long[]{2, 0, 4}, new float[0]))).get("y").floats()).as(ops[k]).containsExactly(y.floats());
            for (float v : y.floats()) assertThat(Float.valueOf(v)).as(ops[k]).isEqualTo(Float.valueOf(want[k]));
        }
    }

    @Test
    void integerReductionsAndArgMaxArgMinAgreeWithOnnxRuntime() throws Exception {
        long[] v = {3, -1, 7, 7, 2, 0, -5, 9, 9, 1, 4, 4, 8, -2, 6, 6, 0, 3, 5, 5, 1, 2, 2, 7};
        TensorValue ints = TensorValue.ofLongs(DType.I64, new long[]{2, 3, 4}, v);
        for (String op : new String[]{"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceMean", "ReduceL1", "ReduceL2", "ReduceSumSquare"}) {
            TinyOnnx m = new TinyOnnx().opset(18).input(OnnxDTypes.INT64, "x", 2L, 3L, 4L).ints("axes", 0, 2).output(OnnxDTypes.INT64, "y", 1L, 3L, 1L)
                    .node("r", op, List.of("x", "axes"), List.of("y"));
            agree(m, Map.of("x", ints));   // integer means and norms: computed in double, truncated toward zero (numpy's astype)
        }
        for (String op : new String[]{"ArgMax", "ArgMin"}) {
            for (long axis : new long[]{0, 1, 2, -1}) {
                for (long keep = 0; keep <= 1; keep++) {
                    for (long last = 0; last <= 1; last++) {
                        int a = (int) (axis < 0 ? axis + 3 : axis);
                        List<Object> dims = new ArrayList<>();
                        for (int d = 0; d < 3; d++) if (d != a || keep == 1) dims.add(d == a ? 1L : (long) new long[]{2, 3, 4}[d]);
                        TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 3L, 4L).output(OnnxDTypes.INT64, "y", dims.toArray())
                                .node("a", op, List.of("x"), List.of("y"), "axis", axis, "keepdims", keep, "select_last_index", last);
                        TensorValue f = TensorValue.ofFloats(new long[]{2, 3, 4}, toFloats(v));
                        agree(m, Map.of("x", f));
                        TinyOnnx mi = new TinyOnnx().opset(13).input(OnnxDTypes.INT64, "x", 2L, 3L, 4L).output(OnnxDTypes.INT64, "y", dims.toArray())
                                .node("a", op, List.of("x"), List.of("y"), "axis", axis, "keepdims", keep, "select_last_index", last);
                        agree(mi, Map.of("x", ints));
                    }
                }
            }
        }
    }

    /**
     * ReduceLogSum and ReduceLogSumExp of int32 over no element: log(0) = -inf stored as int32's lowest value, -2^31, as
     * ONNX Runtime 1.30 gives (Python; the spec: minus infinity where the type has it, else undefined); was 0, the low
     * 32 bits of a truncation to 64 bits, as the tests' ONNX Runtime 1.22 (Java) still gives. int64 gives -2^63 either way.
     */
    @Test
    void logSumOfNoInt32ElementIsTheLowestInt32() throws Exception {
        for (String op : new String[]{"ReduceLogSum", "ReduceLogSumExp"}) {
            TinyOnnx m = new TinyOnnx().opset(18).input(OnnxDTypes.INT32, "x", 0L, 4L).ints("axes", 0).output(OnnxDTypes.INT32, "y", 4L)
                    .node("r", op, List.of("x", "axes"), List.of("y"), "keepdims", 0L);
            Map<String, TensorValue> in = Map.of("x", TensorValue.ofLongs(DType.I32, new long[]{0, 4}));
            assertThat(run(m, in).get("y").longs()).as(op).containsExactly(Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE);
        }
    }

    /**
     * A NaN wins ArgMax and ArgMin (the first, with select_last_index the last) and ranks above every number in TopK,
     * as numpy and onnx.reference order them (ONNX Runtime 1.30 agrees where ArgMax reduces a whole 1-D tensor and
     * skips NaNs elsewhere; its TopK places them by k). Before, a NaN after the first element was skipped, and TopK
     * of a row holding a NaN ranked an index -1 or threw (k = the row's length).
     */
    @Test
    void aNaNWinsArgMaxArgMinAndRanksAboveEveryNumberInTopK() throws Exception {
        float nan = Float.NaN, inf = Float.POSITIVE_INFINITY;
        TensorValue v = TensorValue.ofFloats(new long[]{4}, new float[]{1, nan, 3, nan});
        for (String op : new String[]{"ArgMax", "ArgMin"}) {
            TinyOnnx m = new TinyOnnx().opset(13).input("x", 4L).output(OnnxDTypes.INT64, "y")
                    .node("a", op, List.of("x"), List.of("y"), "axis", 0L, "keepdims", 0L);
            assertThat(run(m, Map.of("x", v)).get("y").longs()).as(op).containsExactly(1);
            assertThat(OrtOracle.run(m.bytes(), Map.of("x", v)).get("y").longs()).as(op + " (ONNX Runtime)").containsExactly(1);
            TinyOnnx rows = new TinyOnnx().opset(13).input("x", 2L, 4L).output(OnnxDTypes.INT64, "y", 2L)
                    .node("a", op, List.of("x"), List.of("y"), "axis", 1L, "keepdims", 0L, "select_last_index", 1L);
            TensorValue r = TensorValue.ofFloats(new long[]{2, 4}, new float[]{nan, -inf, 3, nan, 2, 2, 5, 0});
            assertThat(run(rows, Map.of("x", r)).get("y").longs()).as(op + " last").containsExactly(3, op.equals("ArgMax") ? 2 : 3);
        }
        TensorValue t = TensorValue.ofFloats(new long[]{2, 6}, new float[]{3, nan, 1, inf, -inf, 2, nan, 1, nan, 0, 1, -0f});
        TinyOnnx top = new TinyOnnx().opset(11).input("x", 2L, 6L).ints("k", 6).output("v", 2L, 6L).output(OnnxDTypes.INT64, "i", 2L, 6L)
                .node("t", "TopK", List.of("x", "k"), List.of("v", "i"));
        Map<String, TensorValue> out = run(top, Map.of("x", t));
        assertThat(out.get("i").longs()).containsExactly(1, 3, 0, 5, 2, 4, 0, 2, 1, 4, 3, 5);
        assertThat(out.get("v").floats()).containsExactly(nan, inf, 3, 2, 1, -inf, nan, nan, 1, 1, 0, -0f);
        TinyOnnx low = new TinyOnnx().opset(11).input("x", 2L, 6L).ints("k", 3).output("v", 2L, 3L).output(OnnxDTypes.INT64, "i", 2L, 3L)
                .node("t", "TopK", List.of("x", "k"), List.of("v", "i"), "largest", 0L);
        assertThat(run(low, Map.of("x", t)).get("i").longs()).containsExactly(4, 2, 5, 3, 5, 1);
    }

    @Test
    void uint64PastTwoTo63IsOrderedUnsignedAndInt64PastTwoTo53ExactlyInReductionsTopKAndScatter() throws Exception {
        // uint64 [1, 2^63, 2^64 - 1, 5] (as long bits: 1, MIN_VALUE, -1, 5)
        TensorValue u = TensorValue.ofLongs(DType.U64, new long[]{4}, 1, Long.MIN_VALUE, -1L, 5);
        Map<String, Long> want = Map.of("ReduceMax", -1L, "ReduceMin", 1L, "ArgMax", 2L, "ArgMin", 0L);
        for (String op : want.keySet()) {
            boolean arg = op.startsWith("Arg");
            TinyOnnx m = new TinyOnnx().opset(18).input(OnnxDTypes.UINT64, "x", 4L).output(arg ? OnnxDTypes.INT64 : OnnxDTypes.UINT64, "y", 1L)
                    .node("r", op, List.of("x"), List.of("y"));
            assertThat(run(m, Map.of("x", u)).get("y").longs()).as(op).containsExactly(want.get(op));
        }
        // the mean of 2^63 and 2^63 + 2 is 2^63 + 1, 2^63 as a double: back to uint64 unsigned, not saturated at 2^63 - 1
        TinyOnnx mean = new TinyOnnx().opset(18).input(OnnxDTypes.UINT64, "x", 2L).output(OnnxDTypes.UINT64, "y", 1L)
                .node("r", "ReduceMean", List.of("x"), List.of("y"));
        assertThat(run(mean, Map.of("x", TensorValue.ofLongs(DType.U64, new long[]{2}, Long.MIN_VALUE, Long.MIN_VALUE + 2))).get("y").longs())
                .containsExactly(Long.MIN_VALUE);
        // TopK: uint64 ordered unsigned; int64 values 2^60 + 1, + 3, + 2 (one double) ordered exactly
        TinyOnnx topU = new TinyOnnx().opset(11).input(OnnxDTypes.UINT64, "x", 4L).ints("k", 2).output(OnnxDTypes.UINT64, "v", 2L)
                .output(OnnxDTypes.INT64, "i", 2L).node("t", "TopK", List.of("x", "k"), List.of("v", "i"));
        Map<String, TensorValue> top = run(topU, Map.of("x", u));
        assertThat(top.get("v").longs()).containsExactly(-1L, Long.MIN_VALUE);
        assertThat(top.get("i").longs()).containsExactly(2, 1);
        TinyOnnx topI = new TinyOnnx().opset(11).input(OnnxDTypes.INT64, "x", 3L).ints("k", 3).output(OnnxDTypes.INT64, "v", 3L)
                .output(OnnxDTypes.INT64, "i", 3L).node("t", "TopK", List.of("x", "k"), List.of("v", "i"));
        long big = 1L << 60;
        assertThat(run(topI, Map.of("x", TensorValue.ofLongs(DType.I64, new long[]{3}, big + 1, big + 3, big + 2))).get("i").longs()).containsExactly(1, 2, 0);
        // ScatterElements' max and min reductions on uint64: max(5, 2^63) = 2^63, min(2^63, 5) = 5
        for (String red : new String[]{"max", "min"}) {
            TinyOnnx sc = new TinyOnnx().opset(18).input(OnnxDTypes.UINT64, "d", 2L).input(OnnxDTypes.INT64, "i", 1L).input(OnnxDTypes.UINT64, "u", 1L)
                    .output(OnnxDTypes.UINT64, "y", 2L).node("s", "ScatterElements", List.of("d", "i", "u"), List.of("y"), "reduction", red);
            boolean max = red.equals("max");
            Map<String, TensorValue> in = Map.of("d", TensorValue.ofLongs(DType.U64, new long[]{2}, max ? 5 : Long.MIN_VALUE, 1),
                    "i", TensorValue.ofLongs(DType.I64, new long[]{1}, 0), "u", TensorValue.ofLongs(DType.U64, new long[]{1}, max ? Long.MIN_VALUE : 5));
            assertThat(run(sc, in).get("y").longs()).as(red).containsExactly(max ? Long.MIN_VALUE : 5, 1);
        }
    }

    @Test
    void softmaxFamilyOnEveryAxisWithBothSemantics() throws Exception {
        TensorValue in = x(2, 3, 4);
        for (String op : new String[]{"Softmax", "LogSoftmax", "Hardmax"}) {
            for (long opset : new long[]{11, 13}) {
                for (long axis : new long[]{0, 1, 2, -1, -2}) {
                    TinyOnnx m = new TinyOnnx().opset(opset).input("x", 2L, 3L, 4L).output("y")
                            .node("s", op, List.of("x"), List.of("y"), "axis", axis);
                    agree(m, Map.of("x", in));
                }
                TinyOnnx dflt = new TinyOnnx().opset(opset).input("x", 2L, 3L, 4L).output("y").node("s", op, List.of("x"), List.of("y"));
                agree(dflt, Map.of("x", in));
            }
        }
        // Hardmax marks the first of equal maxima
        TinyOnnx h = new TinyOnnx().opset(13).input("x", 1L, 4L).output("y").node("h", "Hardmax", List.of("x"), List.of("y"));
        assertThat(run(h, Map.of("x", TensorValue.ofFloats(new long[]{1, 4}, new float[]{1, 5, 5, 2}))).get("y").floats()).containsExactly(0, 1, 0, 0);
    }

    @Test
    void axesGivenAsAGraphInputAreReadFromTheValuesKnownBeforeImport() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 2L, 3L).input(OnnxDTypes.INT64, "axes", 1L).output("y")
                .node("r", "ReduceSum", List.of("x", "axes"), List.of("y"), "keepdims", 0L);
        Path file = dir.resolve("axes.onnx");
        Files.write(file, m.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).hasMessageContaining("axes (input #1 'axes') must be a constant known at import time");
        TensorValue axes = TensorValue.ofLongs(DType.I64, new long[]{1}, 1);
        Graph g = OnnxImporter.load(file, OnnxImporter.Options.DEFAULT.withInputValues(Map.of("axes", axes)));
        assertThat(g.tensor("y").shape()).containsExactly(2);
        assertThat(g.inputs()).containsExactly("x", "axes");
        // a value of another shape is not taken
        TensorValue wrong = TensorValue.ofLongs(DType.I64, new long[]{2}, 0, 1);
        assertThatThrownBy(() -> OnnxImporter.load(file, OnnxImporter.Options.DEFAULT.withInputValues(Map.of("axes", wrong))))
                .hasMessageContaining("must be a constant known at import time");
    }

    @Test
    void refusalsNameTheNodeAndTheReason() throws Exception {
        refused(new TinyOnnx().opset(18).input("x", 2L, 3L).output("y").node("r", "ReduceMean", List.of("x"), List.of("y"), "axes", new long[]{1}),
                "node 'r' (ReduceMean, #0, opset 18): attribute 'axes' is input #1 from opset 18");
        refused(new TinyOnnx().opset(13).input("x", 2L, 3L).ints("axes", 1).output("y").node("r", "ReduceMean", List.of("x", "axes"), List.of("y")),
                "takes its axes as an attribute before opset 18, not as input #1");
        refused(new TinyOnnx().opset(11).input("x", 2L, 3L).output("y").node("r", "ReduceL2", List.of("x"), List.of("y"), "axes", new long[]{1, -1}),
                "axes [1, -1] name axis 1 twice");
        refused(new TinyOnnx().opset(11).input("x", 2L, 3L).output("y").node("r", "ReduceSum", List.of("x"), List.of("y"), "axes", new long[]{2}),
                "axis 2 is out of range for rank 2");
        refused(new TinyOnnx().opset(13).input("x", 2L, 0L).output("y").node("a", "ArgMax", List.of("x"), List.of("y"), "axis", 1L),
                "axis 1 of x[2, 0] is empty");
        refused(new TinyOnnx().opset(13).input(OnnxDTypes.INT64, "x", 2L, 3L).output("y").node("s", "Softmax", List.of("x"), List.of("y")),
                "is i64; Softmax computes f32, f16 and f64");
        refused(new TinyOnnx().opset(18).input(OnnxDTypes.STRING, "x", 2L, 3L).output("y").node("r", "ReduceMean", List.of("x"), List.of("y")),
                "ONNX element type 8");
        refused(new TinyOnnx().opset(11).input("x", 2L, 3L).output("y").node("a", "ArgMin", List.of("x"), List.of("y"), "select_last_index", 1L),
                "attribute 'select_last_index' needs opset 12");
        refused(new TinyOnnx().opset(18).input("x", 2L, 3L).output("y").node("r", "ReduceSum", List.of("x"), List.of("y"), "keepdim", 1L),
                "unknown attribute 'keepdim'");
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("bad.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    private static float[] toFloats(long[] v) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) f[i] = v[i];
        return f;
    }

    static Map<String, TensorValue> feed(String name, TensorValue v) {
        Map<String, TensorValue> m = new LinkedHashMap<>();
        m.put(name, v);
        return m;
    }
}
