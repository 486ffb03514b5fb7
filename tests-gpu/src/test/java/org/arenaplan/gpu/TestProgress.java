package org.arenaplan.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes each test's outcome to a file as it happens, one line per event, so that a tests step
 * killed at its limit (run.sh) still leaves which tests passed, failed or were skipped, and which
 * one was running: the console launcher writes its JUnit XML only at the end. Active only when the
 * configuration parameter {@value #FILE_PARAMETER} names the file (run.sh passes it); registered
 * through {@code META-INF/services}, so every other run of these tests leaves it idle.
 *
 * <p>Lines, tab-separated: {@code started NAME}; {@code passed|failed|error NAME SECONDS MESSAGE};
 * {@code skipped NAME 0 REASON}. NAME is {@code CLASS.METHOD()} as in the JUnit XML reports, or
 * {@code CLASS} for a class skipped as a whole. Read by {@link RunSummary}.
 */
public final class TestProgress implements TestExecutionListener {
    /** The configuration parameter naming the progress file. */
    public static final String FILE_PARAMETER = "arenaplan.test.progress";

    private volatile Path file;
    private final Map<String, Long> startNanos = new ConcurrentHashMap<>();

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        file = plan.getConfigurationParameters().get(FILE_PARAMETER).map(Path::of).orElse(null);
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (file == null || !id.isTest()) return;
        startNanos.put(id.getUniqueId(), System.nanoTime());
        append("started", name(id));
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (file == null || name(id) == null) return;
        append("skipped", name(id), "0", reason);
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (file == null || !id.isTest()) return;
        Long t0 = startNanos.remove(id.getUniqueId());
        String seconds = t0 == null ? "0" : String.format(java.util.Locale.ROOT, "%.3f", (System.nanoTime() - t0) / 1e9);
        String outcome = switch (result.getStatus()) {
            case SUCCESSFUL -> "passed";
            case FAILED -> result.getThrowable().map(t -> t instanceof AssertionError ? "failed" : "error").orElse("failed");
            case ABORTED -> "skipped";
        };
        append(outcome, name(id), seconds, result.getThrowable().map(String::valueOf).orElse(""));
    }

    /** {@code CLASS.METHOD(PARAMETER TYPES)} for a test method, {@code CLASS} for a class; null otherwise. */
    static String name(TestIdentifier id) {
        var source = id.getSource().orElse(null);
        if (source instanceof MethodSource m) return m.getClassName() + "." + m.getMethodName() + "(" + m.getMethodParameterTypes() + ")";
        if (source instanceof ClassSource c) return c.getClassName();
        return null;
    }

    private synchronized void append(String... fields) {
        StringBuilder line = new StringBuilder();
        for (String f : fields) {
            if (line.length() > 0) line.append('\t');
            line.append(f == null ? "" : f.replaceAll("[\\t\\r\\n]+", " "));
        }
        try {
            Files.writeString(file, line.append('\n'), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the test progress file " + file, e);
        }
    }
}
