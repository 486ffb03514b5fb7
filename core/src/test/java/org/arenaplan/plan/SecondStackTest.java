package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.arenaplan.plan.Fixtures.buf;
import static org.arenaplan.plan.Fixtures.problem;
import static org.assertj.core.api.Assertions.assertThat;

class SecondStackTest {
    private static final long ND = GreedyPlacer.NO_DEADLINE;

    private static long arena(Problem p, GreedyPlacer.Result r) {
        return Placement.arenaOf(p, r.offsets());
    }

    @Test
    void everyPlacementIsValidAtAnySecondInstant() {
        // The pinned buffers on either side of the widest instant (any t2 before or after it),
        // both stacks, both fit rules; and at the instant the steps choose. Copying the side
        // without pinned buffers from the peak sweep gives the offsets of sweeping it again.
        Random r = new Random(31);
        for (int round = 0; round < 300; round++) {
            Problem p = SweepPlacerTest.random(r);
            long t = PeakSweep.widestInstant(p.liveBytes(ND));
            long last = 0;
            for (int i = 0; i < p.size(); i++) last = Math.max(last, p.upper(i));
            for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
                int[] order = Orders.byBreadth(p);
                for (PeakSweep.Stack stack : PeakSweep.Stack.values()) {
                    GreedyPlacer.Result peak = PeakSweep.place(p, order, fit, stack, ND, ArenaBound.NONE);
                    long[] t2s = {r.nextLong(last + 1), r.nextLong(last + 1), SecondStack.secondInstant(p, peak.offsets(), t)};
                    for (long t2 : t2s) {
                        GreedyPlacer.Result res = PeakSweep.place(p, order, fit, stack, t2, null, ND, ArenaBound.NONE);
                        assertThat(res.complete()).isTrue();
                        assertThat(res.swept()).isTrue();
                        assertThat(PlacementValidator.validate(p, res.offsets(), arena(p, res), null))
                                .as("round " + round + " " + fit + " " + stack + " t2 " + t2 + " (t " + t + ")").isEmpty();
                        // the side without pinned buffers copied from the peak sweep: the same offsets
                        assertThat(PeakSweep.place(p, order, fit, stack, t2, peak.offsets(), ND, ArenaBound.NONE).offsets())
                                .as("round " + round + " copied").containsExactly(res.offsets());
                    }
                    // several instants at once (step 4b; those on the other side of the first ignored)
                    GreedyPlacer.Result many = PeakSweep.place(p, order, fit, stack, t2s, null, ND, ArenaBound.NONE);
                    assertThat(many.complete()).isTrue();
                    assertThat(PlacementValidator.validate(p, many.offsets(), arena(p, many), null))
                            .as("round " + round + " " + fit + " " + stack + " instants " + java.util.Arrays.toString(t2s) + " (t " + t + ")").isEmpty();
                    assertThat(PeakSweep.place(p, order, fit, stack, t2s, peak.offsets(), ND, ArenaBound.NONE).offsets())
                            .as("round " + round + " copied, several instants").containsExactly(many.offsets());
                }
            }
        }
    }

    @Test
    void thePinnedBuffersSweepOverTheStackAloneForward() {
        // Widest instant 1 (a, b: 16 B). t2 = 4: c [2, 6), d [3, 5), e [4, 6) are live there and
        // not at 1. By start: c at 2, where b has ended: the only free bytes are the top, 8; d at
        // 3, a still live: the top, 12; e at 4, a ended: the smallest gap that holds it, [0, 8).
        Problem p = problem(1, buf("a", 8, 0, 4), buf("b", 8, 1, 2), buf("c", 4, 2, 6), buf("d", 2, 3, 5), buf("e", 4, 4, 6));
        assertPins(p, 1, 4, true);
    }

    @Test
    void thePinnedBuffersSweepOverTheStackAloneBackward() {
        // The same problem mirrored in time (an interval [l, u) becomes [6 - u, 6 - l)): widest
        // instant 4, t2 = 1, the pinned buffers by end descending: the same offsets.
        Problem p = problem(1, buf("a", 8, 2, 6), buf("b", 8, 4, 5), buf("c", 4, 0, 4), buf("d", 2, 1, 3), buf("e", 4, 0, 2));
        assertPins(p, 4, 1, false);
    }

    private static void assertPins(Problem p, long t, long t2, boolean forward) {
        int[] order = {0, 1, 2, 3, 4};
        assertThat(PeakSweep.widestInstant(p.liveBytes(ND))).isEqualTo(t);
        long[] offset = new long[p.size()];
        int[] stacked = PeakSweep.stackOrder(p, order, t, PeakSweep.Stack.BY_START, ND);
        assertThat(stacked).containsExactly(0, 1);
        offset[1] = 8;
        SecondStack.Pinned pinned = SecondStack.placePins(p, order, stacked, t, t2, offset, ND);
        assertThat(pinned.forward()).isEqualTo(forward);
        assertThat(pinned.buffers()).containsExactly(2, 3, 4);
        assertThat(offset).containsExactly(0, 8, 8, 12, 0);
        assertThat(pinned.top()).isEqualTo(16);   // the stack's top; the pinned ones end at 14
        GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, t2, null, ND, ArenaBound.NONE);
        assertThat(res.offsets()).containsExactly(0, 8, 8, 12, 0);
    }

    @Test
    void pinnedAtSeveralInstantsAPinnedBufferThatEndedIsFreedForALaterOne() {
        // Widest instant 0 (a: 10 B). Instants 2 and 5: b [1, 3) is live at 2, c [4, 6) at 5;
        // they do not meet. By start: b at 1, where a has ended: at 0; c at 4, where b has ended
        // too: at 0 again (without freeing b it would go above b, at 6).
        Problem p = problem(1, buf("a", 10, 0, 1), buf("b", 6, 1, 3), buf("c", 6, 4, 6));
        int[] order = {0, 1, 2};
        long[] offset = new long[p.size()];
        int[] stacked = PeakSweep.stackOrder(p, order, 0, PeakSweep.Stack.BY_START, ND);
        SecondStack.Pinned pinned = SecondStack.placePins(p, order, stacked, 0, new long[] {2, 5}, offset, ND);
        assertThat(pinned.buffers()).containsExactly(1, 2);
        assertThat(offset).containsExactly(0, 0, 0);
        GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, new long[] {2, 5}, null, ND, ArenaBound.NONE);
        assertThat(res.offsets()).containsExactly(0, 0, 0);
    }

    @Test
    void aSweptBufferClearsThePinnedOnesThatStartLaterInItsLife() {
        // Widest instant 0 (a: 10 B). t2 = 4: b [3, 5) is pinned, at 0 (a has ended by 3). x
        // [2, 4), not live at 4, starts before b, where the free list is empty below its top:
        // without the check it would go to 0 (as in the plain peak sweep) and meet b; it goes
        // above b, at 6.
        Problem p = problem(1, buf("a", 10, 0, 1), buf("b", 6, 3, 5), buf("x", 4, 2, 4));
        int[] order = {0, 1, 2};
        GreedyPlacer.Result res = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, 4, null, ND, ArenaBound.NONE);
        assertThat(res.offsets()).containsExactly(0, 0, 6);
        assertThat(PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, ND, ArenaBound.NONE).offsets())
                .containsExactly(0, 4, 0);
    }

    @Test
    void aPassedDeadlineOrALowBoundStopsIt() {
        Problem p = WideTraces.generate(4, 3_000, 400);
        int[] order = Orders.byBreadth(p);
        long[] peak = PeakSweep.place(p, order, GreedyPlacer.Fit.BEST, ND, ArenaBound.NONE).offsets();
        GreedyPlacer.Result cut = SecondStack.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, peak, System.nanoTime() - 1, ArenaBound.NONE);
        assertThat(cut.complete()).isFalse();
        assertThat(PlacementValidator.validate(p, cut.offsets(), arena(p, cut), null)).isEmpty();
        ArenaBound bound = new ArenaBound();
        bound.offer(p.lowerBound() - 1);
        assertThat(SecondStack.place(p, order, GreedyPlacer.Fit.BEST, PeakSweep.Stack.BY_START, peak, ND, bound).outrun()).isTrue();
    }
}
