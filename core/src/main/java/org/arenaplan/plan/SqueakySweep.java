package org.arenaplan.plan;

import java.util.Arrays;

/**
 * A {@link SweepPlacer} run followed by one squeaky-wheel round (Joslin and Clements, 1999, as
 * {@link SqueakyWheel} does for exact placement): the light buffers that the sweep left above
 * the lower bound join the heavy ones, placed exactly before them. Used by
 * {@link GreedyBreadthPlanner} on the problems that are swept: there the heavy half of the area
 * in breadth order is a few hundred large buffers live at the widest instant, and the sweep's
 * free list, which sees only the present, leaves a few light buffers stacked on top (on
 * {@code WideTraces.generate(42, 62_000, 9_000)}: three 10 MB buffers, one live a single instant,
 * at arena / LB 1.00473 where exact placement gives 1.00334; docs/scale.md).
 *
 * <p>Steps:
 * <ol>
 *   <li>Only where the heavy half of the area is many buffers ({@link SweepPlacer#heavyIsFew}
 *       false, as {@link SweepPlacer#placeSmaller}): sweep every buffer into the free list, none
 *       heavy (no checks); stop with it when it reaches the lower bound, or when the heavy half's
 *       exact placement is past the budget ({@link SweepPlacer#heavyAffordable}).</li>
 *   <li>Sweep: {@link SweepPlacer} with the heavy half of the area ({@link SweepPlacer#HEAVY_HALF})
 *       exact (stopped once above the sweep of step 1, if run); its arena is the one to beat.
 *       Stop here when it was cut at the deadline or is the lower bound.</li>
 *   <li>The squeaky wheels: the buffers whose top ends above the lower bound, highest first
 *       (ties: the order's rank), at most as many as the heavy buffers.</li>
 *   <li>Second sweep, with the heavy set being the squeaky wheels followed by the former heavy
 *       buffers (in the order) and the rest light, in the order; it stops as soon as its
 *       buffers reach above the first arena ({@link ArenaBound}; in {@link BestPlanner}, above
 *       the smallest arena of any finished run).</li>
 *   <li>Keep the smallest arena: the round's only when it finished and is strictly smaller; then
 *       the heavy-half sweep over the sweep of every buffer on ties.</li>
 * </ol>
 *
 * <p>Never worse than any of its sweeps alone. Cost: two {@link SweepPlacer} runs (the second
 * with at most twice the heavy buffers, and cut short when it loses), a third with no heavy
 * buffer and no checks (O(n log n)) where the heavy half is many buffers, plus O(n + c log c) to
 * find and sort the c buffers above the lower bound. Measured (thread CPU time, docs/scale.md):
 * wide 62k / 9k about 2x one sweep, arena / LB 1.00473 to 1.00282; wide 620k / 90k and 1M / 10k
 * keep the first sweep (the round stops early).
 *
 * <p>Deadline: every sweep reads it as {@link SweepPlacer} does; a later sweep cut by it is
 * thrown away, so the result is cut only when the first sweep was.
 */
final class SqueakySweep {
    private SqueakySweep() { }

    /**
     * As {@link GreedyPlacer#place(Problem, int[], GreedyPlacer.Fit, long, ArenaBound)}, with the
     * squeaky round where that would sweep: exact placement where it is affordable
     * ({@link GreedyPlacer#byCost}), else {@link #place(Problem, int[], GreedyPlacer.Fit, long, ArenaBound)}.
     * What {@code greedy-breadth} runs, alone and as a candidate of {@link BestPlanner}.
     */
    static GreedyPlacer.Result placeOrExact(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        return GreedyPlacer.byCost(p, order, deadline, () -> GreedyPlacer.place(p, order, fit, deadline, bound), () -> place(p, order, fit, deadline, bound));
    }

    /**
     * @param order    the buffers in placement order (a permutation of the problem's indices)
     * @param deadline a {@link System#nanoTime()} value, or {@link GreedyPlacer#NO_DEADLINE}
     * @return the smaller of the two sweeps (the first on ties); always a placement of every buffer
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline) {
        return place(p, order, fit, deadline, ArenaBound.NONE);
    }

    /**
     * @param bound shared with other runs ({@link BestPlanner}): the first sweep's arena is
     *              offered to it, and the second sweep stops once above it. The first sweep is
     *              not stopped by it: the round after a losing first sweep may still win (on
     *              {@code WideTraces.generate(1, 24_000, 6_000)} it does)
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        GreedyPlacer.Result peak = PeakSweep.place(p, order, fit, deadline, bound);
        if (peak.outrun() || !peak.complete()) return sweepAndRound(p, order, fit, deadline, bound);
        long peakArena = Placement.arenaOf(p, peak.offsets());
        ArenaBound beatPeak = bound == ArenaBound.NONE ? new ArenaBound() : bound;
        beatPeak.offer(peakArena);      // a finished run's arena: the round stops once above it
        GreedyPlacer.Result swept = sweepAndRound(p, order, fit, deadline, beatPeak);
        if (swept.outrun() || !swept.complete()) return peak;       // past the peak sweep's arena, or cut

        return Placement.arenaOf(p, swept.offsets()) <= peakArena ? swept : peak;
    }

    /** Steps 2 to 6 (step 1 where it applies): the sweeps and the round, the smallest kept. */
    private static GreedyPlacer.Result sweepAndRound(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        int heavy = SweepPlacer.heavyPrefix(p, order, SweepPlacer.HEAVY_HALF);
        boolean affordable = SweepPlacer.heavyAffordable(p, order, heavy);
        if (SweepPlacer.heavyIsFew(p, heavy) && affordable) return placeWithRound(p, order, fit, heavy, deadline, bound, ArenaBound.NONE);
        GreedyPlacer.Result none = SweepPlacer.placeHeavy(p, order, fit, 0, deadline, bound);
        if (none.outrun()) return affordable ? placeWithRound(p, order, fit, heavy, deadline, bound, ArenaBound.NONE) : none;
        if (!none.complete()) return none;                                   // cut at the deadline
        long noneArena = Placement.arenaOf(p, none.offsets());
        if (noneArena <= p.lowerBound() || !affordable) return none;         // optimal, or the heavy half too costly
        ArenaBound beatNone = new ArenaBound();
        beatNone.offer(noneArena);
        GreedyPlacer.Result withRound = placeWithRound(p, order, fit, heavy, deadline, bound, beatNone);
        if (withRound.outrun() || !withRound.complete()) return none;
        return Placement.arenaOf(p, withRound.offsets()) <= noneArena ? withRound : none;
    }

    /**
     * Steps 2 to 5: the heavy-half sweep (stopped once above {@code firstBound}), the squeaky
     * wheels, the round (stopped once above the first sweep's arena or {@code bound}), the
     * smaller kept.
     */
    private static GreedyPlacer.Result placeWithRound(Problem p, int[] order, GreedyPlacer.Fit fit, int heavy, long deadline, ArenaBound bound, ArenaBound firstBound) {
        GreedyPlacer.Result first = SweepPlacer.placeHeavy(p, order, fit, heavy, deadline, firstBound);
        if (first.outrun() || !first.complete() || heavy >= p.size()) return first;
        long lb = p.lowerBound();
        long arena = Placement.arenaOf(p, first.offsets());
        if (arena <= lb) return first;
        Reordered next = squeakyFirst(p, order, heavy, first.offsets(), lb);
        ArenaBound beat = bound == ArenaBound.NONE ? new ArenaBound() : bound;
        beat.offer(arena);   // a finished run's arena: the second must end strictly below it to count
        GreedyPlacer.Result second = SweepPlacer.placeHeavy(p, next.order(), fit, next.heavy(), deadline, beat);
        if (second.outrun() || !second.complete()) return first;
        return Placement.arenaOf(p, second.offsets()) < arena ? second : first;
    }

    /** A placement order and how many of its first buffers are heavy (placed exactly). */
    record Reordered(int[] order, int heavy) { }

    /**
     * The next order and its heavy count: the buffers whose top
     * ({@code offsets[i] + size}) is above {@code line}, highest first, at most {@code heavy} of
     * them; then the rest of {@code order[0 .. heavy)} (heavy, all of these); then the other
     * buffers, in the order.
     */
    static Reordered squeakyFirst(Problem p, int[] order, int heavy, long[] offsets, long line) {
        int n = order.length;
        int[] above = new int[n];
        int count = 0;
        for (int i : order) if (offsets[i] + p.alignedSize(i) > line) above[count++] = i;
        long[] negTop = new long[count];
        for (int a = 0; a < count; a++) negTop[a] = -(offsets[above[a]] + p.alignedSize(above[a]));
        int[] byTop = Orders.sortedByKeys(count, negTop);   // ties by position: the order's rank
        int squeaky = Math.min(count, heavy);
        boolean[] front = new boolean[n];
        int[] next = new int[n];
        int k = 0;
        for (int a = 0; a < squeaky; a++) {
            next[k++] = above[byTop[a]];
            front[above[byTop[a]]] = true;
        }
        for (int r = 0; r < heavy; r++) if (!front[order[r]]) next[k++] = order[r];
        int heavyNext = k;
        for (int r = heavy; r < n; r++) if (!front[order[r]]) next[k++] = order[r];
        return new Reordered(next, heavyNext);
    }
}
