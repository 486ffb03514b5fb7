package org.arenaplan.plan;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The placement orders the greedy planners use. Every order ends with the buffer index, so it
 * is total and the plans deterministic.
 */
final class Orders {
    private Orders() { }

    static int[] sorted(Problem p, Comparator<Integer> cmp) {
        int n = p.size();
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) idx[i] = i;
        Arrays.sort(idx, cmp.thenComparingInt(i -> i));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) out[i] = idx[i];
        return out;
    }

    /** Largest first; among equal sizes the longer-lived first, then the earlier. */
    static int[] bySizeDesc(Problem p) {
        return sorted(p, Comparator.<Integer>comparingLong(i -> -p.alignedSize(i))
                .thenComparingLong(i -> -(p.upper(i) - p.lower(i)))
                .thenComparingLong(p::lower));
    }

    /** Largest first; among equal sizes the earlier first. */
    static int[] bySizeThenStart(Problem p) {
        return sorted(p, Comparator.<Integer>comparingLong(i -> -p.alignedSize(i)).thenComparingLong(p::lower));
    }

    /** Largest first; among equal sizes the one that ends last first. */
    static int[] bySizeThenEndDesc(Problem p) {
        return sorted(p, Comparator.<Integer>comparingLong(i -> -p.alignedSize(i)).thenComparingLong(i -> -p.upper(i)));
    }

    /** Largest size x duration first. */
    static int[] byAreaDesc(Problem p) {
        return sorted(p, Comparator.<Integer>comparingDouble(i -> -(double) p.alignedSize(i) * (p.upper(i) - p.lower(i)))
                .thenComparingLong(i -> -p.alignedSize(i)));
    }

    /** Longest-lived first, then largest. */
    static int[] byDurationDesc(Problem p) {
        return sorted(p, Comparator.<Integer>comparingLong(i -> -(p.upper(i) - p.lower(i)))
                .thenComparingLong(i -> -p.alignedSize(i)));
    }

    /**
     * Greedy by breadth (Pisarchyk and Lee, 2020): visit the instants from the most bytes live to
     * the least, placing the unplaced buffers live there from largest to smallest. A buffer is
     * first met at the widest instant in its interval, so that is the order computed directly:
     * widest instant in its interval first (ties: the earlier instant), then size.
     */
    static int[] byBreadth(Problem p) {
        LiveBytes live = LiveBytes.of(p);
        RangeMax rmq = new RangeMax(live);
        int n = p.size();
        long[] width = new long[n];
        int[] at = new int[n];
        for (int i = 0; i < n; i++) {
            int a = live.indexAtOrBefore(p.lower(i));
            int b = live.indexAtOrBefore(p.upper(i) - 1);
            int m = rmq.argMax(a, b);
            width[i] = live.bytesAt(m);
            at[i] = m;
        }
        return sorted(p, Comparator.<Integer>comparingLong(i -> -width[i])
                .thenComparingInt(i -> at[i])
                .thenComparingLong(i -> -p.alignedSize(i)));
    }

    /** Sparse table over the live-bytes curve: arg-max of any index range in O(1). */
    private static final class RangeMax {
        private final LiveBytes live;
        private final int[][] table;

        RangeMax(LiveBytes live) {
            this.live = live;
            int n = live.points();
            int levels = 1;
            while ((1 << levels) <= n) levels++;
            table = new int[levels][];
            table[0] = new int[n];
            for (int i = 0; i < n; i++) table[0][i] = i;
            for (int k = 1; k < levels; k++) {
                int len = n - (1 << k) + 1;
                table[k] = new int[Math.max(len, 0)];
                for (int i = 0; i < len; i++) table[k][i] = better(table[k - 1][i], table[k - 1][i + (1 << (k - 1))]);
            }
        }

        private int better(int a, int b) {
            return live.bytesAt(b) > live.bytesAt(a) ? b : a;   // ties keep the earlier instant
        }

        int argMax(int a, int b) {
            int k = 31 - Integer.numberOfLeadingZeros(b - a + 1);
            return better(table[k][a], table[k][b - (1 << k) + 1]);
        }
    }
}
