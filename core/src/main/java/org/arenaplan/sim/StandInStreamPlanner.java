package org.arenaplan.sim;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.Problem;

import java.util.ArrayList;
import java.util.List;

/**
 * Safe multi-stream plans for the stress harness and tests until the streams planner is wired
 * in: {@link StreamOrder}'s data events, in-place folding only where happens-before allows, and
 * two storages share bytes only when every access of one completes before every write of the
 * other.
 *
 * <p>Steps: events and order ({@link StreamOrder}); storages ({@link Lifetimes} with that order);
 * interval problem plus an extra conflict for every pair whose intervals are disjoint but whose
 * accesses are not ordered; placement by the named planner. Does not: add events to enable reuse,
 * or scale past small graphs (quadratic in storages).
 */
public final class StandInStreamPlanner {
    private StandInStreamPlanner() { }

    public static Plan plan(Graph g, String planner) {
        StreamOrder order = StreamOrder.of(g);
        Lifetimes l = Lifetimes.of(g, order, false);
        Problem base = ArenaPlanner.problemOf(l, ArenaPlanner.CUDA_ALIGNMENT);
        List<Storage> st = l.storages();
        List<List<Integer>> extra = new ArrayList<>();
        for (int i = 0; i < st.size(); i++) extra.add(new ArrayList<>());
        for (int i = 0; i < st.size(); i++) {
            for (int j = i + 1; j < st.size(); j++) {
                if (base.intervalsOverlap(i, j)) continue;
                boolean iFirst = st.get(i).end() <= st.get(j).start();
                Storage first = iFirst ? st.get(i) : st.get(j), second = iFirst ? st.get(j) : st.get(i);
                if (!ordered(first, second, order)) {
                    extra.get(i).add(j);
                    extra.get(j).add(i);
                }
            }
        }
        int[][] adj = extra.stream().map(x -> x.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        Problem problem = base.withExtraConflicts(adj);
        long t0 = System.nanoTime();
        Placement placement = Planners.byName(planner).place(problem);
        return new Plan(g, l, problem, placement, ArenaPlanner.statsOf(l, problem, placement, (System.nanoTime() - t0) / 1e6), order.sync());
    }

    /** Every access of {@code a} completes before every write of {@code b}. */
    private static boolean ordered(Storage a, Storage b, StreamOrder order) {
        if (b.graphInput()) return false;
        for (int w : b.writers()) {
            for (int x : a.writers()) if (!order.completesBefore(x, w)) return false;
            for (int x : a.readers()) if (!order.completesBefore(x, w)) return false;
        }
        return true;
    }
}
