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
        int n = p.size();
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        long[] nbOff = new long[16];
        long[] nbEnd = new long[16];
        int[] count = new int[1];
        for (int i : order) {
            count[0] = 0;
            long[][] buf = {nbOff, nbEnd};
            p.forEachConflict(i, j -> {
                if (!placed[j] || p.alignedSize(j) == 0) return;
                int c = count[0];
                if (c == buf[0].length) {
                    buf[0] = Arrays.copyOf(buf[0], c * 2);
                    buf[1] = Arrays.copyOf(buf[1], c * 2);
                }
                buf[0][c] = offset[j];
                buf[1][c] = offset[j] + p.alignedSize(j);
                count[0] = c + 1;
            });
            nbOff = buf[0];
            nbEnd = buf[1];
            offset[i] = gap(nbOff, nbEnd, count[0], p.alignedSize(i), fit);
            placed[i] = true;
        }
        return offset;
    }

    /**
     * Scans the free gaps below and between the neighbours' byte ranges. Starts and ends are
     * sorted separately: a byte is covered while more ranges have started than ended, so the
     * gaps are where that count is zero. Offsets are aligned and sizes aligned, so every gap
     * start is aligned too.
     */
    private static long gap(long[] starts, long[] ends, int k, long size, Fit fit) {
        Arrays.sort(starts, 0, k);
        Arrays.sort(ends, 0, k);
        long cursor = 0;
        long bestOffset = -1;
        long bestGap = Long.MAX_VALUE;
        int si = 0;
        int ei = 0;
        while (si < k) {
            long g = starts[si] - cursor;
            if (g >= size) {
                if (fit == Fit.FIRST || size == 0) return cursor;
                if (g < bestGap) {
                    bestGap = g;
                    bestOffset = cursor;
                }
            }
            int depth = 0;
            do {
                if (si < k && starts[si] < ends[ei]) {
                    si++;
                    depth++;
                } else {
                    cursor = ends[ei++];
                    depth--;
                }
            } while (depth > 0);
        }
        return bestOffset >= 0 ? bestOffset : cursor;
    }
}
