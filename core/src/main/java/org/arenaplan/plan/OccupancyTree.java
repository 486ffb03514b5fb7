package org.arenaplan.plan;

import java.util.Arrays;

/**
 * The bytes occupied over a time window, and the best gap in them, without visiting every
 * buffer live in the window.
 *
 * <p>A segment tree over the problem's distinct start points (two half-open intervals overlap
 * exactly when both hold a common start point, so the starts are the only instants that
 * matter: half the leaves of all end points, and less memory). Placing a buffer adds its byte
 * range to {@code cover} of the O(log T) nodes that exactly tile its interval, and to
 * {@code sub} of every node it touches on the way (those and their ancestors; a leaf's sub is its
 * cover, kept once). Both are
 * {@link ByteRanges}: disjoint, merged byte ranges. The bytes occupied somewhere in a window are
 * the {@code sub} sets of the nodes tiling the window plus the {@code cover} sets of their
 * ancestors: O(log T) sets, each sorted by offset.
 *
 * <p>{@link #gap} walks the union of those sets upward from offset 0 as a k-way merge: a binary
 * heap of (start, set) pairs in two primitive arrays holds each set's first range that ends
 * above the walk's cursor, keyed by its start; a range that starts at or
 * below the cursor extends it, and each set skips the ranges buried under the cursor by a
 * galloping search instead of visiting them. A range that starts above the cursor closes a
 * free gap. First fit stops at the first gap that holds the buffer, best fit at the first exact
 * fit (no smaller gap can exist; the walk goes upward, so it is also the lowest). Cost per
 * query: O(log T) to find the sets, plus O(log T + log r) per heap step, one step per time the
 * walk passes from one set's range to another's. Insert: O(log T) set inserts, each O(log r + r)
 * for r ranges in the set (an array shift). Exactly the gaps of neighbour enumeration.
 */
final class OccupancyTree {
    private final long[] points;          // distinct start points, ascending
    private final int leaves;             // one per start point
    private final ByteRanges[] cover;
    private final ByteRanges[] sub;
    // Scratch for one query: the sets to merge, each one's position, and a heap of set numbers.
    private ByteRanges[] sets = new ByteRanges[64];
    private int[] pos = new int[64];
    private int[] heapSet = new int[64];   // a binary min-heap of set numbers, keyed by
    private long[] heapKey = new long[64];  // the start of each one's current range
    private int setCount;

    /** Over every start point of the problem: for placing any of its buffers. */
    OccupancyTree(Problem p) {
        this(p.startPoints());
    }

    /**
     * Over the given start points: for placing buffers whose starts are all among them (two
     * such buffers overlap exactly when both hold one of these points).
     *
     * @param points distinct start points, ascending; read, not copied
     */
    OccupancyTree(long[] points) {
        this.points = points;
        leaves = Math.max(1, points.length);
        cover = new ByteRanges[4 * leaves];
        sub = new ByteRanges[4 * leaves];
    }

    /** The first start point at or after t: buffer [lower, upper) spans points [leafOf(lower), leafOf(upper)). */
    private int leafOf(long t) {
        return Problem.countBelow(points, t);
    }

    /** Marks bytes [from, to) occupied over the time interval [lower, upper). */
    void add(long lower, long upper, long from, long to) {
        if (to <= from) return;
        add(1, 0, leaves, leafOf(lower), leafOf(upper), from, to);
    }

    private void add(int node, int a, int b, int lo, int hi, long from, long to) {
        while (true) {
            if (b - a > 1) {                              // a leaf's sub would equal its cover: kept once
                if (sub[node] == null) sub[node] = new ByteRanges();
                sub[node].insert(from, to);
            }
            if (lo <= a && b <= hi) {
                if (cover[node] == null) cover[node] = new ByteRanges();
                cover[node].insert(from, to);
                return;
            }
            int mid = (a + b) >>> 1;
            if (lo < mid && hi > mid) {
                add(2 * node, a, mid, lo, hi, from, to);
                node = 2 * node + 1;
                a = mid;
            } else if (lo < mid) {
                node = 2 * node;
                b = mid;
            } else {
                node = 2 * node + 1;
                a = mid;
            }
        }
    }

    /**
     * The offset at which a buffer of {@code size} bytes live over [lower, upper) goes: the
     * lowest gap that holds it ({@link GreedyPlacer.Fit#FIRST}) or the smallest, ties to the
     * lowest ({@link GreedyPlacer.Fit#BEST}); else the top of what is occupied there.
     * {@code extra} (may be null) holds more occupied ranges, from conflicts beyond time overlap.
     */
    long gap(long lower, long upper, long size, GreedyPlacer.Fit fit, ByteRanges extra) {
        if (size == 0) return 0;
        setCount = 0;
        collect(1, 0, leaves, leafOf(lower), leafOf(upper));
        if (extra != null && extra.size > 0) push(extra);
        int h = 0;
        for (int s = 0; s < setCount; s++) {
            pos[s] = 0;
            heapSet[h] = s;
            heapKey[h++] = sets[s].r[0];
        }
        for (int k = h / 2 - 1; k >= 0; k--) siftDown(k, h);
        boolean first = fit == GreedyPlacer.Fit.FIRST;
        long cursor = 0;
        long bestOffset = -1;
        long bestGap = Long.MAX_VALUE;
        while (h > 0) {
            long st = heapKey[0];
            if (st > cursor) {
                long g = st - cursor;
                if (g >= size) {
                    if (first || g == size) return cursor;
                    if (g < bestGap) {
                        bestGap = g;
                        bestOffset = cursor;
                    }
                }
            }
            int s = heapSet[0];
            ByteRanges r = sets[s];
            int at = pos[s];
            long e = r.r[2 * at + 1];
            if (e > cursor) cursor = e;
            int next = r.firstEndingAfter(at + 1, cursor);
            if (next >= r.size) {
                h--;
                heapSet[0] = heapSet[h];
                heapKey[0] = heapKey[h];
            } else {
                pos[s] = next;
                heapKey[0] = r.r[2 * next];
            }
            siftDown(0, h);
        }
        return bestOffset >= 0 ? bestOffset : cursor;
    }

    private void collect(int node, int a, int b, int lo, int hi) {
        while (true) {
            if (lo <= a && b <= hi) {
                pushIfAny(b - a > 1 ? sub[node] : cover[node]);
                return;
            }
            pushIfAny(cover[node]);
            int mid = (a + b) >>> 1;
            if (lo < mid && hi > mid) {
                collect(2 * node, a, mid, lo, hi);
                node = 2 * node + 1;
                a = mid;
            } else if (lo < mid) {
                node = 2 * node;
                b = mid;
            } else {
                node = 2 * node + 1;
                a = mid;
            }
        }
    }

    private void pushIfAny(ByteRanges r) {
        if (r != null && r.size > 0) push(r);
    }

    private void push(ByteRanges r) {
        if (setCount == sets.length) {
            sets = Arrays.copyOf(sets, setCount * 2);
            pos = Arrays.copyOf(pos, setCount * 2);
            heapSet = Arrays.copyOf(heapSet, setCount * 2);
            heapKey = Arrays.copyOf(heapKey, setCount * 2);
        }
        sets[setCount++] = r;
    }

    private void siftDown(int i, int h) {
        if (h == 0) return;
        int x = heapSet[i];
        long kx = heapKey[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= h) break;
            long kc = heapKey[c];
            if (c + 1 < h && heapKey[c + 1] < kc) kc = heapKey[++c];
            if (kc >= kx) break;
            heapSet[i] = heapSet[c];
            heapKey[i] = kc;
            i = c;
        }
        heapSet[i] = x;
        heapKey[i] = kx;
    }
}
