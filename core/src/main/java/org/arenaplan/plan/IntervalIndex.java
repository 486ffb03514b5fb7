package org.arenaplan.plan;

import java.util.function.IntConsumer;

/**
 * Static interval tree: intervals sorted by start, an implicit balanced tree over that order,
 * each node holding the largest end in its subtree. {@link #forEachOverlap} costs
 * O(log n + k) for k reported intervals. Built once per problem in O(n log n).
 */
final class IntervalIndex {
    private final int[] order;      // buffer ids sorted by lower
    private final long[] start;     // lower of order[i]
    private final long[] end;       // upper of order[i]
    private final long[] maxEnd;    // max end over the subtree rooted at mid of its range

    IntervalIndex(long[] lower, long[] upper) {
        int n = lower.length;
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) boxed[i] = i;
        java.util.Arrays.sort(boxed, (a, b) -> Long.compare(lower[a], lower[b]));
        order = new int[n];
        start = new long[n];
        end = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
            start[i] = lower[boxed[i]];
            end[i] = upper[boxed[i]];
        }
        maxEnd = new long[n];
        build(0, n);
    }

    private long build(int lo, int hi) {
        if (lo >= hi) return Long.MIN_VALUE;
        int mid = (lo + hi) >>> 1;
        long m = Math.max(end[mid], Math.max(build(lo, mid), build(mid + 1, hi)));
        maxEnd[mid] = m;
        return m;
    }

    /** Reports every interval that overlaps {@code [lo, hi)}. */
    void forEachOverlap(long lo, long hi, IntConsumer sink) {
        visit(0, order.length, lo, hi, sink);
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
        stack[sp++] = order.length;
        while (sp > 0) {
            int b = stack[--sp];
            int a = stack[--sp];
            while (a < b) {
                int mid = (a + b) >>> 1;
                if (maxEnd[mid] <= lo) break;
                if (start[mid] < hi) {
                    if (end[mid] > lo && order[mid] != skip) {
                        if (count + 1 >= out.length) out = java.util.Arrays.copyOf(out, out.length * 2);
                        out[++count] = order[mid];
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
            if (maxEnd[mid] <= lo) return;              // nothing here ends after lo
            visit(a, mid, lo, hi, sink);
            if (start[mid] >= hi) return;               // mid and everything right start too late
            if (end[mid] > lo) sink.accept(order[mid]);
            a = mid + 1;                                // tail-iterate into the right subtree
        }
    }
}
