package org.arenaplan.cuda;

import jcuda.driver.CUevent;
import org.arenaplan.device.DeviceEvent;

/** A CUDA event; timing is disabled except for the ones {@link CudaDevice#createTimingEvent()} makes. */
final class CudaEvent implements DeviceEvent {
    private final CudaDevice device;
    final CUevent event;
    private boolean closed;

    CudaEvent(CudaDevice device, CUevent event) {
        this.device = device;
        this.event = event;
    }

    @Override
    public void synchronize() {
        device.synchronize(this);
    }

    @Override
    public boolean query() {
        return device.query(this);
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        device.destroy(this);
    }
}
