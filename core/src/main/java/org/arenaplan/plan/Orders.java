package org.arenaplan.plan;

/**
 * The placement orders the greedy planners use. Every order ends with the buffer index, so it
 * is total and the plans deterministic. Each is a merge sort of buffer indices on primitive
 * keys (no boxing): O(n log n).
 *
 * <p>Deadline: each order takes a {@link System#nanoTime()} deadline (or
 * {@link GreedyPlacer#NO_DEADLINE}); the merge sort reads the clock before each merge of at
 * least {@value #CLOCK_RUN} indices (about n / {@value #CLOCK_RUN} reads, each after at most
 * O({@value #CLOCK_RUN} log {@value #CLOCK_RUN}) work, or one top-level merge of O(n)), and past
 * the deadline throws {@link TimeUp}: half an order is no order to place by.
 */
final class Orders {
    /** Merges of at least this many indices read the clock first. */
    static final int CLOCK_RUN = 4096;

    /** Thrown when the deadline passes while an order is computed. */
    static final class TimeUp extends RuntimeException {
        TimeUp() {
            super("the time limit passed while sorting", null, false, false);
        }
    }

    /** An order of a problem's buffers, computed by a deadline ({@link TimeUp} past it). */
    @FunctionalInterface
    interface Order {
        int[] of(Problem p, long deadline);
    }

    private Orders() { }

    /**
     * {@code order.of(p, deadline)}, or the index order when the deadline passes while sorting:
     * {@link GreedyPlacer#place(Problem, int[], GreedyPlacer.Fit, long)} then stacks every buffer
     * in that order (valid, and labelled as cut).
     */
    static int[] orIndexOrder(Order order, Problem p, long deadline) {
        try {
            return order.of(p, deadline);
        } catch (TimeUp e) {
            int[] idx = new int[p.size()];
            for (int i = 0; i < idx.length; i++) idx[i] = i;
            return idx;
        }
    }

    /** Indices sorted by the keys in turn (ascending), then by index; no deadline. */
    static int[] sortedByKeys(int n, long[]... keys) {
        return sortedByKeys(GreedyPlacer.NO_DEADLINE, n, keys);
    }

    /** As {@link #sortedByKeys(int, long[]...)}; throws {@link TimeUp} once {@code deadline} has passed. */
    static int[] sortedByKeys(long deadline, int n, long[]... keys) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) idx[i] = i;
        mergeSort(idx, new int[n], 0, n, keys, deadline);
        return idx;
    }

    private static void mergeSort(int[] a, int[] tmp, int from, int to, long[][] keys, long deadline) {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && less(x, a[j], keys)) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, keys, deadline);
        mergeSort(a, tmp, mid, to, keys, deadline);
        if (to - from >= CLOCK_RUN && GreedyPlacer.passed(deadline)) throw new TimeUp();
        if (!less(a[mid], a[mid - 1], keys)) return;
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from, j = mid, k = from;
        while (i < mid && j < to) a[k++] = less(tmp[j], tmp[i], keys) ? tmp[j++] : tmp[i++];
        while (i < mid) a[k++] = tmp[i++];
        while (j < to) a[k++] = tmp[j++];
    }

    private static boolean less(int x, int y, long[][] keys) {
        for (long[] k : keys) {
            if (k[x] != k[y]) return k[x] < k[y];
        }
        return x < y;
    }

    /** Slots of a key array filled between clock reads. */
    private static final int KEY_CLOCK_EVERY = 1 << 16;

    /**
     * {@code f} of every buffer; over more than {@value #KEY_CLOCK_EVERY} buffers the clock is read
     * before every {@value #KEY_CLOCK_EVERY} slots (in a cold JVM the three keys of 620,000
     * buffers took half a second before the sort's first clock read: docs/scale.md "Time limits").
     * Fewer are filled whatever the clock, as the sort orders fewer than {@value #CLOCK_RUN}.
     *
     * @throws TimeUp once {@code deadline} has passed
     */
    private static long[] key(Problem p, java.util.function.IntToLongFunction f, long deadline) {
        long[] k = new long[p.size()];
        boolean timed = k.length > KEY_CLOCK_EVERY;
        for (int from = 0; from < k.length; from += KEY_CLOCK_EVERY) {
            if (timed && GreedyPlacer.passed(deadline)) throw new TimeUp();
            int to = Math.min(k.length, from + KEY_CLOCK_EVERY);
            for (int i = from; i < to; i++) k[i] = f.applyAsLong(i);
        }
        return k;
    }

    /** {@link #bySizeDesc(Problem, long)} without a deadline. */
    static int[] bySizeDesc(Problem p) {
        return bySizeDesc(p, GreedyPlacer.NO_DEADLINE);
    }

    /** Largest first; among equal sizes the longer-lived first, then the earlier. */
    static int[] bySizeDesc(Problem p, long deadline) {
        return sortedByKeys(deadline, p.size(), key(p, i -> -p.alignedSize(i), deadline), key(p, i -> -(p.upper(i) - p.lower(i)), deadline), key(p, p::lower, deadline));
    }

    /** Largest first; among equal sizes the earlier first. */
    static int[] bySizeThenStart(Problem p, long deadline) {
        return sortedByKeys(deadline, p.size(), key(p, i -> -p.alignedSize(i), deadline), key(p, p::lower, deadline));
    }

    /** Largest first; among equal sizes the one that ends last first. */
    static int[] bySizeThenEndDesc(Problem p, long deadline) {
        return sortedByKeys(deadline, p.size(), key(p, i -> -p.alignedSize(i), deadline), key(p, i -> -p.upper(i), deadline));
    }

    /** Largest size x duration first (the product as a double, so it cannot overflow). */
    static int[] byAreaDesc(Problem p, long deadline) {
        return sortedByKeys(deadline, p.size(), key(p, i -> sortable(-(double) p.alignedSize(i) * (p.upper(i) - p.lower(i))), deadline),
                key(p, i -> -p.alignedSize(i), deadline));
    }

    /** Longest-lived first, then largest. */
    static int[] byDurationDesc(Problem p, long deadline) {
        return sortedByKeys(deadline, p.size(), key(p, i -> -(p.upper(i) - p.lower(i)), deadline), key(p, i -> -p.alignedSize(i), deadline));
    }

    /** A long that orders as the double does (IEEE 754 bits, negatives flipped). */
    private static long sortable(double d) {
        long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /**
     * Greedy by breadth (Pisarchyk and Lee, 2020): visit the instants from the most bytes live to
     * the least, placing the unplaced buffers live there from largest to smallest. A buffer is
     * first met at the widest instant in its interval, so that is the order computed directly:
     * widest instant in its interval first (ties: the earlier instant), then size.
     */
    static int[] byBreadth(Problem p) {
        return byBreadth(p, GreedyPlacer.NO_DEADLINE);
    }

    /** As {@link #byBreadth(Problem)}; the clock is also read after the live-bytes curve and after the widest instants. */
    static int[] byBreadth(Problem p, long deadline) {
        LiveBytes live = p.liveBytes(deadline);
        if (GreedyPlacer.passed(deadline)) throw new TimeUp();
        long[] curve = new long[live.points()];
        for (int k = 0; k < curve.length; k++) curve[k] = live.bytesAt(k);
        RangeMax rmq = new RangeMax(curve);
        int n = p.size();
        long[] width = new long[n];
        int[] at = new int[n];
        for (int i = 0; i < n; i++) {
            int a = live.indexAtOrBefore(p.lower(i));
            int b = live.indexAtOrBefore(p.upper(i) - 1);
            int m = rmq.argMax(a, b + 1);
            width[i] = live.bytesAt(m);
            at[i] = m;
        }
        long[] negWidth = new long[n];
        long[] instant = new long[n];
        for (int i = 0; i < n; i++) {
            negWidth[i] = -width[i];
            instant[i] = at[i];
        }
        if (GreedyPlacer.passed(deadline)) throw new TimeUp();
        return sortedByKeys(deadline, n, negWidth, instant, key(p, i -> -p.alignedSize(i), deadline));
    }
}
