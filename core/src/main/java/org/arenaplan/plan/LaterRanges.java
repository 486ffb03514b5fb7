package org.arenaplan.plan;

/**
 * Byte ranges placed before a sweep over time reaches them, and the offset of a swept buffer in
 * the sweep's free list clear of those it meets: {@link SweepPlacer}'s light buffers against its
 * heavy buffers, and {@link PeakSweep}'s against its pinned buffers ({@link SecondStack}). Each range has a
 * key, the sweep time at which the sweep takes it into its free list (forward: its start; a
 * backward sweep: minus its end). A buffer swept at time t and live until e (in the same time)
 * meets exactly the ranges keyed in [t, e) among those not yet taken; the caller gives that window
 * as an index range ({@link #countBelow}), which may hold ranges already taken: a free gap cannot
 * meet them, so they never change an offset.
 *
 * <p>The offset: in the free list's gaps, the smallest that holds the buffer first
 * ({@link GreedyPlacer.Fit#BEST}, ties to the lowest; {@link GreedyPlacer.Fit#FIRST}: the lowest
 * of the {@value SweepPlacer#LOW_GAPS} lowest gaps first), the lowest offset in the gap that
 * meets no range of the window; at most {@value SweepPlacer#CHECKS} checks, then above the top
 * of the free list (at most 8 more checks, then above every range of the window). The constants
 * are {@link SweepPlacer}'s.
 *
 * <p>Cost: O(k log k) to build over k ranges ({@link MergeSortTree}, {@link RangeMax}); per
 * buffer O(1) for the window's bounds and at most {@value SweepPlacer#CHECKS} + 8 checks, each
 * O(w) for a window of w &lt;= {@value SweepPlacer#DIRECT} ranges, else O(log^2 k) in the merge
 * sort tree; a check in a gap stops at the first range reaching past the gap's last fitting
 * offset (the gap fails whichever ends highest).
 */
final class LaterRanges {
    private final long[] key;       // ascending
    private final long[] from;      // bytes [from, to), by key
    private final long[] to;
    private final RangeMax topOf;    // max to, and max -from, over index ranges
    private final RangeMax negBottomOf;
    private final MergeSortTree tree;
    private int w0;                 // the current window [w0, w1)
    private int w1;
    private int checks;
    private long windowTop;
    private long windowBottom;

    /**
     * @param key  the sweep time of each range, ascending; read, not copied
     * @param from range starts (bytes), by key; read, not copied
     * @param to   range ends (bytes), by key, each above its start; read, not copied
     */
    LaterRanges(long[] key, long[] from, long[] to) {
        this.key = key;
        this.from = from;
        this.to = to;
        tree = new MergeSortTree(from, to);
        topOf = new RangeMax(to);
        long[] negFrom = new long[from.length];
        for (int k = 0; k < from.length; k++) negFrom[k] = -from[k];
        negBottomOf = new RangeMax(negFrom);
    }

    /** How many ranges have a key below {@code v}. O(log k). */
    int countBelow(long v) {
        return Problem.countBelow(key, v);
    }

    /**
     * The offset of a buffer of {@code size} bytes (above 0) that meets the ranges
     * {@code [a, b)} of the key order and none taken into {@code free} after it: see the class
     * comment.
     */
    long place(FreeGaps free, int a, int b, long size, GreedyPlacer.Fit fit) {
        w0 = a;
        w1 = b;
        windowTop = a < b ? topOf.max(a, b, 0) : 0;
        windowBottom = a < b ? -negBottomOf.max(a, b, 0) : 0;
        if (b - a > SweepPlacer.DIRECT) tree.window(a, b);
        checks = 0;
        long y = -1;
        if (fit == GreedyPlacer.Fit.FIRST) y = firstPassing(free.lowestHolding(size, SweepPlacer.LOW_GAPS), size);
        if (y < 0) y = firstPassing(free.smallestHolding(size), size);
        if (y >= 0) return y;
        y = free.top();
        for (int k = 0; k < 8; k++) {
            long blocked = blockEnd(y, y + size, Long.MAX_VALUE);
            if (blocked < 0) return y;
            y = blocked;
        }
        return Math.max(free.top(), windowTop);
    }

    /** The lowest offset in the first of {@code gaps} that passes the checks, or -1 when none does within the checks left. */
    private long firstPassing(FreeGaps.Walk gaps, long size) {
        while (checks < SweepPlacer.CHECKS && gaps.next()) {
            for (long y = gaps.start; y + size <= gaps.end && checks < SweepPlacer.CHECKS; checks++) {
                long blocked = blockEnd(y, y + size, gaps.end - size);   // past it the gap fails
                if (blocked < 0) return y;
                y = blocked;
            }
        }
        return -1;
    }

    /** -1 if no range of the window meets [lo, hi), else the end of one that does: the highest, or the first found above {@code enough}. */
    private long blockEnd(long lo, long hi, long enough) {
        if (w0 >= w1 || lo >= windowTop || hi <= windowBottom) return -1;
        if (w1 - w0 > SweepPlacer.DIRECT) return tree.blockEnd(lo, hi, enough);
        long end = -1;
        for (int h = w0; h < w1; h++) {
            if (from[h] < hi && lo < to[h] && to[h] > end) {
                end = to[h];
                if (end > enough) return end;
            }
        }
        return end;
    }
}
