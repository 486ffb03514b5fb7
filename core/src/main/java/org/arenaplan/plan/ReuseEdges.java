package org.arenaplan.plan;

import org.arenaplan.hb.HappensBefore;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code --sync add}: finds the events that let storages on different streams share bytes and
 * keeps those that shrink the arena.
 *
 * <p>Steps:
 * <ol>
 *   <li>Place the storages as if every unordered pair were ordered (the interval problem alone).</li>
 *   <li>Candidates: for every unordered pair (S before T) that this placement puts on shared
 *       bytes, an edge from S's last access on each lane not yet ordered before T's writer to that
 *       writer, weighted by the bytes shared. Per (writer, lane) only the latest access is kept.
 *       Every edge points forward in the schedule, so no edge can close a cycle.</li>
 *   <li>Keep the {@value #MAX_CANDIDATES} heaviest. Replan with all of them; if that does not
 *       shrink the arena, add none.</li>
 *   <li>Backward elimination, lightest first: drop an edge when the arena does not grow without
 *       it (with a capacity: when the arena still fits the capacity without it).</li>
 *   <li>Each kept edge's saving is what the arena grows by when only it is dropped; an edge whose
 *       saving is not positive is dropped too.</li>
 *   <li>Another round from the new plan, until a round adds nothing, the arena fits the
 *       capacity, or the time limit has passed.</li>
 * </ol>
 * Cost per round: {@code 2k + 2} replans for k candidates, plus up to k more each time the last
 * step finds an edge to drop after all (rare). The whole search may spend {@value #WORK} / ops
 * replans (a fixed amount of work, so the same graph gets the same events on every machine): k
 * is at most {@value #MAX_CANDIDATES} and at most what that budget leaves. The planner options'
 * time limit is a safety net on top: no round starts and elimination stops after it (only then
 * may the result depend on the machine's speed; a round whose savings are not all measured by
 * then adds nothing). Every placement gets the same deadline, so none runs past it by more than
 * its planner's own margin (docs/scale.md "Time limits"). An edge's saving is measured in the
 * round that added it. Greedy: it does not guarantee the
 * fewest events or the smallest arena that events could reach. When the unordered pairs were
 * over budget (widened intervals) it adds nothing. Reports whether the time limit cut it
 * ({@link Found#cut()}), which the plan's price prints.
 */
final class ReuseEdges {
    static final int MAX_CANDIDATES = 128;
    /** Work budget in ops times replans: 100 replans of a 1,000-op graph, 1 of a 100,000-op one. */
    static final long WORK = 100_000;

    private record Edge(int from, int to, long weight) { }

    private ReuseEdges() { }

    /**
     * @param capacity when not null, edges are only added until the arena fits it: an edge is
     *                 dropped whenever the arena without it still fits, so concurrency is given
     *                 up only as far as the capacity demands
     * @param deadline {@link System#nanoTime()} after which no round starts and elimination stops
     */
    static Found search(Graph g, List<SyncEvent> data, StreamPlanner.Attempt base, Planner planner, Long capacity,
                        long deadline, Function<List<SyncEvent>, StreamPlanner.Attempt> replan) {
        Budget budget = new Budget(WORK / Math.max(1, g.opCount()), deadline, replan);
        List<SyncEvent> events = data;
        StreamPlanner.Attempt now = base;
        while (budget.left() > 2) {
            List<SyncEvent> next = round(g, events, now, planner, capacity, budget);
            if (next == events) break;
            events = next;
            now = budget.replan(events);
        }
        boolean searched = !now.conflicts().widened() && now.conflicts().pairs() > 0 && (capacity == null || now.arena() > capacity);
        return new Found(events, searched && !budget.inTime() && budget.left > 2);
    }

    /**
     * The events found, and whether the time limit stopped the search (a round not started, or
     * one whose elimination or savings it cut) while it still had work budget and pairs to order.
     */
    record Found(List<SyncEvent> events, boolean cut) { }

    /** One round: candidates from the current plan, all added, then eliminated; returns {@code events} itself when none helps. */
    private static List<SyncEvent> round(Graph g, List<SyncEvent> events, StreamPlanner.Attempt base, Planner planner, Long capacity,
                                         Budget budget) {
        if (base.conflicts().widened() || base.conflicts().pairs() == 0) return events;
        if (capacity != null && base.arena() <= capacity) return events;
        List<Edge> edges = candidates(g, base, planner, budget.deadline);
        int k = (int) Math.min(edges.size(), (budget.left() - 1) / 2);   // all, then 2k for elimination and savings
        if (k < 1) return events;
        edges = edges.subList(0, k);
        long current = budget.replan(with(events, edges, null)).arena();
        if (current >= base.arena()) return events;
        List<Edge> kept = new ArrayList<>(edges);
        for (int i = edges.size() - 1; i >= 0 && budget.inTime(); i--) {
            Edge e = edges.get(i);
            List<Edge> trial = new ArrayList<>(kept);
            trial.remove(e);
            long a = budget.replan(with(events, trial, null)).arena();
            if (a <= limit(current, capacity)) {
                kept = trial;
                current = a;
            }
        }
        Map<Edge, Long> saved = new LinkedHashMap<>();
        boolean dropped = true;
        while (dropped) {
            dropped = false;
            saved.clear();
            for (Edge e : kept) {
                if (!budget.inTime()) return events;          // savings not all measured: the round adds nothing
                List<Edge> without = new ArrayList<>(kept);
                without.remove(e);
                long a = budget.replan(with(events, without, null)).arena();
                if (a <= limit(current, capacity)) {      // not needed after all: drop it and measure the others again
                    kept = without;
                    current = a;
                    dropped = true;
                    break;
                }
                saved.put(e, a - current);
            }
        }
        return kept.isEmpty() ? events : with(events, kept, saved);
    }

    /** Replans left (a fixed amount of work, so the result does not depend on the machine) and the deadline. */
    private static final class Budget {
        private long left;
        private final long deadline;
        private final Function<List<SyncEvent>, StreamPlanner.Attempt> replan;

        Budget(long replans, long deadline, Function<List<SyncEvent>, StreamPlanner.Attempt> replan) {
            this.left = replans;
            this.deadline = deadline;
            this.replan = replan;
        }

        long left() { return inTime() ? left : 0; }

        boolean inTime() { return !GreedyPlacer.passed(deadline); }

        StreamPlanner.Attempt replan(List<SyncEvent> events) {
            left--;
            return replan.apply(events);
        }
    }

    /** The arena an edge set may grow to when an edge is dropped. */
    private static long limit(long current, Long capacity) {
        return capacity == null ? current : Math.max(current, capacity);
    }

    /** The data events followed by one REUSE event per edge, numbered on. */
    private static List<SyncEvent> with(List<SyncEvent> data, List<Edge> edges, Map<Edge, Long> saved) {
        List<SyncEvent> out = new ArrayList<>(data);
        for (Edge e : edges) {
            out.add(new SyncEvent(out.size(), e.from(), e.to(), SyncEvent.Reason.REUSE, saved == null ? 0 : saved.get(e)));
        }
        return out;
    }

    private static List<Edge> candidates(Graph g, StreamPlanner.Attempt base, Planner planner, long deadline) {
        Problem interval = ArenaPlanner.problemOf(base.lifetimes(), base.problem().alignment());
        Placement ideal = planner.place(interval, deadline);
        HappensBefore hb = base.hb();
        List<Storage> st = base.lifetimes().storages();
        Map<Long, long[]> byKey = new LinkedHashMap<>();   // (to, lane) -> {from, weight}
        for (int t = 0; t < st.size(); t++) {
            for (int s : base.problem().extraConflicts(t)) {
                if (st.get(s).end() > st.get(t).start()) continue;   // visit each pair once, S before T
                long shared = Math.min(ideal.offset(s) + interval.alignedSize(s), ideal.offset(t) + interval.alignedSize(t))
                        - Math.max(ideal.offset(s), ideal.offset(t));
                if (shared <= 0) continue;
                for (int w : deviceOps(g, st.get(t).writers())) {
                    for (int[] accesses : new int[][]{st.get(s).writers(), st.get(s).readers()}) {
                        for (int a : deviceOps(g, accesses)) {
                            if (hb.completesBefore(a, w)) continue;
                            long key = ((long) w << 20) | hb.lane(a);
                            long[] fw = byKey.computeIfAbsent(key, k -> new long[]{-1, 0});
                            fw[0] = Math.max(fw[0], a);
                            fw[1] += shared;
                        }
                    }
                }
            }
        }
        List<Edge> edges = new ArrayList<>();
        for (Map.Entry<Long, long[]> e : byKey.entrySet()) {
            edges.add(new Edge((int) e.getValue()[0], (int) (e.getKey() >>> 20), e.getValue()[1]));
        }
        edges.sort(Comparator.comparingLong(Edge::weight).reversed().thenComparingInt(Edge::to).thenComparingInt(Edge::from));
        return edges.size() > MAX_CANDIDATES ? edges.subList(0, MAX_CANDIDATES) : edges;
    }

    private static int[] deviceOps(Graph g, int[] positions) {
        return java.util.Arrays.stream(positions).filter(p -> !g.ops().get(p).isStorageOnly()).toArray();
    }
}
