package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

/**
 * The test oracle: the optimal arena of a tiny problem, by trying every placement order with
 * first fit. Some order reaches the optimum: placing an optimal solution's buffers in offset
 * order, first fit puts each at or below its optimal offset.
 */
final class BruteForce {
    private BruteForce() { }

    static long optimum(Problem p) {
        int n = p.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        long[] best = {Long.MAX_VALUE};
        permute(p, order, 0, new long[n], best);
        return n == 0 ? 0 : best[0];
    }

    private static void permute(Problem p, int[] order, int k, long[] offsets, long[] best) {
        if (k == order.length) {
            best[0] = Math.min(best[0], firstFit(p, order, offsets));
            return;
        }
        for (int i = k; i < order.length; i++) {
            swap(order, k, i);
            permute(p, order, k + 1, offsets, best);
            swap(order, k, i);
        }
    }

    private static long firstFit(Problem p, int[] order, long[] offsets) {
        long arena = 0;
        for (int k = 0; k < order.length; k++) {
            int b = order[k];
            long at = 0;
            boolean moved = true;
            while (moved) {
                moved = false;
                for (int m = 0; m < k; m++) {
                    int c = order[m];
                    if (p.conflicts(b, c) && p.alignedSize(c) > 0 && p.alignedSize(b) > 0
                            && at < offsets[c] + p.alignedSize(c) && offsets[c] < at + p.alignedSize(b)) {
                        at = offsets[c] + p.alignedSize(c);
                        moved = true;
                    }
                }
            }
            offsets[b] = at;
            arena = Math.max(arena, at + p.alignedSize(b));
        }
        return arena;
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
