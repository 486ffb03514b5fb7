package org.arenaplan.device;

/**
 * A device that forwards every call to another; wrappers (timing, memory metering, test devices
 * that delay or poison) override the few calls they change. Closing closes the inner device.
 */
public abstract class ForwardingDevice implements Device {
    protected final Device inner;

    protected ForwardingDevice(Device inner) {
        this.inner = inner;
    }

    @Override public String name() { return inner.name(); }
    @Override public String description() { return inner.description(); }
    @Override public DeviceBuffer allocate(long bytes, String owner) { return inner.allocate(bytes, owner); }
    @Override public void free(DeviceBuffer buffer) { inner.free(buffer); }
    @Override public DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner) { return inner.allocateAsync(bytes, stream, owner); }
    @Override public void freeAsync(DeviceBuffer buffer, DeviceStream stream) { inner.freeAsync(buffer, stream); }
    @Override public DeviceStream createStream(String name) { return inner.createStream(name); }
    @Override public DeviceEvent createEvent() { return inner.createEvent(); }
    @Override public void recordEvent(DeviceEvent event, DeviceStream stream) { inner.recordEvent(event, stream); }
    @Override public void waitEvent(DeviceStream stream, DeviceEvent event) { inner.waitEvent(stream, event); }
    @Override public void launch(DeviceStream stream, KernelCall call) { inner.launch(stream, call); }
    @Override public void copyToDevice(DeviceStream s, byte[] src, DevicePointer dst, String t) { inner.copyToDevice(s, src, dst, t); }
    @Override public void copyToDevice(DeviceStream s, byte[] src, KernelArg dst) { inner.copyToDevice(s, src, dst); }
    @Override public void copyToHost(DeviceStream s, DevicePointer src, byte[] dst, String t) { inner.copyToHost(s, src, dst, t); }
    @Override public void copyToHost(DeviceStream s, KernelArg src, byte[] dst) { inner.copyToHost(s, src, dst); }
    @Override public void copyOnDevice(DeviceStream s, DevicePointer src, DevicePointer dst, long bytes, String t) { inner.copyOnDevice(s, src, dst, bytes, t); }
    @Override public void beginCapture(DeviceStream origin) { inner.beginCapture(origin); }
    @Override public DeviceGraph endCapture(DeviceStream origin) { return inner.endCapture(origin); }
    @Override public void launchGraph(DeviceGraph graph, DeviceStream stream) { inner.launchGraph(graph, stream); }
    @Override public long heldBytes() { return inner.heldBytes(); }
    @Override public void synchronize() { inner.synchronize(); }
    @Override public DeviceCounters counters() { return inner.counters(); }
    @Override public void resetPeaks() { inner.resetPeaks(); }
    @Override public void close() { inner.close(); }
}
