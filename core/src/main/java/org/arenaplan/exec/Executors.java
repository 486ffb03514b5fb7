package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.Plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs one plan in several modes on one device and compares outputs bit for bit. */
public final class Executors {
    private Executors() { }

    /**
     * Per mode, the results of each iteration, and whether every mode's every iteration gave the
     * same bits as the first mode's first iteration.
     */
    public record Comparison(Map<Mode, List<RunResult>> results, boolean outputsEqual, String firstDifference) {
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
        Map<Mode, List<RunResult>> all = new LinkedHashMap<>();
        try (WeightRegion w = new WeightRegion(device, plan.graph(), weightSeed)) {
            for (Mode m : modes) {
                List<RunResult> rs = new ArrayList<>();
                try (Executor e = m.open(device, plan, w)) {
                    for (int i = 0; i < iterations; i++) rs.add(e.run(inputs));
                }
                all.put(m, rs);
            }
        }
        String diff = null;
        RunResult ref = all.values().iterator().next().get(0);
        for (List<RunResult> rs : all.values()) {
            for (RunResult r : rs) {
                if (diff == null) diff = difference(ref, r);
            }
        }
        return new Comparison(all, diff == null, diff);
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
