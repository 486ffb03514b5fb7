package org.arenaplan.onnx;

import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Models below opset 9: a node is imported where its op means what it means at opset 9 (And-7,
 * Relu-6, MatMul-1, BatchNormalization-7 with spatial = 1, AveragePool-1; Upsample-7, Sum-6, Add-6's legacy broadcast,
 * Gemm-6, PRelu-6 and BatchNormalization-6 rewritten) and refused, naming the node and the version, where it does not
 * (Reshape-1, spatial = 0, is_test = 0, a B that does not fit A, a negative legacy-broadcast axis, Flatten's negative axis before 11).
 */
class OlderOpsetsTest {
    @TempDir
    Path dir;

    @Test
    void opsThatMeanWhatTheyMeanAtNineRunAtOlderOpsets() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(7).input("x", 2L, 2L).input("w", 2L, 2L).output("y")
                .node("g", "MatMul", List.of("x", "w"), List.of("t"))
                .node("r", "Relu", List.of("t"), List.of("y"));
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, m, TransformerOpsTest.feed(
                "x", TensorValue.ofFloats(new long[]{2, 2}, 1, 2, 3, 4), "w", TensorValue.ofFloats(new long[]{2, 2}, 1, 0, 0, -1)));
        // x w = [[1, -2], [3, -4]] (MatMul-1: MatMul at opset 9 but for its types), Relu-6
        assertThat(out.get("y").floats()).containsExactly(1f, 0f, 3f, 0f);
    }

    @Test
    void batchNormalizationSevenIsNineWhereSpatialIsOne() throws Exception {
        for (Object[] c : new Object[][]{{null, true}, {1L, true}, {0L, false}}) {
            TinyOnnx m = new TinyOnnx().opset(7).input("x", 1L, 1L, 2L).floats("s", 2f, 1L).floats("b", 1f, 1L).floats("mean", 0f, 1L)
                    .floats("var", 1f, 1L).output("y");
            if (c[0] == null) m.node("bn", "BatchNormalization", List.of("x", "s", "b", "mean", "var"), List.of("y"), "epsilon", 0.0);
            else m.node("bn", "BatchNormalization", List.of("x", "s", "b", "mean", "var"), List.of("y"), "epsilon", 0.0, "spatial", c[0]);
            if ((Boolean) c[1]) {
                Map<String, TensorValue> out = OnnxOpRuns.run(dir, m, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 1, 2}, 1, -1)));
                assertThat(out.get("y").floats()).as("spatial " + c[0]).containsExactly(3f, -1f);
            } else {
                refused(m, "node 'bn' (BatchNormalization, #0, opset 7): attribute 'spatial' = 0: BatchNormalization-9 (the version arenaplan imports) means spatial = 1 only");
            }
        }
    }

    @Test
    void upsampleSevenTakesItsScalesFromTheAttribute() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(7).input("x", 1L, 1L, 2L, 2L).output("y")
                .node("up", "Upsample", List.of("x"), List.of("y"), "scales", new double[]{1, 1, 2, 2}, "mode", "nearest");
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 1, 2, 2}, 1, 2, 3, 4));
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats())
                .containsExactly(1f, 1f, 2f, 2f, 1f, 1f, 2f, 2f, 3f, 3f, 4f, 4f, 3f, 3f, 4f, 4f);
        OnnxOpRuns.agree(dir, m, in, 0, 0);
        refused(new TinyOnnx().opset(8).input("x", 1L, 1L, 2L, 2L).output("y").node("up", "Upsample", List.of("x"), List.of("y")),
                "node 'up' (Upsample, #0, opset 8): attribute 'scales' (FLOATS) is required by Upsample-7");
    }

    @Test
    void sumSixTakesInputsOfOneShape() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(6).input("a", 2L).input("b", 2L).output("y").node("s", "Sum", List.of("a", "b"), List.of("y"));
        Map<String, TensorValue> in = TransformerOpsTest.feed("a", TensorValue.ofFloats(new long[]{2}, 1, 2), "b", TensorValue.ofFloats(new long[]{2}, 10, 20));
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(11f, 22f);
        OnnxOpRuns.agree(dir, m, in, 0, 0);
        refused(new TinyOnnx().opset(7).input("a", 2L, 2L).input("b", 2L).output("y").node("m", "Max", List.of("a", "b"), List.of("y")),
                "node 'm' (Max, #0, opset 7): inputs a[2, 2] and b[2] differ in shape; Max at opset 7 takes inputs of one shape (broadcasting from Max-8)");
    }

    @Test
    void olderVersionsAreRefusedNamingTheNodeAndTheVersion() throws Exception {
        refused(new TinyOnnx().opset(8).input("x", 2L).output("y").node("e", "Erf", List.of("x"), List.of("y")), "Erf at opset 8 predates Erf-9, the oldest version whose meaning arenaplan imports (it reads opset 9 and later, and older opsets where an op means what it means at 9); convert the model to opset 9 or later (onnx.version_converter.convert_version)");
        // breaker12: an old version's own attribute was reported as unknown, without the version
        refused(new TinyOnnx().opset(4).input("x", 2L).output("y").node("r", "Reshape", List.of("x"), List.of("y"), "shape", new long[]{2}, "consumed_inputs", new long[]{0}),
                "node 'r' (Reshape, #0, opset 4): Reshape at opset 4 predates Reshape-5");
        refused(new TinyOnnx().opset(5).input("x", 2L).output("y").node("c", "Cast", List.of("x"), List.of("y"), "to", 1L),
                "Cast at opset 5 predates Cast-6");
    }

    @Test
    void legacyBroadcastAlignsBAtItsAxis() throws Exception {
        TensorValue a = TensorValue.ofFloats(new long[]{2, 3}, 1, 2, 3, 4, 5, 6);
        // axis 0: B [2] is A's axis 0, one value per row (numpy would align it with axis 1, [2] against [3]: no broadcast)
        TinyOnnx rows = new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 2L).output("y")
                .node("add", "Add", List.of("a", "b"), List.of("y"), "broadcast", 1L, "axis", 0L);
        Map<String, TensorValue> in = TransformerOpsTest.feed("a", a, "b", TensorValue.ofFloats(new long[]{2}, 10, 20));
        assertThat(OnnxOpRuns.run(dir, rows, in).get("y").floats()).containsExactly(11f, 12f, 13f, 24f, 25f, 26f);
        // the same sum at opset 9, B unsqueezed by hand, is ONNX Runtime's
        OnnxOpRuns.agree(dir, new TinyOnnx().opset(9).input("a", 2L, 3L).input("b", 2L).output("y")
                .node("u", "Unsqueeze", List.of("b"), List.of("b1"), "axes", new long[]{1})
                .node("add", "Add", List.of("a", "b1"), List.of("y")), in, 0, 0);
        // no axis: suffix matching; an extent 1 of B is expanded (PyTorch's [2, 3] + [2, 1] at axis 0); broadcast 0: one shape
        TinyOnnx suffix = new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 3L).output("y")
                .node("sub", "Sub", List.of("a", "b"), List.of("y"), "broadcast", 1L);
        assertThat(OnnxOpRuns.run(dir, suffix, TransformerOpsTest.feed("a", a, "b", TensorValue.ofFloats(new long[]{3}, 1, 2, 3))).get("y").floats())
                .containsExactly(0f, 0f, 0f, 3f, 3f, 3f);
        TinyOnnx ones = new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 2L, 1L).output("y")
                .node("mul", "Mul", List.of("a", "b"), List.of("y"), "broadcast", 1L, "axis", 0L);
        assertThat(OnnxOpRuns.run(dir, ones, TransformerOpsTest.feed("a", a, "b", TensorValue.ofFloats(new long[]{2, 1}, 2, 3))).get("y").floats())
                .containsExactly(2f, 4f, 6f, 12f, 15f, 18f);
        TinyOnnx pow = new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 1L).output("y")
                .node("pow", "Pow", List.of("a", "b"), List.of("y"), "broadcast", 1L);
        assertThat(OnnxOpRuns.run(dir, pow, TransformerOpsTest.feed("a", a, "b", TensorValue.ofFloats(new long[]{1}, 2))).get("y").floats())
                .containsExactly(1f, 4f, 9f, 16f, 25f, 36f);
        refused(new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 3L).output("y").node("add", "Add", List.of("a", "b"), List.of("y")),
                "node 'add' (Add, #0, opset 6): A [2, 3] and B [3] differ in shape and attribute 'broadcast' is 0: Add before version 7 broadcasts only with broadcast = 1");
        refused(new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 2L).output("y").node("div", "Div", List.of("a", "b"), List.of("y"), "broadcast", 1L),
                "node 'div' (Div, #0, opset 6): A [2, 3] and B [2]: B's shape does not fit the part of A's starting at axis 1 (suffix matching) (each extent equal, or 1), the only broadcast of Div before version 7");
    }

    @Test
    void gemmSixBroadcastsCOnlyWhenAsked() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(6).input("a", 1L, 2L).input("b", 2L, 2L).input("c", 2L).output("y")
                .node("g", "Gemm", List.of("a", "b", "c"), List.of("y"), "broadcast", 1L);
        Map<String, TensorValue> in = TransformerOpsTest.feed("a", TensorValue.ofFloats(new long[]{1, 2}, 1, 2),
                "b", TensorValue.ofFloats(new long[]{2, 2}, 1, 0, 0, 1), "c", TensorValue.ofFloats(new long[]{2}, 10, 20));
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(11f, 22f);
        refused(new TinyOnnx().opset(6).input("a", 1L, 2L).input("b", 2L, 2L).input("c", 2L).output("y")
                .node("g", "Gemm", List.of("a", "b", "c"), List.of("y")),
                "node 'g' (Gemm, #0, opset 6): C [2] is not [M, N] = [1, 2] and attribute 'broadcast' is 0: Gemm before version 7 broadcasts C only with broadcast = 1");
    }

    @Test
    void preluSixTakesOneSlopePerChannel() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(6).input("x", 1L, 2L, 3L).input("s", 2L).output("y")
                .node("p", "PRelu", List.of("x", "s"), List.of("y"));
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 2, 3}, -1, -2, 3, -4, 5, -6),
                "s", TensorValue.ofFloats(new long[]{2}, 0.5f, 0.25f));
        // channel 0 (-1, -2, 3) by 0.5, channel 1 (-4, 5, -6) by 0.25: PyTorch's nn.PReLU(2), Caffe2's PRelu
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(-0.5f, -1f, 3f, -1f, 5f, -1.5f);
    }

    @Test
    void batchNormalizationSixIsSevenInTestMode() throws Exception {
        for (Long isTest : new Long[]{1L, 0L}) {
            TinyOnnx m = new TinyOnnx().opset(6).input("x", 1L, 1L, 2L).floats("s", 2f, 1L).floats("b", 1f, 1L).floats("mean", 0f, 1L)
                    .floats("var", 1f, 1L).output("y")
                    .node("bn", "BatchNormalization", List.of("x", "s", "b", "mean", "var"), List.of("y"), "epsilon", 0.0, "is_test", isTest, "spatial", 1L);
            if (isTest == 1) {
                assertThat(OnnxOpRuns.run(dir, m, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 1, 2}, 1, -1))).get("y").floats())
                        .containsExactly(3f, -1f);
            } else {
                refused(m, "node 'bn' (BatchNormalization, #0, opset 6): attribute 'is_test' = 0 (training mode, the default of BatchNormalization-6)");
            }
        }
    }

    @Test
    void averagePoolOneLeavesThePaddingOut() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(6).input("x", 1L, 1L, 3L).output("y")
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{2}, "pads", new long[]{1, 1});
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 1, 3}, 2, 4, 6));
        // windows [pad, 2], [2, 4], [4, 6], [6, pad]: "divided by the number of elements exclude pad" (AveragePool-1)
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(2f, 3f, 5f, 6f);
    }

    @Test
    void averagePoolOneRefusesCountIncludePadItDoesNotHave() throws Exception {
        // count_include_pad came with AveragePool-7 (onnx.checker: 'Unrecognized attribute'); it was read at opset 6, dividing by the padded window
        refused(new TinyOnnx().opset(6).input("x", 1L, 1L, 3L).output("y").node("p", "AveragePool", List.of("x"), List.of("y"),
                "kernel_shape", new long[]{2}, "pads", new long[]{1, 1}, "count_include_pad", 1L),
                "node 'p' (AveragePool, #0, opset 6): attribute 'count_include_pad' is AveragePool-7's");
    }

    @Test
    void padTwoRefusesAValueForAnIntegerTensor() throws Exception {
        // Pad-2's T is float16, float or double (ONNX Runtime refuses int32 X); value 2.7 was cut to 2 in an int32 output
        refused(new TinyOnnx().opset(9).input(OnnxDTypes.INT32, "x", 1L, 2L).output(OnnxDTypes.INT32, "y")
                .node("p", "Pad", List.of("x"), List.of("y"), "pads", new long[]{0, 1, 0, 2}, "value", 2.7),
                "attribute 'value' = 2.7 pads X");
    }

    @Test
    void padTwoPadsWithItsValueAttribute() throws Exception {
        // Pad-2 (opsets 2..10): 'value' is the constant; it was refused unless 0 (PyTorch's nn.ConstantPad2d(…, 2.0) at opset 6)
        TinyOnnx m = new TinyOnnx().opset(9).input("x", 1L, 2L).output("y")
                .node("p", "Pad", List.of("x"), List.of("y"), "pads", new long[]{0, 1, 0, 2}, "value", 2.5);
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 2}, 1, -1));
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(2.5f, 1f, -1f, 2.5f, 2.5f);
        OnnxOpRuns.agree(dir, m, in, 0, 0);
    }

    @Test
    void softmaxAndSplitBeforeElevenTakeANegativeAxisAsOnnxRuntimeDoes() throws Exception {
        // LogSoftmax-1 with axis -1 (PyTorch's log_softmax(dim=-1) at opset 6): the last axis, as ONNX Runtime reads it
        TinyOnnx m = new TinyOnnx().opset(9).input("x", 2L, 2L).output("y")
                .node("s", "LogSoftmax", List.of("x"), List.of("y"), "axis", -1L);
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2, 2}, 0, 0, 1, 1));
        float half = (float) Math.log(0.5);
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(half, half, half, half);
        OnnxOpRuns.agree(dir, m, in, 1e-6, 1e-6);
        // Split-2 with axis -1 (PyTorch's chunk(2, dim=-1) at opset 6, in GLU)
        TinyOnnx split = new TinyOnnx().opset(9).input("x", 1L, 4L).output("a").output("b")
                .node("s", "Split", List.of("x"), List.of("a", "b"), "axis", -1L);
        Map<String, TensorValue> four = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 4}, 1, 2, 3, 4));
        assertThat(OnnxOpRuns.run(dir, split, four).get("b").floats()).containsExactly(3f, 4f);
        OnnxOpRuns.agree(dir, split, four, 0, 0);
    }

    @Test
    void negativeAxesBeforeElevenCountFromTheBackAsOnnxRuntimeDoes() throws Exception {
        // ONNX made negative axes the rule at opset 11 (Squeeze-1: "non-negative integers"); ONNX Runtime 1.30 takes them before,
        // counted from the back (Unsqueeze's against the output's rank); they were refused ("... which opset 9 does not allow")
        float[] x = new float[24];
        for (int i = 0; i < x.length; i++) x[i] = i % 7 - 3;
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2, 3, 4}, x));
        Object[][] cases = {
                {1L, "ReduceSum", new Object[]{"axes", new long[]{-1}}}, {9L, "ReduceMax", new Object[]{"axes", new long[]{0, -2}, "keepdims", 0L}},
                {10L, "ReduceMean", new Object[]{"axes", new long[]{-3}}}, {1L, "ArgMax", new Object[]{"axis", -1L}},
                {10L, "ArgMin", new Object[]{"axis", -2L}}, {1L, "Unsqueeze", new Object[]{"axes", new long[]{-1}}},
                {9L, "Unsqueeze", new Object[]{"axes", new long[]{0, -2}}}, {4L, "Concat", new Object[]{"axis", -2L}},
                {9L, "Slice", new Object[]{"axes", new long[]{-1}, "starts", new long[]{1}, "ends", new long[]{3}}},
                {9L, "MeanVarianceNormalization", new Object[]{"axes", new long[]{0, -1}}}};
        for (Object[] c : cases) {
            String op = (String) c[1];
            TinyOnnx m = new TinyOnnx().opset((Long) c[0]).input("x", 2L, 3L, 4L);
            if (op.startsWith("Arg")) m.output(OnnxDTypes.INT64, "y", op.equals("ArgMax") ? new Object[]{2L, 3L, 1L} : new Object[]{2L, 1L, 4L});
            else m.output("y");
            m.node("n", op, op.equals("Concat") ? List.of("x", "x") : List.of("x"), List.of("y"), (Object[]) c[2]);
            OnnxOpRuns.agree(dir, m, in, 1e-6, 1e-6);
        }
        TinyOnnx squeeze = new TinyOnnx().opset(9).input("x", 2L, 1L, 3L).output("y").node("n", "Squeeze", List.of("x"), List.of("y"), "axes", new long[]{-2});
        OnnxOpRuns.agree(dir, squeeze, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2, 1, 3}, 1, 2, 3, 4, 5, 6)), 0, 0);
        // out of range stays refused, as ONNX Runtime refuses it ("HandleNegativeAxis")
        refused(new TinyOnnx().opset(9).input("x", 2L, 3L).output("y").node("r", "ReduceSum", List.of("x"), List.of("y"), "axes", new long[]{-3}),
                "node 'r' (ReduceSum, #0, opset 9): axis -3 is out of range for rank 2");
    }

    @Test
    void flattenBeforeElevenRefusesANegativeAxisAsOnnxRuntimeDoes() throws Exception {
        // the one op ONNX Runtime 1.30 refuses so (its shape inference: "Invalid value(-1) for attribute 'axis'")
        refused(new TinyOnnx().opset(9).input("x", 2L, 3L).output("y").node("f", "Flatten", List.of("x"), List.of("y"), "axis", -1L),
                "node 'f' (Flatten, #0, opset 9): axis -1 is negative, which Flatten takes from opset 11");
    }

    @Test
    void versionOneOpsDropTheirConsumedInputsHint() throws Exception {
        // consumed_inputs, "legacy optimization attribute", names inputs a version-1 op may overwrite; version 6 is version 1 without it
        // (onnx's version converter deletes it). ONNX Runtime 1.30 runs no version 1 ("Could not find an implementation for Relu(1)"),
        // so each is checked against its version 6, which ONNX Runtime runs, or by hand; they were refused ("predates Relu-6")
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2, 2}, -2, -0.5f, 0.5f, 2));
        for (String op : List.of("Relu", "Sigmoid", "Tanh", "Abs", "Neg", "Exp", "LeakyRelu", "Elu", "HardSigmoid")) {
            TinyOnnx six = new TinyOnnx().opset(6).input("x", 2L, 2L).output("y").node("n", op, List.of("x"), List.of("y"));
            TinyOnnx one = new TinyOnnx().opset(5).input("x", 2L, 2L).output("y").node("n", op, List.of("x"), List.of("y"), "consumed_inputs", new long[]{1});
            OnnxOpRuns.agree(dir, six, in, 1e-6, 1e-6);
            float[] want = OnnxOpRuns.run(dir, six, in).get("y").floats();
            assertThat(OnnxOpRuns.run(dir, one, in).get("y").floats()).as(op).containsExactly(want);
        }
        // Add-1 with its legacy broadcast, consumed_inputs on both: y = x + b per row (axis 0)
        TinyOnnx add = new TinyOnnx().opset(1).input("x", 2L, 2L).input("b", 2L).output("y")
                .node("a", "Add", List.of("x", "b"), List.of("y"), "broadcast", 1L, "axis", 0L, "consumed_inputs", new long[]{1, 0});
        assertThat(OnnxOpRuns.run(dir, add, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2, 2}, -2, -0.5f, 0.5f, 2),
                "b", TensorValue.ofFloats(new long[]{2}, 10, 20))).get("y").floats()).containsExactly(8f, 9.5f, 20.5f, 22f);
        // BatchNormalization-1 in test mode: (x - mean) / sqrt(var + eps) * s + b = 2x + 1
        TinyOnnx bn = new TinyOnnx().opset(5).input("x", 1L, 1L, 2L).floats("s", 2f, 1L).floats("b", 1f, 1L).floats("mean", 0f, 1L)
                .floats("var", 1f, 1L).output("y").node("bn", "BatchNormalization", List.of("x", "s", "b", "mean", "var"), List.of("y"),
                        "epsilon", 0.0, "is_test", 1L, "consumed_inputs", new long[]{0, 0, 0, 1, 1});
        assertThat(OnnxOpRuns.run(dir, bn, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 1, 2}, 1, -1))).get("y").floats())
                .containsExactly(3f, -1f);
    }

    @Test
    void dropoutBeforeSevenIsSevenInTestMode() throws Exception {
        // Dropout-1 and 6 take is_test (default 0, training), which Dropout-7 dropped; 1 is the inference Dropout-7 computes (a copy)
        TinyOnnx m = new TinyOnnx().opset(6).input("x", 2L).output("y").node("d", "Dropout", List.of("x"), List.of("y"), "is_test", 1L, "ratio", 0.5);
        assertThat(OnnxOpRuns.run(dir, m, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2}, 1, -2))).get("y").floats()).containsExactly(1f, -2f);
        refused(new TinyOnnx().opset(1).input("x", 2L).output("y").node("d", "Dropout", List.of("x"), List.of("y"), "consumed_inputs", new long[]{0}),
                "node 'd' (Dropout, #0, opset 1): attribute 'is_test' = 0 (training mode, the default of Dropout-1): arenaplan imports the inference Dropout-7 computes, is_test = 1");
    }

    @Test
    void clipOneBoundsDefaultToTheInputTypesRange() throws Exception {
        // Clip-1: absent bounds are "numeric_limits::lowest() and numeric_limits::max()" of T; Clip-6's are -/+FLT_MAX, which clamps a double
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofDoubles(org.arenaplan.ir.DType.F64, new long[]{2}, 1e300, -1e300));
        TinyOnnx one = new TinyOnnx().opset(5).input(OnnxDTypes.DOUBLE, "x", 2L).output(OnnxDTypes.DOUBLE, "y", 2L)
                .node("c", "Clip", List.of("x"), List.of("y"), "consumed_inputs", new long[]{0});
        assertThat(OnnxOpRuns.run(dir, one, in).get("y").doubles()).containsExactly(1e300, -1e300);
        TinyOnnx six = new TinyOnnx().opset(6).input(OnnxDTypes.DOUBLE, "x", 2L).output(OnnxDTypes.DOUBLE, "y", 2L).node("c", "Clip", List.of("x"), List.of("y"));
        assertThat(OnnxOpRuns.run(dir, six, in).get("y").doubles()).containsExactly(3.4028234663852886e38, -3.4028234663852886e38);
    }

    @Test
    void seluOneUsesItsOwnDefaults() throws Exception {
        // Selu-1: alpha "default to 1.6732", gamma "default to 1.0507" (Selu-6: 1.67326319..., 1.05070102...); y = gamma * alpha * (e^x - 1) for x <= 0
        TinyOnnx m = new TinyOnnx().opset(1).input("x", 2L).output("y").node("s", "Selu", List.of("x"), List.of("y"), "consumed_inputs", new long[]{0});
        float[] y = OnnxOpRuns.run(dir, m, TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2}, -1, 2))).get("y").floats();
        assertThat(y[0]).isCloseTo((float) (1.0507f * 1.6732f * Math.expm1(-1)), org.assertj.core.data.Offset.offset(1e-6f));
        assertThat(y[1]).isCloseTo(1.0507f * 2, org.assertj.core.data.Offset.offset(1e-6f));
    }

    @Test
    void legacyBroadcastRefusesANegativeAxis() throws Exception {
        // Add-6's axis -1 was read from the back (A's last axis); Caffe2's legacy broadcast reads -1 as suffix matching,
        // the schema defines neither and ONNX Runtime runs no Add-6
        refused(new TinyOnnx().opset(6).input("a", 2L, 3L).input("b", 3L).output("y")
                        .node("add", "Add", List.of("a", "b"), List.of("y"), "broadcast", 1L, "axis", -1L),
                "node 'add' (Add, #0, opset 6): attribute 'axis' = -1 is negative, which the legacy broadcast of Add before version 7 does not define");
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        Path file = dir.resolve("old.onnx");
        Files.write(file, model.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).startsWith(file.toString()).doesNotContain("\n"));
    }
}
