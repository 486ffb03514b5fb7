package org.arenaplan.plan;

import java.util.Arrays;

/**
 * A set of disjoint byte ranges {@code [start, end)}, kept sorted and merged (ranges that
 * overlap or touch become one), interleaved in one primitive array ({@code r[2i]} the start of
 * range i, {@code r[2i + 1]} its end, so a walk reads one cache line for both). Insert costs
 * O(log r + r) for r ranges (a binary search and one array shift); {@link #firstEndingAfter}
 * is a galloping search.
 */
final class ByteRanges {
    long[] r = new long[4];
    int size;

    /** Adds {@code [from, to)}, merging what it overlaps or touches. */
    void insert(long from, long to) {
        if (to <= from) return;
        int i = firstEndingAtOrAfter(from);               // first range that may merge: end >= from
        int j = i;
        while (j < size && r[2 * j] <= to) {              // ranges that overlap or touch [from, to)
            from = Math.min(from, r[2 * j]);
            to = Math.max(to, r[2 * j + 1]);
            j++;
        }
        int removed = j - i;
        if (removed == 0) {
            if (2 * size == r.length) r = Arrays.copyOf(r, 4 * size);
            System.arraycopy(r, 2 * i, r, 2 * i + 2, 2 * (size - i));
            size++;
        } else if (removed > 1) {
            System.arraycopy(r, 2 * j, r, 2 * i + 2, 2 * (size - j));
            size -= removed - 1;
        }
        r[2 * i] = from;
        r[2 * i + 1] = to;
    }

    private int firstEndingAtOrAfter(long x) {
        int lo = 0, hi = size;
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (r[2 * m + 1] < x) lo = m + 1;
            else hi = m;
        }
        return lo;
    }

    /** The first index at or after {@code from} whose range ends after {@code x}; {@code size} if none. */
    int firstEndingAfter(int from, long x) {
        long[] a = r;
        if (from >= size || a[2 * from + 1] > x) return from;
        int lo = from, hi, step = 1;                      // invariant: end(lo) <= x
        while (true) {
            hi = lo + step;
            if (hi >= size || a[2 * hi + 1] > x) break;
            lo = hi;
            step <<= 1;
        }
        if (hi > size) hi = size;                         // answer in (lo, hi]; index size stands for "none"
        while (lo + 1 < hi) {
            int m = (lo + hi) >>> 1;
            if (a[2 * m + 1] <= x) lo = m;
            else hi = m;
        }
        return hi;
    }
}
