package org.arenaplan.plan;

/**
 * A peak sweep with a second stack where the first one made its arena: what exact placement in
 * breadth order does that a single {@link PeakSweep} does not. A peak sweep's arena is often made
 * far from the widest instant T (on {@code WideTraces.generate(20, 62_000, 9_000)}: two 15.5 MB
 * buffers 3,400 instants after it, where 0.991 x LB is live), by large buffers that find the free
 * list there cut up by the smaller ones that started before them; exact placement in breadth
 * order places the buffers live at a wide instant before those. So the buffers live at a second
 * instant T2 are placed first, right after the stack at T, and the sweep works around them.
 * {@link SqueakySweep} runs it as a third candidate after the two peak sweeps, kept only when
 * strictly smaller (docs/scale.md: seed 20 1.00555 to 1.00455 x LB, exact placement 1.00534).
 *
 * <p>Steps:
 * <ol>
 *   <li>T2: the start of the highest buffer of the peak sweep given (its top highest, ties to the
 *       lowest index), or, where that buffer ends by T, its last instant (upper - 1).</li>
 *   <li>The pinned buffers: those live at T2 and not at T. All start after T (T2 &gt; T) or all
 *       end by it (T2 &lt; T), so they lie on one side of the peak sweep, and all meet each
 *       other at T2. With several instants ({@link SqueakySweep}'s step 4b, each where the run
 *       before made its arena): those live at any of them on the side of the first.</li>
 *   <li>Their placement, a sweep of their own over the stack at T alone: the free list holds the
 *       stack; forward (T2 &gt; T), the pinned buffers by start (ties: the order's rank), each
 *       after freeing the stack's buffers that ended by its start, into the smallest gap that
 *       holds it (ties: the lowest), else the top; backward, the mirror image (by end,
 *       descending; the stack's buffers freed when they start at or after its end). At one
 *       instant no pinned buffer is freed: they all meet; at several, a pinned buffer is freed
 *       for a later one as the stack's are.</li>
 *   <li>The peak sweep with the same stack at T ({@link PeakSweep#place(Problem, int[],
 *       GreedyPlacer.Fit, PeakSweep.Stack, long, long, ArenaBound)}): on the pinned buffers'
 *       side each pinned buffer is taken into the free list at its offset when the sweep reaches
 *       it, and every other buffer goes where the free list and the pinned buffers it meets and
 *       the sweep has not reached allow ({@link LaterRanges}: the checks of {@link SweepPlacer}'s
 *       light buffers).</li>
 * </ol>
 *
 * <p>Valid by construction: a pinned buffer clears every stack buffer it meets (those still in
 * its free list at its start) and every other pinned one it meets (placed before it, or after
 * it and seeing it in the free list); a swept buffer sees the stack, the
 * pinned buffers already reached and the swept ones in the free list, and is checked against the
 * pinned ones that start (backward: end) later in its lifetime. Cost: O(n m) for T2 and the
 * pinned set at m instants (m &lt;= 4); O((s + k) log(s + k)) to sort and place the k pinned buffers over the s of the
 * stack (a free list of at most s + k gaps, O(log) per take and free); O(k log k) for the
 * {@link LaterRanges} over them; then one peak sweep, whose buffers on the pinned side each make
 * at most {@value SweepPlacer#CHECKS} + 8 checks of O(log^2 k) (O(w) for a window of w &lt;=
 * {@value SweepPlacer#DIRECT}). Nothing visits the live neighbours.
 *
 * <p>Deadline and bound: the sweep reads them as {@link PeakSweep} does; the steps before it are
 * O((n + s) log n) and read the clock only in their sort ({@link Orders#sortedByKeys}).
 */
final class SecondStack {
    private SecondStack() { }

    /**
     * Steps 1 to 4.
     *
     * @param stack the stack at the widest instant, that of the peak sweep {@code kept} came from
     * @param kept  the offsets of a complete peak sweep (its highest buffer gives T2)
     * @param bound stops the run once above it ({@link GreedyPlacer.Result#OUTRUN})
     * @return a placement of every buffer, flagged swept; or cut at the deadline, or outrun
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, PeakSweep.Stack stack, long[] kept, long deadline, ArenaBound bound) {
        if (p.size() == 0) return new GreedyPlacer.Result(new long[0], true, true);
        long t = PeakSweep.widestInstant(p.liveBytes(deadline));
        return PeakSweep.place(p, order, fit, stack, secondInstant(p, kept, t), kept, deadline, bound);
    }

    /** Step 1: the start of the highest buffer of {@code offsets} (ties: the lowest index), or its last instant where it ends by {@code t}. */
    static long secondInstant(Problem p, long[] offsets, long t) {
        int hi = 0;
        for (int i = 1; i < p.size(); i++) if (offsets[i] + p.alignedSize(i) > offsets[hi] + p.alignedSize(hi)) hi = i;
        return p.lower(hi) > t ? p.lower(hi) : p.upper(hi) - 1;
    }

    /**
     * The pinned buffers, placed (step 3), and the checks against them (step 4).
     *
     * @param forward whether they start after the widest instant (else they end by it)
     */
    record Pinned(int[] buffers, boolean[] pinned, long top, boolean forward, LaterRanges ranges) {
        int count() {
            return buffers.length;
        }

        int buffer(int k) {
            return buffers[k];
        }

        boolean isPinned(int i) {
            return pinned[i];
        }

        /**
         * The offset of a swept buffer of {@code size} bytes (above 0) on the pinned side, live
         * from sweep time {@code at} to {@code until} (forward: [lower, upper); backward: minus
         * its end, minus its start).
         */
        long place(FreeGaps free, long at, long until, long size, GreedyPlacer.Fit fit) {
            return ranges.place(free, ranges.countBelow(at), ranges.countBelow(until), size, fit);
        }
    }

    /**
     * Steps 2 and 3: pins the buffers live at {@code t2} and not at {@code t}, writing their
     * offsets into {@code offset} (which holds the stack's).
     *
     * @param stacked the buffers of the stack at {@code t}, placed
     */
    static Pinned placePins(Problem p, int[] order, int[] stacked, long t, long t2, long[] offset, long deadline) {
        return placePins(p, order, stacked, t, new long[] {t2}, offset, deadline);
    }

    /**
     * As {@link #placePins(Problem, int[], int[], long, long, long[], long)}, pinning the buffers
     * live at any of {@code instants} on the side of the first (the others ignored) and not at
     * {@code t}. They need not all meet: a pinned buffer that ended by a later one's start
     * (backward: starts at or after its end) is freed for it, as the stack's are.
     */
    static Pinned placePins(Problem p, int[] order, int[] stacked, long t, long[] instants, long[] offset, long deadline) {
        boolean forward = instants[0] > t;
        int c = 0;
        for (int i : order) if (pinnedAt(p, i, t, instants, forward)) c++;
        int[] pins = new int[c];
        long[] keys = new long[c];
        long[] pinLeaves = new long[c];
        c = 0;
        for (int i : order) {                 // in the order: ties keep its rank
            if (pinnedAt(p, i, t, instants, forward)) {
                pins[c] = i;
                pinLeaves[c] = forward ? p.upper(i) : -p.lower(i);
                keys[c++] = forward ? p.lower(i) : -p.upper(i);
            }
        }
        int[] byKey = Orders.sortedByKeys(deadline, c, keys);
        int[] pinsLeaving = instants.length == 1 ? new int[0] : Orders.sortedByKeys(deadline, c, pinLeaves);   // one instant: all meet
        long[] stackKeys = new long[stacked.length];   // when each stack buffer leaves, in the pins' sweep time
        for (int k = 0; k < stacked.length; k++) stackKeys[k] = forward ? p.upper(stacked[k]) : -p.lower(stacked[k]);
        int[] leaving = Orders.sortedByKeys(deadline, stacked.length, stackKeys);
        FreeGaps free = new FreeGaps();
        long stackTop = 0;
        for (int i : stacked) stackTop = Math.max(stackTop, offset[i] + p.alignedSize(i));
        free.take(0, stackTop);
        boolean[] pinned = new boolean[p.size()];
        int[] buffers = new int[c];
        int ranged = 0;
        long top = stackTop;
        int s = 0, l = 0;
        for (int k = 0; k < c; k++) {
            int i = pins[byKey[k]];
            long at = keys[byKey[k]];
            while (s < stacked.length && stackKeys[leaving[s]] <= at) {   // ended by its start (backward: starts at or after its end)
                int j = stacked[leaving[s++]];
                free.free(offset[j], offset[j] + p.alignedSize(j));
            }
            while (l < pinsLeaving.length && pinLeaves[pinsLeaving[l]] <= at) {   // placed before it (its key is below its leaving)
                int j = pins[pinsLeaving[l++]];
                if (p.alignedSize(j) > 0) free.free(offset[j], offset[j] + p.alignedSize(j));
            }
            long size = p.alignedSize(i);
            if (size == 0) {
                offset[i] = 0;
            } else {
                FreeGaps.Walk w = free.smallestHolding(size);
                offset[i] = w.next() ? w.start : free.top();
                free.take(offset[i], offset[i] + size);
                top = Math.max(top, offset[i] + size);
                ranged++;
            }
            buffers[k] = i;
            pinned[i] = true;
        }
        long[] rangeKey = new long[ranged], from = new long[ranged], to = new long[ranged];
        int r = 0;
        for (int k = 0; k < c; k++) {
            int i = buffers[k];
            if (p.alignedSize(i) == 0) continue;
            rangeKey[r] = keys[byKey[k]];
            from[r] = offset[i];
            to[r++] = offset[i] + p.alignedSize(i);
        }
        return new Pinned(buffers, pinned, top, forward, new LaterRanges(rangeKey, from, to));
    }

    /** Whether {@code i} is live at one of {@code instants} on the {@code forward} side of {@code t}, and not at {@code t}. */
    private static boolean pinnedAt(Problem p, int i, long t, long[] instants, boolean forward) {
        if (liveAt(p, i, t)) return false;
        for (long t2 : instants) if ((t2 > t) == forward && liveAt(p, i, t2)) return true;
        return false;
    }

    private static boolean liveAt(Problem p, int i, long t) {
        return p.lower(i) <= t && t < p.upper(i);
    }
}
