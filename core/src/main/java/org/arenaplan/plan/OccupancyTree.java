package org.arenaplan.plan;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes occupied over a time window, without visiting every buffer live in it.
 *
 * <p>A segment tree over the problem's distinct time points. Placing a buffer adds its byte
 * range to {@code cover} of the O(log T) nodes that exactly tile its interval, and to
 * {@code sub} of every node it touches on the way (those and their ancestors). Both are sets of
 * disjoint, merged byte ranges. The bytes occupied somewhere in a window are then the
 * {@code sub} sets of the nodes tiling the window plus the {@code cover} sets of their
 * ancestors: O(log T) sets whose size is the number of separate byte segments, not the number
 * of buffers. Wide problems (thousands of buffers live at once, tightly packed) are where this
 * beats enumerating neighbours; it gives exactly the same gaps.
 */
final class OccupancyTree {
    private final long[] points;          // distinct time points, ascending
    private final int leaves;             // elementary segments [points[k], points[k+1])
    private final TreeMap<Long, Long>[] cover;
    private final TreeMap<Long, Long>[] sub;
    private long[] segStart = new long[64];
    private long[] segEnd = new long[64];
    private int segCount;

    @SuppressWarnings("unchecked")
    OccupancyTree(Problem p) {
        long[] all = new long[2 * p.size()];
        for (int i = 0; i < p.size(); i++) {
            all[2 * i] = p.lower(i);
            all[2 * i + 1] = p.upper(i);
        }
        Arrays.sort(all);
        int k = 0;
        for (int i = 0; i < all.length; i++) if (k == 0 || all[i] != all[k - 1]) all[k++] = all[i];
        points = Arrays.copyOf(all, k);
        leaves = Math.max(1, k - 1);
        cover = new TreeMap[4 * leaves];
        sub = new TreeMap[4 * leaves];
    }

    private int leafOf(long t) {
        return Arrays.binarySearch(points, t);
    }

    /** Marks bytes [from, to) occupied over the time interval [lower, upper). */
    void add(long lower, long upper, long from, long to) {
        if (to <= from) return;
        add(1, 0, leaves, leafOf(lower), leafOf(upper), from, to);
    }

    private void add(int node, int a, int b, int lo, int hi, long from, long to) {
        sub[node] = insert(sub[node], from, to);
        if (lo <= a && b <= hi) {
            cover[node] = insert(cover[node], from, to);
            return;
        }
        int mid = (a + b) >>> 1;
        if (lo < mid) add(2 * node, a, mid, lo, hi, from, to);
        if (hi > mid) add(2 * node + 1, mid, b, lo, hi, from, to);
    }

    /** Inserts [from, to) into a set of disjoint ranges, merging what it overlaps or touches. */
    private static TreeMap<Long, Long> insert(TreeMap<Long, Long> set, long from, long to) {
        if (set == null) set = new TreeMap<>();
        Map.Entry<Long, Long> below = set.floorEntry(from);
        if (below != null && below.getValue() >= from) {
            if (below.getValue() >= to) return set;
            from = below.getKey();
        }
        Map.Entry<Long, Long> e;
        while ((e = set.ceilingEntry(from)) != null && e.getKey() <= to) {
            to = Math.max(to, e.getValue());
            set.remove(e.getKey());
        }
        set.put(from, to);
        return set;
    }

    /** Collects the occupied byte segments over [lower, upper); read them with {@link #starts()}. */
    int collect(long lower, long upper) {
        segCount = 0;
        collect(1, 0, leaves, leafOf(lower), leafOf(upper));
        return segCount;
    }

    private void collect(int node, int a, int b, int lo, int hi) {
        if (lo <= a && b <= hi) {
            append(sub[node]);
            return;
        }
        append(cover[node]);
        int mid = (a + b) >>> 1;
        if (lo < mid) collect(2 * node, a, mid, lo, hi);
        if (hi > mid) collect(2 * node + 1, mid, b, lo, hi);
    }

    private void append(TreeMap<Long, Long> set) {
        if (set == null) return;
        for (Map.Entry<Long, Long> e : set.entrySet()) {
            if (segCount == segStart.length) {
                segStart = Arrays.copyOf(segStart, segCount * 2);
                segEnd = Arrays.copyOf(segEnd, segCount * 2);
            }
            segStart[segCount] = e.getKey();
            segEnd[segCount++] = e.getValue();
        }
    }

    long[] starts() {
        return segStart;
    }

    long[] ends() {
        return segEnd;
    }
}
