package org.arenaplan.device;

/** An in-order work queue on the device ({@code CUstream}, non-blocking). */
public interface DeviceStream extends AutoCloseable {
    String name();

    /** Blocks until the work issued to this stream so far has completed. */
    void synchronize();

    /** Waits for the stream's work, then releases it. */
    @Override
    void close();
}
