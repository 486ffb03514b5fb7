package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.RunResult;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.TransformerOpsTest.feed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * NonZero, Compress, Unique and NonMaxSuppression, the data-dependent outputs planned at their upper bound
 * ({@code ir.OpSpec.BoundedRule}), through import, planning and the simulator against ONNX Runtime
 * 1.22 ({@link OnnxOpRuns#agree}: element types, actual shapes and values exactly), in every executor
 * mode; an op that reads such an output where its kind does not carry it is refused in one line naming it.
 */
class DataDependentOpsTest {
    @TempDir
    Path dir;

    private static TinyOnnx nonZero(int type, long... shape) {
        Object[] dims = new Object[shape.length];
        for (int d = 0; d < shape.length; d++) dims[d] = shape[d];
        return new TinyOnnx().opset(13).input(type, "x", dims).outputOfType(OnnxDTypes.INT64, "y").node("nz", "NonZero", List.of("x"), List.of("y"));
    }

    private static TensorValue bools(long[] shape, long... v) {
        return TensorValue.ofLongs(DType.BOOL, shape, v);
    }

    @Test
    void nonZeroAgreesWithOnnxRuntimeInRowMajorOrder() throws Exception {
        // f32 with -0.0 (zero) and NaN (not zero), rank 3
        TensorValue f = TensorValue.ofFloats(new long[]{2, 3, 2}, 0, 1.5f, -0f, Float.NaN, 0, 0, 3, 0, 0, -2, 0, 7);
        OnnxOpRuns.agree(dir, nonZero(OnnxDTypes.FLOAT, 2, 3, 2), feed("x", f), 0, 0);
        OnnxOpRuns.agree(dir, nonZero(OnnxDTypes.INT32, 5), feed("x", TensorValue.ofLongs(DType.I32, new long[]{5}, 0, -4, 0, 0, 9)), 0, 0);
        OnnxOpRuns.agree(dir, nonZero(OnnxDTypes.BOOL, 2, 2), feed("x", bools(new long[]{2, 2}, 1, 1, 0, 1)), 0, 0);
        // f64, which ONNX Runtime 1.22's NonZero does not take: numpy.nonzero's answer, by hand
        TensorValue d = OnnxOpRuns.run(dir, nonZero(OnnxDTypes.DOUBLE, 3, 1), feed("x", TensorValue.ofDoubles(DType.F64, new long[]{3, 1}, 1e-300, 0, -1))).get("y");
        assertThat(d.shape()).containsExactly(2, 2);
        assertThat(d.longs()).containsExactly(0, 2, 0, 0);
        // none and all: [rank, 0] and [rank, numel], the upper bound
        OnnxOpRuns.agree(dir, nonZero(OnnxDTypes.INT64, 2, 3), feed("x", TensorValue.ofLongs(DType.I64, new long[]{2, 3}, 0, 0, 0, 0, 0, 0)), 0, 0);
        OnnxOpRuns.agree(dir, nonZero(OnnxDTypes.INT64, 2, 3), feed("x", TensorValue.ofLongs(DType.I64, new long[]{2, 3}, 1, 2, 3, 4, 5, 6)), 0, 0);
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, nonZero(OnnxDTypes.FLOAT, 2, 3, 2), feed("x", f));
        assertThat(got.get("y").shape()).containsExactly(3, 5);      // flat 1, 3, 6, 9, 11: NaN counted, -0.0 not
        assertThat(got.get("y").longs()).containsExactly(0, 0, 1, 1, 1, 0, 1, 0, 1, 2, 1, 1, 0, 1, 1);
    }

    private static TinyOnnx compress(int type, long[] x, long m, Long axis) {
        Object[] dims = new Object[x.length];
        for (int d = 0; d < x.length; d++) dims[d] = x[d];
        return new TinyOnnx().opset(11).input(type, "x", dims).input(OnnxDTypes.BOOL, "c", m).outputOfType(type, "y")
                .node("cp", "Compress", List.of("x", "c"), List.of("y"), axis == null ? new Object[0] : new Object[]{"axis", axis});
    }

    @Test
    void compressAgreesWithOnnxRuntimeAlongEveryAxisAndFlattened() throws Exception {
        long[] shape = {2, 3, 4};
        float[] v = new float[24];
        for (int k = 0; k < v.length; k++) v[k] = k * 0.5f - 3;
        TensorValue x = TensorValue.ofFloats(shape, v);
        OnnxOpRuns.agree(dir, compress(OnnxDTypes.FLOAT, shape, 3, 1L), feed("x", x, "c", bools(new long[]{3}, 1, 0, 1)), 0, 0);
        OnnxOpRuns.agree(dir, compress(OnnxDTypes.FLOAT, shape, 4, -1L), feed("x", x, "c", bools(new long[]{4}, 0, 1, 1, 0)), 0, 0);
        OnnxOpRuns.agree(dir, compress(OnnxDTypes.FLOAT, shape, 1, 0L), feed("x", x, "c", bools(new long[]{1}, 1)), 0, 0);        // shorter condition: slice 1 dropped
        OnnxOpRuns.agree(dir, compress(OnnxDTypes.FLOAT, shape, 2, 2L), feed("x", x, "c", bools(new long[]{2}, 0, 0)), 0, 0);     // none: [2, 3, 0]
        OnnxOpRuns.agree(dir, compress(OnnxDTypes.FLOAT, shape, 7, null), feed("x", x, "c", bools(new long[]{7}, 1, 0, 0, 1, 1, 0, 1)), 0, 0);   // flattened
        TensorValue l = TensorValue.ofLongs(DType.I64, new long[]{3, 2}, 1L << 60, -1, 5, 6, 7, -8);
        OnnxOpRuns.agree(dir, compress(OnnxDTypes.INT64, new long[]{3, 2}, 3, 0L), feed("x", l, "c", bools(new long[]{3}, 1, 0, 1)), 0, 0);
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, compress(OnnxDTypes.FLOAT, shape, 3, 1L), feed("x", x, "c", bools(new long[]{3}, 1, 0, 1)));
        assertThat(got.get("y").shape()).containsExactly(2, 2, 4);
    }

    private static TinyOnnx unique(int type, long[] x, List<String> outputs, Object... attrs) {
        Object[] dims = new Object[x.length];
        for (int d = 0; d < x.length; d++) dims[d] = x[d];
        TinyOnnx m = new TinyOnnx().opset(11).input(type, "x", dims);
        for (int k = 0; k < outputs.size(); k++) if (!outputs.get(k).isEmpty()) m.outputOfType(k == 0 ? type : OnnxDTypes.INT64, outputs.get(k));
        return m.node("u", "Unique", List.of("x"), outputs, attrs);
    }

    private static final List<String> ALL_FOUR = List.of("y", "indices", "inverse_indices", "counts");

    @Test
    void uniqueAgreesWithOnnxRuntimeSortedAndNotAlongAnAxisAndFlattened() throws Exception {
        long[] shape = {3, 4, 2};
        float[] v = {1, 2, 0, 0, 1, 2, 5, 5, /**/ 3, 3, 0, 0, 3, 3, -1, 7, /**/ 1, 2, 0, 0, 1, 2, 5, 5};   // slices repeat along 0 and 1
        TensorValue x = TensorValue.ofFloats(shape, v);
        for (long sorted : new long[]{0, 1}) {
            OnnxOpRuns.agree(dir, unique(OnnxDTypes.FLOAT, shape, ALL_FOUR, "sorted", sorted), feed("x", x), 0, 0);
            for (long axis : new long[]{0, 1, 2, -1})
                OnnxOpRuns.agree(dir, unique(OnnxDTypes.FLOAT, shape, ALL_FOUR, "sorted", sorted, "axis", axis), feed("x", x), 0, 0);
        }
        TensorValue l = TensorValue.ofLongs(DType.I64, new long[]{7}, 1L << 60, -3, 7, -3, 1L << 60, 0, 7);
        OnnxOpRuns.agree(dir, unique(OnnxDTypes.INT64, new long[]{7}, ALL_FOUR), feed("x", l), 0, 0);
        TensorValue b = TensorValue.ofLongs(DType.I8, new long[]{2, 3}, -128, 127, 0, -128, 127, 0);
        OnnxOpRuns.agree(dir, unique(OnnxDTypes.INT8, new long[]{2, 3}, ALL_FOUR, "axis", 0L), feed("x", b), 0, 0);   // one distinct row of two
        // only Y, and Y with counts (indices and inverse_indices left out): computed into tensors nothing reads
        OnnxOpRuns.agree(dir, unique(OnnxDTypes.FLOAT, shape, List.of("y")), feed("x", x), 0, 0);
        OnnxOpRuns.agree(dir, unique(OnnxDTypes.FLOAT, shape, List.of("y", "", "", "counts"), "axis", 1L), feed("x", x), 0, 0);
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, unique(OnnxDTypes.FLOAT, shape, ALL_FOUR, "axis", 0L), feed("x", x));
        assertThat(got.get("y").shape()).containsExactly(2, 4, 2);
        assertThat(got.get("inverse_indices").longs()).containsExactly(0, 1, 0);
        assertThat(got.get("counts").longs()).containsExactly(2, 1);
    }

    /**
     * Thousands of slices with many repeats, -0.0 among floats, sorted and not, flattened
     * and along each axis, as ONNX Runtime finds them: the simulator's unique groups the sorted
     * slices (O(n log n) comparisons; its first, pairwise version took minutes on 200,000 elements).
     */
    @Test
    void uniqueOfThousandsOfRepeatedSlicesAgreesWithOnnxRuntime() throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        long[] shape = {60, 50};
        float[] v = new float[60 * 50];
        for (int i = 0; i < v.length; i++) v[i] = new float[]{0f, -0f, 1.5f, -2f, 3f}[r.nextInt(5)];
        for (int row = 30; row < 60; row++) System.arraycopy(v, (row % 7) * 50, v, row * 50, 50);   // rows repeat
        long[] w = new long[3000];
        for (int i = 0; i < w.length; i++) w[i] = r.nextInt(400) - 200;
        TensorValue x = TensorValue.ofFloats(shape, v), l = TensorValue.ofLongs(DType.I64, new long[]{3000}, w);
        for (long sorted : new long[]{0, 1}) {
            OnnxOpRuns.agree(dir, unique(OnnxDTypes.INT64, new long[]{3000}, ALL_FOUR, "sorted", sorted), feed("x", l), 0, 0);
            OnnxOpRuns.agree(dir, unique(OnnxDTypes.FLOAT, shape, ALL_FOUR, "sorted", sorted, "axis", 0L), feed("x", x), 0, 0);
            OnnxOpRuns.agree(dir, unique(OnnxDTypes.FLOAT, shape, ALL_FOUR, "sorted", sorted, "axis", -1L), feed("x", x), 0, 0);
        }
    }

    /**
     * Along an axis, onnx's reference counts every slice holding a NaN as distinct (numpy.unique with
     * axis), the kernels take NaN equal to NaN (as flattened, where the reference merges NaNs too):
     * two slices alike but for NaN are refused naming them. Before, rows [NaN, 1] twice came out as
     * one row where the reference has two.
     */
    @Test
    void uniqueAlongAnAxisOfSlicesAlikeHoldingNaNIsRefusedAndFlattenedMergesNaN() throws Exception {
        float nan = Float.NaN;
        TensorValue x = TensorValue.ofFloats(new long[]{4, 2}, nan, 1, 0, 2, nan, 1, -0f, 2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OnnxOpRuns.run(dir, unique(OnnxDTypes.FLOAT, new long[]{4, 2}, ALL_FOUR, "axis", 0L), feed("x", x)))
                .isInstanceOf(org.arenaplan.device.DataException.class)
                .hasMessage("'u': Unique along an axis: slices 0 and 2 of X hold NaN in the same places and are equal elsewhere;"
                        + " onnx's reference (numpy.unique with axis) counts slices holding NaN as distinct, arenaplan's unique as equal");
        // flattened, as onnx's reference: y [0, 1, 2, NaN], indices [2, 1, 3, 0], counts 2 each (-0.0 with 0.0, NaN with NaN)
        Map<String, TensorValue> flat = OnnxOpRuns.run(dir, unique(OnnxDTypes.FLOAT, new long[]{4, 2}, ALL_FOUR), feed("x", x));
        assertThat(flat.get("y").floats()).containsExactly(0, 1, 2, nan);
        assertThat(flat.get("indices").longs()).containsExactly(2, 1, 3, 0);
        assertThat(flat.get("inverse_indices").longs()).containsExactly(3, 1, 0, 2, 3, 1, 0, 2);
        assertThat(flat.get("counts").longs()).containsExactly(2, 2, 2, 2);
        // one slice holding NaN is distinct either way: [0, 2] (with [-0, 2]) before [NaN, 1], as the reference sorts
        TensorValue one = TensorValue.ofFloats(new long[]{4, 2}, nan, 1, 0, 2, 3, 1, -0f, 2);
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, unique(OnnxDTypes.FLOAT, new long[]{4, 2}, ALL_FOUR, "axis", 0L), feed("x", one));
        assertThat(got.get("indices").longs()).containsExactly(1, 2, 0);
        assertThat(got.get("counts").longs()).containsExactly(2, 1, 1);
    }

    /** Boxes [2, 6, 4] of two batches (overlapping, flipped corners, one far away) and scores [2, 2, 6] of two classes, ties among them. */
    private static final TensorValue BOXES = TensorValue.ofFloats(new long[]{2, 6, 4},
            0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f, 1, 1, 0, 0, 0, 10, 1, 11, 0, 10.1f, 1, 11.1f,
            0.5f, 0.5f, 1, 1, 0.6f, 0.5f, 1, 1, 2, 2, 0.5f, 0.5f, 0.2f, 0.2f, -1, -1, 4, 4, 0, 0, 9, 9, 1, 1);
    private static final TensorValue SCORES = TensorValue.ofFloats(new long[]{2, 2, 6},
            0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f, 0.1f, 0.4f, 0.4f, 0.3f, 0.7f, 0.2f,
            0.5f, 0.5f, 0.9f, 0.2f, 0.8f, 0.05f, 0.3f, 0.3f, 0.1f, 0.9f, 0.95f, 0.3f);

    private static TinyOnnx nms(int inputs, Object... attrs) {
        TinyOnnx m = new TinyOnnx().opset(11).input("boxes", 2L, 6L, 4L).input("scores", 2L, 2L, 6L);
        List<String> in = new java.util.ArrayList<>(List.of("boxes", "scores"));
        if (inputs > 2) { m.input(OnnxDTypes.INT64, "max", 1L); in.add("max"); }
        if (inputs > 3) { m.input("iou", 1L); in.add("iou"); }
        if (inputs > 4) { m.input("score", 1L); in.add("score"); }
        return m.outputOfType(OnnxDTypes.INT64, "selected").node("nms", "NonMaxSuppression", in, List.of("selected"), attrs);
    }

    @Test
    void nonMaxSuppressionAgreesWithOnnxRuntimePerBatchAndClass() throws Exception {
        TensorValue iou = TensorValue.ofFloats(new long[]{1}, 0.5f), score = TensorValue.ofFloats(new long[]{1}, 0.35f);
        for (long center : new long[]{0, 1}) {
            for (long max : new long[]{0, 1, 2, 6, 100}) {
                TensorValue m = TensorValue.ofLongs(DType.I64, new long[]{1}, max);
                OnnxOpRuns.agree(dir, nms(5, "center_point_box", center), feed("boxes", BOXES, "scores", SCORES, "max", m, "iou", iou, "score", score), 0, 0);
                OnnxOpRuns.agree(dir, nms(4, "center_point_box", center), feed("boxes", BOXES, "scores", SCORES, "max", m, "iou", iou), 0, 0);
            }
        }
        // iou_threshold 0 (suppress any overlap), and every optional input left out (max_output_boxes_per_class 0: none selected)
        OnnxOpRuns.agree(dir, nms(4), feed("boxes", BOXES, "scores", SCORES, "max", TensorValue.ofLongs(DType.I64, new long[]{1}, 6), "iou", TensorValue.ofFloats(new long[]{1}, 0)), 0, 0);
        OnnxOpRuns.agree(dir, nms(2), feed("boxes", BOXES, "scores", SCORES), 0, 0);
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, nms(5), feed("boxes", BOXES, "scores", SCORES, "max", TensorValue.ofLongs(DType.I64, new long[]{1}, 2), "iou", iou, "score", score));
        // batch 0, class 0: box 3 (0.95), then 4 (0.5): 0 is 3 with its corners flipped (IoU 1), 1 and 2 overlap 3 with IoU 0.82
        assertThat(got.get("selected").longs()).startsWith(0, 0, 3, 0, 0, 4);
    }

    /**
     * A NaN score that no score_threshold drops is refused before the launch, naming the box: onnx's
     * reference and ONNX Runtime sort by score with <, which NaN leaves undefined. Before, the kernels'
     * scan took a NaN first box as the class's best and then stopped, selecting one row of a class.
     */
    @Test
    void aNaNScoreWithoutScoreThresholdIsRefusedAndWithOneIsDropped() throws Exception {
        float[] s = SCORES.floats();
        s[6] = Float.NaN;   // batch 0, class 1, box 0: the first box of its class
        TensorValue nan = TensorValue.ofFloats(new long[]{2, 2, 6}, s);
        TensorValue max = TensorValue.ofLongs(DType.I64, new long[]{1}, 3), iou = TensorValue.ofFloats(new long[]{1}, 0.5f);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OnnxOpRuns.run(dir, nms(4), feed("boxes", BOXES, "scores", nan, "max", max, "iou", iou)))
                .isInstanceOf(org.arenaplan.device.DataException.class)
                .hasMessage("'nms': non_max_suppression: score [0, 1, 0] is NaN and no score_threshold drops it; the boxes of a class are taken by descending score,"
                        + " which NaN leaves undefined (onnx's reference and ONNX Runtime sort with <)");
        // graph replay alone checks too (a captured graph cannot copy to the host: one planned run does first); it replayed the NaN before
        Path file = dir.resolve("nms-graph.onnx");
        Files.write(file, nms(4).bytes());
        Graph g = OnnxImporter.load(file, Map.of());
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Executors.run(ArenaPlanner.plan(g), device, List.of(Mode.GRAPH), 1,
                            feed("boxes", BOXES, "scores", nan, "max", max, "iou", iou), 1))
                    .isInstanceOf(org.arenaplan.device.DataException.class).hasMessageStartingWith("'nms': non_max_suppression: score [0, 1, 0] is NaN");
        }
        // a score_threshold drops the NaN (NaN > t is false), and the rest is selected as ONNX Runtime selects it
        OnnxOpRuns.agree(dir, nms(5), feed("boxes", BOXES, "scores", nan, "max", max, "iou", iou, "score", TensorValue.ofFloats(new long[]{1}, 0.05f)), 0, 0);
    }

    /** max_output_boxes_per_class known at import bounds the plan: B * C * min(max, N) rows, not B * C * N. */
    @Test
    void aConstantMaxOutputBoxesPerClassBoundsThePlan() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(11).input("boxes", 2L, 6L, 4L).input("scores", 2L, 2L, 6L).ints("max", 2).outputOfType(OnnxDTypes.INT64, "selected")
                .node("nms", "NonMaxSuppression", List.of("boxes", "scores", "max"), List.of("selected"));
        Path file = dir.resolve("nms.onnx");
        Files.write(file, m.bytes());
        assertThat(OnnxImporter.load(file, Map.of()).tensor("selected").shape()).containsExactly(8, 3);
        Files.write(file, nms(3).bytes());
        assertThat(OnnxImporter.load(file, Map.of()).tensor("selected").shape()).containsExactly(24, 3);
        OnnxOpRuns.agree(dir, m, feed("boxes", BOXES, "scores", SCORES), 0, 0);
    }

    /** The plan reserves the upper bound; every executor mode (graph capture too) copies out the actual shape. */
    @Test
    void theArenaHoldsTheUpperBoundAndEveryModeCopiesOutTheActualShape() throws Exception {
        Path file = dir.resolve("nz.onnx");
        Files.write(file, nonZero(OnnxDTypes.FLOAT, 4, 5).bytes());
        Graph g = OnnxImporter.load(file, Map.of());
        assertThat(g.tensor("y").shape()).containsExactly(2, 20);
        assertThat(g.bounded("y").axis()).isEqualTo(1);
        assertThat(g.isOutput(g.bounded("y").extent())).as("the runtime extent lives to the end of the run").isTrue();
        float[] v = new float[20];
        v[3] = 1;
        v[17] = -2;
        Map<String, TensorValue> in = feed("x", TensorValue.ofFloats(new long[]{4, 5}, v));
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            Executors.Comparison runs = Executors.run(ArenaPlanner.plan(g), device, List.of(Mode.values()), 1, in, 1);
            assertThat(runs.results()).hasSize(Mode.values().length);
            for (Mode mode : Mode.values()) {
                RunResult r = runs.last(mode);
                assertThat(r.outputs().get("y").shape()).as(r.mode()).containsExactly(2, 2);
                assertThat(r.outputs().get("y").longs()).as(r.mode()).containsExactly(0, 3, 3, 2);
            }
        }
    }

    /**
     * An op reads a data-dependent output where its kind carries a bounded tensor
     * ({@code ir.OpSpec.BoundedFlow}; BoundedReadersTest has the rest): Cast of NonZero's indices,
     * Relu of Compress's slices, Gather of NonMaxSuppression's rows (torchvision's pattern); any
     * other is refused in one line naming both nodes.
     */
    @Test
    void anOpReadsADataDependentOutputWhereItsKindCarriesItAndIsRefusedNamingBothNodesElsewhere() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).input("x", 4L).outputOfType(OnnxDTypes.FLOAT, "z")
                .node("nz", "NonZero", List.of("x"), List.of("y"))
                .node("cast", "Cast", List.of("y"), List.of("z"), "to", 1L);
        OnnxOpRuns.agree(dir, m, feed("x", TensorValue.ofFloats(new long[]{4}, 0, 2, 0, -1)), 0, 0);
        TinyOnnx c = new TinyOnnx().opset(11).input("x", 4L).input(OnnxDTypes.BOOL, "c", 4L).outputOfType(OnnxDTypes.FLOAT, "z")
                .node("cp", "Compress", List.of("x", "c"), List.of("y"), "axis", 0L)
                .node("r", "Relu", List.of("y"), List.of("z"));
        OnnxOpRuns.agree(dir, c, feed("x", TensorValue.ofFloats(new long[]{4}, -1, 2, -3, 4), "c", bools(new long[]{4}, 1, 1, 0, 1)), 0, 0);
        TinyOnnx g = nms(4).ints("two", 2).outputOfType(OnnxDTypes.INT64, "picked").node("g", "Gather", List.of("selected", "two"), List.of("picked"), "axis", 1L);
        OnnxOpRuns.agree(dir, g, feed("boxes", BOXES, "scores", SCORES, "max", TensorValue.ofLongs(DType.I64, new long[]{1}, 2), "iou", TensorValue.ofFloats(new long[]{1}, 0.5f)), 0, 0);
        TinyOnnx t = new TinyOnnx().opset(13).input("x", 2L, 2L).outputOfType(OnnxDTypes.INT64, "z")   // [2, n]: 2 rows before the bounded axis
                .node("nz", "NonZero", List.of("x"), List.of("y"))
                .node("r", "ReduceMax", List.of("y"), List.of("z"));
        OnnxOpRuns.refused(dir, t, "op 'r' (ReduceMax, position 1) reads 'y', a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs");
        TinyOnnx longer = compress(OnnxDTypes.FLOAT, new long[]{2, 3}, 4, 1L);
        OnnxOpRuns.refused(dir, longer, "node 'cp' (Compress");
        OnnxOpRuns.refused(dir, longer, "condition [4] is longer than axis 1 of input [2, 3]");
    }

    /** The element types NonZero and Unique compare are declared once (OpSpec.computes): float8 is refused naming the node and the list. */
    @Test
    void nonZeroAndUniqueOfAFloat8AreRefusedNamingTheTypesTheyCompare() throws Exception {
        String types = "bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32 and f64";
        OnnxOpRuns.refused(dir, nonZero(OnnxDTypes.FLOAT8E4M3FN, 4), "NonZero computes " + types);
        OnnxOpRuns.refused(dir, unique(OnnxDTypes.FLOAT8E5M2, new long[]{4}, List.of("y")), "Unique computes " + types);
    }

    /**
     * A graph output's declared shape may give one run's extent on the bounded axis only (review19: one
     * smaller on another axis, here Compress along 1 declared [2, 5] for its bound [3, 5], was taken).
     */
    @Test
    void aDeclaredShapeMayDifferFromTheBoundOnTheBoundedAxisOnly() throws Exception {
        TinyOnnx along = new TinyOnnx().opset(11).input("x", 3L, 5L).input(OnnxDTypes.BOOL, "c", 5L).output("y", 3L, 2L)
                .node("cp", "Compress", List.of("x", "c"), List.of("y"), "axis", 1L);
        Path file = dir.resolve("ok.onnx");
        Files.write(file, along.bytes());
        assertThat(OnnxImporter.load(file, Map.of()).tensor("y").shape()).containsExactly(3, 5);
        TinyOnnx across = new TinyOnnx().opset(11).input("x", 3L, 5L).input(OnnxDTypes.BOOL, "c", 5L).output("y", 2L, 5L)
                .node("cp", "Compress", List.of("x", "c"), List.of("y"), "axis", 1L);
        OnnxOpRuns.refused(dir, across, "graph output 'y' is declared [2, 5] but infers to [3, 5]");
    }

    /** A NonZero of a constant folds at import to its actual shape, so an op may read it. */
    @Test
    void aNonZeroOfAConstantFoldsToItsActualShapeAndMayBeRead() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).ints("k", 0, 3, 0, 5).output("z")
                .node("nz", "NonZero", List.of("k"), List.of("y"))
                .node("cast", "Cast", List.of("y"), List.of("z"), "to", 1L);
        Map<String, TensorValue> got = OnnxOpRuns.run(dir, m, Map.of());
        assertThat(got.get("z").shape()).containsExactly(1, 2);
        assertThat(got.get("z").floats()).containsExactly(1, 3);
    }
}
