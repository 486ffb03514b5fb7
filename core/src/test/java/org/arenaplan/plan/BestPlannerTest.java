package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class BestPlannerTest {
    private static void assertSameAsEveryRunFinishing(Problem p, String what) {
        BestPlanner bounded = new BestPlanner(null, true);
        Placement a = bounded.place(p);
        Placement b = new BestPlanner(null, false).place(p);
        assertThat(a.planner()).as(what + " winner").isEqualTo(b.planner());
        assertThat(a.offsets()).as(what + " offsets").containsExactly(b.offsets());
        assertThat(PlacementValidator.validate(p, a)).as(what).isEmpty();
    }

    @Test
    void stoppingRunsPastTheSmallestArenaKeepsTheWinnerTiesIncluded() {
        Random r = new Random(23);
        int stopped = 0;
        for (int round = 0; round < 300; round++) {
            // Few sizes and short lives: many runs tie on the arena, so a run stopped at the bound's
            // value instead of strictly above it would change the winner's label.
            int sizes = round % 2 == 0 ? 3 : 300;
            Problem p = Fixtures.randomProblem(r, 200, 40, 30, x -> 8L * (1 + x.nextInt(sizes)));
            assertSameAsEveryRunFinishing(p, "round " + round);
            BestPlanner again = new BestPlanner(null, true);
            again.place(p);
            if (again.progressNote().contains("stopped")) stopped++;
        }
        assertThat(stopped).as("problems on which the bound stopped a run").isGreaterThan(30);
    }

    @Test
    void sweptRunsStopAtTheBoundAndKeepTheWinner() {
        Problem p = WideTraces.generate(7, 6_200, 900);   // exact and swept runs, 16 in all
        assertSameAsEveryRunFinishing(p, "wide 6200/900");
        BestPlanner bounded = new BestPlanner(null, true);
        bounded.place(p);
        assertThat(bounded.progressNote()).startsWith("16 of 16 heuristics finished (").contains("stopped once past the smallest arena");
    }
}
