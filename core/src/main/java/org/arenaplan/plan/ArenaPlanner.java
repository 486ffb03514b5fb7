package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.OpOrder;
import org.arenaplan.liveness.Storage;

import java.util.List;

/**
 * Graph in, plan out: liveness, then placement of the storages, then the stats. A graph whose
 * ops use several streams is planned by {@link StreamPlanner} (data events, reuse proven by
 * happens-before, no events added), so every plan from here is safe to run as it says.
 *
 * <p>Steps (one stream): {@link Lifetimes#of} (alias roots, live intervals, in-place folding; see
 * its comment), {@link #problemOf} (one buffer per storage), the planner's {@link Planner#place},
 * {@link #statsOf} (sum, lower bound, counts). Cost: the liveness pass, linear in the tensors and
 * the op accesses plus the in-place checks (each linear in the members of the storages involved);
 * O(n) time and memory for the problem of n storages (a few arrays of n); then the planner's own
 * time and memory (its class comment) and the lower bound's ({@link CliqueBound}).
 */
public final class ArenaPlanner {
    /** Alignment that cudaMalloc guarantees, the default for graphs. */
    public static final long CUDA_ALIGNMENT = 256;

    /**
     * @param planner        a name known to {@link Planners}
     * @param alignment      byte alignment of every storage offset
     * @param strict         fail (a {@link org.arenaplan.ir.GraphException}) when a donation is refused,
     *                       an in-place hint asks what the op's kernels cannot do, or an op kind is
     *                       a near miss of a registry kind ({@link org.arenaplan.ir.OpKindSpelling})
     */
    public record Options(String planner, long alignment, boolean strict, PlannerOptions plannerOptions) {
        public static final Options DEFAULT = new Options("best", CUDA_ALIGNMENT, false, PlannerOptions.DEFAULT);

        public Options withPlanner(String p) { return new Options(p, alignment, strict, plannerOptions); }

        /** @param a byte alignment of every storage offset (at least 1; 1: none) */
        public Options withAlignment(long a) { return new Options(planner, a, strict, plannerOptions); }

        public Options withStrict(boolean s) { return new Options(planner, alignment, s, plannerOptions); }

        public Options withPlannerOptions(PlannerOptions po) { return new Options(planner, alignment, strict, po); }
    }

    private ArenaPlanner() { }

    public static Plan plan(Graph g) {
        return plan(g, Options.DEFAULT);
    }

    public static Plan plan(Graph g, Options o) {
        return plan(g, o, Planners.byName(o.planner(), o.plannerOptions()));
    }

    public static Plan plan(Graph g, Options o, Planner planner) {
        if (g.streams().size() > 1) return StreamPlanner.plan(g, 0, org.arenaplan.hb.SyncMode.NONE, o, planner);
        long t0 = System.nanoTime();
        Lifetimes lifetimes = Lifetimes.of(g, OpOrder.SCHEDULE, o.strict());
        Problem problem = problemOf(lifetimes, o.alignment());
        Placement placement = planner.place(problem);
        double ms = (System.nanoTime() - t0) / 1e6;
        return new Plan(g, lifetimes, problem, placement, statsOf(lifetimes, problem, placement, ms));
    }

    /**
     * One buffer per storage, live over the storage's interval.
     *
     * @throws PlanningException when the graph has no op: schedule positions start at the first op,
     *         so a graph whose outputs are its graph inputs has no interval to give, and an empty
     *         graph (no op, no tensor) has nothing to plan; both are refused alike rather than one
     *         refused and the other planned as a 0 B arena
     */
    public static Problem problemOf(Lifetimes l, long alignment) {
        if (l.graph().opCount() == 0)   // positions start at the first op: no interval to give
            throw new PlanningException("graph '" + l.graph().name() + "' has no op" + (l.storages().isEmpty() ? " and no tensor" : " (its outputs are its graph inputs)")
                    + ": nothing to plan or run");
        List<Storage> st = l.storages();
        int n = st.size();
        String[] ids = new String[n];
        long[] lo = new long[n];
        long[] hi = new long[n];
        long[] sz = new long[n];
        for (int i = 0; i < n; i++) {
            Storage s = st.get(i);
            ids[i] = s.name();
            lo[i] = s.start();
            hi[i] = s.end();
            sz[i] = s.bytes();
        }
        return new Problem(ids, lo, hi, sz, alignment);
    }

    /**
     * The plan's summary figures: arena, sum and lower bound in bytes, storage and tensor counts,
     * allocation calls per run (naive: two per owning tensor; planned: one, the arena).
     *
     * @param planningMs the time the planning took, in milliseconds (reported, not checked)
     */
    public static PlanStats statsOf(Lifetimes l, Problem problem, Placement placement, double planningMs) {
        Graph g = l.graph();
        long owning = 0;
        int arenaTensors = 0;
        for (String t : g.tensors().keySet()) {
            if (!l.inArena(t)) continue;
            arenaTensors++;
            if (!g.isView(t)) owning++;
        }
        return new PlanStats(placement.planner(), placement.arenaBytes(), problem.sumBytes(), CliqueBound.of(problem),
                problem.size(), arenaTensors, 2 * owning, problem.size() == 0 ? 0 : 1, planningMs);
    }
}
