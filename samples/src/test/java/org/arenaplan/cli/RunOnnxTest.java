package org.arenaplan.cli;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.onnx.OnnxTensorFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code run} on ONNX models: --expect as allclose (one per output), --rtol/--atol, --donate-inputs; the real SqueezeNet 1.1. */
class RunOnnxTest {
    @TempDir
    Path dir;

    private static final Path REAL = Path.of("..", "..", "shared", "models", "real");

    /** x[2, 3] -> Relu -> y1, x -> Sigmoid -> y2. */
    private Path twoOutputs() throws Exception {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("two")
                .addInput(info("x", 2, 3)).addOutput(info("y1", 2, 3)).addOutput(info("y2", 2, 3))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("r").setOpType("Relu").addInput("x").addOutput("y1"))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("s").setOpType("Sigmoid").addInput("x").addOutput("y2"));
        Path p = dir.resolve("two.onnx");
        Files.write(p, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        return p;
    }

    private static OnnxMl.ValueInfoProto info(String name, long... dims) {
        OnnxMl.TensorShapeProto.Builder s = OnnxMl.TensorShapeProto.newBuilder();
        for (long d : dims) s.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        return OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(1).setShape(s))).build();
    }

    @Test
    void oneExpectPerOutputComparedLikeAllclose() throws Exception {
        Path model = twoOutputs();
        Path outs = dir.resolve("outs");
        Cli first = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", outs.toString());
        assertThat(first.code()).as(first.toString()).isZero();
        Cli both = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1",
                "--expect", "y1=" + outs.resolve("y1.pb"), "--expect", "y2=" + outs.resolve("y2.pb"));
        assertThat(both.code()).as(both.toString()).isZero();
        assertThat(both.out()).contains("(output 'y1', worst element").contains("(output 'y2', worst element").contains("0 of 6 outside");

        float[] y1 = OnnxTensorFile.read(outs.resolve("y1.pb")).value().floats();
        y1[5] += 0.5f;
        Path off = dir.resolve("off.pb");
        OnnxTensorFile.write(off, "y1", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, y1));
        Cli differs = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", "y1=" + off);
        assertThat(differs.code()).as(differs.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(differs.out()).contains(": NO (output 'y1', worst element [1, 2]:").contains("1 of 6 outside");
        Cli loose = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", "y1=" + off, "--atol", "0.6");
        assertThat(loose.code()).as(loose.toString()).isZero();
    }

    /**
     * A reference whose every element lies within atol would be matched by an output of zeros: the
     * match is printed, then a note says the comparison tests little (exports with random weights
     * can give such outputs). Not printed once an element is larger, nor with a smaller --atol.
     */
    @Test
    void aReferenceWithinAtolEverywhereIsNotedAsTestingLittle() throws Exception {
        Path model = twoOutputs();
        Path x = dir.resolve("x.pb"), outs = dir.resolve("outs");
        OnnxTensorFile.write(x, "x", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, new float[]{1e-7f, -2e-6f, 3e-6f, 0f, 4e-6f, -1f}));
        Cli first = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x, "--output", outs.toString());
        assertThat(first.code()).as(first.toString()).isZero();
        Cli small = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x,
                "--expect", "y1=" + outs.resolve("y1.pb"), "--expect", "y2=" + outs.resolve("y2.pb"));
        assertThat(small.code()).as(small.toString()).isZero();
        assertThat(small.out()).contains(": matches (output 'y1', ").contains(": matches (output 'y2', ")
                .contains("note: reference " + outs.resolve("y1.pb") + ": every element of output 'y1' lies within atol (largest |r| 4.00e-06 <= atol 1.00e-05), so an output of zeros would match it too")
                .doesNotContain("of output 'y2' lies within atol");
        Cli strict = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x,
                "--expect", "y1=" + outs.resolve("y1.pb"), "--atol", "1e-6");
        assertThat(strict.code()).as(strict.toString()).isZero();
        assertThat(strict.out()).contains(": matches (output 'y1', ").doesNotContain("lies within atol");
        Path zero = dir.resolve("zero.pb");
        OnnxTensorFile.write(zero, "x", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, new float[]{0f, -1f, 0f, -2f, 0f, -3f}));
        Cli zeros = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + zero,
                "--output", dir.resolve("zouts").toString());
        assertThat(zeros.code()).as(zeros.toString()).isZero();
        Cli exact = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + zero,
                "--expect", "y1=" + dir.resolve("zouts").resolve("y1.pb"), "--atol", "0");
        assertThat(exact.out()).contains("lies within atol (largest |r| 0.00 <= atol 0.00)").contains("whose outputs are larger")   // no smaller atol exists
                .doesNotContain("smaller --atol");
    }

    /**
     * review19: --expect compared a data-dependent output (NonZero's, planned at its upper bound [2, 6])
     * against the planned shape, not the actual one the run copies out ([2, 3]), so a right answer was NO.
     */
    @Test
    void aDataDependentOutputIsComparedInItsActualShape() throws Exception {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("nz")
                .addInput(info("x", 2, 3)).addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("y")
                        .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(7))))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("nz").setOpType("NonZero").addInput("x").addOutput("y"));
        Path model = dir.resolve("nz.onnx");
        Files.write(model, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        Path x = dir.resolve("x.pb"), ref = dir.resolve("y.pb");
        OnnxTensorFile.write(x, "x", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, 0, 2, 0, 5, 0, -1));
        OnnxTensorFile.write(ref, "y", org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{2, 3}, 0, 1, 1, 1, 0, 2));
        Cli r = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x, "--expect", "y=" + ref);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains(": matches (output 'y', ");
        // another count within the bound differs only as the values do: NO, exit 1; past the bound, or another rank or fixed extent: bad input, exit 2
        Path two = dir.resolve("two.pb");
        OnnxTensorFile.write(two, "y", org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{2, 2}, 0, 1, 1, 0));
        Cli fewer = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x, "--expect", "y=" + two);
        assertThat(fewer.code()).as(fewer.toString()).isEqualTo(1);
        assertThat(fewer.out()).contains("reference " + two + ": NO (output 'y' [2, 3] has 6 i64 values, the reference [2, 2] 4 i64)");
        Path seven = dir.resolve("seven.pb"), rows = dir.resolve("rows.pb");
        OnnxTensorFile.write(seven, "y", org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{2, 7}, new long[14]));
        OnnxTensorFile.write(rows, "y", org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{3, 3}, new long[9]));
        for (Path bad : new Path[]{seven, rows}) {
            Cli refused = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x, "--expect", "y=" + bad);
            assertThat(refused.code()).as(refused.toString()).isEqualTo(2);
            assertThat(refused.err().strip()).doesNotContain("\n").contains("--expect " + bad + ": the reference is i64 " + (bad == seven ? "[2, 7]" : "[3, 3]")
                    + " but output 'y' is i64 [2, 6] (axis 1 data-dependent, at most 6)");
        }
    }

    /**
     * A bounded output computed from a data-dependent one (NonZero, then Cast: ir.OpSpec.BoundedFlow) is
     * compared by --expect and written by --output in its actual shape [2, 3], not its bound [2, 6].
     */
    @Test
    void anOutputComputedFromADataDependentOneIsComparedAndWrittenInItsActualShape() throws Exception {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("nzcast")
                .addInput(info("x", 2, 3)).addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("z")
                        .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(1))))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("nz").setOpType("NonZero").addInput("x").addOutput("y"))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("cast").setOpType("Cast").addInput("y").addOutput("z")
                        .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("to").setI(1).setType(OnnxMl.AttributeProto.AttributeType.INT)));
        Path model = dir.resolve("nzcast.onnx");
        Files.write(model, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        Path x = dir.resolve("x.pb"), ref = dir.resolve("z.pb"), outs = dir.resolve("outs");
        OnnxTensorFile.write(x, "x", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, 0, 2, 0, 5, 0, -1));
        OnnxTensorFile.write(ref, "z", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, 0, 1, 1, 1, 0, 2));
        Cli r = Cli.run("run", model.toString(), "--device", "sim", "--mode", "all", "--iterations", "1", "--input", "x=" + x, "--expect", "z=" + ref,
                "--output", outs.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains(": matches (output 'z', ");
        assertThat(OnnxTensorFile.read(outs).value().shape()).containsExactly(2, 3);   // one output: --output names its file
    }

    /** Runs a model whose outputs, named {@code names} in order, are Relu, Neg and Sigmoid of its input x, with {@code --output outs}; the run must succeed. */
    private Cli runWritingOutputs(Path outs, String... names) throws Exception {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("clash").addInput(info("x", 2, 3));
        String[] ops = {"Relu", "Neg", "Sigmoid"};
        for (int i = 0; i < names.length; i++)
            g.addOutput(info(names[i], 2, 3)).addNode(OnnxMl.NodeProto.newBuilder().setName("n" + i).setOpType(ops[i]).addInput("x").addOutput(names[i]));
        Path model = dir.resolve("clash.onnx");
        Files.write(model, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        Cli r = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", outs.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        return r;
    }

    /** breaker18: outputs 'a/b' and 'a_b' were both written to a_b.pb, the second over the first ("wrote a_b.pb" twice). */
    @Test
    void outputsWhoseNamesMapToOneFileEachGetTheirOwn() throws Exception {
        Path outs = dir.resolve("outs");
        Cli r = runWritingOutputs(outs, "a/b", "a_b", "a_b_2");
        // tidy20: an output whose name is a plain file name keeps NAME.pb whatever the others are called (a_b_2 was written
        // a_b_2_2.pb and a/b took a_b_2.pb); a renamed output takes the next free suffix and its line names it
        assertThat(OnnxTensorFile.read(outs.resolve("a_b.pb")).name()).isEqualTo("a_b");
        assertThat(OnnxTensorFile.read(outs.resolve("a_b_2.pb")).name()).isEqualTo("a_b_2");
        assertThat(OnnxTensorFile.read(outs.resolve("a_b_3.pb")).name()).isEqualTo("a/b");
        assertThat(outs.resolve("a_b_2_2.pb")).doesNotExist();
        assertThat(r.out().lines().filter(l -> l.startsWith("wrote "))).containsExactly(
                "wrote " + outs.resolve("a_b_3.pb") + " (output 'a/b')", "wrote " + outs.resolve("a_b.pb"), "wrote " + outs.resolve("a_b_2.pb"));
    }

    /** A renamed output never takes a file another output is, or would be, written to, even where only the case differs. */
    @Test
    void aRenamedOutputAvoidsEveryPlainNameIgnoringCase() throws Exception {
        Path outs = dir.resolve("outs");
        Cli r = runWritingOutputs(outs, "A/b", "a_b", "y");
        assertThat(r.out().lines().filter(l -> l.startsWith("wrote "))).containsExactly(
                "wrote " + outs.resolve("A_b_2.pb") + " (output 'A/b')", "wrote " + outs.resolve("a_b.pb"), "wrote " + outs.resolve("y.pb"));
        assertThat(OnnxTensorFile.read(outs.resolve("A_b_2.pb")).name()).isEqualTo("A/b");
    }

    /** breaker10: an unnamed reference on a graph of several outputs was refused although the TensorProto names its output (as ONNX's test data do). */
    @Test
    void anUnnamedFileIsForTheTensorItsProtoNames() throws Exception {
        Path model = twoOutputs();
        Path outs = dir.resolve("outs");
        assertThat(Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", outs.toString()).code()).isZero();
        Cli both = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1",
                "--expect", outs.resolve("y2.pb").toString(), "--expect", outs.resolve("y1.pb").toString());
        assertThat(both.code()).as(both.toString()).isZero();
        assertThat(both.out()).contains("(output 'y1', worst element").contains("(output 'y2', worst element");

        float[] y1 = OnnxTensorFile.read(outs.resolve("y1.pb")).value().floats();
        y1[0] += 0.5f;
        Path off = dir.resolve("off.pb");   // its tensor is named y1: compared with y1, not refused, and found to differ
        OnnxTensorFile.write(off, "y1", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, y1));
        Cli differs = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", off.toString());
        assertThat(differs.code()).as(differs.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(differs.out()).contains(": NO (output 'y1', worst element [0, 0]:");

        Path other = dir.resolve("other.pb");
        OnnxTensorFile.write(other, "z", org.arenaplan.ir.TensorValue.ofFloats(new long[]{2, 3}, y1));
        Cli wrong = Cli.run("run", model.toString(), "--device", "sim", "--expect", other.toString());
        assertThat(wrong.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(wrong.err().strip()).doesNotContain("\n").startsWith("arenaplan: --expect " + other + ": the graph has 2 outputs [y1, y2] and the file's tensor is named 'z',"
                + " none of them; write --expect NAME=FILE.pb");
        Cli twice = Cli.run("run", model.toString(), "--device", "sim", "--expect", off.toString(), "--expect", "y1=" + off);
        assertThat(twice.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(twice.err()).contains("output 'y1' is given two references");
    }

    @Test
    void aShapeOperandGivenAsAGraphInputTakesItsValueFromInput() throws Exception {
        // y = Slice(x[6], starts, ends = [5]): starts is a graph input, so y's shape is the --input value's
        OnnxMl.TensorProto ends = OnnxMl.TensorProto.newBuilder().setName("ends").setDataType(7).addDims(1).addInt64Data(5).build();
        OnnxMl.ValueInfoProto starts = OnnxMl.ValueInfoProto.newBuilder().setName("starts").setType(OnnxMl.TypeProto.newBuilder()
                .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(7).setShape(OnnxMl.TensorShapeProto.newBuilder()
                        .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(1))))).build();
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("slice").addInput(info("x", 6)).addInput(starts)
                .addInitializer(ends).addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("y"))
                .addNode(OnnxMl.NodeProto.newBuilder().setName("sl").setOpType("Slice").addInput("x").addInput("starts").addInput("ends").addOutput("y"));
        Path model = dir.resolve("slice.onnx");
        Files.write(model, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        Path x = dir.resolve("x.pb"), s = dir.resolve("s.pb"), want = dir.resolve("want.pb");
        OnnxTensorFile.write(x, "x", org.arenaplan.ir.TensorValue.ofFloats(new long[]{6}, 0, 1, 2, 3, 4, 5));
        OnnxTensorFile.write(s, "starts", org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{1}, 2));
        OnnxTensorFile.write(want, "y", org.arenaplan.ir.TensorValue.ofFloats(new long[]{3}, 2, 3, 4));
        Cli run = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1",
                "--input", "x=" + x, "--input", "starts=" + s, "--expect", "y=" + want);
        assertThat(run.code()).as(run.toString()).isZero();
        Cli without = Cli.run("run", model.toString(), "--device", "sim", "--input", "x=" + x);
        assertThat(without.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(without.err()).contains("node 'sl' (Slice").contains("starts (input #1 'starts') must be a constant known at import time")
                .contains("a graph input whose value --input starts=FILE.pb gives");
        // plan takes the same value (breaker10: 302 node-test models ran but could not be planned)
        Cli plan = Cli.run("plan", model.toString(), "--input", "starts=" + s);
        assertThat(plan.code()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("tensors            3");
        Cli unnamed = Cli.run("plan", model.toString(), "--input", s.toString());
        assertThat(unnamed.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unnamed.err()).contains("plan needs NAME=FILE.pb");
        Cli wrongType = Cli.run("plan", model.toString(), "--input", "starts=" + s, "--input", "x=" + s);
        assertThat(wrongType.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(wrongType.err()).contains("--input x=" + s + ": holds i64 values but input 'x' is f32");
        assertThat(Cli.run("plan", "--model", "mlp", "--input", "starts=" + s).code()).isEqualTo(ExitCodes.BAD_INPUT);
        // a misspelt name was hidden by the shape operand's refusal (breaker10)
        for (String command : new String[]{"plan", "run"}) {
            Cli misspelt = Cli.run(command, model.toString(), "--input", "start=" + s);
            assertThat(misspelt.code()).as(misspelt.toString()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(misspelt.err().strip()).as(command).isEqualTo("arenaplan: " + model + ": --input names no graph input of this model: [start] (its graph inputs: [x, starts])");
        }
    }

    @Test
    void expectMistakesAreUsageErrors() throws Exception {
        Path model = twoOutputs();
        Cli unnamed = Cli.run("run", model.toString(), "--device", "sim", "--expect", dir.resolve("y.pb").toString());
        assertThat(unnamed.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unnamed.err()).contains("the graph has 2 outputs [y1, y2]; write --expect NAME=FILE.pb");
        Cli negative = Cli.run("run", model.toString(), "--device", "sim", "--rtol", "-1");
        assertThat(negative.code()).isEqualTo(ExitCodes.BAD_INPUT);
        Cli missing = Cli.run("run", model.toString(), "--device", "sim", "--expect", "y1=" + dir.resolve("nope.pb"));
        assertThat(missing.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(missing.err()).contains("nope.pb: no such file");
        assertThat(Cli.run("plan", "--model", "mlp", "--donate-inputs").code()).isEqualTo(ExitCodes.BAD_INPUT);
        // tolerances without a reference were ignored (breaker10)
        Cli noExpect = Cli.run("run", model.toString(), "--device", "sim", "--atol", "0.5");
        assertThat(noExpect.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(noExpect.err()).contains("--rtol and --atol are --expect's tolerances");
        Cli nothing = Cli.run("run", "--device", "sim");
        assertThat(nothing.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(nothing.err()).contains("missing input: give GRAPH.json, MODEL.onnx or --model NAME");
    }

    @Test
    void donatedInputsLowerTheLowerBound() throws Exception {
        Path model = twoOutputs();
        Cli kept = Cli.run("plan", model.toString(), "--align", "1");
        Cli donated = Cli.run("plan", model.toString(), "--align", "1", "--donate-inputs");
        assertThat(kept.code()).as(kept.toString()).isZero();
        assertThat(donated.code()).as(donated.toString()).isZero();
        // x (24 B) lives to the end unless donated; then Sigmoid may overwrite it in place
        assertThat(kept.out()).containsPattern("lower bound +72 B");
        assertThat(donated.out()).containsPattern("lower bound +48 B");
    }

    @Test
    void realSqueezeNetWithItsWeightsMatchesOnnxRuntime() {
        Path model = REAL.resolve("squeezenet1_1.onnx");
        if (!Files.exists(model)) System.out.println("skipped: " + REAL + " not found (a user's clone has no shared data)");
        assumeTrue(Files.exists(model), "../shared/models/real not found");
        Cli r = Cli.run("run", model.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1",
                "--input", REAL.resolve("squeezenet1_1_input_0.pb").toString(), "--expect", REAL.resolve("squeezenet1_1_output_0.pb").toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains(": matches (output 'output', worst element").contains("0 of 1000 outside");
    }
}
