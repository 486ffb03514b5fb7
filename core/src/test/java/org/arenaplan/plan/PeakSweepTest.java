package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.arenaplan.plan.Fixtures.buf;
import static org.arenaplan.plan.Fixtures.problem;
import static org.assertj.core.api.Assertions.assertThat;

class PeakSweepTest {
    private static long arena(Problem p, GreedyPlacer.Result r) {
        return Placement.arenaOf(p, r.offsets());
    }

    @Test
    void everyPlacementIsValidAndComplete() {
        Random r = new Random(29);
        for (int round = 0; round < 400; round++) {
            Problem p = SweepPlacerTest.random(r);
            for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
                for (int[] order : new int[][]{Orders.byBreadth(p), Orders.bySizeDesc(p)}) {
                    for (PeakSweep.Stack stack : PeakSweep.Stack.values()) {
                        GreedyPlacer.Result res = PeakSweep.place(p, order, fit, stack, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE);
                        assertThat(res.complete()).isTrue();
                        assertThat(res.swept()).isTrue();
                        assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null)).as("round " + round + " " + fit + " " + stack).isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void stacksTheWidestInstantByStartThenSweepsOutwardBothWays() {
        // Live bytes: 4 at 0 (a, e), 8 at 3 (a, b), 16 at 6 (a, b, c): the widest instant is 6.
        // Stack by start: a 0, b 4, c 8. Forward, d starts at 7 where c has ended: it takes c's
        // bytes. Backward, e ends at 3, where b and c (starting at or after 3) are freed: only a
        // is below it.
        Problem p = problem(1, buf("a", 4, 0, 10), buf("b", 4, 3, 10), buf("c", 8, 6, 7), buf("d", 8, 7, 9), buf("e", 4, 0, 3));
        GreedyPlacer.Result res = PeakSweep.place(p, Orders.byBreadth(p), GreedyPlacer.Fit.BEST, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE);
        assertThat(res.offsets()).containsExactly(0, 4, 8, 8, 4);
        assertThat(arena(p, res)).isEqualTo(p.lowerBound());
    }

    @Test
    void theStackByEndHasTheLatestEndAtTheBottom() {
        // Live at 6: a [0, 7), b [3, 10), c [5, 9). By start: a, b, c; by end, latest first: b
        // (10), c (9), a (7), so that going forward a ends first, from the top.
        Problem p = problem(1, buf("a", 4, 0, 7), buf("b", 4, 3, 10), buf("c", 8, 5, 9));
        int[] order = {0, 1, 2};
        assertThat(PeakSweep.stackOrder(p, order, 6, PeakSweep.Stack.BY_START, GreedyPlacer.NO_DEADLINE)).containsExactly(0, 1, 2);
        assertThat(PeakSweep.stackOrder(p, order, 6, PeakSweep.Stack.BY_END_DESC, GreedyPlacer.NO_DEADLINE)).containsExactly(1, 2, 0);
        GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_END_DESC, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE);
        assertThat(res.offsets()).containsExactly(12, 0, 4);
    }

    @Test
    void theStackWithAHoleLeavesOneGapForTheBufferStartingThere() {
        // Live at 2, the widest instant (12 B): a [0, 7), b [1, 10), c [2, 7). By start: a 0, b 4,
        // c 8; at 7 a and c end and leave two gaps of 4 B apart, so d [7, 9), 8 B, goes on top at
        // 8 (arena 16). With a hole at 7, a and c (ending by 7) go above b, by end: b 0, a 4, c 8;
        // at 7 they leave one run from 4 and d takes it: the lower bound, 12.
        Problem p = problem(1, buf("a", 4, 0, 7), buf("b", 4, 1, 10), buf("c", 4, 2, 7), buf("d", 8, 7, 9));
        int[] order = {0, 1, 2, 3};
        long nd = GreedyPlacer.NO_DEADLINE;
        assertThat(PeakSweep.stackOrder(p, order, 2, PeakSweep.Stack.BY_START, 7, nd)).containsExactly(1, 0, 2);
        assertThat(arena(p, PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, nd, ArenaBound.NONE))).isEqualTo(16);
        GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, 7, null, null, nd, ArenaBound.NONE);
        assertThat(res.offsets()).containsExactly(4, 0, 8, 4);
        assertThat(arena(p, res)).isEqualTo(p.lowerBound()).isEqualTo(12);
        // before the widest instant: those starting after the hole's instant go on top, by start
        assertThat(PeakSweep.stackOrder(p, order, 2, PeakSweep.Stack.BY_END_DESC, 0, nd)).containsExactly(0, 1, 2);
    }

    @Test
    void everyPlacementWithAHoleIsValidAndComplete() {
        Random r = new Random(31);
        long nd = GreedyPlacer.NO_DEADLINE;
        for (int round = 0; round < 300; round++) {
            Problem p = SweepPlacerTest.random(r);
            if (p.size() == 0) continue;
            int[] order = Orders.byBreadth(p);
            int i = r.nextInt(p.size());
            for (long hole : new long[] {p.lower(i), p.upper(i) - 1}) {
                for (PeakSweep.Stack stack : PeakSweep.Stack.values()) {
                    GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, stack, hole, null, null, nd, ArenaBound.NONE);
                    assertThat(res.complete()).isTrue();
                    assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null)).as("round " + round + " " + stack + " hole " + hole).isEmpty();
                    long[] instants = {SecondStack.secondInstant(p, res.offsets(), PeakSweep.widestInstant(p.liveBytes(nd)))};
                    GreedyPlacer.Result second = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, stack, hole, instants, res.offsets(), nd, ArenaBound.NONE);
                    assertThat(PlacementValidator.validate(p, second.offsets(), arena(p, second), null)).as("round " + round + " " + stack + " hole " + hole + ", second stack").isEmpty();
                }
            }
        }
    }

    @Test
    void reachesTheLowerBoundOnAWideTraceWhereTheForwardSweepAndExactPlacementDoNot() {
        // WideTraces.generate(4, 12_400, 1_800): the forward sweep with its round gives 1.0043 x
        // LB; exact placement in breadth order and this sweep give the lower bound (docs/scale.md).
        Problem p = WideTraces.generate(4, 12_400, 1_800);
        int[] order = Orders.byBreadth(p);
        GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE);
        assertThat(arena(p, res)).isEqualTo(p.lowerBound());
        int heavy = SweepPlacer.heavyPrefix(p, order, SweepPlacer.HEAVY_HALF);
        assertThat(arena(p, SweepPlacer.placeHeavy(p, order, GreedyPlacer.Fit.BEST, heavy, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE)))
                .isGreaterThan(p.lowerBound());
    }

    @Test
    void aPassedDeadlineGivesAValidCutPlacement() {
        Problem p = WideTraces.generate(4, 3_000, 400);
        GreedyPlacer.Result res = PeakSweep.place(p, Orders.byBreadth(p), GreedyPlacer.Fit.BEST, System.nanoTime() - 1, ArenaBound.NONE);
        assertThat(res.complete()).isFalse();
        assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null)).isEmpty();
    }

    @Test
    void stopsOnceAboveTheBound() {
        Problem p = WideTraces.generate(4, 3_000, 400);
        ArenaBound bound = new ArenaBound();
        bound.offer(p.lowerBound() - 1);   // nothing can end below the lower bound
        assertThat(PeakSweep.place(p, Orders.byBreadth(p), GreedyPlacer.Fit.BEST, GreedyPlacer.NO_DEADLINE, bound).outrun()).isTrue();
    }
}
