package org.arenaplan.gpu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.arenaplan.device.Device;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.RunReport;
import org.arenaplan.ir.Graph;
import org.arenaplan.onnx.OnnxImporter;
import org.arenaplan.onnx.OnnxTensorFile;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;

/**
 * {@code bench-real DIR}: the real-weight ONNX models of DIR (each described by {@code NAME.meta.json}:
 * its {@code file}, {@code inputs} (name to {@code file}) and {@code outputs} (name and reference
 * {@code file})), each imported, planned, run in every mode on one device with its own input files,
 * and compared with the reference outputs: |got - ref| <= 1e-5 + 1e-4 |ref| per value (the GPU
 * tests' tolerance). A model that does not import, or whose inputs cannot be read, is reported
 * with the reason and counts as skipped, not failed; so does a {@code NAME.meta.json} that is not a
 * JSON object. A DIR that is no folder, or holds no {@code NAME.meta.json}, is exit 2. Weights are the graph's own when the importer
 * keeps the model's initializers ({@code WeightRegion}).
 */
final class RealModels {
    static final double ABS = 1e-5, REL = 1e-4;

    /** One model: {@code status} is ran, skipped (with {@code reason}) or failed (with {@code reason}). */
    record Result(String model, String status, String reason, List<RunReport.Row> modes, Boolean outputsEqualAcrossModes,
                  Double maxAbsError, Boolean matchesReference) { }

    private RealModels() { }

    /** Exit 0 when every model that ran matched its reference and was equal across modes, 1 otherwise, 3 without CUDA. */
    static int bench(GpuRunner.Flags f, PrintStream out) throws IOException {
        String notAFolder = org.arenaplan.io.TextFiles.notAFolder("bench-real", f.dir);   // "bench-real DIR: a file, not a folder", "...: no such folder"
        if (notAFolder != null) {
            out.println(notAFolder);
            return 2;
        }
        List<Path> metas;
        try (Stream<Path> s = Files.list(f.dir)) {
            metas = s.filter(p -> p.getFileName().toString().endsWith(".meta.json")).sorted().toList();
        }
        if (metas.isEmpty()) {   // as bench search's empty folder: nothing ran, so nothing passed
            out.println("bench-real " + f.dir + ": no NAME.meta.json in it; nothing to run");
            return 2;
        }
        List<Result> results = new ArrayList<>();
        try (Device d = f.open(out)) {
            if (d == null) return 3;
            out.println("bench-real on " + d.description());
            for (Path meta : metas) {
                Result r = one(meta, d, f.warmup, f.iterations);
                results.add(r);
                out.println(line(r));
                if (f.json != null) writeJson(results, f.json);   // rewritten after each model: a step killed at its limit keeps the models done
            }
        }
        return results.stream().anyMatch(r -> r.status().equals("failed")) ? 1 : 0;
    }

    /** The results as a JSON array, snake_case fields (each mode's {@link RunReport.Row} as {@code peak_device_bytes}, {@code held_device_bytes}, ...). */
    static void writeJson(List<Result> results, Path file) throws IOException {
        new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), results);
    }

    private static Result one(Path meta, Device d, int warmup, int iterations) throws IOException {
        JsonNode m;
        try {
            m = new ObjectMapper().readTree(meta.toFile());
        } catch (IOException e) {   // a description that cannot be read: that model is skipped, saying why
            String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : org.arenaplan.io.TextFiles.reason(e);
            return new Result(meta.getFileName().toString(), "skipped", meta.getFileName() + ": cannot read: " + why.lines().findFirst().orElse(""), List.of(), null, null, null);
        }
        if (m == null || !m.isObject())
            return new Result(meta.getFileName().toString(), "skipped", meta.getFileName() + ": expected a JSON object", List.of(), null, null, null);
        String name = m.path("name").asText(meta.getFileName().toString());
        Path dir = meta.getParent();
        Graph g;
        Map<String, org.arenaplan.ir.TensorValue> inputs = new LinkedHashMap<>();
        try {
            g = OnnxImporter.load(dir.resolve(m.path("file").asText()), Map.of());
            for (var in : (Iterable<Map.Entry<String, JsonNode>>) m.path("inputs")::fields) {
                inputs.put(in.getKey(), OnnxTensorFile.read(dir.resolve(in.getValue().path("file").asText())).value());
            }
        } catch (RuntimeException e) {
            String why = String.valueOf(e.getMessage());
            int cut = why.indexOf("; supported:");
            return new Result(name, "skipped", "does not import here: " + (cut > 0 ? why.substring(0, cut) : why), List.of(), null, null, null);
        }
        try {
            Plan plan = ArenaPlanner.plan(g);
            RunReport.Report rep = RunReport.measure(plan, d, "bench-real", List.of(Mode.values()), warmup, iterations, inputs);
            double worst = 0;
            boolean matches = true;
            for (JsonNode o : m.path("outputs")) {
                double[] want = OnnxTensorFile.read(dir.resolve(o.path("file").asText())).value().doubles();
                org.arenaplan.ir.TensorValue out = rep.outputs().get(o.path("name").asText());
                double[] got = out == null ? null : out.doubles();
                if (got == null || got.length != want.length) {
                    matches = false;
                    continue;
                }
                for (int i = 0; i < want.length; i++) {
                    double diff = Math.abs(got[i] - want[i]);
                    worst = Math.max(worst, diff);
                    if (!(diff <= ABS + REL * Math.abs(want[i]))) matches = false;
                }
            }
            return new Result(name, matches && rep.outputsEqual() ? "ran" : "failed",
                    rep.outputsEqual() ? (matches ? null : "outputs differ from the reference") : rep.firstDifference(),
                    rep.rows(), rep.outputsEqual(), worst, matches);
        } catch (RuntimeException e) {
            return new Result(name, "failed", e.toString(), List.of(), null, null, null);
        }
    }

    private static String line(Result r) {
        if (r.modes().isEmpty()) return String.format(Locale.ROOT, "%-16s %s: %s", r.model(), r.status(), r.reason());
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-16s %s: reference %s (max |d| %.3g), modes equal %s;",
                r.model(), r.status(), r.matchesReference() ? "matched" : "NOT matched", r.maxAbsError(), r.outputsEqualAcrossModes() ? "yes" : "NO"));
        for (RunReport.Row row : r.modes()) s.append(String.format(Locale.ROOT, " %s %.3f ms", row.mode().cliName(), row.msPerIteration()));
        return s.toString();
    }
}
