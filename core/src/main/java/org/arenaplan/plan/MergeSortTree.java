package org.arenaplan.plan;

/**
 * Fixed byte ranges {@code [from[i], to[i])}, i in {@code [0, n)} (the heavy buffers of a sweep,
 * by start), and for an index window {@code [a, b)} and a byte range {@code [x, y)}: whether a
 * range of the window meets {@code [x, y)}, and how far up the bytes stay occupied from there.
 * A merge sort tree (the levels of a bottom-up merge sort, kept): level k holds, for every
 * aligned block of 2^k indices, the union of its ranges as disjoint ranges ascending (ranges
 * that overlap or touch merged). A window is at most 2 log2 n such blocks; in each, the first
 * union range ending above x meets {@code [x, y)} exactly when it starts below y.
 *
 * <p>Cost: O(n log n) time and at most 2 n (log2 n + 1) longs to build; {@link #window} O(log n);
 * each {@link #blockEnd} at most one binary search per block, O(log^2 n), over contiguous arrays (the
 * {@link OccupancyTree} it replaces for this query walked O(log T) separate sets over all T
 * start points of the problem).
 */
final class MergeSortTree {
    private final long[][] start;   // level k, block at s: its union as disjoint ranges, ascending,
    private final long[][] end;     // in [s, s + count[k][s >> k]); ranges that touch are merged
    private final int[][] count;
    private final int levels;
    private int[] blockLevel = new int[64];   // the current window's blocks
    private int[] blockStart = new int[64];
    private int blocks;

    /**
     * @param from range starts (bytes), one per index; copied
     * @param to   range ends (bytes), one per index; copied
     */
    MergeSortTree(long[] from, long[] to) {
        int n = from.length;
        int k = 1;
        while ((1L << (k - 1)) < n) k++;
        levels = k;
        start = new long[levels][];
        end = new long[levels][];
        count = new int[levels][];
        long[] f = from.clone(), t = to.clone();
        for (int level = 0; ; level++) {
            int len = 1 << level;
            start[level] = new long[n];
            end[level] = new long[n];
            count[level] = new int[(n + len - 1) >> level];
            for (int s = 0; s < n; s += len) union(f, t, s, Math.min(s + len, n), level);
            if (level + 1 == levels) break;
            long[] f2 = new long[n], t2 = new long[n];
            for (int s = 0; s < n; s += 2 * len) merge(f, t, s, Math.min(s + len, n), Math.min(s + 2 * len, n), f2, t2);
            f = f2;
            t = t2;
        }
    }

    /** The union of ranges [a, b), sorted by start, into the level's arrays at a. */
    private void union(long[] f, long[] t, int a, int b, int level) {
        int c = 0;
        for (int i = a; i < b; i++) {
            if (t[i] <= f[i]) continue;                   // an empty range meets nothing
            if (c > 0 && f[i] <= end[level][a + c - 1]) {
                end[level][a + c - 1] = Math.max(end[level][a + c - 1], t[i]);
            } else {
                start[level][a + c] = f[i];
                end[level][a + c++] = t[i];
            }
        }
        count[level][a >> level] = c;
    }

    private static void merge(long[] f, long[] t, int a, int mid, int b, long[] f2, long[] t2) {
        int i = a, j = mid;
        for (int o = a; o < b; o++) {
            if (j >= b || (i < mid && f[i] <= f[j])) {
                f2[o] = f[i];
                t2[o] = t[i++];
            } else {
                f2[o] = f[j];
                t2[o] = t[j++];
            }
        }
    }

    /** Fixes the index window {@code [a, b)} for the {@link #blockEnd} calls that follow. */
    void window(int a, int b) {
        blocks = 0;
        while (a < b) {
            int k = Math.min(a == 0 ? levels - 1 : Integer.numberOfTrailingZeros(a), 31 - Integer.numberOfLeadingZeros(b - a));
            k = Math.min(k, levels - 1);
            if (blocks == blockLevel.length) {
                blockLevel = java.util.Arrays.copyOf(blockLevel, 2 * blocks);
                blockStart = java.util.Arrays.copyOf(blockStart, 2 * blocks);
            }
            int q = blocks++;                             // insert by level, largest first
            for (; q > 0 && blockLevel[q - 1] < k; q--) {
                blockLevel[q] = blockLevel[q - 1];
                blockStart[q] = blockStart[q - 1];
            }
            blockLevel[q] = k;
            blockStart[q] = a;
            a += 1 << k;
        }
    }

    /**
     * -1 if no range of the current {@link #window} meets bytes {@code [x, y)}, else the end of a
     * block's union range that does (every offset below it still meets a range): the highest
     * such end, or, as soon as one is above {@code enough}, that one (a caller whose candidate
     * fails anyway past {@code enough} needs no more). The largest blocks are asked first.
     */
    long blockEnd(long x, long y, long enough) {
        long best = -1;
        for (int q = 0; q < blocks; q++) {
            int level = blockLevel[q], s = blockStart[q];
            long[] e = end[level];
            int last = s + count[level][s >> level];
            if (last == s || e[last - 1] <= Math.max(x, best) || start[level][s] >= y) continue;   // below x, no higher, or above y
            int lo = s;                                   // first union range ending after x:
            for (int len = last - s; len > 1; ) {         // in [lo, lo + len); e[last - 1] > x
                int half = len >>> 1;
                if (e[lo + half - 1] <= x) lo += half;    // no data-dependent exit: the JIT may use a conditional move
                len -= half;
            }
            if (start[level][lo] < y && e[lo] > best) {
                best = e[lo];
                if (best > enough) return best;
            }
        }
        return best;
    }
}
