package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Shape arithmetic folded at import ({@link ImportTimeOps}, {@link ImportFolding}): constant
 * chains leave no ops, no kernels and no arena bytes; values are the simulator's; refusals of
 * data-dependent shapes name the node. Also values of the shape and index ops on the simulator
 * where the ONNX node tests do not reach (Pad's wrap, Slice as a view, MatMul of 1-D operands).
 */
class ShapeFoldingTest {

    static Graph load(TinyOnnx m, Map<String, Long> dims) {
        return ShapeInferenceTest.load(m, dims);
    }

    private static List<String> kinds(Graph g) {
        return g.ops().stream().map(Op::kind).toList();
    }

    /** Outputs of one planned run on the simulator. */
    static Map<String, TensorValue> run(Graph g, Map<String, TensorValue> inputs) {
        try (Device d = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            return Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, inputs, 1).last(Mode.PLANNED).outputs();
        }
    }

    private static OnnxMl.TensorProto int64s(String name, long[] dims, long... v) {
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.INT64);
        for (long d : dims) t.addDims(d);
        for (long x : v) t.addInt64Data(x);
        return t.build();
    }

    /** Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])): the PyTorch flatten chain. */
    private static TinyOnnx flattenChain(Object batch) {
        return new TinyOnnx().input("x", batch, 3L, 4L).output("y")
                .node("c0", "Constant", List.of(), List.of("zero"), "value", int64s("zero", new long[0], 0))
                .node("c1", "Constant", List.of(), List.of("axes"), "value", int64s("axes", new long[]{1}, 0))
                .node("c2", "Constant", List.of(), List.of("minus1"), "value", int64s("minus1", new long[]{1}, -1))
                .node("shape", "Shape", List.of("x"), List.of("s"))
                .node("gather", "Gather", List.of("s", "zero"), List.of("n"), "axis", 0L)
                .node("unsq", "Unsqueeze", List.of("n", "axes"), List.of("n1"))
                .node("cat", "Concat", List.of("n1", "minus1"), List.of("target"), "axis", 0L)
                .node("reshape", "Reshape", List.of("x", "target"), List.of("y"));
    }

    @Test
    void shapeChainFoldsIntoTheReshapeAndLeavesNoKernelAndNoArenaBytes() {
        Graph g = load(flattenChain(2L), Map.of());
        assertThat(kinds(g)).containsExactly(OpKinds.RESHAPE);
        assertThat(g.ops().get(0).isStorageOnly()).isTrue();                 // a view: no kernel
        assertThat(g.tensor("y").shape()).containsExactly(2, 12);
        // the same arena as the model with the target shape written as a constant: the chain costs no byte
        Graph direct = load(new TinyOnnx().input("x", 2L, 3L, 4L).output("y").ints("t", 2, -1)
                .node("reshape", "Reshape", List.of("x", "t"), List.of("y")), Map.of());
        Plan p = ArenaPlanner.plan(g), q = ArenaPlanner.plan(direct);
        assertThat(p.arenaBytes()).isEqualTo(q.arenaBytes()).isEqualTo(256);   // the caller's input, aligned; y is its view
        assertThat(g.tensors().keySet()).isEqualTo(direct.tensors().keySet());
        for (String t : List.of("s", "n", "n1", "target")) assertThat(g.tensors()).doesNotContainKey(t);
    }

    @Test
    void eachDimValueOfASweepFoldsItsOwnShape() {
        for (long n : new long[]{1, 3, 8}) {
            Graph g = load(flattenChain("batch"), Map.of("batch", n));
            assertThat(g.tensor("y").shape()).containsExactly(n, 12);
            assertThat(kinds(g)).containsExactly(OpKinds.RESHAPE);
        }
    }

    @Test
    void constantArithmeticRunsTheSimulatorKernelsAtImport() {
        // Where(Equal(Range(0, 4, 1), 2), Range * 10, -1) on int64: all constant, so one weight
        TinyOnnx m = new TinyOnnx().input("x", 4L).output(OnnxDTypes.INT64, "y", 4L)
                .node("a", "Constant", List.of(), List.of("start"), "value", int64s("start", new long[0], 0))
                .node("b", "Constant", List.of(), List.of("limit"), "value", int64s("limit", new long[0], 4))
                .node("c", "Constant", List.of(), List.of("delta"), "value", int64s("delta", new long[0], 1))
                .node("ten", "Constant", List.of(), List.of("t"), "value", int64s("t", new long[0], 10))
                .node("two", "Constant", List.of(), List.of("w"), "value", int64s("w", new long[0], 2))
                .node("neg", "Constant", List.of(), List.of("m"), "value", int64s("m", new long[0], -1))
                .node("range", "Range", List.of("start", "limit", "delta"), List.of("r"))
                .node("mul", "Mul", List.of("r", "t"), List.of("r10"))
                .node("eq", "Equal", List.of("r", "w"), List.of("is2"))
                .node("where", "Where", List.of("is2", "r10", "m"), List.of("y"));
        Graph g = load(m, Map.of());
        assertThat(kinds(g)).containsExactly(OpKinds.COPY);                    // the constant graph output copied out
        assertThat(run(g, Map.of("x", TensorValue.ofFloats(new long[]{4}, 0, 0, 0, 0))).get("y").longs()).containsExactly(-1, -1, 20, -1);
    }

    @Test
    void foldingStopsAtTheSizeLimit() {
        int big = (int) ImportFolding.MAX_ELEMENTS + 1;
        TinyOnnx m = new TinyOnnx().input("x", 1L).output("y")
                .floats("a", 1f, big).floats("b", 2f, big)
                .node("add", "Add", List.of("a", "b"), List.of("y"));
        assertThat(kinds(load(m, Map.of()))).containsExactly(OpKinds.ADD);
        TinyOnnx small = new TinyOnnx().input("x", 1L).output("y")
                .floats("a", 1f, big - 1).floats("b", 2f, big - 1)
                .node("add", "Add", List.of("a", "b"), List.of("y"));
        Graph g = load(small, Map.of());
        assertThat(kinds(g)).containsExactly(OpKinds.COPY);
        assertThat(g.weightFill("y#constant")).isEqualTo(3.0);                // all equal: stored as a fill
    }

    @Test
    void shapeStartAndEndFromOpset15() {
        TinyOnnx m = new TinyOnnx().opset(15).input("x", 2L, 3L, 5L, 7L).output(OnnxDTypes.INT64, "y", 2L)
                .node("s", "Shape", List.of("x"), List.of("y"), "start", 1L, "end", -1L);
        Graph g = load(m, Map.of());
        TensorValue x = TensorValue.ofFloats(new long[]{2, 3, 5, 7}, new float[210]);
        assertThat(run(g, Map.of("x", x)).get("y").longs()).containsExactly(3, 5);
        TinyOnnx old = new TinyOnnx().opset(13).input("x", 2L).output("y")
                .node("s", "Shape", List.of("x"), List.of("y"), "start", 1L);
        assertThatThrownBy(() -> load(old, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining("node 's' (Shape").hasMessageContaining("need opset 15");
    }

    @Test
    void dataDependentShapesAreRefusedWithTheNodeNamed() {
        // a data-dependent output (planned at its bound: DataDependentOpsTest) that an op reads, whose kind does not carry it (BoundedReadersTest)
        TinyOnnx unique = new TinyOnnx().input("x", 4L).output("z").scalar("ax", 0).node("u", "Unique", List.of("x"), List.of("y")).node("r", "CumSum", List.of("y", "ax"), List.of("z"));
        assertThatThrownBy(() -> load(unique, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("op 'r' (CumSum, position 1) reads 'y', a data-dependent output of op 'u' (Unique), whose shape is known only after its kernel runs");
        TinyOnnx slice = new TinyOnnx().input("x", 4L).input(OnnxDTypes.INT64, "s", 1L).output("y").ints("e", 4)
                .node("sl", "Slice", List.of("x", "s", "e"), List.of("y"));
        assertThatThrownBy(() -> load(slice, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'sl' (Slice").hasMessageContaining("starts (input #1 's') must be a constant known at import time")
                .hasMessageNotContaining("\n");
        TinyOnnx range = new TinyOnnx().input(OnnxDTypes.INT64, "n").output("y").ints("z", 0).ints("one", 1)
                .node("r", "Range", List.of("z", "n", "one"), List.of("y"));
        assertThatThrownBy(() -> load(range, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'r' (Range").hasMessageContaining("a Range's length depends on its value");
    }

    @Test
    void aShapeInputGivenAtImportSpecialisesTheGraph() {
        TinyOnnx slice = new TinyOnnx().input("x", 6L).input(OnnxDTypes.INT64, "s", 1L).output("y").ints("e", 5)
                .node("sl", "Slice", List.of("x", "s", "e"), List.of("y"));
        TensorValue s = TensorValue.ofLongs(DType.I64, new long[]{1}, 2);
        Graph g = OnnxImporter.convert(OnnxProtos.read(slice.bytes(), "tiny.onnx"), "tiny.onnx", OnnxImporter.Options.DEFAULT.withInputValues(Map.of("s", s)));
        assertThat(g.tensor("y").shape()).containsExactly(3);
        TensorValue x = TensorValue.ofFloats(new long[]{6}, 0, 1, 2, 3, 4, 5);
        assertThat(run(g, Map.of("x", x, "s", s)).get("y").floats()).containsExactly(2, 3, 4);
    }

    @Test
    void aShapeOperandComputedFromAGivenInputIsKnownAtImportWhileItsOpsStillRun() {
        // y = Range(0, n + 1, 1), n a graph input: the Add runs at run time, and its value at import sizes y
        TinyOnnx m = new TinyOnnx().input(OnnxDTypes.INT64, "n").outputOfType(OnnxDTypes.INT64, "y").outputOfType(OnnxDTypes.INT64, "m")
                .node("z", "Constant", List.of(), List.of("zero"), "value", int64s("zero", new long[0], 0))
                .node("o", "Constant", List.of(), List.of("one"), "value", int64s("one", new long[0], 1))
                .node("add", "Add", List.of("n", "one"), List.of("m"))
                .node("range", "Range", List.of("zero", "m", "one"), List.of("y"));
        TensorValue n = TensorValue.ofLongs(DType.I64, new long[0], 3);
        Graph g = OnnxImporter.convert(OnnxProtos.read(m.bytes(), "tiny.onnx"), "tiny.onnx", OnnxImporter.Options.DEFAULT.withInputValues(Map.of("n", n)));
        assertThat(g.tensor("y").shape()).containsExactly(4);
        assertThat(kinds(g)).contains(OpKinds.ADD);
        Map<String, TensorValue> out = run(g, Map.of("n", n));
        assertThat(out.get("y").longs()).containsExactly(0, 1, 2, 3);
        assertThat(out.get("m").longs()).containsExactly(4);
        assertThatThrownBy(() -> load(m, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining("node 'range' (Range");
    }

    @Test
    void reshapeZeroCopiesUnlessAllowzeroAndSqueezeWithoutAxesDropsEveryOne() {
        TinyOnnx copy = new TinyOnnx().opset(14).input("x", 2L, 3L, 4L).output("y").ints("s", 0, -1)
                .node("r", "Reshape", List.of("x", "s"), List.of("y"));
        assertThat(load(copy, Map.of()).tensor("y").shape()).containsExactly(2, 12);
        TinyOnnx allow = new TinyOnnx().opset(14).input("x", 2L, 3L, 4L).output("y").ints("s", 0, -1)
                .node("r", "Reshape", List.of("x", "s"), List.of("y"), "allowzero", 1L);
        assertThatThrownBy(() -> load(allow, Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining("node 'r' (Reshape")
                .hasMessageContaining("shape [0, -1] has invalid extent 0");         // 0 is an extent with allowzero: 24 elements cannot fit
        TinyOnnx squeeze = new TinyOnnx().opset(13).input("x", 1L, 3L, 1L, 2L).output("y")
                .node("q", "Squeeze", List.of("x"), List.of("y"));
        assertThat(load(squeeze, Map.of()).tensor("y").shape()).containsExactly(3, 2);
        TinyOnnx unsq = new TinyOnnx().opset(13).input("x", 3L, 2L).output("y").ints("a", -1, 0)
                .node("u", "Unsqueeze", List.of("x", "a"), List.of("y"));
        assertThat(load(unsq, Map.of()).tensor("y").shape()).containsExactly(1, 3, 2, 1);
    }

    @Test
    void aLeadingRowSliceIsAViewAndAStridedSliceACopy() {
        TinyOnnx rows = new TinyOnnx().input("x", 4L, 3L).output("y").output("z").ints("s", 1).ints("e", 3).ints("a", 0)
                .ints("s2", -1).ints("e2", -100).ints("a2", 1).ints("st2", -2)
                .node("rows", "Slice", List.of("x", "s", "e", "a"), List.of("y"))
                .node("cols", "Slice", List.of("x", "s2", "e2", "a2", "st2"), List.of("z"));
        Graph g = load(rows, Map.of());
        Op view = ShapeInferenceTest.op(g, "rows");
        assertThat(view.views()).containsExactly(new Op.View(0, 0, 12));      // row 1 of 3 floats: byte 12
        assertThat(ShapeInferenceTest.op(g, "cols").views()).isEmpty();
        TensorValue x = TensorValue.ofFloats(new long[]{4, 3}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        Map<String, TensorValue> out = run(g, Map.of("x", x));
        assertThat(out.get("y").floats()).containsExactly(3, 4, 5, 6, 7, 8);
        assertThat(out.get("z").floats()).containsExactly(2, 0, 5, 3, 8, 6, 11, 9);   // columns 2 and 0, step -2
    }

    /**
     * breaker17: a Slice of one row along axis 0 with a negative step is a view of that row, whose
     * start ONNX clamps to [0, dim - 1] for a negative step (Slice-13: "clamped to [0, dims[axes[i]]-1]
     * for negative stepping"); the view was placed one row past its base and the model refused.
     */
    @Test
    void aOneRowSliceWithANegativeStepIsAViewOfTheLastRow() {
        TinyOnnx m = new TinyOnnx().input("x", 5L, 2L).output("y", 1L, 2L)
                .ints("s", Long.MAX_VALUE).ints("e", 3).ints("a", 0).ints("st", Long.MIN_VALUE)
                .node("sl", "Slice", List.of("x", "s", "e", "a", "st"), List.of("y"));
        Graph g = load(m, Map.of());
        assertThat(ShapeInferenceTest.op(g, "sl").views()).containsExactly(new Op.View(0, 0, 32));   // row 4 of 2 floats
        TensorValue x = TensorValue.ofFloats(new long[]{5, 2}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(run(g, Map.of("x", x)).get("y").floats()).containsExactly(8, 9);
    }

    /**
     * breaker17: int64 values past 2^53 went through doubles at import and came out rounded: a
     * scalar Constant (a one-value tensor held as a double fill), ConstantOfShape's value, and
     * Range, whose length and elements were computed in doubles (Range(2^53+1, 2^53+4, 1) gave 4
     * elements; Range(2^63-1, -2^63, -2^63) gave [2^63-1, 0]). onnx's reference evaluator (numpy)
     * gives [2^53+1, 2^53+2, 2^53+3] and [2^63-1, -1].
     */
    @Test
    void int64ValuesBeyondTwoToThe53FoldExactly() {
        long b = (1L << 53) + 1;
        OnnxMl.TensorProto one = int64s("v", new long[]{1}, b);
        TinyOnnx m = new TinyOnnx().input(OnnxDTypes.INT64, "x", 1L)
                .output(OnnxDTypes.INT64, "r", 3L).output(OnnxDTypes.INT64, "q", 2L).output(OnnxDTypes.INT64, "e", 0L).output(OnnxDTypes.INT64, "c", 2L).output(OnnxDTypes.INT64, "y", 1L)
                .scalar("s", b).scalar("l", b + 3).scalar("d", 1).scalar("max", Long.MAX_VALUE).scalar("min", Long.MIN_VALUE).ints("two", 2)
                .node("r", "Range", List.of("s", "l", "d"), List.of("r"))
                .node("q", "Range", List.of("max", "min", "min"), List.of("q"))
                .node("e", "Range", List.of("max", "min", "d"), List.of("e"))          // -(2^64 - 1) steps: empty
                .node("c", "ConstantOfShape", List.of("two"), List.of("c"), "value", one)
                .node("k", "Constant", List.of(), List.of("k"), "value", int64s("k", new long[0], b))
                .node("y", "Add", List.of("k", "x"), List.of("y"));
        Map<String, TensorValue> out = run(load(m, Map.of()), Map.of("x", TensorValue.ofLongs(DType.I64, new long[]{1}, 2)));
        assertThat(out.get("r").longs()).containsExactly(b, b + 1, b + 2);
        assertThat(out.get("q").longs()).containsExactly(Long.MAX_VALUE, -1);
        assertThat(out.get("e").longs()).isEmpty();
        assertThat(out.get("c").longs()).containsExactly(b, b);
        assertThat(out.get("y").longs()).containsExactly(b + 2);
    }

    @Test
    void padModesAndCenterCropPad() {
        TensorValue x = TensorValue.ofFloats(new long[]{1, 3}, 1, 2, 3);
        for (String[] c : new String[][]{{"reflect", "3 2 1 2 3 2 1"}, {"edge", "1 1 1 2 3 3 3"}, {"wrap", "2 3 1 2 3 1 2"}, {"constant", "0 0 1 2 3 0 0"}}) {
            TinyOnnx m = new TinyOnnx().opset(19).input("x", 1L, 3L).output("y").ints("p", 0, 2, 0, 2)
                    .node("pad", "Pad", List.of("x", "p"), List.of("y"), "mode", c[0]);
            float[] got = run(load(m, Map.of()), Map.of("x", x)).get("y").floats();
            assertThat(got).as(c[0]).containsExactly(floats(c[1]));
        }
        TinyOnnx crop = new TinyOnnx().opset(18).input("x", 1L, 3L).output("y").ints("shape", 2, 2)
                .node("ccp", "CenterCropPad", List.of("x", "shape"), List.of("y"));
        Graph g = load(crop, Map.of());
        assertThat(g.tensor("y").shape()).containsExactly(2, 2);
        assertThat(run(g, Map.of("x", x)).get("y").floats()).containsExactly(1, 2, 0, 0);   // pad rows at the end, crop the last column
    }

    private static float[] floats(String s) {
        String[] p = s.split(" ");
        float[] f = new float[p.length];
        for (int i = 0; i < p.length; i++) f[i] = Float.parseFloat(p[i]);
        return f;
    }

    @Test
    void matmulPromotesOneDimensionalOperandsAndBroadcastsBatches() {
        TinyOnnx vm = new TinyOnnx().input("v", 3L).input("m", 2L, 3L, 2L).output("y")
                .node("mm", "MatMul", List.of("v", "m"), List.of("y"));
        Graph g = load(vm, Map.of());
        assertThat(g.tensor("y").shape()).containsExactly(2, 2);
        TensorValue v = TensorValue.ofFloats(new long[]{3}, 1, 2, 3);
        TensorValue m = TensorValue.ofFloats(new long[]{2, 3, 2}, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2);
        assertThat(run(g, Map.of("v", v, "m", m)).get("y").floats()).containsExactly(4, 5, 8, 10);
        TinyOnnx dot = new TinyOnnx().input("a", 3L).input("b", 3L).output("y").node("mm", "MatMul", List.of("a", "b"), List.of("y"));
        Graph d = load(dot, Map.of());
        assertThat(d.tensor("y").shape()).isEmpty();
        assertThat(run(d, Map.of("a", v, "b", v)).get("y").floats()).containsExactly(14);
    }

    @Test
    void lstmTinyShapeChainsFold() {
        Path model = OnnxModelsTest.shared("models", "real").resolve("lstm_tiny.onnx");
        Assumptions.assumeTrue(Files.isRegularFile(model), "../shared/models/real/lstm_tiny.onnx is absent; skipping");
        assertThat(OnnxImporter.load(model, Map.of()).ops()).extracting(org.arenaplan.ir.Op::kind).doesNotContain("Shape", "Expand", "Gather");
        // the nodes before the LSTM, their Expand outputs (h0, c0) as graph outputs: every shape chain folds
        OnnxModel m = OnnxProtos.read(model);
        List<OnnxModel.Node> before = new ArrayList<>();
        for (OnnxModel.Node n : m.graph().nodes()) {
            if (n.opType().equals("LSTM")) break;
            before.add(n);
        }
        List<OnnxModel.ValueInfo> outs = List.of(new OnnxModel.ValueInfo("/rnn/Expand_output_0", OnnxDTypes.FLOAT, List.of(), false),
                new OnnxModel.ValueInfo("/rnn/Expand_1_output_0", OnnxDTypes.FLOAT, List.of(), false));
        OnnxModel.Graph g = m.graph();
        OnnxModel cut = new OnnxModel(m.irVersion(), m.opsets(), new OnnxModel.Graph(g.name(), before, g.initializers(), g.inputs(), outs, List.of()));
        Graph imported = OnnxImporter.convert(cut, "lstm_tiny (before the LSTM)", OnnxImporter.Options.DEFAULT);
        assertThat(kinds(imported)).containsExactly(OpKinds.TRANSPOSE, OpKinds.COPY, OpKinds.COPY);
        assertThat(imported.tensor("/rnn/Expand_output_0").shape()).containsExactly(1, 1, 32);
    }
}
