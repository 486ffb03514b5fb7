package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model-local functions (ModelProto.functions), as PyTorch's module-as-function and dynamo
 * exports write them: inlined at import, attributes bound by reference or default, nested calls,
 * against values worked by hand and against ONNX Runtime; refusals name the function.
 */
class LocalFunctionsTest {
    @TempDir
    Path dir;

    private static final TinyOnnx.Ref SLOPE = new TinyOnnx.Ref("slope", OnnxMl.AttributeProto.AttributeType.FLOAT);

    /** local.Lin(x, w) = LeakyRelu(MatMul(x, w), alpha = slope); slope defaults to 0.5. */
    private static TinyOnnx lin(TinyOnnx m) {
        return m.function("local", "Lin", List.of("x", "w"), List.of("y"), List.of(),
                new TinyOnnx().opset(18).node("mm", "MatMul", List.of("x", "w"), List.of("t")).node("act", "LeakyRelu", List.of("t"), List.of("y"), "alpha", SLOPE),
                "slope", 0.5);
    }

    @Test
    void callsAreInlinedWithTheirAttributesBoundByReferenceOrDefault() throws Exception {
        TinyOnnx m = lin(new TinyOnnx().opset(18)).input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y")
                .call("local", "first", "Lin", List.of("x", "w"), List.of("h"), "slope", 0.25)
                .call("local", "second", "Lin", List.of("h", "w"), List.of("y"));
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 2}, -1, -3));
        // first: [-4, -4] * 0.25 = [-1, -1]; second (default slope 0.5): [-2, -2] * 0.5 = [-1, -1]
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(-1f, -1f);
        OnnxOpRuns.agree(dir, m, in, 1e-6, 0);
    }

    @Test
    void aFunctionCallingAFunctionIsInlinedTwiceDeep() throws Exception {
        TinyOnnx m = lin(new TinyOnnx().opset(18))
                .function("local", "Twice", List.of("a", "w"), List.of("b"), List.of("slope"),
                        new TinyOnnx().opset(18).call("local", "one", "Lin", List.of("a", "w"), List.of("mid"), "slope", SLOPE)
                                .call("local", "two", "Lin", List.of("mid", "w"), List.of("b"), "slope", SLOPE))
                .input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y").call("local", "outer", "Twice", List.of("x", "w"), List.of("y"), "slope", 0.1);
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 2}, 3, -1));
        // [2, 2] then [4, 4]: no negative value, the slope unused
        assertThat(OnnxOpRuns.run(dir, m, in).get("y").floats()).containsExactly(4f, 4f);
        OnnxOpRuns.agree(dir, m, in, 1e-6, 0);
    }

    @Test
    void refusalsNameTheFunction() throws Exception {
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18)
                        .function("local", "Loop1", List.of("x"), List.of("y"), List.of(), new TinyOnnx().opset(18).call("local", "again", "Loop1", List.of("x"), List.of("y")))
                        .input("x", 2L).output("y").call("local", "c", "Loop1", List.of("x"), List.of("y")),
                "local function 'local.Loop1' calls itself (local.Loop1 -> local.Loop1)");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18)
                        .function("local", "Old", List.of("x"), List.of("y"), List.of(), new TinyOnnx().opset(17).node("r", "Relu", List.of("x"), List.of("y")))
                        .input("x", 2L).output("y").call("local", "c", "Old", List.of("x"), List.of("y")),
                "local function 'local.Old' imports the domain '' at opset 17 but the model imports it at opset 18");
        OnnxOpRuns.refused(dir, lin(new TinyOnnx().opset(18)).input("x", 1L, 2L).output("y").call("local", "c", "Lin", List.of("x", "x", "x"), List.of("y")),
                "node 'c' calls local function 'local.Lin' with 3 inputs and 1 outputs; it declares 2 and 1");
        // breaker12: a body writing one name twice was accepted (the main graph refuses it)
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18)
                        .function("local", "Twice", List.of("x"), List.of("y"), List.of(), new TinyOnnx().opset(18)
                                .node("r", "Relu", List.of("x"), List.of("y")).node("n", "Neg", List.of("x"), List.of("y")))
                        .input("x", 2L).output("y").call("local", "c", "Twice", List.of("x"), List.of("y")),
                "local function 'local.Twice': node 'n' writes 'y', which the function already defines");
        // a call naming an overload no function has was refused as an unsupported op type
        OnnxOpRuns.refused(dir, lin(new TinyOnnx().opset(18)).functionOverload("fast").input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y")
                        .call("local", "c", "Lin", List.of("x", "w"), List.of("y")).overload("slow"),
                "node 'c' calls local function 'local.Lin' with overload 'slow', which the model does not define (its overloads of 'local.Lin': 'fast')");
    }

    /** Each was imported with no wrong output, though the ONNX checker (full_check) refuses it (frontdoor helper). */
    @Test
    void whatTheOnnxCheckerRefusesInAFunctionIsRefusedNamingTheFunctionAndTheField() throws Exception {
        OnnxOpRuns.refused(dir, lin(new TinyOnnx().opset(18)).functionWithoutOpsetImport().input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y")
                        .call("local", "c", "Lin", List.of("x", "w"), List.of("y")),
                "local function 'local.Lin': node 'mm' (MatMul) uses the default domain '', which the function's opset_import does not import");
        OnnxOpRuns.refused(dir, lin(new TinyOnnx().opset(18)).notImported("local").input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y")
                        .call("local", "c", "Lin", List.of("x", "w"), List.of("y")),
                "node 'c' (local.Lin) uses the domain 'local', which the model's opset_import does not import");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18)
                        .function("local", "Pair", List.of("a", "a"), List.of("y"), List.of(), new TinyOnnx().opset(18).node("r", "Relu", List.of("a"), List.of("y")))
                        .input("x", 2L).output("y").call("local", "c", "Pair", List.of("x", "x"), List.of("y")),
                "local function 'local.Pair' declares the input 'a' twice (its input field");
        OnnxOpRuns.refused(dir, new TinyOnnx().opset(18)
                        .function("local", "Two", List.of("a"), List.of("y", "y"), List.of(), new TinyOnnx().opset(18).node("r", "Relu", List.of("a"), List.of("y")))
                        .input("x", 2L).output("y").call("local", "c", "Two", List.of("x"), List.of("y")),
                "local function 'local.Two' declares the output 'y' twice (its output field");
        // a body calling another local function imports that function's domain too
        OnnxOpRuns.refused(dir, lin(new TinyOnnx().opset(18))
                        .function("local", "Outer", List.of("a", "w"), List.of("b"), List.of(), new TinyOnnx().opset(18).call("local", "in", "Lin", List.of("a", "w"), List.of("b")))
                        .functionWithoutOpsetImport()
                        .input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y").call("local", "c", "Outer", List.of("x", "w"), List.of("y")),
                "local function 'local.Outer': node 'in' (local.Lin) uses the domain 'local', which the function's opset_import does not import");
        // a node of an If body inside a function uses the function's opset_import too (it was inlined and run)
        OnnxOpRuns.refused(dir, maybeTwice(lin(new TinyOnnx().opset(18)), false), "local function 'local.Maybe': node 'if' attribute 'then_branch': "
                + "node 'again' (local.Lin) uses the domain 'local', which the function's opset_import does not import");
    }

    /**
     * local.Maybe(a, w) = If(true, then: Lin(t, w), else: t) with t = Lin(a, w) when {@code importsLocal}, else t = a
     * (and the function imports only the default domain, which its If node uses).
     */
    private static TinyOnnx maybeTwice(TinyOnnx m, boolean importsLocal) {
        TinyOnnx body = new TinyOnnx().opset(18);
        if (importsLocal) body.call("local", "once", "Lin", List.of("a", "w"), List.of("t"));
        else body.node("once", "Identity", List.of("a"), List.of("t"));
        body.node("c", "Constant", List.of(), List.of("cond"), "value", OnnxMl.TensorProto.newBuilder().setName("v").setDataType(OnnxDTypes.BOOL).addInt32Data(1).build())
                .node("if", "If", List.of("cond"), List.of("b"),
                        "then_branch", new TinyOnnx().opset(18).call("local", "again", "Lin", List.of("t", "w"), List.of("u")).output("u"),
                        "else_branch", new TinyOnnx().opset(18).node("id", "Identity", List.of("t"), List.of("e")).output("e"));
        return m.function("local", "Maybe", List.of("a", "w"), List.of("b"), List.of(), body)
                .input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y").call("local", "m", "Maybe", List.of("x", "w"), List.of("y"));
    }

    @Test
    void aCallInsideAnIfBodyOfAFunctionIsInlinedWhenTheFunctionImportsItsDomain() throws Exception {
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 2}, 1, 2));
        // Lin([1, 2]) = [3, 3]; then Lin([3, 3]) = [6, 6]
        assertThat(OnnxOpRuns.run(dir, maybeTwice(lin(new TinyOnnx().opset(18)), true), in).get("y").floats()).containsExactly(6f, 6f);
    }

    @Test
    void anOverloadSelectsItsFunction() throws Exception {
        TinyOnnx m = lin(new TinyOnnx().opset(18)).functionOverload("leaky")
                .function("local", "Lin", List.of("x", "w"), List.of("y"), List.of(),
                        new TinyOnnx().opset(18).node("mm", "MatMul", List.of("x", "w"), List.of("t")).node("act", "Relu", List.of("t"), List.of("y")))
                .input("x", 1L, 2L).floats("w", 1f, 2L, 2L).output("y").output("z")
                .call("local", "a", "Lin", List.of("x", "w"), List.of("y")).overload("leaky")
                .call("local", "b", "Lin", List.of("x", "w"), List.of("z"));
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{1, 2}, -1, -3));
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, m, in);
        assertThat(out.get("y").floats()).containsExactly(-2f, -2f);   // [-4, -4] * slope 0.5
        assertThat(out.get("z").floats()).containsExactly(0f, 0f);     // Relu
    }

    /** F0 = Relu; Fk calls F(k-1) {@code calls} times in a row; the graph calls F(depth-1) once. */
    private static TinyOnnx nested(int depth, int calls) {
        TinyOnnx m = new TinyOnnx().opset(18)
                .function("local", "F0", List.of("a"), List.of("c"), List.of(), new TinyOnnx().opset(18).node("r", "Relu", List.of("a"), List.of("c")));
        for (int d = 1; d < depth; d++) {
            TinyOnnx body = new TinyOnnx().opset(18);
            for (int k = 0; k < calls; k++)
                body.call("local", "c" + k, "F" + (d - 1), List.of(k == 0 ? "a" : "t" + (k - 1)), List.of(k == calls - 1 ? "c" : "t" + k));
            m.function("local", "F" + d, List.of("a"), List.of("c"), List.of(), body);
        }
        return m.input("x", 2L).output("y").call("local", "top", "F" + (depth - 1), List.of("x"), List.of("y"));
    }

    @Test
    void deepOrExplodingCallsAreRefusedForWhatTheyAre() throws Exception {
        // breaker13: 70 functions each calling the next were refused as "'local.F5' calls itself" (none does)
        OnnxOpRuns.refused(dir, nested(70, 1),
                "calls of local functions nest more than 64 deep (local.F69 -> local.F68 -> ... -> local.F7 -> local.F6 -> local.F5); arenaplan inlines at most 64 levels");
        Map<String, TensorValue> in = TransformerOpsTest.feed("x", TensorValue.ofFloats(new long[]{2}, -1, 3));
        assertThat(OnnxOpRuns.run(dir, nested(60, 1), in).get("y").floats()).containsExactly(0f, 3f);
        // breaker13: each function calling the one below twice, 24 deep, is 2^23 Relus: the import filled the heap for minutes
        OnnxOpRuns.refused(dir, nested(24, 2), "inlining local functions reaches more than 1000000 nodes (in local.F23 -> local.F22 -> ... -> local.F1 -> local.F0); arenaplan stops there");
    }
}
