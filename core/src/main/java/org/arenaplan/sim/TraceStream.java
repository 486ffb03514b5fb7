package org.arenaplan.sim;

/** A stream that only records its tasks into the device's {@link SimTrace}; nothing runs. */
final class TraceStream implements SimQueue {
    private final SimDevice device;
    private final String name;
    private long issued;

    TraceStream(SimDevice device, String name) {
        this.device = device;
        this.name = name;
    }

    @Override public String name() { return name; }

    @Override
    public synchronized long submit(SimTask task) {
        device.trace().add(this, task);
        return ++issued;
    }

    @Override public synchronized long issued() { return issued; }

    /** Nothing runs, so not even an empty queue counts as drained: no stream-ordered free is ever complete. */
    @Override public long completed() { return -1; }

    /** Host synchronization ends a phase of the trace: everything before it completes first. */
    @Override
    public void synchronize() {
        device.trace().barrier();
    }

    @Override
    public void close() {
        device.forget(this);
    }
}
