package org.arenaplan.cuda;

import jcuda.driver.CUdeviceptr;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceException;

/** One device allocation made by {@link CudaDevice}; {@code async} ones came from the stream-ordered pool. */
final class CudaBuffer implements DeviceBuffer {
    private final CudaDevice device;
    private final CUdeviceptr pointer;
    private final long bytes;
    private final String owner;
    private final boolean async;
    private volatile boolean live = true;

    CudaBuffer(CudaDevice device, CUdeviceptr pointer, long bytes, String owner, boolean async) {
        this.device = device;
        this.pointer = pointer;
        this.bytes = bytes;
        this.owner = owner;
        this.async = async;
    }

    @Override
    public long bytes() { return bytes; }

    @Override
    public String owner() { return owner; }

    @Override
    public boolean isLive() { return live; }

    boolean async() { return async; }

    CudaDevice device() { return device; }

    /** The driver address {@code offset} bytes in; a freed buffer is an error naming its owner. */
    CUdeviceptr address(long offset) {
        if (!live) throw new DeviceException("buffer of " + bytes + " B owned by " + owner + " used after it was freed");
        return offset == 0 ? pointer : pointer.withByteOffset(offset);
    }

    /** Marks it freed exactly once; returns false when it already was. */
    synchronized boolean markFreed() {
        if (!live) return false;
        live = false;
        return true;
    }

    CUdeviceptr rawPointer() { return pointer; }

    @Override
    public void close() {
        if (live) device.free(this);
    }

    @Override
    public String toString() {
        return owner + " (" + bytes + " B" + (async ? ", pool" : "") + ")";
    }
}
