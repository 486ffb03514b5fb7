package org.arenaplan.plan;

/**
 * The largest of a fixed array of longs over any index range, in O(1) per query after
 * O(n log n) time and memory: a sparse table (Bender and Farach-Colton, "The LCA problem
 * revisited", 2000), {@code table[k][i]} = the index of the largest of {@code values[i .. i + 2^k)},
 * ties to the earliest.
 */
final class RangeMax {
    private final long[] values;
    private final int[][] table;

    /** @param values read, not copied: the caller does not change them afterwards */
    RangeMax(long[] values) {
        this.values = values;
        int n = values.length;
        int levels = 1;
        while ((1 << levels) <= n) levels++;
        table = new int[levels][];
        table[0] = new int[n];
        for (int i = 0; i < n; i++) table[0][i] = i;
        for (int k = 1; k < levels; k++) {
            int len = Math.max(0, n - (1 << k) + 1);
            table[k] = new int[len];
            for (int i = 0; i < len; i++) table[k][i] = better(table[k - 1][i], table[k - 1][i + (1 << (k - 1))]);
        }
    }

    private int better(int a, int b) {
        return values[b] > values[a] ? b : a;   // ties keep the earlier index
    }

    /** The index of the largest value in {@code [a, b)}, the earliest of equals; {@code a < b}. */
    int argMax(int a, int b) {
        int k = 31 - Integer.numberOfLeadingZeros(b - a);
        return better(table[k][a], table[k][b - (1 << k)]);
    }

    /** The largest value in {@code [a, b)}, or {@code empty} when the range is empty. */
    long max(int a, int b, long empty) {
        return b <= a ? empty : values[argMax(a, b)];
    }
}
