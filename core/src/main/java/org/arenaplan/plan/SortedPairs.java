package org.arenaplan.plan;

import java.util.Arrays;

/**
 * A sorted list of distinct pairs of longs, ordered by the first then the second, kept in
 * blocks of at most {@value #BLOCK} pairs (a B+ tree of height two, as Python's
 * sortedcontainers keeps its lists): a search is a binary search over the blocks' first pairs,
 * then one inside a block; an insert or remove shifts at most {@value #BLOCK} pairs of one block
 * (splitting a full block in two, dropping an empty one) and shifts the block table. Cost:
 * O(log n + B + n / B) per change for n pairs in blocks of B, in contiguous primitive arrays;
 * walking in order is O(1) per step.
 *
 * <p>A position is a cursor {@code block << 32 | index}; {@link #NONE} past either end. Cursors
 * are valid until the next change, except {@link #setSecond} and {@link #setFirst}, which keep
 * the order and so every cursor.
 */
final class SortedPairs {
    /** No position. */
    static final long NONE = -1;
    /** Pairs per block at most; a full block splits in two halves. */
    static final int BLOCK = 64;

    private long[][] first = {new long[BLOCK]};
    private long[][] second = {new long[BLOCK]};
    private int[] sizes = {0};
    private long[] headFirst = new long[1];      // each block's first pair, contiguous, for the
    private long[] headSecond = new long[1];     // binary search over blocks (no block array read)
    private int blocks = 1;
    private int count;

    /** Pairs held. */
    int size() {
        return count;
    }

    long first(long cursor) {
        return first[block(cursor)][index(cursor)];
    }

    long second(long cursor) {
        return second[block(cursor)][index(cursor)];
    }

    /** Replaces the first of the pair at {@code cursor}; the caller keeps the order (no pair between the old and new value). */
    void setFirst(long cursor, long value) {
        first[block(cursor)][index(cursor)] = value;
        if (index(cursor) == 0) headFirst[block(cursor)] = value;
    }

    /** Replaces the second of the pair at {@code cursor}; the caller keeps the order. */
    void setSecond(long cursor, long value) {
        second[block(cursor)][index(cursor)] = value;
        if (index(cursor) == 0) headSecond[block(cursor)] = value;
    }

    /** The position after {@code cursor}, or {@link #NONE}. */
    long next(long cursor) {
        int b = block(cursor), i = index(cursor) + 1;
        if (i < sizes[b]) return cursor(b, i);
        return b + 1 < blocks ? cursor(b + 1, 0) : NONE;
    }

    /** The first pair, or {@link #NONE} when empty. */
    long firstPosition() {
        return count == 0 ? NONE : cursor(0, 0);
    }

    /** The last pair, or {@link #NONE} when empty. */
    long lastPosition() {
        return count == 0 ? NONE : cursor(blocks - 1, sizes[blocks - 1] - 1);
    }

    /** The last pair at or before {@code (a, b)}, or {@link #NONE}. */
    long floor(long a, long b) {
        int k = blockFor(a, b);
        int i = upperBound(k, a, b) - 1;          // last index with pair <= (a, b)
        if (i >= 0) return cursor(k, i);
        return k > 0 ? cursor(k - 1, sizes[k - 1] - 1) : NONE;
    }

    /** The first pair at or after {@code (a, b)}, or {@link #NONE}. */
    long ceiling(long a, long b) {
        int k = blockFor(a, b);
        int i = lowerBound(k, a, b);
        if (i < sizes[k]) return cursor(k, i);
        return k + 1 < blocks ? cursor(k + 1, 0) : NONE;
    }

    /** Adds {@code (a, b)}, which must not be held. */
    void insert(long a, long b) {
        int k = blockFor(a, b);
        int i = lowerBound(k, a, b);
        int n = sizes[k];
        if (n == BLOCK) {
            split(k);
            if (i > BLOCK / 2) {
                k++;
                i -= BLOCK / 2;
            }
            n = sizes[k];
        }
        System.arraycopy(first[k], i, first[k], i + 1, n - i);
        System.arraycopy(second[k], i, second[k], i + 1, n - i);
        first[k][i] = a;
        second[k][i] = b;
        sizes[k] = n + 1;
        count++;
        if (i == 0) setHead(k);
    }

    /**
     * Removes {@code (a, b)}.
     *
     * @throws IllegalStateException when it is not held (a bug of the caller)
     */
    void remove(long a, long b) {
        int k = blockFor(a, b);
        int i = lowerBound(k, a, b);
        if (i >= sizes[k] || first[k][i] != a || second[k][i] != b)
            throw new IllegalStateException("(" + a + ", " + b + ") is not held");
        int n = sizes[k];
        System.arraycopy(first[k], i + 1, first[k], i, n - i - 1);
        System.arraycopy(second[k], i + 1, second[k], i, n - i - 1);
        sizes[k] = n - 1;
        count--;
        if (sizes[k] == 0 && blocks > 1) drop(k);
        else if (i == 0 && sizes[k] > 0) setHead(k);
    }

    /** The block where {@code (a, b)} is or would go: the last whose first pair is at or before it, else the first. */
    private int blockFor(long a, long b) {
        int k = 0;                               // the answer is in [k, k + len)
        for (int len = blocks; len > 1; ) {      // no data-dependent exit: the JIT may use a conditional move
            int half = len >>> 1;
            if (!less(a, b, headFirst[k + half], headSecond[k + half])) k += half;
            len -= half;
        }
        return k;
    }

    /** The first index in block k whose pair is not before {@code (a, b)}. */
    private int lowerBound(int k, long a, long b) {
        return search(k, a, b, false);
    }

    /** The first index in block k whose pair is after {@code (a, b)}. */
    private int upperBound(int k, long a, long b) {
        return search(k, a, b, true);
    }

    /** The first index in block k whose pair is after {@code (a, b)}, or ({@code afterOnly} false) at it. */
    private int search(int k, long a, long b, boolean afterOnly) {
        long[] f = first[k], s = second[k];
        int n = sizes[k];
        if (n == 0) return 0;
        int lo = 0;                              // the answer is in [lo, lo + len]
        for (int len = n; len > 1; ) {
            int half = len >>> 1;
            if (before(f[lo + half - 1], s[lo + half - 1], a, b, afterOnly)) lo += half;
            len -= half;
        }
        return before(f[lo], s[lo], a, b, afterOnly) ? lo + 1 : lo;
    }

    /** Whether pair (f, s) comes before (a, b), or ({@code atToo}) is at it. */
    private static boolean before(long f, long s, long a, long b, boolean atToo) {
        return atToo ? !less(a, b, f, s) : less(f, s, a, b);
    }

    private static boolean less(long a1, long b1, long a2, long b2) {
        return a1 < a2 || (a1 == a2 && b1 < b2);
    }

    /** Splits full block k into two halves, k and k + 1. */
    private void split(int k) {
        if (blocks == first.length) {
            first = Arrays.copyOf(first, 2 * blocks);
            second = Arrays.copyOf(second, 2 * blocks);
            sizes = Arrays.copyOf(sizes, 2 * blocks);
            headFirst = Arrays.copyOf(headFirst, 2 * blocks);
            headSecond = Arrays.copyOf(headSecond, 2 * blocks);
        }
        System.arraycopy(first, k + 1, first, k + 2, blocks - k - 1);
        System.arraycopy(second, k + 1, second, k + 2, blocks - k - 1);
        System.arraycopy(sizes, k + 1, sizes, k + 2, blocks - k - 1);
        System.arraycopy(headFirst, k + 1, headFirst, k + 2, blocks - k - 1);
        System.arraycopy(headSecond, k + 1, headSecond, k + 2, blocks - k - 1);
        int half = BLOCK / 2;
        first[k + 1] = new long[BLOCK];
        second[k + 1] = new long[BLOCK];
        System.arraycopy(first[k], half, first[k + 1], 0, BLOCK - half);
        System.arraycopy(second[k], half, second[k + 1], 0, BLOCK - half);
        sizes[k + 1] = BLOCK - half;
        sizes[k] = half;
        blocks++;
        setHead(k + 1);
    }

    /** Removes empty block k. */
    private void drop(int k) {
        System.arraycopy(first, k + 1, first, k, blocks - k - 1);
        System.arraycopy(second, k + 1, second, k, blocks - k - 1);
        System.arraycopy(sizes, k + 1, sizes, k, blocks - k - 1);
        System.arraycopy(headFirst, k + 1, headFirst, k, blocks - k - 1);
        System.arraycopy(headSecond, k + 1, headSecond, k, blocks - k - 1);
        blocks--;
        first[blocks] = null;
        second[blocks] = null;
    }

    private void setHead(int k) {
        headFirst[k] = first[k][0];
        headSecond[k] = second[k][0];
    }

    private static long cursor(int block, int index) {
        return (long) block << 32 | index;
    }

    private static int block(long cursor) {
        return (int) (cursor >>> 32);
    }

    private static int index(long cursor) {
        return (int) cursor;
    }
}
