package org.arenaplan.sim;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.GreedySizePlanner;

import java.util.List;

/**
 * A deliberately wrong planner, kept to measure the detector's sensitivity ({@code stress
 * --unsafe}): it reuses bytes by schedule position only. A storage is taken as dead after the last
 * direct read of its root tensor, ignoring readers through views or member slices and ignoring
 * that ops on other streams may still run. Events are the data events of {@link StreamOrder}, so
 * every hazard it causes is a premature reuse, not a missing dependency. Never use it to run.
 */
public final class UnsafePlanner {
    private UnsafePlanner() { }

    public static Plan plan(Graph g) {
        StreamOrder order = StreamOrder.of(g);
        Lifetimes l = Lifetimes.of(g);
        List<Storage> st = l.storages();
        int n = st.size();
        String[] ids = new String[n];
        long[] lo = new long[n], hi = new long[n], sz = new long[n];
        for (int i = 0; i < n; i++) {
            Storage s = st.get(i);
            ids[i] = s.name();
            lo[i] = s.start();
            hi[i] = s.pinned() ? s.end() : Math.max(s.start() + 1, l.tensorInterval(s.name())[1]);
            sz[i] = s.bytes();
        }
        Problem problem = new Problem(ids, lo, hi, sz, ArenaPlanner.CUDA_ALIGNMENT);
        Placement placement = new GreedySizePlanner().place(problem);
        return new Plan(g, l, problem, placement, ArenaPlanner.statsOf(l, problem, placement, 0), order.sync());
    }
}
