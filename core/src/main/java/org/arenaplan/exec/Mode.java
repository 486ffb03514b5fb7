package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.plan.Plan;

import java.util.List;
import java.util.Locale;

/** The three ways to run a plan, by their command-line names. */
public enum Mode {
    PLANNED("planned"), PER_TENSOR("per-tensor"), POOL("pool");

    private final String cliName;

    Mode(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    public Executor open(Device device, Plan plan, WeightRegion weights) {
        switch (this) {
            case PLANNED: return new PlannedExecutor(device, plan, weights);
            case PER_TENSOR: return new PerTensorExecutor(device, plan, weights);
            default: return new PoolExecutor(device, plan, weights);
        }
    }

    /** {@code planned|per-tensor|pool|all}. */
    public static List<Mode> parse(String s) {
        String k = s.toLowerCase(Locale.ROOT);
        if (k.equals("all")) return List.of(values());
        for (Mode m : values()) if (m.cliName.equals(k)) return List.of(m);
        throw new IllegalArgumentException("unknown mode '" + s + "'; known: planned, per-tensor, pool, all");
    }

    @Override
    public String toString() {
        return cliName;
    }

}
