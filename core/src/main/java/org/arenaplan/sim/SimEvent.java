package org.arenaplan.sim;

import org.arenaplan.device.DeviceEvent;

/** Records are numbered; the event is complete once its last issued record has run. */
final class SimEvent implements DeviceEvent {
    final int id;
    private long recorded;
    private long completed;

    SimEvent(int id) {
        this.id = id;
    }

    synchronized long nextRecord() {
        return ++recorded;
    }

    synchronized long lastRecord() {
        return recorded;
    }

    synchronized void complete(long serial) {
        completed = Math.max(completed, serial);
        notifyAll();
    }

    synchronized void await(long serial) {
        Monitors.awaitUninterruptibly(this, () -> completed >= serial);
    }

    @Override
    public void synchronize() {
        await(lastRecord());
    }

    @Override
    public synchronized boolean query() {
        return completed >= recorded;
    }

    @Override
    public void close() { }
}
