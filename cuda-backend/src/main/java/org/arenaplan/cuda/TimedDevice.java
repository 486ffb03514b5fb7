package org.arenaplan.cuda;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceGraph;
import org.arenaplan.device.ForwardingDevice;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelCall;

/**
 * A {@link CudaDevice} that measures the device time of an iteration with timing events: between
 * {@link #begin()} and {@link #endMillis()}, the first call that touches a stream records a start
 * event on it before that work, and the end records an end event on every touched stream. The
 * device time is from the earliest start to the latest end, on the GPU's clock.
 *
 * <p>Does not: separate kernels from copies (both count), or exclude time the GPU waits for the
 * host to issue work (it is part of the span).
 */
public final class TimedDevice extends ForwardingDevice implements DeviceBench.IterationTimer {
    private final CudaDevice cuda;
    private final Map<DeviceStream, DeviceEvent> starts = new LinkedHashMap<>();   // in the order recorded
    private final List<DeviceEvent> pool = new ArrayList<>();
    private boolean timing;

    public TimedDevice(CudaDevice cuda) {
        super(cuda);
        this.cuda = cuda;
    }

    /** Starts measuring; streams are timed from their next call on. */
    @Override
    public synchronized void begin() {
        starts.clear();
        timing = true;
    }

    /** Ends the measurement, waits for the touched streams, returns the span in milliseconds (0 when nothing ran). */
    @Override
    public synchronized double endMillis() {
        timing = false;
        if (starts.isEmpty()) return 0;
        List<DeviceEvent> ends = new ArrayList<>();
        int used = starts.size();
        for (Map.Entry<DeviceStream, DeviceEvent> e : starts.entrySet()) {
            DeviceEvent end = event(used + ends.size());
            cuda.recordEvent(end, e.getKey());
            ends.add(end);
        }
        for (DeviceEvent end : ends) end.synchronize();
        // The start recorded first (in host order) completed first: every start is recorded on a
        // stream before any work of this iteration is issued to it, and streams begin idle.
        DeviceEvent first = starts.values().iterator().next();
        double span = 0;
        for (DeviceEvent end : ends) span = Math.max(span, cuda.elapsedMillis(first, end));
        return span;
    }

    /** Timing event number {@code i}, created once and reused across iterations. */
    private DeviceEvent event(int i) {
        while (pool.size() <= i) pool.add(cuda.createTimingEvent());
        return pool.get(i);
    }

    private synchronized void touch(DeviceStream s) {
        if (!timing || starts.containsKey(s)) return;
        DeviceEvent start = event(starts.size());
        cuda.recordEvent(start, s);
        starts.put(s, start);
    }

    @Override
    public DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner) {
        touch(stream);
        return cuda.allocateAsync(bytes, stream, owner);
    }

    @Override
    public void freeAsync(DeviceBuffer buffer, DeviceStream stream) {
        touch(stream);
        cuda.freeAsync(buffer, stream);
    }

    @Override
    public void recordEvent(DeviceEvent event, DeviceStream stream) {
        touch(stream);
        cuda.recordEvent(event, stream);
    }

    @Override
    public void waitEvent(DeviceStream stream, DeviceEvent event) {
        touch(stream);
        cuda.waitEvent(stream, event);
    }

    @Override
    public void launch(DeviceStream stream, KernelCall call) {
        touch(stream);
        cuda.launch(stream, call);
    }

    @Override
    public void launchGraph(DeviceGraph graph, DeviceStream stream) {
        touch(stream);
        cuda.launchGraph(graph, stream);
    }

    @Override
    public void copyToDevice(DeviceStream stream, byte[] src, DevicePointer dst, String tensor) {
        touch(stream);
        cuda.copyToDevice(stream, src, dst, tensor);
    }

    @Override
    public void copyToDevice(DeviceStream stream, byte[] src, KernelArg dst) {
        touch(stream);
        cuda.copyToDevice(stream, src, dst);
    }

    @Override
    public void copyToHost(DeviceStream stream, DevicePointer src, byte[] dst, String tensor) {
        touch(stream);
        cuda.copyToHost(stream, src, dst, tensor);
    }

    @Override
    public void copyToHost(DeviceStream stream, KernelArg src, byte[] dst) {
        touch(stream);
        cuda.copyToHost(stream, src, dst);
    }

    @Override
    public void copyOnDevice(DeviceStream stream, DevicePointer src, DevicePointer dst, long bytes, String tensor) {
        touch(stream);
        cuda.copyOnDevice(stream, src, dst, bytes, tensor);
    }

    /** Closes the timing events, then the device. */
    @Override
    public void close() {
        try {
            pool.forEach(DeviceEvent::close);
        } finally {
            super.close();
        }
    }
}
