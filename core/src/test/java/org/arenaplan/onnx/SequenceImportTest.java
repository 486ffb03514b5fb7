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
 * Sequence and optional ops resolved at import into plain tensor ops ({@link Sequences}, and
 * SequenceMap unrolled by {@link ControlFlow}): values worked by hand from the sections of
 * onnx/docs/Operators.md, and against ONNX Runtime where it runs the same model; what is not
 * known at import, and a sequence at a graph output, refused in one line naming the node or output.
 */
class SequenceImportTest {
    @TempDir
    Path dir;

    private static final TensorValue X = TensorValue.ofFloats(new long[]{3, 2}, 1, 2, 3, 4, 5, 6);

    private static OnnxMl.TensorProto bool(String name, boolean v) {
        return OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.BOOL).addInt32Data(v ? 1 : 0).build();
    }

    /** x [3, 2] split into its rows (no split, keepdims 0: each [2]); the row at {@code position}, and the sequence's length. */
    private static TinyOnnx rowAt(long position) {
        return new TinyOnnx().opset(17).input("x", 3L, 2L).scalar("p", position).output("row", 2L).output(OnnxDTypes.INT64, "n")
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"), "keepdims", 0L)
                .node("at", "SequenceAt", List.of("rows", "p"), List.of("row"))
                .node("len", "SequenceLength", List.of("rows"), List.of("n"));
    }

    @Test
    void splitToSequenceWithoutSplitGivesEachRowAndANegativePositionCountsFromTheBack() throws Exception {
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, rowAt(-1), Map.of("x", X));
        assertThat(out.get("row").floats()).containsExactly(5f, 6f);
        assertThat(out.get("n").longs()).containsExactly(3L);
        assertThat(OnnxOpRuns.run(dir, rowAt(1), Map.of("x", X)).get("row").floats()).containsExactly(3f, 4f);
        OnnxOpRuns.agree(dir, rowAt(-3), Map.of("x", X), 0, 0);
        Graph g = imported(rowAt(-1));
        assertThat(g.ops().stream().map(Op::name).toList()).contains("split/0/slice", "split/2/slice", "split/2/reshape", "at");
    }

    /** x [2, 5] in chunks of a scalar split 2 along axis -1 (the last one 1 wide), the first erased, the rest concatenated; and a 1-D split [1, 4]. */
    private static TinyOnnx chunks() {
        return new TinyOnnx().opset(17).input("x", 2L, 5L).scalar("two", 2).ints("parts", 1, 4).scalar("one", 1).output("tail", 2L, 3L).output("wide", 2L, 4L)
                .node("split", "SplitToSequence", List.of("x", "two"), List.of("chunks"), "axis", -1L)
                .node("erase", "SequenceErase", List.of("chunks", "zero_pos"), List.of("rest"))
                .node("cat", "ConcatFromSequence", List.of("rest"), List.of("tail"), "axis", -1L)
                .node("split2", "SplitToSequence", List.of("x", "parts"), List.of("two_parts"), "axis", 1L, "keepdims", 0L)
                .node("at", "SequenceAt", List.of("two_parts", "one"), List.of("wide"))
                .scalar("zero_pos", 0);
    }

    @Test
    void aScalarSplitLeavesTheLastChunkSmallerAndAOneDimensionalSplitGivesItsLengths() throws Exception {
        TensorValue x = TensorValue.ofFloats(new long[]{2, 5}, 0, 1, 2, 3, 4, 10, 11, 12, 13, 14);
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, chunks(), Map.of("x", x));
        // chunks [0 1], [2 3], [4]: erase position 0, concatenate along -1: columns 2..4
        assertThat(out.get("tail").floats()).containsExactly(2f, 3f, 4f, 12f, 13f, 14f);
        // split [1, 4] ignores keepdims (Operators.md, SplitToSequence): the second part keeps its axis
        assertThat(out.get("wide").shape()).containsExactly(2, 4);
        assertThat(out.get("wide").floats()).containsExactly(1f, 2f, 3f, 4f, 11f, 12f, 13f, 14f);
        OnnxOpRuns.agree(dir, chunks(), Map.of("x", x), 0, 0);
    }

    /** [a, b], c inserted at -1 (before the last: [a, c, b]), the last erased ([a, c]), stacked on a new last axis. */
    private static TinyOnnx insertEraseStack() {
        return new TinyOnnx().opset(17).input("a", 2L).input("b", 2L).input("c", 2L).scalar("back", -1).output("y", 2L, 2L)
                .node("make", "SequenceConstruct", List.of("a", "b"), List.of("ab"))
                .node("insert", "SequenceInsert", List.of("ab", "c", "back"), List.of("acb"))
                .node("erase", "SequenceErase", List.of("acb"), List.of("ac"))
                .node("stack", "ConcatFromSequence", List.of("ac"), List.of("y"), "axis", -1L, "new_axis", 1L);
    }

    @Test
    void insertAtANegativePositionEraseTheLastAndStackOnANewAxis() throws Exception {
        Map<String, TensorValue> in = Map.of("a", TensorValue.ofFloats(new long[]{2}, 1, 2), "b", TensorValue.ofFloats(new long[]{2}, 3, 4),
                "c", TensorValue.ofFloats(new long[]{2}, 5, 6));
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, insertEraseStack(), in);
        assertThat(out.get("y").floats()).containsExactly(1f, 5f, 2f, 6f);
        OnnxOpRuns.agree(dir, insertEraseStack(), in, 0, 0);
    }

    /** [a, b], c inserted at a position given as the 1-element 1-D tensor {@code pos} (as in test_sequence_insert_at_front), stacked on axis 0. */
    private static TinyOnnx insertAtOneElementPosition(long... pos) {
        return new TinyOnnx().opset(17).input("a", 2L).input("b", 2L).input("c", 2L).ints("pos", pos).output("y", 3L, 2L)
                .node("make", "SequenceConstruct", List.of("a", "b"), List.of("ab"))
                .node("insert", "SequenceInsert", List.of("ab", "c", "pos"), List.of("cab"))
                .node("stack", "ConcatFromSequence", List.of("cab"), List.of("y"), "axis", 0L, "new_axis", 1L);
    }

    @Test
    void sequenceInsertTakesAOneElementPositionTensorAndRefusesALongerOne() throws Exception {
        Map<String, TensorValue> in = Map.of("a", TensorValue.ofFloats(new long[]{2}, 1, 2), "b", TensorValue.ofFloats(new long[]{2}, 3, 4),
                "c", TensorValue.ofFloats(new long[]{2}, 5, 6));
        assertThat(OnnxOpRuns.run(dir, insertAtOneElementPosition(0), in).get("y").floats()).containsExactly(5f, 6f, 1f, 2f, 3f, 4f);
        assertThat(OnnxOpRuns.run(dir, insertAtOneElementPosition(-1), in).get("y").floats()).containsExactly(1f, 2f, 5f, 6f, 3f, 4f);
        OnnxOpRuns.agree(dir, insertAtOneElementPosition(0), in, 0, 0);
        refused(insertAtOneElementPosition(0, 1),
                "node 'insert' (SequenceInsert, #1, opset 17): position pos[2] is not an int32 or int64 scalar or 1-element tensor");
    }

    /** A Loop of 3 iterations appending float(i) as a [1] tensor to a loop-carried sequence that starts empty; the sequence concatenated after it. */
    private static TinyOnnx loopAppends() {
        TinyOnnx body = new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").sequenceInput(OnnxDTypes.FLOAT, "s_in")
                .output(OnnxDTypes.BOOL, "c_out").sequenceOutput(OnnxDTypes.FLOAT, "s_out").ints("shape", 1)
                .node("cond", "Identity", List.of("c_in"), List.of("c_out"))
                .node("f", "Cast", List.of("i"), List.of("fi"), "to", (long) OnnxDTypes.FLOAT)
                .node("r", "Reshape", List.of("fi", "shape"), List.of("fi1"))
                .node("append", "SequenceInsert", List.of("s_in", "fi1"), List.of("s_out"));
        return new TinyOnnx().opset(17).input("x", 3L).scalar("m", 3).initializer(bool("go", true)).output("y", 3L)
                .node("empty", "SequenceEmpty", List.of(), List.of("s0"))
                .node("loop", "Loop", List.of("m", "go", "s0"), List.of("s"), "body", body)
                .node("cat", "ConcatFromSequence", List.of("s"), List.of("all"), "axis", 0L)
                .node("add", "Add", List.of("all", "x"), List.of("y"));
    }

    @Test
    void aLoopCarriedSequenceGrowsOncePerIteration() throws Exception {
        Map<String, TensorValue> in = Map.of("x", TensorValue.ofFloats(new long[]{3}, 10, 20, 30));
        assertThat(OnnxOpRuns.run(dir, loopAppends(), in).get("y").floats()).containsExactly(10f, 21f, 32f);
        OnnxOpRuns.agree(dir, loopAppends(), in, 0, 0);
    }

    /**
     * Loop-16 carrying an optional (as test_loop16_seq_none): the body input is declared an optional, the
     * body returns the sequence itself, so from the second iteration on the carried sequence is wrapped
     * into a present optional again, which OptionalGetElement-15 takes.
     */
    @Test
    void aLoopCarriedOptionalIsAnOptionalInEveryIteration() throws Exception {
        TinyOnnx body = new TinyOnnx().input(OnnxDTypes.INT64, "i").input(OnnxDTypes.BOOL, "c_in").optionalInput(OnnxDTypes.FLOAT, "o_in")
                .output(OnnxDTypes.BOOL, "c_out").sequenceOutput(OnnxDTypes.FLOAT, "s_out").ints("shape", 1)
                .node("cond", "Identity", List.of("c_in"), List.of("c_out"))
                .node("get", "OptionalGetElement", List.of("o_in"), List.of("s_in"))
                .node("f", "Cast", List.of("i"), List.of("fi"), "to", (long) OnnxDTypes.FLOAT)
                .node("r", "Reshape", List.of("fi", "shape"), List.of("fi1"))
                .node("append", "SequenceInsert", List.of("s_in", "fi1"), List.of("s_out"));
        TinyOnnx m = new TinyOnnx().opset(16).input("x", 3L).scalar("m", 3).initializer(bool("go", true)).output("y", 3L)
                .node("empty", "SequenceEmpty", List.of(), List.of("s0"))
                .node("opt", "Optional", List.of("s0"), List.of("o0"))
                .node("loop", "Loop", List.of("m", "go", "o0"), List.of("s"), "body", body)
                .node("cat", "ConcatFromSequence", List.of("s"), List.of("all"), "axis", 0L)
                .node("add", "Add", List.of("all", "x"), List.of("y"));
        assertThat(OnnxOpRuns.run(dir, m, Map.of("x", TensorValue.ofFloats(new long[]{3}, 10, 20, 30))).get("y").floats()).containsExactly(10f, 21f, 32f);
    }

    /** The TypeProto of a float tensor: an empty Optional's {@code type} attribute (Operators.md, Optional). */
    private static final OnnxMl.TypeProto FLOAT_TENSOR = OnnxMl.TypeProto.newBuilder()
            .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(OnnxDTypes.FLOAT)).build();

    /** y = (x present in an Optional ? -x : |x|) + the optional's element; {@code present} false: the Optional has no input. */
    private static TinyOnnx optionalIf(boolean present) {
        TinyOnnx then = new TinyOnnx().output("t").node("neg", "Neg", List.of("x"), List.of("t"));
        TinyOnnx otherwise = new TinyOnnx().output("e").node("abs", "Abs", List.of("x"), List.of("e"));
        TinyOnnx m = new TinyOnnx().opset(18).input("x", 3L, 2L).output("y", 3L, 2L)
                .node("opt", "Optional", present ? List.of("x") : List.of(), List.of("o"), present ? new Object[0] : new Object[]{"type", FLOAT_TENSOR})
                .node("has", "OptionalHasElement", List.of("o"), List.of("c"))
                .node("if", "If", List.of("c"), List.of("chosen"), "then_branch", then, "else_branch", otherwise);
        return present ? m.node("get", "OptionalGetElement", List.of("o"), List.of("got")).node("add", "Add", List.of("chosen", "got"), List.of("y"))
                : m.node("copy", "Identity", List.of("chosen"), List.of("y"));
    }

    @Test
    void anOptionalsPresenceChoosesTheIfBranchAtImport() throws Exception {
        assertThat(OnnxOpRuns.run(dir, optionalIf(true), Map.of("x", X)).get("y").floats()).containsExactly(0f, 0f, 0f, 0f, 0f, 0f);
        OnnxOpRuns.agree(dir, optionalIf(true), Map.of("x", X), 0, 0);
        TensorValue negative = TensorValue.ofFloats(new long[]{3, 2}, -1, 2, -3, 4, -5, 6);
        assertThat(OnnxOpRuns.run(dir, optionalIf(false), Map.of("x", negative)).get("y").floats()).containsExactly(1f, 2f, 3f, 4f, 5f, 6f);
        OnnxOpRuns.agree(dir, optionalIf(false), Map.of("x", negative), 0, 0);
        assertThat(imported(optionalIf(false)).ops().stream().map(Op::name).toList()).contains("if/else_branch/abs").doesNotContain("if/then_branch/neg");
    }

    /** An If whose branches give sequences ([n, n] or [n], n = -x), passed on by an Identity, then counted and concatenated. */
    private static TinyOnnx ifGivesASequence(boolean twice) {
        TinyOnnx then = new TinyOnnx().sequenceOutput(OnnxDTypes.FLOAT, "pair").node("make", "SequenceConstruct", List.of("n", "n"), List.of("pair"));
        TinyOnnx otherwise = new TinyOnnx().sequenceOutput(OnnxDTypes.FLOAT, "one").node("make", "SequenceConstruct", List.of("n"), List.of("one"));
        return new TinyOnnx().opset(17).input("x", 2L).initializer(bool("c", twice)).output("y", twice ? 4L : 2L).output(OnnxDTypes.INT64, "count")
                .node("neg", "Neg", List.of("x"), List.of("n"))
                .node("if", "If", List.of("c"), List.of("s"), "then_branch", then, "else_branch", otherwise)
                .node("same", "Identity", List.of("s"), List.of("s2"))
                .node("len", "SequenceLength", List.of("s2"), List.of("count"))
                .node("cat", "ConcatFromSequence", List.of("s2"), List.of("y"), "axis", 0L);
    }

    @Test
    void ifOutputsAndIdentityPassASequenceOnAndOneTensorTwiceInItIsCopiedTwice() throws Exception {
        Map<String, TensorValue> in = Map.of("x", TensorValue.ofFloats(new long[]{2}, 1, 2));
        Map<String, TensorValue> out = OnnxOpRuns.run(dir, ifGivesASequence(true), in);
        assertThat(out.get("y").floats()).containsExactly(-1f, -2f, -1f, -2f);   // Concat in place refuses an input that appears twice
        assertThat(out.get("count").longs()).containsExactly(2L);
        OnnxOpRuns.agree(dir, ifGivesASequence(true), in, 0, 0);
        assertThat(OnnxOpRuns.run(dir, ifGivesASequence(false), in).get("y").floats()).containsExactly(-1f, -2f);
    }

    /** SequenceMap over x's rows (each [1, 2]) with the tensor t as a second input: each row + t, the rows concatenated back. */
    private static TinyOnnx mapRows(String second) {
        TinyOnnx body = new TinyOnnx().input("row", 1L, 2L).input("t", 2L).output("sum")
                .node("add", "Add", List.of("row", "t"), List.of("sum"));
        return new TinyOnnx().opset(17).input("x", 3L, 2L).input("t", 2L).output("y", 3L, 2L)
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"))
                .node("pair", "SequenceConstruct", List.of("t", "t"), List.of("ts"))
                .node("map", "SequenceMap", List.of("rows", second), List.of("sums"), "body", body)
                .node("cat", "ConcatFromSequence", List.of("sums"), List.of("y"), "axis", 0L);
    }

    @Test
    void sequenceMapRunsItsBodyOncePerElement() throws Exception {
        Map<String, TensorValue> in = Map.of("x", X, "t", TensorValue.ofFloats(new long[]{2}, 10, 100));
        assertThat(OnnxOpRuns.run(dir, mapRows("t"), in).get("y").floats()).containsExactly(11f, 102f, 13f, 104f, 15f, 106f);
        OnnxOpRuns.agree(dir, mapRows("t"), in, 0, 0);
        assertThat(imported(mapRows("t")).ops().stream().map(Op::name).toList()).contains("map/0/add", "map/2/add").doesNotContain("map/3/add");
        // a second sequence must be as long as the first (Operators.md, SequenceMap)
        refused(mapRows("ts"), "node 'map' (SequenceMap, #2, opset 17): additional input #1 'ts' is a sequence of 2 tensors but input_sequence 'rows' of 3");
    }

    @Test
    void whatIsNotKnownAtImportOrOutOfRangeIsRefusedNamingTheNode() throws Exception {
        TinyOnnx runtimePosition = new TinyOnnx().opset(17).input("x", 3L, 2L).input(OnnxDTypes.INT64, "p").output("row", 2L)
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"), "keepdims", 0L)
                .node("at", "SequenceAt", List.of("rows", "p"), List.of("row"));
        refused(runtimePosition, "node 'at' (SequenceAt, #1, opset 17): position 'p' is computed at run time; arenaplan resolves SequenceAt only when its position is known at import");
        refused(rowAt(3), "node 'at' (SequenceAt, #1, opset 17): position 'p' is 3, outside [-3, 2] for a sequence of 3");
        refused(rowAt(-4), "position 'p' is -4, outside [-3, 2]");
        TinyOnnx runtimeSplit = new TinyOnnx().opset(17).input("x", 3L, 2L).input(OnnxDTypes.INT64, "k").output("y", 3L, 2L)
                .node("split", "SplitToSequence", List.of("x", "k"), List.of("rows"))
                .node("cat", "ConcatFromSequence", List.of("rows"), List.of("y"), "axis", 0L);
        refused(runtimeSplit, "node 'split' (SplitToSequence, #0, opset 17): split 'k' is computed at run time");
        // counted before the parts are listed: 2^31 + 1 rows would fill the heap first
        TinyOnnx tooManyRows = new TinyOnnx().opset(17).input("x", 2_147_483_649L, 1L).output("y", 1L, 1L)
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"))
                .node("at", "SequenceAt", List.of("rows", "zero_pos"), List.of("y")).scalar("zero_pos", 0);
        refused(tooManyRows, "node 'split' (SplitToSequence, #0, opset 17): splits into 2147483649 tensors; arenaplan resolves sequences of at most " + ControlFlow.MAX_ITERATIONS);
        TinyOnnx tooManyChunks = new TinyOnnx().opset(17).input("x", 2_147_483_649L, 1L).scalar("two", 2).output("y", 2L, 1L)
                .node("split", "SplitToSequence", List.of("x", "two"), List.of("rows"))
                .node("at", "SequenceAt", List.of("rows", "zero_pos"), List.of("y")).scalar("zero_pos", 0);
        refused(tooManyChunks, "splits into 1073741825 tensors");
        TinyOnnx insertPastEnd = new TinyOnnx().opset(17).input("a", 2L).scalar("p", -2).output("y", 2L)
                .node("make", "SequenceConstruct", List.of("a"), List.of("s"))
                .node("insert", "SequenceInsert", List.of("s", "a", "p"), List.of("s2"))
                .node("at", "SequenceAt", List.of("s2", "p"), List.of("y"));
        refused(insertPastEnd, "node 'insert' (SequenceInsert, #1, opset 17): position 'p' is -2, outside [-1, 1] for a sequence of 1");
        TinyOnnx emptyConcat = new TinyOnnx().opset(17).input("x", 2L).output("y", 2L)
                .node("empty", "SequenceEmpty", List.of(), List.of("s")).node("cat", "ConcatFromSequence", List.of("s"), List.of("c"), "axis", 0L)
                .node("add", "Add", List.of("c", "x"), List.of("y"));
        refused(emptyConcat, "node 'cat' (ConcatFromSequence, #1, opset 17): input_sequence 's' is empty: there is no tensor to concatenate");
        TinyOnnx emptyGet = new TinyOnnx().opset(18).input("x", 2L).output("y", 2L)
                .node("opt", "Optional", List.of(), List.of("o")).node("get", "OptionalGetElement", List.of("o"), List.of("g"))
                .node("add", "Add", List.of("g", "x"), List.of("y"));
        refused(emptyGet, "node 'get' (OptionalGetElement, #1, opset 18): input 'o' is an empty optional");
    }

    @Test
    void aSequenceReachesNoTensorOpAndGraphOutputsHoldItsTensors() throws Exception {
        TinyOnnx addToSequence = new TinyOnnx().opset(17).input("x", 3L, 2L).output("y", 3L, 2L)
                .node("split", "SplitToSequence", List.of("x"), List.of("rows")).node("add", "Add", List.of("rows", "x"), List.of("y"));
        refused(addToSequence, "node 'add' (Add, #1, opset 17): reads 'rows', a sequence of 3 tensors; arenaplan resolves sequences and optionals at import");
        TinyOnnx undeclared = new TinyOnnx().opset(17).input("x", 3L, 2L).output("rows")
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"));
        TinyOnnx declared = new TinyOnnx().opset(17).input("x", 3L, 2L).sequenceOutput(OnnxDTypes.FLOAT, "rows")
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"));
        for (TinyOnnx m : List.of(undeclared, declared)) {   // a sequence graph output is copied out into one tensor per element (OnnxEdges)
            Path file = dir.resolve("rows.onnx");
            Files.write(file, m.bytes());
            OnnxImporter.Imported imp = OnnxImporter.importModel(file, OnnxImporter.Options.DEFAULT);
            assertThat(imp.graph().outputs()).containsExactly("rows[0]", "rows[1]", "rows[2]");
            assertThat(imp.edges().edges().get("rows").describe()).isEqualTo("a sequence of 3 tensors");
        }
        TinyOnnx optionalOut = new TinyOnnx().opset(17).input("x", 3L, 2L).sequenceOutput(OnnxDTypes.FLOAT, "m")
                .node("split", "SplitToSequence", List.of("x"), List.of("rows")).node("opt", "Optional", List.of("rows"), List.of("m"));
        refused(optionalOut, "graph output 'm' is declared a sequence but the nodes compute an optional");
        TinyOnnx tooOld = new TinyOnnx().opset(16).input("x", 3L, 2L).output("y", 3L, 2L)
                .node("split", "SplitToSequence", List.of("x"), List.of("rows"))
                .node("map", "SequenceMap", List.of("rows"), List.of("same"), "body", new TinyOnnx().input("r", 1L, 2L).output("r"))
                .node("cat", "ConcatFromSequence", List.of("same"), List.of("y"), "axis", 0L);
        refused(tooOld, "node 'map' (SequenceMap, #1, opset 16): SequenceMap exists from opset 17 of the default domain");
    }

    private Graph imported(TinyOnnx model) throws Exception {
        Path file = dir.resolve("seq.onnx");
        Files.write(file, model.bytes());
        return OnnxImporter.load(file, Map.of());
    }

    private void refused(TinyOnnx model, String message) throws Exception {
        OnnxOpRuns.refused(dir, model, message);
    }
}
