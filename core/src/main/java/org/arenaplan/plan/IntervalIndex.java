package org.arenaplan.plan;

import java.util.function.IntConsumer;

/**
 * Static interval tree: intervals sorted by start, an implicit balanced tree over that order
 * (the node of a range is its middle element), each node holding the largest end in its
 * subtree. A query for {@code [lo, hi)} skips subtrees whose largest end is {@code <= lo} and
 * everything right of a node that starts at or after {@code hi}: O(log n + k) for k reported
 * intervals. Built once per problem in O(n log n).
 *
 * <p>A node's start, end, subtree max end and buffer id sit side by side in one array, so a
 * visit touches one cache line: on large problems queries are memory-bound.
 */
final class IntervalIndex {
    private static final int START = 0, END = 1, MAX_END = 2, ID = 3, STRIDE = 4;

    private final int n;
    private final long[] node;      // STRIDE longs per interval, in order of start

    IntervalIndex(long[] lower, long[] upper) {
        n = lower.length;
        int[] byStart = Orders.sortedByKeys(n, lower);   // ties by index
        node = new long[STRIDE * n];
        for (int i = 0; i < n; i++) {
            node[STRIDE * i + START] = lower[byStart[i]];
            node[STRIDE * i + END] = upper[byStart[i]];
            node[STRIDE * i + ID] = byStart[i];
        }
        build(0, n);
    }

    private long build(int lo, int hi) {
        if (lo >= hi) return Long.MIN_VALUE;
        int mid = (lo + hi) >>> 1;
        long m = Math.max(node[STRIDE * mid + END], Math.max(build(lo, mid), build(mid + 1, hi)));
        node[STRIDE * mid + MAX_END] = m;
        return m;
    }

    /** Reports every interval that overlaps {@code [lo, hi)}. */
    void forEachOverlap(long lo, long hi, IntConsumer sink) {
        visit(0, n, lo, hi, sink);
    }

    /** Scratch for {@link #overlapsInto}: pending right subtrees, at most one per level. */
    static int[] newStack() {
        return new int[2 * 66];
    }

    /**
     * Writes every interval overlapping {@code [lo, hi)} except {@code skip} into
     * {@code out[1..count]} with {@code out[0] = count}; iterative, no allocation unless out grows.
     * {@code stack} comes from {@link #newStack()} (one per thread).
     */
    int[] overlapsInto(long lo, long hi, int skip, int[] out, int[] stack) {
        int count = 0;
        int sp = 0;
        stack[sp++] = 0;
        stack[sp++] = n;
        while (sp > 0) {
            int b = stack[--sp];
            int a = stack[--sp];
            while (a < b) {
                int mid = (a + b) >>> 1;
                int at = STRIDE * mid;
                if (node[at + MAX_END] <= lo) break;
                if (node[at + START] < hi) {
                    if (node[at + END] > lo && node[at + ID] != skip) {
                        if (count + 1 >= out.length) out = java.util.Arrays.copyOf(out, out.length * 2);
                        out[++count] = (int) node[at + ID];
                    }
                    stack[sp++] = mid + 1;                 // right subtree later
                    stack[sp++] = b;
                }
                b = mid;                                  // left subtree now
            }
        }
        out[0] = count;
        return out;
    }

    private void visit(int a, int b, long lo, long hi, IntConsumer sink) {
        while (a < b) {
            int mid = (a + b) >>> 1;
            int at = STRIDE * mid;
            if (node[at + MAX_END] <= lo) return;        // nothing here ends after lo
            visit(a, mid, lo, hi, sink);
            if (node[at + START] >= hi) return;          // mid and everything right start too late
            if (node[at + END] > lo) sink.accept((int) node[at + ID]);
            a = mid + 1;                                  // tail-iterate into the right subtree
        }
    }
}
