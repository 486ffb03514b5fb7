package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.arenaplan.plan.Fixtures.buf;
import static org.arenaplan.plan.Fixtures.problem;
import static org.assertj.core.api.Assertions.assertThat;

class SweepPlacerTest {
    /** Random problems with many equal starts and ends, zero sizes and long and short lives. */
    static Problem random(Random r) {
        return Fixtures.randomProblem(r, 300, 60, 60,
                x -> x.nextInt(12) == 0 ? 0 : x.nextBoolean() ? 1 + x.nextInt(64) : 1 + x.nextInt(5000));
    }

    private static void assertValid(Problem p, GreedyPlacer.Result res, String what) {
        long[] off = res.offsets();
        assertThat(PlacementValidator.validate(p, off, Placement.arenaOf(p, off), null)).as(what).isEmpty();
    }

    @Test
    void everySweptPlacementIsValid() {
        Random r = new Random(17);
        double[] shares = {0, 0.3, SweepPlacer.HEAVY_HALF, 0.9};
        for (int round = 0; round < 400; round++) {
            Problem p = random(r);
            for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
                for (double share : shares) {
                    GreedyPlacer.Result res = SweepPlacer.place(p, Orders.bySizeDesc(p), fit, share, GreedyPlacer.NO_DEADLINE);
                    assertThat(res.complete()).isTrue();
                    assertValid(p, res, "round " + round + " " + fit + " share " + share);
                }
            }
        }
    }

    @Test
    void theWholeAreaPlacedExactlyIsTheExactPlacement() {
        Random r = new Random(5);
        for (int round = 0; round < 100; round++) {
            Problem p = random(r);
            int[] order = Orders.byDurationDesc(p, GreedyPlacer.NO_DEADLINE);
            for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
                long[] exact = GreedyPlacer.placePrefix(p, order, order.length, fit, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE).offsets();
                GreedyPlacer.Result all = SweepPlacer.place(p, order, fit, 1.0, GreedyPlacer.NO_DEADLINE);
                assertThat(all.offsets()).as("round " + round).containsExactly(exact);
                assertThat(all.swept()).isFalse();
            }
        }
    }

    @Test
    void aLightBufferAvoidsAHeavyOneThatStartsDuringItsLife() {
        // h (heavy, 100 B over [5, 10)) is placed first, at 0. At time 0 the free list is empty,
        // so without the check the light buffer l (10 B over [0, 10)) would go to 0, under h.
        Problem p = problem(1, buf("h", 100, 5, 10), buf("l", 10, 0, 10));
        GreedyPlacer.Result res = SweepPlacer.place(p, Orders.bySizeDesc(p), GreedyPlacer.Fit.BEST, 0.5, GreedyPlacer.NO_DEADLINE);
        assertThat(res.offsets()).containsExactly(0, 100);
        assertThat(res.swept()).isTrue();
    }

    @Test
    void aLightBufferTakesTheSmallestFreeGapNowOrTheLowest() {
        // Heavy, placed exactly in this order, each on top: a [0,10) at 0..50, b [0,2) at 50..80,
        // c [0,10) at 80..120, d [0,2) at 120..130, e [0,10) at 130..200 (96 % of the area). At
        // time 2 b and d have ended: gaps of 30 B at 50 and 10 B at 120 for l (8 B over [2,10)).
        Problem p = problem(1, buf("a", 50, 0, 10), buf("b", 30, 0, 2), buf("c", 40, 0, 10), buf("d", 10, 0, 2),
                buf("e", 70, 0, 10), buf("l", 8, 2, 10));
        int[] order = {0, 1, 2, 3, 4, 5};
        long[] bestFit = SweepPlacer.place(p, order, GreedyPlacer.Fit.BEST, 0.96, GreedyPlacer.NO_DEADLINE).offsets();
        long[] firstFit = SweepPlacer.place(p, order, GreedyPlacer.Fit.FIRST, 0.96, GreedyPlacer.NO_DEADLINE).offsets();
        assertThat(bestFit).containsExactly(0, 50, 80, 120, 130, 120);
        assertThat(firstFit[5]).as("the lowest gap").isEqualTo(50);
    }

    @Test
    void wideTracesPastTheExactBudgetAreSweptAndValid() {
        Problem p = WideTraces.generate(3, 24_000, 6_000);
        assertThat(p.overlappingPairs()).isGreaterThan(GreedyPlacer.EXACT_PAIRS);
        for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
            GreedyPlacer.Result res = GreedyPlacer.place(p, Orders.bySizeDesc(p), fit, GreedyPlacer.NO_DEADLINE);
            assertThat(res.swept()).isTrue();
            assertThat(res.complete()).isTrue();
            assertValid(p, res, fit.name());
        }
        Placement best = new BestPlanner().place(p);
        assertThat(best.planner()).contains("swept");
        assertThat(PlacementValidator.validate(p, best)).isEmpty();
    }

    @Test
    void aPassedDeadlineStacksWhatIsLeftValidly() {
        Problem p = WideTraces.generate(3, 6_000, 900);
        for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
            GreedyPlacer.Result res = SweepPlacer.place(p, Orders.bySizeDesc(p), fit, 0.5, System.nanoTime() - 1);
            assertThat(res.complete()).isFalse();
            assertValid(p, res, fit.name());
        }
    }
}
