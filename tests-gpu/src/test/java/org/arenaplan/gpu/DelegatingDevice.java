package org.arenaplan.gpu;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceCounters;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelCall;

/** A device that forwards every call; test devices override the few calls they change. */
abstract class DelegatingDevice implements Device {
    protected final Device inner;

    DelegatingDevice(Device inner) {
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
    @Override public void copyToHost(DeviceStream s, DevicePointer src, byte[] dst, String t) { inner.copyToHost(s, src, dst, t); }
    @Override public void copyOnDevice(DeviceStream s, DevicePointer src, DevicePointer dst, long bytes, String t) { inner.copyOnDevice(s, src, dst, bytes, t); }
    @Override public void synchronize() { inner.synchronize(); }
    @Override public DeviceCounters counters() { return inner.counters(); }
    @Override public void resetPeaks() { inner.resetPeaks(); }
    @Override public void close() { inner.close(); }
}
