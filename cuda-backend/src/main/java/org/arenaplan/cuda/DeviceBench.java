package org.arenaplan.cuda;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arenaplan.device.Device;
import org.arenaplan.exec.Executor;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.RunResult;
import org.arenaplan.exec.WeightRegion;
import org.arenaplan.ir.Graph;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;

/**
 * {@code bench --device cuda}: per model, every mode (planned, per-tensor, pool, graph) side by
 * side. Steps per model: plan it (planner "best"); upload the weights once; per mode, open an
 * executor, run {@code warmup} iterations, then time {@code iterations} more (host wall time of
 * each run, and the device span from the {@link IterationTimer}); keep the medians, the allocator
 * calls and the peak requested device bytes of the last iteration, and whether the last outputs
 * equal planned's bit for bit; then the device memory held in one more, untimed, metered run.
 * Ratios are against planned.
 *
 * <p>Does not: isolate kernel time from copies (each run copies inputs in and outputs out, in
 * every mode alike).
 */
public final class DeviceBench {
    /** Times one iteration on the device; {@link Double#NaN} where the device has no clock. */
    public interface IterationTimer {
        void begin();

        double endMillis();

        /** No device clock (the simulator): device times are reported as NaN. */
        IterationTimer NONE = new IterationTimer() {
            @Override
            public void begin() { }

            @Override
            public double endMillis() {
                return Double.NaN;
            }
        };
    }

    /**
     * One model in one mode. {@code peakBytes}: the most bytes the executor asked for at once
     * during an iteration (requested, weights included); {@code heldBytes}: the most device memory
     * held in one untimed metered run ({@link Executors#heldPeak}: on CUDA the fall of free memory
     * since the device opened, so the driver's rounding and the pool's cache count; -1 where the
     * device cannot tell); {@code arenaBytes}: the plan's arena.
     */
    public record Row(String model, String mode, double hostMillis, double deviceMillis, long allocatorCalls,
                      long peakBytes, long heldBytes, long arenaBytes, boolean outputsEqualPlanned) { }

    private DeviceBench() { }

    /** Opens GPU 0, runs every model, closes it. Throws {@link CudaUnavailableException} without CUDA. */
    public static List<Row> onCuda(Map<String, Graph> models, int warmup, int iterations, PrintStream progress) {
        return onCuda(models, warmup, iterations, progress, false);
    }

    /** As {@link #onCuda(Map, int, int, PrintStream)}; with {@code tf32}, gemm and conv2d run on the TF32 tensor-core kernels ({@link CudaDevice#CudaDevice(int, boolean)}). */
    public static List<Row> onCuda(Map<String, Graph> models, int warmup, int iterations, PrintStream progress, boolean tf32) {
        try (TimedDevice device = new TimedDevice(new CudaDevice(0, tf32))) {
            progress.println("bench on " + device.description());
            return run(device, device, models, warmup, iterations, progress);
        }
    }

    /** GPU 0 with timing events; throws {@link CudaUnavailableException} without CUDA. */
    public static TimedDevice openTimedCuda() {
        return new TimedDevice(new CudaDevice(0));
    }

    /** The device's own clock where it has one ({@link TimedDevice}), else {@link IterationTimer#NONE}. */
    public static IterationTimer timerOf(Device device) {
        return device instanceof IterationTimer t ? t : IterationTimer.NONE;
    }

    public static List<Row> run(Device device, IterationTimer timer, Map<String, Graph> models, int warmup, int iterations,
                                PrintStream progress) {
        if (iterations < 1 || warmup < 0) throw new IllegalArgumentException("iterations must be >= 1 and warmup >= 0, got " + iterations + " and " + warmup);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Graph> m : models.entrySet()) {
            Graph g = m.getValue();
            Plan plan = ArenaPlanner.plan(g);
            Map<String, org.arenaplan.ir.TensorValue> inputs = Inputs.of(g, 1);
            Map<Mode, RunResult> last = new EnumMap<>(Mode.class);
            Map<Mode, double[]> medians = new EnumMap<>(Mode.class);
            try (WeightRegion weights = new WeightRegion(device, g, 1)) {
                for (Mode mode : Mode.values()) {
                    double[] host = new double[iterations], dev = new double[iterations];
                    try (Executor e = mode.open(device, plan, weights)) {
                        for (int i = 0; i < warmup; i++) e.run(inputs);
                        for (int i = 0; i < iterations; i++) {
                            timer.begin();
                            RunResult r = e.run(inputs);
                            dev[i] = timer.endMillis();
                            host[i] = r.nanos() / 1e6;
                            last.put(mode, r);
                        }
                    }
                    medians.put(mode, new double[] {median(host), median(dev), Executors.heldPeak(device, mode, plan, weights, inputs)});
                }
            }
            for (Mode mode : Mode.values()) {
                RunResult r = last.get(mode);
                rows.add(new Row(m.getKey(), mode.cliName(), medians.get(mode)[0], medians.get(mode)[1], r.counters().allocatorCalls(),
                        r.counters().peakLiveBytes(), (long) medians.get(mode)[2], plan.arenaBytes(), Executors.difference(last.get(Mode.PLANNED), r) == null));
            }
            progress.println("bench: " + m.getKey() + " done");
        }
        return rows;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** Printed under the table when a device time is absent ({@code -}: a device without a clock, the simulator). */
    public static final String NO_CLOCK_NOTE = "device ms -: this device has no clock (the simulator), so there is no device time; --json writes null there";

    /**
     * The side-by-side table: each mode's time, allocator calls and peak bytes, with ratios to
     * planned. A time or ratio that is not a number (no device clock: {@link IterationTimer#NONE})
     * prints as {@code -}, and {@link #NO_CLOCK_NOTE} follows the table.
     */
    public static void printTable(List<Row> rows, PrintStream out) {
        out.printf("%-16s %-10s %10s %8s %10s %8s %10s %14s %8s %14s %8s %6s%n", "model", "mode", "host ms", "x plan", "device ms", "x plan",
                "alloc/inf", "peak bytes", "x plan", "held bytes", "x plan", "equal");
        Map<String, Row> planned = new LinkedHashMap<>();
        for (Row r : rows) if (r.mode().equals(Mode.PLANNED.cliName())) planned.put(r.model(), r);
        for (Row r : rows) {
            Row p = planned.get(r.model());
            out.printf("%-16s %-10s %10.3f %8.2f %10s %8s %10d %14d %8.2f %14d %8.2f %6s%n", r.model(), r.mode(), r.hostMillis(),
                    r.hostMillis() / p.hostMillis(), orDash("%.3f", r.deviceMillis()), orDash("%.2f", r.deviceMillis() / p.deviceMillis()), r.allocatorCalls(),
                    r.peakBytes(), (double) r.peakBytes() / p.peakBytes(), r.heldBytes(), (double) r.heldBytes() / p.heldBytes(),
                    r.outputsEqualPlanned() ? "yes" : "NO");
        }
        if (rows.stream().anyMatch(r -> Double.isNaN(r.deviceMillis()))) out.println(NO_CLOCK_NOTE);
    }

    private static String orDash(String format, double v) {
        return Double.isFinite(v) ? String.format(format, v) : "-";
    }

    /** The rows as a JSON array, snake_case fields; a time that is not a number (no device clock) is null, as JSON has no NaN. */
    public static void writeJson(List<Row> rows, Path file) throws IOException {
        JsonSerializer<Double> nanAsNull = new JsonSerializer<>() {
            @Override
            public void serialize(Double v, JsonGenerator gen, SerializerProvider sp) throws IOException {
                if (Double.isFinite(v)) gen.writeNumber(v);
                else gen.writeNull();
            }
        };
        SimpleModule numbers = new SimpleModule().addSerializer(Double.class, nanAsNull).addSerializer(double.class, nanAsNull);
        new ObjectMapper().registerModule(numbers).setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), rows);
    }
}
