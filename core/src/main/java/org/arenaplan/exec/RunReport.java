package org.arenaplan.exec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.arenaplan.device.Device;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.plan.Plan;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * The {@code run} command: runs a plan in the chosen modes on the chosen device and prints one
 * table side by side (peak device bytes, allocator calls per iteration, time per iteration and
 * its ratio to planned) and whether the outputs are bit-identical across modes and iterations;
 * optionally the same as JSON with an {@code outputs_equal} boolean.
 */
public final class RunReport {
    /**
     * One mode's figures; {@code msPerIteration} is the mean over the timed iterations (those after
     * the warm-up). {@code peakDeviceBytes}: the most bytes the executor asked for at once
     * (weights included; requested, not rounded); {@code heldDeviceBytes}: the most device memory
     * held meanwhile in one metered run ({@link Device#heldBytes()}: the driver's rounding, pool
     * caches and, on CUDA, anything else the process took), -1 where the device cannot tell.
     */
    public record Row(Mode mode, long peakDeviceBytes, long heldDeviceBytes, double allocatorCallsPerIteration, double msPerIteration) { }

    /**
     * {@code warmup}: untimed iterations per mode before the {@code iterations} timed ones;
     * {@code outputs}: the graph outputs of the first mode's last iteration; {@code tf32}: gemm and
     * conv (group 1) ran on TF32 tensor cores (asked for with {@link DeviceOptions#tf32()} on
     * CUDA; the simulator ignores the option).
     */
    public record Report(String graph, String device, String deviceReason, int streams, int warmup, int iterations,
                         List<Row> rows, boolean outputsEqual, String firstDifference, Map<String, TensorValue> outputs, boolean tf32) {
        /** A report of runs without warm-up iterations (the form before {@code warmup} was recorded). */
        public Report(String graph, String device, String deviceReason, int streams, int iterations,
                      List<Row> rows, boolean outputsEqual, String firstDifference, Map<String, TensorValue> outputs, boolean tf32) {
            this(graph, device, deviceReason, streams, 0, iterations, rows, outputsEqual, firstDifference, outputs, tf32);
        }

        /** The same report with {@code tf32} set. */
        public Report withTf32(boolean on) {
            return new Report(graph, device, deviceReason, streams, warmup, iterations, rows, outputsEqual, firstDifference, outputs, on);
        }
    }

    /** Untimed iterations per mode before the timed ones where none is given: {@code bench}'s default too. */
    public static final int DEFAULT_WARMUP = 3;

    private RunReport() { }

    /**
     * Entry point of {@code ./arenaplan run}.
     *
     * @param plan       the plan to run (for several streams, one whose {@code sync()} orders every reuse)
     * @param device     auto, sim or cuda
     * @param mode       planned, per-tensor, pool or all
     * @param iterations timed iterations per mode (at least 1), after {@link #DEFAULT_WARMUP} untimed ones
     * @param json       where to write the JSON report, or null
     * @return the exit code: 0 when the outputs are equal across modes
     */
    public static int run(Plan plan, String device, String mode, int iterations, Path json, PrintStream out) {
        Report r = run(plan, device, DeviceOptions.DEFAULT, mode, DEFAULT_WARMUP, iterations, Inputs.of(plan.graph(), 1), out);
        if (json != null) writeJson(r, json);
        return r.outputsEqual() ? 0 : 1;
    }

    /** Runs with the given graph inputs ({@link #DEFAULT_WARMUP} warm-up iterations), prints the table and returns the report (outputs included). */
    public static Report run(Plan plan, String device, String mode, int iterations, Map<String, TensorValue> inputs, PrintStream out) {
        return run(plan, device, DeviceOptions.DEFAULT, mode, DEFAULT_WARMUP, iterations, inputs, out);
    }

    /**
     * As {@link #run(Plan, String, String, int, Map, PrintStream)} on a device opened with
     * {@code options}, each mode running {@code warmup} untimed iterations before its {@code
     * iterations} timed ones.
     *
     * @throws IllegalArgumentException when {@code warmup} is negative or {@code iterations} is below 1
     */
    public static Report run(Plan plan, String device, DeviceOptions options, String mode, int warmup, int iterations, Map<String, TensorValue> inputs, PrintStream out) {
        if (iterations < 1) throw new IllegalArgumentException("--iterations must be at least 1, got " + iterations);
        if (warmup < 0) throw new IllegalArgumentException("--warmup must be at least 0, got " + warmup);
        Devices.Choice choice = Devices.open(device, options);
        out.println("device: " + choice.device().description() + " — " + choice.reason());
        Report r;
        try (Device d = choice.device()) {
            r = measure(plan, d, choice.reason(), Mode.parse(mode), warmup, iterations, inputs).withTf32(options.tf32() && d.name().equals("cuda"));
        }
        print(r, out);
        return r;
    }

    /** {@link #measure(Plan, Device, String, List, int, int, Map)} with no warm-up and seeded inputs. */
    public static Report measure(Plan plan, Device d, String reason, List<Mode> modes, int iterations) {
        return measure(plan, d, reason, modes, 0, iterations, Inputs.of(plan.graph(), 1));
    }

    /**
     * Runs every mode of {@code modes} on {@code d}: {@code warmup} untimed iterations, then
     * {@code iterations} timed ones (each mode metered once for held memory first,
     * {@link Executors#run(Plan, Device, List, int, int, Map, long, boolean)}); every iteration's
     * outputs compared with the first. Prints nothing.
     */
    public static Report measure(Plan plan, Device d, String reason, List<Mode> modes, int warmup, int iterations, Map<String, TensorValue> inputs) {
        Executors.Comparison c = Executors.run(plan, d, modes, warmup, iterations, inputs, 1, true);
        List<Row> rows = new java.util.ArrayList<>();
        for (Mode m : modes) {
            List<RunResult> rs = c.results().get(m);
            long peak = 0;
            double calls = 0, nanos = 0;
            for (RunResult x : rs) {
                peak = Math.max(peak, x.counters().peakLiveBytes());
                calls += x.counters().allocatorCalls();
                nanos += x.nanos();
            }
            rows.add(new Row(m, peak, c.heldPeak(m), calls / rs.size(), nanos / rs.size() / 1e6));
        }
        return new Report(plan.graph().name(), d.name(), reason, plan.graph().streams().size(), warmup, iterations, rows,
                c.outputsEqual(), c.firstDifference(), c.last(modes.get(0)).outputs(), false);
    }

    public static void print(Report r, PrintStream out) {
        out.printf(Locale.ROOT, "graph %s, %d stream(s), %d iteration(s) per mode, after %d warm-up iteration(s)%n", r.graph(), r.streams(), r.iterations(), r.warmup());
        out.printf(Locale.ROOT, "%-11s %18s %14s %16s %14s %10s%n", "mode", "peak device B", "held B", "alloc calls/it", "ms/iteration", "vs planned");
        Double planned = null;
        for (Row row : r.rows()) if (row.mode() == Mode.PLANNED) planned = row.msPerIteration();
        for (Row row : r.rows()) {
            String ratio = planned == null || planned == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", row.msPerIteration() / planned);
            out.printf(Locale.ROOT, "%-11s %18d %14s %16.1f %14.3f %10s%n", row.mode().cliName(), row.peakDeviceBytes(),
                    row.heldDeviceBytes() < 0 ? "-" : Long.toString(row.heldDeviceBytes()),
                    row.allocatorCallsPerIteration(), row.msPerIteration(), ratio);
        }
        String verdict = r.outputsEqual() ? "yes (bit-identical" : "NO — " + r.firstDifference() + " (";
        if (r.rows().size() > 1) out.println("outputs equal across modes: " + verdict + ")");
        else if (r.iterations() + r.warmup() > 1) out.println("outputs equal across iterations: " + verdict + (r.outputsEqual() ? "; " : "") + "one mode, so nothing compared across modes)");
        else out.println("outputs: one mode, one iteration: nothing compared (--mode all compares the modes)");
    }

    public static void writeJson(Report r, Path file) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("graph", r.graph());
        root.put("device", r.device());
        root.put("device_reason", r.deviceReason());
        root.put("streams", r.streams());
        root.put("iterations", r.iterations());
        root.put("warmup", r.warmup());
        root.put("tf32", r.tf32());
        ArrayNode modes = root.putArray("modes");
        for (Row row : r.rows()) {
            ObjectNode o = modes.addObject();
            o.put("mode", row.mode().cliName());
            o.put("peak_device_bytes", row.peakDeviceBytes());
            o.put("held_device_bytes", row.heldDeviceBytes());
            o.put("allocator_calls_per_iteration", row.allocatorCallsPerIteration());
            o.put("ms_per_iteration", row.msPerIteration());
        }
        root.put("outputs_equal", r.outputsEqual());
        if (r.firstDifference() != null) root.put("first_difference", r.firstDifference());
        try {
            m.writeValue(file.toFile(), root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
