package org.arenaplan.plan;

import org.arenaplan.plan.search.PerfectPackings;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class SqueakyWheelTest {
    private static final long NO_DEADLINE = Long.MAX_VALUE / 4;

    private static long deadlineIn(long nanos) {
        return System.nanoTime() + nanos;
    }

    /** Random short-lived buffers, optionally with extra (stream) conflicts between disjoint ones. */
    private static Problem random(SplittableRandom rnd, int n, boolean extra) {
        String[] ids = new String[n];
        long[] lower = new long[n], upper = new long[n], sizes = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = "b" + i;
            lower[i] = rnd.nextLong(40);
            upper[i] = lower[i] + 1 + rnd.nextLong(10);
            sizes[i] = 1 + rnd.nextLong(100);
        }
        Problem p = new Problem(ids, lower, upper, sizes, 4);
        if (!extra) return p;
        int[][] adj = new int[n][0];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (!p.intervalsOverlap(i, j) && rnd.nextInt(10) == 0) {
                    adj[i] = Arrays.copyOf(adj[i], adj[i].length + 1);
                    adj[i][adj[i].length - 1] = j;
                    adj[j] = Arrays.copyOf(adj[j], adj[j].length + 1);
                    adj[j][adj[j].length - 1] = i;
                }
            }
        }
        return p.withExtraConflicts(adj);
    }

    private static SqueakyWheel.Result improveBest(Problem p, long target, long deadline, int stall) {
        Placement start = BestPlanner.heuristicsOnly().place(p);
        java.util.List<long[]> told = new java.util.ArrayList<>();
        SqueakyWheel.Result r = SqueakyWheel.improve(p, start.offsets(), target, deadline, stall, 0,
                (rounds, arena, best) -> told.add(new long[]{rounds, arena, best}));
        assertThat(told).as("the listener hears every round, in order").hasSize(r.rounds());
        for (int k = 0; k < told.size(); k++) {
            assertThat(told.get(k)[0]).isEqualTo(k + 1);
            assertThat(told.get(k)[2]).isLessThanOrEqualTo(told.get(k)[1]);
        }
        if (!told.isEmpty()) assertThat(told.get(told.size() - 1)[2]).as("the last best told is the result").isEqualTo(r.arena());
        assertThat(r.arena()).isEqualTo(Placement.arenaOf(p, r.offsets()));
        assertThat(PlacementValidator.validate(p, r.offsets(), r.arena(), null)).isEmpty();
        assertThat(r.arena()).isLessThanOrEqualTo(start.arenaBytes());
        return r;
    }

    @Test
    void validAndNeverWorseThanItsStartOnRandomProblems() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 100; round++) {
            Problem p = random(rnd, 5 + rnd.nextInt(60), round % 2 == 1);
            SqueakyWheel.Result r = improveBest(p, p.lowerBound(), NO_DEADLINE, 8);
            assertThat(r.arena()).isGreaterThanOrEqualTo(p.lowerBound());
        }
    }

    @Test
    void lowersTheArenaOfPerfectPackingsThatTheHeuristicsMiss() {
        int missedByHeuristics = 0, improved = 0, reached = 0;
        for (int seed = 1; seed <= 20; seed++) {
            Problem p = PerfectPackings.generate(seed, 60, 1 << 20, 1000, 1024);
            long best = BestPlanner.heuristicsOnly().place(p).arenaBytes();
            if (best == 1 << 20) continue;
            missedByHeuristics++;
            SqueakyWheel.Result r = improveBest(p, 1 << 20, NO_DEADLINE, 16);
            if (r.arena() < best) improved++;
            if (r.arena() == 1 << 20) reached++;
        }
        assertThat(missedByHeuristics).isPositive();
        assertThat(improved).as("packings improved, of %d missed by the heuristics", missedByHeuristics).isPositive();
        assertThat(reached).as("packings placed at their optimum, of %d", missedByHeuristics).isPositive();
    }

    @Test
    void runsNoRoundOnceTheDeadlineHasPassedAndReturnsItsStart() {
        Problem p = PerfectPackings.generate(3, 60, 1 << 20, 1000, 1024);
        long[] start = BestPlanner.heuristicsOnly().place(p).offsets();
        SqueakyWheel.Result r = SqueakyWheel.improve(p, start, 0, deadlineIn(-1), 16, 0);
        assertThat(r.rounds()).isZero();
        assertThat(r.offsets()).isEqualTo(start);
    }

    @Test
    void runsNoRoundWhenTheGuessedRoundWouldEndAfterTheDeadline() {
        Problem p = PerfectPackings.generate(3, 60, 1 << 20, 1000, 1024);
        long[] start = BestPlanner.heuristicsOnly().place(p).offsets();
        long hour = 3_600_000_000_000L;
        SqueakyWheel.Result r = SqueakyWheel.improve(p, start, 0, deadlineIn(hour), 16, 2 * hour);
        assertThat(r.rounds()).isZero();
        assertThat(r.arena()).isEqualTo(Placement.arenaOf(p, start));
    }

    @Test
    void runsNoRoundWhenTheStartAlreadyMeetsTheTarget() {
        Problem p = random(new SplittableRandom(3), 30, false);
        long[] start = BestPlanner.heuristicsOnly().place(p).offsets();
        SqueakyWheel.Result r = SqueakyWheel.improve(p, start, Placement.arenaOf(p, start), NO_DEADLINE, 16, 0);
        assertThat(r.rounds()).isZero();
    }

    @Test
    void givesUpAfterTheStallLimitWhenTheTargetIsOutOfReach() {
        Problem p = random(new SplittableRandom(5), 40, false);
        long start = BestPlanner.heuristicsOnly().place(p).arenaBytes();
        SqueakyWheel.Result r = improveBest(p, 0, NO_DEADLINE, 5);
        // Each smaller arena (one alignment unit or more) resets the count; five rounds in a row without one end it.
        long improvementsAtMost = (start - r.arena()) / 4;
        assertThat(r.rounds()).isBetween(5, (int) (5 * (1 + improvementsAtMost)));
    }

    @Test
    void isDeterministic() {
        Problem p = PerfectPackings.generate(5, 80, 1 << 20, 1000, 1024);
        long[] start = BestPlanner.heuristicsOnly().place(p).offsets();
        SqueakyWheel.Result a = SqueakyWheel.improve(p, start, 1 << 20, NO_DEADLINE, 10, 0);
        SqueakyWheel.Result b = SqueakyWheel.improve(p, start, 1 << 20, NO_DEADLINE, 10, 0);
        assertThat(a.offsets()).isEqualTo(b.offsets());
        assertThat(a.rounds()).isEqualTo(b.rounds());
    }
}
