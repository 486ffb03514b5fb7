package org.arenaplan.plan;

import org.arenaplan.plan.search.CapacityProbes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;

import static org.arenaplan.plan.Fixtures.buf;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code best}'s last step ({@link ExactFinish}): where it runs, what it finds, and that it is deterministic. */
class ExactFinishTest {
    /** The six buffers, then 1-byte buffers each alone in time after them, up to {@code buffers} in all. */
    private static Problem padded(int buffers) {
        List<Object[]> rows = new ArrayList<>(List.of(Fixtures.heuristicsGapRows()));
        for (int i = rows.size(); i < buffers; i++) rows.add(buf("pad" + i, 1, 10 + i, 11 + i));
        return Fixtures.problem(1, rows.toArray(Object[][]::new));
    }

    @Test
    void bestReachesTheLowerBoundWhereEveryHeuristicLeavesAGap() {
        Problem p = Fixtures.problem(1, Fixtures.heuristicsGapRows());
        assertThat(p.lowerBound()).isEqualTo(22);
        assertThat(BestPlanner.heuristicsOnly().place(p).arenaBytes()).as("the heuristics alone").isEqualTo(23);
        Placement best = Planners.byName("best").place(p);
        assertThat(best.arenaBytes()).isEqualTo(22);
        assertThat(best.planner()).isEqualTo("best(exact search)");
        assertThat(best.provenOptimal()).isTrue();
        assertThat(PlacementValidator.validate(p, best)).isEmpty();
    }

    @Test
    void aPlanAtItsLowerBoundIsLeftAsItIsAndNoPlanGetsWorse() {
        Random r = new Random(5);
        int searched = 0;
        for (int round = 0; round < 300; round++) {
            Problem p = Fixtures.randomProblem(r, 60, 20, 12, x -> 8L * (1 + x.nextInt(40)));
            Placement heuristics = BestPlanner.heuristicsOnly().place(p);
            Placement best = new BestPlanner().place(p);
            assertThat(PlacementValidator.validate(p, best)).as("round " + round).isEmpty();
            if (heuristics.arenaBytes() <= CapacityProbes.alignUp(p.lowerBound(), p.alignment())) {
                assertThat(best.offsets()).as("round " + round + ": at the lower bound already").containsExactly(heuristics.offsets());
                assertThat(best.planner()).isEqualTo(heuristics.planner());
            } else {
                searched++;
                assertThat(best.arenaBytes()).as("round " + round).isLessThanOrEqualTo(heuristics.arenaBytes());
            }
        }
        assertThat(searched).as("problems the step ran on").isGreaterThan(5);
    }

    /**
     * The same problem gives the same placement twice, and with the candidates run by one worker
     * or by three: the step counts nodes rather than time, and searches on one thread. Among the
     * problems, one on which the search stops at its node limit without reaching the lower bound.
     */
    @Test
    void theSamePlanWhateverTheRunAndTheThreads() throws Exception {
        Problem atLimit = WideTraces.generate(1, 1_000, 100);
        CapacityProbes.Result first = ExactFinish.lower(atLimit, BestPlanner.heuristicsOnly().place(atLimit).arenaBytes(), GreedyPlacer.NO_DEADLINE, (c, l, a, b) -> { });
        CapacityProbes.Result again = ExactFinish.lower(atLimit, BestPlanner.heuristicsOnly().place(atLimit).arenaBytes(), GreedyPlacer.NO_DEADLINE, (c, l, a, b) -> { });
        assertThat(first.nodes()).as("stopped by the node limit").isGreaterThanOrEqualTo(ExactFinish.nodeLimit(atLimit.size()));
        assertThat(first.arena()).as("above the lower bound there").isGreaterThan(atLimit.lowerBound());
        assertThat(again.nodes()).isEqualTo(first.nodes());
        assertThat(again.arena()).isEqualTo(first.arena());
        for (Problem p : new Problem[]{Fixtures.problem(1, Fixtures.heuristicsGapRows()), WideTraces.generate(3, 400, 100), atLimit}) {
            Placement a = new BestPlanner().place(p);
            Placement b = new BestPlanner().place(p);
            Placement one = new ForkJoinPool(1).submit(() -> new BestPlanner().place(p)).get();
            Placement three = new ForkJoinPool(3).submit(() -> new BestPlanner().place(p)).get();
            for (Placement other : new Placement[]{b, one, three}) {
                assertThat(other.offsets()).as(p.size() + " buffers").containsExactly(a.offsets());
                assertThat(other.planner()).isEqualTo(a.planner());
            }
        }
    }

    @Test
    void skippedAboveTheSizeLimitWhereItWouldHelp() {
        Problem above = padded(ExactFinish.MAX_BUFFERS + 1);
        Placement heuristics = BestPlanner.heuristicsOnly().place(above);
        assertThat(heuristics.arenaBytes()).as("the heuristics leave the gap").isEqualTo(23);
        CapacityProbes.Result would = ExactFinish.lower(above, heuristics.arenaBytes(), GreedyPlacer.NO_DEADLINE, (c, l, a, b) -> { });
        assertThat(would.arena()).as("the step, had it run").isEqualTo(22);
        Placement best = new BestPlanner().place(above);
        assertThat(best.offsets()).containsExactly(heuristics.offsets());
        assertThat(best.planner()).isEqualTo(heuristics.planner()).doesNotContain("exact search");
        Placement at = new BestPlanner().place(padded(ExactFinish.MAX_BUFFERS));
        assertThat(at.arenaBytes()).as("at the size limit it runs").isEqualTo(22);
    }

    /**
     * Several streams: the streams planner places many problems under one time limit, and their
     * extra conflicts defeat both the lower bound and the search's decomposition (on
     * {@code plan --model randwire --streams 4} the step spent the limit and the arena rose from
     * 301,568 to 502,528 B), so a problem with extra conflicts keeps the heuristics' placement.
     */
    @Test
    void skippedWithTheExtraConflictsOfSeveralStreams() {
        int[][] extra = new int[6][0];
        extra[1] = new int[]{3};   // b1 and b3 overlap in time already: the same problem, flagged as having extra conflicts
        Problem p = Fixtures.problem(1, Fixtures.heuristicsGapRows()).withExtraConflicts(extra);
        assertThat(p.hasExtraConflicts()).isTrue();
        Placement heuristics = BestPlanner.heuristicsOnly().place(p);
        assertThat(heuristics.arenaBytes()).isEqualTo(23);
        Placement best = new BestPlanner().place(p);
        assertThat(best.offsets()).containsExactly(heuristics.offsets());
        assertThat(best.planner()).isEqualTo(heuristics.planner());
    }
}
