package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.ArrayList;
import java.util.List;

/**
 * The events that cross-stream data dependencies need.
 *
 * <p>Steps, for each op p that does device work, in schedule order:
 * <ol>
 *   <li>For every lane other than p's, the latest op on it that wrote bytes p reads at runtime
 *       ({@link DataWriters}: through views and member slices).</li>
 *   <li>Drop the lanes p's lane already knows complete (its clock covers them): implied by
 *       earlier events and stream order.</li>
 *   <li>Drop a candidate that another candidate's completion implies (q1 happens-before q2):
 *       the remaining ones form an antichain, none implied by the others.</li>
 *   <li>One event per remaining candidate: recorded after it, waited before p.</li>
 * </ol>
 * Does not guarantee a globally minimum event count (events are decided per op, greedily, as
 * XLA and TensorFlow do); every remaining event is required: deleting it leaves p unordered
 * after the writer it waits for.
 */
public final class DataSync {
    private DataSync() { }

    public static List<SyncEvent> events(Graph g) {
        DataWriters writers = DataWriters.of(g);
        HappensBefore.Builder clocks = new HappensBefore.Builder(g);
        int lanes = clocks.lanes();
        List<SyncEvent> events = new ArrayList<>();
        int[] need = new int[lanes];
        for (int p = 0; p < g.opCount(); p++) {
            Op op = g.ops().get(p);
            if (!op.isStorageOnly()) {
                java.util.Arrays.fill(need, -1);
                int own = clocks.lane(p);
                for (int j = 0; j < op.inputs().size(); j++) {
                    int[] w = op.readsAtRuntime(j) ? writers.latestByLane(op.inputs().get(j)) : null;
                    if (w == null) continue;
                    for (int l = 0; l < lanes; l++) {
                        if (l != own) need[l] = Math.max(need[l], w[l]);
                    }
                }
                for (int l = 0; l < lanes; l++) if (need[l] <= clocks.knownComplete(p, l)) need[l] = -1;
                for (int l = 0; l < lanes; l++) {
                    if (need[l] < 0 || impliedByAnother(clocks, need, l)) continue;
                    events.add(new SyncEvent(events.size(), need[l], p, SyncEvent.Reason.DATA, 0));
                    clocks.waitFor(p, need[l]);
                }
            }
            clocks.issue(p);
        }
        return events;
    }

    /** Whether another candidate's completion already covers candidate l (happens-before is acyclic, so two never cover each other). */
    private static boolean impliedByAnother(HappensBefore.Builder clocks, int[] need, int l) {
        for (int k = 0; k < need.length; k++) {
            if (k == l || need[k] < 0) continue;
            if (clocks.completedWith(need[k], l) >= need[l]) return true;
        }
        return false;
    }
}
