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
 * </ol>
 * Cost: at most {@code 2 * MAX_CANDIDATES + 1} replans. Greedy: it does not guarantee the
 * fewest events or the smallest arena that events could reach. When the unordered pairs were
 * over budget (widened intervals) it adds nothing.
 */
final class ReuseEdges {
    static final int MAX_CANDIDATES = 32;

    private record Edge(int from, int to, long weight) { }

    private ReuseEdges() { }

    /**
     * @param capacity when not null, edges are only added until the arena fits it: an edge is
     *                 dropped whenever the arena without it still fits, so concurrency is given
     *                 up only as far as the capacity demands
     */
    static List<SyncEvent> search(Graph g, List<SyncEvent> data, StreamPlanner.Attempt base, Planner planner, Long capacity,
                                  Function<List<SyncEvent>, StreamPlanner.Attempt> replan) {
        if (base.conflicts().widened() || base.conflicts().pairs() == 0) return data;
        if (capacity != null && base.arena() <= capacity) return data;
        List<Edge> edges = candidates(g, base, planner);
        if (edges.isEmpty()) return data;
        long current = replan.apply(with(data, edges, null)).arena();
        if (current >= base.arena()) return data;
        List<Edge> kept = new ArrayList<>(edges);
        for (int i = edges.size() - 1; i >= 0; i--) {
            Edge e = edges.get(i);
            List<Edge> trial = new ArrayList<>(kept);
            trial.remove(e);
            long a = replan.apply(with(data, trial, null)).arena();
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
                List<Edge> without = new ArrayList<>(kept);
                without.remove(e);
                long a = replan.apply(with(data, without, null)).arena();
                if (a <= limit(current, capacity)) {      // not needed after all: drop it and measure the others again
                    kept = without;
                    current = a;
                    dropped = true;
                    break;
                }
                saved.put(e, a - current);
            }
        }
        return with(data, kept, saved);
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

    private static List<Edge> candidates(Graph g, StreamPlanner.Attempt base, Planner planner) {
        Problem interval = ArenaPlanner.problemOf(base.lifetimes(), base.problem().alignment());
        Placement ideal = planner.place(interval);
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
