package org.arenaplan.plan;

import org.arenaplan.hb.DataSync;
import org.arenaplan.hb.HappensBefore;
import org.arenaplan.hb.HbConflicts;
import org.arenaplan.hb.StreamAssigner;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.hb.SyncReduction;
import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;

import java.util.List;

/**
 * Plans a graph over several streams and proves every reuse by happens-before.
 *
 * <p>Steps:
 * <ol>
 *   <li>Streams: keep the graph's own ({@code streams == 0}) or assign N
 *       ({@link StreamAssigner}). One stream: the plain {@link ArenaPlanner} path, unchanged.</li>
 *   <li>Data events ({@link DataSync}), transitively reduced; happens-before from stream order
 *       plus those events ({@link HappensBefore}).</li>
 *   <li>Liveness with in-place folding allowed only over readers that happen before the fold.</li>
 *   <li>The placement problem: storages over their schedule intervals plus the pairs that
 *       happens-before leaves unordered ({@link HbConflicts}), so every planner works unchanged.
 *       Over the pair budget (intervals widened), also the lane-region placement
 *       ({@link LaneRegions}: each stream's single-stream storages on plain intervals in a region
 *       of their own, regions stacked); the smaller arena of the two is kept (the regions' on a
 *       tie), and the widened problem is not placed at all when the regions reach its lower bound.</li>
 *   <li>{@link SyncMode#ADD}: {@link ReuseEdges} adds the events (last reader's stream to next
 *       writer's stream) that shrink the arena, each recorded with the bytes it saved; with a
 *       capacity in the planner options, only as many as it takes to fit. Then the events the
 *       others imply are dropped ({@link SyncReduction}): an added event can make a data event
 *       redundant.</li>
 * </ol>
 * Does not reorder the schedule or move ops between streams to save memory, and the reuse-edge
 * search is greedy (see {@link ReuseEdges}).
 *
 * <p>Cost, step by step (each class comment gives its own): assignment O(ops x min(N, ops)) time;
 * happens-before one int per op plus a clock of {@code lanes} ints per op that waits; the
 * unordered pairs O(n lanes log n) plus the pairs reported, for n storages, at most
 * {@link HbConflicts#DEFAULT_BUDGET} pairs kept (16 bytes each in its adjacency lists) before the intervals are widened
 * instead; one placement by the planner, plus one per region (lanes + 1) over the pair budget;
 * with {@link SyncMode#ADD}, {@code 2k + 2} replans per round of {@link ReuseEdges} for k
 * candidates, at most {@value ReuseEdges#WORK} / ops replans in all.
 */
public final class StreamPlanner {
    /**
     * Planners cheap enough for the dozens of replans of {@link ReuseEdges}; with any other
     * (a search with a time limit) the edges are chosen, and their savings measured, with
     * {@code best}, and only the final placement uses the chosen planner.
     */
    private static final java.util.Set<String> GREEDY = java.util.Set.of("best", "greedy-size", "greedy-breadth", "naive");

    private StreamPlanner() { }

    /**
     * @param streams 0 keeps the graph's streams; N puts the ops on N compute streams
     * @param mode    whether events may be added to enable reuse
     */
    public static Plan plan(Graph g, int streams, SyncMode mode, ArenaPlanner.Options o) {
        return plan(g, streams, mode, o, Planners.byName(o.planner(), o.plannerOptions()));
    }

    /** As {@link #plan(Graph, int, SyncMode, ArenaPlanner.Options)}, with a planner instance. */
    public static Plan plan(Graph g, int streams, SyncMode mode, ArenaPlanner.Options o, Planner planner) {
        long t0 = System.nanoTime();
        Graph sg = streams > 0 ? StreamAssigner.assign(g, streams) : g;
        if (sg.streams().size() <= 1) return ArenaPlanner.plan(sg, o, planner);
        long deadline = GreedyPlacer.deadlineAfter(o.plannerOptions().timeLimit());   // one limit for every placement below
        List<SyncEvent> data = DataSync.events(sg);
        Attempt base = attempt(sg, data, o, planner, deadline);
        Planner evaluator = GREEDY.contains(planner.name()) ? planner : Planners.byName("best", o.plannerOptions());
        ReuseEdges.Found found = mode == SyncMode.ADD
                ? ReuseEdges.search(sg, data, evaluator == planner ? base : attempt(sg, data, o, evaluator, deadline), evaluator,
                        o.plannerOptions().capacity(), deadline, ev -> attempt(sg, ev, o, evaluator, deadline))
                : new ReuseEdges.Found(data, false);
        List<SyncEvent> events = mode == SyncMode.ADD ? SyncReduction.reduce(sg, found.events()) : data;
        Attempt fin = events.equals(data) ? base : attempt(sg, events, o, planner, deadline);
        if (fin.arena() > base.arena()) {   // the final placement cut by the deadline (or search worse with the events): keep the data events' plan
            fin = base;
            events = data;
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        return new Plan(sg, fin.lifetimes(), fin.problem(), fin.placement(),
                ArenaPlanner.statsOf(fin.lifetimes(), fin.problem(), fin.placement(), ms), new SyncPlan(events, found.cut()));
    }

    /**
     * The price of concurrency of a plan made by {@link #plan} with the same options: plans the
     * same graph on one stream, and with the data events alone when events were added, to compare.
     */
    public static ConcurrencyPrice price(Plan streamPlan, ArenaPlanner.Options o) {
        return price(streamPlan, o, Planners.byName(o.planner(), o.plannerOptions()));
    }

    /**
     * As {@link #price(Plan, ArenaPlanner.Options)}, with a planner instance (one that shows its
     * progress, say). Costs up to two more placements, each within the planner's own time limit:
     * on one stream, and with the data events alone when events were added.
     */
    public static ConcurrencyPrice price(Plan streamPlan, ArenaPlanner.Options o, Planner planner) {
        Graph g = streamPlan.graph();
        Plan one = ArenaPlanner.plan(g.withStreams(p -> 0), o, planner);
        int data = 0, reuse = 0;
        long saved = 0;
        for (SyncEvent e : streamPlan.sync().events()) {
            if (e.reason() == SyncEvent.Reason.DATA) data++;
            else {
                reuse++;
                saved += e.bytesSaved();
            }
        }
        List<SyncEvent> dataSync = DataSync.events(g);
        boolean cut = streamPlan.placement().cut() || one.placement().cut();
        long syncNone = streamPlan.arenaBytes();
        if (reuse > 0) {
            Attempt none = attempt(g, dataSync, o, planner);
            syncNone = none.arena();
            cut |= none.placement().cut();
        }
        Problem p = streamPlan.problem();
        long pairs = 0;
        for (int i = 0; i < p.size(); i++) for (int j : p.extraConflicts(i)) if (j > i) pairs++;
        boolean widened = false;
        for (int i = 0; i < p.size() && !widened; i++) widened = p.lower(i) < streamPlan.storages().get(i).start();
        widened |= streamPlan.placement().planner().contains(LaneRegions.NOTE);   // over budget, placed by lane regions
        return new ConcurrencyPrice(g.streams().size(), one.arenaBytes(), streamPlan.arenaBytes(), syncNone, dataSync.size(), data, reuse, saved, pairs, widened, cut, streamPlan.sync().roundsCut(), o.planner());
    }

    /** One planning pass under a given event list. */
    record Attempt(HappensBefore hb, Lifetimes lifetimes, HbConflicts conflicts, Problem problem, Placement placement) {
        long arena() { return placement.arenaBytes(); }
    }

    static Attempt attempt(Graph g, List<SyncEvent> events, ArenaPlanner.Options o, Planner planner) {
        return attempt(g, events, o, planner, GreedyPlacer.NO_DEADLINE);
    }

    /** @param deadline a {@link System#nanoTime()} value the placement must be made by (as well as the planner's own limit) */
    static Attempt attempt(Graph g, List<SyncEvent> events, ArenaPlanner.Options o, Planner planner, long deadline) {
        return attempt(g, events, o, planner, deadline, HbConflicts.DEFAULT_BUDGET);
    }

    /** @param pairBudget the most extra pairs {@link HbConflicts} lists before it widens the intervals instead */
    static Attempt attempt(Graph g, List<SyncEvent> events, ArenaPlanner.Options o, Planner planner, long deadline, long pairBudget) {
        HappensBefore hb = HappensBefore.of(g, events);
        Lifetimes l = Lifetimes.of(g, hb, o.strict());
        HbConflicts c = HbConflicts.of(l, hb, pairBudget);
        Problem problem = problemOf(l, c, o.alignment());
        if (!c.widened()) return new Attempt(hb, l, c, problem, planner.place(problem, deadline));
        LaneRegions.Result regions = LaneRegions.place(l, c, o.alignment(), planner, halfway(deadline));
        Attempt byRegions = new Attempt(hb, l, c, regions.problem(), regions.placement());
        if (regions.placement().arenaBytes() <= problem.lowerBound()) return byRegions;   // the widened placement cannot do better: not placed
        Placement wide = planner.place(problem, deadline);
        return regions.placement().arenaBytes() <= wide.arenaBytes() ? byRegions : new Attempt(hb, l, c, problem, wide);
    }

    /** Half the time left to {@code deadline}: the lane regions' share, the widened placement gets the rest. */
    private static long halfway(long deadline) {
        if (deadline == GreedyPlacer.NO_DEADLINE) return deadline;
        long now = System.nanoTime();
        return deadline - now <= 0 ? deadline : now + (deadline - now) / 2;
    }

    /** One buffer per storage, over its interval (widened when over budget), with the unordered pairs. */
    static Problem problemOf(Lifetimes l, HbConflicts c, long alignment) {
        List<Storage> st = l.storages();
        int n = st.size();
        String[] ids = new String[n];
        long[] hi = new long[n];
        long[] sz = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = st.get(i).name();
            hi[i] = st.get(i).end();
            sz[i] = st.get(i).bytes();
        }
        return new Problem(ids, c.lower(), hi, sz, alignment, c.extras());
    }
}
