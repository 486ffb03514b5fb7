package org.arenaplan.gpu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * OUTDIR/results.json of a GPU run, every figure in one file: the probe's findings (from
 * {@code probe.json}, which the doctor step writes: {@link ProbeFile}; this class never loads the
 * CUDA driver, so a driver that hangs cannot keep the summary from being written); each step of
 * run.sh with its exit status, seconds, limit and {@code status} ({@code steps.tsv}: passed,
 * failed, timed out, or skipped with its {@code reason}); every test case with its outcome and
 * seconds, and the counts (the console launcher's XML reports in {@code junit/}, or, where the
 * tests step was killed before writing them, {@code tests-progress.tsv} of {@link #PROGRESS_FILE},
 * naming the tests that never finished); the benchmark rows ({@code bench.json}: times,
 * allocator calls, requested and held device bytes per mode, graph replay among them) and the
 * real-weight models ({@code real.json}), each {@code null} where the step wrote nothing; and
 * {@code outcome}, one line saying what happened (no CUDA device found, which steps were skipped).
 */
final class RunSummary {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunSummary() { }

    /** The file the tests step's {@code TestProgress} listener appends to, one line per test event. */
    static final String PROGRESS_FILE = "tests-progress.tsv";

    /**
     * Writes results.json and prints it; returns 0 when every step passed (or was skipped), 3 when
     * the probe found no usable CUDA device, 1 otherwise (a step failed or timed out, a test failed,
     * no test passed, or the doctor step left no probe.json).
     */
    static int write(Path out, PrintStream print) throws IOException {
        ObjectNode root = of(out);
        String text = JSON.writeValueAsString(root);
        Files.writeString(out.resolve("results.json"), text + "\n", StandardCharsets.UTF_8);
        print.println(text);
        if (root.path("cuda_available").isBoolean() && !root.path("cuda_available").asBoolean()) return 3;
        if (!root.path("cuda_available").asBoolean()) return 1;
        boolean ok = root.path("tests").path("failed").asLong() == 0 && root.path("tests").path("errors").asLong() == 0
                && root.path("tests").path("unfinished").asLong() == 0 && root.path("tests").path("passed").asLong() > 0;
        for (var s : root.path("steps")) ok &= s.path("status").asText().equals("passed") || s.path("status").asText().equals("skipped");
        return ok ? 0 : 1;
    }

    static ObjectNode of(Path out) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode steps = steps(out.resolve("steps.tsv"));
        JsonNode probe = read(out.resolve("probe.json"));
        if (probe.isObject() && !probe.has(UNREADABLE)) {
            root.setAll((ObjectNode) probe);
        } else {
            root.putNull("cuda_available");
            String doctor = "the doctor step did not run";
            for (var s : steps) if (s.path("step").asText().equals("doctor")) doctor = "the doctor step " + s.path("status").asText() + " (exit " + s.path("exit_code") + ")";
            String found = probe.isNull() ? "no probe.json" : probe.has(UNREADABLE) ? probe.get(UNREADABLE).asText() : "probe.json is not a JSON object";
            root.put("unavailability_cause", "unknown: " + found + "; " + doctor + "; see doctor.txt and run.log");
        }
        root.set("steps", steps);
        root.set("tests", tests(out.resolve("junit"), out.resolve(PROGRESS_FILE)));
        root.set("bench", read(out.resolve("bench.json")));
        root.set("real_models", read(out.resolve("real.json")));
        root.put("outcome", outcome(root));
        return root;
    }

    /**
     * Each line of steps.tsv ({@code NAME EXIT SECONDS LIMIT [REASON]}, EXIT {@code skipped} for a
     * step run.sh did not start) as {@code step, exit_code (null when skipped), seconds,
     * limit_seconds, timed_out, status (passed; no cuda: exit 3, the runner's exit without a CUDA device;
     * failed; timed out; skipped), reason (skipped only)}.
     */
    static ArrayNode steps(Path tsv) throws IOException {
        ArrayNode steps = JSON.createArrayNode();
        if (!Files.exists(tsv)) return steps;
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            if (f.length < 4) continue;
            ObjectNode s = steps.addObject();
            s.put("step", f[0]);
            boolean skipped = f[1].equals("skipped"), timedOut = f[1].equals("124") || f[1].equals("137");
            if (skipped) s.putNull("exit_code");
            else s.put("exit_code", Integer.parseInt(f[1]));
            s.put("seconds", Integer.parseInt(f[2]));
            s.put("limit_seconds", Integer.parseInt(f[3]));
            s.put("timed_out", timedOut);
            s.put("status", skipped ? "skipped" : timedOut ? "timed out" : f[1].equals("0") ? "passed" : f[1].equals("3") ? "no cuda" : "failed");
            if (skipped) s.put("reason", f.length > 4 ? f[4] : "");
        }
        return steps;
    }

    /** One line: whether a CUDA device was found, the tests' counts, each step that did not pass and why. */
    static String outcome(ObjectNode root) {
        StringBuilder s = new StringBuilder();
        JsonNode available = root.path("cuda_available");
        if (!available.isBoolean()) s.append("CUDA device unknown: ").append(root.path("unavailability_cause").asText());
        else if (!available.asBoolean()) s.append("no CUDA device found: ").append(root.path("unavailability_cause").asText());
        else s.append("CUDA device ").append(root.path("device").asText());
        JsonNode t = root.path("tests");
        s.append("; tests: ").append(t.path("found").asLong()).append(" found, ").append(t.path("passed").asLong()).append(" passed, ")
                .append(t.path("skipped").asLong()).append(" skipped, ").append(t.path("failed").asLong() + t.path("errors").asLong()).append(" failed");
        if (t.path("unfinished").asLong() > 0) s.append(", ").append(t.path("unfinished").asLong()).append(" unfinished");
        for (JsonNode step : root.path("steps")) {
            String status = step.path("status").asText();
            if (status.equals("passed")) continue;
            s.append("; ").append(step.path("step").asText()).append(' ').append(status);
            if (status.equals("skipped")) s.append(" (").append(step.path("reason").asText()).append(')');
            else if (status.equals("failed") || status.equals("no cuda")) s.append(" (exit ").append(step.path("exit_code").asInt()).append(')');
            else s.append(" (limit ").append(step.path("limit_seconds").asInt()).append(" s)");
        }
        return s.toString();
    }

    /** The key of the object {@link #read} gives for a file that is not JSON. */
    static final String UNREADABLE = "unreadable";

    /**
     * The JSON of {@code file}; null when there is none; {@code {"unreadable": "FILE: why"}} when it
     * is not JSON (a step killed while rewriting it leaves it cut short), so that the summary is
     * still written.
     */
    private static JsonNode read(Path file) throws IOException {
        if (!Files.exists(file)) return JSON.nullNode();
        try {
            JsonNode n = JSON.readTree(file.toFile());
            return n == null || n.isMissingNode() ? JSON.createObjectNode().put(UNREADABLE, file.getFileName() + ": empty") : n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return JSON.createObjectNode().put(UNREADABLE, file.getFileName() + ": not JSON (" + e.getOriginalMessage() + ")");
        }
    }

    /**
     * Counts and every test case: from the JUnit XML reports under {@code dir} where there are
     * any, else from the {@code progress} file (a tests step killed before the launcher wrote its
     * reports), where a test that started and never finished is {@code unfinished}; zeros when there
     * is neither. {@code source}: {@code junit-xml}, {@code progress} or null.
     */
    static ObjectNode tests(Path dir, Path progress) throws IOException {
        List<Path> reports = List.of();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                reports = files.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
            }
        }
        Map<String, ObjectNode> cases = new LinkedHashMap<>();
        String source = null;
        if (!reports.isEmpty()) {
            source = "junit-xml";
            for (Path p : reports) fromXml(p, cases);
        } else if (Files.exists(progress)) {
            source = "progress";
            fromProgress(progress, cases);
        }
        ObjectNode t = JSON.createObjectNode();
        t.put("source", source);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String o : List.of("passed", "skipped", "failed", "errors", "unfinished")) counts.put(o, 0L);
        for (ObjectNode c : cases.values()) counts.merge(c.path("outcome").asText().equals("error") ? "errors" : c.path("outcome").asText(), 1L, Long::sum);
        t.put("found", cases.size());
        counts.forEach(t::put);
        t.putArray("cases").addAll(cases.values());
        return t;
    }

    private static void fromXml(Path p, Map<String, ObjectNode> cases) throws IOException {
        NodeList list;
        try {
            list = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.toFile()).getElementsByTagName("testcase");
        } catch (Exception e) {
            throw new IOException(p + ": not a JUnit XML report: " + e.getMessage(), e);
        }
        for (int i = 0; i < list.getLength(); i++) {
            Element c = (Element) list.item(i);
            String outcome = has(c, "failure") ? "failed" : has(c, "error") ? "error" : has(c, "skipped") ? "skipped" : "passed";
            Element detail = first(c, "failure", "error", "skipped");
            put(cases, c.getAttribute("classname") + "." + c.getAttribute("name"), outcome,
                    c.getAttribute("time").isEmpty() ? 0 : Double.parseDouble(c.getAttribute("time")), detail == null ? null : detail.getAttribute("message"));
        }
    }

    /** The progress file's lines (see {@code TestProgress}): the last event of each test wins; {@code started} alone is unfinished. */
    private static void fromProgress(Path progress, Map<String, ObjectNode> cases) throws IOException {
        for (String line : Files.readAllLines(progress, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", 4);
            if (f.length < 2) continue;
            if (f[0].equals("started")) put(cases, f[1], "unfinished", 0, "started and still running when the tests step ended");
            else put(cases, f[1], f[0], f.length > 2 ? seconds(f[2]) : 0, f.length > 3 ? f[3] : null);
        }
    }

    private static double seconds(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {   // a line cut short by the kill
            return 0;
        }
    }

    private static void put(Map<String, ObjectNode> cases, String test, String outcome, double seconds, String message) {
        ObjectNode o = JSON.createObjectNode();
        o.put("test", test);
        o.put("outcome", outcome);
        o.put("seconds", seconds);
        if (message != null) o.put("message", message);
        cases.put(test, o);
    }

    private static boolean has(Element c, String tag) {
        return c.getElementsByTagName(tag).getLength() > 0;
    }

    private static Element first(Element c, String... tags) {
        for (String tag : tags) if (has(c, tag)) return (Element) c.getElementsByTagName(tag).item(0);
        return null;
    }
}
