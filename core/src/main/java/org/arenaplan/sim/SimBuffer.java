package org.arenaplan.sim;

import org.arenaplan.device.DeviceBuffer;

/** A caller's handle on a {@link SimBlock}; the block outlives it when an allocator reuses it. */
final class SimBuffer implements DeviceBuffer {
    private final SimDevice device;
    final SimBlock block;
    private final long bytes;
    private final String owner;
    private volatile boolean live = true;

    SimBuffer(SimDevice device, SimBlock block, long bytes, String owner) {
        this.device = device;
        this.block = block;
        this.bytes = bytes;
        this.owner = owner;
    }

    @Override public long bytes() { return bytes; }

    @Override public String owner() { return owner; }

    @Override public boolean isLive() { return live; }

    void kill() { live = false; }

    SimDevice device() { return device; }

    @Override
    public void close() {
        if (live) device.free(this);
    }

    @Override
    public String toString() {
        return "buffer of " + bytes + " B owned by " + owner;
    }
}
