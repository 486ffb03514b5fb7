package org.arenaplan.sim;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.liveness.OpOrder;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Happens-before of a multi-stream schedule with one event per cross-stream data dependency not
 * already implied: a small, quadratic stand-in for the streams work ({@code hb}), used by the
 * stress harness and tests to build safe multi-stream plans.
 *
 * <p>Steps, in schedule order: an op inherits what happens before its stream predecessor; for
 * each op whose data it reads at runtime (through views and member slices, back to the ops that
 * wrote the bytes) on another stream and not yet ordered, an event is added.
 * Does not: scale past a few thousand ops (a bitset per op), reduce events transitively beyond
 * skipping those already implied.
 */
public final class StreamOrder implements OpOrder {
    private final BitSet[] before;   // before[b] = ops that complete before b starts
    private final SyncPlan sync;

    private StreamOrder(BitSet[] before, SyncPlan sync) {
        this.before = before;
        this.sync = sync;
    }

    /** The data events of {@code g} and the order they give. */
    public static StreamOrder of(Graph g) {
        int n = g.opCount();
        BitSet[] before = new BitSet[n];
        Map<Integer, Integer> lastOnStream = new HashMap<>();
        List<SyncEvent> events = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            Op op = g.ops().get(b);
            before[b] = new BitSet(n);
            Integer prev = lastOnStream.put(op.stream(), b);
            if (prev != null) inherit(before, b, prev);
            if (op.isStorageOnly()) continue;
            for (int j = 0; j < op.inputs().size(); j++) {
                if (!op.readsAtRuntime(j)) continue;
                for (int w : writersOf(g, op.inputs().get(j))) {
                    if (g.ops().get(w).stream() == op.stream() || before[b].get(w)) continue;
                    events.add(new SyncEvent(events.size(), w, b, SyncEvent.Reason.DATA, 0));
                    inherit(before, b, w);
                }
            }
        }
        return new StreamOrder(before, new SyncPlan(events));
    }

    private static void inherit(BitSet[] before, int b, int a) {
        before[b].or(before[a]);
        before[b].set(a);
    }

    /** Positions of the ops whose runtime writes hold the bytes of {@code t}. */
    static Set<Integer> writersOf(Graph g, String t) {
        Set<Integer> out = new LinkedHashSet<>();
        collect(g, t, out, 0);
        return out;
    }

    private static void collect(Graph g, String t, Set<Integer> out, int depth) {
        int p = g.producerPosition(t);
        if (p < 0) return;
        Op op = g.ops().get(p);
        int k = op.outputs().indexOf(t);
        for (Op.View v : op.views()) {
            if (v.output() == k) {
                collect(g, op.inputs().get(v.input()), out, depth + 1);
                return;
            }
        }
        for (Op.Member m : op.members()) if (m.output() == k) collect(g, op.inputs().get(m.input()), out, depth + 1);
        if (!op.isStorageOnly()) out.add(p);
    }

    public SyncPlan sync() {
        return sync;
    }

    @Override
    public boolean completesBefore(int a, int b) {
        return a != b && before[b].get(a);
    }
}
