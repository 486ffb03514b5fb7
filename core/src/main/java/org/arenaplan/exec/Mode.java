package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.plan.Plan;

import java.util.List;
import java.util.Locale;

/**
 * The ways to run a plan, by their command-line names: as planned (one arena), per tensor
 * ({@code cuMemAlloc}/{@code cuMemFree}), from the stream-ordered pool, and as planned replayed
 * from a captured graph ({@link GraphExecutor}).
 */
public enum Mode {
    PLANNED("planned"), PER_TENSOR("per-tensor"), POOL("pool"), GRAPH("graph");

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
            case POOL: return new PoolExecutor(device, plan, weights);
            default: return new GraphExecutor(device, plan, weights);
        }
    }

    /**
     * {@code planned|per-tensor|pool|graph|all} (any case), as {@code --mode} spells them; {@code all}: every mode.
     *
     * @throws IllegalArgumentException for any other word, naming the known ones
     */
    public static List<Mode> parse(String s) {
        String k = s.toLowerCase(Locale.ROOT);
        if (k.equals("all")) return List.of(values());
        for (Mode m : values()) if (m.cliName.equals(k)) return List.of(m);
        throw new IllegalArgumentException("unknown mode '" + s + "'; known: planned, per-tensor, pool, graph, all");
    }

    @Override
    public String toString() {
        return cliName;
    }

}
