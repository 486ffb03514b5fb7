package org.arenaplan.plan;

import org.arenaplan.hb.DataSync;
import org.arenaplan.hb.HappensBefore;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;

import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture: the real reuse guard and deliberately weakened ones, so that each regression
 * case can show it fails when the guard is weakened. Every guard places with greedy-size and
 * keeps the data events; only the conflict relation differs.
 */
enum WeakGuards {
    /** The real planner: liveness through views and members, plus happens-before conflicts. */
    REAL,
    /** Schedule positions only: the storages' intervals, no happens-before conflicts. */
    POSITIONS_ONLY,
    /**
     * Direct users only: a storage lives until the last runtime reader of its root tensor
     * (readers through views or other members ignored), and happens-before compares only those
     * direct accesses.
     */
    DIRECT_USERS_ONLY,
    /** Too conservative: every two storages conflict (no reuse at all). */
    NO_REUSE;

    static final ArenaPlanner.Options OPTIONS = ArenaPlanner.Options.DEFAULT.withPlanner("greedy-size");

    Plan plan(Graph g) {
        if (this == REAL) return StreamPlanner.plan(g, 0, SyncMode.NONE, OPTIONS);
        List<SyncEvent> events = g.streams().size() > 1 ? DataSync.events(g) : List.of();
        HappensBefore hb = HappensBefore.of(g, events);
        Lifetimes l = Lifetimes.of(g, hb, false);
        Problem p = switch (this) {
            case POSITIONS_ONLY, NO_REUSE -> ArenaPlanner.problemOf(l, OPTIONS.alignment());
            case DIRECT_USERS_ONLY -> directUsersOnly(g, l, hb);
            default -> throw new IllegalStateException();
        };
        Placement placement = (this == NO_REUSE ? Planners.byName("naive") : Planners.byName("greedy-size")).place(p);
        return new Plan(g, l, p, placement, ArenaPlanner.statsOf(l, p, placement, 0), new SyncPlan(events));
    }

    private static Problem directUsersOnly(Graph g, Lifetimes l, HappensBefore hb) {
        List<Storage> st = l.storages();
        int n = st.size();
        String[] ids = new String[n];
        long[] lo = new long[n], hi = new long[n], sz = new long[n];
        List<List<Integer>> accesses = new ArrayList<>();
        List<Integer> writer = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Storage s = st.get(i);
            String root = s.name();
            ids[i] = root;
            sz[i] = s.bytes();
            lo[i] = s.start();
            int w = g.producerPosition(root);
            boolean device = w >= 0 && !g.ops().get(w).isStorageOnly();
            List<Integer> acc = new ArrayList<>();
            if (device) acc.add(w);
            int last = -1;
            for (int p = 0; p < g.opCount(); p++) {
                Op op = g.ops().get(p);
                for (int j = 0; j < op.inputs().size(); j++) {
                    if (op.inputs().get(j).equals(root) && op.readsAtRuntime(j)) {
                        last = p;
                        acc.add(p);
                    }
                }
            }
            boolean pinned = g.isOutput(root) || (g.isInput(root) && !g.isDonated(root));
            hi[i] = pinned ? g.opCount() : Math.max(lo[i] + 1, Math.max(w, last) + 1);
            accesses.add(acc);
            writer.add(device ? w : -1);
        }
        List<List<Integer>> extra = new ArrayList<>();
        for (int i = 0; i < n; i++) extra.add(new ArrayList<>());
        for (int s = 0; s < n; s++) {
            for (int t = 0; t < n; t++) {
                if (s == t || hi[s] > lo[t] || writer.get(t) < 0) continue;
                for (int a : accesses.get(s)) {
                    if (!hb.completesBefore(a, writer.get(t))) {
                        extra.get(s).add(t);
                        extra.get(t).add(s);
                        break;
                    }
                }
            }
        }
        int[][] adj = new int[n][];
        for (int i = 0; i < n; i++) adj[i] = extra.get(i).stream().mapToInt(Integer::intValue).toArray();
        return new Problem(ids, lo, hi, sz, OPTIONS.alignment(), adj);
    }
}
