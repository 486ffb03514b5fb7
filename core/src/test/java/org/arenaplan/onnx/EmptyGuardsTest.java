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
 * selected in every executor mode against ONNX Runtime; refused before (its condition computed at run time). An else
 * branch the graph does not prove empty where sel is empty stays refused, naming the output.
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
        OnnxMl.TensorProto none = OnnxMl.TensorProto.newBuilder().setName("none").setDataType(OnnxDTypes.FLOAT).addDims(0).build();
        TinyOnnx then = new TinyOnnx().outputOfType(OnnxDTypes.FLOAT, "nothing").node("empty", "Constant", List.of(), List.of("nothing"), "value", none);
        return new TinyOnnx().opset(17).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).scalar("zero", 0).floats("two", 2f)
                .select("", "x", "m", "sel")
                .node("shape", "Shape", List.of("sel"), List.of("shape"))
                .node("numel", "ReduceProd", List.of("shape"), List.of("numel"), "keepdims", 0L)
                .node("eq", "Equal", List.of("numel", "zero"), List.of("eq"))
                .node("cond", "Cast", List.of("eq"), List.of("cond"), "to", 9L)
                .node("if", "If", List.of("cond"), List.of("y"), "then_branch", then, "else_branch", otherwise)
                .outputOfType(OnnxDTypes.FLOAT, "y");
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

    @Test
    void anElseBranchNotProvedEmptyWhereTheSelectionIsEmptyStaysRefused() throws Exception {
        // -x: [6] in every run, where the then branch gives [0]
        OnnxOpRuns.refused(dir, guarded(new TinyOnnx().outputOfType(OnnxDTypes.FLOAT, "e").node("neg", "Neg", List.of("x"), List.of("e"))),
                "node 'if' (If, #7, opset 17): condition numel('sel') == 0 is computed at run time, and else_branch, imported in its place, is not proved "
                        + "to give the then_branch's empty outputs where 'sel' is empty: 'y' has a shape known before the run");
    }
}
