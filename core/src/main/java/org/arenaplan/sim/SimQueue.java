package org.arenaplan.sim;

import org.arenaplan.device.DeviceStream;

/** A stream of the simulator: live ({@link SimStream}) or traced for {@link Interleavings} ({@link TraceStream}). */
interface SimQueue extends DeviceStream {
    /** Queues a task; returns its ticket (the stream's issued count after it). */
    long submit(SimTask task);

    long issued();

    /** How many tasks completed; a traced stream completes nothing. */
    long completed();
}
