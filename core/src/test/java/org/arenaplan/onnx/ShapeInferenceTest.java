package org.arenaplan.onnx;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShapeInferenceTest {

    static Graph load(TinyOnnx m) {
        return load(m, Map.of());
    }

    static Graph load(TinyOnnx m, Map<String, Long> dims) {
        return OnnxImporter.convert(OnnxProtos.read(m.bytes(), "tiny.onnx"), "tiny.onnx", OnnxImporter.Options.DEFAULT.withDims(dims));
    }

    static long[] shape(Graph g, String t) {
        return g.tensor(t).shape();
    }

    static Op op(Graph g, String name) {
        return g.ops().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void convSameUpperPadsAndStrides() {
        Graph g = load(new TinyOnnx().input("x", 1L, 3L, 7L, 7L).floats("w", 1f, 8, 3, 3, 3).output("y")
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "strides", new long[]{2, 2}, "auto_pad", "SAME_UPPER"));
        assertThat(shape(g, "y")).containsExactly(1, 8, 4, 4);
        // out 4, total pad (4-1)*2+3-7 = 2: one each side
        assertThat((long[]) op(g, "c").attrs().get("pads")).containsExactly(1, 1, 1, 1);
        assertThat((long[]) op(g, "c").attrs().get("dilations")).containsExactly(1, 1);
        assertThat(op(g, "c").attrs()).containsOnlyKeys("kernel_shape", "strides", "pads", "dilations", "group");
    }

    @Test
    void convSameLowerPutsTheOddPadFirstAndDilationWidensTheWindow() {
        Graph g = load(new TinyOnnx().input("x", 1L, 1L, 6L, 6L).floats("w", 1f, 1, 1, 2, 2).output("y")
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "auto_pad", "SAME_LOWER"));
        assertThat((long[]) op(g, "c").attrs().get("pads")).containsExactly(1, 1, 0, 0);
        Graph d = load(new TinyOnnx().input("x", 1L, 1L, 9L, 9L).floats("w", 1f, 1, 1, 3, 3).output("y")
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "dilations", new long[]{2, 2}));
        assertThat(shape(d, "y")).containsExactly(1, 1, 5, 5);
    }

    @Test
    void poolCeilModeAtOpset10ButNotBefore() {
        TinyOnnx m = new TinyOnnx().opset(10).input("x", 1L, 2L, 6L, 6L).output("y")
                .node("p", "MaxPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 3}, "strides", new long[]{2, 2}, "ceil_mode", 1L);
        assertThat(shape(load(m), "y")).containsExactly(1, 2, 3, 3);
        Graph floor = load(new TinyOnnx().opset(10).input("x", 1L, 2L, 6L, 6L).output("y")
                .node("p", "MaxPool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 3}, "strides", new long[]{2, 2}));
        assertThat(shape(floor, "y")).containsExactly(1, 2, 2, 2);
        assertThat(op(floor, "p").attrs()).containsOnlyKeys("kernel_shape", "strides", "pads", "dilations", "ceil_mode");
    }

    @Test
    void averagePoolKeepsCountIncludePadAndGlobalPoolKeepsRank() {
        Graph g = load(new TinyOnnx().opset(11).input("x", 1L, 4L, 5L, 5L).output("z")
                .node("a", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{3, 3}, "pads", new long[]{1, 1, 1, 1}, "count_include_pad", 1L)
                .node("g", "GlobalAveragePool", List.of("y"), List.of("z")));
        assertThat(shape(g, "y")).containsExactly(1, 4, 5, 5);
        assertThat(op(g, "a").attrs().get("count_include_pad")).isEqualTo(1L);
        assertThat(shape(g, "z")).containsExactly(1, 4, 1, 1);
    }

    @Test
    void reshapeCopiesZerosAndInfersMinusOneAsAView() {
        Graph g = load(new TinyOnnx().input("x", 2L, 3L, 4L).ints("s", 0, -1).output("y")
                .node("r", "Reshape", List.of("x", "s"), List.of("y")));
        assertThat(shape(g, "y")).containsExactly(2, 12);
        assertThat(op(g, "r").views()).hasSize(1);
        assertThat(op(g, "r").inputs()).containsExactly("x");
    }

    @Test
    void reshapeWithARuntimeShapeIsAClearError() {
        TinyOnnx m = new TinyOnnx().input("x", 2L, 3L).input("s", 2L).output("y").node("r", "Reshape", List.of("x", "s"), List.of("y"));
        assertThatThrownBy(() -> load(m)).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'r' (Reshape").hasMessageContaining("must be a constant");
    }

    @Test
    void gemmTransposesAndBroadcastsC() {
        Graph g = load(new TinyOnnx().input("a", 5L, 3L).floats("b", 1f, 4, 5).floats("c", 0f, 4).output("y")
                .node("g", "Gemm", List.of("a", "b", "c"), List.of("y"), "transA", 1L, "transB", 1L));
        assertThat(shape(g, "y")).containsExactly(3, 4);
        assertThat(op(g, "g").attrs()).containsEntry("alpha", 1.0).containsEntry("beta", 1.0).containsEntry("transA", 1L).containsEntry("transB", 1L);
        TinyOnnx bad = new TinyOnnx().input("a", 5L, 3L).floats("b", 1f, 4, 5).output("y").node("g", "Gemm", List.of("a", "b"), List.of("y"));
        assertThatThrownBy(() -> load(bad)).hasMessageContaining("inner dimensions differ");
    }

    @Test
    void matmulBroadcastsBatchAndPromotesVectors() {
        Graph g = load(new TinyOnnx().input("a", 2L, 1L, 3L, 4L).input("b", 5L, 4L, 6L).input("v", 6L).output("y")
                .node("m", "MatMul", List.of("a", "b"), List.of("x"))
                .node("n", "MatMul", List.of("x", "v"), List.of("y")));
        assertThat(shape(g, "x")).containsExactly(2, 5, 3, 6);
        assertThat(shape(g, "y")).containsExactly(2, 5, 3);
    }

    @Test
    void broadcastingAddSumAndMul() {
        Graph g = load(new TinyOnnx().input("a", 2L, 1L, 4L).input("b", 3L, 1L).input("c", 4L).output("z")
                .node("add", "Add", List.of("a", "b"), List.of("x"))
                .node("sum", "Sum", List.of("x", "c", "a"), List.of("y"))
                .node("mul", "Mul", List.of("y", "c"), List.of("z")));
        assertThat(shape(g, "x")).containsExactly(2, 3, 4);
        assertThat(shape(g, "y")).containsExactly(2, 3, 4);
        TinyOnnx bad = new TinyOnnx().input("a", 2L, 3L).input("b", 4L).output("x").node("add", "Add", List.of("a", "b"), List.of("x"));
        assertThatThrownBy(() -> load(bad)).hasMessageContaining("do not broadcast");
    }

    @Test
    void squeezeAndUnsqueezeAxesMoveFromAttributeToInputAtOpset13() {
        Graph v11 = load(new TinyOnnx().opset(11).input("x", 3L, 1L, 4L).output("z")
                .node("s", "Squeeze", List.of("x"), List.of("y"), "axes", new long[]{-2})
                .node("u", "Unsqueeze", List.of("y"), List.of("z"), "axes", new long[]{0, 3}));
        assertThat(shape(v11, "y")).containsExactly(3, 4);
        assertThat(shape(v11, "z")).containsExactly(1, 3, 4, 1);
        Graph v13 = load(new TinyOnnx().opset(13).input("x", 3L, 1L, 4L).ints("ax", 1).ints("ux", -1).output("z")
                .node("s", "Squeeze", List.of("x", "ax"), List.of("y"))
                .node("u", "Unsqueeze", List.of("y", "ux"), List.of("z")));
        assertThat(shape(v13, "z")).containsExactly(3, 4, 1);
        assertThat(op(v13, "u").inputs()).containsExactly("y");
        Graph all = load(new TinyOnnx().opset(13).input("x", 1L, 3L, 1L).output("y").node("s", "Squeeze", List.of("x"), List.of("y")));
        assertThat(shape(all, "y")).containsExactly(3);
    }

    @Test
    void negativeAxesCountFromTheBackBeforeOpset11ButFlattens() {
        // as ONNX Runtime 1.30 reads them (OlderOpsetsTest compares the values); Flatten's is refused, as ONNX Runtime refuses it
        TinyOnnx m = new TinyOnnx().opset(9).input("x", 3L, 1L).output("y").node("s", "Squeeze", List.of("x"), List.of("y"), "axes", new long[]{-1});
        assertThat(shape(load(m), "y")).containsExactly(3);
        TinyOnnx f = new TinyOnnx().opset(10).input("x", 3L, 1L).output("y").node("f", "Flatten", List.of("x"), List.of("y"), "axis", -1L);
        assertThatThrownBy(() -> load(f)).hasMessageContaining("axis -1 is negative, which Flatten takes from opset 11");
    }

    @Test
    void softmaxAxisSemanticsChangeAtOpset13() {
        Graph v9 = load(new TinyOnnx().opset(9).input("x", 2L, 3L, 4L).output("y").node("s", "Softmax", List.of("x"), List.of("y")));
        assertThat(op(v9, "s").attrs()).containsExactly(Map.entry("axis", 1L), Map.entry("single_axis", 0L));
        Graph v13 = load(new TinyOnnx().opset(13).input("x", 2L, 3L, 4L).output("y").node("s", "Softmax", List.of("x"), List.of("y")));
        assertThat(op(v13, "s").attrs()).containsExactly(Map.entry("axis", 2L), Map.entry("single_axis", 1L));
        Graph inner = load(new TinyOnnx().opset(13).input("x", 2L, 3L, 4L).output("y").node("s", "Softmax", List.of("x"), List.of("y"), "axis", 1L));
        assertThat(op(inner, "s").attrs()).containsExactly(Map.entry("axis", 1L), Map.entry("single_axis", 1L));
    }

    @Test
    void flattenTransposeConcatLrnAndBatchNorm() {
        Graph g = load(new TinyOnnx().opset(11).input("x", 1L, 2L, 3L, 4L).input("w", 1L, 5L, 3L, 4L)
                .floats("s", 1f, 7).floats("b", 0f, 7).floats("m", 0f, 7).floats("v", 1f, 7).output("f")
                .node("c", "Concat", List.of("x", "w"), List.of("c"), "axis", -3L)
                .node("bn", "BatchNormalization", List.of("c", "s", "b", "m", "v"), List.of("n"))
                .node("l", "LRN", List.of("n"), List.of("l"), "size", 3L)
                .node("t", "Transpose", List.of("l"), List.of("t"), "perm", new long[]{0, 2, 3, 1})
                .node("f", "Flatten", List.of("t"), List.of("f"), "axis", 2L));
        assertThat(shape(g, "c")).containsExactly(1, 7, 3, 4);
        assertThat(op(g, "c").attrs()).containsExactly(Map.entry("axis", 1L));
        assertThat(op(g, "bn").attrs()).containsOnlyKeys("epsilon");
        assertThat(op(g, "l").attrs()).containsOnlyKeys("size", "alpha", "beta", "bias");
        assertThat(shape(g, "t")).containsExactly(1, 3, 4, 7);
        assertThat(shape(g, "f")).containsExactly(3, 28);
    }

    @Test
    void dropoutAndIdentityAreViewsAndAnUnreadMaskIsDropped() {
        Graph g = load(new TinyOnnx().opset(9).input("x", 2L, 3L).output("z")
                .node("d", "Dropout", List.of("x"), List.of("y", "mask"), "ratio", 0.5)
                .node("i", "Identity", List.of("y"), List.of("z")));
        assertThat(op(g, "d").outputs()).containsExactly("y");
        assertThat(g.isView("y")).isTrue();
        assertThat(g.isView("z")).isTrue();
        Graph v13 = load(new TinyOnnx().opset(13).input("x", 2L, 3L).ints("train", 0).output("y")
                .node("d", "Dropout", List.of("x", "", "train"), List.of("y")));
        assertThat(v13.isView("y")).isTrue();
        TinyOnnx training = new TinyOnnx().opset(13).input("x", 2L, 3L).ints("train", 1).output("y")
                .node("d", "Dropout", List.of("x", "", "train"), List.of("y"));
        assertThatThrownBy(() -> load(training)).hasMessageContaining("node 'd' (Dropout").hasMessageContaining("training_mode is true");
        // in training mode a constant ratio 0 is still the identity (Dropout-12); any other ratio is refused
        Graph zero = load(new TinyOnnx().opset(13).input("x", 2L, 3L).ints("train", 1).floats("r", 0f).output("y")
                .node("d", "Dropout", List.of("x", "r", "train"), List.of("y")));
        assertThat(zero.isView("y")).isTrue();
        TinyOnnx half = new TinyOnnx().opset(13).input("x", 2L, 3L).ints("train", 1).floats("r", 0.5f).output("y")
                .node("d", "Dropout", List.of("x", "r", "train"), List.of("y"));
        assertThatThrownBy(() -> load(half)).hasMessageContaining("training_mode is true with ratio 0.5");
        TinyOnnx readsMask = new TinyOnnx().opset(9).input("x", 2L, 3L).output("z")
                .node("d", "Dropout", List.of("x"), List.of("y", "mask"))
                .node("r", "Relu", List.of("mask"), List.of("z"));
        assertThatThrownBy(() -> load(readsMask)).hasMessageContaining("node 'r' (Relu").hasMessageContaining("optional output of node 'd'");
    }

    @Test
    void weightsAreNotArenaTensorsAndViewsOfWeightsFoldIntoWeights() {
        Graph g = load(new TinyOnnx().opset(9).input("x", 1L, 6L).ints("shape", 6, 2).ints("flat", 2, 6).output("y")
                .node("k", "ConstantOfShape", List.of("shape"), List.of("w"))
                .node("r", "Reshape", List.of("w", "flat"), List.of("wt"))
                .node("m", "MatMul", List.of("x", "w"), List.of("y")));
        assertThat(g.weights()).containsExactly("w");
        assertThat(g.weightFill("w")).isEqualTo(0.0);
        assertThat(g.opCount()).isEqualTo(1);
        assertThat(g.tensors()).doesNotContainKeys("shape", "flat", "wt");
        Graph h = load(new TinyOnnx().opset(9).input("x", 6L, 1L).ints("shape", 6, 2).ints("flat", 2, 6).output("y")
                .node("k", "ConstantOfShape", List.of("shape"), List.of("w"))
                .node("r", "Reshape", List.of("w", "flat"), List.of("wt"))
                .node("m", "MatMul", List.of("wt", "x"), List.of("y")));
        assertThat(h.weights()).containsExactly("wt");
    }

    @Test
    void largeRawInitializersAreFillsWhenUniformElseTheirValues() {
        int n = (int) OnnxImporter.MAX_CONSTANT_VALUES + 5;
        float[] same = new float[n], mixed = new float[n];
        java.util.Arrays.fill(same, 0.25f);
        java.util.Arrays.fill(mixed, 0.25f);
        mixed[n - 1] = 1f;
        Graph g = load(new TinyOnnx().input("x", (long) n).raw("a", same).raw("b", mixed).output("z")
                .node("add", "Add", List.of("x", "a"), List.of("y"))
                .node("mul", "Mul", List.of("y", "b"), List.of("z")));
        assertThat(g.weightFill("a")).isEqualTo(0.25);
        assertThat(g.weightValues("a")).isNull();
        assertThat(g.weights()).contains("b");
        assertThat(g.weightFill("b")).isNull();
        java.nio.ByteBuffer b = g.weightValues("b").read();
        assertThat(b.remaining()).isEqualTo(4 * n);
        assertThat(b.getFloat(4 * (n - 1))).isEqualTo(1f);
        assertThat(b.getFloat(0)).isEqualTo(0.25f);
    }
}
