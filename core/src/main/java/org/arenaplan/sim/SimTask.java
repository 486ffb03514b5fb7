package org.arenaplan.sim;

import java.util.List;

/** One entry of a stream's queue. */
sealed interface SimTask {

    /** Bytes a task reads, and the writes it must find there (taken in issue order). */
    record Read(SimBlock block, long from, long to, String tensor, String owner, List<VersionMap.Segment> expected) { }

    /** Bytes a task writes and the stamp they get. */
    record Write(SimBlock block, long from, long to, WriteStamp stamp) { }

    /** A kernel or copy: checks its reads, stamps its writes, computes. */
    record Work(String label, String stream, List<Read> reads, List<Write> writes, Runnable compute) implements SimTask { }

    /** Completes record number {@code serial} of the event. */
    record Record(SimEvent event, long serial) implements SimTask { }

    /** Blocks the stream until record number {@code serial} of the event completed. */
    record Wait(SimEvent event, long serial) implements SimTask { }
}
