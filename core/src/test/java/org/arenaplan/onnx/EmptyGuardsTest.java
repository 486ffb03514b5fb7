package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;

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
 * An If on the emptiness of a tensor computed from a data-dependent output ({@link EmptyGuards}), as the TorchScript
 * exporter writes torchvision's {@code batched_nms} in every detection model: {@code If(Cast(Equal(ReduceProd(Shape(sel)),
 * 0)))}, then an empty constant, else the work on sel. Imported as its else branch and run with some, no and all elements
 * selected in every executor mode against ONNX Runtime; refused before (its condition computed at run time). Also the
 * whole guard as torchvision writes it, its else branch a NonMaxSuppression of the boxes and scores the threshold kept
 * ({@code ir.BoundedFlows#nms}: the kernel reads the boxes' runtime extent; refused before, NonMaxSuppression read no
 * bounded tensor). An else branch the graph does not prove empty where sel is empty stays refused, naming the output.
 */
class EmptyGuardsTest {
    @TempDir
    Path dir;

    private static final TensorValue X = TensorValue.ofFloats(new long[]{6}, -2, 5, -3, -0.5f, 4, -1);

    private static TensorValue mask(long... bits) {
        return TensorValue.ofLongs(DType.BOOL, new long[]{bits.length}, bits);
    }

    /** y = sel * 2 for sel = x[m], or an empty f32 [0] where sel is empty; {@code otherwise} replaces the else branch. */
    private static TinyOnnx guarded(TinyOnnx otherwise) {
        return emptyGuard(new TinyOnnx().opset(17).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).floats("two", 2f).select("", "x", "m", "sel"),
                "sel", OnnxDTypes.FLOAT, otherwise);
    }

    /**
     * {@code m} then y = If(Cast(Equal(ReduceProd(Shape(x)), 0)), an empty [0] of {@code type}, {@code otherwise}) as the
     * TorchScript exporter writes {@code if x.numel() == 0: return torch.empty((0,))} (opset 17).
     */
    private static TinyOnnx emptyGuard(TinyOnnx m, String x, int type, TinyOnnx otherwise) {
        OnnxMl.TensorProto none = OnnxMl.TensorProto.newBuilder().setName("none").setDataType(type).addDims(0).build();
        TinyOnnx then = new TinyOnnx().outputOfType(type, "nothing").node("empty", "Constant", List.of(), List.of("nothing"), "value", none);
        return m.scalar("zero", 0)
                .node("shape", "Shape", List.of(x), List.of("shape"))
                .node("numel", "ReduceProd", List.of("shape"), List.of("numel"), "keepdims", 0L)
                .node("eq", "Equal", List.of("numel", "zero"), List.of("eq"))
                .node("cond", "Cast", List.of("eq"), List.of("cond"), "to", 9L)
                .node("if", "If", List.of("cond"), List.of("y"), "then_branch", then, "else_branch", otherwise)
                .outputOfType(type, "y");
    }

    private static TinyOnnx doubled() {
        return new TinyOnnx().outputOfType(OnnxDTypes.FLOAT, "e").node("twice", "Mul", List.of("sel", "two"), List.of("e"));
    }

    @Test
    void anIfOnTheEmptinessOfASelectionRunsItsElseBranchAndAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, guarded(doubled()), feed("x", X, "m", mask(1, 0, 1, 1, 0, 1)), 0, 0);
        assertThat(got.get("y").floats()).containsExactly(-4, -6, -1, -2);
        got = OnnxOpRuns.agreeInEveryMode(dir, guarded(doubled()), feed("x", X, "m", mask(0, 0, 0, 0, 0, 0)), 0, 0);   // the then branch's [0]
        assertThat(got.get("y").shape()).containsExactly(0);
        got = OnnxOpRuns.agreeInEveryMode(dir, guarded(doubled()), feed("x", X, "m", mask(1, 1, 1, 1, 1, 1)), 0, 0);
        assertThat(got.get("y").shape()).containsExactly(6);
    }

    /**
     * torchvision's {@code batched_nms} after a score threshold, as the TorchScript exporter writes it (opset 17): keep =
     * NonZero(scores > 0.3), boxes[keep] and scores[keep], then If(numel(boxes[keep]) == 0, int64 [0], the indices
     * NonMaxSuppression keeps of [1, n, 4] and [1, 1, n], max_output_boxes_per_class INT64_MAX, IoU 0.5).
     */
    private static TinyOnnx batchedNms() {
        TinyOnnx otherwise = new TinyOnnx().outputOfType(OnnxDTypes.INT64, "keep")
                .node("ub", "Unsqueeze", List.of("kb", "ax0"), List.of("ub"))
                .node("us0", "Unsqueeze", List.of("ks", "ax0"), List.of("us0"))
                .node("us", "Unsqueeze", List.of("us0", "ax0"), List.of("us"))
                .node("nms", "NonMaxSuppression", List.of("ub", "us", "most", "iou"), List.of("sel"))
                .node("col", "Gather", List.of("sel", "two"), List.of("col"), "axis", 1L)
                .node("keep", "Squeeze", List.of("col", "ax1"), List.of("keep"));
        return emptyGuard(new TinyOnnx().opset(17).input("boxes", 6L, 4L).input("scores", 6L).floats("thr", 0.3f).floats("iou", 0.5f, 1L)
                .ints("most", Long.MAX_VALUE).ints("ax0", 0).ints("ax1", 1).ints("two", 2)
                .node("gt", "Greater", List.of("scores", "thr"), List.of("m"))
                .node("nz", "NonZero", List.of("m"), List.of("i"))
                .node("idx", "Squeeze", List.of("i", "ax0"), List.of("idx"))
                .node("kb", "Gather", List.of("boxes", "idx"), List.of("kb"), "axis", 0L)
                .node("ks", "Gather", List.of("scores", "idx"), List.of("ks"), "axis", 0L), "kb", OnnxDTypes.INT64, otherwise);
    }

    @Test
    void torchvisionsBatchedNmsAfterAScoreThresholdAgreesWithOnnxRuntimeInEveryMode() throws Exception {
        // boxes 0, 1 and 3 overlap (IoU above 0.5 with 0), 2 and 5 stand apart; 4 is below the threshold
        TensorValue boxes = TensorValue.ofFloats(new long[]{6, 4}, 0, 0, 10, 10, 1, 1, 11, 11, 20, 20, 30, 30, 0, 1, 10, 11, 50, 50, 60, 60, 40, 40, 45, 45);
        Map<String, TensorValue> got = OnnxOpRuns.agreeInEveryMode(dir, batchedNms(), feed("boxes", boxes, "scores", TensorValue.ofFloats(new long[]{6}, 0.9f, 0.95f, 0.5f, 0.8f, 0.1f, 0.4f)), 0, 0);
        assertThat(got.get("y").longs()).containsExactly(1, 2, 4);   // indices into the 5 kept: boxes 1, 2, 5 (the tail's zero boxes never selected)
        got = OnnxOpRuns.agreeInEveryMode(dir, batchedNms(), feed("boxes", boxes, "scores", TensorValue.ofFloats(new long[]{6}, 0.1f, 0.2f, 0.3f, 0.05f, 0.1f, 0f)), 0, 0);
        assertThat(got.get("y").shape()).containsExactly(0);          // none above 0.3: the then branch's [0]
        got = OnnxOpRuns.agreeInEveryMode(dir, batchedNms(), feed("boxes", boxes, "scores", TensorValue.ofFloats(new long[]{6}, 0.9f, 0.95f, 0.5f, 0.8f, 0.7f, 0.4f)), 0, 0);
        assertThat(got.get("y").longs()).containsExactly(1, 4, 2, 5);
    }

    @Test
    void anElseBranchNotProvedEmptyWhereTheSelectionIsEmptyStaysRefused() throws Exception {
        // -x: [6] in every run, where the then branch gives [0]
        OnnxOpRuns.refused(dir, guarded(new TinyOnnx().outputOfType(OnnxDTypes.FLOAT, "e").node("neg", "Neg", List.of("x"), List.of("e"))),
                "node 'if' (If, #7, opset 17): condition numel('sel') == 0 is computed at run time, and else_branch, imported in its place, is not proved "
                        + "to give the then_branch's empty outputs where 'sel' is empty: 'y' has a shape known before the run");
    }
}
