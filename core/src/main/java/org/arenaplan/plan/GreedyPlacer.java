package org.arenaplan.plan;

import java.util.Arrays;

/**
 * Places buffers one at a time, in a given order, each at the best gap among the already placed
 * buffers it conflicts with (TFLite Micro's greedy planner, generalised to any conflict relation).
 *
 * <p>Fit rule: {@link Fit#BEST} takes the smallest gap that holds the buffer, ties to the lowest
 * offset; {@link Fit#FIRST} takes the lowest offset that holds it. A buffer that fits no gap goes
 * on top of its highest conflicting neighbour. Only conflicting neighbours are looked at (through
 * the problem's interval index), so the cost is O(n (log n + w log w)) for w neighbours at a time.
 */
final class GreedyPlacer {
    enum Fit { BEST, FIRST }

    private GreedyPlacer() { }

    static long[] place(Problem p, int[] order, Fit fit) {
        return isWide(p) ? placeWide(p, order, fit) : placeByNeighbours(p, order, fit);
    }

    /** Average buffers overlapping one buffer above which the occupancy tree wins. */
    static final long WIDE_AVERAGE_OVERLAP = 64;

    /**
     * Total number of overlapping (buffer, buffer) pairs, counted in O(n log n): for buffer i,
     * those that start before it ends minus those that end before it starts, minus itself.
     */
    static boolean isWide(Problem p) {
        int n = p.size();
        if (n == 0) return false;
        long[] lows = new long[n];
        long[] ups = new long[n];
        for (int i = 0; i < n; i++) {
            lows[i] = p.lower(i);
            ups[i] = p.upper(i);
        }
        Arrays.sort(lows);
        Arrays.sort(ups);
        long pairs = 0;
        for (int i = 0; i < n; i++) {
            pairs += countBelow(lows, p.upper(i)) - countAtOrBelow(ups, p.lower(i)) - 1;
        }
        return pairs / n > WIDE_AVERAGE_OVERLAP;
    }

    private static int countBelow(long[] sorted, long v) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (sorted[m] < v) lo = m + 1;
            else hi = m;
        }
        return lo;
    }

    private static int countAtOrBelow(long[] sorted, long v) {
        return countBelow(sorted, v + 1);
    }

    /** Enumerates each buffer's placed neighbours through the interval index. */
    static long[] placeByNeighbours(Problem p, int[] order, Fit fit) {
        int n = p.size();
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        int[] nb = new int[64];
        int[] stack = IntervalIndex.newStack();
        long[] keys = new long[64];
        long[] ends = new long[64];
        for (int i : order) {
            nb = p.conflictsInto(i, nb, stack);
            int count = nb[0];
            if (keys.length < count) {
                keys = new long[Math.max(count, keys.length * 2)];
                ends = new long[keys.length];
            }
            int k = 0;
            for (int c = 1; c <= count; c++) {
                int j = nb[c];
                if (!placed[j] || p.alignedSize(j) == 0) continue;
                keys[k] = offset[j];
                ends[k++] = offset[j] + p.alignedSize(j);
            }
            offset[i] = gap(keys, ends, k, p.alignedSize(i), fit);
            placed[i] = true;
        }
        return offset;
    }

    /** Reads the occupied bytes of each buffer's window from an {@link OccupancyTree}. */
    static long[] placeWide(Problem p, int[] order, Fit fit) {
        int n = p.size();
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        OccupancyTree tree = new OccupancyTree(p);
        long[] keys = new long[64];
        long[] ends = new long[64];
        for (int i : order) {
            int k = tree.collect(p.lower(i), p.upper(i));
            int extra = 0;
            int[] ex = p.extraConflicts(i);
            if (keys.length < k + ex.length) {
                keys = new long[Math.max(k + ex.length, keys.length * 2)];
                ends = new long[keys.length];
            }
            System.arraycopy(tree.starts(), 0, keys, 0, k);
            System.arraycopy(tree.ends(), 0, ends, 0, k);
            for (int j : ex) {
                if (!placed[j] || p.alignedSize(j) == 0 || p.intervalsOverlap(i, j)) continue;
                keys[k + extra] = offset[j];
                ends[k + extra++] = offset[j] + p.alignedSize(j);
            }
            offset[i] = gap(keys, ends, k + extra, p.alignedSize(i), fit);
            placed[i] = true;
            tree.add(p.lower(i), p.upper(i), offset[i], offset[i] + p.alignedSize(i));
        }
        return offset;
    }

    /**
     * Scans the free gaps below and between the neighbours' byte ranges, in offset order.
     * Offsets are aligned and sizes aligned, so every gap start is aligned too.
     */
    private static long gap(long[] starts, long[] ends, int k, long size, Fit fit) {
        sortPairsByStart(starts, ends, k);
        long cursor = 0;
        long bestOffset = -1;
        long bestGap = Long.MAX_VALUE;
        for (int a = 0; a < k; a++) {
            long g = starts[a] - cursor;
            if (g >= size) {
                if (fit == Fit.FIRST || size == 0) return cursor;
                if (g < bestGap) {
                    bestGap = g;
                    bestOffset = cursor;
                }
            }
            cursor = Math.max(cursor, ends[a]);
        }
        return bestOffset >= 0 ? bestOffset : cursor;
    }

    /**
     * Sorts (start, end) pairs by start with one primitive sort: each start is packed with its
     * index in the low bits when it fits, else two sorts keep the pairing through a permutation.
     */
    private static void sortPairsByStart(long[] starts, long[] ends, int k) {
        if (k < 2) return;
        int bits = 32 - Integer.numberOfLeadingZeros(k);
        long max = 0;
        for (int a = 0; a < k; a++) max = Math.max(max, starts[a]);
        long[] packed = new long[k];
        long[] e = Arrays.copyOf(ends, k);
        if (max < (1L << (62 - bits))) {
            for (int a = 0; a < k; a++) packed[a] = (starts[a] << bits) | a;
            Arrays.sort(packed);
            long mask = (1L << bits) - 1;
            for (int a = 0; a < k; a++) {
                int idx = (int) (packed[a] & mask);
                starts[a] = packed[a] >>> bits;
                ends[a] = e[idx];
            }
        } else {
            Integer[] idx = new Integer[k];
            for (int a = 0; a < k; a++) idx[a] = a;
            long[] s = Arrays.copyOf(starts, k);
            Arrays.sort(idx, (x, y) -> Long.compare(s[x], s[y]));
            for (int a = 0; a < k; a++) {
                starts[a] = s[idx[a]];
                ends[a] = e[idx[a]];
            }
        }
    }
}
