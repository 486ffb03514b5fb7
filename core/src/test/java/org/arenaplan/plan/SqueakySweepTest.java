package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.arenaplan.plan.Fixtures.buf;
import static org.arenaplan.plan.Fixtures.problem;
import static org.assertj.core.api.Assertions.assertThat;

class SqueakySweepTest {
    private static long arena(Problem p, GreedyPlacer.Result r) {
        return Placement.arenaOf(p, r.offsets());
    }

    private static long sweptOnce(Problem p, int[] order, GreedyPlacer.Fit fit) {
        return arena(p, SweepPlacer.place(p, order, fit, SweepPlacer.HEAVY_HALF, GreedyPlacer.NO_DEADLINE));
    }

    @Test
    void validAndNeverWorseThanEitherPeakSweepAlone() {
        // Not "never worse than the heavy-half sweep alone": that sweep is no longer run where the
        // heavy half is a few buffers (on these small problems it is smaller 26 times in 600;
        // they are placed exactly by the planner; docs/scale.md).
        Random r = new Random(23);
        for (int round = 0; round < 300; round++) {
            Problem p = SweepPlacerTest.random(r);
            for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
                int[] order = Orders.byBreadth(p);
                GreedyPlacer.Result res = SqueakySweep.place(p, order, fit, GreedyPlacer.NO_DEADLINE);
                assertThat(res.complete()).isTrue();
                long a = arena(p, res);
                assertThat(PlacementValidator.validate(p, res.offsets(), a, null)).as("round " + round + " " + fit).isEmpty();
                for (PeakSweep.Stack stack : new PeakSweep.Stack[] {PeakSweep.Stack.BY_START, PeakSweep.Stack.BY_END_DESC})   // steps 1 and 2; step 7's stack runs on one path only
                    assertThat(a).as("round " + round + " " + fit + " " + stack)
                            .isLessThanOrEqualTo(arena(p, PeakSweep.place(p, order, fit, stack, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE)));
            }
        }
    }

    @Test
    void whereTheStackByStartLosesToExactPlacementTheStackByEndWins() {
        // WideTraces.generate(seed, 12_400, 1_800), seeds 9 and 13 (small enough to place exactly
        // here): the peak sweep with its stack by start, and its round, lose to exact placement in
        // breadth order (seed 9: 1.00982 x LB against 1.00877; seed 13: 1.01096 against 1.01040);
        // with the stack by end, latest at the bottom, 1.00386 and 1.00252 (docs/scale.md).
        for (long seed : new long[]{9, 13}) {
            Problem p = WideTraces.generate(seed, 12_400, 1_800);
            int[] order = Orders.byBreadth(p);
            long exact = Placement.arenaOf(p, GreedyPlacer.placePrefix(p, order, order.length, GreedyPlacer.Fit.BEST,
                    GreedyPlacer.NO_DEADLINE, ArenaBound.NONE).offsets());
            long byStart = arena(p, PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE));
            GreedyPlacer.Result res = SqueakySweep.place(p, order, GreedyPlacer.Fit.BEST, GreedyPlacer.NO_DEADLINE);
            assertThat(byStart).as("seed " + seed + ": the stack by start loses").isGreaterThan(exact);
            assertThat(arena(p, res)).as("seed " + seed).isLessThanOrEqualTo(exact);
            assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null)).isEmpty();
        }
    }

    @Test
    void onWideTracesItIsNoWorseThanExactPlacement() {
        // Generated wide traces (below the exact budget, so placed here by hand both ways). On
        // seeds 2, 3 and 4 one sweep in breadth order is looser than exact breadth placement:
        // 1.0111 x LB against 1.0054, 1.0107 against 1.0075, 1.0128 against 1.0000. The round
        // makes up for it on 2 and 3, not on 4 (1.0043); the peak sweep reaches 1.0000 there
        // (docs/scale.md).
        for (long seed : new long[]{2, 3, 4}) {
            Problem p = WideTraces.generate(seed, 12_400, 1_800);
            int[] order = Orders.byBreadth(p);
            long exact = Placement.arenaOf(p, GreedyPlacer.placePrefix(p, order, order.length, GreedyPlacer.Fit.BEST,
                    GreedyPlacer.NO_DEADLINE, ArenaBound.NONE).offsets());
            long once = sweptOnce(p, order, GreedyPlacer.Fit.BEST);
            GreedyPlacer.Result res = SqueakySweep.place(p, order, GreedyPlacer.Fit.BEST, GreedyPlacer.NO_DEADLINE);
            assertThat(once).as("seed " + seed + ": the sweep alone loses").isGreaterThan(exact);
            assertThat(arena(p, res)).as("seed " + seed).isLessThanOrEqualTo(exact);
            assertThat(res.swept()).isTrue();
            assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null)).isEmpty();
        }
    }

    @Test
    void theSecondStackBeatsBothPeakSweepsAndTheRound() {
        // WideTraces.generate(seed, 12_400, 1_800), seeds 3 and 15 (SqueakySweep called directly:
        // the planner places this size exactly). Before the second stack SqueakySweep kept the
        // smallest of the two peak sweeps and the round after the smaller: 1.00572 and 1.00913 x
        // LB (seed 15: exact placement's 1.00913, no better); with it 1.00141 and 1.00457, below
        // all three (docs/scale.md). Where the second stack reaches the lower bound the round is
        // skipped, so it is not compared there.
        for (long seed : new long[]{3, 15}) {
            Problem p = WideTraces.generate(seed, 12_400, 1_800);
            int[] order = Orders.byBreadth(p);
            GreedyPlacer.Fit fit = GreedyPlacer.Fit.BEST;
            long lb = p.lowerBound();
            GreedyPlacer.Result peak = PeakSweep.placeSmaller(p, order, fit, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE);
            SqueakySweep.Reordered next = SqueakySweep.squeakyFirst(p, order, SweepPlacer.heavyPrefix(p, order, SweepPlacer.HEAVY_HALF), peak.offsets(), lb);
            long round = arena(p, SweepPlacer.placeHeavy(p, next.order(), fit, next.heavy(), GreedyPlacer.NO_DEADLINE, ArenaBound.NONE));
            long exact = Placement.arenaOf(p, GreedyPlacer.placePrefix(p, order, order.length, fit, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE).offsets());
            GreedyPlacer.Result res = SqueakySweep.place(p, order, fit, GreedyPlacer.NO_DEADLINE);
            long a = arena(p, res);
            assertThat(PlacementValidator.validate(p, res.offsets(), a, null)).isEmpty();
            for (PeakSweep.Stack stack : PeakSweep.Stack.values())
                assertThat(a).as("seed " + seed + " " + stack).isLessThan(arena(p, PeakSweep.place(p, order, fit, stack, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE)));
            assertThat(a).as("seed " + seed + ": the round").isLessThan(round);
            assertThat(a).as("seed " + seed + ": exact placement").isLessThanOrEqualTo(exact);
        }
    }

    @Test
    void theSecondStackAtMoreInstantsBeatsEveryEarlierStep() {
        // WideTraces.generate(18, 12_400, 1_800), SqueakySweep called directly (the planner places
        // this size exactly). Without step 4b SqueakySweep kept the smallest of the two peak
        // sweeps, the second stack at one instant and the round: 4,700,126,312 B (1.00301 x LB);
        // the second stack again, pinning also the buffers live where that one made its arena,
        // gives 4,699,747,228 B (1.00293), below all four (docs/scale.md).
        assertThat(belowStepsOneToSix(18)).isEqualTo(4_699_747_228L);
    }

    @Test
    void theStackByNearerEndBeatsEveryEarlierStep() {
        // WideTraces.generate(2, 12_400, 1_800), SqueakySweep called directly (the planner places
        // this size exactly). Without step 7 SqueakySweep gave 2,673,491,194 B (1.00397 x LB), the
        // smallest of its steps 1 to 6; the peak sweep stacked by the nearer end, then its second
        // stack, give 2,670,857,430 B (1.00298; docs/scale.md, scale11), and step 4c (the stack
        // with a hole) then 2,670,815,590 B (scale12).
        Problem p = WideTraces.generate(2, 12_400, 1_800);
        int[] order = Orders.byBreadth(p);
        GreedyPlacer.Fit fit = GreedyPlacer.Fit.BEST;
        long nd = GreedyPlacer.NO_DEADLINE;
        GreedyPlacer.Result nearer = PeakSweep.place(p, order, fit, PeakSweep.Stack.BY_NEARER_END, nd, ArenaBound.NONE);
        long[] instants = {SecondStack.secondInstant(p, nearer.offsets(), PeakSweep.widestInstant(p.liveBytes(nd)))};
        GreedyPlacer.Result second = PeakSweep.place(p, order, fit, PeakSweep.Stack.BY_NEARER_END, instants, nearer.offsets(), nd, ArenaBound.NONE);
        assertThat(arena(p, second)).isEqualTo(2_670_857_430L);
        assertThat(belowStepsOneToSix(2)).isEqualTo(2_670_815_590L);
    }

    @Test
    void theStackWithAHoleBeatsEveryEarlierStep() {
        // WideTraces.generate(11, 12_400, 1_800), SqueakySweep called directly (the planner places
        // this size exactly). Without step 4c SqueakySweep gave 4,560,066,860 B (1.00226 x LB), the
        // smallest of its steps 1 to 7; the peak sweep stacked by start with a hole where the one
        // by start made its arena gives the lower bound, 4,549,780,506 B (docs/scale.md, scale12).
        long a = belowStepsOneToSix(11);
        Problem p = WideTraces.generate(11, 12_400, 1_800);
        int[] order = Orders.byBreadth(p);
        long nd = GreedyPlacer.NO_DEADLINE;
        assertThat(a).isLessThan(arena(p, PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_NEARER_END, nd, ArenaBound.NONE)));
        assertThat(a).isEqualTo(p.lowerBound()).isEqualTo(4_549_780_506L);
    }

    /**
     * SqueakySweep's arena on {@code WideTraces.generate(seed, 12_400, 1_800)} in breadth order,
     * after checking that it is valid and strictly below both peak sweeps, the second stack at
     * one instant and the round.
     */
    private static long belowStepsOneToSix(long seed) {
        Problem p = WideTraces.generate(seed, 12_400, 1_800);
        int[] order = Orders.byBreadth(p);
        GreedyPlacer.Fit fit = GreedyPlacer.Fit.BEST;
        long nd = GreedyPlacer.NO_DEADLINE;
        PeakSweep.Kept kept = PeakSweep.smaller(p, order, fit, nd, ArenaBound.NONE);
        long second = arena(p, SecondStack.place(p, order, fit, kept.stack(), kept.result().offsets(), nd, ArenaBound.NONE));
        SqueakySweep.Reordered next = SqueakySweep.squeakyFirst(p, order, SweepPlacer.heavyPrefix(p, order, SweepPlacer.HEAVY_HALF), kept.result().offsets(), p.lowerBound());
        long round = arena(p, SweepPlacer.placeHeavy(p, next.order(), fit, next.heavy(), nd, ArenaBound.NONE));
        GreedyPlacer.Result res = SqueakySweep.place(p, order, fit, nd);
        long a = arena(p, res);
        assertThat(PlacementValidator.validate(p, res.offsets(), a, null)).isEmpty();
        for (PeakSweep.Stack stack : new PeakSweep.Stack[] {PeakSweep.Stack.BY_START, PeakSweep.Stack.BY_END_DESC})
            assertThat(a).as("seed " + seed + " " + stack).isLessThan(arena(p, PeakSweep.place(p, order, fit, stack, nd, ArenaBound.NONE)));
        assertThat(a).as("seed " + seed + ": the second stack at one instant").isLessThan(second);
        assertThat(a).as("seed " + seed + ": the round").isLessThan(round);
        return a;
    }

    @Test
    void bestIsNoWorseThanGreedyBreadthOnASweptTrace() {
        // Past the exact budget, so both sweep. Seed 1: greedy-breadth's sweeps win over every
        // other candidate of best (its peak sweep reaches the lower bound, its round alone 1.00037
        // x LB; the others 1.00038): best must run them too, even after its first sweep lost to
        // the smallest arena so far. Seeds 7 and 10: the peak sweep with the stack by end wins
        // (1.00090, 1.00000 x LB); in best the one by start stops above another candidate's
        // arena first, and the one by end must still run (best gave 1.00178 and 1.00010 when it
        // did not; docs/scale.md).
        for (long seed : new long[]{1, 7, 10}) {
            Problem p = WideTraces.generate(seed, 24_000, 6_000);
            assertThat(GreedyPlacer.isExactAffordable(p)).isFalse();
            Placement breadth = new GreedyBreadthPlanner().place(p);
            Placement best = new BestPlanner().place(p);
            assertThat(PlacementValidator.validate(p, best)).isEmpty();
            assertThat(best.arenaBytes()).as("seed " + seed).isLessThanOrEqualTo(breadth.arenaBytes());
        }
    }

    @Test
    void greedySizeIsNoWorseThanExactPlacementInSizeOrderOnASweptTrace() {
        // Past the exact budget. greedy-size used to run the heavy-half sweep here (the heavy
        // half placed exactly, the rest swept forward from time 0): seed 1 1.00209 x LB and seed
        // 9 1.00469, where exact placement of every buffer in the same order gives 1.00081 and
        // 1.00427. Its two peak sweeps give 1.00000 and 1.00230 (docs/scale.md). Best must
        // follow it there too.
        for (long seed : new long[]{1, 9}) {
            Problem p = WideTraces.generate(seed, 24_000, 6_000);
            assertThat(GreedyPlacer.isExactAffordable(p)).isFalse();
            int[] order = Orders.bySizeDesc(p);
            long exact = Placement.arenaOf(p, GreedyPlacer.placePrefix(p, order, p.size(), GreedyPlacer.Fit.BEST, GreedyPlacer.NO_DEADLINE, ArenaBound.NONE).offsets());
            Placement size = new GreedySizePlanner().place(p);
            assertThat(PlacementValidator.validate(p, size)).isEmpty();
            assertThat(size.planner()).contains("swept");
            assertThat(size.arenaBytes()).as("seed " + seed).isLessThanOrEqualTo(exact);
            assertThat(new BestPlanner().place(p).arenaBytes()).as("best, seed " + seed).isLessThanOrEqualTo(size.arenaBytes());
        }
    }

    @Test
    void aPassedDeadlineGivesTheFirstSweepCutAndValid() {
        Problem p = WideTraces.generate(4, 3_000, 400);
        GreedyPlacer.Result res = SqueakySweep.place(p, Orders.byBreadth(p), GreedyPlacer.Fit.BEST, System.nanoTime() - 1);
        assertThat(res.complete()).isFalse();
        assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null)).isEmpty();
    }

    @Test
    void theSqueakyWheelsGoFirstHighestFirstAtMostAsManyAsTheHeavyOnes() {
        // Order a b c d e, a and b heavy. Tops: a 10, b 50, c 40, d 30, e 5; above the line 20:
        // b, c, d (highest first), of which only two fit the cap of two heavy buffers: b, c.
        Problem p = problem(1, buf("a", 10, 0, 1), buf("b", 10, 0, 1), buf("c", 10, 0, 1), buf("d", 10, 0, 1), buf("e", 5, 0, 1));
        long[] offsets = {0, 40, 30, 20, 0};
        SqueakySweep.Reordered next = SqueakySweep.squeakyFirst(p, new int[]{0, 1, 2, 3, 4}, 2, offsets, 20);
        assertThat(next.order()).containsExactly(1, 2, 0, 3, 4);
        assertThat(next.heavy()).isEqualTo(3);
    }
}
