package org.arenaplan.plan;

/**
 * A sweep that starts at the widest instant and goes outward, both ways: the buffers live there
 * are stacked (their sum is the lower bound), then those starting later are swept forward in time
 * and those ending earlier backward, each into a {@link FreeGaps} free list. Exact placement in
 * breadth order packs the widest instant first too (its first buffers all meet there, so each
 * goes on top of the others: a stack, largest first); a forward sweep from time 0 instead
 * reaches the widest instant with a free list already cut up by the buffers that started before
 * it, and leaves some of those live there above the lower bound. Run first by
 * {@link SqueakySweep} (docs/scale.md: on {@code WideTraces.generate(5, 62_000, 9_000)} it gives
 * 1.00109 x LB where the forward sweep and its round give 1.00324 and exact placement 1.00136).
 *
 * <p>Steps:
 * <ol>
 *   <li>The widest instant T: the earliest instant with the most bytes live ({@link LiveBytes}).</li>
 *   <li>The buffers live at T stacked from offset 0, as {@link Stack} says (ties: the order's
 *       rank): by start, the earliest at the bottom, so that going backward the stack empties
 *       from its top; or by end, the latest at the bottom, so that going forward it does. Each
 *       is the tighter on some wide traces ({@link SqueakySweep} runs both; by the order's rank
 *       instead: 8 of 12 no worse than exact placement, against 9 by start; docs/scale.md).
 *       With a hole at an instant T2, the buffers freed before the sweep reaches T2 go on top
 *       ({@link #stackOrder(Problem, int[], long, Stack, long, long)}).</li>
 *   <li>Forward: the free list holds the stack; over the start times after T, ascending: free
 *       the buffers that ended (upper &lt;= t), then place each buffer starting at t, in the
 *       order's rank, into a gap: the smallest that holds it ({@link GreedyPlacer.Fit#BEST}, ties
 *       to the lowest) or the lowest among the {@value SweepPlacer#LOW_GAPS} lowest gaps that
 *       holds it ({@link GreedyPlacer.Fit#FIRST}; then as best fit), else the top.</li>
 *   <li>Backward, the mirror image in a fresh free list holding the stack: over the end times at
 *       or before T, descending: free the buffers that start at or after the end u
 *       (lower &gt;= u), then place each buffer ending at u, in the order's rank, as above.</li>
 * </ol>
 *
 * <p>Valid by construction, with no check against buffers placed later: a buffer that starts
 * after T and one that ends by T never meet; within one side, of two buffers that meet, the one
 * placed second sees the first in the free list (as in {@link SweepPlacer}'s sweep); every
 * buffer that meets one live at T sees it in the free list from the start. Cost: O(n) for the
 * live-bytes curve over the problem's shared start and end orders (once per problem: shared with
 * the lower bound and the breadth order, {@link Problem#liveBytes}), O(k log k) to sort the k
 * buffers of the stack, O(n log r) to re-sort runs of
 * r equal starts (ends) by rank, and per buffer one take and one free in a free list of g gaps
 * (a few O(log g) searches and an O(64 + g / 64) shift, see {@link FreeGaps}), O(1) per gap
 * visited; nothing visits the live neighbours.
 *
 * <p>With a second stack ({@link SecondStack}), the buffers live at an instant T2 and not at T are
 * placed after the stack and before the sweeps, and the buffers of their side are checked against
 * those not reached yet ({@link LaterRanges}); the other side may be copied from a plain peak sweep
 * with the same stack (its cost is then O(n) there). Its steps and cost are {@link SecondStack}'s.
 *
 * <p>Deadline: the clock is read every {@value GreedyPlacer#CLOCK_EVERY} buffers swept; past it the
 * buffers not yet placed are stacked above everything (valid, not tight) and the result says it
 * was cut short. An {@link ArenaBound} is read at the same times: a run whose buffers reach above
 * it stops ({@link GreedyPlacer.Result#OUTRUN}).
 */
final class PeakSweep {
    private PeakSweep() { }

    /** How the buffers live at the widest instant are stacked, bottom first (ties: the order's rank). */
    enum Stack {
        /** By start, the earliest at the bottom: going backward in time the stack empties from its top. */
        BY_START,
        /** By end, the latest at the bottom: going forward in time the stack empties from its top. */
        BY_END_DESC,
        /**
         * By how long each stays live on its nearer side of the widest instant T, the longest at
         * the bottom: {@code min(T - lower, upper - 1 - T)}, descending. Neither side's stack
         * empties from its top, but the buffers that end soon on either side are on top; run
         * last by {@link SqueakySweep} (step 7).
         */
        BY_NEARER_END
    }

    /**
     * Both stacks, the smaller arena kept: the sweep stacked {@link Stack#BY_START}, then, unless
     * that reached the lower bound, the one stacked {@link Stack#BY_END_DESC}, stopped once above
     * the first (the first's arena is offered to {@code bound}, or to a bound of its own), kept
     * only when strictly smaller. The second runs even when the first stopped at {@code bound}.
     * Cost: two sweeps, the second cut short where it loses. Which stack is the tighter depends on
     * the trace (docs/scale.md); no other order of the stack was tighter on every trace.
     *
     * @param bound stops either sweep once above it (shared with other runs in {@link BestPlanner})
     * @return the smaller finished sweep; the first when it was cut at the deadline (not
     *         complete: every buffer stacked); {@link GreedyPlacer.Result#OUTRUN} when the first
     *         stopped at {@code bound} and the second did not finish
     */
    static GreedyPlacer.Result placeSmaller(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        return smaller(p, order, fit, deadline, bound).result();
    }

    /**
     * A result of {@link #smaller}, the stack of the sweep it kept, and the offsets of the sweep
     * stacked {@link Stack#BY_START} (null where it was cut or outrun).
     */
    record Kept(GreedyPlacer.Result result, Stack stack, long[] byStart) { }

    /** As {@link #placeSmaller}, saying which stack the result kept ({@link Stack#BY_START} where it is cut or outrun). */
    static Kept smaller(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        GreedyPlacer.Result byStart = place(p, order, fit, Stack.BY_START, deadline, bound);
        if (!byStart.outrun() && !byStart.complete()) return new Kept(byStart, Stack.BY_START, null);   // cut
        long arena = byStart.outrun() ? Long.MAX_VALUE : Placement.arenaOf(p, byStart.offsets());
        long[] byStartOffsets = byStart.outrun() ? null : byStart.offsets();
        if (arena <= p.lowerBound()) return new Kept(byStart, Stack.BY_START, byStartOffsets);    // optimal
        ArenaBound beat = bound == ArenaBound.NONE ? new ArenaBound() : bound;
        if (!byStart.outrun()) beat.offer(arena);
        GreedyPlacer.Result byEnd = place(p, order, fit, Stack.BY_END_DESC, deadline, beat);
        if (!byEnd.outrun() && byEnd.complete() && Placement.arenaOf(p, byEnd.offsets()) < arena) return new Kept(byEnd, Stack.BY_END_DESC, byStartOffsets);
        return new Kept(GreedyPlacer.keptOver(byStart, byEnd), Stack.BY_START, byStartOffsets);
    }

    /** As {@link #place(Problem, int[], GreedyPlacer.Fit, Stack, long, ArenaBound)}, stacked {@link Stack#BY_START}. */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        return place(p, order, fit, Stack.BY_START, deadline, bound);
    }

    /**
     * @param order    the buffers in placement order (a permutation of the problem's indices): the
     *                 rank among buffers starting (ending) together or, in the stack, together
     * @param stack    the order of the stack at the widest instant
     * @param deadline a {@link System#nanoTime()} value, or {@link GreedyPlacer#NO_DEADLINE}
     * @param bound    stops the run, returning {@link GreedyPlacer.Result#OUTRUN}, once its buffers reach above it
     * @return a placement of every buffer, flagged swept; or cut at the deadline (every buffer not
     *         yet placed stacked on top: all of them when the sorts were cut), or {@link GreedyPlacer.Result#OUTRUN}
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, Stack stack, long deadline, ArenaBound bound) {
        return place(p, order, fit, stack, NO_SECOND_STACK, null, deadline, bound);
    }

    /** No second stack: {@link #place(Problem, int[], GreedyPlacer.Fit, Stack, long, long, ArenaBound)} is the plain peak sweep. */
    static final long NO_SECOND_STACK = Long.MIN_VALUE;

    /**
     * The peak sweep with a second stack at {@code t2} ({@link SecondStack}): after the stack at
     * the widest instant T, the buffers live at {@code t2} and not at T are pinned
     * ({@link SecondStack#placePins}), then the sweep places the others, those on the pinned
     * buffers' side checked against the pinned ones it has not reached yet ({@link LaterRanges}).
     *
     * @param t2   the instant of the second stack, or {@link #NO_SECOND_STACK}; at T itself it pins nothing
     * @param same the offsets of a complete peak sweep of the same problem, order, fit rule and
     *             stack, or null: the side without pinned buffers is then copied from it instead
     *             of swept again (a side's sweep does not depend on the other side's)
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, Stack stack, long t2, long[] same, long deadline, ArenaBound bound) {
        return place(p, order, fit, stack, t2 == NO_SECOND_STACK ? null : new long[] {t2}, same, deadline, bound);
    }

    /**
     * As {@link #place(Problem, int[], GreedyPlacer.Fit, Stack, long, long[], ArenaBound)}, the
     * second stack at several instants on one side of the widest instant
     * ({@link SecondStack#placePins(Problem, int[], int[], long, long[], long[], long)}).
     *
     * @param instants the instants of the second stack (the side of the first; those on the other
     *                 side ignored), or null: none
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, Stack stack, long[] instants, long[] same, long deadline, ArenaBound bound) {
        return place(p, order, fit, stack, NO_HOLE, instants, same, deadline, bound);
    }

    /** No hole: the stack is as {@link Stack} says. */
    static final long NO_HOLE = Long.MIN_VALUE;

    /**
     * As {@link #place(Problem, int[], GreedyPlacer.Fit, Stack, long[], long[], long, ArenaBound)},
     * the stack with a hole for the instant {@code hole} ({@link #stackOrder(Problem, int[], long, Stack, long, long)}).
     *
     * @param hole an instant other than the widest, or {@link #NO_HOLE}
     * @param same as there: the offsets of a complete peak sweep with the same stack and hole, or null
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, Stack stack, long hole, long[] instants, long[] same, long deadline, ArenaBound bound) {
        try {
            return sweepFromPeak(p, order, fit, stack, hole, instants, same, deadline, bound);
        } catch (Orders.TimeUp e) {          // past the deadline while sorting: nothing placed yet
            return GreedyPlacer.stackUnplaced(p, order, p.size(), new long[p.size()], new boolean[p.size()], true);
        }
    }

    private static GreedyPlacer.Result sweepFromPeak(Problem p, int[] order, GreedyPlacer.Fit fit, Stack stack, long hole, long[] instants, long[] same, long deadline, ArenaBound bound) {
        int n = p.size();
        long[] offset = new long[n];
        boolean[] placed = new boolean[n];
        if (n == 0) return new GreedyPlacer.Result(offset, true, true);
        long t = widestInstant(p.liveBytes(deadline));
        long top = 0;
        int[] stacked = stackOrder(p, order, t, stack, hole, deadline);
        for (int i : stacked) {
            offset[i] = p.alignedSize(i) == 0 ? 0 : top;
            top += p.alignedSize(i);
            placed[i] = true;
        }
        long stackTop = top;
        boolean[] inStack = placed.clone();
        SecondStack.Pinned pinned = instants == null ? null : SecondStack.placePins(p, order, stacked, t, instants, offset, deadline);
        if (pinned != null) {
            for (int k = 0; k < pinned.count(); k++) placed[pinned.buffer(k)] = true;
            top = Math.max(top, pinned.top());
        }
        int[] rank = new int[n];
        for (int k = 0; k < n; k++) rank[order[k]] = k;
        int[] starts = p.startOrder(deadline);
        int[] ends = p.endOrder(deadline);
        Side side = new Side(p, fit, offset, placed, inStack, order, deadline, bound);
        side.top = top;
        side.stackTop = stackTop;
        boolean copy = pinned != null && same != null;
        // forward: buffers starting after t, by start, ties by rank; frees by end, ascending
        if (copy && !pinned.forward()) {
            side.copy(same, starts, countAtOrBelow(p, starts, t, true), n);
        } else {
            int[] fwd = runsByRank(p, starts, countAtOrBelow(p, starts, t, true), n, rank, true);
            if (!side.sweep(fwd, ends, true, pinned != null && pinned.forward() ? pinned : null)) return side.result;
        }
        // backward: buffers ending at or before t, by end descending, ties by rank; frees by start, descending
        if (copy && pinned.forward()) {
            side.copy(same, ends, 0, countAtOrBelow(p, ends, t, false));
        } else {
            int[] bwd = runsByRank(p, reversed(ends, countAtOrBelow(p, ends, t, false)), 0, -1, rank, false);
            if (!side.sweep(bwd, reversed(starts, n), false, pinned != null && !pinned.forward() ? pinned : null)) return side.result;
        }
        return new GreedyPlacer.Result(offset, true, true);
    }

    /** The buffers live at {@code t}, as {@code stack} says (ties: the order's rank), bottom of the stack first. */
    static int[] stackOrder(Problem p, int[] order, long t, Stack stack, long deadline) {
        return stackOrder(p, order, t, stack, NO_HOLE, deadline);
    }

    /**
     * The buffers live at {@code t} as {@code stack} says, with a hole for the instant
     * {@code hole}: those that the sweep frees before it places a buffer starting at
     * {@code hole} (after {@code t}: those ending by it) or ending at {@code hole + 1} (before
     * {@code t}: those starting after it) moved to the top, ordered so that this group empties
     * from its top on that side (forward: by end, descending; backward: by start). When the sweep
     * reaches {@code hole}, the bytes freed at the top of the stack are one run, so a large buffer
     * starting there finds a gap of its size that the stack's scattered frees do not leave
     * ({@link SqueakySweep}'s step 4c). Ties: the order's rank. Cost: O(k log k) for the k buffers live at {@code t}.
     *
     * @param hole an instant other than {@code t}, or {@link #NO_HOLE}: the stack as {@code stack} says
     */
    static int[] stackOrder(Problem p, int[] order, long t, Stack stack, long hole, long deadline) {
        int c = 0;
        for (int i : order) if (p.lower(i) <= t && t < p.upper(i)) c++;
        int[] live = new int[c];
        long[] group = new long[c];
        long[] keys = new long[c];
        c = 0;
        for (int i : order) {
            if (p.lower(i) <= t && t < p.upper(i)) {
                live[c] = i;
                boolean freed = hole != NO_HOLE && (hole > t ? p.upper(i) <= hole : p.lower(i) > hole);
                group[c] = freed ? 1 : 0;
                keys[c++] = freed ? (hole > t ? -p.upper(i) : p.lower(i)) : switch (stack) {
                    case BY_START -> p.lower(i);
                    case BY_END_DESC -> -p.upper(i);
                    case BY_NEARER_END -> -Math.min(t - p.lower(i), p.upper(i) - 1 - t);
                };
            }
        }
        int[] sorted = hole == NO_HOLE ? Orders.sortedByKeys(deadline, c, keys) : Orders.sortedByKeys(deadline, c, group, keys);
        int[] bottomFirst = new int[c];
        for (int k = 0; k < c; k++) bottomFirst[k] = live[sorted[k]];
        return bottomFirst;
    }

    /** The earliest time with the most bytes live. */
    static long widestInstant(LiveBytes live) {
        long most = -1, at = 0;
        for (int k = 0; k < live.points(); k++) {
            if (live.bytesAt(k) > most) {
                most = live.bytesAt(k);
                at = live.time(k);
            }
        }
        return at;
    }

    /** How many of {@code sorted} (by lower, or by upper) have that time at or below {@code t}. */
    private static int countAtOrBelow(Problem p, int[] sorted, long t, boolean byLower) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            long v = byLower ? p.lower(sorted[mid]) : p.upper(sorted[mid]);
            if (v <= t) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /** The first {@code count} of {@code a}, last first. */
    private static int[] reversed(int[] a, int count) {
        int[] r = new int[count];
        for (int k = 0; k < count; k++) r[k] = a[count - 1 - k];
        return r;
    }

    /**
     * {@code sorted[from .. to)} ({@code to} -1: to the end), each run of equal lower (or
     * upper) times re-sorted by rank.
     */
    private static int[] runsByRank(Problem p, int[] sorted, int from, int to, int[] rank, boolean byLower) {
        int end = to < 0 ? sorted.length : to;
        int[] r = java.util.Arrays.copyOfRange(sorted, from, end);
        for (int a = 0, b; a < r.length; a = b) {
            long key = byLower ? p.lower(r[a]) : p.upper(r[a]);
            for (b = a + 1; b < r.length && (byLower ? p.lower(r[b]) : p.upper(r[b])) == key; ) b++;
            if (b - a < 2) continue;
            long[] keys = new long[b - a];
            for (int k = a; k < b; k++) keys[k - a] = ((long) rank[r[k]] << 32) | (k - a);
            java.util.Arrays.sort(keys);
            int[] run = java.util.Arrays.copyOfRange(r, a, b);
            for (int k = a; k < b; k++) r[k] = run[(int) (keys[k - a] & 0xffffffffL)];
        }
        return r;
    }

    /** One side's sweep: a free list holding the stack, the placed buffers, the arena so far. */
    private static final class Side {
        private final Problem p;
        private final GreedyPlacer.Fit fit;
        private final long[] offset;
        private final boolean[] placed;
        private final boolean[] stacked;
        private final int[] order;
        private final long deadline;
        private final ArenaBound bound;
        private long top;
        private long stackTop;
        private int swept;
        private GreedyPlacer.Result result;

        Side(Problem p, GreedyPlacer.Fit fit, long[] offset, boolean[] placed, boolean[] stacked, int[] order, long deadline, ArenaBound bound) {
            this.p = p;
            this.fit = fit;
            this.offset = offset;
            this.placed = placed;
            this.stacked = stacked;
            this.order = order;
            this.deadline = deadline;
            this.bound = bound;
        }

        /**
         * Places {@code todo} in turn (forward: by start; backward: by end, descending), freeing
         * from {@code frees} (forward: by end; backward: by start, descending) the buffers of this
         * side and the stack that a buffer's time has passed. A pinned buffer ({@code pinned}, on
         * this side; null: none) is taken at its offset when reached; the others are checked
         * against the pinned ones not reached yet. False when stopped (then {@link #result}).
         */
        boolean sweep(int[] todo, int[] frees, boolean forward, SecondStack.Pinned pinned) {
            FreeGaps free = new FreeGaps();
            boolean[] taken = stacked.clone();
            free.take(0, stackTop);
            int f = 0;
            for (int i : todo) {
                if ((++swept & (GreedyPlacer.CLOCK_EVERY - 1)) == 0) {
                    if (bound.exceededBy(top)) {
                        result = GreedyPlacer.Result.OUTRUN;
                        return false;
                    }
                    if (GreedyPlacer.passed(deadline)) {
                        result = GreedyPlacer.stackUnplaced(p, order, order.length, offset, placed, true);
                        return false;
                    }
                }
                long at = forward ? p.lower(i) : p.upper(i);
                while (f < frees.length && (forward ? p.upper(frees[f]) <= at : p.lower(frees[f]) >= at)) {
                    int j = frees[f++];
                    if (taken[j]) {
                        free.free(offset[j], offset[j] + p.alignedSize(j));
                        taken[j] = false;
                    }
                }
                long size = p.alignedSize(i);
                if (pinned != null && pinned.isPinned(i)) {
                    free.take(offset[i], offset[i] + size);          // its checks kept these bytes clear
                    taken[i] = true;
                    continue;
                }
                if (size == 0) offset[i] = 0;
                else if (pinned == null) offset[i] = gap(free, size);
                else offset[i] = pinned.place(free, forward ? p.lower(i) : -p.upper(i), forward ? p.upper(i) : -p.lower(i), size, fit);
                free.take(offset[i], offset[i] + size);
                taken[i] = true;
                placed[i] = true;
                top = Math.max(top, offset[i] + size);
            }
            return true;
        }

        /** The offsets of {@code buffers[from .. to)} (one side) as {@code same} has them. */
        void copy(long[] same, int[] buffers, int from, int to) {
            for (int k = from; k < to; k++) {
                int i = buffers[k];
                offset[i] = same[i];
                placed[i] = true;
                top = Math.max(top, offset[i] + p.alignedSize(i));
            }
        }

        private long gap(FreeGaps free, long size) {
            if (fit == GreedyPlacer.Fit.FIRST) {
                FreeGaps.Walk w = free.lowestHolding(size, SweepPlacer.LOW_GAPS);
                if (w.next()) return w.start;
            }
            FreeGaps.Walk w = free.smallestHolding(size);
            return w.next() ? w.start : free.top();
        }
    }
}
