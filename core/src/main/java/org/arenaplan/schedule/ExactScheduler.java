package org.arenaplan.schedule;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The order of least peak live bytes, found exactly: dynamic programming over the sets of
 * scheduled ops (the "ready set" formulation of Serenity, Ahn et al., MLSys 2020) done as a
 * depth-first search with memoisation and branch-and-bound.
 *
 * <p>Steps:
 * <ol>
 *   <li>State: the set of ops scheduled so far and which in-place hints among them folded (the
 *       bytes live from here on depend on nothing else, see {@link LiveModel}).</li>
 *   <li>From a state, try every ready op (all its producers scheduled), cheapest next step first
 *       (bytes live while it runs, then bytes live after it).</li>
 *   <li>Prune a branch whose peak so far is no better than the best complete order found (at
 *       first the incumbent given, e.g. the file order), or no better than the peak with which
 *       the same state was reached before.</li>
 * </ol>
 * Cost: O(states x ready ops x op degree) time and one memo entry per state; the number of
 * states (downward-closed sets of the dependence order) is exponential in the graph's width, so
 * the search stops at {@code maxStates} states or at the deadline and then says it is not exact.
 */
final class ExactScheduler {
    /** The best order found, its peak, and whether the search finished (then it is optimal). */
    record Result(int[] order, long peak, boolean exact, long states) { }

    private final Dependences deps;
    private final LiveModel model;
    private final int n;
    private final int words;
    private final long maxStates;
    private final long deadlineNanos;
    private final Map<Key, Long> memo = new HashMap<>();
    private final int[] indeg;
    private final long[] done;
    private final int[] current;
    private int[] best;
    private long bestPeak;
    private boolean aborted;
    private long visits;

    private ExactScheduler(Dependences deps, LiveModel model, long maxStates, long deadlineNanos) {
        this.deps = deps;
        this.model = model;
        this.n = deps.n;
        this.words = (n + model.hintCount + 63) / 64;
        this.maxStates = maxStates;
        this.deadlineNanos = deadlineNanos;
        this.indeg = deps.indegree.clone();
        this.done = new long[(n + 63) / 64];
        this.current = new int[n];
    }

    /**
     * @param incumbent a valid order whose peak the search must beat to replace it
     */
    static Result search(Dependences deps, LiveModel model, int[] incumbent, long maxStates, long deadlineNanos) {
        ExactScheduler s = new ExactScheduler(deps, model, maxStates, deadlineNanos);
        s.best = incumbent.clone();
        s.bestPeak = model.peakOf(incumbent);
        s.dfs(model.initialLive());
        return new Result(s.best, s.bestPeak, !s.aborted, s.memo.size());
    }

    private void dfs(long peak) {
        if (aborted) return;
        int depth = model.depth();
        if (depth == n) {
            if (peak < bestPeak) {
                bestPeak = peak;
                best = current.clone();
            }
            return;
        }
        if (peak >= bestPeak) return;
        Key key = key();
        Long seen = memo.get(key);
        if (seen != null && seen <= peak) return;
        memo.put(key, peak);
        if (memo.size() > maxStates || ((++visits & 1023) == 0 && System.nanoTime() > deadlineNanos)) {
            aborted = true;
            return;
        }
        int[] ready = new int[n];
        int r = 0;
        for (int v = 0; v < n; v++) if (indeg[v] == 0 && !isDone(v)) ready[r++] = v;
        long[] during = new long[r], after = new long[r];
        Integer[] idx = new Integer[r];
        for (int i = 0; i < r; i++) {
            during[i] = Math.max(peak, model.apply(ready[i]));
            after[i] = model.live();
            model.undo();
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> during[a] != during[b] ? Long.compare(during[a], during[b]) : Long.compare(after[a], after[b]));
        for (int i : idx) {
            if (during[i] >= bestPeak) break;
            int v = ready[i];
            model.apply(v);
            current[depth] = v;
            done[v >> 6] |= 1L << v;
            for (int s : deps.succ[v]) indeg[s]--;
            dfs(during[i]);
            for (int s : deps.succ[v]) indeg[s]++;
            done[v >> 6] &= ~(1L << v);
            model.undo();
            if (aborted) return;
        }
    }

    private boolean isDone(int v) {
        return (done[v >> 6] & (1L << v)) != 0;
    }

    private Key key() {
        long[] k = new long[words];
        System.arraycopy(done, 0, k, 0, done.length);
        for (int h = 0; h < model.hintCount; h++) {
            if (model.folded(h)) {
                int bit = n + h;
                k[bit >> 6] |= 1L << bit;
            }
        }
        return new Key(k);
    }

    /** A state's bits with a cached hash. */
    private static final class Key {
        private final long[] bits;
        private final int hash;

        Key(long[] bits) {
            this.bits = bits;
            this.hash = Arrays.hashCode(bits);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bits, k.bits);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
