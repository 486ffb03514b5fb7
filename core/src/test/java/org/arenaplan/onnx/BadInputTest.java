package org.arenaplan.onnx;

import org.arenaplan.io.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each malformed input fails with one OnnxException naming the file, node, op and what is missing. */
class BadInputTest {
    @TempDir
    Path dir;

    private static TinyOnnx relu() {
        return new TinyOnnx().input("x", 1L, 4L).output("y").node("act", "Relu", List.of("x"), List.of("y"));
    }

    private Path write(String name, byte[] bytes) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void truncatedFileNamesTheFileAndWhereItEnds() throws Exception {
        byte[] full = relu().bytes();
        for (int cut : new int[]{full.length - 1, full.length / 2, 3}) {
            Path p = write("cut" + cut + ".onnx", Arrays.copyOf(full, cut));
            assertThatThrownBy(() -> OnnxImporter.load(p, Map.of()))
                    .isInstanceOf(OnnxException.class).isInstanceOf(InputException.class)
                    .hasMessageContaining(p.toString()).hasMessageContaining("truncated");
        }
    }

    @Test
    void aShapeWhoseElementCountPassesALongNamesTheTensorNotAnArithmeticException() throws Exception {
        Path in = write("huge-input.onnx", new TinyOnnx().input("x", 1L << 40, 1L << 40).output("y")
                .node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(in, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(in + ": graph input 'x' [1099511627776, 1099511627776] has more than 2^63-1 elements");
        Path expand = write("huge-expand.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").ints("s", 1L << 31, 1L << 31, 4L)
                .node("e", "Expand", List.of("x", "s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(expand, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(expand + ": node 'e' (Expand, #0, opset 13): output y[2147483648, 2147483648, 4] has more than 2^63-1 elements");
        Path tile = write("huge-tile.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").ints("r", 1L << 40, 1L << 40)
                .node("t", "Tile", List.of("x", "r"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(tile, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 't' (Tile, #0, opset 13): output y[").hasMessageContaining("has more than 2^63-1 elements");
        // breaker13: these printed a wrapped-around extent (-9223372036854775804) in their refusal
        Path conv = write("huge-pads.onnx", new TinyOnnx().input("x", 1L, 1L, 4L, 4L).output("y").floats("w", 1f, 1L, 1L, 2L, 2L)
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "pads", new long[]{1L << 62, 1L << 62, 1L << 62, 1L << 62}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(conv, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'c' (Conv, #0, opset 13): kernel_shape 2, stride 1, dilation 1 and pads [4611686018427387904, ")
                .hasMessageEndingWith("on spatial axis 0 make an extent that overflows a long");
        Path concat = write("huge-concat.onnx", new TinyOnnx().input("x", 1L << 62).output("y")
                .node("c", "Concat", List.of("x", "x"), List.of("y"), "axis", 0L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(concat, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'c' (Concat, #0, opset 13): the inputs' extents on axis 0 sum past 2^63-1 (at input x[4611686018427387904])");
        // breaker20: "tensor 'y#constant': shape [...] overflows a long" (a name the importer made), or the refusal came only at the node reading it
        Path fill = write("huge-fill.onnx", new TinyOnnx().output("y").ints("s", 1L << 32, 1L << 32, 1L << 32)
                .node("c", "ConstantOfShape", List.of("s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(fill, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(fill + ": node 'c' (ConstantOfShape, #0, opset 13): output y[4294967296, 4294967296, 4294967296] has more than 2^63-1 elements (the shape is input #0)");
        // breaker14: (in - 1) * stride wrapped around to 9223372023969873922, which was taken as the output's extent
        long wide = 3L * (1L << 32) + 1;
        Path unpool = write("huge-unpool.onnx", new TinyOnnx().input("x", 1L, 1L, wide).input(OnnxDTypes.INT64, "i", 1L, 1L, wide).output("y")
                .node("u", "MaxUnpool", List.of("x", "i"), List.of("y"), "kernel_shape", new long[]{2}, "strides", new long[]{Integer.MAX_VALUE}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(unpool, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'u' (MaxUnpool, #0, opset 13): X [1, 1, 12884901889] with strides [2147483647], pads [0, 0] and kernel_shape [2]")
                .hasMessageEndingWith("make spatial axis 0 of the output an extent that overflows a long");
    }

    @Test
    void nodesOutOfTopologicalOrderOrInACycleNameTheNodeThatWritesTheValueLater() throws Exception {
        // breaker20: said "reads 'h', which no earlier node, initializer or graph input defines" while node #1 writes it
        Path shuffled = write("shuffled.onnx", new TinyOnnx().input("x", 1L, 4L).output("y")
                .node("neg", "Neg", List.of("h"), List.of("y")).node("act", "Relu", List.of("x"), List.of("h")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(shuffled, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(shuffled + ": node 'neg' (Neg, #0, opset 13): reads 'h', which node 'act' (Relu, #1) writes only later: the nodes are out of"
                        + " topological order, or form a cycle (ONNX IR: a graph's nodes are topologically sorted)");
        Path self = write("self.onnx", new TinyOnnx().input("x", 1L, 4L).output("y")
                .node("add", "Add", List.of("x", "h"), List.of("h")).node("neg", "Neg", List.of("h"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(self, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(self + ": node 'add' (Add, #0, opset 13): reads 'h', which it writes itself: a cycle");
        Path undefined = write("undefined.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("add", "Add", List.of("x", "q"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(undefined, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(undefined + ": node 'add' (Add, #0, opset 13): reads 'q', which no earlier node, initializer or graph input defines");
    }

    /**
     * breakonnx: a float shape, repeats or starts was cut to integers ([2, 1.5] repeats tiled as
     * [2, 1]) and a 2-D shape was read flattened; ONNX types these operands as integer tensors of
     * rank 0 or 1, and ONNX Runtime refuses the float ones ("Type 'tensor(float)' of input
     * parameter (s) of operator (Reshape) ... is invalid") and the 2-D shape ("A shape tensor
     * must be a vector tensor").
     */
    @Test
    void aConstantOperandOfAFloatTypeOrOfRankTwoIsRefusedNotCutToIntegers() throws Exception {
        Path tile = write("tile-float.onnx", new TinyOnnx().input("x", 2L, 3L).output("y").raw("r", new float[]{2f, 1.5f})
                .node("t", "Tile", List.of("x", "r"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(tile, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(tile + ": node 't' (Tile, #0, opset 13): repeats (input #1 'r') is f32, but ONNX types it as an integer tensor (int64, or int32 where the op allows it)");
        Path reshape = write("reshape-float.onnx", new TinyOnnx().input("x", 2L, 3L).output("y").raw("s", new float[]{3f, 2f})
                .node("r", "Reshape", List.of("x", "s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(reshape, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'r' (Reshape, #0, opset 13): the shape (input #1 's') is f32");
        Path twoD = write("reshape-2d.onnx", new TinyOnnx().input("x", 2L, 3L).output("y")
                .initializer(ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("s").setDataType(OnnxDTypes.INT64).addDims(1).addDims(2).addInt64Data(3).addInt64Data(2).build())
                .node("r", "Reshape", List.of("x", "s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(twoD, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(twoD + ": node 'r' (Reshape, #0, opset 13): the shape (input #1 s[1, 2]) has rank 2, but ONNX takes a scalar or a 1-D tensor there");
        Path int32 = write("slice-int32.onnx", new TinyOnnx().input("x", 2L, 3L).output("y").int32s("a", 1).int32s("b", 3)
                .node("s", "Slice", List.of("x", "a", "b"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(int32, Map.of()).tensor("y").shape()).containsExactly(1, 3);     // Slice's Tind is int32 or int64
    }

    /**
     * breakonnx: a 100,000-entry Reshape shape (an initializer past the 65,536 elements read at
     * import) was said to be "not a constant"; and a perm of rank 100 was printed whole in its
     * refusal (at rank 100,000 a 600 KB line), now elided.
     */
    @Test
    void anOperandTooLargeToReadAtImportAndALongAttributeAreNamedBriefly() throws Exception {
        long[] shape = new long[100_000];
        Arrays.fill(shape, 1L);
        shape[shape.length - 2] = 2;
        shape[shape.length - 1] = 3;
        Path big = write("big-shape.onnx", new TinyOnnx().input("x", 2L, 3L).output("y").ints("s", shape)
                .node("r", "Reshape", List.of("x", "s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(big, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageEndingWith("; it is not: 's' holds 100,000 elements, more than the 65,536 an operand read at import may hold");
        Object[] dims = new Object[100];
        Arrays.fill(dims, 1L);
        long[] perm = new long[100];
        for (int i = 0; i < perm.length; i++) perm[i] = i;
        Path transpose = write("perm100.onnx", new TinyOnnx().input("x", dims).output("y").node("t", "Transpose", List.of("x"), List.of("y"), "perm", perm).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(transpose, Map.of())).isInstanceOf(InputException.class)
                .hasMessageEndingWith("attribute 'perm' [0, 1, 2, 3, 4, 5, 6, 7, ..., 99] (100 entries) holds 64, out of range [0, 63]");
    }

    /** breakonnx: Constant with value_float and value_int imported value_int (ONNX Runtime takes value_float); the schema takes exactly one. */
    @Test
    void aConstantGivingTwoValuesIsRefusedNamingThem() throws Exception {
        Path two = write("two-values.onnx", new TinyOnnx().input("x", 2L, 3L).output("y")
                .node("c", "Constant", List.of(), List.of("k"), "value_float", 1.0, "value_int", 2L).node("a", "Add", List.of("x", "k"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(two, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(two + ": node 'c' (Constant, #0, opset 13): gives 2 value attributes [value_int, value_float]; Constant takes exactly one");
    }

    /** breakonnx: a NumPy file given for a tensor was "not an ONNX tensor ...: its bytes are not a protobuf message (byte 8 of 152)". */
    @Test
    void aNumpyFileIsSaidToBeOne() throws Exception {
        byte[] npy = new byte[128];
        System.arraycopy(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}, 0, npy, 0, 8);
        Path p = write("x.npy", npy);
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": a NumPy .npy file, not a binary TensorProto; arenaplan reads ONNX's protobuf files"
                        + " (write one with onnx.numpy_helper.from_array(array, name).SerializeToString())");
    }

    @Test
    void aShapeOperandWhoseFoldingAKernelRefusedSaysWhyNotJustThatItIsNotAConstant() throws Exception {
        // breaker20: Shape(x) / [0, 1] -> Reshape said only "must be a constant known at import time (...); it is not"
        Path div = write("div0.onnx", new TinyOnnx().input("x", 2L, 3L).output("y").ints("zz", 0, 1)
                .node("s", "Shape", List.of("x"), List.of("shape")).node("d", "Div", List.of("shape", "zz"), List.of("q"))
                .node("u", "Identity", List.of("q"), List.of("q2")).node("r", "Reshape", List.of("x", "q2"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(div, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(div + ": node 'r' (Reshape, #3, opset 13): the shape (input #1 'q2') must be a constant known at import time")
                .hasMessageEndingWith("; it is not: node 'd' (Div, #1) could not be evaluated at import: integer division by zero (element 0)");
        Path input = write("input.onnx", new TinyOnnx().input("x", 2L, 3L).input(OnnxDTypes.INT64, "s", 2L).output("y")
                .node("r", "Reshape", List.of("x", "s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(input, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageEndingWith("must be a constant known at import time (an initializer, a Constant, or a graph input whose value --input s=FILE.pb gives); it is not");
    }

    @Test
    void aNameGivenTwiceToInitializersOrGraphInputsIsRefused() throws Exception {
        Path init = write("dup-init.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").floats("w", 1f, 4L, 4L).floats("w", 2f, 4L, 4L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(init, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(init + ": initializer 'w' is given twice");
        Path input = write("dup-input.onnx", new TinyOnnx().input("x", 1L, 4L).input("x", 1L, 4L).output("y")
                .node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(input, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(input + ": graph input 'x' is listed twice");
        // IR < 4: an initializer listed among the inputs too is legal, once
        Path old = write("ir3.onnx", new TinyOnnx().opset(9).input("x", 1L, 4L).input("w", 4L, 4L).output("y").floats("w", 1f, 4L, 4L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(old, Map.of()).isInput("w")).isFalse();
        // breaker13: run --input w=FILE for such an input was told "'w' is not a graph input; inputs: [x]"
        assertThatThrownBy(() -> OnnxImporter.load(old, OnnxImporter.Options.DEFAULT.withInputValues(
                Map.of("w", org.arenaplan.ir.TensorValue.ofFloats(new long[]{4, 4}, new float[16])))))
                .isInstanceOf(OnnxException.class).hasMessage(old + ": --input w: graph input 'w' has an initializer, its default value (ONNX IR 4+), which arenaplan"
                        + " plans as a constant weight; it takes no other value (its graph inputs without one: [x])");
    }

    /** breaker10: an initializer [4] defaulting graph input 'w' declared [5] was blamed on the output ("declared [5] but infers to [4]"). */
    @Test
    void aGraphInputWhoseInitializerDisagreesWithItsDeclarationIsRefusedNamingBoth() throws Exception {
        Path shape = write("default-shape.onnx", new TinyOnnx().input("x", 1L, 4L).input("w", 4L, 5L).output("y").floats("w", 1f, 4L, 4L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(shape, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(shape + ": graph input 'w' is declared [4, 5] but its initializer (the input's default value) is [4, 4]");
        Path rank = write("default-rank.onnx", new TinyOnnx().input("x", 1L, 4L).input("w", 16L).output("y").floats("w", 1f, 4L, 4L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(rank, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(rank + ": graph input 'w' is declared [16] but its initializer (the input's default value) is [4, 4]");
        Path type = write("default-type.onnx", new TinyOnnx().input("x", 1L, 4L).input(7, "w", 4L, 4L).output("y").floats("w", 1f, 4L, 4L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(type, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(type + ": graph input 'w' is declared i64 but its initializer (the input's default value) is f32");
        Path symbolic = write("default-symbolic.onnx", new TinyOnnx().input("x", 1L, 4L).input("w", "n", 4L).output("y").floats("w", 1f, 4L, 4L)
                .node("mm", "MatMul", List.of("x", "w"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(symbolic, Map.of()).isInput("w")).as("a symbolic extent agrees with any").isFalse();
    }

    @Test
    void anAttributeGivenTwiceToOneNodeIsRefusedNotTakenFromTheLastCopy() throws Exception {
        // the ONNX checker: "Attribute 'axis' appeared multiple times"; before, the last copy silently won
        Path p = write("axis-twice.onnx", new TinyOnnx().input("x", 2L, 4L).output("y")
                .node("s", "Softmax", List.of("x"), List.of("y"), "axis", 0L, "axis", 1L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": node 's' (Softmax) attribute 'axis' is given twice (each attribute name appears once per node)");
        // breaker20: an unnamed node was "node '' (Softmax)"; it is named as the importer names it everywhere else
        Path unnamed = write("axis-twice-unnamed.onnx", new TinyOnnx().input("x", 2L, 4L).output("y").node("r", "Relu", List.of("x"), List.of("h"))
                .node("", "Softmax", List.of("h"), List.of("y"), "axis", 0L, "axis", 1L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(unnamed, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(unnamed + ": node 'Softmax_1' (Softmax) attribute 'axis' is given twice (each attribute name appears once per node)");
    }

    /** breaker11: a model with no opset_import read "opset 1 ... outside the supported range"; a node without op_type printed as a blank. */
    @Test
    void noDefaultOpsetAndNoOpTypeAreNamed() throws Exception {
        Path none = write("no-opset.onnx", relu().model().toBuilder().clearOpsetImport().build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(none, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(none + ": opset_import names no version of the default ONNX domain, which its nodes use (ONNX IR 3+: a model imports every domain it uses)");
        Path blank = write("no-op.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("n", "", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(blank, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("unsupported op type: '' (a node with no op_type) (1 node: n)");
    }

    @Test
    void anAttributeOfTheWrongTypeIsNamedWithOnnxTypeNamesNotCodes() throws Exception {
        Path p = write("axis-string.onnx", new TinyOnnx().input("x", 1L, 4L).output("y")
                .node("s", "Softmax", List.of("x"), List.of("y"), "axis", "1").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": node 's' (Softmax, #0, opset 13): attribute 'axis' is STRING, expected INT (ONNX AttributeProto.AttributeType)");
        Path q = write("float-strides.onnx", new TinyOnnx().input("x", 1L, 1L, 4L, 4L).floats("w", 1f, 1L, 1L, 1L, 1L).output("y")
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "strides", new double[]{1.5, 1}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(q, Map.of())).hasMessageContaining("attribute 'strides' is FLOATS, expected INTS");
    }

    /**
     * breaker15: each was read silently. A ref_attr_name in the main graph (onnx.proto: "invalid to be used
     * in main graph") read as axis 0; an INT whose value sits in {@code f} read as 0 (the ONNX checker: "type
     * field and data field mismatch"); an unnamed initializer (the checker: "Tensor initializers must have a
     * non-empty name") was kept.
     */
    @Test
    void aReferenceOutsideAFunctionAValueInAnotherTypesFieldAndAnUnnamedInitializerAreRefused() throws Exception {
        Path ref = write("ref-in-main.onnx", new TinyOnnx().input("x", 2L, 4L).output("y")
                .node("s", "Softmax", List.of("x"), List.of("y"), "axis", new TinyOnnx.Ref("ax", ai.onnx.proto.OnnxMl.AttributeProto.AttributeType.INT)).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(ref, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(ref + ": node 's' (Softmax) attribute 'axis' refers to attribute 'ax' of an enclosing function (ref_attr_name), outside any function body"
                        + " (onnx.proto: ref_attr_name is only used in a function; invalid in the main graph)");
        ai.onnx.proto.OnnxMl.ModelProto.Builder m = new TinyOnnx().input("x", 2L, 4L).output("y")
                .node("s", "Softmax", List.of("x"), List.of("y"), "axis", 0L).model().toBuilder();
        m.getGraphBuilder().getNodeBuilder(0).getAttributeBuilder(0).clearI().setF(1f);
        Path inF = write("int-in-f.onnx", m.build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(inF, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(inF + ": node 's' (Softmax) attribute 'axis' is INT but holds a FLOAT value (its f field is set); type and value field disagree"
                        + " (the ONNX checker: type field and data field mismatch)");
        m.getGraphBuilder().getNodeBuilder(0).getAttributeBuilder(0).setI(1).clearType();
        Path two = write("two-values.onnx", m.build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(two, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(two + ": node 's' (Softmax) attribute 'axis' holds 2 values ([FLOAT, INT]); an attribute has one value field (the ONNX checker refuses more)");
        Path unnamed = write("unnamed-init.onnx", relu().floats("", 1f, 4L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(unnamed, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(unnamed + ": initializer #0 of graph 'tiny' has no name (the ONNX checker: tensor initializers must have a non-empty name)");
    }

    /**
     * onnx.proto: AttributeProto.type "MUST be present" from IR version 2 on, and onnx 1.23.1's
     * check_model refuses it missing (breaker20: it was read from whichever value field was set).
     * An IR-1 model may still leave it out.
     */
    @Test
    void anAttributeWithoutATypeIsRefusedFromIrVersion2On() throws Exception {
        ai.onnx.proto.OnnxMl.ModelProto.Builder m = new TinyOnnx().input("x", 2L, 4L).output("y")
                .node("s", "Softmax", List.of("x"), List.of("y"), "axis", 1L).model().toBuilder();
        m.getGraphBuilder().getNodeBuilder(0).getAttributeBuilder(0).clearType();
        Path untyped = write("untyped-attr.onnx", m.build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(untyped, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(untyped + ": node 's' (Softmax) attribute 'axis' has no type (UNDEFINED) but a value in its i field; from IR version 2 on"
                        + " AttributeProto.type must be set (onnx.proto; the ONNX checker refuses it), and this model is IR " + m.getIrVersion());
        m.setIrVersion(1);
        Path ir1 = write("untyped-attr-ir1.onnx", m.build().toByteArray());
        assertThat(OnnxImporter.load(ir1, Map.of()).ops()).hasSize(1);
    }

    /**
     * ONNX IR wants node names unique, but the checker and ONNX Runtime run a model that repeats
     * one (breaker20: arenaplan refused "op name used twice"); a later node named like an earlier
     * one is named after its position too, as is an unnamed node whose name another node holds.
     */
    @Test
    void aRepeatedNodeNameIsMadeUniqueByPositionNotRefused() throws Exception {
        Path dup = write("dup-names.onnx", new TinyOnnx().input("x", 2L).output("y")
                .node("n", "Relu", List.of("x"), List.of("a"))
                .node("n", "Neg", List.of("a"), List.of("b"))
                .node("Relu_3", "Neg", List.of("b"), List.of("c"))
                .node("", "Relu", List.of("c"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(dup, Map.of()).ops()).extracting(org.arenaplan.ir.Op::name)
                .containsExactly("n", "n_1", "Relu_3", "Relu_3_3");
    }

    /** A graph input with an empty name (no node can read it) planned silently until breaker20 found it; the ONNX checker refuses it. */
    @Test
    void anUnnamedGraphInputOrOutputIsRefusedByItsPosition() throws Exception {
        Path in = write("unnamed-input.onnx", new TinyOnnx().input("x", 2L).input("", 2L).output("y")
                .node("r", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(in, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(in + ": graph input #1 of graph 'tiny' has no name (the ONNX checker: a ValueInfoProto's name must be non-empty)");
        Path out = write("unnamed-output.onnx", new TinyOnnx().input("x", 2L).output("y").output("")
                .node("r", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(out, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(out + ": graph output #1 of graph 'tiny' has no name (the ONNX checker: a ValueInfoProto's name must be non-empty)");
    }

    /**
     * breaker17: a value_info or graph output declared a sequence, an optional, a map or a sparse
     * tensor for a value the nodes compute as a tensor planned silently; onnx 1.23.1's checker
     * refuses each ("has unsupported type: seq(tensor(float))", "type case mismatch").
     */
    @Test
    void aTensorDeclaredASequenceOptionalMapOrSparseTensorIsRefused() throws Exception {
        ai.onnx.proto.OnnxMl.TypeProto tensor = ai.onnx.proto.OnnxMl.TypeProto.newBuilder()
                .setTensorType(ai.onnx.proto.OnnxMl.TypeProto.Tensor.newBuilder().setElemType(OnnxDTypes.FLOAT)).build();
        ai.onnx.proto.OnnxMl.TypeProto[] types = {
                ai.onnx.proto.OnnxMl.TypeProto.newBuilder().setSequenceType(ai.onnx.proto.OnnxMl.TypeProto.Sequence.newBuilder().setElemType(tensor)).build(),
                ai.onnx.proto.OnnxMl.TypeProto.newBuilder().setOptionalType(ai.onnx.proto.OnnxMl.TypeProto.Optional.newBuilder().setElemType(tensor)).build(),
                ai.onnx.proto.OnnxMl.TypeProto.newBuilder().setMapType(ai.onnx.proto.OnnxMl.TypeProto.Map.newBuilder().setKeyType(OnnxDTypes.INT64).setValueType(tensor)).build(),
                ai.onnx.proto.OnnxMl.TypeProto.newBuilder().setSparseTensorType(ai.onnx.proto.OnnxMl.TypeProto.SparseTensor.newBuilder().setElemType(OnnxDTypes.FLOAT)).build()};
        String[] words = {"a sequence", "an optional", "a map", "a sparse tensor"};
        for (int k = 0; k < types.length; k++) {
            ai.onnx.proto.OnnxMl.ModelProto.Builder m = new TinyOnnx().input("x", 2L, 3L).output("y", 2L, 3L)
                    .node("r", "Relu", List.of("x"), List.of("h")).node("n", "Neg", List.of("h"), List.of("y")).model().toBuilder();
            m.getGraphBuilder().addValueInfo(ai.onnx.proto.OnnxMl.ValueInfoProto.newBuilder().setName("h").setType(types[k]));
            Path mid = write("vi-" + k + ".onnx", m.build().toByteArray());
            assertThatThrownBy(() -> OnnxImporter.load(mid, Map.of())).isInstanceOf(OnnxException.class)
                    .hasMessage(mid + ": value_info 'h' is declared " + words[k] + " but the nodes compute it as a tensor (f32 [2, 3]):"
                            + " arenaplan plans tensors only (sequence, optional and map values are not supported)");
            m.getGraphBuilder().clearValueInfo().getOutputBuilder(0).setType(types[k]);
            Path out = write("out-" + k + ".onnx", m.build().toByteArray());
            assertThatThrownBy(() -> OnnxImporter.load(out, Map.of())).isInstanceOf(OnnxException.class)
                    .hasMessageStartingWith(out + ": graph output 'y' is " + (k < 2 ? "declared " : "") + words[k]);   // a sequence or optional output is taken, so its type is checked
        }
    }

    /** breaker15: Tile's refusal said "attribute 'repeats'", an input since Tile-6 (the ONNX operator spec, Tile-6/13). */
    @Test
    void tilesRepeatsIsNamedAsTheInputItIs() throws Exception {
        Path shortRepeats = write("tile-short.onnx", new TinyOnnx().input("x", 2L, 4L).ints("r", 3L).output("y")
                .node("t", "Tile", List.of("x", "r"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(shortRepeats, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 't' (Tile, #0, opset 13): ")
                .hasMessageContaining("input 'repeats' (input #1 'r') has 1 value; Tile needs one per axis of its input, rank 2")
                .message().doesNotContain("attribute");
        Path negative = write("tile-negative.onnx", new TinyOnnx().input("x", 2L, 4L).ints("r", 1L, -2L).output("y")
                .node("t", "Tile", List.of("x", "r"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(negative, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 't' (Tile, #0, opset 13): input 'repeats' (input #1 'r') [1, -2] holds -2; a repeat count is 0 or more")
                .message().doesNotContain("attribute");
    }

    /**
     * '' and 'ai.onnx' both name the default domain. onnx 1.23.1's check_model accepts a model
     * listing both at different versions and reads a node of domain '' at the '' entry (the
     * 'ai.onnx' entry only where '' is absent); arenaplan takes that rule (breaker20: which one
     * was used went unsaid; docs/onnx.md says it now).
     */
    @Test
    void theEmptyDomainsEntryDecidesTheDefaultOpsetOverAiOnnx() throws Exception {
        ai.onnx.proto.OnnxMl.ModelProto base = relu().model();
        byte[] both = base.toBuilder().clearOpsetImport()
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setDomain("ai.onnx").setVersion(9))
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(13)).build().toByteArray();
        Path p = write("both-spellings.onnx", both);
        assertThat(OnnxProtos.read(p).defaultOpset()).isEqualTo(13);
        assertThat(OnnxImporter.load(p, Map.of()).ops()).hasSize(1);
        byte[] alias = base.toBuilder().clearOpsetImport()
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setDomain("ai.onnx").setVersion(11)).build().toByteArray();
        assertThat(OnnxProtos.read(write("alias.onnx", alias)).defaultOpset()).isEqualTo(11);
    }

    @Test
    void aDomainImportedAtTwoOpsetsIsRefused() throws Exception {
        byte[] twice = relu().model().toBuilder()
                .addOpsetImport(ai.onnx.proto.OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(9)).build().toByteArray();
        Path p = write("two-opsets.onnx", twice);
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": opset_import gives the domain '' twice, as opset 13 and 9");
    }

    @Test
    void anIrVersionNewerThanOnnxHasPublishedIsRefusedNamingTheField() throws Exception {
        for (long ir : new long[]{15, 99, Long.MAX_VALUE}) {
            Path p = write("ir" + ir + ".onnx", relu().model().toBuilder().setIrVersion(ir).build().toByteArray());
            assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                    .hasMessage(p + ": ir_version " + ir + " is newer than the ONNX IR versions arenaplan reads (1..14, the versions up to onnx 1.23's)");
        }
        for (long ir = 3; ir <= 14; ir++)   // every version with opset_import (IR 3 on) reads; 14 is what onnx 1.23.1's make_model writes
            assertThat(OnnxImporter.load(write("ok" + ir + ".onnx", relu().model().toBuilder().setIrVersion(ir).build().toByteArray()), Map.of()).ops()).hasSize(1);
    }

    @Test
    void aMissingOrNegativeIrVersionIsRefusedNamingTheField() throws Exception {
        Path none = write("no-ir.onnx", relu().model().toBuilder().clearIrVersion().build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(none, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(none + ": ir_version is missing (0); every ONNX ModelProto must give it (onnx.proto: the IR version the model targets, 1..14)");
        Path negative = write("neg-ir.onnx", relu().model().toBuilder().setIrVersion(-7).build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(negative, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(negative + ": ir_version -7 is not an ONNX IR version (they run 1..14)");
    }

    @Test
    void aTextFileIsNotAnOnnxModel() throws Exception {
        Path p = write("notes.onnx", "hello, this is not a model\n".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining(p.toString()).hasMessageContaining("not an ONNX model");
        Path empty = write("empty.onnx", new byte[0]);
        assertThatThrownBy(() -> OnnxImporter.load(empty, Map.of())).hasMessageContaining("not an ONNX model (no graph");
    }

    /** breaker13: 25 If bodies inside each other were "not an ONNX model ...: its bytes are not a protobuf message". */
    @Test
    void bodiesNestedPastTheReadersDepthAreSaidToBeThatNotGarbage() throws Exception {
        ai.onnx.proto.OnnxMl.GraphProto leaf = relu().model().getGraph(), body = leaf;
        for (int i = 0; i < 25; i++) {
            ai.onnx.proto.OnnxMl.AttributeProto branch = ai.onnx.proto.OnnxMl.AttributeProto.newBuilder().setName("then_branch")
                    .setType(ai.onnx.proto.OnnxMl.AttributeProto.AttributeType.GRAPH).setG(body).build();
            body = body.toBuilder().clearNode().addNode(ai.onnx.proto.OnnxMl.NodeProto.newBuilder().setOpType("If").addInput("c").addOutput("y")
                    .addAttribute(branch).addAttribute(branch.toBuilder().setName("else_branch").setG(leaf))).build();
        }
        Path p = write("deep.onnx", relu().model().toBuilder().setGraph(body).build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(p + ": messages nest more than 64 deep (each If, Loop or Scan body inside another adds 3 levels)");
    }

    /** breaker13: a node reading a sparse_initializer was told the name was defined nowhere. */
    @Test
    void aSparseInitializerReadByANodeIsNamedAsSuch() throws Exception {
        ai.onnx.proto.OnnxMl.TensorProto values = ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("w").setDataType(1).addDims(1).addFloatData(5f).build();
        ai.onnx.proto.OnnxMl.TensorProto indices = ai.onnx.proto.OnnxMl.TensorProto.newBuilder().setName("w_i").setDataType(7).addDims(1).addInt64Data(2).build();
        ai.onnx.proto.OnnxMl.ModelProto m = new TinyOnnx().input("x", 4L).output("y").node("add", "Add", List.of("x", "w"), List.of("y")).model();
        Path p = write("sparse.onnx", m.toBuilder().setGraph(m.getGraph().toBuilder().addSparseInitializer(
                ai.onnx.proto.OnnxMl.SparseTensorProto.newBuilder().setValues(values).setIndices(indices).addDims(4))).build().toByteArray());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": node 'add' (Add) reads 'w', a sparse_initializer (SparseTensorProto), which arenaplan does not read; store it as a dense initializer");
    }

    @Test
    void anEmptyTensorFileIsSaidToBeEmpty() throws Exception {
        Path empty = write("empty_input_0.pb", new byte[0]);
        assertThatThrownBy(() -> OnnxTensorFile.read(empty)).isInstanceOf(OnnxException.class)
                .hasMessage(empty + ": the file is empty (0 bytes); expected a serialized TensorProto");
    }

    @Test
    void missingFileIsNamed() {
        assertThatThrownBy(() -> OnnxImporter.load(dir.resolve("nope.onnx"), Map.of())).isInstanceOf(OnnxException.class).hasMessageContaining("no such file");
    }

    /** A 1 MB node or tensor name was printed whole in its one error line (frontdoor helper): cut after 200 characters, its length said. */
    @Test
    void aMegabyteNodeOrTensorNameIsCutInTheMessage() throws Exception {
        String longName = "n".repeat(1_000_000), shown = "n".repeat(200) + "… (1000000 chars)";
        Path unsupported = write("long-node.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node(longName, "ImageDecoder", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(unsupported, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("1 unsupported op type: ImageDecoder (1 node: " + shown + ")").satisfies(e -> assertThat(e.getMessage().length()).isLessThan(4_000));
        Path undefined = write("long-tensor.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("r", "Relu", List.of(longName), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(undefined, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageEndingWith("node 'r' (Relu, #0, opset 13): reads '" + shown + "', which no earlier node, initializer or graph input defines");
        Path shape = write("long-op.onnx", new TinyOnnx().input("x", 2L, 3L).input("z", 4L).output("y").node(longName, "Add", List.of("x", "z"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(shape, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining(": node '" + shown + "' (Add, #0, opset 13)").satisfies(e -> assertThat(e.getMessage().length()).isLessThan(1_000));
    }

    @Test
    void unsupportedOpNamesNodeAndOp() throws Exception {
        Path p = write("decode.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("decode7", "ImageDecoder", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining(p.toString()).hasMessageContaining("1 unsupported op type: ImageDecoder (1 node: decode7)");
    }

    @Test
    void aMisspeltOpTypeIsNamedWithTheSupportedOneItNearlySpells() throws Exception {
        Path p = write("typo.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("t", "Tranpose", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("1 unsupported op type: Tranpose (1 node: t; did you mean 'Transpose'?)");
        Path q = write("decode2.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("decode7", "ImageDecoder", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(q, Map.of())).hasMessageNotContaining("did you mean");
    }

    @Test
    void oneRefusalListsEveryUnsupportedOpAndAttribute() throws Exception {
        TinyOnnx m = new TinyOnnx().input("x", 1L, 4L).output("y");
        for (int i = 0; i < 5; i++) m.node("dec" + i, "ImageDecoder", List.of(i == 0 ? "x" : "e" + (i - 1)), List.of("e" + i));
        m.node("", "StringSplit", List.of("e4"), List.of("r"))
                .node("lrn", "LRN", List.of("r"), List.of("l"), "size", 3L, "alpah", 1e-3)
                .node("other", "Relu", List.of("l"), List.of("y"));
        Path p = write("many.onnx", m.bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(p + ": 2 unsupported op types: ImageDecoder (5 nodes: dec0, dec1, dec2, …), StringSplit (1 node: StringSplit_5) (supported: Abs, ")
                .hasMessageContaining("; unknown attribute 'alpah'; LRN takes size, alpha, beta, bias (did you mean 'alpha'?) (1 node: lrn)")
                .hasMessageNotContaining("\n");
        // names from the file cannot break the one line
        Path q = write("ctl.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("a\nb", "Gelu\r", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(q, Map.of())).hasMessageContaining("1 unsupported op type: Gelu\\u000d (1 node: a\\u000ab)")
                .hasMessageNotContaining("\n").hasMessageNotContaining("\r");
    }

    @Test
    void symbolicDimWithoutValueAsksForDim() throws Exception {
        Path p = write("dyn.onnx", new TinyOnnx().input("x", "batch", 4L).output("y").node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("graph input 'x' axis 0 is symbolic ('batch')").hasMessageContaining("--dim batch=VALUE");
        assertThat(OnnxImporter.load(p, Map.of("batch", 3L)).tensor("y").shape()).containsExactly(3, 4);
        assertThat(OnnxImporter.load(p, Map.of("x.1", 5L, "batch", 2L)).tensor("y").shape()).containsExactly(2, 5);
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of("batch", 1L, "seq", 2L))).hasMessageContaining("--dim names no symbolic dim").hasMessageContaining("[seq]");
    }

    @Test
    void opsetBeyondTheSupportedRange() throws Exception {
        assertThat(OnnxImporter.load(write("v28.onnx", relu().opset(28).bytes()), Map.of()).ops()).hasSize(1);
        Path p = write("new.onnx", relu().opset(29).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("opset 29").hasMessageContaining("1..28");
        assertThat(OnnxImporter.load(write("v7.onnx", relu().opset(7).bytes()), Map.of()).ops()).as("Relu-6 is Relu at opset 9").hasSize(1);
        assertThat(OnnxImporter.load(write("v1.onnx", relu().opset(1).bytes()), Map.of()).ops()).as("Relu-1 is Relu-6 but for consumed_inputs").hasSize(1);
    }

    @Test
    void readingAnUndefinedTensorOrAWrongAttributeType() throws Exception {
        Path p = write("dangling.onnx", new TinyOnnx().input("x", 1L, 4L).output("y").node("add", "Add", List.of("x", "ghost"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).hasMessageContaining("node 'add' (Add").hasMessageContaining("'ghost'");
        Path q = write("attr.onnx", new TinyOnnx().input("x", 1L, 2L, 4L).output("y").node("c", "Concat", List.of("x", "x"), List.of("y"), "axis", "one").bytes());
        assertThatThrownBy(() -> OnnxImporter.load(q, Map.of())).hasMessageContaining("node 'c' (Concat").hasMessageContaining("attribute 'axis'");
    }

    @Test
    void aMisspeltOrUnknownOnnxAttributeIsAnErrorNotADefault() throws Exception {
        Path p = write("lrn.onnx", new TinyOnnx().input("x", 1L, 4L, 2L, 2L).output("y")
                .node("lrn", "LRN", List.of("x"), List.of("y"), "size", 3L, "alpah", 1e-3).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("unknown attribute 'alpah'; LRN takes size, alpha, beta, bias (did you mean 'alpha'?) (1 node: lrn)");
        Path q = write("mm.onnx", new TinyOnnx().input("a", 2L, 3L).input("b", 3L, 2L).output("y")
                .node("mm", "MatMul", List.of("a", "b"), List.of("y"), "transB", 1L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(q, Map.of())).hasMessageContaining("unknown attribute 'transB'; MatMul takes no attributes");
        Path r = write("conv.onnx", new TinyOnnx().input("x", 1L, 1L, 4L, 4L).output("y").raw("w", new float[9], 1, 1, 3, 3)
                .node("conv", "Conv", List.of("x", "w"), List.of("y"), "auto_pad", "SAME_UPPER").bytes());
        assertThat(OnnxImporter.load(r, Map.of()).tensor("y").shape()).containsExactly(1, 1, 4, 4);
        // Nodes that become weights or are folded are checked too: a misspelt 'value' would fill zeros.
        Path c = write("cos.onnx", new TinyOnnx().input("x", 2L).ints("s", 2).output("y")
                .node("fill", "ConstantOfShape", List.of("s"), List.of("f"), "valeu", 3L)
                .node("add", "Add", List.of("x", "f"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(c, Map.of()))
                .hasMessageContaining("unknown attribute 'valeu'; ConstantOfShape takes value (did you mean 'value'?) (1 node: fill)");
    }

    @Test
    void splitImportsAsStridedCopiesWithItsExtentsChecked() throws Exception {
        Path ok = write("split.onnx", new TinyOnnx().opset(11).input("x", 2L, 6L).output("a").output("b")
                .node("s", "Split", List.of("x"), List.of("a", "b"), "axis", 1L, "split", new long[]{2, 4}).bytes());
        org.arenaplan.ir.Graph g = OnnxImporter.load(ok, Map.of());
        assertThat(g.tensor("a").shape()).containsExactly(2, 2);
        assertThat(g.tensor("b").shape()).containsExactly(2, 4);
        assertThat(g.ops().get(0).kind()).isEqualTo("Split");
        Path bad = write("split_bad.onnx", new TinyOnnx().opset(11).input("x", 2L, 6L).output("a").output("b")
                .node("s", "Split", List.of("x"), List.of("a", "b"), "axis", 1L, "split", new long[]{2, 3}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(bad, Map.of())).hasMessageContaining("node 's' (Split").hasMessageContaining("split [2, 3] sums to 5, not to 6");
        Path v13 = write("split13.onnx", new TinyOnnx().input("x", 2L, 6L).output("a").output("b")
                .node("s", "Split", List.of("x"), List.of("a", "b"), "axis", 1L, "split", new long[]{2, 4}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(v13, Map.of())).hasMessageContaining("attribute 'split' is input #1 from opset 13");
        // opset 18: num_outputs parts of ceil(extent / num_outputs), the last one smaller
        Path v18 = write("split18.onnx", new TinyOnnx().opset(18).input("x", 2L, 7L).output("a").output("b").output("c")
                .node("s", "Split", List.of("x"), List.of("a", "b", "c"), "axis", 1L, "num_outputs", 3L).bytes());
        org.arenaplan.ir.Graph g18 = OnnxImporter.load(v18, Map.of());
        assertThat(List.of(g18.tensor("a").shape()[1], g18.tensor("b").shape()[1], g18.tensor("c").shape()[1])).containsExactly(3L, 3L, 1L);
        Path v17 = write("split17.onnx", new TinyOnnx().opset(17).input("x", 2L, 6L).output("a").output("b")
                .node("s", "Split", List.of("x"), List.of("a", "b"), "axis", 1L, "num_outputs", 2L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(v17, Map.of())).hasMessageContaining("attribute 'num_outputs' needs opset 18");
    }

    @Test
    void versionDifferencesFromOpset14To21() throws Exception {
        // Reshape allowzero (opset 14): a 0 in the shape is an extent, not a copy of the input's
        Path z = write("allowzero.onnx", new TinyOnnx().opset(14).input("x", 0L, 3L).ints("s", 3, 0).output("y")
                .node("r", "Reshape", List.of("x", "s"), List.of("y"), "allowzero", 1L).bytes());
        assertThat(OnnxImporter.load(z, Map.of()).tensor("y").shape()).containsExactly(3, 0);
        Path copy = write("copyzero.onnx", new TinyOnnx().opset(14).input("x", 2L, 3L).ints("s", 3, 0).output("y")
                .node("r", "Reshape", List.of("x", "s"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(copy, Map.of())).hasMessageContaining("node 'r' (Reshape");
        // AveragePool dilations (opset 19): a window of 2 dilated by 2 spans 3
        Path dil = write("avgdil.onnx", new TinyOnnx().opset(19).input("x", 1L, 1L, 6L, 6L).output("y")
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{2, 2}, "dilations", new long[]{2, 2}).bytes());
        assertThat(OnnxImporter.load(dil, Map.of()).tensor("y").shape()).containsExactly(1, 1, 4, 4);
        Path dil18 = write("avgdil18.onnx", new TinyOnnx().opset(18).input("x", 1L, 1L, 6L, 6L).output("y")
                .node("p", "AveragePool", List.of("x"), List.of("y"), "kernel_shape", new long[]{2, 2}, "dilations", new long[]{2, 2}).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(dil18, Map.of())).hasMessageContaining("attribute 'dilations' needs opset 19");
        // BatchNormalization training_mode (opset 14): 1 takes the batch statistics (never silently the inference form); 2 is refused
        for (long mode = 1; mode <= 2; mode++) {
            TinyOnnx bn = new TinyOnnx().opset(15).input("x", 1L, 2L, 2L, 2L).output("y");
            for (String w : List.of("sc", "b", "m", "v")) bn.raw(w, new float[]{1, 1}, 2);
            Path train = write("bn.onnx", bn.node("bn", "BatchNormalization", List.of("x", "sc", "b", "m", "v"), List.of("y"), "training_mode", mode).bytes());
            if (mode == 1) assertThat(OnnxImporter.load(train, Map.of()).ops()).extracting(org.arenaplan.ir.Op::kind).containsExactly("BatchNormalizationTraining");
            else assertThatThrownBy(() -> OnnxImporter.load(train, Map.of())).hasMessageContaining("attribute 'training_mode' = 2 is out of range [0, 1]");
        }
    }

    @Test
    void truncatedRealModel() throws Exception {
        Path real = OnnxModelsTest.model("light_squeezenet.onnx");
        byte[] bytes = Files.readAllBytes(real);
        Path p = write("squeeze_cut.onnx", Arrays.copyOf(bytes, bytes.length * 2 / 3));
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining(p.toString()).hasMessageContaining("truncated").hasMessageContaining("of " + (bytes.length * 2 / 3) + ")");
    }

    @Test
    void aDeclaredOutputShapeThatDiffersFromTheInferredOne() throws Exception {
        Path ok = write("ok.onnx", new TinyOnnx().input("x", 2L, 4L).output("y", 2L, 4L).node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(ok, Map.of()).tensor("y").shape()).containsExactly(2, 4);
        Path p = write("lie.onnx", new TinyOnnx().input("x", 2L, 4L).output("y", 2L, 5L).node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("graph output 'y' is declared [2, 5] but infers to [2, 4]");
        Path sym = write("sym.onnx", new TinyOnnx().input("x", "n", 4L).output("y", "n", 4L).node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(sym, Map.of("n", 3L)).tensor("y").shape()).containsExactly(3, 4);
        assertThat(OnnxImporter.load(ok, Map.of("x.0", 6L)).tensor("y").shape()).containsExactly(6, 4);
    }

    @Test
    void aDeclaredElementTypeThatDiffersFromTheInferredOne() throws Exception {
        Path p = write("int.onnx", new TinyOnnx().input("x", 2L, 4L).output(OnnxDTypes.INT32, "y", 2L, 4L).node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(p + ": graph output 'y' is declared with element type i32 (ONNX data_type 6) but infers to f32 (ONNX data_type 1, from the nodes that compute it)");
        // a dim override skips the stale shape check, not the type check
        assertThatThrownBy(() -> OnnxImporter.load(p, Map.of("x.0", 3L))).hasMessageContaining("graph output 'y' is declared with element type i32");
        Path vi = write("vi.onnx", new TinyOnnx().input("x", 2L, 4L).output("y").valueInfo(OnnxDTypes.INT64, "r", 2L, 4L)
                .node("act", "Relu", List.of("x"), List.of("r")).node("neg", "Neg", List.of("r"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(vi, Map.of())).hasMessageContaining("value_info 'r' is declared with element type i64 (ONNX data_type 7) but infers to f32");
        Path open = write("open.onnx", new TinyOnnx().input("x", 2L, 4L).outputOfType(0, "y").node("act", "Relu", List.of("x"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(open, Map.of()).tensor("y").dtype()).isEqualTo(org.arenaplan.ir.DType.F32);
    }

    @Test
    void anAttributeOutOfItsRangeIsNamedWithItsOp() throws Exception {
        Path conv = write("g0.onnx", new TinyOnnx().input("x", 1L, 2L, 4L, 4L).floats("w", 0.5f, 2L, 2L, 3L, 3L).output("y")
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "group", 0L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(conv, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(conv + ": node 'c' (Conv, #0, opset 13): attribute 'group' = 0 is out of range [1, 2147483647]");
        Path convT = write("gt0.onnx", new TinyOnnx().input("x", 1L, 2L, 4L, 4L).floats("w", 0.5f, 2L, 2L, 3L, 3L).output("y")
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y"), "group", 0L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(convT, Map.of())).hasMessageContaining("node 'ct' (ConvTranspose, #0, opset 13): attribute 'group' = 0 is out of range");
        // a flag is 0 or 1: ONNX Runtime reads Gemm's transA 5 as true but Reduce's keepdims 5 as false
        Path gemm = write("t5.onnx", new TinyOnnx().input("a", 3L, 2L).floats("b", 1f, 3L, 4L).output("y")
                .node("g", "Gemm", List.of("a", "b"), List.of("y"), "transA", 5L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(gemm, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(gemm + ": node 'g' (Gemm, #0, opset 13): attribute 'transA' = 5 is out of range [0, 1]");
        Path ok = write("t1.onnx", new TinyOnnx().input("a", 3L, 2L).floats("b", 1f, 3L, 4L).output("y")
                .node("g", "Gemm", List.of("a", "b"), List.of("y"), "transA", 1L).bytes());
        assertThat(OnnxImporter.load(ok, Map.of()).tensor("y").shape()).containsExactly(2, 4);
    }

    /**
     * review: MaxPool kernel 2 with pads 2 imported and ran, its border windows of padding alone
     * coming out -inf (AveragePool: no elements to average); ONNX Runtime refuses such pads
     * ("Pad should be smaller than kernel") and onnx.reference fails on them. Pads one smaller still import.
     */
    @Test
    void aPoolWhosePadsReachItsWindowIsRefusedNamingTheNode() throws Exception {
        for (String kind : List.of("MaxPool", "AveragePool", "LpPool")) {
            Path p = write(kind + ".onnx", new TinyOnnx().input("x", 1L, 1L, 4L, 4L).output("y")
                    .node("n", kind, List.of("x"), List.of("y"), "kernel_shape", new long[]{2, 2}, "pads", new long[]{0, 2, 0, 0}).bytes());
            assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).as(kind).isInstanceOf(OnnxException.class)
                    .hasMessageStartingWith(p + ": op 'n' (" + kind + ", position 0): ")
                    .hasMessageContaining("pads [0, 2, 0, 0] on spatial axis 1 are not smaller than the window 2 (kernel 2, dilation 1): a window would hold padding alone");
            Path ok = write(kind + "-ok.onnx", new TinyOnnx().input("x", 1L, 1L, 4L, 4L).output("y")
                    .node("n", kind, List.of("x"), List.of("y"), "kernel_shape", new long[]{2, 2}, "pads", new long[]{1, 1, 1, 1}).bytes());
            assertThat(OnnxImporter.load(ok, Map.of()).tensor("y").shape()).as(kind).containsExactly(1, 1, 5, 5);
        }
    }

    /** ONNX 0/1 attributes: ONNX Runtime reads a keepdims of 5 as false and a transA of 5 as true, so neither value is guessed. */
    @Test
    void aFlagOtherThanZeroOrOneIsRefusedNamingIt() throws Exception {
        Object[][] cases = {
                {"ReduceMax", "keepdims", List.of("x")},
                {"ArgMax", "keepdims", List.of("x")},
                {"Trilu", "upper", List.of("x")},
                {"MaxPool", "ceil_mode", List.of("x")},
        };
        for (Object[] c : cases) {
            TinyOnnx m = new TinyOnnx().opset(14).input("x", 1L, 2L, 4L, 4L).output("y");
            @SuppressWarnings("unchecked") List<String> in = (List<String>) c[2];
            if (c[0].equals("MaxPool")) m.node("n", "MaxPool", in, List.of("y"), "kernel_shape", new long[]{2, 2}, c[1], 5L);
            else m.node("n", (String) c[0], in, List.of("y"), c[1], 5L);
            Path p = write(c[0] + ".onnx", m.bytes());
            assertThatThrownBy(() -> OnnxImporter.load(p, Map.of())).as((String) c[0]).isInstanceOf(OnnxException.class)
                    .hasMessage(p + ": node 'n' (" + c[0] + ", #0, opset 14): attribute '" + c[1] + "' = 5 is out of range [0, 1]");
        }
        Path ok = write("keep0.onnx", new TinyOnnx().input("x", 1L, 2L, 4L, 4L).output("y").node("n", "ReduceMax", List.of("x"), List.of("y"), "keepdims", 0L).bytes());
        assertThat(OnnxImporter.load(ok, Map.of()).tensor("y").shape()).isEmpty();
    }

    /** An element-type attribute past the int range used to be truncated to a type: Cast to = 2^32 + 1 imported as a Cast to FLOAT (1). */
    @Test
    void anElementTypeCodePastTheIntRangeIsNoTypeNotATruncatedOne() throws Exception {
        long big = (1L << 32) + 1;
        Path cast = write("cast.onnx", new TinyOnnx().input(OnnxDTypes.INT32, "x", 4L).output("y", 4L)
                .node("c", "Cast", List.of("x"), List.of("y"), "to", big).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(cast, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(cast + ": node 'c' (Cast, #0, opset 13): attribute 'to' = " + big + " is not an ONNX element type (TensorProto.DataType 1 to 28)");
        Path folded = write("castc.onnx", new TinyOnnx().input("x", 4L).output("y", 4L).ints("w", 1, 2, 3, 4)
                .node("c", "Cast", List.of("w"), List.of("cw"), "to", big).node("a", "Add", List.of("x", "cw"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(folded, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessageContaining("node 'c' (Cast, #0, opset 13): attribute 'to' = " + big + " is not an ONNX element type (TensorProto.DataType 1 to 28)");
        Path eye = write("eye.onnx", new TinyOnnx().input("x", 3L, 3L).output("y", 3L, 3L).floats("w", 0f, 3L, 3L)
                .node("e", "EyeLike", List.of("w"), List.of("e"), "dtype", big).node("a", "Add", List.of("x", "e"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(eye, Map.of())).hasMessageContaining("node 'e' (EyeLike, #0, opset 13): attribute 'dtype' = " + big + " is not an ONNX element type");
        Path ok = write("ok.onnx", new TinyOnnx().input(OnnxDTypes.INT32, "x", 4L).output("y", 4L)
                .node("c", "Cast", List.of("x"), List.of("y"), "to", 1L).bytes());
        assertThat(OnnxImporter.load(ok, Map.of()).tensor("y").dtype()).isEqualTo(org.arenaplan.ir.DType.F32);
    }

    /**
     * Attributes read with a default in the importer: a value the node gives is range-checked
     * (Reshape's allowzero 5 was read as 1, HannWindow's periodic 7 as 1).
     */
    @Test
    void aFlagReadWithADefaultIsRangeCheckedToo() throws Exception {
        Path reshape = write("r.onnx", new TinyOnnx().opset(14).input("x", 2L, 3L).output("y", 3L, 2L).ints("s", 3, 2)
                .node("r", "Reshape", List.of("x", "s"), List.of("y"), "allowzero", 5L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(reshape, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(reshape + ": node 'r' (Reshape, #0, opset 14): attribute 'allowzero' = 5 is out of range [0, 1]");
        Path hann = write("h.onnx", new TinyOnnx().opset(17).input("x", 8L).output("y", 8L).scalar("n", 8)
                .node("w", "HannWindow", List.of("n"), List.of("hw"), "periodic", 7L).node("a", "Add", List.of("x", "hw"), List.of("y")).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(hann, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(hann + ": node 'w' (HannWindow, #0, opset 17): attribute 'periodic' = 7 is out of range [0, 1]");
        Path lrn = write("l.onnx", new TinyOnnx().input("x", 1L, 4L, 2L, 2L).output("y", 1L, 4L, 2L, 2L)
                .node("l", "LRN", List.of("x"), List.of("y"), "size", -3L).bytes());
        assertThatThrownBy(() -> OnnxImporter.load(lrn, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(lrn + ": node 'l' (LRN, #0, opset 13): attribute 'size' = -3 is out of range [1, 2147483647]");
    }

    /** TopK-1, LpNormalization-1 and OneHot-9 default to axis -1, and Gather-1 documents negative axes: all import before opset 11. */
    @Test
    void aNegativeAxisImportsBeforeOpset11() throws Exception {
        Path topk = write("topk9.onnx", new TinyOnnx().opset(9).input("x", 2L, 3L).output("v", 2L, 1L).output(OnnxDTypes.INT64, "i", 2L, 1L)
                .node("t", "TopK", List.of("x"), List.of("v", "i"), "k", 1L).bytes());
        assertThat(OnnxImporter.load(topk, Map.of()).tensor("v").shape()).containsExactly(2, 1);
        Path lp = write("lp9.onnx", new TinyOnnx().opset(9).input("x", 2L, 3L).output("y", 2L, 3L)
                .node("n", "LpNormalization", List.of("x"), List.of("y")).bytes());
        assertThat(OnnxImporter.load(lp, Map.of()).tensor("y").shape()).containsExactly(2, 3);
        Path gather = write("g9.onnx", new TinyOnnx().opset(9).input("x", 4L, 2L).input(OnnxDTypes.INT64, "i", 3L).output("y", 4L, 3L)
                .node("g", "Gather", List.of("x", "i"), List.of("y"), "axis", -1L).bytes());
        assertThat(OnnxImporter.load(gather, Map.of()).tensor("y").shape()).containsExactly(4, 3);
    }
}
