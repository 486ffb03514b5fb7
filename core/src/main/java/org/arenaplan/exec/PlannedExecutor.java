package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.KernelCall;
import org.arenaplan.plan.Plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a plan as planned: one arena allocation at load, each tensor at arena base +
 * {@code plan.addressOf(t)}, weights in a shared {@link WeightRegion}, kernels lowered once at
 * load. An iteration makes no allocator call. Never re-decides an address or an event.
 */
public class PlannedExecutor extends AbstractExecutor {
    private final DeviceBuffer arena;
    private final List<List<KernelCall>> calls = new ArrayList<>();

    public PlannedExecutor(Device device, Plan plan, WeightRegion weights) {
        this(device, plan, weights, "planned");
    }

    PlannedExecutor(Device device, Plan plan, WeightRegion weights, String mode) {
        super(device, plan, weights, mode);
        DeviceBuffer a = null;
        try {
            a = device.allocate(Math.max(WeightRegion.MIN_ALLOCATION, plan.arenaBytes()), "arena of " + graph.name() + " (" + label + ")");
            this.arena = a;
            OpLowering lowering = lowering();
            for (int p = 0; p < graph.opCount(); p++) calls.add(lowering.lower(graph.ops().get(p)));
        } catch (RuntimeException e) {
            if (a != null) a.close();   // a failed load releases everything it took
            super.close();
            throw e;
        }
    }

    @Override
    protected DevicePointer pointer(String t) {
        if (weights.holds(t)) return weights.pointer(t);
        return arena.at(plan.addressOf(t));
    }

    @Override
    protected final List<KernelCall> calls(int position) {
        return calls.get(position);
    }

    @Override
    public void close() {
        try {
            arena.close();
        } finally {
            super.close();
        }
    }
}
