package org.arenaplan.onnx;

import org.arenaplan.exec.AllClose;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ONNX Runtime (CPU) is the reference: small models built here with random weights run in ONNX
 * Runtime and, imported, planned and run on the simulator by arenaplan; every output must agree
 * like numpy's allclose with {@link AllClose}'s defaults.
 */
class OnnxRuntimeDifferentialTest {
    @TempDir
    Path dir;

    static float[] random(int n, long seed) {
        return WeightsTest.random(n, seed);
    }

    private void agree(TinyOnnx model, Map<String, long[]> inputShapes) throws Exception {
        agree(dir, model, inputShapes);
    }

    /** Runs {@code model} in ONNX Runtime and in arenaplan on the same inputs (random f32); compares every output; returns the graph. */
    static Graph agree(Path dir, TinyOnnx model, Map<String, long[]> inputShapes) throws Exception {
        Path file = dir.resolve("m.onnx");
        Files.write(file, model.bytes());
        Map<String, float[]> inputs = new LinkedHashMap<>();
        long seed = 100;
        for (Map.Entry<String, long[]> e : inputShapes.entrySet()) {
            long n = 1;
            for (long d : e.getValue()) n *= d;
            inputs.put(e.getKey(), random((int) n, seed++));
        }
        Map<String, TensorValue> feed = new LinkedHashMap<>();
        inputs.forEach((name, v) -> feed.put(name, TensorValue.ofFloats(inputShapes.get(name), v)));
        Map<String, float[]> reference = new LinkedHashMap<>();
        OrtOracle.run(model.bytes(), feed).forEach((name, v) -> reference.put(name, v.floats()));
        Graph g = OnnxImporter.load(file, Map.of());
        Map<String, float[]> got = WeightsTest.run(g, inputs);
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(reference.keySet());
        for (String out : reference.keySet()) {
            AllClose c = AllClose.compare(got.get(out), reference.get(out), AllClose.DEFAULT_RTOL, AllClose.DEFAULT_ATOL);
            assertThat(c.ok()).as("output '%s': %s", out, c.describe(g.tensor(out).shape())).isTrue();
        }
        return g;
    }

    @Test
    void gemmWithRandomWeights() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 4L, 32L).raw("w", random(16 * 32, 1), 16, 32).raw("b", random(16, 2)).output("y")
                .node("fc", "Gemm", List.of("x", "w", "b"), List.of("y"), "transB", 1L, "alpha", 0.5, "beta", 2.0);
        agree(m, Map.of("x", new long[]{4, 32}));
    }

    @Test
    void convWithBiasPadsStridesAndGroups() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 2L, 4L, 9L, 9L)
                .raw("w", random(6 * 2 * 3 * 3, 3), 6, 2, 3, 3).raw("b", random(6, 4)).output("y")
                .node("conv", "Conv", List.of("x", "w", "b"), List.of("y"), "kernel_shape", new long[]{3, 3}, "pads", new long[]{1, 0, 1, 2},
                        "strides", new long[]{2, 1}, "group", 2L);
        agree(m, Map.of("x", new long[]{2, 4, 9, 9}));
    }

    /**
     * Pad with zeros, then MaxPool: the 'SAME' padding Hugging Face's BiT (and timm's) computes at run time and PyTorch
     * exports as Pad + MaxPool. A window over the padding and negative values takes 0, the padded value. ONNX Runtime's
     * graph optimizations fuse such a Pad into MaxPool's pads, whose padding never wins, and return the negative value:
     * the oracle runs without them (OrtOracle); with them this test fails on every window at the padded border.
     */
    @Test
    void zeroPadThenMaxPoolTakesThePaddedZero() throws Exception {
        float[] x = new float[2 * 5 * 5];
        for (int i = 0; i < x.length; i++) x[i] = -0.5f - 0.01f * i;   // every value negative
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 1L, 2L, 5L, 5L).ints("pads", 0, 0, 1, 1, 0, 0, 1, 1).floats("zero", 0f).output("y")
                .node("pad", "Pad", List.of("x", "pads", "zero"), List.of("p"), "mode", "constant")
                .node("pool", "MaxPool", List.of("p"), List.of("y"), "kernel_shape", new long[]{3, 3}, "strides", new long[]{2, 2});
        OnnxOpRuns.agree(dir, m, Map.of("x", TensorValue.ofFloats(new long[]{1, 2, 5, 5}, x)), 0, 0);
        float[] y = OnnxOpRuns.run(dir, m, Map.of("x", TensorValue.ofFloats(new long[]{1, 2, 5, 5}, x))).get("y").floats();
        assertThat(y[0]).isEqualTo(0f);           // window over rows and columns -1..1 of x: the padding wins
        assertThat(y[4]).isEqualTo(x[5 + 1]);     // window over rows and columns 1..3: no padding; x decreases, so x[1][1]
    }

    @Test
    void smallCnnWithEveryLayerKind() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 1L, 3L, 16L, 16L)
                .raw("w1", random(8 * 3 * 3 * 3, 5), 8, 3, 3, 3).raw("b1", random(8, 6))
                .raw("scale", random(8, 7)).raw("bias", random(8, 8)).raw("mean", random(8, 9))
                .raw("var", absPlus(random(8, 10), 0.5f), 8)
                .raw("w2", random(8 * 8 * 3 * 3, 11), 8, 8, 3, 3)
                .raw("w3", random(4 * 8 * 1 * 1, 12), 4, 8, 1, 1)
                .raw("fc", random(10 * 12, 13), 12, 10).raw("fcb", random(10, 14))
                .output("prob")
                .node("c1", "Conv", List.of("x", "w1", "b1"), List.of("c1"), "kernel_shape", new long[]{3, 3}, "pads", new long[]{1, 1, 1, 1})
                .node("bn", "BatchNormalization", List.of("c1", "scale", "bias", "mean", "var"), List.of("bn"), "epsilon", 1e-5)
                .node("r1", "Relu", List.of("bn"), List.of("r1"))
                .node("p1", "MaxPool", List.of("r1"), List.of("p1"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2})
                .node("c2", "Conv", List.of("p1", "w2"), List.of("c2"), "kernel_shape", new long[]{3, 3}, "pads", new long[]{1, 1, 1, 1})
                .node("c3", "Conv", List.of("p1", "w3"), List.of("c3"), "kernel_shape", new long[]{1, 1})
                .node("r2", "Relu", List.of("c2"), List.of("r2"))
                .node("cat", "Concat", List.of("r2", "c3"), List.of("cat"), "axis", 1L)
                .node("add", "Add", List.of("cat", "cat"), List.of("sum"))
                .node("ap", "AveragePool", List.of("sum"), List.of("ap"), "kernel_shape", new long[]{2, 2}, "strides", new long[]{2, 2})
                .node("gap", "GlobalAveragePool", List.of("ap"), List.of("gap"))
                .node("flat", "Flatten", List.of("gap"), List.of("flat"))
                .node("gemm", "Gemm", List.of("flat", "fc", "fcb"), List.of("logits"))
                .node("sm", "Softmax", List.of("logits"), List.of("prob"), "axis", 1L);
        agree(m, Map.of("x", new long[]{1, 3, 16, 16}));
    }

    @Test
    void matMulAddTanhSigmoidWithTwoOutputs() throws Exception {
        TinyOnnx m = new TinyOnnx().input("a", 2L, 3L, 8L).input("b", 8L, 5L).raw("c", random(5, 15), 5).output("t").output("s")
                .node("mm", "MatMul", List.of("a", "b"), List.of("ab"))
                .node("add", "Add", List.of("ab", "c"), List.of("abc"))
                .node("tanh", "Tanh", List.of("abc"), List.of("t"))
                .node("sig", "Sigmoid", List.of("abc"), List.of("s"));
        agree(m, Map.of("a", new long[]{2, 3, 8}, "b", new long[]{8, 5}));
    }

    private static float[] absPlus(float[] v, float plus) {
        for (int i = 0; i < v.length; i++) v[i] = Math.abs(v[i]) + plus;
        return v;
    }
}
