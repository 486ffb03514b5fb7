package org.arenaplan.plan;

import java.util.Arrays;

/**
 * Places buffers one at a time, in a given order, each at the best gap among the already placed
 * buffers it conflicts with (TFLite Micro's greedy planner, generalised to any conflict relation).
 *
 * <p>Fit rule: {@link Fit#BEST} takes the smallest gap that holds the buffer, ties to the lowest
 * offset; {@link Fit#FIRST} takes the lowest offset that holds it. A buffer that fits no gap goes
 * on top of its highest conflicting neighbour.
 *
 * <p>Two ways to find the gaps, giving exactly the same offsets:
 * <ul>
 *   <li>narrow problems (at most {@value #WIDE_AVERAGE_OVERLAP} neighbours per buffer on
 *       average): enumerate the placed neighbours through the problem's interval index and sort
 *       their byte ranges: O(n (log n + w log w)) for w neighbours at a time;</li>
 *   <li>wide ones: an {@link OccupancyTree} over time whose nodes hold merged byte ranges, walked
 *       as a k-way merge that skips buried ranges: per buffer O(log T) sets, and a heap step per
 *       passage between them (see its comment), not a visit per neighbour.</li>
 * </ul>
 *
 * <p>Problems past {@link #EXACT_PAIRS} overlapping pairs (thousands of buffers live at once over
 * tens of thousands of buffers) go to {@link SweepPlacer} instead: the same order and fit rule
 * for the buffers holding the heavy half of the area, a sweep over time for the rest.
 *
 * <p>Deadline: the clock is read every {@value #CLOCK_EVERY} buffers; past the deadline the
 * buffers not yet placed are stacked above everything placed (valid, not tight) and the result
 * says it was cut short. An {@link ArenaBound}, read at the same times, stops a run whose
 * placed buffers already reach above it ({@link Result#OUTRUN}).
 */
final class GreedyPlacer {
    enum Fit { BEST, FIRST }

    /**
     * Offsets; whether every buffer was placed by the fit rule (false: cut at the deadline);
     * whether the light buffers were swept ({@link SweepPlacer}) rather than placed exactly; and
     * whether a later step of the same planner was cut at the deadline and thrown away
     * ({@code laterCut}: this complete placement is an earlier step's, so the arena may be above
     * what the planner gives without a limit; {@link #keptOver}). Or {@link #OUTRUN}: stopped
     * once its arena passed the {@link ArenaBound} (no offsets).
     */
    record Result(long[] offsets, boolean complete, boolean swept, boolean laterCut) {
        /** A run stopped because its arena passed the bound: it cannot be the smallest. */
        static final Result OUTRUN = new Result(null, false, false);

        Result(long[] offsets, boolean complete) {
            this(offsets, complete, false);
        }

        Result(long[] offsets, boolean complete, boolean swept) {
            this(offsets, complete, swept, false);
        }

        /** Whether the run stopped at the {@link ArenaBound}; then it has no offsets. */
        boolean outrun() {
            return offsets == null;
        }

        /**
         * Whether the deadline cut it: it stacked buffers it had not placed, or a later step's
         * cut run was thrown away for it ({@code laterCut}). The planner's label then says "cut
         * at the time limit" ({@link GreedyPlacer#placement}, {@link BestPlanner}).
         */
        boolean cut() {
            return !outrun() && (!complete || laterCut);
        }
    }

    /**
     * {@code kept}, flagged {@code laterCut} when {@code other}, a run tried after it and thrown
     * away, was cut at the deadline ({@link Result#cut}): so that a sweep cut short after an
     * earlier one finished is not hidden (a time limit cutting {@code greedy-breadth}'s second
     * peak sweep on wide-62k-9k left 1.0044 x LB where it gives 1.0000). {@code kept} as it is
     * when it is {@link Result#OUTRUN} or {@code other} was not cut.
     */
    static Result keptOver(Result kept, Result other) {
        if (kept.outrun() || !other.cut() || kept.laterCut()) return kept;
        return new Result(kept.offsets(), kept.complete(), kept.swept(), true);
    }

    /** A deadline that never comes (for {@link System#nanoTime()} comparisons by difference). */
    static final long NO_DEADLINE = Long.MAX_VALUE;
    static final int CLOCK_EVERY = 64;
    private static final int CLOCK_MASK = CLOCK_EVERY - 1;

    private GreedyPlacer() { }

    static long[] place(Problem p, int[] order, Fit fit) {
        return place(p, order, fit, NO_DEADLINE).offsets();
    }

    static Result place(Problem p, int[] order, Fit fit, long deadline) {
        return place(p, order, fit, deadline, ArenaBound.NONE);
    }

    /**
     * Places every buffer: exactly by the fit rule where that is cheap enough
     * ({@link #isExactAffordable}), else by {@link SweepPlacer#placeSmaller} (the smaller of a
     * sweep of every buffer into the gaps and one with the heavy half of the area exact); past
     * the deadline before that choice, every buffer stacked ({@link #byCost}).
     *
     * @param deadline a {@link System#nanoTime()} value, or {@link #NO_DEADLINE}
     * @param bound    stops the run, returning {@link Result#OUTRUN}, once its arena passes this
     *                 (read with the clock: at most {@value #CLOCK_EVERY} placements late)
     */
    static Result place(Problem p, int[] order, Fit fit, long deadline, ArenaBound bound) {
        return byCost(p, order, deadline, () -> placePrefix(p, order, order.length, fit, deadline, bound),
                () -> SweepPlacer.placeSmaller(p, order, fit, deadline, bound));
    }

    /**
     * {@code exact} where exact placement is affordable ({@link #isExactAffordable}), else
     * {@code swept}. Past the deadline before the choice is made (the overlapping pairs are
     * counted once per problem, after the start and end sorts, which read the clock), neither:
     * every buffer is stacked in {@code order}.
     */
    static Result byCost(Problem p, int[] order, long deadline, java.util.function.Supplier<Result> exact, java.util.function.Supplier<Result> swept) {
        boolean affordable;
        try {
            if (passed(deadline)) throw new Orders.TimeUp();
            affordable = isExactAffordable(p, deadline);
        } catch (Orders.TimeUp e) {
            return stackUnplaced(p, order, order.length, new long[p.size()], new boolean[p.size()], false);
        }
        return affordable ? exact.get() : swept.get();
    }

    /**
     * Places {@code order[0 .. count)} exactly by the fit rule, among themselves (the other
     * offsets stay 0 for the caller to fill).
     *
     * @param deadline a {@link System#nanoTime()} value, or {@link #NO_DEADLINE}
     * @param bound    as for {@link #place(Problem, int[], Fit, long, ArenaBound)}
     */
    static Result placePrefix(Problem p, int[] order, int count, Fit fit, long deadline, ArenaBound bound) {
        if (deadline == NO_DEADLINE) deadline = System.nanoTime() + Long.MAX_VALUE / 2;
        if (System.nanoTime() - deadline > 0) return stackUnplaced(p, order, count, new long[p.size()], new boolean[p.size()], false);
        return isWide(p) ? placeWide(p, order, count, fit, deadline, bound) : placeByNeighbours(p, order, count, fit, deadline, bound);
    }

    /**
     * Ordered pairs of overlapping buffers ({@link Problem#overlappingPairs}) up to which every
     * buffer is placed exactly: S_1, the widest shared real trace, has 86 M and its exact
     * placement takes 0.2-0.4 s of CPU per heuristic; {@code WideTraces.generate(42, 62_000,
     * 9_000)} has 842 M and takes 7.5 s (docs/scale.md).
     */
    static final long EXACT_PAIRS = 100_000_000L;

    /** Whether the exact fit is cheap enough for every buffer, or must be (extra conflicts, which the sweep does not see). */
    static boolean isExactAffordable(Problem p) {
        return isExactAffordable(p, NO_DEADLINE);
    }

    /**
     * As {@link #isExactAffordable(Problem)}.
     *
     * @throws Orders.TimeUp when {@code deadline} passes while the overlapping pairs are counted
     */
    static boolean isExactAffordable(Problem p, long deadline) {
        return p.hasExtraConflicts() || p.overlappingPairs(deadline) <= EXACT_PAIRS;
    }

    /** {@link System#nanoTime()} plus the limit, or {@link #NO_DEADLINE} for a null limit. */
    static long deadlineAfter(java.time.Duration limit) {
        if (limit == null) return NO_DEADLINE;
        long nanos = limit.toNanos();
        return System.nanoTime() + Math.min(nanos, Long.MAX_VALUE / 2);
    }

    /** The earlier of two deadlines ({@link System#nanoTime()} values or {@link #NO_DEADLINE}). */
    static long earlier(long a, long b) {
        if (a == NO_DEADLINE) return b;
        if (b == NO_DEADLINE) return a;
        return a - b < 0 ? a : b;
    }

    /** True once {@code deadline} (a {@link System#nanoTime()} value or {@link #NO_DEADLINE}) has passed. */
    static boolean passed(long deadline) {
        return deadline != NO_DEADLINE && System.nanoTime() - deadline > 0;
    }

    /** The placement of a result, labelled "swept" and "cut at the time limit" where they apply. */
    static Placement placement(Problem p, Result r, String planner) {
        return Placement.of(p, r.offsets(), Placement.label(planner, " (", ")", r.cut(), sweptNote(r)), r.cut());
    }

    /** "swept" for a swept result, else "". */
    static String sweptNote(Result r) {
        return r.swept() ? "swept" : "";
    }

    /**
     * A run cut at the deadline: stacks the buffers of {@code order[0 .. count)} not yet
     * {@code placed} one above another, in order, above every placed one (valid, not tight).
     */
    static Result stackUnplaced(Problem p, int[] order, int count, long[] offset, boolean[] placed, boolean swept) {
        long top = 0;
        for (int k = 0; k < count; k++) {
            if (placed[order[k]]) top = Math.max(top, offset[order[k]] + p.alignedSize(order[k]));
        }
        for (int k = 0; k < count; k++) {
            int i = order[k];
            if (placed[i]) continue;
            offset[i] = top;
            top += p.alignedSize(i);
        }
        return new Result(offset, false, swept);
    }

    /** Average buffers overlapping one buffer above which the occupancy tree wins. */
    static final long WIDE_AVERAGE_OVERLAP = 64;

    /** More than {@link #WIDE_AVERAGE_OVERLAP} neighbours per buffer on average (counted once per problem). */
    static boolean isWide(Problem p) {
        return p.size() > 0 && p.overlappingPairs() / p.size() > WIDE_AVERAGE_OVERLAP;
    }

    /** Enumerates each buffer's placed neighbours through the interval index. */
    static long[] placeByNeighbours(Problem p, int[] order, Fit fit) {
        return placeByNeighbours(p, order, order.length, fit, System.nanoTime() + Long.MAX_VALUE / 2, ArenaBound.NONE).offsets();
    }

    private static Result placeByNeighbours(Problem p, int[] order, int count, Fit fit, long deadline, ArenaBound bound) {
        int n = p.size();
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        long top = 0;
        int[] nb = new int[64];
        int[] stack = IntervalIndex.newStack();
        long[] keys = new long[64];
        long[] ends = new long[64];
        for (int o = 0; o < count; o++) {
            if ((o & CLOCK_MASK) == CLOCK_MASK) {
                if (bound.exceededBy(top)) return Result.OUTRUN;
                if (System.nanoTime() - deadline > 0) return stackUnplaced(p, order, count, offset, placed, false);
            }
            int i = order[o];
            nb = p.conflictsInto(i, nb, stack);
            int conflicts = nb[0];
            if (keys.length < conflicts) {
                keys = new long[Math.max(conflicts, keys.length * 2)];
                ends = new long[keys.length];
            }
            int k = 0;
            for (int c = 1; c <= conflicts; c++) {
                int j = nb[c];
                if (!placed[j] || p.alignedSize(j) == 0) continue;
                keys[k] = offset[j];
                ends[k++] = offset[j] + p.alignedSize(j);
            }
            offset[i] = gap(keys, ends, k, p.alignedSize(i), fit);
            placed[i] = true;
            top = Math.max(top, offset[i] + p.alignedSize(i));
        }
        return new Result(offset, true);
    }

    /** Asks the {@link OccupancyTree} for each buffer's gap. */
    static long[] placeWide(Problem p, int[] order, Fit fit) {
        return placeWide(p, order, order.length, fit, System.nanoTime() + Long.MAX_VALUE / 2, ArenaBound.NONE).offsets();
    }

    private static Result placeWide(Problem p, int[] order, int count, Fit fit, long deadline, ArenaBound bound) {
        int n = p.size();
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        long top = 0;
        OccupancyTree tree = count == n ? new OccupancyTree(p) : new OccupancyTree(startPoints(p, order, count));
        ByteRanges extra = p.hasExtraConflicts() ? new ByteRanges() : null;
        for (int k = 0; k < count; k++) {
            if ((k & CLOCK_MASK) == CLOCK_MASK) {
                if (bound.exceededBy(top)) return Result.OUTRUN;
                if (System.nanoTime() - deadline > 0) return stackUnplaced(p, order, count, offset, placed, false);
            }
            int i = order[k];
            if (extra != null) {
                extra.size = 0;
                for (int j : p.extraConflicts(i)) {
                    if (placed[j] && p.alignedSize(j) > 0 && !p.intervalsOverlap(i, j)) extra.insert(offset[j], offset[j] + p.alignedSize(j));
                }
            }
            offset[i] = tree.gap(p.lower(i), p.upper(i), p.alignedSize(i), fit, extra);
            placed[i] = true;
            top = Math.max(top, offset[i] + p.alignedSize(i));
            tree.add(p.lower(i), p.upper(i), offset[i], offset[i] + p.alignedSize(i));
        }
        return new Result(offset, true);
    }

    /** The distinct starts of {@code order[0 .. count)}, ascending. */
    private static long[] startPoints(Problem p, int[] order, int count) {
        long[] all = new long[count];
        for (int k = 0; k < count; k++) all[k] = p.lower(order[k]);
        return Problem.distinctAscending(all);
    }

    /**
     * Scans the free gaps below and between the neighbours' byte ranges, in offset order.
     * Offsets are aligned and sizes aligned, so every gap start is aligned too.
     */
    private static long gap(long[] starts, long[] ends, int k, long size, Fit fit) {
        sortPairsByStart(starts, ends, k);
        long cursor = 0;
        long bestOffset = -1;
        long bestGap = Long.MAX_VALUE;
        for (int a = 0; a < k; a++) {
            long g = starts[a] - cursor;
            if (g >= size) {
                if (fit == Fit.FIRST || size == 0) return cursor;
                if (g < bestGap) {
                    bestGap = g;
                    bestOffset = cursor;
                }
            }
            cursor = Math.max(cursor, ends[a]);
        }
        return bestOffset >= 0 ? bestOffset : cursor;
    }

    /**
     * Sorts (start, end) pairs by start with one primitive sort: each start is packed with its
     * index in the low bits when it fits, else two sorts keep the pairing through a permutation.
     */
    private static void sortPairsByStart(long[] starts, long[] ends, int k) {
        if (k < 2) return;
        int bits = 32 - Integer.numberOfLeadingZeros(k);
        long max = 0;
        for (int a = 0; a < k; a++) max = Math.max(max, starts[a]);
        long[] packed = new long[k];
        long[] e = Arrays.copyOf(ends, k);
        if (max < (1L << (62 - bits))) {
            for (int a = 0; a < k; a++) packed[a] = (starts[a] << bits) | a;
            Arrays.sort(packed);
            long mask = (1L << bits) - 1;
            for (int a = 0; a < k; a++) {
                int idx = (int) (packed[a] & mask);
                starts[a] = packed[a] >>> bits;
                ends[a] = e[idx];
            }
        } else {
            Integer[] idx = new Integer[k];
            for (int a = 0; a < k; a++) idx[a] = a;
            long[] s = Arrays.copyOf(starts, k);
            Arrays.sort(idx, (x, y) -> Long.compare(s[x], s[y]));
            for (int a = 0; a < k; a++) {
                starts[a] = s[idx[a]];
                ends[a] = e[idx[a]];
            }
        }
    }
}
