package org.arenaplan.cuda;

import jcuda.driver.CUstream;
import org.arenaplan.device.DeviceStream;

/** A non-blocking CUDA stream. */
final class CudaStream implements DeviceStream {
    private final CudaDevice device;
    private final String name;
    final CUstream stream;
    private boolean closed;

    CudaStream(CudaDevice device, String name, CUstream stream) {
        this.device = device;
        this.name = name;
        this.stream = stream;
    }

    @Override
    public String name() { return name; }

    @Override
    public void synchronize() {
        device.synchronize(this);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        device.destroy(this);
    }

    synchronized boolean isClosed() { return closed; }
}
