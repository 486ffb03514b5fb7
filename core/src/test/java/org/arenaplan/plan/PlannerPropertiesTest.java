package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Over 1,000 seeded random graphs: every planner's plan validates and the stats hold. */
class PlannerPropertiesTest {
    private static final int GRAPHS = 1_000;

    @Test
    void everyPlannerIsValidAndBestIsNoWorseThanAnyHeuristic() {
        List<String> failures = new ArrayList<>();
        int refusals = 0;
        int views = 0;
        for (long seed = 1; seed <= GRAPHS; seed++) {
            Graph g = RandomGraphs.generate(seed);
            long lb = -1;
            long best = -1;
            long bestSingle = Long.MAX_VALUE;
            for (String name : List.of("naive", "greedy-size", "greedy-breadth", "best")) {
                Plan p = Fixtures.plan(g, name);
                List<Violation> v = PlanValidator.validate(p);
                if (!v.isEmpty()) failures.add("seed " + seed + " " + name + ": " + v.get(0));
                PlanStats s = p.stats();
                lb = s.lowerBoundBytes();
                if (s.arenaBytes() < lb) failures.add("seed " + seed + " " + name + ": arena " + s.arenaBytes() + " below LB " + lb);
                if (name.equals("naive") && s.arenaBytes() != s.sumBytes()) failures.add("seed " + seed + ": naive arena != sum");
                if (name.startsWith("greedy")) bestSingle = Math.min(bestSingle, s.arenaBytes());
                if (name.equals("best")) {
                    best = s.arenaBytes();
                    refusals += p.refusals().size();
                    views += (int) p.graph().tensors().keySet().stream().filter(p.graph()::isView).count();
                }
            }
            if (best > bestSingle) failures.add("seed " + seed + ": best " + best + " worse than a single heuristic " + bestSingle);
        }
        assertThat(failures).isEmpty();
        assertThat(refusals).as("the generator exercises refused in-place requests").isPositive();
        assertThat(views).as("the generator exercises views").isPositive();
    }
}
