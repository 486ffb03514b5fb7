package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.Plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The baselines' shape: the plan's storages (its aliasing: views, member slices, in-place
 * results share one allocation) and its events, but each storage gets its own allocation just
 * before its first write and gives it back right after its last access is issued. Caller-owned
 * storages (inputs, outputs) are held until the outputs are copied out. Subclasses say how to
 * allocate and free.
 */
abstract class PerStorageExecutor extends AbstractExecutor {
    private final List<List<Storage>> startingAt = new ArrayList<>();
    private final List<List<Storage>> lastAccessAt = new ArrayList<>();
    private final DeviceBuffer[] buffers;

    PerStorageExecutor(Device device, Plan plan, WeightRegion weights, String mode) {
        super(device, plan, weights, mode);
        int n = graph.opCount();
        for (int p = 0; p < n; p++) {
            startingAt.add(new ArrayList<>(1));
            lastAccessAt.add(new ArrayList<>(1));
        }
        for (Storage s : plan.storages()) {
            if (!s.graphInput()) startingAt.get(s.start()).add(s);
            if (!s.pinned() && s.end() <= n) lastAccessAt.get(s.end() - 1).add(s);
        }
        buffers = new DeviceBuffer[plan.storages().size()];
    }

    /** Allocates for storage {@code s}, whose first write is at {@code position} (-1: a graph input). */
    protected abstract DeviceBuffer acquire(Storage s, int position);

    /** Gives back storage {@code s}'s allocation after its last access, at {@code position} (-1: end of iteration). */
    protected abstract void release(Storage s, DeviceBuffer b, int position);

    @Override
    protected DevicePointer pointer(String t) {
        if (weights.holds(t)) return weights.pointer(t);
        int s = plan.lifetimes().storageOf(t);
        DeviceBuffer b = buffers[s];
        if (b == null) throw new ExecutionException("tensor " + display(t) + " used outside its storage's lifetime");
        return b.at(plan.lifetimes().offsetInStorage(t));
    }

    @Override
    protected void beginIteration() {
        for (Storage s : plan.storages()) if (s.graphInput()) buffers[s.id()] = acquire(s, -1);
    }

    @Override
    protected void beforeOp(int position) {
        for (Storage s : startingAt.get(position)) buffers[s.id()] = acquire(s, position);
    }

    @Override
    protected void afterOp(int position) {
        for (Storage s : lastAccessAt.get(position)) releaseNow(s, position);
    }

    @Override
    protected void endIteration() {
        for (Storage s : plan.storages()) if (buffers[s.id()] != null) releaseNow(s, -1);
    }

    private void releaseNow(Storage s, int position) {
        DeviceBuffer b = buffers[s.id()];
        buffers[s.id()] = null;
        release(s, b, position);
    }

    /** Allocation size: a storage of 0 bytes still gets {@link WeightRegion#MIN_ALLOCATION} so that it has an address. */
    protected static long sizeOf(Storage s) {
        return Math.max(WeightRegion.MIN_ALLOCATION, s.bytes());
    }

    @Override
    public void close() {
        try {
            for (int i = 0; i < buffers.length; i++) {
                if (buffers[i] != null && buffers[i].isLive()) buffers[i].close();
                buffers[i] = null;
            }
        } finally {
            super.close();
        }
    }
}
