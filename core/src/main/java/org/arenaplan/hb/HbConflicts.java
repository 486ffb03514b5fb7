package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;

import java.util.Arrays;
import java.util.List;

/**
 * The pairs of storages that happens-before forbids to share bytes although their schedule
 * intervals do not overlap. Storage S may share bytes with a later storage T only if every
 * device access of S (its writers and every runtime reader, through any chain of views) happens
 * before every device writer of T; T's readers then follow T's writers by their data events.
 *
 * <p>Steps:
 * <ol>
 *   <li>Per storage S and lane l: {@code last[S][l]}, S's latest device access on lane l.</li>
 *   <li>Per storage T with device writers, and lane l: {@code bound[T][l]}, the latest position
 *       on l known complete before every writer of T starts (the minimum over T's writers of
 *       their clocks; on a writer's own lane, everything before it). S is ordered before T iff
 *       {@code last[S][l] <= bound[T][l]} on every lane.</li>
 *   <li>Per lane, the storages sorted by {@code last[.][l]}. For each T and lane, the storages
 *       whose last access on l lies in {@code (bound[T][l], T.start)} are exactly those not
 *       ordered before T on that lane; those whose interval also ends by T.start are the extra
 *       conflicts (the others overlap T and conflict anyway).</li>
 * </ol>
 * Cost: O(n lanes log n) plus the pairs reported plus the overlapping storages met in the
 * windows, instead of the O(n²) pair check. Storages without device writers (graph inputs,
 * written by the upload before the first op) start at 0, so nothing precedes them.
 *
 * <p>When the pairs exceed a budget (two long streams that never synchronise make Θ(n²) of
 * them), the result is instead a widened interval per storage: T's start moved back to the
 * earliest position {@code min over l of bound[T][l] + 1}, so that every storage not ordered
 * before T overlaps it. Sound, linear, and more conservative (it may also forbid ordered pairs).
 * With two streams that never synchronise, it moves every start back to 0, so even consecutive
 * storages of one stream stop sharing; {@code lanes} lets the placement do better
 * (org.arenaplan.plan.LaneRegions): two storages whose device accesses are all on the same lane
 * are ordered by that lane's program order whenever their intervals are disjoint.
 *
 * @param extras  symmetric adjacency lists of the extra conflicts (null when widened)
 * @param lower   per storage, its start, moved back when widened
 * @param widened whether the budget was exceeded and intervals were widened instead
 * @param pairs   extra conflicting pairs found (up to the budget when widened)
 * @param lanes   per storage, the one lane every device access of it (writers and readers) is on;
 *                -1 when they are on several lanes or there is none
 */
public record HbConflicts(int[][] extras, long[] lower, boolean widened, long pairs, int[] lanes) {

    /** Default budget: 4 million pairs (64 MiB of adjacency lists). */
    public static final long DEFAULT_BUDGET = 4_000_000L;

    /** As {@link #of(Lifetimes, HappensBefore, long)} with {@link #DEFAULT_BUDGET} pairs. */
    public static HbConflicts of(Lifetimes l, HappensBefore hb) {
        return of(l, hb, DEFAULT_BUDGET);
    }

    /**
     * The extra conflicts of the storages of {@code l} under {@code hb} (the steps above).
     *
     * @param budget the most extra pairs to list (a count of pairs, 16 bytes each in the
     *               adjacency lists); past it the result is widened intervals instead
     */
    public static HbConflicts of(Lifetimes l, HappensBefore hb, long budget) {
        Graph g = l.graph();
        List<Storage> st = l.storages();
        int n = st.size();
        int lanes = hb.lanes();
        int[][] last = new int[n][];
        int[][] bound = new int[n][];
        long[] lower = new long[n];
        for (int s = 0; s < n; s++) {
            Storage storage = st.get(s);
            lower[s] = storage.start();
            last[s] = new int[lanes];
            Arrays.fill(last[s], -1);
            for (int[] accesses : new int[][]{storage.writers(), storage.readers()}) {
                for (int p : accesses) if (!g.ops().get(p).isStorageOnly()) last[s][hb.lane(p)] = Math.max(last[s][hb.lane(p)], p);
            }
            for (int w : storage.writers()) {
                if (g.ops().get(w).isStorageOnly()) continue;
                if (bound[s] == null) {
                    bound[s] = new int[lanes];
                    Arrays.fill(bound[s], Integer.MAX_VALUE);
                }
                for (int k = 0; k < lanes; k++) bound[s][k] = Math.min(bound[s][k], hb.knownComplete(w, k));
            }
        }
        int[] single = singleLanes(last);
        int[][] byLast = new int[lanes][];
        int[][] lastSorted = new int[lanes][];
        for (int k = 0; k < lanes; k++) {
            final int lane = k;
            byLast[k] = java.util.stream.IntStream.range(0, n).filter(s -> last[s][lane] >= 0).boxed()
                    .sorted((a, b) -> Integer.compare(last[a][lane], last[b][lane])).mapToInt(Integer::intValue).toArray();
            lastSorted[k] = Arrays.stream(byLast[k]).map(s -> last[s][lane]).toArray();
        }
        PairList pairs = new PairList();
        int[] stamp = new int[n];
        Arrays.fill(stamp, -1);
        for (int t = 0; t < n; t++) {
            if (bound[t] == null) continue;
            int start = st.get(t).start();
            for (int k = 0; k < lanes; k++) {
                int from = upperBound(lastSorted[k], bound[t][k]);
                for (int i = from; i < byLast[k].length && lastSorted[k][i] < start; i++) {
                    int s = byLast[k][i];
                    if (s == t || stamp[s] == t || st.get(s).end() > start) continue;
                    stamp[s] = t;
                    if (pairs.size() >= budget) return widened(st, bound, lower, budget, single);
                    pairs.add(s, t);
                }
            }
        }
        return new HbConflicts(pairs.adjacency(n), lower, false, pairs.size(), single);
    }

    /** Per storage, the only lane with a device access in {@code last}, or -1 (none, or several). */
    private static int[] singleLanes(int[][] last) {
        int[] single = new int[last.length];
        for (int s = 0; s < last.length; s++) {
            single[s] = -1;
            for (int k = 0; k < last[s].length; k++) {
                if (last[s][k] < 0) continue;
                if (single[s] != -1) {
                    single[s] = -1;
                    break;
                }
                single[s] = k;
            }
        }
        return single;
    }

    private static HbConflicts widened(List<Storage> st, int[][] bound, long[] lower, long budget, int[] single) {
        long[] wide = lower.clone();
        for (int t = 0; t < st.size(); t++) {
            if (bound[t] == null) continue;
            for (int b : bound[t]) wide[t] = Math.min(wide[t], (long) b + 1);
        }
        return new HbConflicts(null, wide, true, budget, single);
    }

    /** First index whose value exceeds {@code v} in an ascending array. */
    private static int upperBound(int[] a, int v) {
        int lo = 0, hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= v) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Growable list of pairs, turned into symmetric adjacency lists at the end. */
    private static final class PairList {
        private int[] a = new int[64];
        private int[] b = new int[64];
        private int size;

        void add(int x, int y) {
            if (size == a.length) {
                a = Arrays.copyOf(a, size * 2);
                b = Arrays.copyOf(b, size * 2);
            }
            a[size] = x;
            b[size++] = y;
        }

        long size() { return size; }

        int[][] adjacency(int n) {
            int[] degree = new int[n];
            for (int i = 0; i < size; i++) {
                degree[a[i]]++;
                degree[b[i]]++;
            }
            int[][] adj = new int[n][];
            for (int i = 0; i < n; i++) adj[i] = new int[degree[i]];
            int[] fill = new int[n];
            for (int i = 0; i < size; i++) {
                adj[a[i]][fill[a[i]]++] = b[i];
                adj[b[i]][fill[b[i]]++] = a[i];
            }
            return adj;
        }
    }
}
