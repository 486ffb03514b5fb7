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

    /** Scan-8 (opset 8): a running sum over x [2, 3, 2], batch on axis 0, sequence on axis 1; {@code lens} null for no sequence_lens. */
    private static TinyOnnx scanEight(long direction, long[] lens, Object... extra) {
        TinyOnnx m = new TinyOnnx().opset(8).input("s0", 2L, 2L).input("x", 2L, 3L, 2L).output("s").output("z");
        if (lens != null) m.ints("lens", lens);
        Object[] attrs = {"body", reverseScanBody(), "num_scan_inputs", 1L, "directions", new long[]{direction}};
        Object[] all = java.util.Arrays.copyOf(attrs, attrs.length + extra.length);
        System.arraycopy(extra, 0, all, attrs.length, extra.length);
        return m.node("scan", "Scan", List.of(lens == null ? "" : "lens", "s0", "x"), List.of("s", "z"), all);
    }

    private static final Map<String, TensorValue> SCAN_EIGHT_INPUTS = Map.of(
            "s0", TensorValue.ofFloats(new long[]{2, 2}, 0, 0, 100, 100),
            "x", TensorValue.ofFloats(new long[]{2, 3, 2}, 1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60));

    @Test
    void scanEightRunsEachBatchEntryAsAScanOfItsOwn() throws Exception {
        // entry 0 from its last row: [5, 6], [8, 10], [9, 12]; entry 1 from [100, 100]: [150, 160], [180, 200], [190, 220]
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, scanEight(1, null), SCAN_EIGHT_INPUTS);
        assertThat(out.get("s").shape()).containsExactly(2, 2);
        assertThat(out.get("s").floats()).containsExactly(9f, 12f, 190f, 220f);
        assertThat(out.get("z").shape()).containsExactly(2, 3, 2);
        assertThat(out.get("z").floats()).containsExactly(5f, 6f, 8f, 10f, 9f, 12f, 150f, 160f, 180f, 200f, 190f, 220f);
        OnnxOpRuns.agree(dir, scanEight(1, null), SCAN_EIGHT_INPUTS, 0, 0);
        assertThat(opNames(imported(scanEight(1, null)))).contains("scan/batch_0/2/add", "scan/batch_1/0/add");
    }

    @Test
    void scanEightWithShorterSequencesStopsTheirStateAndPadsTheirOutputsWithZeros() throws Exception {
        // entry 1 takes one step: state [110, 120], then two rows of zeros
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, scanEight(0, new long[]{3, 1}), SCAN_EIGHT_INPUTS);
        assertThat(out.get("s").floats()).containsExactly(9f, 12f, 110f, 120f);
        assertThat(out.get("z").floats()).containsExactly(1f, 2f, 4f, 6f, 9f, 12f, 110f, 120f, 0f, 0f, 0f, 0f);
        OnnxOpRuns.agree(dir, scanEight(0, new long[]{3, 1}), SCAN_EIGHT_INPUTS, 0, 0);
    }

    @Test
    void scanEightAndScanNineKeepTheirOwnAttributes() throws Exception {
        refused(scanEight(0, new long[]{3, 4}), "node 'scan' (Scan, #0, opset 8): sequence_lens[1] is 4, not in 0..3 (the scan inputs' sequence)");
        refused(scanEight(0, null, "scan_input_axes", new long[]{1}), "attribute 'scan_input_axes' is Scan-9's; Scan-8 (opset 8) scans axis 1");
        TinyOnnx runtimeLens = new TinyOnnx().opset(8).input("s0", 2L, 2L).input("x", 2L, 3L, 2L).input(OnnxDTypes.INT64, "lens", 2L).output("s").output("z")
                .node("scan", "Scan", List.of("lens", "s0", "x"), List.of("s", "z"), "body", reverseScanBody(), "num_scan_inputs", 1L);
        refused(runtimeLens, "sequence_lens 'lens' is computed at run time");
        refused(new TinyOnnx().opset(11).input("s0", 2L).input("x", 3L, 2L).output("s").output("z")
                .node("scan", "Scan", List.of("s0", "x"), List.of("s", "z"), "body", reverseScanBody(), "num_scan_inputs", 1L, "directions", new long[]{1}),
                "attribute 'directions' is Scan-8's (opset 8)");
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

    /**
     * breakonnx: a branch that wrote 'x', a name of the graph around it, imported, the branch's later
     * readers taking the inner value; ONNX IR is static single assignment across nested graphs, and
     * onnx's checker ("Graph must be in single static assignment (SSA) form") and ONNX Runtime 1.30
     * ("the graph is not acyclic") refuse such a model.
     */
    @Test
    void aBodyThatRedefinesAnOuterNameIsRefused() throws Exception {
        TinyOnnx shadow = new TinyOnnx().opset(13).input("x", 3L, 2L).scalar("zero", 0).output("y")
                .node("eq", "Equal", List.of("zero", "zero"), List.of("c"))
                .node("if", "If", List.of("c"), List.of("y"),
                        "then_branch", new TinyOnnx().output("x").node("r", "Relu", List.of("x"), List.of("x2")).node("n", "Neg", List.of("x2"), List.of("x")),
                        "else_branch", new TinyOnnx().output("e").node("a", "Abs", List.of("x"), List.of("e")));
        refused(shadow, "node 'if/then_branch/n' (Neg, #1, opset 13): writes 'x', which an enclosing graph already defines (ONNX IR: a name is assigned once,"
                + " also across a graph and the bodies nested in it)");
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

    /**
     * A Loop over the count of x[m], {@code Shape(x[m])[0]} (torchvision's mask pasting over {@code masks.shape[0]}
     * detections): the Shape is evaluated at import from the upper bound, so the trip count would be the bound's (6 where
     * ONNX Runtime runs 3 of 6 selected: y 6, not 3, with exit 0); refused naming the Loop. Before, the run gave the
     * bound's sum silently.
     */
    @Test
    void aTripCountReadFromAnUpperBoundIsRefused() throws Exception {
        TinyOnnx body = new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").input("acc_in", 1L)
                .output(OnnxDTypes.BOOL, "c_out").output("acc_out", 1L)
                .node("add", "Add", List.of("acc_in", "one"), List.of("acc_out")).node("keep", "Identity", List.of("c_in"), List.of("c_out"));
        TinyOnnx count = new TinyOnnx().opset(17).input("x", 6L).input(OnnxDTypes.BOOL, "m", 6L).scalar("zero", 0).floats("init", 0f, 1L).floats("one", 1f, 1L)
                .select("", "x", "m", "sel")
                .node("shape", "Shape", List.of("sel"), List.of("s")).node("n", "Gather", List.of("s", "zero"), List.of("n"), "axis", 0L)
                .node("loop", "Loop", List.of("n", "", "init"), List.of("y"), "body", body).output("y", 1L);
        refused(count, "its axis 0 of 'sel' is the bounded one, and node 'loop' (Loop, its trip count) reads the value as a constant");
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

    @Test
    void aNestOfLoopsPastTheNodeBoundIsRefusedBeforeItIsUnrolled() throws Exception {
        // 4096 x 4096 runs of a 2-node body: 33.5 M nodes. Without the forecast the unrolling met the bound after a million nodes (minutes, gigabytes)
        TinyOnnx inner = new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").input("v_in", 2L, 3L)
                .output(OnnxDTypes.BOOL, "c_out").output("v_out")
                .node("cond", "Identity", List.of("c_in"), List.of("c_out")).node("add", "Add", List.of("v_in", "v_in"), List.of("v_out"));
        TinyOnnx outer = new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").input("v_in", 2L, 3L)
                .output(OnnxDTypes.BOOL, "c_out").output("v_out").scalar("m2", 4096)
                .node("cond", "Identity", List.of("c_in"), List.of("c_out")).node("inner", "Loop", List.of("m2", "c_in", "v_in"), List.of("v_out"), "body", inner);
        TinyOnnx nest = new TinyOnnx().opset(17).input("x", 2L, 3L).scalar("m", 4096).initializer(bool("go", true)).output("y")
                .node("outer", "Loop", List.of("m", "go", "x"), List.of("y"), "body", outer);
        refused(nest, "node 'outer' (Loop, #0, opset 17): unrolling would make at least 33,558,528 nodes (4096 runs of a body of at least 8193)");
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
