package org.arenaplan.cli;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.onnx.OnnxTensorFile;
import org.arenaplan.onnx.OnnxValue;
import org.arenaplan.onnx.OnnxValueFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code run} and {@code plan} on an ONNX model with a sequence input and output: --input binds it, --output writes and --expect compares a SequenceProto. */
class RunSequenceTest {
    @TempDir
    Path dir;

    private static final TensorValue A = TensorValue.ofFloats(new long[]{2, 3}, 1, 2, 3, 4, 5, 6), B = TensorValue.ofFloats(new long[]{1, 3}, 7, 8, 9);

    /** ys = the sequence xs with Concat(xs) appended (opset 17). */
    private Path model() throws Exception {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("seq").addInput(sequence("xs")).addOutput(sequence("ys"))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("cat").setOpType("ConcatFromSequence").addInput("xs").addOutput("y")
                        .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axis").setType(OnnxMl.AttributeProto.AttributeType.INT).setI(0)))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("ins").setOpType("SequenceInsert").addInput("xs").addInput("y").addOutput("ys"));
        Path p = dir.resolve("seq.onnx");
        Files.write(p, OnnxMl.ModelProto.newBuilder().setIrVersion(8).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(17)).build().toByteArray());
        return p;
    }

    private static OnnxMl.ValueInfoProto sequence(String name) {
        OnnxMl.TypeProto element = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(1)).build();
        return OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setSequenceType(OnnxMl.TypeProto.Sequence.newBuilder().setElemType(element))).build();
    }

    private Cli run(Path model, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--warmup", "0"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(new String[0]));
    }

    @Test
    void aSequenceInputIsBoundAndASequenceOutputWrittenAndCompared() throws Exception {
        Path model = model(), xs = dir.resolve("xs.pb"), ys = dir.resolve("ys.pb");
        OnnxValueFile.write(xs, "xs", new OnnxValue.Sequence(List.of(A, B)));
        Cli first = run(model, "--input", "xs=" + xs, "--output", ys.toString());
        assertThat(first.code()).as(first.toString()).isZero();
        OnnxValue.Sequence out = (OnnxValue.Sequence) OnnxValueFile.read(ys, OnnxValue.Sequence.class);
        assertThat(out.tensors()).hasSize(3);
        assertThat(out.tensors().get(2).shape()).containsExactly(3, 3);
        assertThat(out.tensors().get(2).floats()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);

        Cli same = run(model, "--input", "xs=" + xs, "--expect", "ys=" + ys);
        assertThat(same.code()).as(same.toString()).isZero();
        assertThat(same.out()).contains("reference " + ys + ": matches (output 'ys', a sequence of 3 tensors)");
        Path shorter = dir.resolve("two.pb");
        OnnxValueFile.write(shorter, "ys", new OnnxValue.Sequence(List.of(A, B)));
        Cli differs = run(model, "--input", "xs=" + xs, "--expect", "ys=" + shorter);
        assertThat(differs.code()).as(differs.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(differs.out()).contains("reference " + shorter + ": NO (output 'ys' is a sequence of 3 tensors, the reference a sequence of 2 tensors)");

        Cli plan = Cli.run("plan", model.toString(), "--input", "xs=" + xs);
        assertThat(plan.code()).as(plan.toString()).isZero();
    }

    @Test
    void aSequenceInputWithoutItsValueOrWithATensorFileIsRefusedInOneLine() throws Exception {
        Path model = model();
        Cli bare = Cli.run("plan", model.toString());
        assertThat(bare.code()).as(bare.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bare.err().strip()).doesNotContain("\n").contains("graph input 'xs' is a sequence").contains("give its value with --input xs=FILE.pb (a SequenceProto");
        Path tensor = dir.resolve("t.pb");
        OnnxTensorFile.write(tensor, "xs", A);
        Cli wrong = run(model, "--input", "xs=" + tensor);
        assertThat(wrong.code()).as(wrong.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(wrong.err().strip()).doesNotContain("\n").contains("--input xs (a sequence): " + tensor + ": not a SequenceProto of tensors");
    }

    /** y = OptionalGetElement(xo): an optional input holding a tensor (opset 18). */
    private Path optionalModel() throws Exception {
        OnnxMl.TypeProto tensor = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(1)).build();
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("opt")
                .addInput(OnnxMl.ValueInfoProto.newBuilder().setName("xo").setType(OnnxMl.TypeProto.newBuilder().setOptionalType(OnnxMl.TypeProto.Optional.newBuilder().setElemType(tensor))))
                .addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("y").setType(tensor))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("get").setOpType("OptionalGetElement").addInput("xo").addOutput("y"));
        Path p = dir.resolve("opt.onnx");
        Files.write(p, OnnxMl.ModelProto.newBuilder().setIrVersion(8).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(18)).build().toByteArray());
        return p;
    }

    @Test
    void anUnnamedFileForASequenceOrOptionalInputIsRefusedSayingItMustBeNamed() throws Exception {
        Path xs = dir.resolve("xs.pb"), xo = dir.resolve("xo.pb");
        OnnxValueFile.write(xs, "xs", new OnnxValue.Sequence(List.of(A, B)));
        OnnxValueFile.write(xo, "xo", new OnnxValue.Optional(new OnnxValue.Tensor(A)));
        Cli seq = run(model(), "--input", xs.toString());
        assertThat(seq.code()).as(seq.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(seq.err().strip()).doesNotContain("\n").contains("--input " + xs + ": graph input 'xs' is a sequence, so its file must be named:")
                .contains("write --input xs=FILE.pb (a SequenceProto, onnx-data.proto)");
        Cli opt = run(optionalModel(), "--input", xo.toString());
        assertThat(opt.code()).as(opt.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(opt.err().strip()).doesNotContain("\n").contains("--input " + xo + ": graph input 'xo' is an optional, so its file must be named:")
                .contains("write --input xo=FILE.pb (an OptionalProto, onnx-data.proto)");
        Cli named = run(optionalModel(), "--input", "xo=" + xo);
        assertThat(named.code()).as(named.toString()).isZero();
    }
}
