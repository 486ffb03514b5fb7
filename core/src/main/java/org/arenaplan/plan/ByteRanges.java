package org.arenaplan.plan;

import java.util.Arrays;

/**
 * A set of disjoint byte ranges {@code [start, end)}, kept sorted and merged (ranges that
 * overlap or touch become one), in two primitive arrays. Insert costs O(log r + r) for r ranges
 * (a binary search and one array shift); {@link #firstEndingAfter} is a galloping search.
 */
final class ByteRanges {
    long[] start = new long[2];
    long[] end = new long[2];
    int size;

    /** Adds {@code [from, to)}, merging what it overlaps or touches. */
    void insert(long from, long to) {
        if (to <= from) return;
        int i = firstEndingAtOrAfter(from);               // first range that may merge: end >= from
        int j = i;
        while (j < size && start[j] <= to) {             // ranges that overlap or touch [from, to)
            from = Math.min(from, start[j]);
            to = Math.max(to, end[j]);
            j++;
        }
        int removed = j - i;
        if (removed == 0) {
            if (size == start.length) grow();
            System.arraycopy(start, i, start, i + 1, size - i);
            System.arraycopy(end, i, end, i + 1, size - i);
            size++;
        } else if (removed > 1) {
            System.arraycopy(start, j, start, i + 1, size - j);
            System.arraycopy(end, j, end, i + 1, size - j);
            size -= removed - 1;
        }
        start[i] = from;
        end[i] = to;
    }

    private int firstEndingAtOrAfter(long x) {
        int lo = 0, hi = size;
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (end[m] < x) lo = m + 1;
            else hi = m;
        }
        return lo;
    }

    /** The first index at or after {@code from} whose range ends after {@code x}; {@code size} if none. */
    int firstEndingAfter(int from, long x) {
        if (from >= size || end[from] > x) return from;
        int lo = from, hi, step = 1;                      // invariant: end[lo] <= x
        while (true) {
            hi = lo + step;
            if (hi >= size || end[hi] > x) break;
            lo = hi;
            step <<= 1;
        }
        if (hi > size) hi = size;                         // answer in (lo, hi]; index size stands for "none"
        while (lo + 1 < hi) {
            int m = (lo + hi) >>> 1;
            if (end[m] <= x) lo = m;
            else hi = m;
        }
        return hi;
    }

    private void grow() {
        start = Arrays.copyOf(start, size * 2);
        end = Arrays.copyOf(end, size * 2);
    }
}
