package org.arenaplan.plan.search;

import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.BestPlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class SearchPlannerTest {
    private static final Duration GENEROUS = Duration.ofSeconds(30);

    private static SearchOutcome solve(Problem p, Long capacity, Duration limit) {
        SearchOutcome out = new SearchPlanner(new PlannerOptions(capacity, limit)).solve(p);
        assertThat(PlacementValidator.validate(p, out.placement())).isEmpty();
        assertThat(out.placement().arenaBytes()).isLessThanOrEqualTo(new BestPlanner().place(p).arenaBytes());
        return out;
    }

    private static Problem problem(long alignment, long[]... rows) {
        int n = rows.length;
        String[] ids = new String[n];
        long[] lower = new long[n];
        long[] upper = new long[n];
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = "b" + i;
            lower[i] = rows[i][0];
            upper[i] = rows[i][1];
            sizes[i] = rows[i][2];
        }
        return new Problem(ids, lower, upper, sizes, alignment);
    }

    private static Problem random(SplittableRandom rnd, int n, boolean extra) {
        long[][] rows = new long[n][];
        for (int i = 0; i < n; i++) {
            long lo = rnd.nextLong(8);
            rows[i] = new long[]{lo, lo + 1 + rnd.nextLong(5), 1 + rnd.nextLong(9)};
        }
        Problem p = problem(1, rows);
        if (!extra) return p;
        int[][] adj = new int[n][0];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (!p.intervalsOverlap(i, j) && rnd.nextInt(3) == 0) {
                    adj[i] = java.util.Arrays.copyOf(adj[i], adj[i].length + 1);
                    adj[i][adj[i].length - 1] = j;
                    adj[j] = java.util.Arrays.copyOf(adj[j], adj[j].length + 1);
                    adj[j][adj[j].length - 1] = i;
                }
            }
        }
        return p.withExtraConflicts(adj);
    }

    @Test
    void minimisingFindsTheOptimumOfSmallRandomProblems() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 150; round++) {
            Problem p = random(rnd, 2 + rnd.nextInt(6), false);
            SearchOutcome out = solve(p, null, GENEROUS);
            assertThat(out.status()).as("round %d", round).isEqualTo(SearchStatus.OPTIMAL);
            assertThat(out.placement().arenaBytes()).as("round %d", round).isEqualTo(BruteForce.optimum(p));
            assertThat(out.placement().provenOptimal()).isTrue();
        }
    }

    @Test
    void extraConflictsAreRespectedAndTheOptimumFound() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int round = 0; round < 150; round++) {
            Problem p = random(rnd, 2 + rnd.nextInt(6), true);
            SearchOutcome out = solve(p, null, GENEROUS);
            assertThat(out.status()).as("round %d", round).isEqualTo(SearchStatus.OPTIMAL);
            assertThat(out.placement().arenaBytes()).as("round %d", round).isEqualTo(BruteForce.optimum(p));
        }
    }

    @Test
    void capacitySearchDecidesExactlyWhenTheOptimumFits() {
        SplittableRandom rnd = new SplittableRandom(13);
        for (int round = 0; round < 150; round++) {
            Problem p = random(rnd, 2 + rnd.nextInt(6), rnd.nextBoolean());
            long opt = BruteForce.optimum(p);
            CapacitySearch fits = new CapacitySearch(p, opt, Long.MAX_VALUE);
            assertThat(fits.run()).as("round %d", round).isEqualTo(CapacitySearch.Result.FOUND);
            Placement found = Placement.of(p, fits.solution(), "search");
            assertThat(PlacementValidator.validate(p, found.offsets(), found.arenaBytes(), opt)).isEmpty();
            assertThat(new CapacitySearch(p, opt - 1, Long.MAX_VALUE).run()).as("round %d", round).isEqualTo(CapacitySearch.Result.INFEASIBLE);
        }
    }
}
