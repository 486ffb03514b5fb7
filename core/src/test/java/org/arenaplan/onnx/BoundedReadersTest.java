package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.arenaplan.onnx.TransformerOpsTest.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Ops that read a data-dependent output ({@code ir.OpSpec.BoundedFlow}): torchvision's
 * {@code batched_nms} and {@code postprocess_detections} as exported to ONNX (NonMaxSuppression,
 * Gather of the selected box indices, Squeeze, Gather of boxes, scores and labels, Cast,
 * elementwise), through import, planning and every executor mode on the simulator against ONNX
 * Runtime 1.22; the zeros past the actual elements after each such op; and the readers that stay
 * refused, in one line naming both ops.
 */
class BoundedReadersTest {
    @TempDir
    Path dir;

    /** Six boxes [x1, y1, x2, y2]: 0 and 1 overlap (IoU 0.68), 2 and 3 overlap (IoU 0.82), 4 and 5 apart from all. */
    private static final TensorValue BOXES = TensorValue.ofFloats(new long[]{6, 4},
            0, 0, 10, 10, 1, 1, 11, 11, 20, 20, 30, 30, 21, 20, 31, 30, 50, 50, 60, 60, 70, 0, 80, 10);
    private static final TensorValue SCORES = TensorValue.ofFloats(new long[]{6}, 0.9f, 0.8f, 0.3f, 0.7f, 0.1f, 0.6f);
    private static final TensorValue LABELS = TensorValue.ofLongs(DType.I64, new long[]{6}, 3, 1, 4, 1, 5, 9);

    /**
     * boxes [6, 4], scores [6], labels [6] → NMS over [1, 6, 4] and [1, 1, 6] (max 10 per class, IoU
     * 0.5, score above 0.2) → selected [n, 3] → its box column as keep [n] (Gather of a scalar index)
     * and as keep2 [n] (Gather of [2], then Squeeze) → kept boxes, scores, labels; boxes scaled per
     * coordinate, score plus label, its Exp; the first two kept (Slice keep2[:2], torchvision's
     * keep[:detections_per_img]) and their boxes; the kept boxes' x1, y1 (Slice along axis 1).
     */
    private static TinyOnnx detection() {
        return new TinyOnnx().opset(13).input("b", 6L, 4L).input("s", 6L).input(OnnxDTypes.INT64, "labels", 6L)
                .ints("ax0", 0).ints("ax01", 0, 1).ints("ax1", 1).ints("max", 10).floats("iou", 0.5f, 1).floats("thr", 0.2f, 1)
                .scalar("two", 2).ints("twos", 2).raw("scale", new float[]{2, 3, 4, 5})
                .node("ub", "Unsqueeze", List.of("b", "ax0"), List.of("b3"))
                .node("us", "Unsqueeze", List.of("s", "ax01"), List.of("s3"))
                .node("nms", "NonMaxSuppression", List.of("b3", "s3", "max", "iou", "thr"), List.of("sel"))
                .node("pick", "Gather", List.of("sel", "two"), List.of("keep"), "axis", 1L)
                .node("pick1", "Gather", List.of("sel", "twos"), List.of("keep1"), "axis", 1L)
                .node("sq", "Squeeze", List.of("keep1", "ax1"), List.of("keep2"))
                .node("gb", "Gather", List.of("b", "keep"), List.of("kb"), "axis", 0L)
                .node("gs", "Gather", List.of("s", "keep2"), List.of("ks"), "axis", 0L)
                .node("gl", "Gather", List.of("labels", "keep"), List.of("kl"), "axis", 0L)
                .node("cl", "Cast", List.of("kl"), List.of("klf"), "to", 1L)
                .node("mb", "Mul", List.of("kb", "scale"), List.of("kbs"))
                .node("add", "Add", List.of("ks", "klf"), List.of("ksum"))
                .node("ex", "Exp", List.of("ksum"), List.of("e"))
                .ints("zero", 0).ints("k2", 2)
                .node("top", "Slice", List.of("keep2", "zero", "k2", "ax0"), List.of("top2"))
                .node("gt", "Gather", List.of("b", "top2"), List.of("tb"), "axis", 0L)
                .node("xy", "Slice", List.of("kb", "zero", "k2", "ax1"), List.of("kxy"))
                .outputOfType(OnnxDTypes.INT64, "top2").outputOfType(OnnxDTypes.FLOAT, "tb").outputOfType(OnnxDTypes.FLOAT, "kxy")
                .outputOfType(OnnxDTypes.FLOAT, "kb").outputOfType(OnnxDTypes.FLOAT, "ks").outputOfType(OnnxDTypes.INT64, "kl")
                .outputOfType(OnnxDTypes.FLOAT, "kbs").outputOfType(OnnxDTypes.FLOAT, "e").outputOfType(OnnxDTypes.INT64, "keep2");
    }

    @Test
    void torchvisionPostprocessingAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        Map<String, TensorValue> in = feed("b", BOXES, "s", SCORES, "labels", LABELS);
        Map<String, TensorValue> got = agreeInEveryMode(detection(), in);
        // boxes 0, 3, 5 kept by score (1 overlaps 0, 2 overlaps 3 and scores below 0.7; 4 below the threshold)
        assertThat(got.get("keep2").longs()).containsExactly(0, 3, 5);
        assertThat(got.get("kb").shape()).containsExactly(3, 4);
        assertThat(got.get("kl").longs()).containsExactly(3, 1, 9);
        assertThat(got.get("top2").longs()).containsExactly(0, 3);
        assertThat(got.get("kxy").shape()).containsExactly(3, 2);
        // nothing selected: every output [0] or [0, 4]
        Map<String, TensorValue> none = agreeInEveryMode(detection(), feed("b", BOXES, "s", TensorValue.ofFloats(new long[]{6}, new float[6]), "labels", LABELS));
        assertThat(none.get("kbs").shape()).containsExactly(0, 4);
    }

    /**
     * The zeros past the actual elements hold after every op that reads a bounded tensor: keep - 4
     * gathers from 2 rows, its actual indices 0 and 1; without the zeroed tail its tail would hold
     * 0 - 4 = -4, outside [-2, 2), and the Gather would stop the run.
     */
    @Test
    void theTailStaysZeroSoAGatherOfDerivedIndicesReadsRowZero() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).input("b", 6L, 4L).input("s", 6L).input("d", 2L, 3L)
                .ints("ax0", 0).ints("ax01", 0, 1).ints("max", 10).floats("iou", 0.5f, 1).floats("thr", 0.5f, 1).scalar("two", 2).ints("four", 4)
                .node("ub", "Unsqueeze", List.of("b", "ax0"), List.of("b3"))
                .node("us", "Unsqueeze", List.of("s", "ax01"), List.of("s3"))
                .node("nms", "NonMaxSuppression", List.of("b3", "s3", "max", "iou", "thr"), List.of("sel"))
                .node("pick", "Gather", List.of("sel", "two"), List.of("keep"), "axis", 1L)
                .node("sub", "Sub", List.of("keep", "four"), List.of("idx"))
                .node("g", "Gather", List.of("d", "idx"), List.of("rows"), "axis", 0L)
                .outputOfType(OnnxDTypes.FLOAT, "rows");
        TensorValue s = TensorValue.ofFloats(new long[]{6}, 0.1f, 0.1f, 0.1f, 0.1f, 0.9f, 0.8f);
        TensorValue d = TensorValue.ofFloats(new long[]{2, 3}, 1, 2, 3, 4, 5, 6);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("b", BOXES, "s", s, "d", d));
        assertThat(got.get("rows").floats()).containsExactly(1, 2, 3, 4, 5, 6);
    }

    /**
     * torch.nonzero(x) as exported: NonZero's [rank, n] transposed to [n, rank] (transpose_bounded reads
     * the count: the compact [rank, n] is not the bound's [rank, numel] layout), then its rows as
     * indices into a table; rank 3, some, none and all non-zero.
     */
    @Test
    void nonZeroTransposedAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 3L, 2L).input("table", 3L, 2L).ints("ax", 1)
                .node("nz", "NonZero", List.of("x"), List.of("y"))
                .node("tr", "Transpose", List.of("y"), List.of("idx"))
                .node("col", "Gather", List.of("idx", "ax"), List.of("c1"), "axis", 1L)
                .node("sq", "Squeeze", List.of("c1", "ax"), List.of("rowsAt"))
                .node("g", "Gather", List.of("table", "rowsAt"), List.of("rows"), "axis", 0L)
                .outputOfType(OnnxDTypes.INT64, "idx").outputOfType(OnnxDTypes.FLOAT, "rows");
        TensorValue table = TensorValue.ofFloats(new long[]{3, 2}, 1, 2, 3, 4, 5, 6);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, 0, 1.5f, 0, 0, 3, 0, 0, -2, 0, 0, 0, 7), "table", table));
        assertThat(got.get("idx").shape()).containsExactly(4, 3);
        assertThat(got.get("idx").longs()).containsExactly(0, 0, 1, 0, 2, 0, 1, 0, 1, 1, 2, 1);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, new float[12]), "table", table));
        float[] ones = new float[12];
        java.util.Arrays.fill(ones, 1);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, ones), "table", table));
    }

    /**
     * {@code x.nonzero().T[i]} as both torch.onnx exporters write it: Gather of NonZero's [rank, n]
     * itself along axis 0, by a scalar (the first coordinates, [n]) and by [2] (the third and first,
     * [2, n]), and by the dynamo exporter's {@code x.nonzero().T[torch.tensor([2, 0])]}, GatherND by the
     * tuples [[2], [0]] (imported as that Gather); some, none and all non-zero. Refused before: "the
     * bounded axis of data [3, 12] (1) ... has axes of more than one element before it" (gathered in
     * place the rows would lie apart); the GatherND: "GatherND carries data bounded along axis 0 only".
     */
    @Test
    void gatherOfNonZeroRowsAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 3L, 2L).scalar("zero", 0).ints("rows", 2, 0).ints("ax1", 1)
                .node("nz", "NonZero", List.of("x"), List.of("y"))
                .node("first", "Gather", List.of("y", "zero"), List.of("i0"), "axis", 0L)
                .node("two", "Gather", List.of("y", "rows"), List.of("i20"), "axis", 0L)
                .node("tu", "Unsqueeze", List.of("rows", "ax1"), List.of("tuples"))
                .node("twoNd", "GatherND", List.of("y", "tuples"), List.of("i20nd"))
                .outputOfType(OnnxDTypes.INT64, "i0").outputOfType(OnnxDTypes.INT64, "i20").outputOfType(OnnxDTypes.INT64, "i20nd");
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, 0, 1.5f, 0, 0, 3, 0, 0, -2, 0, 0, 0, 7)));
        assertThat(got.get("i0").longs()).containsExactly(0, 0, 1, 1);
        assertThat(got.get("i20").shape()).containsExactly(2, 4);
        assertThat(got.get("i20").longs()).containsExactly(1, 0, 1, 1, 0, 0, 1, 1);
        assertThat(got.get("i20nd").longs()).containsExactly(got.get("i20").longs());
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, new float[12])));
        float[] ones = new float[12];
        java.util.Arrays.fill(ones, 1);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, ones)));
    }

    /**
     * torch.nonzero(x, as_tuple=True) as torch.onnx exports it: NonZero, Transpose to [n, 3], Split
     * along axis 1 into three [n, 1], Squeeze each to [n] (some, none and all non-zero); refused
     * before Split carried a bounded tensor.
     */
    @Test
    void nonZeroAsTupleSplitAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(13).input("x", 2L, 3L, 2L).ints("ax", 1)
                .node("nz", "NonZero", List.of("x"), List.of("y"))
                .node("tr", "Transpose", List.of("y"), List.of("idx"))
                .node("sp", "Split", List.of("idx"), List.of("a", "b", "c"), "axis", 1L)
                .node("qa", "Squeeze", List.of("a", "ax"), List.of("i0"))
                .node("qc", "Squeeze", List.of("c", "ax"), List.of("i2"))
                .outputOfType(OnnxDTypes.INT64, "i0").outputOfType(OnnxDTypes.INT64, "b").outputOfType(OnnxDTypes.INT64, "i2");
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, 0, 1.5f, 0, 0, 3, 0, 0, -2, 0, 0, 0, 7)));
        assertThat(got.get("i2").longs()).containsExactly(1, 0, 1, 1);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, new float[12])));
        float[] ones = new float[12];
        java.util.Arrays.fill(ones, 1);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{2, 3, 2}, ones)));
    }

    /**
     * TopK of a boolean-mask selection as torch.onnx exports {@code x[x > t].topk(3)} and
     * {@code r[s > 0].topk(2, dim=1)}: NonZero, Transpose, GatherND, then TopK along the bounded axis
     * (largest and smallest, k = 3: the kernel ranks the n actual values only, not the tail's zeros,
     * which would outrank the negative ones; ties by lower index) and along the other axis of the
     * selected rows (bounded along the same axis); all selected. Fewer than k selected: ONNX Runtime
     * fails the run, and so does every mode here, naming k and the count. Refused before ("TopK does
     * not read a bounded tensor").
     */
    @Test
    void topKOfABoundedTensorAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 8L).input("s", 5L).input("r", 5L, 4L).floats("thr", -2.5f).floats("zero", 0f).ints("k3", 3).ints("k2", 2)
                .node("gt", "Greater", List.of("x", "thr"), List.of("mask"))
                .node("nz", "NonZero", List.of("mask"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                .node("top", "TopK", List.of("sel", "k3"), List.of("v", "vi"))
                .node("low", "TopK", List.of("sel", "k3"), List.of("lv", "li"), "largest", 0L)
                .node("pos", "Greater", List.of("s", "zero"), List.of("rowMask"))
                .node("nz2", "NonZero", List.of("rowMask"), List.of("ri"))
                .node("tr2", "Transpose", List.of("ri"), List.of("rt"), "perm", new long[]{1, 0})
                .node("gn2", "GatherND", List.of("r", "rt"), List.of("rows"))
                .node("rtop", "TopK", List.of("rows", "k2"), List.of("rv", "rvi"), "axis", 1L)
                .outputOfType(OnnxDTypes.FLOAT, "v").outputOfType(OnnxDTypes.INT64, "vi").outputOfType(OnnxDTypes.FLOAT, "lv").outputOfType(OnnxDTypes.INT64, "li")
                .outputOfType(OnnxDTypes.FLOAT, "rv").outputOfType(OnnxDTypes.INT64, "rvi");
        TensorValue r = TensorValue.ofFloats(new long[]{5, 4}, 1, 4, 4, 2, 5, 6, 7, 8, 9, 9, 9, 9, 3, 1, 2, 0, -1, -2, -3, -4);
        TensorValue s = TensorValue.ofFloats(new long[]{5}, 1, -1, 2, 3, 1);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{8}, -1, -7, -2, -1, -9, -2, -3, -1), "s", s, "r", r));
        assertThat(got.get("v").floats()).containsExactly(-1, -1, -1);     // selected -1, -2, -1, -2, -1: ties by lower index
        assertThat(got.get("vi").longs()).containsExactly(0, 2, 4);
        assertThat(got.get("lv").floats()).containsExactly(-2, -2, -1);
        assertThat(got.get("rv").shape()).containsExactly(4, 2);
        assertThat(got.get("rvi").longs()).containsExactly(1, 2, 0, 1, 0, 2, 0, 1);
        float[] all = {3, 1, 4, 1, 5, 9, 2, 6};
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{8}, all), "s", TensorValue.ofFloats(new long[]{5}, 1, 1, 1, 1, 1), "r", r));
        // two selected, k = 3: ONNX Runtime fails the run; so does every mode here
        Map<String, TensorValue> two = feed("x", TensorValue.ofFloats(new long[]{8}, -9, 1, -9, -9, 2, -9, -9, -9), "s", s, "r", r);
        assertThatThrownBy(() -> OrtOracle.run(m.bytes(), two)).hasMessageContaining("k argument [3] should not be greater than specified axis dim value [2]");
        stopsInEveryMode(m, two, "'top': TopK: k = 3 is more than the 2 values along its axis in this run (the runtime extent of its bounded input X); "
                + "ONNX TopK takes k of at most the axis's extent");
    }

    /**
     * {@code torch.topk(x[m], k=min(3, n))} as the dynamo exporter writes it (opset 18): NonZero, Transpose,
     * GatherND, then k = Reshape(Min(3, Squeeze(Shape(sel, 0, 1))), [-1]), computed in the run from the
     * count. Imported as TopK with k = 3 (min(3, the bound 6)) and clamp_k: min(3, the count) values, the
     * outputs bounded by the count's extent. 0 to 6 of 6 selected agree with ONNX Runtime in every mode
     * (values [min(3, n)], ties by lower index). The count of another tensor, or the Min read by any other
     * op, stays refused with the Shape node's line. Refused before at that Shape node ("its axis 0 of
     * 'sel' is the bounded one, and node 'mn' (Min) reads the value as a constant").
     */
    @Test
    void aTopKByTheMinimumOfAConstantAndTheCountAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 3, -1, 4, 4, -5, 9);
        for (int n = 0; n <= 6; n++) {
            long[] bits = new long[6];
            for (int i = 0; i < n; i++) bits[(i * 5) % 6] = 1;   // 0, 5, 4, 3, 2, 1: selections of n spread over x
            TensorValue m = TensorValue.ofLongs(DType.BOOL, new long[]{6}, bits);
            Map<String, TensorValue> got = agreeInEveryMode(topKByMin("sel", "v", "vi"), feed("x", x, "m", m, "m2", m));
            assertThat(got.get("v").shape()).as("%d selected", n).containsExactly(Math.min(3, n));
        }
        TensorValue some = TensorValue.ofLongs(DType.BOOL, new long[]{6}, 1, 1, 0, 1, 0, 1);
        agreeInEveryMode(topKByMin("neg", "v", "vi"), feed("x", x, "m", some, "m2", some));   // the count of -sel: the same extent
        OnnxOpRuns.refused(dir, topKByMin("sel2", "v", "vi"), "node 'sh' (Shape, #7, opset 18): reads a tensor computed from a data-dependent output of node 'nz2', "
                + "whose shape is known only after its kernel runs; Shape is evaluated at import, from the upper bound; node 'top' (TopK) takes its k as the minimum of a "
                + "constant and it, which the importer reads only where axis 0 of 'sel2' and axis 0 of 'sel' are bounded by one runtime extent, and here they are bounded "
                + "by two extents, whose actual counts may differ");
        OnnxOpRuns.refused(dir, topKByMin("sel", "v", "k"), "node 'sh' (Shape, #7, opset 18): reads a tensor computed from a data-dependent output of node 'nz', "
                + "whose shape is known only after its kernel runs; Shape is evaluated at import, from the upper bound; its axis 0 of 'sel' is the bounded one, "
                + "and node graph output 'k' reads the value as a constant");
    }

    /**
     * {@link #aTopKByTheMinimumOfAConstantAndTheCountAgreesWithOnnxRuntimeInEveryMode}'s model: sel = x[m], sel2 = x[m2],
     * neg = -sel; k from the Shape of {@code counted}; outputs {@code a} and {@code b}.
     */
    private static TinyOnnx topKByMin(String counted, String a, String b) {
        return new TinyOnnx().opset(18).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).input(OnnxDTypes.BOOL, "m2", 6L).scalar("three", 3).ints("ax0", 0).ints("flat", -1)
                .node("nz", "NonZero", List.of("m"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                .node("nz2", "NonZero", List.of("m2"), List.of("i2"))
                .node("tr2", "Transpose", List.of("i2"), List.of("t2"), "perm", new long[]{1, 0})
                .node("gn2", "GatherND", List.of("x", "t2"), List.of("sel2"))
                .node("neg", "Neg", List.of("sel"), List.of("neg"))
                .node("sh", "Shape", List.of(counted), List.of("s"), "start", 0L, "end", 1L)
                .node("sq", "Squeeze", List.of("s", "ax0"), List.of("n"))
                .node("mn", "Min", List.of("three", "n"), List.of("kmin"))
                .node("rs", "Reshape", List.of("kmin", "flat"), List.of("k"))
                .node("top", "TopK", List.of("sel", "k"), List.of("v", "vi"), "axis", -1L, "largest", 1L, "sorted", 1L)
                .outputOfType(OnnxDTypes.FLOAT, a).outputOfType(OnnxDTypes.INT64, b);
    }

    /** Every executor mode on the simulator stops the run of {@code model} on {@code in} before the launch, with {@code message} ({@code exec.LaunchChecks}). */
    private void stopsInEveryMode(TinyOnnx model, Map<String, TensorValue> in, String message) throws Exception {
        OnnxOpRuns.stopsInEveryMode(dir, model, in, message);
    }

    /**
     * x[mask] as torch.onnx exports it (TorchScript and dynamo): NonZero of the mask, Transpose to
     * [n, rank], GatherND of x by those rows: every element of x above 0.3 ([n]), and the rows of r
     * whose s is positive ([n, 3], then doubled); some, none and all selected. Refused before
     * GatherND carried bounded indices ("GatherND does not read a bounded tensor").
     */
    @Test
    void booleanMaskIndexingAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 4L, 5L).input("s", 5L).input("r", 5L, 3L).floats("thr", 0.3f).floats("zero", 0f).floats("two", 2f)
                .node("gt", "Greater", List.of("x", "thr"), List.of("mask")).select("", "x", "mask", "y")
                .node("pos", "Greater", List.of("s", "zero"), List.of("rowMask")).select("2", "r", "rowMask", "rows")
                .node("dbl", "Mul", List.of("rows", "two"), List.of("rows2"))
                .outputOfType(OnnxDTypes.FLOAT, "y").outputOfType(OnnxDTypes.FLOAT, "rows2");
        float[] x = new float[20], r = new float[15];
        for (int i = 0; i < 20; i++) x[i] = (i * 7 % 11) / 10f - 0.2f;
        for (int i = 0; i < 15; i++) r[i] = i + 1;
        TensorValue xs = TensorValue.ofFloats(new long[]{4, 5}, x), rs = TensorValue.ofFloats(new long[]{5, 3}, r);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", xs, "s", TensorValue.ofFloats(new long[]{5}, 1, -1, 2, -2, 3), "r", rs));
        assertThat(got.get("rows2").shape()).containsExactly(3, 3);
        assertThat(got.get("rows2").floats()).containsExactly(2, 4, 6, 14, 16, 18, 26, 28, 30);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{4, 5}, new float[20]), "s", TensorValue.ofFloats(new long[]{5}, new float[5]), "r", rs));
        float[] ones = new float[20];
        java.util.Arrays.fill(ones, 1);
        agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{4, 5}, ones), "s", TensorValue.ofFloats(new long[]{5}, 1, 1, 1, 1, 1), "r", rs));
    }

    /**
     * CTC greedy decoding as torch.onnx's dynamo exporter writes {@code u = unique_consecutive(argmax(logp)); u[u != blank]}
     * (the graph of ctc_greedy in /work/notes/zoo-text-harness): ArgMax, Gather, the consecutive-unique mask (Slice,
     * Concat, Equal, Not) and Compress; then the blank mask (Equal, Not), NonZero of that bounded mask, Transpose,
     * Squeeze, torch's index broadcast of one index tensor ({@code Expand(i, Shape(Max(i)))}, imported as ExpandAs),
     * Unsqueeze and GatherND of the bounded Compress output by those bounded indices. Some blanks, all blank (nothing
     * decoded) and no blank, in every executor mode against ONNX Runtime. Refused before: "Shape is evaluated at
     * import, from the upper bound".
     */
    @Test
    void ctcGreedyDecodingAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = ctcGreedy(12);
        long[][] paths = {{0, 2, 2, 0, 1, 1, 3, 0, 0, 3, 3, 2}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 2, 3, 3, 1, 2, 2, 2, 3, 1, 2}};
        long[][] want = {{2, 1, 3, 3, 2}, {}, {1, 2, 3, 1, 2, 3, 1, 2}};
        for (int c = 0; c < paths.length; c++) {
            Map<String, TensorValue> got = agreeInEveryMode(m, feed("logp", ctcLogits(paths[c])));
            assertThat(got.get("out").longs()).as("path %d", c).containsExactly(want[c]);
        }
    }

    /**
     * The same decoding of a single step: every bounded tensor has a bound of 1, so the Unsqueeze of the
     * kept indices [n] to [n, 1] has two axes of one element that could carry the bound; the Unsqueeze's
     * axes (kept at import) say it is axis 0. Refused before: "output [1, 1] has two axes (0 and 1) that
     * could be the bounded axis 0 of [1]"; ONNX Runtime runs it.
     */
    @Test
    void ctcGreedyDecodingOfOneStepAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = ctcGreedy(1);
        for (long label = 0; label < 4; label++) {
            Map<String, TensorValue> got = agreeInEveryMode(m, feed("logp", ctcLogits(new long[]{label})));
            assertThat(got.get("out").longs()).as("label %d", label).containsExactly(label == 0 ? new long[0] : new long[]{label});
        }
    }

    /** Log-probabilities [1, T, 4] whose argmax at step t is {@code path[t]}. */
    private static TensorValue ctcLogits(long[] path) {
        float[] logp = new float[4 * path.length];
        for (int t = 0; t < path.length; t++) for (int k = 0; k < 4; k++) logp[4 * t + k] = k == path[t] ? -0.1f : -3f - 0.1f * k;
        return TensorValue.ofFloats(new long[]{1, path.length, 4}, logp);
    }

    /** The dynamo export's decoding graph for [1, steps, 4] log-probabilities, blank 0. */
    private static TinyOnnx ctcGreedy(long steps) {
        int i64 = OnnxDTypes.INT64;
        return new TinyOnnx().opset(18).input("logp", 1L, steps, 4L).scalar("zero", 0).ints("z1", 0).ints("m1", -1).ints("big", Integer.MAX_VALUE).ints("one", 1)
                .node("am", "ArgMax", List.of("logp"), List.of("best3"), "axis", -1L, "keepdims", 0L)
                .node("sel", "Gather", List.of("best3", "zero"), List.of("best"), "axis", 0L)
                .node("prev", "Slice", List.of("best", "z1", "m1", "z1"), List.of("head"))
                .node("cat", "Concat", List.of("big", "head"), List.of("shifted"), "axis", 0L)
                .node("eq", "Equal", List.of("best", "shifted"), List.of("same"))
                .node("nt", "Not", List.of("same"), List.of("keep"))
                .node("uc", "Compress", List.of("best", "keep"), List.of("u"), "axis", 0L)
                .node("eqb", "Equal", List.of("u", "zero"), List.of("blank"))
                .node("ne", "Not", List.of("blank"), List.of("ne"))
                .node("nz", "NonZero", List.of("ne"), List.of("nzi"))
                .node("tr", "Transpose", List.of("nzi"), List.of("nzt"), "perm", new long[]{1, 0})
                .node("sq", "Squeeze", List.of("nzt", "one"), List.of("idx"))
                .node("mx", "Max", List.of("idx"), List.of("bcast"))
                .node("sh", "Shape", List.of("bcast"), List.of("shape"))
                .node("ex", "Expand", List.of("idx", "shape"), List.of("idxe"))
                .node("us", "Unsqueeze", List.of("idxe", "m1"), List.of("idx2"))
                .node("gn", "GatherND", List.of("u", "idx2"), List.of("out"))
                .output(i64, "out", "n");
    }

    /** x [6] and k [6] to u = Compress(x, k > 0), then {@code rest}. */
    private static TinyOnnx compressed() {
        return new TinyOnnx().opset(13).input("x", 6L).input("k", 6L).floats("z", 0f).ints("zero", 0).ints("ax1", 1)
                .node("gt", "Greater", List.of("k", "z"), List.of("keep"))
                .node("c", "Compress", List.of("x", "keep"), List.of("u"), "axis", 0L);
    }

    /**
     * GatherND of data bounded along axis 0 (a Compress output) by indices known before the run, one
     * negative: ONNX wraps it by the actual extent, not the bound (u[-1] is the last kept element); the
     * output is not bounded.
     */
    @Test
    void gatherNdOfBoundedDataWrapsANegativeIndexByTheActualExtent() throws Exception {
        TinyOnnx m = compressed().ints("at", -1, 0)
                .node("us", "Unsqueeze", List.of("at", "ax1"), List.of("at2"))
                .node("g", "GatherND", List.of("u", "at2"), List.of("y"))
                .outputOfType(OnnxDTypes.FLOAT, "y");
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 1, 2, 3, 4, 5, 6);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, 1, 0, 1, 1, 0, 0)));
        assertThat(got.get("y").floats()).containsExactly(4, 1);
    }

    /**
     * Gather of data bounded along the gathered axis (torchvision's {@code boxes[keep]} then
     * {@code boxes[inds]} with {@code inds = where(scores[keep] > t)[0]}): rows r [6, 2] and values x
     * [6] compressed by k > 0, then gathered by the bounded indices of their values above 2.5 (two
     * runtime extents) and by a constant -1 (wrapped by the actual extent: the last kept value); some
     * kept, nothing kept (u[-1] of an empty u stops the run in ONNX Runtime, so without that output),
     * all kept. Refused before: "its data and its indices are both bounded" / "it gathers along the
     * bounded axis 0 itself".
     */
    @Test
    void gatherOfBoundedDataByBoundedIndicesAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = compressed().input("r", 6L, 2L).floats("thr", 2.5f).ints("ax0", 0).scalar("last", -1)
                .node("cr", "Compress", List.of("r", "keep"), List.of("rows"), "axis", 0L)
                .node("big", "Greater", List.of("u", "thr"), List.of("isBig"))
                .node("nz", "NonZero", List.of("isBig"), List.of("nzi"))
                .node("sq", "Squeeze", List.of("nzi", "ax0"), List.of("inds"))
                .node("gv", "Gather", List.of("u", "inds"), List.of("vals"), "axis", 0L)
                .node("gr", "Gather", List.of("rows", "inds"), List.of("bigRows"), "axis", 0L)
                .outputOfType(OnnxDTypes.FLOAT, "vals").outputOfType(OnnxDTypes.FLOAT, "bigRows");
        TinyOnnx withLast = compressed().scalar("last", -1).node("gl", "Gather", List.of("u", "last"), List.of("lastKept"), "axis", 0L)
                .outputOfType(OnnxDTypes.FLOAT, "lastKept");
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 1, 4, 3, 2, 5, 6), r = TensorValue.ofFloats(new long[]{6, 2}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        TensorValue some = TensorValue.ofFloats(new long[]{6}, 1, 0, 1, 1, 1, 0);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", x, "k", some, "r", r));
        assertThat(got.get("vals").floats()).containsExactly(3, 5);
        assertThat(got.get("bigRows").floats()).containsExactly(5, 6, 9, 10);
        assertThat(agreeInEveryMode(withLast, feed("x", x, "k", some)).get("lastKept").floats()).containsExactly(5);
        agreeInEveryMode(m, feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, new float[6]), "r", r));
        TensorValue all = TensorValue.ofFloats(new long[]{6}, 1, 1, 1, 1, 1, 1);
        agreeInEveryMode(m, feed("x", x, "k", all, "r", r));
        agreeInEveryMode(withLast, feed("x", x, "k", all));
    }

    /**
     * Gather and GatherND of data bounded along the gathered axis (u = Compress(x, k > 0)) by indices known
     * before the run: every index is real, so ONNX Runtime checks each against the actual extent, and so
     * does every mode here, before the launch (index 0 or -1 of an empty u, index 2 or -3 of two kept),
     * naming the node, the index and the actual extent; some and all kept agree. Before, an index into an
     * empty u was checked against at least 1 (the padding's rule) and read the bound's zeros with exit 0.
     * (ONNX Runtime 1.22's Java build crashes the JVM on GatherND of an empty u, so that case is not run there;
     * ONNX Runtime 1.30 in Python fails it: "invalid index found, index = 0".)
     */
    @Test
    void aGatherOfBoundedDataByIndicesKnownBeforeTheRunStopsWhereAnIndexPassesTheActualExtent() throws Exception {
        java.util.function.Function<long[], TinyOnnx> gathers = at -> compressed().ints("at", at)
                .node("us", "Unsqueeze", List.of("at", "ax1"), List.of("at2"))
                .node("g", "Gather", List.of("u", "at"), List.of("y"), "axis", 0L)
                .node("gn", "GatherND", List.of("u", "at2"), List.of("ynd"))
                .outputOfType(OnnxDTypes.FLOAT, "y").outputOfType(OnnxDTypes.FLOAT, "ynd");
        java.util.function.Function<long[], TinyOnnx> g = at -> compressed().ints("at", at)
                .node("g", "Gather", List.of("u", "at"), List.of("y"), "axis", 0L).outputOfType(OnnxDTypes.FLOAT, "y");
        java.util.function.Function<long[], TinyOnnx> nd = at -> compressed().ints("at", at)
                .node("us", "Unsqueeze", List.of("at", "ax1"), List.of("at2"))
                .node("gn", "GatherND", List.of("u", "at2"), List.of("ynd")).outputOfType(OnnxDTypes.FLOAT, "ynd");
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 1, 2, 3, 4, 5, 6);
        TensorValue none = TensorValue.ofFloats(new long[]{6}, new float[6]), two = TensorValue.ofFloats(new long[]{6}, 0, 1, 0, 0, 1, 0);
        TensorValue all = TensorValue.ofFloats(new long[]{6}, 1, 1, 1, 1, 1, 1);
        assertThat(agreeInEveryMode(gathers.apply(new long[]{1, -2}), feed("x", x, "k", two)).get("y").floats()).containsExactly(5, 2);
        assertThat(agreeInEveryMode(gathers.apply(new long[]{5, -6, 0}), feed("x", x, "k", all)).get("ynd").floats()).containsExactly(6, 1, 1);
        String[] ortSays = {"indices element out of data bounds, idx=", "invalid index found, index = "};
        for (long[] at : new long[][]{{0}, {-1}, {2}, {0, -3}})
            for (TensorValue k : new TensorValue[]{none, two}) {
                long bad = k == none ? at[0] : at[at.length - 1], actual = k == none ? 0 : 2;
                if (bad >= -actual && bad < actual) continue;
                Map<String, TensorValue> in = feed("x", x, "k", k);
                int element = k == none ? 0 : at.length - 1;
                assertThatThrownBy(() -> OrtOracle.run(g.apply(at).bytes(), in)).hasMessageContaining(ortSays[0] + bad);
                stopsInEveryMode(g.apply(at), in, "'g': Gather: index " + bad + " (element " + element + " of its indices) is outside the " + actual
                        + " slices its data holds along the gathered axis in this run (the runtime extent of its bounded data); ONNX Gather takes indices in [-s, s - 1] for an axis of s");
                if (actual > 0) assertThatThrownBy(() -> OrtOracle.run(nd.apply(at).bytes(), in)).hasMessageContaining(ortSays[1] + bad);   // empty data: see above
                stopsInEveryMode(nd.apply(at), in, "'gn': GatherND: index " + bad + " (element " + element + " of its indices) is outside the " + actual
                        + " slices its data holds along axis 0 in this run (the runtime extent of its bounded data); ONNX GatherND takes indices in [-s, s - 1] for an axis of s");
            }
    }

    /**
     * Gather and GatherND of data bounded along the gathered axis (u = Compress(x, k > 0)) by bounded indices
     * (the positions of m's non-zero elements): their real indices are checked against u's actual extent,
     * as ONNX Runtime checks them, their padding (the tail's zeros) not; m selecting nothing runs (empty
     * outputs) whatever u keeps, m selecting position 0 or 5 where u keeps nothing, or 5 where it keeps two,
     * stops every mode before the launch. Before, a real index 0 into an empty u read the bound's zeros with exit 0.
     * (GatherND of an empty u is not run in ONNX Runtime 1.22's Java build, which crashes the JVM on it; 1.30 in
     * Python fails it: "invalid index found, index = 0".)
     */
    @Test
    void aGatherOfBoundedDataByBoundedIndicesChecksTheRealIndicesOnly() throws Exception {
        TinyOnnx m = compressed().input("m", 6L).ints("ax0", 0)
                .node("nz", "NonZero", List.of("m"), List.of("nzi"))
                .node("sq", "Squeeze", List.of("nzi", "ax0"), List.of("at"))
                .node("g", "Gather", List.of("u", "at"), List.of("y"), "axis", 0L)
                .node("tr", "Transpose", List.of("nzi"), List.of("at2"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("u", "at2"), List.of("ynd"))
                .outputOfType(OnnxDTypes.FLOAT, "y").outputOfType(OnnxDTypes.FLOAT, "ynd");
        TinyOnnx g = compressed().input("m", 6L).ints("ax0", 0)
                .node("nz", "NonZero", List.of("m"), List.of("nzi"))
                .node("sq", "Squeeze", List.of("nzi", "ax0"), List.of("at"))
                .node("g", "Gather", List.of("u", "at"), List.of("y"), "axis", 0L).outputOfType(OnnxDTypes.FLOAT, "y");
        TinyOnnx nd = compressed().input("m", 6L)
                .node("nz", "NonZero", List.of("m"), List.of("nzi"))
                .node("tr", "Transpose", List.of("nzi"), List.of("at2"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("u", "at2"), List.of("ynd")).outputOfType(OnnxDTypes.FLOAT, "ynd");
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 1, 2, 3, 4, 5, 6), nothing = TensorValue.ofFloats(new long[]{6}, new float[6]);
        TensorValue two = TensorValue.ofFloats(new long[]{6}, 0, 1, 0, 0, 1, 0), all = TensorValue.ofFloats(new long[]{6}, 1, 1, 1, 1, 1, 1);
        TensorValue first = TensorValue.ofFloats(new long[]{6}, 1, 0, 0, 0, 0, 0), last = TensorValue.ofFloats(new long[]{6}, 0, 0, 0, 0, 0, 1);
        for (TensorValue k : new TensorValue[]{nothing, two, all}) assertThat(agreeInEveryMode(m, feed("x", x, "k", k, "m", nothing)).get("y").shape()).containsExactly(0);
        assertThat(agreeInEveryMode(m, feed("x", x, "k", two, "m", TensorValue.ofFloats(new long[]{6}, 1, 1, 0, 0, 0, 0))).get("ynd").floats()).containsExactly(2, 5);
        assertThat(agreeInEveryMode(m, feed("x", x, "k", all, "m", last)).get("y").floats()).containsExactly(6);
        for (TensorValue[] km : new TensorValue[][]{{nothing, first}, {nothing, last}, {two, last}}) {
            Map<String, TensorValue> in = feed("x", x, "k", km[0], "m", km[1]);
            long bad = km[1] == first ? 0 : 5, actual = km[0] == two ? 2 : 0;
            assertThatThrownBy(() -> OrtOracle.run(g.bytes(), in)).hasMessageContaining("indices element out of data bounds, idx=" + bad);
            stopsInEveryMode(g, in, "'g': Gather: index " + bad + " (element 0 of its indices) is outside the " + actual
                    + " slices its data holds along the gathered axis in this run (the runtime extent of its bounded data); ONNX Gather takes indices in [-s, s - 1] for an axis of s");
            if (actual > 0) assertThatThrownBy(() -> OrtOracle.run(nd.bytes(), in)).hasMessageContaining("invalid index found, index = " + bad);   // empty data: see above
            stopsInEveryMode(nd, in, "'gn': GatherND: index " + bad + " (element 0 of its indices) is outside the " + actual
                    + " slices its data holds along axis 0 in this run (the runtime extent of its bounded data); ONNX GatherND takes indices in [-s, s - 1] for an axis of s");
        }
    }

    /**
     * Split along the bounded axis without 'split' of u = Compress(x, k > 0) ([n, 2] rows of a bound
     * 6): ONNX Runtime 1.30 splits the actual n rows, before opset 18 into n / 2 each (n = 0 gives
     * empty parts; an odd n fails), with num_outputs 2 into ceil(n / 2) and the rest (n below 2
     * fails). Each part is bounded by a runtime extent of its own, which split_bounded writes; a
     * Transpose (which reads that count) and a Mul read the parts, and an even Split along axis 1,
     * not the bounded one, runs beside. Some, none and all kept agree with ONNX Runtime in every
     * mode; where ONNX Runtime fails, every mode stops before the launch naming the op and the
     * counts. Refused when the graph was built before ("... so each part would need a runtime extent
     * of its own").
     */
    @Test
    void anEvenSplitOfTheBoundedAxisAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[]{6, 2}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        for (long opset : new long[]{13, 18}) {
            TinyOnnx m = new TinyOnnx().opset(opset).input("x", 6L, 2L).input("k", 6L).floats("z", 0f).floats("two", 2f)
                    .node("gt", "Greater", List.of("k", "z"), List.of("keep"))
                    .node("c", "Compress", List.of("x", "keep"), List.of("u"), "axis", 0L)
                    .node("sp", "Split", List.of("u"), List.of("a", "b"), opset >= 18 ? new Object[]{"axis", 0L, "num_outputs", 2L} : new Object[]{"axis", 0L})
                    .node("mul", "Mul", List.of("a", "two"), List.of("a2"))
                    .node("tr", "Transpose", List.of("b"), List.of("bt"), "perm", new long[]{1, 0})
                    .node("cols", "Split", List.of("u"), List.of("c0", "c1"), opset >= 18 ? new Object[]{"axis", 1L, "num_outputs", 2L} : new Object[]{"axis", 1L})
                    .outputOfType(OnnxDTypes.FLOAT, "a2").outputOfType(OnnxDTypes.FLOAT, "b").outputOfType(OnnxDTypes.FLOAT, "bt").outputOfType(OnnxDTypes.FLOAT, "c1");
            Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, 1, 0, 1, 1, 0, 1)));
            assertThat(got.get("a2").floats()).as("opset %d", opset).containsExactly(2, 4, 10, 12);
            assertThat(got.get("bt").shape()).as("opset %d", opset).containsExactly(2, 2);
            assertThat(got.get("bt").floats()).as("opset %d", opset).containsExactly(7, 11, 8, 12);
            got = agreeInEveryMode(m, feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, 1, 1, 1, 1, 1, 1)));
            assertThat(got.get("b").floats()).as("opset %d", opset).containsExactly(7, 8, 9, 10, 11, 12);
            Map<String, TensorValue> three = feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, 0, 1, 0, 1, 0, 1));
            Map<String, TensorValue> none = feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, 0, 0, 0, 0, 0, 0));
            if (opset < 18) {
                got = agreeInEveryMode(m, none);
                assertThat(got.get("a2").shape()).containsExactly(0, 2);
                assertThatThrownBy(() -> OrtOracle.run(m.bytes(), three)).hasMessageContaining("Input cannot be split evenly on selected axis");
                stopsInEveryMode(m, three, "'sp': Split: its input holds 3 along the split axis in this run (the runtime extent of its bounded input), "
                        + "which does not split into 2 equal parts; ONNX Runtime fails such a run");
            } else {
                got = agreeInEveryMode(m, three);
                assertThat(got.get("a2").floats()).containsExactly(6, 8, 14, 16);
                assertThat(got.get("b").floats()).containsExactly(11, 12);
                Map<String, TensorValue> one = feed("x", x, "k", TensorValue.ofFloats(new long[]{6}, 0, 0, 0, 1, 0, 0));
                assertThatThrownBy(() -> OrtOracle.run(m.bytes(), one)).hasMessageContaining("Invalid num_outputs value of 2");
                assertThatThrownBy(() -> OrtOracle.run(m.bytes(), none)).hasMessageContaining("Invalid num_outputs value of 2");
                stopsInEveryMode(m, one, "'sp': Split: its input holds 1 along the split axis in this run (the runtime extent of its bounded input), "
                        + "which num_outputs 2 does not split into 1 parts of ceil(1 / 2) = 1 and a non-empty rest; ONNX Runtime fails such a run");
            }
        }
    }

    /**
     * Split-18's num_outputs 3 of the bounded axis: n = 4 of a bound 6 fails in ONNX Runtime ([2, 2] and
     * nothing left), and so does every mode here; n = 5 runs ([2, 2, 1]); a bound of 7 ([3, 3, 1]) is refused when the graph is
     * built, since n = 6 gives [2, 2, 2], more than the last part's bound.
     */
    @Test
    void numOutputsOfTheBoundedAxisFailsAsOnnxRuntimeAndNeedsTheLastPartsBoundToHoldTheRest() throws Exception {
        for (long bound : new long[]{6, 7}) {
            TinyOnnx m = new TinyOnnx().opset(18).input("x", bound).input("k", bound).floats("z", 0f)
                    .node("gt", "Greater", List.of("k", "z"), List.of("keep"))
                    .node("c", "Compress", List.of("x", "keep"), List.of("u"), "axis", 0L)
                    .node("sp", "Split", List.of("u"), List.of("a", "b", "c3"), "axis", 0L, "num_outputs", 3L)
                    .outputOfType(OnnxDTypes.FLOAT, "a").outputOfType(OnnxDTypes.FLOAT, "b").outputOfType(OnnxDTypes.FLOAT, "c3");
            float[] xs = new float[(int) bound], ks = new float[(int) bound];
            for (int i = 0; i < bound; i++) { xs[i] = i + 1; ks[i] = i < 4 ? 1 : 0; }
            Map<String, TensorValue> four = feed("x", TensorValue.ofFloats(new long[]{bound}, xs), "k", TensorValue.ofFloats(new long[]{bound}, ks));
            assertThatThrownBy(() -> OrtOracle.run(m.bytes(), four)).hasMessageContaining("running Split node. Name:'sp'");   // 1.30's Python: "Split size 2 exceeds the remaining size"
            if (bound == 6) {
                stopsInEveryMode(m, four, "'sp': Split: its input holds 4 along the split axis in this run (the runtime extent of its bounded input), "
                        + "which num_outputs 3 does not split into 2 parts of ceil(4 / 3) = 2 and a non-empty rest; ONNX Runtime fails such a run");
                Arrays.fill(ks, 1);
                ks[5] = 0;
                Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{bound}, xs), "k", TensorValue.ofFloats(new long[]{bound}, ks)));
                assertThat(got.get("c3").floats()).containsExactly(5);
            } else {
                OnnxOpRuns.refused(dir, m, "op 'sp' (Split, position 2) reads 'u', a data-dependent output of op 'c' (Compress), whose shape is known only after its kernel runs; "
                        + "Split reads it only where its kernels leave the result compact, and here it splits the bounded axis 0 of [7] into 3 parts by num_outputs, whose last one "
                        + "holds up to 2 rows where fewer than 7 are kept, more than its bound 1");
            }
        }
    }

    /**
     * Split-18's num_outputs 2 of a bound 5 ([3] and [2]) read by one Add: ONNX Runtime runs it where 2, 3 or 4
     * are selected (parts [1] + [1], [2] + [1] broadcast, [2] + [2]) and fails where 5 are ([3] + [2]). Refused
     * when imported, naming both parts as held at different upper bounds, not as a model whose shapes do not
     * broadcast (before: "... 'p0' is computed from a data-dependent output ... held at its upper bound [3]").
     */
    @Test
    void partsOfDifferentBoundsReadByOneOpAreRefusedNamingBothBounds() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 5L).input(OnnxDTypes.BOOL, "mask", 5L)
                .node("nz", "NonZero", List.of("mask"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                .node("sp", "Split", List.of("sel"), List.of("p0", "p1"), "axis", 0L, "num_outputs", 2L)
                .node("add", "Add", List.of("p0", "p1"), List.of("y"))
                .outputOfType(OnnxDTypes.FLOAT, "y");
        TensorValue x = TensorValue.ofFloats(new long[]{5}, 1, 2, 3, 4, 5);
        assertThat(OrtOracle.run(m.bytes(), feed("x", x, "mask", TensorValue.ofLongs(DType.BOOL, new long[]{5}, 1, 1, 1, 0, 0))).get("y").floats()).containsExactly(4, 5);
        assertThatThrownBy(() -> OrtOracle.run(m.bytes(), feed("x", x, "mask", TensorValue.ofLongs(DType.BOOL, new long[]{5}, 1, 1, 1, 1, 1)))).hasMessageContaining("broadcast");
        OnnxOpRuns.refused(dir, m, "node 'add' (Add, #4, opset 18): shapes [3] and [2] do not broadcast (inputs p0[3], p1[2]); 'p0' and 'p1' are computed from "
                + "data-dependent outputs (node 'nz') and held at their upper bounds [3] and [2], their actual extents known only after the run: ONNX takes their actual "
                + "shapes, which may fit in one run and not in another, and arenaplan does not plan an op over inputs held at different upper bounds");
    }

    /**
     * One expert of HF's mixture-of-experts layers ({@code SwitchTransformersExperts}) as the
     * TorchScript exporter writes it (opset 17): {@code idx, top_x = torch.where(mask)} (NonZero,
     * Transpose, Split along axis 1, Squeeze), the selected states through the expert's linear layer
     * (Gather, MatMul of the bounded rows), the routing weights {@code w[top_x, idx, None]} (a flat
     * Gather, then Reshape by {@code Concat(Shape(top_x + idx), [1])}: the Shape of a bounded tensor,
     * written -1 at import and proved bounded by the same extent when the graph is built), their
     * product, {@code Expand(y, [1, 3])} and index_add_'s index broadcast {@code Expand(Unsqueeze(top_x),
     * Shape(y))} (ExpandAs broadcasting [m, 1] to [m, 3]) and index_add_ itself (ScatterElements of
     * zeros at those rows, whose kernel applies the actual rows only: the tail's zero indices would
     * overwrite row 0, then an Add); some, no and all tokens routed here. Refused before at the Shape
     * node ("Shape is evaluated at import, from the upper bound"), then at MatMul, Expand and
     * ScatterElements ("does not read a bounded tensor").
     */
    @Test
    void anExpertOfAMixtureOfExpertsLayerAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("sel", 1L, 6L).input("h", 6L, 4L).input("w", 4L, 3L).input("rw", 6L, 1L)
                .ints("ones", 1, 1).ints("ax1", 1).ints("minus1", -1).ints("one", 1).ints("row", 1, 3)
                .node("nz", "NonZero", List.of("sel"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("sp", "Split", List.of("t", "ones"), List.of("a", "b"), "axis", 1L)
                .node("sa", "Squeeze", List.of("a", "ax1"), List.of("idx"))
                .node("sb", "Squeeze", List.of("b", "ax1"), List.of("topx"))
                .node("gh", "Gather", List.of("h", "topx"), List.of("states"), "axis", 0L)
                .node("mm", "MatMul", List.of("states", "w"), List.of("y"))
                .node("lin", "Add", List.of("idx", "topx"), List.of("at"))
                .node("gw", "Gather", List.of("rw", "at"), List.of("g"), "axis", 0L)
                .node("c0", "Concat", List.of("minus1", "one"), List.of("s0"), "axis", 0L)
                .node("r1", "Reshape", List.of("g", "s0"), List.of("g1"))
                .node("sh", "Shape", List.of("at"), List.of("n"))
                .node("c1", "Concat", List.of("n", "one"), List.of("s1"), "axis", 0L)
                .node("r2", "Reshape", List.of("g1", "s1"), List.of("g2"))
                .node("mul", "Mul", List.of("y", "g2"), List.of("p"))
                .node("ex", "Expand", List.of("p", "row"), List.of("pe"))
                .node("un", "Unsqueeze", List.of("topx", "ax1"), List.of("tu"))
                .node("sh2", "Shape", List.of("pe"), List.of("ps"))
                .node("ea", "Expand", List.of("tu", "ps"), List.of("index"))
                .raw("zeros", new float[18]).ints("shape63", 6, 3)
                .node("z", "Reshape", List.of("zeros", "shape63"), List.of("z63"))
                .node("put", "ScatterElements", List.of("z63", "index", "pe"), List.of("added"), "axis", 0L)
                .node("acc", "Add", List.of("h3", "added"), List.of("out"))
                .input("h3", 6L, 3L)
                .outputOfType(OnnxDTypes.FLOAT, "pe").outputOfType(OnnxDTypes.INT64, "index").outputOfType(OnnxDTypes.FLOAT, "g2").outputOfType(OnnxDTypes.FLOAT, "out");
        TensorValue h = TensorValue.ofFloats(new long[]{6, 4}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -1, -2, -3, -4, 0.5f, 0.25f, 2, 1, 3, 1, 4, 1);
        TensorValue w = TensorValue.ofFloats(new long[]{4, 3}, 1, 0, 2, 0, 1, -1, 3, 1, 0, -2, 0, 1);
        TensorValue rw = TensorValue.ofFloats(new long[]{6, 1}, 0.9f, 0.8f, 0.7f, 0.6f, 0.5f, 0.4f);
        float[] ones = new float[18];
        java.util.Arrays.fill(ones, 1);
        TensorValue h3 = TensorValue.ofFloats(new long[]{6, 3}, ones);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("sel", TensorValue.ofFloats(new long[]{1, 6}, 0, 1, 0, 1, 1, 0), "h", h, "w", w, "rw", rw, "h3", h3));
        assertThat(got.get("pe").shape()).containsExactly(3, 3);
        assertThat(got.get("index").longs()).containsExactly(1, 1, 1, 3, 3, 3, 4, 4, 4);
        assertThat(java.util.Arrays.copyOf(got.get("out").floats(), 3)).containsExactly(1, 1, 1);   // row 0 not routed: the tail's zero indices not applied
        agreeInEveryMode(m, feed("sel", TensorValue.ofFloats(new long[]{1, 6}, new float[6]), "h", h, "w", w, "rw", rw, "h3", h3));
        agreeInEveryMode(m, feed("sel", TensorValue.ofFloats(new long[]{1, 6}, 1, 1, 1, 1, 1, 1), "h", h, "w", w, "rw", rw, "h3", h3));
    }

    /**
     * HF's mixture-of-experts loop over the experts hit ({@code for expert_idx in expert_hit}) as the
     * TorchScript exporter unrolls it for the experts of one run: NonZero, Transpose, Split of the
     * bounded axis into one part per expert, each a row index. With every expert hit the parts are
     * the whole bound and the model runs as in ONNX Runtime; with fewer ONNX Runtime fails the run
     * ("Cannot split using values in 'split'"), and so does every mode here, before the parts are
     * read (check_extent). Refused before ("it splits the bounded axis 0 itself").
     */
    @Test
    void aSplitOfTheBoundedAxisIntoFixedPartsRunsOnlyWhereTheyAreWhole() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("hits", 3L).input("table", 3L, 2L).floats("zero", 0f).ints("parts", 1, 1, 1).ints("ax1", 1)
                .node("gt", "Greater", List.of("hits", "zero"), List.of("hit"))
                .node("nz", "NonZero", List.of("hit"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("sp", "Split", List.of("t", "parts"), List.of("e0", "e1", "e2"), "axis", 0L)
                .node("s2", "Squeeze", List.of("e2", "ax1"), List.of("k2"))
                .node("g", "Gather", List.of("table", "k2"), List.of("row"), "axis", 0L)
                .outputOfType(OnnxDTypes.INT64, "e0").outputOfType(OnnxDTypes.FLOAT, "row");
        TensorValue table = TensorValue.ofFloats(new long[]{3, 2}, 1, 2, 3, 4, 5, 6);
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("hits", TensorValue.ofFloats(new long[]{3}, 2, 1, 3), "table", table));
        assertThat(got.get("row").floats()).containsExactly(5, 6);
        Map<String, TensorValue> two = feed("hits", TensorValue.ofFloats(new long[]{3}, 2, 0, 3), "table", table);
        assertThatThrownBy(() -> OrtOracle.run(m.bytes(), two)).hasMessageContaining("Cannot split using values in 'split'");
        stopsInEveryMode(m, two, "'sp': Split: its parts sum to 3, but its input holds 2 along the split axis in this run (the runtime extent of its bounded input); "
                + "ONNX Split needs the parts to sum to the axis's extent");
    }

    /**
     * {@code x[mask].split(2)} as the TorchScript exporter writes it (opset 14 and 17; 'split' an attribute
     * at opset 11): NonZero, Transpose, GatherND, then a Split by the sizes of the traced run, [2, 2] of a
     * bound 6, each part doubled. ONNX Runtime runs it only where 4 are selected (1.30's Python API: "Split size
     * 2 exceeds the remaining size of the selected axis" for fewer, "Cannot split using values in 'split'" for more), and
     * so does every mode here: 4 agree, 2, 3 and 6 stop before the launch (check_extent, the parts' sum).
     * The same parts along an axis other than the bounded one, whose extent is then known before the run,
     * are refused when the graph is built. Refused at import before ("split [2, 2] sums to 4, not to 6").
     */
    @Test
    void aSplitOfTheBoundedAxisIntoPartsSummingToLessThanTheBoundRunsWhereTheyAreWhole() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 3, -1, 4, 1, -5, 9);
        for (long opset : new long[]{11, 17}) {
            TinyOnnx m = new TinyOnnx().opset(opset).input("x", 6L).input(OnnxDTypes.BOOL, "mask", 6L).ints("parts", 2, 2).floats("two", 2f)
                    .node("nz", "NonZero", List.of("mask"), List.of("i"))
                    .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                    .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                    .node("sp", "Split", opset >= 13 ? List.of("sel", "parts") : List.of("sel"), List.of("a", "b"),
                            opset >= 13 ? new Object[]{"axis", 0L} : new Object[]{"axis", 0L, "split", new long[]{2, 2}})
                    .node("ma", "Mul", List.of("a", "two"), List.of("a2"))
                    .node("mb", "Mul", List.of("b", "two"), List.of("b2"))
                    .outputOfType(OnnxDTypes.FLOAT, "a2").outputOfType(OnnxDTypes.FLOAT, "b2");
            Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", x, "mask", TensorValue.ofLongs(DType.BOOL, new long[]{6}, 1, 0, 1, 1, 0, 1)));
            assertThat(got.get("a2").floats()).as("opset %d", opset).containsExactly(6, 8);
            assertThat(got.get("b2").floats()).as("opset %d", opset).containsExactly(2, 18);
            for (long[] bits : List.of(new long[]{0, 1, 0, 0, 1, 0}, new long[]{1, 0, 0, 1, 0, 1}, new long[]{1, 1, 1, 1, 1, 1})) {
                long n = Arrays.stream(bits).sum();
                Map<String, TensorValue> in = feed("x", x, "mask", TensorValue.ofLongs(DType.BOOL, new long[]{6}, bits));
                assertThatThrownBy(() -> OrtOracle.run(m.bytes(), in)).hasMessageContaining("running Split node. Name:'sp'");   // 1.30's Python: "Split size 2 exceeds ..." for fewer
                stopsInEveryMode(m, in, "'sp': Split: its parts sum to 4, but its input holds " + n + " along the split axis in this run (the runtime extent of its "
                        + "bounded input); ONNX Split needs the parts to sum to the axis's extent");
            }
        }
        TinyOnnx rows = new TinyOnnx().opset(17).input("r", 4L, 6L).input(OnnxDTypes.BOOL, "mask", 4L).ints("parts", 2, 2)
                .node("nz", "NonZero", List.of("mask"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("r", "t"), List.of("sel"))
                .node("sp", "Split", List.of("sel", "parts"), List.of("a", "b"), "axis", 1L)
                .outputOfType(OnnxDTypes.FLOAT, "a").outputOfType(OnnxDTypes.FLOAT, "b");
        OnnxOpRuns.refused(dir, rows, "op 'sp' (Split, position 3) reads 'sel', computed from a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs; "
                + "Split reads it only where its kernels leave the result compact, and here its parts sum to less than the extent of axis 1 of [4, 6], which a run takes "
                + "only where that axis is the bounded one, the outermost of more than one element, holding fewer rows than the bound; here the bounded axis is 0");
    }

    /**
     * The Shape of a tensor computed from a data-dependent output but known before the run (TopK's
     * values of {@code x[x > t]}, [3] whatever the count) is its bound, read as a constant: refused
     * before at the Shape node, as any Shape of such a tensor. A Reshape by the Shape of a bounded
     * tensor of another extent stays refused, when the graph is built.
     */
    @Test
    void theShapeOfATensorKnownBeforeTheRunIsReadAndOneOfAnotherExtentIsRefused() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).input("x", 8L).floats("thr", -2.5f).ints("k3", 3)
                .node("gt", "Greater", List.of("x", "thr"), List.of("mask"))
                .node("nz", "NonZero", List.of("mask"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                .node("top", "TopK", List.of("sel", "k3"), List.of("v", "vi"))
                .node("sh", "Shape", List.of("v"), List.of("n"))
                .node("cf", "ConstantOfShape", List.of("n"), List.of("z"))
                .node("add", "Add", List.of("v", "z"), List.of("y"))
                .outputOfType(OnnxDTypes.FLOAT, "y").outputOfType(OnnxDTypes.INT64, "n");
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", TensorValue.ofFloats(new long[]{8}, -1, -7, -2, -1, -9, -2, -3, -1)));
        assertThat(got.get("n").longs()).containsExactly(3);
        Path file = dir.resolve("two.onnx");
        Files.write(file, new TinyOnnx().opset(17).input("x", 6L).input("u", 6L).ints("one", 1)
                .node("nz", "NonZero", List.of("x"), List.of("i")).node("nz2", "NonZero", List.of("u"), List.of("j"))
                .node("sh", "Shape", List.of("j"), List.of("s")).node("g", "Gather", List.of("s", "one"), List.of("n"), "axis", 0L)
                .node("c", "Concat", List.of("one", "n"), List.of("s2"), "axis", 0L).node("r", "Reshape", List.of("i", "s2"), List.of("y"))
                .outputOfType(OnnxDTypes.INT64, "y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'sh' (Shape, #2, opset 17): reads a tensor computed from a data-dependent output of node 'nz2'")
                .hasMessageContaining("node 'r' (Reshape) reshapes with it, which the importer reads only where axis 1 of 'j' and axis 1 of its output 'y' are bounded "
                        + "by one runtime extent, and here they are bounded by two extents");
    }

    /**
     * A Reshape by the Shape of a bounded tensor is imported with -1 at the read element; without
     * allowzero ONNX reads that element, where the count is 0, as "copy the input's extent" there:
     * Reshape(x[mask] [n], [1, n]) then asks for input axis 1, which [0] lacks, and ONNX Runtime fails
     * the run that selects nothing, where -1 gave an empty [1, 0] (exit 0). Refused unless the input's
     * axis there is bounded by the same extent (HF's [n] to [n, 1] is) or allowzero is 1, which runs.
     */
    @Test
    void aReshapeByABoundedCountWithoutAllowzeroNeedsTheInputsAxisThereBoundedToo() throws Exception {
        java.util.function.IntFunction<TinyOnnx> flat = allowZero -> new TinyOnnx().opset(17).input("x", 6L).floats("zero", 0f).ints("one", 1)
                .node("gt", "Greater", List.of("x", "zero"), List.of("mask"))
                .node("nz", "NonZero", List.of("mask"), List.of("i"))
                .node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                .node("sh", "Shape", List.of("sel"), List.of("n"))
                .node("c", "Concat", List.of("one", "n"), List.of("s"), "axis", 0L)
                .node("r", "Reshape", List.of("sel", "s"), List.of("y"), "allowzero", (long) allowZero)
                .outputOfType(OnnxDTypes.FLOAT, "y");
        TensorValue none = TensorValue.ofFloats(new long[]{6}, -1, 0, -2, -3, 0, -4);
        assertThatThrownBy(() -> OrtOracle.run(flat.apply(0).bytes(), feed("x", none))).hasMessageContaining("Reshape");
        Path file = dir.resolve("flat.onnx");
        Files.write(file, flat.apply(0).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'sh' (Shape, #4, opset 17): reads a tensor computed from a data-dependent output of node 'nz'")
                .hasMessageEndingWith("node 'r' (Reshape) reshapes 'sel' with it and has no allowzero, so where the count is 0 ONNX reads that element as the extent of "
                        + "axis 1 of 'sel' (Reshape: 0 copies the input's extent), and here 'sel' has no such axis, so such a run fails in ONNX Runtime");
        assertThat(agreeInEveryMode(flat.apply(1), feed("x", none)).get("y").shape()).containsExactly(1, 0);
        assertThat(agreeInEveryMode(flat.apply(1), feed("x", TensorValue.ofFloats(new long[]{6}, 1, 0, 2, -3, 3, 0))).get("y").floats()).containsExactly(1, 2, 3);
    }

    /**
     * The Shape of a bounded tensor read by anything but an Expand of a tensor of that shape and extent (or of one broadcast along
     * the bounded axis, not of its shape) keeps the Shape node's line.
     */
    @Test
    void aShapeOfABoundedTensorIsRefusedUnlessAnExpandOfItsOwnExtentReadsIt() throws Exception {
        String line = "node 'sh' (Shape, #2, opset 13): reads a tensor computed from a data-dependent output of node 'c', whose shape is known only after its kernel runs; "
                + "Shape is evaluated at import, from the upper bound";
        OnnxOpRuns.refused(dir, compressed().node("sh", "Shape", List.of("u"), List.of("s"))
                .node("g", "Gather", List.of("s", "zero"), List.of("n"), "axis", 0L).outputOfType(OnnxDTypes.INT64, "n"), line);
        OnnxOpRuns.refused(dir, compressed().node("sh", "Shape", List.of("u"), List.of("s")).outputOfType(OnnxDTypes.INT64, "s"), line);
        // an Expand of a tensor known before the run to the bounded shape: ExpandAs refuses it when the graph is built
        Path file = dir.resolve("expand.onnx");
        Files.write(file, compressed().input("w", 6L).node("sh", "Shape", List.of("u"), List.of("s"))
                .node("e", "Expand", List.of("w", "s"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).hasMessageContaining("op 'e' (ExpandAs, position 2) reads 'u'")
                .hasMessageContaining("X [6] is not bounded, so its shape need not be Y's actual one").satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        // of a one-element bound: X [1] of Y's shape would broadcast to the actual [0] or [1], and is refused as an X of Y's shape (not read as broadcast)
        Files.write(file, new TinyOnnx().opset(13).input("x", 1L).input("k", 1L).input("w", 1L).floats("z", 0f).node("gt", "Greater", List.of("k", "z"), List.of("keep"))
                .node("c", "Compress", List.of("x", "keep"), List.of("u"), "axis", 0L).node("sh", "Shape", List.of("u"), List.of("s"))
                .node("e", "Expand", List.of("w", "s"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).hasMessageContaining("op 'e' (ExpandAs, position 2) reads 'u'")
                .hasMessageContaining("X [1] is not bounded, so its shape need not be Y's actual one");
    }

    /** Masks of x [3, 4]: some (4), none and all elements true. */
    private static final List<TensorValue> MASKS = List.of(TensorValue.ofLongs(DType.BOOL, new long[]{3, 4}, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0),
            TensorValue.ofLongs(DType.BOOL, new long[]{3, 4}, new long[12]), TensorValue.ofLongs(DType.BOOL, new long[]{3, 4}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
    private static final TensorValue X34 = TensorValue.ofFloats(new long[]{3, 4}, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12);

    /**
     * {@code y = x.clone(); y[m] = x[m] * 2} as the TorchScript exporter writes it (opset 14 and 17):
     * the values by NonZero(m), Transpose, GatherND, Mul, Reshape to [-1]; the rows by a second NonZero,
     * of Expand(m, Shape(x)) (m's own shape: imported as the first NonZero's output, the same in every
     * run), Transpose; then ScatterND at those rows by Slice(values, 0, Shape(rows)[0]) (the end read
     * from the bound, tied to the values' extent). Some, none and all true. Refused before: ScatterND
     * "reads '/Transpose_1_output_0' and '/Slice_output_0', bounded by the runtime extents of op
     * '/NonZero_1' and op '/NonZero'"; ScatterND's kernel would also have applied the tail's zero tuples
     * (writing x[0, 0] * 2 or 0 into y[0, 0]).
     */
    @Test
    void aMaskSetitemOfTheTorchScriptExporterAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = tsSetitem(tsSelected(new TinyOnnx().opset(14).input("x", 3L, 4L).input(OnnxDTypes.BOOL, "m", 3L, 4L).floats("two", 2f)
                .ints("flat", -1).scalar("first", 0).ints("zero", 0), "", "x", "m").node("mul", "Mul", List.of("sel", "two"), List.of("v")), "", "x", "m", "v")
                .outputOfType(OnnxDTypes.FLOAT, "y");
        assertThat(agreeInEveryMode(m, feed("x", X34, "m", MASKS.get(0))).get("y").floats()).containsExactly(2, -2, 3, -8, 5, -6, 14, -8, 9, -20, 11, -12);
        for (TensorValue mask : MASKS.subList(1, 3)) agreeInEveryMode(m, feed("x", X34, "m", mask));
    }

    /** The TorchScript exporter's {@code x[mask]}: {@code p + "sel"} = GatherND(x, Transpose(NonZero(mask))), the rows {@code p + "t"}. */
    private static TinyOnnx tsSelected(TinyOnnx t, String p, String x, String mask) {
        return t.node(p + "nz", "NonZero", List.of(mask), List.of(p + "i")).node(p + "tr", "Transpose", List.of(p + "i"), List.of(p + "t"), "perm", new long[]{1, 0})
                .node(p + "gn", "GatherND", List.of(x, p + "t"), List.of(p + "sel"));
    }

    /**
     * The TorchScript exporter's {@code y[mask] = values} of y computed before ({@code y = data.clone()}): the rows by NonZero of
     * Expand(mask, Shape(data)), then ScatterND(data, rows, Slice(Reshape(values, [-1]), 0, Shape(rows)[0])), output {@code p + "y"};
     * {@code t} holds "flat" [-1], "first" 0 and "zero" [0].
     */
    private static TinyOnnx tsSetitem(TinyOnnx t, String p, String data, String mask, String values) {
        return t.node(p + "sx", "Shape", List.of(data), List.of(p + "xs")).node(p + "em", "Expand", List.of(mask, p + "xs"), List.of(p + "m2"))
                .node(p + "nz1", "NonZero", List.of(p + "m2"), List.of(p + "i1")).node(p + "tr1", "Transpose", List.of(p + "i1"), List.of(p + "rows"), "perm", new long[]{1, 0})
                .node(p + "flat", "Reshape", List.of(values, "flat"), List.of(p + "vf"), "allowzero", 0L)
                .node(p + "sr", "Shape", List.of(p + "rows"), List.of(p + "rs")).node(p + "g", "Gather", List.of(p + "rs", "first"), List.of(p + "n"), "axis", 0L)
                .node(p + "un", "Unsqueeze", List.of(p + "n", "zero"), List.of(p + "end")).node(p + "sl", "Slice", List.of(p + "vf", "zero", p + "end", "zero"), List.of(p + "u"))
                .node(p + "put", "ScatterND", List.of(data, p + "rows", p + "u"), List.of(p + "y"));
    }

    /**
     * Two masked assignments as the TorchScript exporter writes them (opset 14): {@code y = x.clone(); y[m] = x[m] * 2;
     * y[~m] = x[~m] - 1; z = y.clone(); z[~m] = y[~m] * 3}. The second and third read their rows from NonZero of
     * Expand(Not(m), Shape(y)), y a ScatterND output computed from a data-dependent one: imported as ExpandAs, whose output
     * holds Not(m)'s elements (of its shape, Y's), so that NonZero is an Identity of NonZero(Not(m)) as for the first. Some,
     * none and all true. Refused before: "op 'bput' (ScatterND) reads 'brows' and 'bu', bounded by the runtime
     * extents of op 'bnz1' and op 'bnz', whose actual extents may differ" (ScatterND at position 20).
     */
    @Test
    void twoMaskedAssignmentsOfTheTorchScriptExporterAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx t = new TinyOnnx().opset(14).input("x", 3L, 4L).input(OnnxDTypes.BOOL, "m", 3L, 4L).floats("two", 2f).floats("one", 1f).floats("three", 3f)
                .ints("flat", -1).scalar("first", 0).ints("zero", 0).node("not", "Not", List.of("m"), List.of("k"));
        t = tsSetitem(tsSelected(t, "a", "x", "m").node("mul", "Mul", List.of("asel", "two"), List.of("av")), "a", "x", "m", "av");
        t = tsSetitem(tsSelected(t, "b", "x", "k").node("sub", "Sub", List.of("bsel", "one"), List.of("bv")), "b", "ay", "k", "bv");
        t = tsSetitem(tsSelected(t, "c", "by", "k").node("mul3", "Mul", List.of("csel", "three"), List.of("cv")), "c", "by", "k", "cv");
        TinyOnnx m = t.outputOfType(OnnxDTypes.FLOAT, "by").outputOfType(OnnxDTypes.FLOAT, "cy");
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", X34, "m", MASKS.get(0)));
        assertThat(got.get("by").floats()).containsExactly(2, -3, 2, -8, 4, -7, 14, -9, 8, -20, 10, -13);
        assertThat(got.get("cy").floats()).containsExactly(2, -9, 6, -8, 12, -21, 14, -27, 24, -20, 30, -39);
        for (TensorValue mask : MASKS.subList(1, 3)) agreeInEveryMode(m, feed("x", X34, "m", mask));
    }

    /**
     * {@code y[m] = v} and {@code y[m] = x[m] * 2} as the dynamo exporter writes them (opset 18):
     * ScatterND of x at Transpose(NonZero(m)) by Expand(v, ReduceSum(Cast(Reshape(m, [-1])))) and by
     * Reshape(Expand(x[m] * 2, that count), [-1]): the count is NonZero(m)'s runtime extent (a bool
     * tensor's true elements, counted exactly), so the Expands are imported as bounded by it. Some, none
     * and all true, and with m given at import (then as any run's); the count read as a value (plus 1)
     * is the ReduceSum's, computed in the run. Refused before: "the shape (input #1
     * 'n') must be a constant known at import time", and with m given, "updates [4] must be [12]".
     */
    @Test
    void aMaskSetitemOfTheDynamoExporterAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = dynamoSetitem();
        assertThat(agreeInEveryMode(m, feed("x", X34, "m", MASKS.get(0))).get("y").floats()).containsExactly(2.5f, -2, 3, 2.5f, 5, -6, 2.5f, -8, 9, 2.5f, 11, -12);
        for (TensorValue mask : MASKS) assertThat(agreeInEveryMode(m, feed("x", X34, "m", mask)).get("y2").shape()).containsExactly(3, 4);
        assertThat(agreeInEveryMode(m, feed("x", X34, "m", MASKS.get(2))).get("n1").longs()).containsExactly(13);
        Path file = dir.resolve("setitem.onnx");
        Files.write(file, m.bytes());
        Graph g = OnnxImporter.load(file, OnnxImporter.Options.DEFAULT.withInputValues(Map.of("m", MASKS.get(0))));
        assertThat(g.bounded("u").extent()).isEqualTo(g.bounded("t").extent());
    }

    /**
     * {@code s = x[m]; s + ones_like(s), zeros(len(s), 2) + s[:, None]} as the dynamo exporter writes them (opset 18):
     * Expand(1, Shape(s)), an ExpandAs of a single value by the bounded s, bounded by its extent; Expand(0,
     * Concat(Shape(s, end 1), [2])), an ExpandAs to [count, 2]. Some, none and all true. Refused before: "op 'e' (ExpandAs)
     * reads 'sel', ...; X [] is not bounded, so its shape need not be Y's actual one".
     */
    @Test
    void onesLikeOfMaskedElementsOfTheDynamoExporterAgreeWithOnnxRuntimeInEveryMode() throws Exception {
        TinyOnnx m = tsSelected(new TinyOnnx().opset(18).input("x", 3L, 4L).input(OnnxDTypes.BOOL, "m", 3L, 4L).floats("one", 1f).floats("zero", 0f)
                .ints("two", 2).ints("ax1", 1), "", "x", "m")
                .node("sh", "Shape", List.of("sel"), List.of("ss")).node("e", "Expand", List.of("one", "ss"), List.of("ones")).node("a", "Add", List.of("sel", "ones"), List.of("y"))
                .node("sh0", "Shape", List.of("sel"), List.of("s0"), "end", 1L).node("cat", "Concat", List.of("s0", "two"), List.of("s2"), "axis", 0L)
                .node("e2", "Expand", List.of("zero", "s2"), List.of("zs")).node("un", "Unsqueeze", List.of("sel", "ax1"), List.of("su"))
                .node("a2", "Add", List.of("zs", "su"), List.of("z")).outputOfType(OnnxDTypes.FLOAT, "y").outputOfType(OnnxDTypes.FLOAT, "z");
        Map<String, TensorValue> got = agreeInEveryMode(m, feed("x", X34, "m", MASKS.get(0)));
        assertThat(got.get("y").floats()).containsExactly(2, -3, 8, -9);
        assertThat(got.get("z").floats()).containsExactly(1, 1, -4, -4, 7, 7, -10, -10);
        for (TensorValue mask : MASKS.subList(1, 3)) assertThat(agreeInEveryMode(m, feed("x", X34, "m", mask)).get("z").shape()[1]).isEqualTo(2);
    }

    /** The dynamo exporter's {@code y[m] = v; y[m] = x[m] * 2} for x and m [3, 4]. */
    private static TinyOnnx dynamoSetitem() {
        return new TinyOnnx().opset(18).input("x", 3L, 4L).input(OnnxDTypes.BOOL, "m", 3L, 4L).floats("v", 2.5f).floats("two", 2f).ints("flat", -1)
                .node("nz", "NonZero", List.of("m"), List.of("i")).node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0})
                .node("mf", "Reshape", List.of("m", "flat"), List.of("m1")).node("c", "Cast", List.of("m1"), List.of("mi"), "to", 7L)
                .node("count", "ReduceSum", List.of("mi"), List.of("n")).node("e", "Expand", List.of("v", "n"), List.of("u"))
                .node("put", "ScatterND", List.of("x", "t", "u"), List.of("y"))
                .node("gn", "GatherND", List.of("x", "t"), List.of("sel")).node("mul", "Mul", List.of("sel", "two"), List.of("w"))
                .node("e2", "Expand", List.of("w", "n"), List.of("we")).node("r2", "Reshape", List.of("we", "flat"), List.of("u2"))
                .node("put2", "ScatterND", List.of("x", "t", "u2"), List.of("y2")).ints("one", 1).node("a", "Add", List.of("n", "one"), List.of("n1"))
                .outputOfType(OnnxDTypes.FLOAT, "y").outputOfType(OnnxDTypes.FLOAT, "y2").outputOfType(OnnxDTypes.INT64, "n1");
    }

    /**
     * What ties no count to a NonZero's extent stays refused: a ReduceSum of another mask than the
     * NonZero's (its count may differ), ScatterND's rows of one mask by values of another (two extents),
     * a Slice ended by the Shape of another mask's rows, and a second assignment at one mask's rows
     * (NonZero of Expand(k, Shape(the first's output))) of another mask's values.
     */
    @Test
    void aCountOrRowsOfAnotherMaskStayRefused() throws Exception {
        java.util.function.Supplier<TinyOnnx> base = () -> new TinyOnnx().opset(18).input("x", 3L, 4L).input(OnnxDTypes.BOOL, "m", 3L, 4L).input(OnnxDTypes.BOOL, "k", 3L, 4L).floats("v", 2.5f).ints("flat", -1)
                .node("nz", "NonZero", List.of("m"), List.of("i")).node("tr", "Transpose", List.of("i"), List.of("t"), "perm", new long[]{1, 0});
        OnnxOpRuns.refused(dir, base.get().node("c", "Cast", List.of("k"), List.of("ki"), "to", 7L).node("count", "ReduceSum", List.of("ki"), List.of("n"))
                        .node("e", "Expand", List.of("v", "n"), List.of("u")).node("put", "ScatterND", List.of("x", "t", "u"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y"),
                "node 'e' (Expand, #4, opset 18): the shape (input #1 'n') must be a constant known at import time");
        OnnxOpRuns.refused(dir, base.get().node("nz2", "NonZero", List.of("k"), List.of("j")).node("tr2", "Transpose", List.of("j"), List.of("s"), "perm", new long[]{1, 0})
                        .node("gn", "GatherND", List.of("x", "s"), List.of("sel")).node("put", "ScatterND", List.of("x", "t", "sel"), List.of("y")).outputOfType(OnnxDTypes.FLOAT, "y"),
                "op 'put' (ScatterND, position 5) reads 't' and 'sel', bounded by the runtime extents of op 'nz' and op 'nz2', whose actual extents may differ");
        OnnxOpRuns.refused(dir, base.get().ints("zero", 0).scalar("first", 0).node("nz2", "NonZero", List.of("k"), List.of("j"))
                        .node("tr2", "Transpose", List.of("j"), List.of("s"), "perm", new long[]{1, 0}).node("gn", "GatherND", List.of("x", "t"), List.of("sel"))
                        .node("sh", "Shape", List.of("s"), List.of("ss")).node("g", "Gather", List.of("ss", "first"), List.of("n"), "axis", 0L)
                        .node("un", "Unsqueeze", List.of("n", "zero"), List.of("end")).node("sl", "Slice", List.of("sel", "zero", "end", "zero"), List.of("y"))
                        .outputOfType(OnnxDTypes.FLOAT, "y"),
                "node 'sl' (Slice) ends axis 0 of 'sel' with it, which the importer reads only where axis 0 of 's' and axis 0 of 'sel' are bounded by one runtime extent, "
                        + "and here they are bounded by two extents, whose actual counts may differ");;
        // a second assignment, at k's rows (NonZero of Expand(k, Shape(ay)), ay the first's ScatterND: a copy of k), of m's values
        OnnxOpRuns.refused(dir, tsSetitem(tsSetitem(tsSelected(new TinyOnnx().opset(14).input("x", 3L, 4L).input(OnnxDTypes.BOOL, "m", 3L, 4L).input(OnnxDTypes.BOOL, "k", 3L, 4L)
                        .ints("flat", -1).scalar("first", 0).ints("zero", 0), "a", "x", "m"), "a", "x", "m", "asel"), "b", "ay", "k", "asel").outputOfType(OnnxDTypes.FLOAT, "by"),
                "op 'bput' (ScatterND, position 14) reads 'brows' and 'bu', bounded by the runtime extents of op 'bnz1' and op 'anz', whose actual extents may differ");
    }

    /** Dropout-12's mask is made at import as a constant of its input's shape: for a bounded input, the upper bound's, where ONNX gives the actual one (was a [6] mask for [n] rows). */
    @Test
    void aDropoutMaskOfABoundedTensorIsRefusedAtItsNode() throws Exception {
        OnnxOpRuns.refused(dir, selected().outputOfType(OnnxDTypes.FLOAT, "d").outputOfType(OnnxDTypes.BOOL, "mask")
                        .node("f", "Cast", List.of("keep"), List.of("kf"), "to", 1L).node("dr", "Dropout", List.of("kf"), List.of("d", "mask")),
                "node 'dr' (Dropout, #3, opset 13): reads a tensor computed from a data-dependent output of node 'nms', whose shape is known only after its kernel runs; "
                        + "its output 'mask' is a constant made at import, of the upper bound's shape [6]");
    }

    /**
     * --train over a bounded output that depends on a weight: refused naming the output. Before, grad.y was
     * a [6, 2] input and grad.w its ReduceSum over all 6 rows, where only the n actual rows of y depend on w.
     */
    @Test
    void trainingThroughABoundedOutputIsRefusedNamingIt() throws Exception {
        Path file = dir.resolve("train.onnx");
        Files.write(file, new TinyOnnx().opset(13).input("x", 2L, 3L).raw("w", new float[]{0.5f, -1.5f}).outputOfType(OnnxDTypes.FLOAT, "y")
                .node("nz", "NonZero", List.of("x"), List.of("i")).node("tr", "Transpose", List.of("i"), List.of("t"))
                .node("c", "Cast", List.of("t"), List.of("f"), "to", 1L).node("a", "Add", List.of("f", "w"), List.of("y")).bytes());
        Graph g = OnnxImporter.load(file, Map.of());
        assertThat(g.bounded("y")).isNotNull();
        assertThatThrownBy(() -> org.arenaplan.train.Gradients.of(g)).isInstanceOf(org.arenaplan.ir.GraphException.class)
                .hasMessage("--train: output 'y' depends on a trainable weight and is bounded by the runtime extent 'nz#0' (a data-dependent output or computed from one); "
                        + "its gradient's shape is known only after the run");
    }

    /** ONNX Runtime's outputs and the simulator's in every executor mode ({@link OnnxOpRuns#agreeInEveryMode}), within 1e-6. */
    private Map<String, TensorValue> agreeInEveryMode(TinyOnnx model, Map<String, TensorValue> in) throws Exception {
        return OnnxOpRuns.agreeInEveryMode(dir, model, in, 1e-6, 1e-6);
    }

    private static TinyOnnx selected() {
        return new TinyOnnx().opset(13).input("b3", 1L, 6L, 4L).input("s3", 1L, 1L, 6L).ints("max", 10).floats("iou", 0.5f, 1).scalar("two", 2)
                .node("nms", "NonMaxSuppression", List.of("b3", "s3", "max", "iou"), List.of("sel"))
                .node("pick", "Gather", List.of("sel", "two"), List.of("keep"), "axis", 1L);
    }

    /** As for a data-dependent output itself, a computed one's declared shape may give one run's extent on one axis, at most the bound. */
    @Test
    void aDeclaredShapeOfAComputedOutputMayGiveOneRunsExtentOnOneAxis() throws Exception {
        Path file = dir.resolve("declared.onnx");
        Files.write(file, selected().input("b", 6L, 4L).output("kb", 2L, 4L).node("g", "Gather", List.of("b", "keep"), List.of("kb"), "axis", 0L).bytes());
        Graph g = OnnxImporter.load(file, Map.of());
        assertThat(g.tensor("kb").shape()).containsExactly(6, 4);
        assertThat(g.bounded("kb").axis()).isZero();
        OnnxOpRuns.refused(dir, selected().input("b", 6L, 4L).output("kb", 2L, 3L).node("g", "Gather", List.of("b", "keep"), List.of("kb"), "axis", 0L),
                "graph output 'kb' is declared [2, 3] but infers to [6, 4]");
    }

    @Test
    void whatCannotKeepTheActualTensorCompactIsRefusedNamingBothOps() throws Exception {
        String from = "computed from a data-dependent output of op 'nms' (NonMaxSuppression), whose shape is known only after its kernel runs; ";
        OnnxOpRuns.refused(dir, selected().ints("ax", 0).outputOfType(OnnxDTypes.INT64, "c").node("r", "CumSum", List.of("keep", "ax"), List.of("c")),
                "op 'r' (CumSum, position 2) reads 'keep', " + from + "CumSum does not read a bounded tensor");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(13).input("x", 2L, 3L).outputOfType(OnnxDTypes.INT64, "t")
                        .node("nz", "NonZero", List.of("x"), List.of("y")).node("cs", "CumSum", List.of("y", "ax"), List.of("t")).ints("ax", 1),
                "op 'cs' (CumSum, position 1) reads 'y', a data-dependent output of op 'nz' (NonZero), whose shape is known only after its kernel runs; CumSum does not read");
        // the rows gathered for each of the 2 outer slices would lie apart
        OnnxOpRuns.refused(dir, selected().input("d", 2L, 6L).outputOfType(OnnxDTypes.FLOAT, "y").node("g", "Gather", List.of("d", "keep"), List.of("y"), "axis", 1L),
                "op 'g' (Gather, position 2) reads 'keep', " + from + "Gather reads it only where its kernels leave the result compact, and here data [2, 6] has 2 slices before axis 1");
        // a [6] operand that spans the bounded axis (ONNX Runtime fails unless n is 6)
        OnnxOpRuns.refused(dir, selected().ints("six", 0, 1, 2, 3, 4, 5).outputOfType(OnnxDTypes.INT64, "y").node("a", "Add", List.of("keep", "six"), List.of("y")),
                "spans the bounded axis 0 of the output with 6 elements");
        // two extents: the actual counts may differ
        OnnxOpRuns.refused(dir, selected().input("s4", 1L, 1L, 6L).node("nms2", "NonMaxSuppression", List.of("b3", "s4", "max", "iou"), List.of("sel2"))
                        .node("pick2", "Gather", List.of("sel2", "two"), List.of("keep2"), "axis", 1L).outputOfType(OnnxDTypes.INT64, "y")
                        .node("a", "Add", List.of("keep", "keep2"), List.of("y")),
                "reads 'keep' and 'keep2', bounded by the runtime extents of op 'nms' and op 'nms2', whose actual extents may differ");
        // through a sequence (its elements are views of the tensors): the refusal names the user's nodes, not the importer's
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(13).input("x", 4L).scalar("zero", 0).outputOfType(OnnxDTypes.INT64, "z")
                        .node("nz", "NonZero", List.of("x"), List.of("y")).node("sc", "SequenceConstruct", List.of("y"), List.of("ys"))
                        .node("at", "SequenceAt", List.of("ys", "zero"), List.of("w")).node("r", "CumSum", List.of("w", "zero"), List.of("z")),
                "op 'r' (CumSum, position 2) reads 'w', computed from a data-dependent output of op 'nz' (NonZero)");
        // a Reshape whose constant equals the bound: ONNX gives [6, -1] of [n, 3] rows as [6, n / 2] (was planned [n, 3]: run --expect said NO)
        OnnxOpRuns.refused(dir, selected().ints("six", 6, -1).outputOfType(OnnxDTypes.INT64, "y").node("r", "Reshape", List.of("sel", "six"), List.of("y")),
                "op 'r' (Reshape, position 2) reads 'sel', a data-dependent output of op 'nms' (NonMaxSuppression), whose shape is known only after its kernel runs; "
                        + "Reshape reads it only where its kernels leave the result compact, and here its shape [6, -1] gives output axis 0 as 6, where the bounded axis 0 of [6, 3] needs -1");
        // Shape is computed at import from the bound: refused at its node
        OnnxOpRuns.refused(dir, selected().outputOfType(OnnxDTypes.INT64, "n").node("sh", "Shape", List.of("keep"), List.of("n")),
                "node 'sh' (Shape");
    }
}
