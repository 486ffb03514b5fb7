package org.arenaplan.hb;

/**
 * One CUDA event: recorded on the stream of the op at {@code recordAfter} once that op is issued,
 * and waited on by the stream of the op at {@code waitBefore} before that op is issued
 * ({@code cuEventRecord} / {@code cuStreamWaitEvent}).
 *
 * @param reason     DATA for a cross-stream data dependency, REUSE for an edge added so that
 *                   bytes can be reused
 * @param bytesSaved for REUSE edges, the arena bytes the edge saved
 */
public record SyncEvent(int id, int recordAfter, int waitBefore, Reason reason, long bytesSaved) {
    public enum Reason { DATA, REUSE }
}
