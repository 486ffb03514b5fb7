package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.AllClose;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ONNX backend node tests ({@code shared/onnx-backend/node/test_*}: {@code model.onnx} and
 * {@code test_data_set_0/input_K.pb, output_K.pb}, from the onnx repository's
 * {@code onnx/backend/test/data/node}). Each is imported, planned and run on the simulator; a
 * model whose ops, opset or types arenaplan does not support is refused with one line (the
 * importer's or executor's bad-input message), and every supported one must match its outputs
 * like numpy's allclose with rtol 1e-3, atol 1e-5 (the backend runner's float32 rtol; its atol
 * 1e-7 raised as {@link AllClose} explains). Prints the pass/refused/fail counts, in all and by
 * the model's opset ({@link #opsetBucket}).
 * {@code -Darenaplan.nodeTests=test_reduce_} runs only the tests whose folder name starts so.
 */
class OnnxBackendNodeTest {
    static final double RTOL = 1e-3, ATOL = 1e-5;

    enum Outcome { PASS, REFUSED, FAIL }

    record Result(String test, Outcome outcome, String line) { }

    @Test
    void everySupportedNodeTestPasses() throws IOException {
        Path root = OnnxModelsTest.shared("onnx-backend", "node");
        if (!Files.isDirectory(root)) {
            String why = "ONNX backend node tests " + root.toAbsolutePath().normalize() + " are absent; skipping";
            System.out.println(why);
            Assumptions.abort(why);
        }
        List<Path> tests;
        try (Stream<Path> s = Files.list(root)) {
            String only = System.getProperty("arenaplan.nodeTests", "");
            tests = s.filter(p -> Files.isRegularFile(p.resolve("model.onnx")))
                    .filter(p -> only.isEmpty() || p.getFileName().toString().startsWith(only)).sorted().toList();
        }
        List<Result> results = new ArrayList<>();
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            for (Path t : tests) results.add(run(t, device));
        }
        Map<Outcome, Integer> counts = new TreeMap<>();
        Map<String, Integer> reasons = new TreeMap<>();
        for (Result r : results) {
            counts.merge(r.outcome(), 1, Integer::sum);
            if (r.outcome() != Outcome.PASS) System.out.println(r.outcome().name().toLowerCase() + " " + r.test() + ": " + r.line());
            if (r.outcome() == Outcome.REFUSED) reasons.merge(reason(r.line()), 1, Integer::sum);
        }
        System.out.println("refusals by reason: " + reasons);
        Map<String, int[]> byOpset = new LinkedHashMap<>();
        for (String b : List.of("1..8", "9..21", "22", "23..28", "other domains")) byOpset.put(b, new int[2]);
        for (int i = 0; i < results.size(); i++) {
            int[] c = byOpset.computeIfAbsent(opsetBucket(tests.get(i).resolve("model.onnx")), k -> new int[2]);
            c[0] += results.get(i).outcome() == Outcome.PASS ? 1 : 0;
            c[1]++;
        }
        StringBuilder line = new StringBuilder("ONNX backend node tests passing by opset:");
        byOpset.forEach((b, c) -> { if (c[1] > 0) line.append(' ').append(b).append(' ').append(c[0]).append(" of ").append(c[1]).append(';'); });
        System.out.println(line.substring(0, line.length() - 1));
        System.out.printf("ONNX backend node tests: %d pass, %d refused, %d fail (of %d)%n", counts.getOrDefault(Outcome.PASS, 0),
                counts.getOrDefault(Outcome.REFUSED, 0), counts.getOrDefault(Outcome.FAIL, 0), results.size());
        assertThat(results).filteredOn(r -> r.outcome() == Outcome.REFUSED).allSatisfy(r -> assertThat(r.line()).doesNotContain("\n"));
        assertThat(results).filteredOn(r -> r.outcome() == Outcome.FAIL).extracting(r -> r.test() + ": " + r.line()).isEmpty();
        assertThat(counts.getOrDefault(Outcome.PASS, 0)).as("node tests passing").isPositive();
    }

    /**
     * The model's opset for the summary: "other domains" when it imports an opset of a domain
     * other than the default (ai.onnx), else the default domain's version as 1..8 (imported node by node,
     * {@link OlderOpsets}), 9..21, 22 or 23..28; "unreadable" when the file does not parse.
     */
    static String opsetBucket(Path model) {
        try {
            ai.onnx.proto.OnnxMl.ModelProto m = ai.onnx.proto.OnnxMl.ModelProto.parseFrom(Files.readAllBytes(model));
            long v = 0;
            for (ai.onnx.proto.OnnxMl.OperatorSetIdProto o : m.getOpsetImportList()) {
                boolean standard = o.getDomain().isEmpty() || o.getDomain().equals("ai.onnx");
                if (!standard) return "other domains";
                if (standard) v = Math.max(v, o.getVersion());
            }
            return v < 9 ? "1..8" : v <= 21 ? "9..21" : v == 22 ? "22" : "23..28";
        } catch (IOException e) {
            return "unreadable";
        }
    }

    /** The refusal's kind, for the summary: the text after the node's location, numbers and names dropped. */
    private static String reason(String line) {
        String s = line.replaceFirst("^.*?\\): ", "").replaceFirst("^.*\\.onnx: ", "");
        s = s.replaceAll("'[^']*'", "'…'").replaceAll("\\[[^]]*]", "[…]").replaceAll("\\d+", "N");
        return s.length() > 80 ? s.substring(0, 80) : s;
    }

    static Result run(Path test, Device device) {
        String name = test.getFileName().toString();
        OnnxImporter.Imported imp;
        Map<String, TensorValue> inputs = new LinkedHashMap<>();
        Path data = test.resolve("test_data_set_0");
        try {
            // the inputs are known before import, as for `run --input`: shape operands among them (axes, shapes) are read then,
            // and a sequence or optional input is bound to its value (a SequenceProto or OptionalProto file, read as the model declares it).
            // A tensor file that cannot be read is left out until the import has spoken: its refusal (an op or type it does not take)
            // is the real reason, the file's only when the import succeeds.
            Path model = test.resolve("model.onnx");
            Map<String, Class<? extends OnnxValue>> kinds = OnnxImporter.sequenceInputs(model);
            List<OnnxModel.ValueInfo> fed = fedInputs(model);
            Map<String, TensorValue> given = new LinkedHashMap<>();
            Map<String, Long> dims = new LinkedHashMap<>();
            Map<String, OnnxValue> sequences = new LinkedHashMap<>();
            OnnxException unreadable = null;
            for (int k = 0; Files.isRegularFile(data.resolve("input_" + k + ".pb")); k++) {
                Path f = data.resolve("input_" + k + ".pb");
                OnnxModel.ValueInfo declared = k < fed.size() ? fed.get(k) : null;
                String input = declared == null ? null : declared.name();
                if (input != null && kinds.containsKey(input)) {
                    sequences.put(input, OnnxValueFile.read(f, kinds.get(input)));
                    continue;
                }
                try {
                    OnnxTensorFile.NamedTensor r = OnnxTensorFile.read(f);
                    if (!r.name().isEmpty()) given.put(r.name(), r.value());
                    if (declared != null) symbolicDims(declared, r.value(), dims);
                } catch (OnnxException e) {
                    if (unreadable == null) unreadable = e;
                }
            }
            imp = OnnxImporter.importModel(model, OnnxImporter.Options.DEFAULT.withDims(dims).withInputValues(given).withSequenceInputs(sequences));
            if (unreadable != null) throw unreadable;
            for (int k = 0; k < imp.edges().inputs().size(); k++) {
                String input = imp.edges().inputs().get(k);
                Path f = data.resolve("input_" + k + ".pb");
                if (!Files.isRegularFile(f)) return new Result(name, Outcome.REFUSED, "graph input '" + input + "' has no " + f.getFileName() + " (an omitted optional input)");
                inputs.putAll(imp.edges().feed(input, OnnxValueFile.read(f, imp.edges().kind(input)), f.toString()));
            }
        } catch (OnnxException e) {
            return new Result(name, Outcome.REFUSED, e.getMessage());
        }
        Graph g = imp.graph();
        Map<String, TensorValue> got;
        try {
            got = Executors.run(ArenaPlanner.plan(g), device, List.of(Mode.PLANNED), 1, inputs, 1).last(Mode.PLANNED).outputs();
        } catch (ExecutionException e) {
            return new Result(name, Outcome.REFUSED, e.getMessage());
        } catch (RuntimeException e) {
            return new Result(name, Outcome.FAIL, "run: " + e);
        }
        StringBuilder failed = new StringBuilder();
        for (int k = 0; k < imp.edges().outputs().size(); k++) {
            String out = imp.edges().outputs().get(k);
            OnnxValue want;
            try {
                want = OnnxValueFile.read(data.resolve("output_" + k + ".pb"), imp.edges().kind(out));
            } catch (OnnxException e) {
                return new Result(name, Outcome.REFUSED, e.getMessage());
            }
            String why = OnnxValueMatch.mismatch(imp.edges().value(out, got), want, (a, b) -> mismatch(a, b, b.shape()));
            if (why != null) failed.append("output '").append(out).append("' ").append(why).append("; ");
        }
        return failed.length() == 0 ? new Result(name, Outcome.PASS, "") : new Result(name, Outcome.FAIL, failed.toString());
    }

    /** The graph inputs a model's test data feeds, in order: those without an initializer (input_K.pb is the K-th). */
    private static List<OnnxModel.ValueInfo> fedInputs(Path model) {
        OnnxModel m = OnnxProtos.read(model);
        java.util.Set<String> inits = new java.util.HashSet<>();
        for (OnnxModel.TensorData t : m.graph().initializers()) inits.add(t.name());
        return m.graph().inputs().stream().filter(v -> !inits.contains(v.name())).toList();
    }

    /**
     * The values of a tensor input's symbolic dims, from the shape of the value its file gives (as a
     * user gives them with {@code --dim NAME=V}); the first input naming a dim decides it.
     */
    static void symbolicDims(OnnxModel.ValueInfo declared, TensorValue value, Map<String, Long> dims) {
        long[] shape = value.shape();
        if (declared.notTensor() != null || !declared.hasShape() || shape == null || shape.length != declared.dims().size()) return;
        for (int a = 0; a < shape.length; a++) {
            OnnxModel.Dim d = declared.dims().get(a);
            if (d.value() == null && !d.param().isEmpty()) dims.putIfAbsent(d.param(), shape[a]);
        }
    }

    /** Why output {@code mine} does not match the reference, or null: floats like allclose (RTOL, ATOL), integers exactly. */
    static String mismatch(TensorValue mine, TensorValue want, long[] shape) {
        if (want.dtype() != mine.dtype() || want.elements() != mine.elements())
            return "has " + mine.elements() + " " + mine.dtype().jsonName() + " values, the reference " + want.elements() + " " + want.dtype().jsonName();
        AllClose c = AllClose.compare(mine, want, RTOL, ATOL);
        return c.ok() ? null : c.describe(shape);
    }

    @Test
    void sequenceAndOptionalInputsAndOutputsAreBoundToTheirFiles() {
        Path root = OnnxModelsTest.shared("onnx-backend", "node");
        Assumptions.assumeTrue(Files.isDirectory(root.resolve("test_identity_opt")), "ONNX backend node tests " + root + " are absent; skipping");
        try (Device device = Devices.open("sim", DeviceOptions.DEFAULT).device()) {
            // input_0.pb holds a sequence (a SequenceProto), output_0.pb too; test_identity_opt's an optional holding a sequence
            for (String t : List.of("test_sequence_insert_at_back", "test_identity_opt", "test_optional_has_element_empty_optional_input"))
                assertThat(run(root.resolve(t), device)).as(t).extracting(Result::outcome).isEqualTo(Outcome.PASS);
        }
    }

    @Test
    void integerOutputsAreComparedExactlyAndFloatsWithinTolerance() {
        // int64 2^60 and 2^60 + 1 are one double: they must still differ
        TensorValue a = TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{2}, 1L << 60, 7), b = TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{2}, (1L << 60) + 1, 7);
        assertThat(mismatch(a, b, new long[]{2})).contains("first difference at [0]: 1152921504606846976 vs 1152921504606846977").contains("1 of 2 differ");
        assertThat(mismatch(a, a, new long[]{2})).isNull();
        // uint64 printed unsigned
        TensorValue u = TensorValue.ofLongs(org.arenaplan.ir.DType.U64, new long[]{1}, -1L), v = TensorValue.ofLongs(org.arenaplan.ir.DType.U64, new long[]{1}, -2L);
        assertThat(mismatch(u, v, new long[]{1})).contains("18446744073709551615 vs 18446744073709551614");
        // floats: allclose
        assertThat(mismatch(TensorValue.ofFloats(new long[]{1}, 1.0005f), TensorValue.ofFloats(new long[]{1}, 1f), new long[]{1})).isNull();
        assertThat(mismatch(TensorValue.ofFloats(new long[]{1}, 1.1f), TensorValue.ofFloats(new long[]{1}, 1f), new long[]{1})).contains("1 of 1 outside");
    }
}
