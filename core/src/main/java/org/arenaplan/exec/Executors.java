package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.device.HeldMemoryMeter;
import org.arenaplan.plan.Plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs one plan in several modes on one device and compares outputs bit for bit. */
public final class Executors {
    private Executors() { }

    /**
     * Per mode, the results of each (timed) iteration, and whether every mode's every iteration,
     * warm-up ones included, gave the same bits as the first mode's first iteration.
     */
    public record Comparison(Map<Mode, List<RunResult>> results, boolean outputsEqual, String firstDifference, Map<Mode, Long> heldPeaks) {
        /** The peak device memory held during one metered run of mode {@code m}; -1 where not measured or not known. */
        public long heldPeak(Mode m) {
            return heldPeaks.getOrDefault(m, -1L);
        }

        public RunResult last(Mode m) {
            List<RunResult> r = results.get(m);
            return r.get(r.size() - 1);
        }
    }

    /** Every mode, one iteration, deterministic inputs (seed 1), weights seeded 1. */
    public static Comparison runAllModes(Plan plan, Device device) {
        return run(plan, device, List.of(Mode.values()), 1, Inputs.of(plan.graph(), 1), 1);
    }

    /** Runs each mode {@code iterations} times on the same inputs; one weight region for all. */
    public static Comparison run(Plan plan, Device device, List<Mode> modes, int iterations, Map<String, TensorValue> inputs, long weightSeed) {
        return run(plan, device, modes, iterations, inputs, weightSeed, false);
    }

    /**
     * As {@link #run(Plan, Device, List, int, Map, long)}; with {@code meterHeld}, each mode first
     * runs once more, untimed, through a {@link HeldMemoryMeter} (from opening its executor to
     * closing it) for the peak device memory held ({@link Device#heldBytes()}, weights included).
     * Those runs come before any timed one, so no mode's times pay for code that runs for the
     * first time (kernel loading, the JVM compiling the simulator's kernels), whatever its place
     * in the order.
     */
    public static Comparison run(Plan plan, Device device, List<Mode> modes, int iterations, Map<String, TensorValue> inputs, long weightSeed,
                                 boolean meterHeld) {
        return run(plan, device, modes, 0, iterations, inputs, weightSeed, meterHeld);
    }

    /**
     * As {@link #run(Plan, Device, List, int, Map, long, boolean)}, each mode's executor first
     * running {@code warmup} iterations that are left out of {@link Comparison#results()} (so out
     * of any time taken from them) but whose outputs are compared like the others: the first run
     * of an executor is checked too.
     *
     * @throws IllegalArgumentException when {@code warmup} is negative, {@code iterations} is below 1
     *                                  or the two sum past {@link Integer#MAX_VALUE} runs per mode
     * @throws ExecutionException       when a graph input or output is too large for one host array ({@link HostArrays})
     * @throws org.arenaplan.device.DataException when a kernel's data is refused ({@link LaunchChecks}); where
     *         {@code modes} is graph replay alone, which checks nothing, one untimed planned run checks it first
     */
    public static Comparison run(Plan plan, Device device, List<Mode> modes, int warmup, int iterations, Map<String, TensorValue> inputs, long weightSeed,
                                 boolean meterHeld) {
        if (warmup < 0 || iterations < 1 || (long) warmup + iterations > Integer.MAX_VALUE)
            throw new IllegalArgumentException("warmup must be >= 0, iterations >= 1 and their sum at most 2^31-1, got " + warmup + " and " + iterations);
        HostArrays.check(plan.graph());   // before the weights and arenas are allocated
        Map<Mode, List<RunResult>> all = new LinkedHashMap<>();
        Map<Mode, Long> held = new LinkedHashMap<>();
        RunResult ref = null;
        String diff = null;
        try (WeightRegion w = new WeightRegion(device, plan.graph(), weightSeed)) {
            if (!modes.isEmpty() && modes.stream().allMatch(m -> m == Mode.GRAPH))   // a replay checks no data (LaunchChecks): one planned run does, first
                try (Executor e = Mode.PLANNED.open(device, plan, w)) {
                    e.run(inputs);
                }
            if (meterHeld) for (Mode m : modes) held.put(m, heldPeak(device, m, plan, w, inputs));   // first: every mode's code has run once before any is timed
            for (Mode m : modes) {
                List<RunResult> rs = new ArrayList<>();
                try (Executor e = m.open(device, plan, w)) {
                    for (int i = 0; i < warmup + iterations; i++) {
                        RunResult r = e.run(inputs);
                        if (ref == null) ref = r;
                        else if (diff == null) diff = difference(ref, r);
                        if (i >= warmup) rs.add(r);
                    }
                }
                all.put(m, rs);
            }
        }
        return new Comparison(all, diff == null, diff, held);
    }

    /**
     * The peak device memory held ({@link Device#heldBytes()}, weights included) during one untimed
     * run of {@code m} through a {@link HeldMemoryMeter}, from opening the executor to closing it,
     * after a synchronization that lets the pool release what earlier runs cached; -1 where the
     * device cannot tell.
     */
    public static long heldPeak(Device device, Mode m, Plan plan, WeightRegion w, Map<String, TensorValue> inputs) {
        device.synchronize();
        HeldMemoryMeter meter = new HeldMemoryMeter(device);
        try (Executor e = m.open(meter, plan, w)) {
            e.run(inputs);
        }
        return meter.peakHeldBytes();
    }

    /** Null when both results have bit-identical outputs, else which output differs where. */
    public static String difference(RunResult a, RunResult b) {
        for (Map.Entry<String, TensorValue> e : a.outputs().entrySet()) {
            TensorValue x = e.getValue(), y = b.outputs().get(e.getKey());
            if (y == null) return "output '" + e.getKey() + "' missing in " + b.mode();
            int i = x.firstDifference(y);
            if (i == -1) continue;
            if (i == -2) return "output '" + e.getKey() + "': " + a.mode() + " " + x + " vs " + b.mode() + " " + y;
            return "output '" + e.getKey() + "' [" + i + "]: " + a.mode() + " " + x.format(i) + " vs " + b.mode() + " " + y.format(i);
        }
        return null;
    }
}
