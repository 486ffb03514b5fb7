package org.arenaplan.cli;

import ai.onnx.proto.OnnxMl;
import org.arenaplan.onnx.OnnxTensorFile;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a new user tried that ended in a stack trace, an "internal error", a misleading line or a
 * silently ignored flag: each is now exit 2 with one line naming the file and what is wrong, or
 * does what the flag says.
 */
class NewUserInputTest {
    @TempDir
    Path dir;

    private static void oneLine(Cli r, int code, String... parts) {
        assertThat(r.code()).as(r.toString()).isEqualTo(code);
        assertThat(r.err().strip()).as(r.toString()).doesNotContain("\n").contains(parts)
                .doesNotContain("Exception", "internal error", "\tat ");
    }

    /** A float value info; each dim a Long or a String (symbolic). */
    private static OnnxMl.ValueInfoProto info(String name, int elemType, Object... dims) {
        OnnxMl.TensorShapeProto.Builder s = OnnxMl.TensorShapeProto.newBuilder();
        for (Object d : dims) {
            OnnxMl.TensorShapeProto.Dimension.Builder b = OnnxMl.TensorShapeProto.Dimension.newBuilder();
            if (d instanceof String p) b.setDimParam(p);
            else b.setDimValue((Long) d);
            s.addDim(b);
        }
        return OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(elemType).setShape(s))).build();
    }

    private Path model(String file, OnnxMl.GraphProto.Builder g) throws Exception {
        Path p = dir.resolve(file);
        Files.write(p, OnnxMl.ModelProto.newBuilder().setIrVersion(7).setGraph(g.setName("g"))
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build().toByteArray());
        return p;
    }

    private static OnnxMl.NodeProto.Builder node(String name, String op, String... inputsThenOutput) {
        OnnxMl.NodeProto.Builder n = OnnxMl.NodeProto.newBuilder().setName(name).setOpType(op);
        for (int i = 0; i < inputsThenOutput.length - 1; i++) n.addInput(inputsThenOutput[i]);
        return n.addOutput(inputsThenOutput[inputsThenOutput.length - 1]);
    }

    /** bert_tiny's plan listed 7 "in-place refused" lines for hints the ONNX importer made itself, not the user: one line counts them now. */
    @Test
    void inPlaceHintsTheImporterMadeAreCountedInOneLine() throws Exception {
        // x -> Exp -> t; the importer's hint for Neg over t is refused, as Add reads t later
        Path m = model("hint.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 4L)).addOutput(info("y", 1, 4L))
                .addNode(node("e", "Exp", "x", "t")).addNode(node("n", "Neg", "t", "u")).addNode(node("a", "Add", "t", "u", "y")));
        for (Cli r : List.of(Cli.run("plan", m.toString()), Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1"))) {
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).as(r.toString()).contains("  refused            1 request\n    in-place hints arenaplan made itself (an ONNX model declares none), not taken: 1"
                    + " (each output keeps bytes of its own; plan --out FILE.json lists them), e.g. op 'n' writing 'u' over 't': 't' is read later by op 'a'")
                    .doesNotContain("in-place refused:");
        }
    }

    /** x[N, 4] -> Relu -> y. */
    private Path dynamicRelu() throws Exception {
        return model("dyn.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, "N", 4L)).addOutput(info("y", 1, "N", 4L))
                .addNode(node("r", "Relu", "x", "y")));
    }

    @Test
    void severalDimValuesRefuseOutputFilesAndTheWorstCaseWritesItsOnePlan() throws Exception {
        Path m = dynamicRelu();
        Path json = dir.resolve("plan.json");
        oneLine(Cli.run("plan", m.toString(), "--dim", "N=1,2,3", "--out", json.toString()), 2, "--out, --svg and --html write one plan", "--worst-case");
        oneLine(Cli.run("plan", m.toString(), "--dim", "N=1,2", "--svg", dir.resolve("p.svg").toString()), 2, "--out, --svg and --html write one plan");
        oneLine(Cli.run("plan", m.toString(), "--dim", "N=1,2", "--capacity", "100"), 2, "--capacity, --streams and --sync plan one shape");
        oneLine(Cli.run("plan", m.toString(), "--dim", "N=1,2", "--worst-case", "--out", dir.resolve("no/such/folder.json").toString()), 2, "does not exist");
        assertThat(json).doesNotExist();

        Path svg = dir.resolve("worst.svg");
        Cli worst = Cli.run("plan", m.toString(), "--dim", "N=1,8", "--worst-case", "--out", json.toString(), "--svg", svg.toString());
        assertThat(worst.code()).as(worst.toString()).isZero();
        assertThat(worst.out()).contains("worst case {N=8}: one arena of 512 B", "wrote " + json, "wrote " + svg);
        assertThat(Files.readString(json)).contains("\"arenaplan-plan/1\"").contains("\"bytes\" : 128");   // x[8, 4] f32: the largest shape
        assertThat(svg).isNotEmptyFile();
    }

    /** breaker20: --dim N=0 was refused as "not a positive integer" though a zero-size --input file runs; ONNX allows a 0 dim. */
    @Test
    void aDimOfZeroPlansRunsAndSweeps() throws Exception {
        Path m = dynamicRelu();
        Cli plan = Cli.run("plan", m.toString(), "--dim", "N=0");
        assertThat(plan.code()).as(plan.toString()).isZero();
        Path y = dir.resolve("y0.pb");
        Cli run = Cli.run("run", m.toString(), "--device", "sim", "--mode", "all", "--iterations", "1", "--dim", "N=0", "--output", y.toString());
        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(OnnxTensorFile.read(y).value().shape()).containsExactly(0, 4);
        Cli sweep = Cli.run("plan", m.toString(), "--dim", "N=0,2", "--worst-case");
        assertThat(sweep.code()).as(sweep.toString()).isZero();
        assertThat(sweep.out()).contains("worst case {N=2}");
        oneLine(Cli.run("plan", m.toString(), "--dim", "N=-1"), 2, "--dim 'N=-1': '-1' is not an integer of at least 0");
        oneLine(Cli.run("plan", m.toString(), "--dim", "N=99999999999999999999"), 2,
                "--dim 'N=99999999999999999999': '99999999999999999999' is too large (at most 9223372036854775807)");
    }

    @Test
    void dimAndDonateInputsOnAFileWithoutGraphInputsAreRefusedNotIgnored() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\nx,0,3,1024\n");
        oneLine(Cli.run("plan", csv.toString(), "--dim", "N=3"), 2, "--dim applies to ONNX models only");
        oneLine(Cli.run("plan", csv.toString(), "--donate-inputs"), 2, "--donate-inputs applies to ONNX models only");
        Path json = Path.of("..", "docs", "examples", "tiny.json");
        oneLine(Cli.run("plan", json.toString(), "--dim", "N=3"), 2, "--dim applies to ONNX models only");
    }

    @Test
    void aReferenceOfAnotherShapeOrTypeIsBadInputAndExpectNamingNoOutputSaysSo() throws Exception {
        Path m = model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y")));
        Path y = dir.resolve("y.pb");
        Cli first = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", y.toString());
        assertThat(first.code()).as(first.toString()).isZero();
        TensorValue got = OnnxTensorFile.read(y).value();
        Path square = dir.resolve("square.pb");
        OnnxTensorFile.write(square, "y", TensorValue.ofFloats(new long[]{2, 2}, got.floats()));   // the same four values as [2, 2]
        Cli same = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", y.toString());
        assertThat(same.code()).as(same.toString()).isZero();
        // a reference that cannot describe the output is bad input (it was NO, exit 1, as a wrong output is), refused before the run
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", square.toString()), 2,
                "--expect " + square + ": the reference is f32 [2, 2] but output 'y' is f32 [1, 4]");
        // breaker11: numpy writes float64 by default; the line says how to save the reference
        Path wide = dir.resolve("f64.pb");
        double[] d = new double[4];
        for (int i = 0; i < 4; i++) d[i] = got.floats()[i];
        OnnxTensorFile.write(wide, "y", TensorValue.ofDoubles(org.arenaplan.ir.DType.F64, new long[]{1, 4}, d));
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", wide.toString()), 2,
                "--expect " + wide + ": the reference is f64 [1, 4] but output 'y' is f32 [1, 4];"
                        + " references are compared in the output's element type: save it as f32 (numpy: .astype(np.float32))");
        // mismatched values stay NO, exit 1
        Path off = dir.resolve("off.pb");
        float[] shifted = got.floats().clone();
        shifted[2] += 1;
        OnnxTensorFile.write(off, "y", TensorValue.ofFloats(new long[]{1, 4}, shifted));
        Cli wrong = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--expect", off.toString());
        assertThat(wrong.code()).as(wrong.toString()).isEqualTo(ExitCodes.INVALID);
        assertThat(wrong.out()).contains("reference " + off + ": NO (output 'y', worst element [0, 2]");

        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--iterations", "1", "--expect", "z=" + y), 2,
                "--expect z=" + y + ": 'z' is not a graph output; outputs: [y]");
    }

    @Test
    void anIndexOutOfRangeInTheModelsDataIsBadInputNamingTheFileAndOp() throws Exception {
        OnnxMl.TensorProto data = OnnxMl.TensorProto.newBuilder().setName("w").setDataType(1).addDims(4).addDims(2)
                .addAllFloatData(java.util.List.of(1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f)).build();
        OnnxMl.TensorProto idx = OnnxMl.TensorProto.newBuilder().setName("i").setDataType(7).addDims(1).addInt64Data(7).build();
        Path m = model("gather.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 2L)).addOutput(info("y", 1, 1L, 2L))
                .addInitializer(data).addInitializer(idx)
                .addNode(node("g", "Gather", "w", "i", "t")).addNode(node("a", "Add", "t", "x", "y")));
        for (String streams : new String[]{"1", "2"})
            oneLine(Cli.run("run", m.toString(), "--device", "sim", "--iterations", "1", "--streams", streams), 2,
                    m + ": 'g': gather index 7 (element 0) is out of range for an axis of 4");
    }


    /**
     * breaker14: a value the op does not define, met by a kernel at run time (an integer division
     * by zero, a class index, batch index or unpool index out of range), was "internal error",
     * exit 1; ONNX Runtime refuses each such run too. Now bad input naming the file and the op.
     */
    @Test
    void aValueTheOpDoesNotDefineInTheModelsDataIsBadInputNamingTheFileAndOp() throws Exception {
        OnnxMl.TensorProto zeros = OnnxMl.TensorProto.newBuilder().setName("z").setDataType(7).addDims(2).addInt64Data(1).addInt64Data(0).build();
        Path div = model("div.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 7, 2L)).addOutput(info("y", 7, 2L))
                .addInitializer(zeros).addNode(node("d", "Div", "x", "z", "y")));
        oneLine(Cli.run("run", div.toString(), "--device", "sim", "--iterations", "1"), 2, div + ": 'd': integer division by zero (element 1)");
        Path mod = model("mod.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 7, 2L)).addOutput(info("y", 7, 2L))
                .addInitializer(zeros).addNode(node("m", "Mod", "x", "z", "y")));
        oneLine(Cli.run("run", mod.toString(), "--device", "sim", "--iterations", "1"), 2, mod + ": 'm': integer modulo by zero (element 1)");

        OnnxMl.TensorProto target = OnnxMl.TensorProto.newBuilder().setName("t").setDataType(7).addDims(2).addInt64Data(0).addInt64Data(3).build();
        Path nll = model("nll.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 2L, 3L)).addOutput(info("y", 1))
                .addInitializer(target).addNode(node("l", "NegativeLogLikelihoodLoss", "x", "t", "y")));
        oneLine(Cli.run("run", nll.toString(), "--device", "sim", "--iterations", "1"), 2, nll + ": 'l': target 3 (sample 1, position 0) is outside [0, 3)");

        OnnxMl.TensorProto rois = OnnxMl.TensorProto.newBuilder().setName("r").setDataType(1).addDims(1).addDims(4)
                .addAllFloatData(java.util.List.of(0f, 0f, 2f, 2f)).build();
        OnnxMl.TensorProto batch = OnnxMl.TensorProto.newBuilder().setName("b").setDataType(7).addDims(1).addInt64Data(5).build();
        Path roi = model("roi.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 1L, 4L, 4L)).addOutput(info("y", 1, 1L, 1L, 1L, 1L))
                .addInitializer(rois).addInitializer(batch).addNode(node("ra", "RoiAlign", "x", "r", "b", "y")));
        oneLine(Cli.run("run", roi.toString(), "--device", "sim", "--iterations", "1"), 2, roi + ": 'ra': roi_align batch index 5 of roi 0 is outside [0, 1)");

        OnnxMl.TensorProto at = OnnxMl.TensorProto.newBuilder().setName("i").setDataType(7).addDims(1).addDims(1).addDims(1).addInt64Data(4).build();
        Path unpool = model("unpool.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 1L, 1L)).addOutput(info("y", 1, 1L, 1L, 2L))
                .addInitializer(at).addNode(node("u", "MaxUnpool", "x", "i", "y").addAttribute(OnnxMl.AttributeProto.newBuilder()
                        .setName("kernel_shape").setType(OnnxMl.AttributeProto.AttributeType.INTS).addInts(2))));
        oneLine(Cli.run("run", unpool.toString(), "--device", "sim", "--iterations", "1"), 2, unpool + ": 'u': max_unpool index 4 is outside [0, 2)");
    }

    /**
     * breaker14: RoiAlign with sampling_ratio 2^31-1 (a legal value) ran 2^62 bilinear samples per
     * bin: {@code run} never ended. Refused before the loop, naming the op and the grid; the
     * timeout only keeps a regression from hanging the build.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
    void aRoiAlignGridOfYearsOfSamplesIsRefusedNotRun() throws Exception {
        OnnxMl.TensorProto rois = OnnxMl.TensorProto.newBuilder().setName("r").setDataType(1).addDims(1).addDims(4)
                .addAllFloatData(java.util.List.of(0f, 0f, 2f, 2f)).build();
        OnnxMl.TensorProto batch = OnnxMl.TensorProto.newBuilder().setName("b").setDataType(7).addDims(1).addInt64Data(0).build();
        Path roi = model("roi.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 1L, 4L, 4L)).addOutput(info("y", 1, 1L, 1L, 1L, 1L))
                .addInitializer(rois).addInitializer(batch).addNode(node("ra", "RoiAlign", "x", "r", "b", "y").addAttribute(OnnxMl.AttributeProto.newBuilder()
                        .setName("sampling_ratio").setType(OnnxMl.AttributeProto.AttributeType.INT).setI(Integer.MAX_VALUE))));
        oneLine(Cli.run("run", roi.toString(), "--device", "sim", "--iterations", "1"), 2,
                roi + ": 'ra': roi_align would take 4.61e+18 bilinear samples, more than the simulator's 2^36 (roi 0: a 2147483647 x 2147483647 grid in each bin, sampling_ratio 2147483647)");
    }

    /** A NaN or infinite roi coordinate has no bins (ONNX Runtime refuses it): bad input, not NaN outputs or a loop over an infinite grid. */
    @Test
    void aRoiWithANonFiniteCoordinateIsBadInput() throws Exception {
        OnnxMl.TensorProto batch = OnnxMl.TensorProto.newBuilder().setName("b").setDataType(7).addDims(1).addInt64Data(0).build();
        for (float bad : new float[]{Float.NaN, Float.POSITIVE_INFINITY}) {
            OnnxMl.TensorProto rois = OnnxMl.TensorProto.newBuilder().setName("r").setDataType(1).addDims(1).addDims(4)
                    .addAllFloatData(java.util.List.of(0f, 0f, bad, 2f)).build();
            Path roi = model("roi-" + bad + ".onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 1L, 4L, 4L)).addOutput(info("y", 1, 1L, 1L, 1L, 1L))
                    .addInitializer(rois).addInitializer(batch).addNode(node("ra", "RoiAlign", "x", "r", "b", "y")));
            oneLine(Cli.run("run", roi.toString(), "--device", "sim", "--iterations", "1"), 2,
                    roi + ": 'ra': roi 0 is [0.0, 0.0, " + bad + ", 2.0]: a coordinate that is not finite");
        }
    }
    @Test
    void anOnnxFileFromAFutureIrVersionIsBadInputNamingTheFileAndField() throws Exception {
        Path ok = dynamicRelu();
        Path future = dir.resolve("future.onnx");
        Files.write(future, OnnxMl.ModelProto.parseFrom(Files.readAllBytes(ok)).toBuilder().setIrVersion(99).build().toByteArray());
        for (String cmd : new String[]{"plan", "run"})
            oneLine(Cli.run(cmd, future.toString(), "--dim", "N=2"), 2, future + ": ir_version 99 is newer than the ONNX IR versions arenaplan reads");
    }

    /** NAME.NUMBER.csv with a signed NUMBER: '+' read as the fields read it, '-' refused naming the file (both were ignored, digits alone being read). */
    @Test
    void aSignedCapacityInACsvNameIsReadOrRefusedNotIgnored() throws Exception {
        String rows = "id,lower,upper,size\na,0,2,1024\nb,1,3,1024\n";
        Path plus = Files.writeString(dir.resolve("n.+1536.csv"), rows);
        Cli p = Cli.run("plan", plus.toString());
        assertThat(p.code()).as(p.toString()).isEqualTo(3);   // 2,048 B do not fit in 1,536
        assertThat(p.out()).contains("capacity           1,536 B");
        Path minus = Files.writeString(dir.resolve("n.-5.csv"), rows);
        oneLine(Cli.run("plan", minus.toString()), 2, minus + ": the capacity -5 in the file name (NAME.NUMBER.csv) is negative; rename the file or give --capacity BYTES");
        oneLine(Cli.run("validate", minus.toString(), Files.writeString(dir.resolve("s.csv"), "id,lower,upper,size,offset\na,0,2,1024,0\nb,1,3,1024,1024\n").toString()),
                2, "the capacity -5 in the file name");
        assertThat(Cli.run("plan", minus.toString(), "--capacity", "4096").code()).as("--capacity wins over the name").isZero();
    }

    /** As bench search's empty folder: the user named a folder of models and none was benched (it ran the built-ins alone, exit 0). */
    @Test
    void benchScheduleOnAFolderWithoutModelsIsNotASuccess() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "no models here");
        oneLine(Cli.run("bench", "schedule", "--dir", dir.toString(), "--time-limit", "1"), 2,
                "--dir " + dir + ": no ONNX models in it (*.onnx, in it or below); leave out --dir for the built-in graphs alone");
    }

    /**
     * A model that imports but has no op ended the whole bench (exit 2, a line naming no file); it is skipped as one that does not import (breaker15),
     * and the rest is benched. review2: the skip was a line on stdout alone and exit 0, so a script could not tell that a model it named was left out;
     * now the table is printed whole and the bench ends with one stderr line naming the file, exit 2.
     */
    @Test
    void benchScheduleSkipsAModelWithNothingToScheduleBenchesTheRestAndSaysSoOnStderr() throws Exception {
        Path models = Files.createDirectory(dir.resolve("models"));
        Files.copy(model("pass.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("x", 1, 1L, 4L))), models.resolve("pass.onnx"));
        Files.copy(model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y"))), models.resolve("relu.onnx"));
        Cli r = Cli.run("bench", "schedule", "--dir", models.toString(), "--time-limit", "0.05");
        oneLine(r, 2, "arenaplan: bench schedule skipped 1 graph (the table holds the rest): " + models.resolve("pass.onnx")
                + ": graph 'g' has no op (its outputs are its graph inputs): nothing to plan or run");
        assertThat(r.out()).as(r.toString()).contains("skipped pass.onnx: graph 'g' has no op (its outputs are its graph inputs): nothing to plan or run")
                .containsPattern("(?m)^relu\\.onnx +1 ").contains("method: exact = proven least peak");
    }

    /**
     * frontdoor helper: a skipped model's line printed its node names raw (an ESC in a name reached
     * the terminal) and the importer's whole list of supported op types (2,000 characters per
     * model: the cut looked for "; supported", which the message no longer holds).
     */
    @Test
    void benchScheduleSkipLinesAreEscapedAndLeaveOutTheSupportedList() throws Exception {
        Path models = Files.createDirectory(dir.resolve("models"));
        Files.copy(model("odd.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("n\u001b[2J", "FooBar", "x", "y"))), models.resolve("odd.onnx"));
        Files.copy(model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y"))), models.resolve("relu.onnx"));
        Cli r = Cli.run("bench", "schedule", "--dir", models.toString(), "--time-limit", "0.05");
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.out()).as(r.toString()).contains("skipped odd.onnx: " + models.resolve("odd.onnx") + ": 1 unsupported op type: FooBar (1 node: n\\u001b[2J)\n")
                .doesNotContain("\u001b").doesNotContain("supported: Abs");
    }

    /**
     * newcomer: with {@code --model} (or a graph JSON) the {@code --input} files were first read after
     * the graph was built, trained and planned, so {@code --input =x.pb} or a missing file was told
     * only once that work was done (or never, when the work failed first: here {@code --train} on a
     * graph that is already a training step). Both are refused before any of it.
     */
    @Test
    void anInputWithAnEmptyNameOrNoFileIsRefusedBeforeAnyWork() throws Exception {
        Path pb = dir.resolve("x.pb");
        oneLine(Cli.run("run", "--model", "train-mlp", "--train", "--device", "sim", "--input", "=" + pb), 2,
                "--input =" + pb + ": the name before '=' is empty");
        oneLine(Cli.run("run", "--model", "train-mlp", "--train", "--device", "sim", "--input", "x=" + pb), 2,
                "--input x: " + pb + ": no such file");
        oneLine(Cli.run("run", "--model", "train-mlp", "--train", "--device", "sim", "--input", pb.toString()), 2,
                "--input " + pb + ": no such file");
        Files.createDirectory(dir.resolve("d.pb"));
        oneLine(Cli.run("run", "--model", "train-mlp", "--train", "--device", "sim", "--input", "x=" + dir.resolve("d.pb")), 2,
                "--input x=" + dir.resolve("d.pb") + ": a folder, not a file");
    }

    /**
     * newcomer: an option the chosen bench does not read was silently ignored ({@code bench recompute
     * --set real} ran the recompute bench; {@code bench search --set real --seed 3} the real traces,
     * whatever the seed). Each is refused naming it, before the bench's own checks.
     */
    @Test
    void aBenchOptionTheChosenBenchDoesNotReadIsRefused() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        oneLine(Cli.run("bench", "schedule", "--iterations", "3", "--dir", empty.toString()), 2,
                "bench schedule does not read --iterations, which would be ignored; its options: --dir, --time-limit");
        oneLine(Cli.run("bench", "models", "--device", "sim", "--node-limit", "5", "--iterations", "0"), 2,
                "bench models does not read --node-limit, which would be ignored; its options: --device, --tf32, --iterations, --warmup, --json");
        oneLine(Cli.run("bench", "search", "--set", "real", "--seed", "3", "--dir", empty.toString()), 2,
                "--seed generates --set perfect's packings; --set real reads its problems from files, so --seed would be ignored");
    }

    /**
     * newcomer: {@code --schedule-time-limit} without {@code --schedule memory} was silently ignored
     * (as {@code --rtol} without {@code --expect} is not); and {@code run} checked its value only
     * after the training step was built.
     */
    @Test
    void aScheduleTimeLimitWithoutTheMemoryScheduleIsRefused() {
        oneLine(Cli.run("plan", "--model", "chain", "--schedule-time-limit", "3"), 2,
                "--schedule-time-limit is --schedule memory's time limit; with --schedule file (the default) no order is searched");
        oneLine(Cli.run("run", "--model", "chain", "--device", "sim", "--schedule-time-limit", "3"), 2,
                "--schedule-time-limit is --schedule memory's time limit");
        oneLine(Cli.run("run", "--model", "train-mlp", "--train", "--device", "sim", "--schedule", "memory", "--schedule-time-limit", "-1"), 2,
                "--schedule-time-limit must be a positive number of seconds");
        assertThat(Cli.run("plan", "--model", "chain", "--schedule", "memory", "--schedule-time-limit", "3").code()).isZero();
    }

    /**
     * review2: {@code --input =x.pb} (an empty name before '=') was read as a file named {@code =x.pb}, and
     * {@code --expect =y.pb} alike; each is refused naming the flag and the value.
     */
    @Test
    void anInputOrReferenceWithAnEmptyNameBeforeTheEqualsSignIsRefused() throws Exception {
        Path m = model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y")));
        Path pb = dir.resolve("x.pb");
        oneLine(Cli.run("run", m.toString(), "--input", "=" + pb), 2, "--input =" + pb + ": the name before '=' is empty; write --input NAME=FILE.pb, or --input FILE.pb without '='");
        oneLine(Cli.run("run", "--model", "chain", "--device", "sim", "--input", "=" + pb), 2, "--input =" + pb + ": the name before '=' is empty");
        oneLine(Cli.run("run", m.toString(), "--expect", "=" + pb), 2, "--expect =" + pb + ": the name before '=' is empty; write --expect NAME=FILE.pb");
    }

    /**
     * breaker17: a named pipe given where a file is read made every command wait forever at the
     * open (no process writes it), and a pipe with a writer (bash's {@code <(...)}) read as an
     * empty file (its size is 0). Now each is one line naming the flag and the path, exit 2,
     * before anything opens it. The timeout only guards the hang.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aNamedPipeWhereAFileIsReadIsRefusedNotWaitedOn() throws Exception {
        Path fifo = dir.resolve("pipe");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0 && Files.exists(fifo), "no mkfifo here");
        Path onnx = Files.createSymbolicLink(dir.resolve("pipe.onnx"), fifo), csv = Files.createSymbolicLink(dir.resolve("pipe.csv"), fifo);
        Path json = Files.createSymbolicLink(dir.resolve("pipe.json"), fifo);
        String tail = ": a pipe, socket or device, not a regular file (arenaplan reads a file whole, by its size: give a file)";
        oneLine(Cli.run("plan", onnx.toString()), 2, onnx + tail);
        oneLine(Cli.run("plan", json.toString()), 2, "GRAPH.json " + json + tail);
        oneLine(Cli.run("plan", csv.toString()), 2, "PROBLEM.csv " + csv + tail);
        oneLine(Cli.run("validate", csv.toString(), csv.toString()), 2, "PROBLEM.csv " + csv + tail);
        Path relu = dynamicRelu();
        oneLine(Cli.run("plan", relu.toString(), "--dim", "N=2", "--input", "x=" + fifo), 2, "--input x: " + fifo + tail);
        oneLine(Cli.run("run", relu.toString(), "--dim", "N=2", "--expect", fifo.toString()), 2, fifo + tail);
        Path bench = Files.createDirectories(dir.resolve("bench"));
        Path instance = Files.createSymbolicLink(bench.resolve("A.1048576.csv"), fifo);
        oneLine(Cli.run("bench", "search", "--dir", bench.toString(), "--time-limit", "1"), 2, "--dir " + instance + tail);
        oneLine(Cli.run("bench", "search", "--set", "real", "--dir", bench.toString(), "--time-limit", "1"), 2, "--dir " + instance + tail);
    }

    /** A write that fails late (a full disk) names the flag, as the early checks do (was 'cannot write /dev/full: ...' without it). */
    @Test
    void aLateWriteFailureNamesTheFlag() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full), "no /dev/full here");
        Path problem = Files.writeString(dir.resolve("p.csv"), "id,lower,upper,size\nx,0,3,1024\n");
        for (String flag : new String[]{"--svg", "--html"})
            oneLine(Cli.run("plan", problem.toString(), flag, full.toString()), 2, flag + " /dev/full: cannot write: ");
    }

    /** A CSV saved with ';' (a spreadsheet's locale) is one column: the line says what separates columns. */
    @Test
    void aCsvWithAnotherSeparatorIsToldColumnsAreSeparatedByCommas() throws Exception {
        Path semi = Files.writeString(dir.resolve("semi.csv"), "id;lower;upper;size\na;0;2;1024\n");
        oneLine(Cli.run("plan", semi.toString()), 2,
                semi + ":1: missing column 'id' in header 'id;lower;upper;size'; columns are separated by commas, and this header uses ';'");
    }

    /** A model option left without its value (was read as 'true': "must be a positive integer ..., got 'true'"); a flag option still reads as true. */
    @Test
    void aModelOptionWithoutItsValueIsSaidToNeedOne() {
        for (String cmd : new String[]{"plan", "run"})
            oneLine(Cli.run(cmd, "--model", "mlp", "--layers", "--width", "8"), 2, "--model mlp: model 'mlp': option --layers needs a value (default 3)");
        Cli flag = Cli.run("plan", "--model", "chain", "--donate");
        assertThat(flag.code()).as(flag.toString()).isZero();
        assertThat(flag.out()).contains("model chain {donate=true}");
    }

    @Test
    void benchScheduleOnAFolderThatIsNotThereIsNotASuccess() {
        oneLine(Cli.run("bench", "schedule", "--dir", dir.resolve("nope").toString(), "--time-limit", "1"), 2, "--dir", "no such folder");
    }

    @Test
    void benchDirNamingAFileSaysItIsNotAFolderAndAMissingOneNoSuchFolder() throws Exception {
        Path file = dir.resolve("problems.csv");
        Files.writeString(file, "id,lower,upper,size\nx,0,3,1024\n");
        Path missing = dir.resolve("nope");
        for (String what : new String[]{"search", "schedule"}) {
            Cli onFile = Cli.run("bench", what, "--dir", file.toString(), "--time-limit", "1");
            oneLine(onFile, 2, "--dir " + file + ": a file, not a folder (");
            assertThat(onFile.err()).doesNotContain("no such folder");
            oneLine(Cli.run("bench", what, "--dir", missing.toString(), "--time-limit", "1"), 2, "--dir " + missing + ": no such folder");
        }
    }

    @Test
    void benchSearchPerfectRefusesADirItWouldIgnore() {
        oneLine(Cli.run("bench", "search", "--set", "perfect", "--dir", dir.toString(), "--node-limit", "10"), 2,
                "--dir " + dir + ": --set perfect generates its packings (choose them with --seed); it reads no folder");
    }

    @Test
    void streamsUpToIntMaxPlanAndAHugeOnnxShapeIsBadInput() throws Exception {
        Cli many = Cli.run("plan", "--model", "mlp", "--streams", "" + Integer.MAX_VALUE);
        assertThat(many.code()).as(many.toString()).isZero();
        Path huge = model("huge.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L << 40, 1L << 40)).addOutput(info("y", 1, 1L << 40, 1L << 40))
                .addNode(node("r", "Relu", "x", "y")));
        oneLine(Cli.run("plan", huge.toString()), 2, huge + ": graph input 'x' [1099511627776, 1099511627776] has more than 2^63-1 elements");
    }

    @Test
    void picocliErrorsAreOneLineLikeEveryOtherBadInput() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\nx,0,3,1024\n");
        oneLine(Cli.run("plan", csv.toString(), "--capacity", "abc"), 2, "Invalid value for option '--capacity': 'abc' is not a long (a whole number from -9223372036854775808 to 9223372036854775807) (see 'arenaplan plan --help')");
        oneLine(Cli.run("plan", csv.toString(), "--capacity", "99999999999999999999"), 2, "'99999999999999999999' is not a long (a whole number from -9223372036854775808 to 9223372036854775807)");
        oneLine(Cli.run("stress", "--graphs", "1.5"), 2, "Invalid value for option '--graphs': '1.5' is not an int (a whole number from -2147483648 to 2147483647) (see 'arenaplan stress --help')");
        oneLine(Cli.run("plan", csv.toString(), "--time-limit", "abc"), 2, "Invalid value for option '--time-limit': 'abc' is not a double (a number such as 2 or 0.5) (see 'arenaplan plan --help')");
        oneLine(Cli.run("frobnicate"), 2, "'frobnicate'", "(see 'arenaplan --help')");
        oneLine(Cli.run("plan", "--model", "randwire", "--nodes", "0"), 2, "--model randwire: model 'randwire': option --nodes must be a positive integer of at most 10000 (a larger graph would take minutes and gigabytes to build and plan), got '0'");
        assertThat(Cli.run("plan", "--model", "randwire", "--nodes", "0").err()).doesNotContain("model 'randwire': model 'randwire'");
    }

    @Test
    void aGraphWhoseOutputsAreItsInputsHasNothingToPlanAndSaysSo() throws Exception {
        Path m = model("pass.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("x", 1, 1L, 4L)));
        oneLine(Cli.run("plan", m.toString()), 2, m + ": graph 'g' has no op (its outputs are its graph inputs): nothing to plan or run");
        oneLine(Cli.run("run", m.toString(), "--device", "sim"), 2, "has no op");
        // breaker15: a graph with no node, input or output was planned (exit 0, "0 B in 0 buffer(s)") and run ("0 stream(s)", a 4 B peak)
        Path empty = model("empty.onnx", OnnxMl.GraphProto.newBuilder());
        oneLine(Cli.run("plan", empty.toString()), 2, empty + ": graph 'g' has no op and no tensor: nothing to plan or run");
        oneLine(Cli.run("run", empty.toString(), "--device", "sim"), 2, empty + ": graph 'g' has no op and no tensor: nothing to plan or run");
    }

    @Test
    void anInputGivenTwiceOrOfAnotherShapeIsRefused() throws Exception {
        Path m = model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y")));
        Path x = dir.resolve("x.pb"), tall = dir.resolve("tall.pb");
        OnnxTensorFile.write(x, "x", TensorValue.ofFloats(new long[]{1, 4}, 1f, -2f, 3f, -4f));
        OnnxTensorFile.write(tall, "x", TensorValue.ofFloats(new long[]{4, 1}, 1f, -2f, 3f, -4f));
        Cli ok = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", x.toString());
        assertThat(ok.code()).as(ok.toString()).isZero();
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--input", "x=" + x, "--input", x.toString()), 2, "input 'x' is given twice");
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--input", tall.toString()), 2,
                "--input " + tall + ": holds a tensor of shape [4, 1] but input 'x' is [1, 4]");
    }

    @Test
    void aDeclaredTensorNoOpTouchesIsAFaultOfTheGraphFileNotAStorage() throws Exception {
        String tiny = Files.readString(Path.of("..", "docs", "examples", "tiny.json"));
        Path g = dir.resolve("g.json");
        Files.writeString(g, tiny.replace("{\"name\": \"flat\", \"bytes\": 1048576},", "{\"name\": \"flat\", \"bytes\": 1048576}, {\"name\": \"zz\", \"bytes\": 100},"));
        assertThat(Files.readString(g)).contains("\"zz\"");
        oneLine(Cli.run("plan", g.toString()), 2, g + ": $.tensors[5]: tensor 'zz' is declared but no op writes or reads it");
    }

    @Test
    void aDashForAnyFileFlagButPlanOutIsRefusedNotWrittenAsAFileNamedDash() throws Exception {
        for (String flag : new String[]{"--svg", "--html"})
            oneLine(Cli.run("plan", "--model", "mlp", flag, "-"), 2, flag + " -: this flag writes a file (only plan --out - writes to standard output)");
        oneLine(Cli.run("run", "--model", "mlp", "--device", "sim", "--iterations", "1", "--json", "-"), 2, "--json -: this flag writes a file");
        oneLine(Cli.run("run", "--model", "mlp", "--device", "sim", "--iterations", "1", "--output", "-"), 2, "--output -: this flag writes a file");
        oneLine(Cli.run("plan", "--model", "chain", "--dim", "99999999999"), 2, "option --dim must be a positive integer of at most 2147483647, got '99999999999'");
        assertThat(Path.of("-")).doesNotExist();
        Cli out = Cli.run("plan", "--model", "mlp", "--out", "-");
        assertThat(out.code()).as(out.toString()).isZero();
        assertThat(out.out()).startsWith("{");
    }

    @Test
    void aTimeLimitPastWhatADeadlineCanHoldIsBadInputNotALongOverflow() {
        oneLine(Cli.run("plan", "--model", "mlp", "--time-limit", "1e20"), 2, "--time-limit must be at most 1e9 seconds");
        oneLine(Cli.run("plan", "--model", "mlp", "--schedule", "memory", "--schedule-time-limit", "1e20"), 2, "--schedule-time-limit must be at most 1e9 seconds");
        oneLine(Cli.run("bench", "search", "--time-limit", "1e20"), 2, "--time-limit must be at most 1e9 seconds");
        oneLine(Cli.run("plan", "--model", "mlp", "--time-limit", "0"), 2, "--time-limit must be a positive number of seconds, got 0.0");
        Cli big = Cli.run("plan", "--model", "mlp", "--time-limit", "1e9", "--schedule", "memory", "--schedule-time-limit", "1e9");
        assertThat(big.code()).as(big.toString()).isZero();
    }

    @Test
    void aNameWithALineBreakOrATerminalEscapeStaysOnTheOneLine() throws Exception {
        // a node name holding a newline split the refusal in two; ESC [2J cleared the terminal; CR overwrote the line's start (breaker15)
        Path m = model("evil.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 2L, 3L)).addOutput(info("y", 1, 2L, 3L))
                .addNode(node("a\nfake line\u001b[2J\rb", "Softmax", "x", "y").addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axis")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT).setI(9))));
        Cli r = Cli.run("plan", m.toString());
        oneLine(r, 2, "node 'a\\u000afake line\\u001b[2J\\u000db' (Softmax, #0, opset 13)");
        assertThat(r.err()).doesNotContain("\u001b", "\r");
        Path json = dir.resolve("evil.json");
        Files.writeString(json, "{\"format\": \"arenaplan-graph/1\", \"name\": \"g\", \"tensors\": [{\"name\": \"x\", \"bytes\": 4},"
                + " {\"name\": \"y\", \"bytes\": 4}], \"inputs\": [{\"name\": \"x\"}], \"outputs\": [\"y\"],"
                + " \"ops\": [{\"name\": \"r\\u2028s\", \"kind\": \"Relu\", \"inputs\": [\"nope\"], \"outputs\": [\"y\"]}]}");
        oneLine(Cli.run("plan", json.toString()), 2, "op 'r\\u2028s'");
        oneLine(Cli.run("plan", json.toString(), "--bogus\u001b[31m"), 2, "unknown option '--bogus\\u001b[31m'");
    }
    @Test
    void aFileFlagTypedAsAFolderWithATrailingSlashIsRefusedNotWrittenAsAFileOfThatName() throws Exception {
        // breaker20: Path.of dropped the '/', so "--svg pics/" wrote a file named pics, and "--output out/" for one output a file named out
        for (String flag : new String[]{"--svg", "--html", "--out"}) {
            Path folder = dir.resolve("pics" + flag.substring(2));
            oneLine(Cli.run("plan", "--model", "mlp", flag, folder + "/"), 2, "Invalid value for option '" + flag + "': '" + folder + "/' ends in '/', so it names a folder");
            assertThat(folder).doesNotExist();
        }
        Path json = dir.resolve("report");
        oneLine(Cli.run("run", "--model", "mlp", "--device", "sim", "--iterations", "1", "--json", json + "/"), 2, "'" + json + "/' ends in '/', so it names a folder");
        assertThat(json).doesNotExist();
        Path m = model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y")));
        Path out = dir.resolve("out");
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", out + "/"), 2,
                "--output " + out + "/: ends in '/', so it names a folder, but the graph has 1 output ('y'), written to PATH itself; give a file name");
        assertThat(out).doesNotExist();
        Cli file = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", out.toString());
        assertThat(file.code()).as(file.toString()).isZero();
        assertThat(out).isRegularFile();
    }

    /** review: {@code run --output o.pb --json o.pb} wrote the report, then the output over it, exit 0; plan refuses --out and --svg on one file. */
    @Test
    void runRefusesJsonAndOutputOnOneFile() throws Exception {
        Path m = model("relu.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addOutput(info("y", 1, 1L, 4L))
                .addNode(node("r", "Relu", "x", "y")));
        Path same = dir.resolve("o.pb");
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", same.toString(), "--json", same.toString()), 2,
                "--json " + same + ": this file is also --output's; one would overwrite the other, so give each its own name");
        assertThat(same).doesNotExist();
        Path report = dir.resolve("report.json");
        Cli apart = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--output", same.toString(), "--json", report.toString());
        assertThat(apart.code()).as(apart.toString()).isZero();
        assertThat(report).isRegularFile();
        assertThat(same).isRegularFile();
    }

    @Test
    void anInputLeftOutBesideGivenOnesIsSaidToHoldRandomValues() throws Exception {
        // breaker20: with x given and y forgotten, y silently held seeded random values, and --output wrote outputs computed from them
        Path m = model("sub.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, 1L, 4L)).addInput(info("y", 1, 1L, 4L))
                .addOutput(info("z", 1, 1L, 4L)).addNode(node("s", "Sub", "x", "y", "z")));
        Path x = dir.resolve("x.pb"), y = dir.resolve("y.pb");
        OnnxTensorFile.write(x, "x", TensorValue.ofFloats(new long[]{1, 4}, 1f, -2f, 3f, -4f));
        OnnxTensorFile.write(y, "y", TensorValue.ofFloats(new long[]{1, 4}, 1f, 1f, 1f, 1f));
        String warning = "arenaplan: warning: input 'y' is not given (--input y=FILE.pb), so it holds seeded random values";
        Cli partial = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x);
        assertThat(partial.code()).as(partial.toString()).isZero();
        assertThat(partial.err()).contains(warning).doesNotContain("input 'x' is not given");
        Cli both = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x, "--input", y.toString());
        assertThat(both.code()).as(both.toString()).isZero();
        assertThat(both.err()).doesNotContain("warning");
        Cli none = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1");   // no data meant: random inputs as documented
        assertThat(none.err()).doesNotContain("warning");
    }
    @Test
    void aSymbolicDimTakesItsValueFromTheInputFileWithoutDim() throws Exception {
        // breaker20: "run dyn.onnx --input x=a.pb" with a [2, 4] file said "axis 0 is symbolic ('N') and has no value; give one with --dim N=VALUE"
        Path m = model("two.onnx", OnnxMl.GraphProto.newBuilder().addInput(info("x", 1, "N", 4L)).addInput(info("y", 1, "N", 4L))
                .addOutput(info("z", 1, "N", 4L)).addNode(node("s", "Sub", "x", "y", "z")));
        Path x = dir.resolve("x.pb"), y = dir.resolve("y.pb"), tall = dir.resolve("tall.pb"), z = dir.resolve("z.pb");
        OnnxTensorFile.write(x, "x", TensorValue.ofFloats(new long[]{2, 4}, 1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f));
        OnnxTensorFile.write(y, "y", TensorValue.ofFloats(new long[]{2, 4}, 1f, 1f, 1f, 1f, 1f, 1f, 1f, 1f));
        OnnxTensorFile.write(tall, "y", TensorValue.ofFloats(new long[]{3, 4}, new float[12]));
        Cli named = Cli.run("run", m.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", "x=" + x, "--input", y.toString(), "--output", z.toString());
        assertThat(named.code()).as(named.toString()).isZero();
        assertThat(OnnxTensorFile.read(z).value().shape()).containsExactly(2, 4);
        assertThat(OnnxTensorFile.read(z).value().floats()).containsExactly(0f, 1f, 2f, 3f, 4f, 5f, 6f, 7f);
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--input", "x=" + x, "--input", "y=" + tall), 2, "--input y=" + tall + ": input 'y' axis 0 is dim 'N' = 3, but --input x=" + x
                + " (input 'x' axis 0) made N = 2; give files that agree, or --dim N=VALUE");
        oneLine(Cli.run("run", m.toString(), "--device", "sim", "--dim", "N=3", "--input", "x=" + x, "--input", "y=" + y), 2, "--input x=" + x + ": holds 8 values [2, 4] but input 'x' has 12 [3, 4]");
        Path one = dynamicRelu();   // one input: an unnamed file is for it
        Cli unnamed = Cli.run("run", one.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--input", x.toString());
        assertThat(unnamed.code()).as(unnamed.toString()).isZero();
        oneLine(Cli.run("run", one.toString(), "--device", "sim"), 2, "graph input 'x' axis 0 is symbolic ('N') and has no value; give one with --dim N=VALUE");
    }
}
