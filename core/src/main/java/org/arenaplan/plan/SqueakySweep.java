package org.arenaplan.plan;

import java.util.Arrays;

/**
 * Two {@link PeakSweep}s, the stack at the widest instant by start and by end, the smaller one
 * again with a second stack where it made its arena ({@link SecondStack}), one
 * squeaky-wheel round after the smaller peak sweep (Joslin and Clements, 1999, as {@link SqueakyWheel} does
 * for exact placement: the buffers that it left above the lower bound join the heavy ones of a
 * {@link SweepPlacer} run, placed exactly before them), a third peak sweep with the stack by
 * the nearer end; after the second stack, a peak sweep with the stack by start with a hole; the smallest arena kept. Used by
 * {@link GreedyBreadthPlanner} on the problems that are swept, and without the rounds by
 * {@link GreedySizePlanner} (steps 1 to 3 only, step 3 without its round: in size order the two
 * peak sweeps are no worse than exact placement on all 24 seeds of 62,000 / 9,000 where the
 * heavy-half sweep lost on 6, and the round's exact placement of the heavy buffers is the part
 * of the cost that grows fastest with the width; docs/scale.md). There the heavy half of the area
 * in breadth order is a few hundred large buffers live at the widest instant, and a forward sweep
 * reaches that instant with its free list cut up by the buffers that started before it: on
 * {@code WideTraces.generate(5, 62_000, 9_000)} it leaves 66 buffers above the lower bound, at
 * arena / LB 1.00568, where exact placement in breadth order, which stacks the buffers live at
 * the widest instant first, gives 1.00136. The peak sweep packs that instant first, as exact
 * placement does: 1.00109. Which stack is the tighter depends on the trace (by start it empties
 * from its top going backward, by end going forward): seed 11 1.00383 by start, 1.00044 by end,
 * exact 1.00241; seed 3 1.00068 and 1.00921, exact 1.00474. Where both leave buffers on top, the
 * round may move them (seed 23: 1.00569, 1.00579, the round 1.00437, exact 1.00484;
 * docs/scale.md). Where the arena is made far from the widest instant, the second stack places
 * the buffers live there before the smaller ones that start earlier cut up the free list
 * (seed 20: 1.00555 by start, 1.00482 with the second stack, exact 1.00534; docs/scale.md).
 *
 * <p>Steps:
 * <ol>
 *   <li>The peak sweep with the stack by start ({@link PeakSweep.Stack#BY_START}: the buffers
 *       live at the widest instant stacked, the others swept outward from there into a free
 *       list, no checks; steps 1 and 2 are {@link PeakSweep#placeSmaller}). Stop here when it
 *       reaches the lower bound; where it was cut at the deadline, go on with step 3 alone. Its
 *       arena is offered to the bound of the steps below: each stops once past it.</li>
 *   <li>The peak sweep with the stack by end ({@link PeakSweep.Stack#BY_END_DESC}); kept when it
 *       finished strictly below the first, its arena then offered to the bound. Stop here when it
 *       reaches the lower bound. The peak sweep kept is "the peak sweep" below. Where both
 *       stopped at the bound (in {@link BestPlanner}, above another run's arena; the second is
 *       run even when the first stopped), or the second was cut with the first stopped, step 3
 *       alone.</li>
 *   <li>Where the heavy half of the area ({@link SweepPlacer#HEAVY_HALF}, in the order) is many
 *       buffers ({@link SweepPlacer#heavyIsFew} false) or past the budget
 *       ({@link SweepPlacer#heavyAffordable}), as before the peak sweep was added: as
 *       {@link SweepPlacer#placeSmaller}, the sweep of every buffer with none heavy (no checks),
 *       and, unless that reaches the lower bound or the heavy half is past the budget, the
 *       heavy-half sweep (stopped once above it) with a round after it as in steps 5 and 6 (its
 *       squeaky wheels those of the heavy-half sweep); the smallest kept, the peak sweep only
 *       when strictly smaller. Done. Without the rounds ({@code greedy-size}): where the heavy
 *       half is many buffers, {@link SweepPlacer#placeSmaller} alone, before step 1 (no peak
 *       sweep); where it is a few but past the budget, it after the peak sweeps as above; where
 *       it is a few and affordable, the peak sweep is the result (no step 4, 5 or 6).</li>
 *   <li>The second stack ({@link SecondStack}): the peak sweep again, with the same stack, after
 *       pinning the buffers live at the start (or, before the widest instant, the last instant)
 *       of the peak sweep's highest buffer and not at the widest instant, each swept buffer on
 *       their side checked against those it meets that the sweep has not reached; the other
 *       side copied from the peak sweep. Stopped once above the peak sweep's arena; kept when it
 *       finished strictly below it, its arena then offered to the bound. Stop here when it
 *       reaches the lower bound. Then, while the last run was kept (at most
 *       {@value #MORE_INSTANTS} more times): where that run's highest buffer gives an instant on
 *       the same side not pinned yet, the same run again pinning the buffers live at that
 *       instant too ({@link SecondStack#placePins(Problem, int[], int[], long, long[], long[], long)}),
 *       stopped once above the smallest arena so far, kept only when strictly smaller (seed 35
 *       of 62,000 / 9,000: 1.00153 to 1.00072 x LB, exact placement 1.00122; docs/scale.md).
 *       One instant alone would move the arena back where the last one made it. Step 4c,
 *       unless the smallest arena so far is the lower bound: the peak sweep stacked by start
 *       with a hole at the instant T2 that step 4 takes from the peak sweep stacked by start (its
 *       highest buffer's start, or last instant before the widest instant): the buffers of the
 *       stack that the sweep frees before it reaches T2 are moved to the top of the stack, by end
 *       (backward: by start), so that at T2 they leave one run of free bytes instead of gaps
 *       scattered through the stack ({@link PeakSweep#stackOrder(Problem, int[], long,
 *       PeakSweep.Stack, long, long)}); stopped once above the smallest arena so far and kept only
 *       when strictly smaller; where kept, its second stack at one instant, the same. Stop here
 *       when it reaches the lower bound. Where a buffer of the largest palette size starts a few
 *       hundred instants after the widest instant and finds no gap of its size, although the
 *       stack's buffers that ended by then sum to many times it (seed 69 of 62,000 / 9,000: 73
 *       buffers, 90 MB, for an 11.9 MB buffer), this gives it one: 1.00109 to 1.00000 x LB, exact
 *       placement 1.00069; 56 of seeds 1 to 95 tighter, none looser, and all 95 no worse than
 *       exact placement; docs/scale.md, scale12. Run before steps 5 to 7, which it makes
 *       unneeded where it reaches the lower bound (wide 620k / 90k); run after them instead, the
 *       arenas of seeds 1 to 95 are the same.</li>
 *   <li>The squeaky wheels: the buffers whose top the peak sweep left above the lower bound,
 *       highest first (ties: the order's rank), at most as many as the heavy buffers.</li>
 *   <li>The round: a {@link SweepPlacer} run with the heavy set being the squeaky wheels followed
 *       by the heavy half's buffers (in the order) and the rest light, in the order; it stops
 *       as soon as its buffers reach above the smallest arena of steps 1, 2 and 4 ({@link ArenaBound}; in
 *       {@link BestPlanner}, above the smallest arena of any finished run). Kept when it
 *       finished strictly below that.</li>
 *   <li>Unless the smallest arena so far is the lower bound: the peak sweep with the stack by the
 *       nearer end ({@link PeakSweep.Stack#BY_NEARER_END}: the buffers that stay live longest on
 *       their nearer side of the widest instant at the bottom), stopped once above the smallest
 *       arena so far and kept only when strictly smaller; then, where it was kept, its second
 *       stack at one instant (as step 4), the same. Where the arena is made on the forward side
 *       a few thousand instants past the widest instant by buffers of one size that find no gap
 *       of it, the stack by start leaves the buffers that end soon after that instant scattered
 *       through it; this stack puts them on top, whichever side they end on (seeds 47 and 59 of
 *       62,000 / 9,000: 1.00463 to 1.00398 and 1.00436 to 1.00319 x LB, exact placement 1.00431 and
 *       1.00386; seven of seeds 1 to 95 tighter, none looser; docs/scale.md, scale11).</li>
 * </ol>
 *
 * <p>Never worse than either peak sweep alone. Where the heavy half is a few buffers the
 * heavy-half sweep alone is no longer run (it was, last, until the second peak sweep took its
 * time): it was the smallest on none of 24 wide traces of 62,000 / 9,000 and 16 of other shapes
 * (docs/scale.md); on small random problems, which the planner places exactly, it is smaller 26
 * times in 600. Never worse than without step 4 either: the round is the same run, stopped
 * sooner. Cost: two {@link PeakSweep}s (O(n log n), no checks; a third in step 7, cut short where it loses), one to {@value #MORE_INSTANTS}
 * + 1 {@link SecondStack} runs (each the pinned side of a peak sweep, its buffers checked against
 * the k pinned ones in O(log^2 k) per check, the other side copied; a run after the first only
 * where the one before it won) and one {@link SweepPlacer}
 * run (with at most twice the heavy buffers), the last three cut short once past the smallest arena
 * so far, plus O(n + c log c) to find and sort the c buffers above the lower bound; where the
 * heavy half is many buffers, step 3's one or two sweeps instead of the round. Measured
 * (thread CPU time of {@code greedy-breadth}, medians of nine, three rounds against the peak
 * sweep, round and heavy-half sweep before, at load 10 to 13, so noisy; docs/scale.md): wide
 * 62k / 9k seed 42 221 to 210 ms (1.00281 to 1.00004 x LB), seed 5 252 to 200 ms; wide
 * 620k / 90k 1,872 to 1,995 ms, within the rounds' spread (1.00050 both). By step, the second peak
 * sweep costs about what the heavy-half sweep did on 62k / 9k, half of it on 620k / 90k. Step 4
 * (same measure, three rounds against main without it, load 12 to 16; docs/scale.md): 37-63 ms
 * of CPU by step on 62k / 9k where it wins; seed 42 0.76-1.01x the time before (it reaches the
 * lower bound, so no round), seed 20 0.95-1.35x (1.00555 to 1.00482 x LB), 620k / 90k 1.08-1.29x
 * (1.00050 to 1.00040). Step 4b (same measure, two rounds against main without it, load 13 to
 * 28; docs/scale.md): where it wins (seeds 35, 61 of 62k / 9k) 0.9-1.5x the time before, seed 42
 * the same work (no step 4b), 620k / 90k one losing run (1.00040 both). Step 7: one more peak
 * sweep, cut short once it loses, and one second stack only where that won; nothing where an
 * earlier step reached the lower bound (seed 42 of 62k / 9k). Measured (thread CPU, load 14 to
 * 34; docs/scale.md): on 620k / 90k its peak sweep stops once above the earlier arena after
 * 30-92 ms, where a full peak sweep takes 705-815 ms (1.00040 x LB before and after). Step 4c:
 * as step 7, one more peak sweep and at most one second stack (its stack O(k log k) for the k
 * buffers live at the widest instant); nothing where an earlier step reached the lower bound.
 * Measured (thread CPU of {@code greedy-breadth}, two rounds, load 10 to 12; docs/scale.md): on
 * 620k / 90k, where it wins (1.00040 to 1.00000 x LB), warm runs 2,373 to 2,997 ms by the mean.
 *
 * <p>Deadline: every sweep reads it as {@link SweepPlacer} does; a later sweep cut by it is
 * thrown away, so the result stacks buffers only when the first peak sweep was cut (and, in step
 * 3, the first sweep there); where a later one was cut, the result kept says so
 * ({@link GreedyPlacer#keptOver}: the planner's label says "cut at the time limit", as the
 * arena may be above what the steps give without one).
 */
final class SqueakySweep {
    /** Step 4b: at most this many more second-stack runs, each adding an instant. */
    static final int MORE_INSTANTS = 3;

    private SqueakySweep() { }

    /**
     * As {@link GreedyPlacer#place(Problem, int[], GreedyPlacer.Fit, long, ArenaBound)}, with the
     * squeaky round where that would sweep: exact placement where it is affordable
     * ({@link GreedyPlacer#byCost}), else {@link #place(Problem, int[], GreedyPlacer.Fit, long, ArenaBound)}.
     * What {@code greedy-breadth} runs ({@code rounds} true) and {@code greedy-size} (false),
     * alone and as candidates of {@link BestPlanner}.
     */
    static GreedyPlacer.Result placeOrExact(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound, boolean rounds) {
        return GreedyPlacer.byCost(p, order, deadline, () -> GreedyPlacer.place(p, order, fit, deadline, bound), () -> place(p, order, fit, deadline, bound, rounds));
    }

    /**
     * @param order    the buffers in placement order (a permutation of the problem's indices)
     * @param deadline a {@link System#nanoTime()} value, or {@link GreedyPlacer#NO_DEADLINE}
     * @return the smallest arena of the sweeps (ties: as the steps say); always a placement of every buffer
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline) {
        return place(p, order, fit, deadline, ArenaBound.NONE);
    }

    /**
     * @param bound shared with other runs ({@link BestPlanner}): the arenas of the runs that
     *              finish are offered to it, and the runs stop once above it, except the first
     *              sweep of step 3: the round after a losing first sweep may still win (on
     *              {@code WideTraces.generate(1, 24_000, 6_000)} it did before the peak sweep was
     *              added)
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound) {
        return place(p, order, fit, deadline, bound, true);
    }

    /**
     * @param rounds false: no second stack (step 4) and no squeaky-wheel round, neither step 6
     *               nor the one after step 3's heavy-half sweep (step 3 is then {@link SweepPlacer#placeSmaller}, and where
     *               the heavy half is a few buffers the peak sweep is the result), and where the
     *               heavy half is many buffers (sizes alike) {@link SweepPlacer#placeSmaller}
     *               alone, with no peak sweep: what {@code greedy-size} runs
     *               ({@link GreedySizePlanner}); the round places the heavy buffers exactly, the
     *               part of the cost that grows fastest with the width, and on the traces with
     *               sizes alike of docs/scale.md the peak sweeps never won
     */
    static GreedyPlacer.Result place(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound, boolean rounds) {
        int heavy = SweepPlacer.heavyPrefix(p, order, SweepPlacer.HEAVY_HALF);
        if (!rounds && !SweepPlacer.heavyIsFew(p, heavy)) return SweepPlacer.placeSmaller(p, order, fit, deadline, bound);
        PeakSweep.Kept kept = PeakSweep.smaller(p, order, fit, deadline, bound);   // steps 1 and 2
        GreedyPlacer.Result peak = kept.result();
        if (peak.outrun() || !peak.complete()) return step3(p, order, fit, deadline, bound, rounds);   // both stopped at the bound, or cut
        long lb = p.lowerBound();
        long peakArena = Placement.arenaOf(p, peak.offsets());
        if (peakArena <= lb) return peak;                                    // optimal
        ArenaBound beat = bound == ArenaBound.NONE ? new ArenaBound() : bound;
        beat.offer(peakArena);   // a finished run's arena: the runs below stop once above it
        if (!SweepPlacer.heavyIsFew(p, heavy) || !SweepPlacer.heavyAffordable(p, order, heavy) || heavy >= p.size()) {
            GreedyPlacer.Result swept = step3(p, order, fit, deadline, beat, rounds);
            if (swept.outrun() || !swept.complete()) return GreedyPlacer.keptOver(peak, swept);   // past the peak sweeps' arena, or cut
            return Placement.arenaOf(p, swept.offsets()) <= peakArena ? swept : GreedyPlacer.keptOver(peak, swept);
        }
        if (!rounds) return peak;
        GreedyPlacer.Result best = peak;                                     // step 4: the second stack
        long bestArena = peakArena;
        long t = PeakSweep.widestInstant(p.liveBytes(deadline));
        long[] instants = {SecondStack.secondInstant(p, peak.offsets(), t)};
        for (int run = 0; run <= MORE_INSTANTS; run++) {                     // step 4, then 4b while it wins
            GreedyPlacer.Result second = PeakSweep.place(p, order, fit, kept.stack(), instants, peak.offsets(), deadline, beat);
            if (second.outrun() || !second.complete() || Placement.arenaOf(p, second.offsets()) >= bestArena) {
                best = GreedyPlacer.keptOver(best, second);
                break;
            }
            best = second;
            bestArena = Placement.arenaOf(p, second.offsets());
            if (bestArena <= lb) return best;                                // optimal
            beat.offer(bestArena);
            long next = SecondStack.secondInstant(p, second.offsets(), t);
            if ((next > t) != (instants[0] > t) || Arrays.stream(instants).anyMatch(x -> x == next)) break;   // the other side, or pinned already
            instants = Arrays.copyOf(instants, instants.length + 1);
            instants[instants.length - 1] = next;
        }
        long[] byStart = kept.byStart() != null ? kept.byStart() : peak.offsets();   // step 4c
        best = otherStack(p, order, fit, t, PeakSweep.Stack.BY_START, SecondStack.secondInstant(p, byStart, t), best, bestArena, deadline, beat);
        bestArena = Placement.arenaOf(p, best.offsets());
        if (bestArena <= lb) return best;
        Reordered next = squeakyFirst(p, order, heavy, peak.offsets(), lb);   // steps 5 and 6
        GreedyPlacer.Result round = SweepPlacer.placeHeavy(p, next.order(), fit, next.heavy(), deadline, beat);
        if (!round.outrun() && round.complete() && Placement.arenaOf(p, round.offsets()) < bestArena) {
            best = round;
            bestArena = Placement.arenaOf(p, round.offsets());
            beat.offer(bestArena);
        } else {
            best = GreedyPlacer.keptOver(best, round);
        }
        return otherStack(p, order, fit, t, PeakSweep.Stack.BY_NEARER_END, PeakSweep.NO_HOLE, best, bestArena, deadline, beat);   // step 7
    }

    /**
     * Steps 4c and 7: the peak sweep with {@code stack} and {@code hole}, then its second stack at
     * one instant, each stopped once above the smallest arena so far and kept only when strictly
     * smaller; nothing where {@code bestArena} is the lower bound already.
     */
    private static GreedyPlacer.Result otherStack(Problem p, int[] order, GreedyPlacer.Fit fit, long t, PeakSweep.Stack stack, long hole, GreedyPlacer.Result best, long bestArena, long deadline, ArenaBound beat) {
        if (bestArena <= p.lowerBound()) return best;
        GreedyPlacer.Result other = PeakSweep.place(p, order, fit, stack, hole, null, null, deadline, beat);
        if (other.outrun() || !other.complete() || Placement.arenaOf(p, other.offsets()) >= bestArena) return GreedyPlacer.keptOver(best, other);
        long otherArena = Placement.arenaOf(p, other.offsets());
        if (otherArena <= p.lowerBound()) return other;                      // optimal
        beat.offer(otherArena);
        long[] instants = {SecondStack.secondInstant(p, other.offsets(), t)};
        GreedyPlacer.Result second = PeakSweep.place(p, order, fit, stack, hole, instants, other.offsets(), deadline, beat);
        if (second.outrun() || !second.complete() || Placement.arenaOf(p, second.offsets()) >= otherArena) return GreedyPlacer.keptOver(other, second);
        return second;
    }

    private static GreedyPlacer.Result step3(Problem p, int[] order, GreedyPlacer.Fit fit, long deadline, ArenaBound bound, boolean rounds) {
        return rounds ? sweepAndRound(p, order, fit, deadline, bound) : SweepPlacer.placeSmaller(p, order, fit, deadline, bound);
    }

    /** Step 3: the sweeps of {@link SweepPlacer#placeSmaller} and a round after the heavy-half one, the smallest kept. */
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
        if (withRound.outrun() || !withRound.complete()) return GreedyPlacer.keptOver(none, withRound);
        return Placement.arenaOf(p, withRound.offsets()) <= noneArena ? withRound : GreedyPlacer.keptOver(none, withRound);
    }

    /**
     * The heavy-half sweep of step 3 (stopped once above {@code firstBound}), its squeaky wheels
     * (as step 5), the round after it (as step 6, stopped once above the heavy-half sweep's
     * arena or {@code bound}), the smaller kept.
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
        if (second.outrun() || !second.complete()) return GreedyPlacer.keptOver(first, second);
        return Placement.arenaOf(p, second.offsets()) < arena ? second : GreedyPlacer.keptOver(first, second);
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
