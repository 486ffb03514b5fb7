package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.AllClose;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sequence and optional graph inputs bound at import to a given value, and sequence outputs read back ({@link OnnxEdges}). */
class SequenceEdgesTest {
    @TempDir
    Path dir;

    private static final TensorValue A = TensorValue.ofFloats(new long[]{2, 3}, 1, 2, 3, 4, 5, 6), B = TensorValue.ofFloats(new long[]{1, 3}, 7, 8, 9);

    /** ys = the sequence xs with y = Concat(xs) appended: a sequence input and a sequence output. */
    private Path concatModel() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).sequenceInput(OnnxDTypes.FLOAT, "xs").sequenceOutput(OnnxDTypes.FLOAT, "ys")
                .node("cat", "ConcatFromSequence", List.of("xs"), List.of("y"), "axis", 0L)
                .node("ins", "SequenceInsert", List.of("xs", "y"), List.of("ys"));
        Path file = dir.resolve("concat.onnx");
        Files.write(file, m.bytes());
        return file;
    }

    private static Map<String, TensorValue> run(OnnxImporter.Imported imp, Map<String, TensorValue> inputs) {
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            return Executors.run(ArenaPlanner.plan(imp.graph()), device, List.of(Mode.PLANNED), 1, inputs, 1).last(Mode.PLANNED).outputs();
        }
    }

    @Test
    void aSequenceInputBecomesOneGraphInputPerElementAndASequenceOutputIsReadBack() throws Exception {
        OnnxImporter.Imported imp = OnnxImporter.importModel(concatModel(),
                OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("xs", new OnnxValue.Sequence(List.of(A, B)))));
        assertThat(imp.graph().inputs()).containsExactly("xs[0]", "xs[1]");
        assertThat(imp.graph().tensor("xs[1]").shape()).containsExactly(1, 3);
        assertThat(imp.graph().outputs()).containsExactly("ys[0]", "ys[1]", "ys[2]");
        assertThat(imp.edges().inputs()).containsExactly("xs");
        assertThat(imp.edges().kind("xs")).isEqualTo(OnnxValue.Sequence.class);
        Map<String, TensorValue> in = imp.edges().feed("xs", new OnnxValue.Sequence(List.of(A, B)), "xs.pb");
        OnnxValue ys = imp.edges().value("ys", run(imp, in));
        TensorValue cat = TensorValue.ofFloats(new long[]{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        OnnxValue want = new OnnxValue.Sequence(List.of(A, B, cat));
        assertThat(OnnxValueMatch.mismatch(ys, want, SequenceEdgesTest::tensorMismatch)).isNull();
        // written as a SequenceProto and read back, it is the same value
        Path file = dir.resolve("ys.pb");
        OnnxValueFile.write(file, "ys", ys);
        assertThat(OnnxValueMatch.mismatch(OnnxValueFile.read(file, OnnxValue.Sequence.class), want, SequenceEdgesTest::tensorMismatch)).isNull();
        // compared element by element: a shorter reference, and one whose last element differs
        assertThat(OnnxValueMatch.mismatch(ys, new OnnxValue.Sequence(List.of(A, B)), SequenceEdgesTest::tensorMismatch))
                .isEqualTo("is a sequence of 3 tensors, the reference a sequence of 2 tensors");
        assertThat(OnnxValueMatch.mismatch(ys, new OnnxValue.Sequence(List.of(A, B, TensorValue.ofFloats(new long[]{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 0))),
                SequenceEdgesTest::tensorMismatch)).startsWith("element 2 ");
        // a value of another length than the one bound at import is refused naming the file and the input
        assertThatThrownBy(() -> imp.edges().feed("xs", new OnnxValue.Sequence(List.of(A)), "one.pb")).isInstanceOf(OnnxException.class)
                .hasMessage("one.pb: graph input 'xs' was bound at import to a sequence of 2 tensors but the file holds a sequence of 1 tensor");
    }

    private static String tensorMismatch(TensorValue got, TensorValue want) {
        if (got.dtype() != want.dtype() || got.elements() != want.elements()) return "has " + got.elements() + " values, the reference " + want.elements();
        AllClose c = AllClose.compare(got, want, 1e-6, 0);
        return c.ok() ? null : c.describe(want.shape());
    }

    @Test
    void aSequenceInputWithoutAValueIsRefusedInOneLineSayingHowToGiveIt() throws Exception {
        Path file = concatModel();
        assertThatThrownBy(() -> OnnxImporter.load(file, Map.of())).isInstanceOf(OnnxException.class)
                .hasMessage(file + ": graph input 'xs' is a sequence, whose length and element shapes arenaplan fixes at import:"
                        + " give its value with --input xs=FILE.pb (a SequenceProto, onnx-data.proto)");
        assertThatThrownBy(() -> OnnxImporter.load(file, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("xs", new OnnxValue.Optional(null)))))
                .isInstanceOf(OnnxException.class).hasMessage(file + ": graph input 'xs' is a sequence but the value given for it is an absent optional");
    }

    @Test
    void aTensorProtoFileIsNoSequenceProto() {
        Path t = dir.resolve("t.pb");
        OnnxTensorFile.write(t, "xs", A);
        assertThatThrownBy(() -> OnnxValueFile.read(t, OnnxValue.Sequence.class)).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(t + ": not a SequenceProto of tensors: it has field number(s) [")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> OnnxValueFile.read(t, OnnxValue.Optional.class)).isInstanceOf(OnnxException.class)
                .hasMessageStartingWith(t + ": not an OptionalProto of tensors");
    }

    @Test
    void aSequenceOrOptionalFileWhereATensorIsExpectedIsNamedSo() {
        // a SequenceProto's tensor_values (field 3) read as a TensorProto were its segment: the message spoke of dims from the name's bytes
        Path s = dir.resolve("s.pb");
        OnnxValueFile.write(s, "x", new OnnxValue.Sequence(List.of(A, B)));
        assertThatThrownBy(() -> OnnxTensorFile.read(s)).isInstanceOf(OnnxException.class)
                .hasMessage(s + ": not a TensorProto: it holds a SequenceProto of 2 tensors (onnx-data.proto), where a tensor is expected");
        Path o = dir.resolve("o.pb");
        OnnxValueFile.write(o, "x", new OnnxValue.Optional(new OnnxValue.Tensor(A)));
        assertThatThrownBy(() -> OnnxTensorFile.read(o)).isInstanceOf(OnnxException.class)
                .hasMessage(o + ": not a TensorProto: it holds a SequenceProto or OptionalProto of one tensor (onnx-data.proto), where a tensor is expected");
        // a SequenceProto of 2 read as an OptionalProto: its two tensor_values merged into one tensor before
        assertThatThrownBy(() -> OnnxValueFile.read(s, OnnxValue.Optional.class)).isInstanceOf(OnnxException.class)
                .hasMessage(s + ": not an OptionalProto: it holds 2 tensors (field 3, 2 times), as a SequenceProto of 2 tensors does; an OptionalProto holds one value");
    }

    /**
     * onnx-data.proto numbers SequenceProto's and OptionalProto's fields alike (name 1, elem_type 2,
     * tensor_values / tensor_value 3, sequence_values / sequence_value 5) and their DataType codes
     * alike (TENSOR 1, SEQUENCE 3): a sequence of one tensor and an optional holding it are the same
     * bytes, so each file reads as the other kind; what does differ on the wire is refused naming the file.
     */
    @Test
    void aSequenceOfOneTensorAndAnOptionalHoldingItAreTheSameBytes() throws Exception {
        Path s = dir.resolve("s1.pb"), o = dir.resolve("o1.pb");
        OnnxValueFile.write(s, "x", new OnnxValue.Sequence(List.of(A)));
        OnnxValueFile.write(o, "x", new OnnxValue.Optional(new OnnxValue.Tensor(A)));
        assertThat(Files.readAllBytes(s)).isEqualTo(Files.readAllBytes(o));
        assertThat(OnnxValueFile.read(s, OnnxValue.Optional.class).describe()).isEqualTo("an optional holding a tensor");
        assertThat(OnnxValueFile.read(o, OnnxValue.Sequence.class).describe()).isEqualTo("a sequence of 1 tensor");
        // an optional holding a sequence is a SequenceProto holding one sequence (elem_type 3): refused for a sequence input, saying what it may be
        Path os = dir.resolve("os.pb");
        OnnxValueFile.write(os, "x", new OnnxValue.Optional(new OnnxValue.Sequence(List.of(A, B))));
        assertThatThrownBy(() -> OnnxValueFile.read(os, OnnxValue.Sequence.class)).isInstanceOf(OnnxException.class)
                .hasMessage(os + ": SequenceProto elem_type 3; arenaplan takes sequences of tensors (elem_type 1) only"
                        + " (an OptionalProto holding a sequence has these bytes: onnx-data.proto numbers both messages' fields alike; it is a value for an optional input)");
    }

    /** tidy20: a sequence input named as another's first element ('x' and 'x[0]') was refused as "a tensor (or has an initializer)": the element took its name. */
    @Test
    void anElementNeverTakesTheNameOfAnotherGraphInput() throws Exception {
        TinyOnnx m = new TinyOnnx().opset(17).sequenceInput(OnnxDTypes.FLOAT, "x").sequenceInput(OnnxDTypes.FLOAT, "x[0]").output("y").output("z")
                .node("cx", "ConcatFromSequence", List.of("x"), List.of("y"), "axis", 0L)
                .node("cz", "ConcatFromSequence", List.of("x[0]"), List.of("z"), "axis", 0L);
        Path file = dir.resolve("names.onnx");
        Files.write(file, m.bytes());
        OnnxImporter.Imported imp = OnnxImporter.importModel(file, OnnxImporter.Options.DEFAULT.withSequenceInputs(
                Map.of("x", new OnnxValue.Sequence(List.of(A)), "x[0]", new OnnxValue.Sequence(List.of(B)))));
        assertThat(imp.graph().inputs()).containsExactly("x[0]_", "x[0][0]");
        assertThat(imp.graph().tensor("x[0][0]").shape()).containsExactly(1, 3);
        assertThat(imp.graph().tensor("y").shape()).containsExactly(2, 3);
    }

    @Test
    void aValueOfAnotherTypeThanTheInputDeclaresIsRefusedNamingTheElement() throws Exception {
        Path file = concatModel();   // xs: a sequence of f32 tensors
        TensorValue ints = new TensorValue(DType.I64, new long[]{1, 3}, new byte[24]);
        assertThatThrownBy(() -> OnnxImporter.importModel(file, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("xs", new OnnxValue.Sequence(List.of(A, ints))))))
                .isInstanceOf(OnnxException.class)
                .hasMessage(file + ": graph input 'xs' element 1 holds i64 values, but the model declares a sequence of tensors of element type f32");
        Path shaped = dir.resolve("shaped.onnx");
        Files.write(shaped, new TinyOnnx().opset(17).sequenceInput(OnnxDTypes.FLOAT, "xs", 1, 3).outputOfType(OnnxDTypes.FLOAT, "y")
                .node("cat", "ConcatFromSequence", List.of("xs"), List.of("y"), "axis", 0L).bytes());
        assertThat(OnnxImporter.importModel(shaped, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("xs", new OnnxValue.Sequence(List.of(B))))).graph()).isNotNull();
        assertThatThrownBy(() -> OnnxImporter.importModel(shaped, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("xs", new OnnxValue.Sequence(List.of(B, A))))))
                .isInstanceOf(OnnxException.class)
                .hasMessage(shaped + ": graph input 'xs' element 1 is [2, 3], but the model declares a sequence of tensors of shape [1, 3]");
        Path opt = dir.resolve("opt.onnx");   // o: an optional f32 tensor
        Files.write(opt, new TinyOnnx().opset(18).optionalInput(OnnxDTypes.FLOAT, "o").output(OnnxDTypes.BOOL, "h")
                .node("has", "OptionalHasElement", List.of("o"), List.of("h")).bytes());
        assertThatThrownBy(() -> OnnxImporter.importModel(opt, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("o", new OnnxValue.Optional(new OnnxValue.Sequence(List.of(A, B)))))))
                .isInstanceOf(OnnxException.class)
                .hasMessage(opt + ": graph input 'o' is declared an optional holding a tensor but the value given holds a sequence of 2 tensors");
        assertThatThrownBy(() -> OnnxImporter.importModel(opt, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("o", new OnnxValue.Optional(new OnnxValue.Tensor(ints))))))
                .isInstanceOf(OnnxException.class)
                .hasMessage(opt + ": graph input 'o' (its tensor) holds i64 values, but the model declares an optional holding a tensor of element type f32");
    }

    @Test
    void anOptionalInputIsPresentOrAbsentAsItsValueSays() throws Exception {
        // y = OptionalHasElement(o): a weight at import, true or false as the value given
        TinyOnnx m = new TinyOnnx().opset(18).optionalInput(OnnxDTypes.FLOAT, "o").output(OnnxDTypes.BOOL, "has")
                .node("has", "OptionalHasElement", List.of("o"), List.of("h")).node("id", "Identity", List.of("h"), List.of("has"));
        Path file = dir.resolve("opt.onnx");
        Files.write(file, m.bytes());
        for (OnnxValue.Optional v : List.of(new OnnxValue.Optional(null), new OnnxValue.Optional(new OnnxValue.Tensor(B)))) {
            Path pb = dir.resolve("o.pb");
            OnnxValueFile.write(pb, "o", v);
            OnnxValue read = OnnxValueFile.read(pb, OnnxValue.Optional.class);
            assertThat(read.describe()).isEqualTo(v.describe());
            OnnxImporter.Imported imp = OnnxImporter.importModel(file, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("o", read)));
            assertThat(imp.graph().inputs()).isEqualTo(v.element() == null ? List.of() : List.of("o.value"));
            TensorValue has = run(imp, imp.edges().feed("o", read, "o.pb")).get("has");
            assertThat(has.dtype()).isEqualTo(DType.BOOL);
            assertThat(has.bytes()[0]).isEqualTo((byte) (v.element() == null ? 0 : 1));
        }
        // review19: bound to an optional holding a tensor, a value holding a sequence of one tensor was fed to it
        OnnxImporter.Imported imp = OnnxImporter.importModel(file, OnnxImporter.Options.DEFAULT.withSequenceInputs(Map.of("o", new OnnxValue.Optional(new OnnxValue.Tensor(B)))));
        assertThatThrownBy(() -> imp.edges().feed("o", new OnnxValue.Optional(new OnnxValue.Sequence(List.of(B))), "seq.pb")).isInstanceOf(OnnxException.class)
                .hasMessage("seq.pb: graph input 'o' was bound at import to an optional holding a tensor but the file holds an optional holding a sequence of 1 tensor");
    }
}
