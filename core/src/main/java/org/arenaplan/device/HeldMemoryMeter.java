package org.arenaplan.device;

/**
 * Measures the peak device memory held while work runs through it: samples
 * {@link Device#heldBytes()} after every call that can make the device take memory (allocations,
 * graph instantiation, launches of a graph, synchronization) and keeps the largest. Sampling may
 * cost a driver call each ({@code cuMemGetInfo}), so a meter is for an untimed run. Closing a
 * meter does not close the device it watches.
 */
public final class HeldMemoryMeter extends ForwardingDevice {
    private long peak = -1;

    public HeldMemoryMeter(Device device) {
        super(device);
        sample();
    }

    /** The largest held bytes seen since this meter was made; -1 where the device does not know. */
    public long peakHeldBytes() {
        return peak;
    }

    private void sample() {
        long h = inner.heldBytes();
        if (h >= 0) peak = Math.max(peak, h);
    }

    @Override
    public DeviceBuffer allocate(long bytes, String owner) {
        DeviceBuffer b = super.allocate(bytes, owner);
        sample();
        return b;
    }

    @Override
    public DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner) {
        DeviceBuffer b = super.allocateAsync(bytes, stream, owner);
        sample();
        return b;
    }

    @Override
    public DeviceGraph endCapture(DeviceStream origin) {
        DeviceGraph g = super.endCapture(origin);
        sample();
        return g;
    }

    @Override
    public void launchGraph(DeviceGraph graph, DeviceStream stream) {
        super.launchGraph(graph, stream);
        sample();
    }

    @Override
    public void synchronize() {
        super.synchronize();
        sample();
    }

    /** Leaves the watched device open. */
    @Override
    public void close() { }
}
