package org.arenaplan.hb;

import org.arenaplan.ir.Graph;

import java.util.BitSet;
import java.util.Collection;

/**
 * Happens-before the slow, obvious way, as an oracle for the vector clocks: a DAG over the ops
 * that do device work (previous device op on the same stream, plus every event), and for each
 * op the set of ops that reach it.
 */
public final class BruteOrder {
    private final BitSet[] before;

    public BruteOrder(Graph g, Collection<SyncEvent> events) {
        int n = g.opCount();
        before = new BitSet[n];
        java.util.Map<Integer, Integer> lastOnStream = new java.util.HashMap<>();
        for (int p = 0; p < n; p++) {
            before[p] = new BitSet(n);
            if (g.ops().get(p).isStorageOnly()) continue;
            Integer prev = lastOnStream.put(g.ops().get(p).stream(), p);
            if (prev != null) {
                before[p].or(before[prev]);
                before[p].set(prev);
            }
            for (SyncEvent e : events) {
                if (e.waitBefore() == p && e.recordAfter() < p) {
                    before[p].or(before[e.recordAfter()]);
                    before[p].set(e.recordAfter());
                }
            }
        }
    }

    public boolean completesBefore(int a, int b) {
        return before[b].get(a);
    }
}
