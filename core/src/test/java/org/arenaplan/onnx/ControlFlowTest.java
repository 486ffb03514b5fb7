package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * If, Scan and Loop unrolled at import ({@link ControlFlow}), run on the simulator against values
 * worked by hand from the ONNX operator specs (and ONNX Runtime where it runs the same model); the
 * unrolled nodes are ops of their own in the graph, so the planner sees their tensors; what is
 * data dependent is refused with one line naming the node.
 */
class ControlFlowTest {
    @TempDir
    Path dir;

    private static final TensorValue X = TensorValue.ofFloats(new long[]{3, 2}, 1, 2, 3, 4, 5, 6);

    private Graph imported(TinyOnnx model) throws Exception {
        Path file = dir.resolve("flow.onnx");
        Files.write(file, model.bytes());
        return OnnxImporter.load(file, Map.of());
    }

    private static List<String> opNames(Graph g) {
        return g.ops().stream().map(Op::name).toList();
    }

    /** y = x + x when x has 3 rows (Shape, Gather, Equal folded at import), else -x. */
    private static TinyOnnx ifOnRows(long rows) {
        TinyOnnx then = new TinyOnnx().output("t").node("add", "Add", List.of("x", "x"), List.of("t"));
        TinyOnnx otherwise = new TinyOnnx().output("e").node("neg", "Neg", List.of("x"), List.of("e"));
        return new TinyOnnx().opset(13).input("x", 3L, 2L).scalar("zero", 0).scalar("rows", rows).output("y")
                .node("shape", "Shape", List.of("x"), List.of("s")).node("first", "Gather", List.of("s", "zero"), List.of("d"))
                .node("eq", "Equal", List.of("d", "rows"), List.of("c"))
                .node("if", "If", List.of("c"), List.of("y"), "then_branch", then, "else_branch", otherwise);
    }

    @Test
    void ifWithAConditionFromShapeRunsTheChosenBranchOnly() throws Exception {
        Map<String, TensorValue> y = OnnxOpRuns.run(dir, ifOnRows(3), Map.of("x", X));
        assertThat(y.get("y").floats()).containsExactly(2f, 4f, 6f, 8f, 10f, 12f);
        assertThat(OnnxOpRuns.run(dir, ifOnRows(4), Map.of("x", X)).get("y").floats()).containsExactly(-1f, -2f, -3f, -4f, -5f, -6f);
        List<String> ops = opNames(imported(ifOnRows(3)));
        assertThat(ops).contains("if/then_branch/add").doesNotContain("if/else_branch/neg", "if");
    }

    /** Scan over x's 3 rows in reverse, a running sum as the state, each sum a column of z (scan_output_axes 1). */
    private static TinyOnnx reverseScan() {
        TinyOnnx body = new TinyOnnx().input("sum_in", 2L).input("next", 2L).output("sum_out").output("scan_out")
                .node("add", "Add", List.of("sum_in", "next"), List.of("sum_out")).node("copy", "Identity", List.of("sum_out"), List.of("scan_out"));
        return new TinyOnnx().opset(11).input("s0", 2L).input("x", 3L, 2L).output("s").output("z")
                .node("scan", "Scan", List.of("s0", "x"), List.of("s", "z"), "body", body, "num_scan_inputs", 1L,
                        "scan_input_directions", new long[]{1}, "scan_output_axes", new long[]{1});
    }

    @Test
    void scanInReverseStacksItsSlicesAlongTheOutputAxis() throws Exception {
        // rows taken 2, 1, 0: sums [5, 6], [8, 10], [9, 12]; z[:, i] = sum i
        Map<String, TensorValue> inputs = Map.of("s0", TensorValue.ofFloats(new long[]{2}, 0, 0), "x", X);
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, reverseScan(), inputs);
        assertThat(out.get("s").floats()).containsExactly(9f, 12f);
        assertThat(out.get("z").shape()).containsExactly(2, 3);
        assertThat(out.get("z").floats()).containsExactly(5f, 8f, 9f, 6f, 10f, 12f);
        OnnxOpRuns.agree(dir, reverseScan(), inputs, 0, 0);
        Graph g = imported(reverseScan());
        assertThat(opNames(g)).contains("scan/0/add", "scan/1/add", "scan/2/add", "scan/stack_0/concat");
        assertThat(g.tensors()).containsKeys("scan/0/sum_out", "scan/1/sum_out", "scan/2/next");   // planned like any other tensor
    }

    private static OnnxMl.TensorProto bool(String name, boolean v) {
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.BOOL).addInt32Data(v ? 1 : 0).build();
    }

    /** Loop: y += float(i) for i < M, each y a row of ys; the body's condition is its input (a constant per iteration). */
    private static TinyOnnx loop(boolean tripFromInput, String condOp) {
        TinyOnnx body = new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").input("y_in", 1L)
                .output(OnnxDTypes.BOOL, "c_out").output("y_out").output("scan")
                .node("fi", "Cast", List.of("i"), List.of("f"), "to", (long) OnnxDTypes.FLOAT).node("add", "Add", List.of("y_in", "f"), List.of("y_out"))
                .node("copy", "Identity", List.of("y_out"), List.of("scan"));
        if (condOp.equals("Identity")) body.node("cond", "Identity", List.of("c_in"), List.of("c_out"));
        else body.floats("ten", 10f, 1L).node("cond", condOp, List.of("y_in", "ten"), List.of("c_out_1")).node("squeeze", "Squeeze", List.of("c_out_1"), List.of("c_out"));
        TinyOnnx m = new TinyOnnx().opset(11).input("y0", 1L).initializer(bool("go", true)).output("y").output("ys");
        if (tripFromInput) m.input(OnnxDTypes.INT64, "m");
        else m.scalar("m", 3);
        return m.node("loop", "Loop", List.of("m", "go", "y0"), List.of("y", "ys"), "body", body);
    }

    @Test
    void loopWithAKnownTripCountStacksEachIterationAlongAxisZero() throws Exception {
        // y0 = 1: after i = 0, 1, 2: 1, 2, 4
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, loop(false, "Identity"), Map.of("y0", TensorValue.ofFloats(new long[]{1}, 1)));
        assertThat(out.get("y").floats()).containsExactly(4f);
        assertThat(out.get("ys").shape()).containsExactly(3, 1);
        assertThat(out.get("ys").floats()).containsExactly(1f, 2f, 4f);
        assertThat(opNames(imported(loop(false, "Identity")))).contains("loop/0/add", "loop/2/add").doesNotContain("loop/3/add");
    }

    @Test
    void whatIsDataDependentIsRefusedNamingTheNode() throws Exception {
        TinyOnnx runtimeCond = new TinyOnnx().opset(13).input("x", 3L, 2L).input(OnnxDTypes.BOOL, "c").output("y")
                .node("if", "If", List.of("c"), List.of("y"), "then_branch", new TinyOnnx().output("t").node("n", "Neg", List.of("x"), List.of("t")),
                        "else_branch", new TinyOnnx().output("e").node("a", "Abs", List.of("x"), List.of("e")));
        refused(runtimeCond, "node 'if' (If, #0, opset 13): condition 'c' is computed at run time");
        refused(loop(true, "Identity"), "node 'loop' (Loop, #0, opset 11): trip count 'm' is computed at run time");
        refused(loop(false, "Less"), "node 'loop' (Loop, #0, opset 11): the body's condition 'c_out' is computed at run time (iteration 0)");
    }

    @Test
    void malformedOrUnsupportedBodiesAreRefusedInOneLine() throws Exception {
        TinyOnnx body = new TinyOnnx().input("sum_in", 2L).input("next", 2L).output("sum_out").output("scan_out")
                .node("add", "Add", List.of("sum_in", "next"), List.of("sum_out")).node("odd", "NoSuchOp", List.of("sum_out"), List.of("scan_out"));
        refused(new TinyOnnx().opset(11).input("s0", 2L).input("x", 3L, 2L).output("s").output("z")
                .node("scan", "Scan", List.of("s0", "x"), List.of("s", "z"), "body", body, "num_scan_inputs", 1L), "NoSuchOp (1 node: scan/body/odd)");
        refused(new TinyOnnx().opset(11).input("s0", 2L).input("x", 3L, 2L).output("s").output("z")
                .node("scan", "Scan", List.of("s0", "x"), List.of("s", "z"), "body", reverseScanBody()), "attribute 'num_scan_inputs' is required");
        refused(new TinyOnnx().opset(11).input("s0", 2L).input("x", 3L, 2L).output("s").output("z")
                .node("scan", "Scan", List.of("s0", "x"), List.of("s", "z"), "num_scan_inputs", 1L), "attribute 'body' (a GRAPH) is required");
        refused(new TinyOnnx().opset(11).input("y0", 1L).scalar("m", 5000).initializer(bool("go", true)).output("y").output("ys")
                .node("loop", "Loop", List.of("m", "go", "y0"), List.of("y", "ys"), "body", loopBody()), "runs more than 4096 iterations (trip count 5000)");
    }

    private static TinyOnnx reverseScanBody() {
        return new TinyOnnx().input("sum_in", 2L).input("next", 2L).output("sum_out").output("scan_out")
                .node("add", "Add", List.of("sum_in", "next"), List.of("sum_out")).node("copy", "Identity", List.of("sum_out"), List.of("scan_out"));
    }

    private static TinyOnnx loopBody() {
        return new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").input("y_in", 1L)
                .output(OnnxDTypes.BOOL, "c_out").output("y_out").output("scan")
                .node("cond", "Identity", List.of("c_in"), List.of("c_out")).node("add", "Add", List.of("y_in", "y_in"), List.of("y_out"))
                .node("copy", "Identity", List.of("y_out"), List.of("scan"));
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        OnnxOpRuns.refused(dir, model, message);
    }
}
