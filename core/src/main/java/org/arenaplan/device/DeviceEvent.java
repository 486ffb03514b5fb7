package org.arenaplan.device;

/** A marker in a stream ({@code CUevent}); re-recording moves it, as in CUDA. */
public interface DeviceEvent extends AutoCloseable {
    /** Blocks until the last record completed (returns at once if never recorded). */
    void synchronize();

    /** True when the last record completed, or the event was never recorded. */
    boolean query();

    @Override
    void close();
}
