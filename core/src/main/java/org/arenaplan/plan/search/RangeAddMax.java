package org.arenaplan.plan.search;

/**
 * An array of longs that takes "add d to every value in [from, to)" and "the largest value in
 * [from, to)", each in O(log n): a segment tree whose nodes keep the largest value below them
 * and the amount added to their whole range (range updates without pushing them down).
 */
final class RangeAddMax {
    private final int n;
    /** The largest value under the node, counting its own {@link #added} but not its ancestors'. */
    private final long[] max;
    /** Added to every value under the node. */
    private final long[] added;

    /** @param values the initial values; read, not kept */
    RangeAddMax(long[] values) {
        n = Math.max(1, values.length);
        max = new long[4 * n];
        added = new long[4 * n];
        build(1, 0, n, values);
    }

    private void build(int node, int a, int b, long[] values) {
        if (b - a == 1) {
            max[node] = a < values.length ? values[a] : Long.MIN_VALUE;
            return;
        }
        int m = (a + b) >>> 1;
        build(2 * node, a, m, values);
        build(2 * node + 1, m, b, values);
        max[node] = Math.max(max[2 * node], max[2 * node + 1]);
    }

    /** Adds {@code delta} to every value in {@code [from, to)}; nothing when the range is empty. */
    void add(int from, int to, long delta) {
        if (from < to) add(1, 0, n, from, to, delta);
    }

    private void add(int node, int a, int b, int from, int to, long delta) {
        if (from <= a && b <= to) {
            added[node] += delta;
            max[node] += delta;
            return;
        }
        int m = (a + b) >>> 1;
        if (from < m) add(2 * node, a, m, from, to, delta);
        if (to > m) add(2 * node + 1, m, b, from, to, delta);
        max[node] = added[node] + Math.max(max[2 * node], max[2 * node + 1]);
    }

    /** The largest value in {@code [from, to)}; {@link Long#MIN_VALUE} when the range is empty. */
    long max(int from, int to) {
        return from < to ? max(1, 0, n, from, to) : Long.MIN_VALUE;
    }

    private long max(int node, int a, int b, int from, int to) {
        if (from <= a && b <= to) return max[node];
        int m = (a + b) >>> 1;
        long best = Long.MIN_VALUE;
        if (from < m) best = max(2 * node, a, m, from, to);
        if (to > m) best = Math.max(best, max(2 * node + 1, m, b, from, to));
        return best + added[node];
    }
}
