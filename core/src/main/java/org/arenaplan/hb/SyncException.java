package org.arenaplan.hb;

/** A sync plan that cannot run: an event that names no op, or waits for an op issued later. */
public final class SyncException extends RuntimeException {
    public SyncException(String message) {
        super(message);
    }
}
