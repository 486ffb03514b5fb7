package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.Plan;

/**
 * Baseline: a synchronous allocation ({@code cuMemAlloc}) per storage on its first write, a
 * synchronous free ({@code cuMemFree}) after its last access is issued. The free waits for every
 * stream, so it is correct across streams (the last reader's completion is ordered before the
 * bytes return) at the price of a device-wide stall per free.
 */
public final class PerTensorExecutor extends PerStorageExecutor {
    public PerTensorExecutor(Device device, Plan plan, WeightRegion weights) {
        super(device, plan, weights, "per-tensor");
    }

    @Override
    protected DeviceBuffer acquire(Storage s, int position) {
        return device.allocate(sizeOf(s), "storage '" + s.name() + "' (" + label + ")");
    }

    @Override
    protected void release(Storage s, DeviceBuffer b, int position) {
        device.free(b);
    }
}
