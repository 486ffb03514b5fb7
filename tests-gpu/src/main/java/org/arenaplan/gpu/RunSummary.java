package org.arenaplan.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.CudaInfo;

/**
 * results.json of a GPU run: the probe's findings, the JUnit counts read from the console
 * launcher's XML report (OUTDIR/junit), and the benchmark JSON (OUTDIR/bench.json) when written.
 */
final class RunSummary {
    private static final Pattern COUNTS = Pattern.compile("<testsuite [^>]*?tests=\"(\\d+)\"[^>]*?skipped=\"(\\d+)\"[^>]*?failures=\"(\\d+)\"[^>]*?errors=\"(\\d+)\"");

    private RunSummary() { }

    static String of(Path out, int testsExit, int benchExit) throws IOException {
        long[] counts = junitCounts(out.resolve("junit"));
        Path bench = out.resolve("bench.json");
        CudaInfo info = Cuda.info();
        StringBuilder s = new StringBuilder("{\n");
        s.append("  \"cuda_available\": ").append(info.available()).append(",\n");
        s.append("  \"unavailability_cause\": ").append(quote(info.available() ? null : info.cause().getMessage())).append(",\n");
        s.append("  \"device\": ").append(quote(info.deviceName())).append(",\n");
        s.append("  \"driver_version\": ").append(info.driverVersion()).append(",\n");
        s.append("  \"cublas\": ").append(info.cublas()).append(",\n");
        s.append("  \"tests\": {\"exit_code\": ").append(testsExit).append(", \"found\": ").append(counts[0])
                .append(", \"skipped\": ").append(counts[1]).append(", \"failed\": ").append(counts[2])
                .append(", \"errors\": ").append(counts[3]).append("},\n");
        s.append("  \"bench\": {\"exit_code\": ").append(benchExit).append(", \"results\": ")
                .append(Files.exists(bench) ? Files.readString(bench, StandardCharsets.UTF_8).strip() : "null").append("}\n}\n");
        return s.toString();
    }

    /** Sums tests, skipped, failures, errors over every XML report under {@code dir}; zeros when there is none. */
    private static long[] junitCounts(Path dir) throws IOException {
        long[] sum = new long[4];
        if (!Files.isDirectory(dir)) return sum;
        List<Path> reports;
        try (Stream<Path> files = Files.walk(dir)) {
            reports = files.filter(p -> p.toString().endsWith(".xml")).toList();
        }
        for (Path p : reports) {
            Matcher m = COUNTS.matcher(Files.readString(p, StandardCharsets.UTF_8));
            while (m.find()) for (int i = 0; i < 4; i++) sum[i] += Long.parseLong(m.group(i + 1));
        }
        return sum;
    }

    private static String quote(String v) {
        if (v == null) return "null";
        StringBuilder s = new StringBuilder("\"");
        for (char c : v.toCharArray()) {
            if (c == '"' || c == '\\') s.append('\\').append(c);
            else if (c < 0x20) s.append(String.format("\\u%04x", (int) c));
            else s.append(c);
        }
        return s.append('"').toString();
    }
}
