package org.arenaplan.schedule;

import java.util.SplittableRandom;

/**
 * A memory-aware list scheduler for graphs too large for {@link ExactScheduler}: repeatedly runs
 * the ready op that keeps the peak lowest, then leaves the fewest bytes live, ties to the file
 * order; then restarts with random choices among the three best candidates until the deadline,
 * keeping the best order found.
 *
 * <p>Steps per run: keep the ready ops; for each, apply it to the {@link LiveModel}, read the
 * bytes live while it runs and after it, undo; run the best one. Cost per run O(ops x ready ops x
 * op degree). The caller compares the result with the file order, so the heuristic can never
 * make a plan worse.
 */
final class GreedyScheduler {
    private GreedyScheduler() { }

    /** The best order of the deterministic run and of the randomised runs before the deadline (at most {@code maxRuns}). */
    static int[] search(Dependences deps, LiveModel model, long deadlineNanos, int maxRuns, long seed) {
        int[] best = run(deps, model, null);
        long bestPeak = model.peakOf(best);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 1; i < maxRuns && System.nanoTime() < deadlineNanos; i++) {
            int[] o = run(deps, model, random);
            long p = model.peakOf(o);
            if (p < bestPeak) {
                bestPeak = p;
                best = o;
            }
        }
        return best;
    }

    /** One greedy run; {@code random} null for the deterministic one. */
    static int[] run(Dependences deps, LiveModel model, SplittableRandom random) {
        int n = deps.n;
        int[] indeg = deps.indegree.clone();
        int[] ready = new int[n];
        int r = 0;
        for (int v = 0; v < n; v++) if (indeg[v] == 0) ready[r++] = v;
        int[] order = new int[n];
        long peak = model.initialLive();
        int[] top = new int[3];
        long[] topDuring = new long[3], topAfter = new long[3];
        for (int step = 0; step < n; step++) {
            int k = 0;
            for (int i = 0; i < r; i++) {
                int v = ready[i];
                long during = Math.max(peak, model.apply(v));
                long after = model.live();
                model.undo();
                // insert into the top-3, ordered by (during, after, position)
                int at = k;
                while (at > 0 && better(during, after, v, topDuring[at - 1], topAfter[at - 1], top[at - 1])) at--;
                if (at >= 3) continue;
                for (int j = Math.min(k, 2); j > at; j--) {
                    top[j] = top[j - 1];
                    topDuring[j] = topDuring[j - 1];
                    topAfter[j] = topAfter[j - 1];
                }
                top[at] = v;
                topDuring[at] = during;
                topAfter[at] = after;
                if (k < 3) k++;
            }
            int pick = random == null || k == 1 ? 0 : random.nextInt(4) == 0 ? random.nextInt(k) : 0;
            int v = top[pick];
            peak = Math.max(peak, model.apply(v));
            order[step] = v;
            for (int i = 0; i < r; i++) {
                if (ready[i] == v) {
                    ready[i] = ready[--r];
                    break;
                }
            }
            for (int s : deps.succ[v]) if (--indeg[s] == 0) ready[r++] = s;
        }
        for (int i = 0; i < n; i++) model.undo();
        return order;
    }

    private static boolean better(long d1, long a1, int v1, long d2, long a2, int v2) {
        if (d1 != d2) return d1 < d2;
        if (a1 != a2) return a1 < a2;
        return v1 < v2;
    }
}
