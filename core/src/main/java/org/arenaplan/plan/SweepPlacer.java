package org.arenaplan.plan;

/**
 * Places the heavy buffers exactly and sweeps the rest into the gaps, so that placement does not
 * visit every live neighbour of every buffer. On wide traces most buffers are small: on
 * {@code WideTraces.generate(42, 62_000, 9_000)} the largest 30 % of the buffers hold 99 % of the
 * size x lifetime area, yet exact placement spends 80 % of its time on the other 70 %, each
 * walking the hundreds of free gaps the large ones leave (docs/scale.md).
 *
 * <p>Steps:
 * <ol>
 *   <li><b>Heavy buffers</b>: the shortest prefix of the order that holds at least
 *       {@code heavyShare} of the total area (size x lifetime). They are placed as
 *       {@link GreedyPlacer} places any prefix: exactly, by the fit rule, over each other only.</li>
 *   <li><b>Sweep</b> over the start times, ascending, with a {@link FreeGaps} free list of the
 *       bytes used at the current instant. At time t: free the buffers that ended (upper &lt;= t);
 *       take the heavy buffers that start at t at their offsets; then place each light buffer
 *       that starts at t, in the order's rank, into a gap of the free list: the smallest that
 *       holds it ({@link GreedyPlacer.Fit#BEST}, ties to the lowest) or the lowest among the
 *       {@value #LOW_GAPS} lowest gaps ({@link GreedyPlacer.Fit#FIRST}; then as best fit), at the
 *       gap's lowest offset that no heavy buffer starting later in its lifetime occupies (the
 *       free list does not see those yet). Light buffers that start later see this one in the
 *       free list, so they need no check.</li>
 *   <li>A light buffer whose candidates fail {@value #CHECKS} checks goes to the lowest offset of
 *       the last gap (above everything used now) that the heavy buffers allow, or above all the
 *       heavy buffers starting in its lifetime.</li>
 * </ol>
 *
 * <p>{@link GreedyPlacer#place} runs {@link #placeSmaller} (so do {@code best}'s candidates but
 * {@code greedy-size} and {@code greedy-breadth}, which run {@link SqueakySweep}, and it only
 * where the heavy half is many buffers): where the heavy half is many buffers (sizes alike), a
 * sweep with no heavy buffer first (the steps above with an empty prefix: no checks), then these
 * steps with the heavy half, the smaller arena kept.
 *
 * <p>Valid by construction: two buffers live at the same instant are both in the free list at the
 * later one's start, or one is heavy and starts later, which the check covers (the heavy buffers
 * are valid among themselves). Cost: O(n log n) sorts (the start and end orders sorted once per
 * problem and shared, the starts at one instant re-sorted by rank); the heavy prefix as
 * {@link GreedyPlacer}; per light buffer a take and a free in a free list of g gaps (a few
 * O(log g) searches and an O(64 + g / 64) array shift, see {@link FreeGaps}), O(1) per gap
 * visited, and at most {@value #CHECKS} checks, each O(h) for h &lt;= {@value #DIRECT} heavy
 * buffers starting in its lifetime, else O(log^2 h) in a {@link MergeSortTree} over the
 * heavy buffers by start (first fit also walks at most {@value #LOW_GAPS} gaps). A check in a
 * gap stops at the first heavy buffer that reaches past the gap's last fitting offset: the gap
 * fails whichever one ends highest, so the offsets are those of asking every one, and the
 * failing checks, the most frequent on wide traces, are the cheapest. Nothing
 * visits the live neighbours.
 *
 * <p>Deadline: the heavy prefix and the sorts read the clock as {@link GreedyPlacer} and
 * {@link Orders} do, the sweep every {@value GreedyPlacer#CLOCK_EVERY} light buffers; past it the
 * light buffers not yet placed are stacked above everything (valid, not tight) and the result
 * says it was cut short. An {@link ArenaBound} is read at the same times: a run whose buffers
 * reach above it stops ({@link GreedyPlacer.Result#OUTRUN}).
 */
final class SweepPlacer {
    /** The share of the area placed exactly by default: the heavy half. */
    static final double HEAVY_HALF = 0.5;
    /** Checks of candidate offsets per light buffer before it goes to the top. */
    static final int CHECKS = 64;
    /** First fit looks for its gap among this many of the lowest gaps, then as best fit does. */
    static final int LOW_GAPS = 64;
    /** Up to this many heavy buffers starting in a lifetime are compared one by one. */
    static final int DIRECT = 64;

    private SweepPlacer() { }

    /**
     * @param heavyShare the share of the total size x lifetime area placed exactly, in [0, 1]; 1
     *                   places every buffer as {@link GreedyPlacer} does
     * @param deadline   a {@link System#nanoTime()} value
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, double heavyShare, long deadline) {
        return place(p, order, fit, heavyShare, deadline, ArenaBound.NONE);
    }

    /**
     * @param bound stops the run, returning {@link GreedyPlacer.Result#OUTRUN}, once the buffers
     *              placed reach above it (read with the clock)
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, double heavyShare, long deadline, ArenaBound bound) {
        return placeHeavy(p, order, fit, heavyPrefix(p, order, heavyShare), deadline, bound);
    }

    /**
     * What every heuristic runs where it sweeps. Where the heavy half of the area
     * ({@link #HEAVY_HALF}) is a few buffers ({@link #heavyIsFew}), as on the training-step traces
     * the sweep is tuned on (about 2 %), that sweep alone. Else the smaller arena of two: first a
     * sweep with no heavy buffer (every buffer into the free list, so no check at all; on buffers
     * of one size it reaches the lower bound, since a buffer raises the top only when no byte
     * below it is free), then the heavy-half sweep, stopped once above the first, and not run
     * when the first reached the lower bound or the heavy buffers' exact placement is past the
     * budget of exact placement ({@link #heavyAffordable}). Ties to the heavy-half sweep. Where
     * sizes are alike the heavy half alone was both slow and loose (40,000 buffers of 256 B:
     * 3.7 x the lower bound; docs/scale.md). Cost: one or two sweeps, the first O(n log n).
     *
     * @param bound shared with other runs ({@link BestPlanner}): every sweep stops once above
     *              it, and the first one's arena is offered to it
     */
    static GreedyPlacer.Result placeSmaller(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        int heavy = heavyPrefix(p, order, HEAVY_HALF);
        boolean affordable = heavyAffordable(p, order, heavy);
        if (heavyIsFew(p, heavy) && affordable) return placeHeavy(p, order, fit, heavy, deadline, bound);
        GreedyPlacer.Result none = placeHeavy(p, order, fit, 0, deadline, bound);
        if (none.outrun()) return affordable ? placeHeavy(p, order, fit, heavy, deadline, bound) : none;
        if (!none.complete()) return none;
        long arena = Placement.arenaOf(p, none.offsets());
        if (arena <= p.lowerBound() || !affordable) return none;           // optimal, or the heavy half too costly
        ArenaBound beat = bound == ArenaBound.NONE ? new ArenaBound() : bound;
        beat.offer(arena);
        GreedyPlacer.Result half = placeHeavy(p, order, fit, heavy, deadline, beat);
        if (half.outrun() || !half.complete()) return GreedyPlacer.keptOver(none, half);
        return Placement.arenaOf(p, half.offsets()) <= arena ? half : GreedyPlacer.keptOver(none, half);
    }

    /**
     * Whether the heavy half is a few buffers, at most an eighth of them: then its sweep alone is
     * kept. On {@code WideTraces} it is about 2 % (1,249 of 62,000 in size order); where sizes are
     * alike it is a quarter or more (29 % for 40,000 buffers of 256 B), and the sweep of every
     * buffer is tried first.
     */
    static boolean heavyIsFew(Problem p, int heavy) {
        return heavy <= p.size() / 8;
    }

    /**
     * As {@link #place(Problem, int[], GreedyPlacer.Fit, double, long, ArenaBound)}, the heavy
     * buffers given as a count: {@code order[0 .. heavyCount)} placed exactly, the rest swept.
     */
    static GreedyPlacer.Result placeHeavy(Problem p, int[] order, GreedyPlacer.Fit fit, int heavyCount, long deadline, ArenaBound bound) {
        int n = p.size();
        GreedyPlacer.Result heavy = GreedyPlacer.placePrefix(p, order, heavyCount, fit, deadline, bound);
        if (heavy.outrun() || heavyCount == n) return heavy;
        long[] offset = heavy.offsets();
        boolean[] isHeavy = new boolean[n];
        for (int k = 0; k < heavyCount; k++) isHeavy[order[k]] = true;
        if (!heavy.complete()) return GreedyPlacer.stackUnplaced(p, order, n, offset, isHeavy, true);
        try {
            return new Sweep(p, order, heavyCount, fit, offset, isHeavy, deadline).run(deadline, bound);
        } catch (Orders.TimeUp e) {         // past the deadline while sorting: no light buffer placed yet
            return GreedyPlacer.stackUnplaced(p, order, n, offset, isHeavy, true);
        }
    }

    /**
     * Whether placing {@code order[0 .. heavy)} exactly costs no more than the exact placement
     * of a whole problem may ({@link GreedyPlacer#EXACT_PAIRS} overlapping pairs among them).
     * Where sizes are alike, the heavy half of the area is a large share of the buffers (on a
     * staircase of 100,000 buffers, live 20,000 instants each, their exact placement took 6 s);
     * the sweep is tuned for a few hundred large ones.
     */
    static boolean heavyAffordable(Problem p, int[] order, int heavy) {
        return p.overlappingPairs(order, heavy) <= GreedyPlacer.EXACT_PAIRS;
    }

    /** The shortest prefix of {@code order} whose area reaches {@code share} of the total. */
    static int heavyPrefix(Problem p, int[] order, double share) {
        double total = 0;
        for (int i = 0; i < p.size(); i++) total += area(p, i);
        double target = share * total;
        double sum = 0;
        int k = 0;
        while (k < order.length && (sum < target || share >= 1)) sum += area(p, order[k++]);
        return k;
    }

    private static double area(Problem p, int i) {
        return (double) p.alignedSize(i) * (p.upper(i) - p.lower(i));
    }

    /** One sweep's state: the heavy buffers by start, for the checks, and the free list. */
    private static final class Sweep {
        private final Problem p;
        private final int[] order;
        private final int heavyCount;
        private final GreedyPlacer.Fit fit;
        private final long[] offset;
        private final boolean[] isHeavy;
        private final LaterRanges heavy;    // the heavy buffers' bytes, keyed by start
        private final FreeGaps free = new FreeGaps();
        private int h0;                     // heavy buffers starting at or before the current time

        Sweep(Problem p, int[] order, int heavyCount, GreedyPlacer.Fit fit, long[] offset, boolean[] isHeavy, long deadline) {
            this.p = p;
            this.order = order;
            this.heavyCount = heavyCount;
            this.fit = fit;
            this.offset = offset;
            this.isHeavy = isHeavy;
            int[] heavyOrder = java.util.Arrays.copyOf(order, heavyCount);
            long[] lowers = new long[heavyCount];
            for (int k = 0; k < heavyCount; k++) lowers[k] = p.lower(heavyOrder[k]);
            int[] byStart = Orders.sortedByKeys(deadline, heavyCount, lowers);
            long[] heavyLower = new long[heavyCount], heavyFrom = new long[heavyCount], heavyTo = new long[heavyCount];
            for (int k = 0; k < heavyCount; k++) {
                int i = heavyOrder[byStart[k]];
                heavyLower[k] = p.lower(i);
                heavyFrom[k] = offset[i];
                heavyTo[k] = offset[i] + p.alignedSize(i);
            }
            this.heavy = new LaterRanges(heavyLower, heavyFrom, heavyTo);
        }

        GreedyPlacer.Result run(long deadline, ArenaBound bound) {
            int n = p.size();
            int[] starts = startsInRankOrder(deadline);
            int[] ends = p.endOrder(deadline);
            boolean[] placed = isHeavy.clone();   // and the light buffers swept so far
            long top = 0;                   // the arena so far: every heavy buffer and the light ones placed
            for (int k = 0; k < heavyCount; k++) top = Math.max(top, offset[order[k]] + p.alignedSize(order[k]));
            int e = 0;
            int swept = 0;
            for (int s = 0; s < n; ) {
                long t = p.lower(starts[s]);
                while (e < n && p.upper(ends[e]) <= t) {
                    int i = ends[e++];
                    free.free(offset[i], offset[i] + p.alignedSize(i));
                }
                int r = s;
                while (r < n && p.lower(starts[r]) == t) r++;
                for (int k = s; k < r; k++) {
                    int i = starts[k];
                    if (isHeavy[i]) free.take(offset[i], offset[i] + p.alignedSize(i));
                }
                h0 = heavy.countBelow(t + 1);   // t < some upper <= 2^63-1: no overflow
                for (int k = s; k < r; k++) {
                    int i = starts[k];
                    if (isHeavy[i]) continue;
                    if ((++swept & (GreedyPlacer.CLOCK_EVERY - 1)) == 0) {
                        if (bound.exceededBy(top)) return GreedyPlacer.Result.OUTRUN;
                        if (GreedyPlacer.passed(deadline)) return GreedyPlacer.stackUnplaced(p, order, n, offset, placed, true);
                    }
                    long size = p.alignedSize(i);
                    offset[i] = size == 0 ? 0 : place(p.upper(i), size);
                    free.take(offset[i], offset[i] + size);
                    placed[i] = true;
                    top = Math.max(top, offset[i] + size);
                }
                s = r;
            }
            return new GreedyPlacer.Result(offset, true, true);
        }

        /**
         * The buffers by start, those starting together in the order's rank: the problem's shared
         * start order, each run of equal starts re-sorted by rank (ranks are a permutation, so a
         * sorted run of ranks maps back through the order). O(n log r) for runs of r.
         */
        private int[] startsInRankOrder(long deadline) {
            int n = p.size();
            int[] rank = new int[n];
            for (int k = 0; k < n; k++) rank[order[k]] = k;
            int[] starts = p.startOrder(deadline).clone();
            for (int a = 0, b; a < n; a = b) {
                for (b = a + 1; b < n && p.lower(starts[b]) == p.lower(starts[a]); ) b++;
                if (b - a < 2) continue;
                for (int k = a; k < b; k++) starts[k] = rank[starts[k]];
                java.util.Arrays.sort(starts, a, b);
                for (int k = a; k < b; k++) starts[k] = order[starts[k]];
            }
            return starts;
        }

        /**
         * The offset of a light buffer of {@code size} bytes swept now and live until {@code upper}:
         * clear of the heavy buffers starting in its lifetime (those starting by now are in the
         * free list already).
         */
        private long place(long upper, long size) {
            return heavy.place(free, h0, heavy.countBelow(upper), size, fit);
        }
    }
}
