package org.arenaplan.gpu;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.CudaInfo;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * OUTDIR/results.json of a GPU run, every figure in one file: the probe's findings; each step of
 * run.sh with its exit status, seconds and limit ({@code steps.tsv}); every test case with its
 * outcome and seconds, and the counts (the console launcher's XML reports in {@code junit/});
 * the benchmark rows ({@code bench.json}: times, allocator calls, requested and held device bytes
 * per mode) and the real-weight models ({@code real.json}), each {@code null} where the step
 * wrote nothing.
 */
final class RunSummary {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunSummary() { }

    /** Writes results.json and prints it; returns 0 when every step passed, 3 without CUDA, 1 otherwise. */
    static int write(Path out, PrintStream print) throws IOException {
        ObjectNode root = of(out);
        String text = JSON.writeValueAsString(root);
        Files.writeString(out.resolve("results.json"), text + "\n", StandardCharsets.UTF_8);
        print.println(text);
        if (!root.path("cuda_available").asBoolean()) return 3;
        boolean ok = root.path("tests").path("failed").asLong() == 0 && root.path("tests").path("errors").asLong() == 0
                && root.path("tests").path("passed").asLong() > 0;
        for (var s : root.path("steps")) ok &= s.path("exit_code").asInt() == 0;
        return ok ? 0 : 1;
    }

    static ObjectNode of(Path out) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        CudaInfo info = Cuda.info();
        root.put("cuda_available", info.available());
        root.put("unavailability_cause", info.available() ? null : info.cause().getMessage());
        root.put("device", info.deviceName());
        root.put("total_memory_bytes", info.totalMemory());
        root.put("compute_capability", info.computeCapability());
        root.put("driver_version", info.driverVersion());
        root.put("cublas", info.cublas());
        ArrayNode steps = root.putArray("steps");
        Path tsv = out.resolve("steps.tsv");
        if (Files.exists(tsv)) {
            for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t");
                if (f.length < 4) continue;
                ObjectNode s = steps.addObject();
                s.put("step", f[0]);
                s.put("exit_code", Integer.parseInt(f[1]));
                s.put("seconds", Integer.parseInt(f[2]));
                s.put("limit_seconds", Integer.parseInt(f[3]));
                s.put("timed_out", f[1].equals("124") || f[1].equals("137"));
            }
        }
        root.set("tests", tests(out.resolve("junit")));
        root.set("bench", read(out.resolve("bench.json")));
        root.set("real_models", read(out.resolve("real.json")));
        return root;
    }

    private static com.fasterxml.jackson.databind.JsonNode read(Path file) throws IOException {
        return Files.exists(file) ? JSON.readTree(file.toFile()) : JSON.nullNode();
    }

    /** Counts and every test case from the JUnit XML reports under {@code dir}; zeros when there is none. */
    static ObjectNode tests(Path dir) throws IOException {
        ObjectNode t = JSON.createObjectNode();
        ArrayNode cases = JSON.createArrayNode();
        long passed = 0, skipped = 0, failed = 0, errors = 0;
        if (Files.isDirectory(dir)) {
            List<Path> reports;
            try (Stream<Path> files = Files.walk(dir)) {
                reports = files.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
            }
            for (Path p : reports) {
                NodeList list;
                try {
                    list = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.toFile()).getElementsByTagName("testcase");
                } catch (Exception e) {
                    throw new IOException(p + ": not a JUnit XML report: " + e.getMessage(), e);
                }
                for (int i = 0; i < list.getLength(); i++) {
                    Element c = (Element) list.item(i);
                    String outcome = has(c, "failure") ? "failed" : has(c, "error") ? "error" : has(c, "skipped") ? "skipped" : "passed";
                    switch (outcome) {
                        case "failed" -> failed++;
                        case "error" -> errors++;
                        case "skipped" -> skipped++;
                        default -> passed++;
                    }
                    ObjectNode o = cases.addObject();
                    o.put("test", c.getAttribute("classname") + "." + c.getAttribute("name"));
                    o.put("outcome", outcome);
                    o.put("seconds", c.getAttribute("time").isEmpty() ? 0 : Double.parseDouble(c.getAttribute("time")));
                    Element detail = first(c, "failure", "error", "skipped");
                    if (detail != null) o.put("message", detail.getAttribute("message"));
                }
            }
        }
        t.put("found", passed + skipped + failed + errors);
        t.put("passed", passed);
        t.put("skipped", skipped);
        t.put("failed", failed);
        t.put("errors", errors);
        t.set("cases", cases);
        return t;
    }

    private static boolean has(Element c, String tag) {
        return c.getElementsByTagName(tag).getLength() > 0;
    }

    private static Element first(Element c, String... tags) {
        for (String tag : tags) if (has(c, tag)) return (Element) c.getElementsByTagName(tag).item(0);
        return null;
    }
}
