package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.OpOrder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * "The device work of op a completes before op b starts", from stream program order plus event
 * edges, with vector clocks.
 *
 * <p>Steps:
 * <ol>
 *   <li>Streams become dense lanes {@code 0..lanes-1}; every op is issued on its lane in schedule
 *       order, so two ops of one lane are ordered by position.</li>
 *   <li>Each lane keeps a clock: for every lane, the latest schedule position known complete.
 *       An op starts with its lane's clock; waiting on an event recorded after op q merges q's
 *       clock plus q itself into the lane's clock (copy on write, so ops between waits share one
 *       snapshot).</li>
 *   <li>{@code completesBefore(a, b)}: same lane and a &lt; b, or b's clock covers a on a's lane.
 *       O(1) per query.</li>
 * </ol>
 * Memory: one int per op plus one clock of {@code lanes} ints per op that waits, so 100,000 ops
 * with a few thousand events on 8 lanes take a few MiB. Ops are treated alike whether or not
 * they issue device work; events never name storage-only ops (views issue no work).
 *
 * <p>Does not guarantee anything about the copy stream (see {@link CopyPlan}): it covers the
 * compute streams only.
 */
public final class HappensBefore implements OpOrder {
    private final int[] lane;
    private final int[] laneStream;
    private final int[] snapshotOf;
    private final List<int[]> snapshots;

    private HappensBefore(int[] lane, int[] laneStream, int[] snapshotOf, List<int[]> snapshots) {
        this.lane = lane;
        this.laneStream = laneStream;
        this.snapshotOf = snapshotOf;
        this.snapshots = snapshots;
    }

    /**
     * Happens-before of a graph's ops under its streams and the given events.
     *
     * @throws SyncException for an event that names no op or does not point forward in the schedule
     */
    public static HappensBefore of(Graph g, Collection<SyncEvent> events) {
        int n = g.opCount();
        List<List<Integer>> waitsAt = new ArrayList<>(n);
        for (int p = 0; p < n; p++) waitsAt.add(null);
        for (SyncEvent e : events) {
            if (e.recordAfter() < 0 || e.recordAfter() >= n || e.waitBefore() < 0 || e.waitBefore() >= n)
                throw new SyncException("event " + e.id() + " (" + e.recordAfter() + " -> " + e.waitBefore() + ") names a position outside the schedule of " + n + " ops");
            if (e.recordAfter() >= e.waitBefore())
                throw new SyncException("event " + e.id() + ": op '" + g.ops().get(e.waitBefore()).name() + "' at position " + e.waitBefore()
                        + " waits for op '" + g.ops().get(e.recordAfter()).name() + "' at position " + e.recordAfter()
                        + ", which is not issued before it; a wait on an unrecorded event is a no-op in CUDA");
            List<Integer> l = waitsAt.get(e.waitBefore());
            if (l == null) waitsAt.set(e.waitBefore(), l = new ArrayList<>(2));
            l.add(e.recordAfter());
        }
        Builder b = new Builder(g);
        for (int p = 0; p < n; p++) {
            List<Integer> w = waitsAt.get(p);
            if (w != null) for (int q : w) b.waitFor(p, q);
            b.issue(p);
        }
        return b.build();
    }

    @Override
    public boolean completesBefore(int a, int b) {
        if (a >= b) return false;
        if (lane[a] == lane[b]) return true;
        return snapshots.get(snapshotOf[b])[lane[a]] >= a;
    }

    /** Dense lane of the op at position p. */
    public int lane(int p) { return lane[p]; }

    /** Number of lanes (distinct stream ids). */
    public int lanes() { return laneStream.length; }

    /**
     * The latest position on lane {@code l} known complete when op p starts; -1 when none.
     * On p's own lane that is p - 1 (program order).
     */
    public int knownComplete(int p, int l) {
        if (l == lane[p]) return p - 1;
        return snapshots.get(snapshotOf[p])[l];
    }

    /** Dense lanes of a graph's streams: lane i is the i-th smallest stream id. */
    static int[][] lanes(Graph g) {
        List<Integer> streams = g.streams();
        int[] laneStream = streams.stream().mapToInt(Integer::intValue).toArray();
        int[] lane = new int[g.opCount()];
        for (int p = 0; p < lane.length; p++) lane[p] = Arrays.binarySearch(laneStream, g.ops().get(p).stream());
        return new int[][]{lane, laneStream};
    }

    /**
     * Builds the clocks op by op, in schedule order: call {@link #waitFor} for the events op p
     * waits on, then {@link #issue}. Lets the sync planner ask what is already known complete
     * before it decides on an event.
     */
    static final class Builder {
        private final int[] lane;
        private final int[] laneStream;
        private final int[] snapshotOf;
        private final List<int[]> snapshots = new ArrayList<>();
        private final int[] current;       // lane -> snapshot index of its clock now
        private final boolean[] shared;    // lane -> its current clock is already some op's snapshot
        private int issued;

        Builder(Graph g) {
            int[][] l = HappensBefore.lanes(g);
            lane = l[0];
            laneStream = l[1];
            snapshotOf = new int[lane.length];
            current = new int[laneStream.length];
            shared = new boolean[laneStream.length];
            for (int i = 0; i < laneStream.length; i++) {
                int[] c = new int[laneStream.length];
                Arrays.fill(c, -1);
                snapshots.add(c);
                current[i] = i;
            }
        }

        int lane(int p) { return lane[p]; }

        int lanes() { return laneStream.length; }

        /** Latest position on lane l known complete if op p (not yet issued) started now. */
        int knownComplete(int p, int l) {
            return snapshots.get(current[lane[p]])[l];
        }

        /** Latest position on lane l known complete when issued op q completes (q itself on its lane). */
        int completedWith(int q, int l) {
            return l == lane[q] ? q : snapshots.get(snapshotOf[q])[l];
        }

        /** Op p (not yet issued) waits on an event recorded after the issued op q. */
        void waitFor(int p, int q) {
            if (q >= issued) throw new IllegalStateException("op " + q + " is not issued yet");
            int l = lane[p];
            int[] clock = snapshots.get(current[l]);
            if (shared[l]) {
                clock = clock.clone();
                snapshots.add(clock);
                current[l] = snapshots.size() - 1;
                shared[l] = false;
            }
            int[] other = snapshots.get(snapshotOf[q]);
            for (int k = 0; k < clock.length; k++) clock[k] = Math.max(clock[k], other[k]);
            clock[lane[q]] = Math.max(clock[lane[q]], q);
        }

        void issue(int p) {
            if (p != issued) throw new IllegalStateException("ops must be issued in schedule order");
            snapshotOf[p] = current[lane[p]];
            shared[lane[p]] = true;
            issued++;
        }

        HappensBefore build() {
            return new HappensBefore(lane, laneStream, snapshotOf, snapshots);
        }
    }
}
