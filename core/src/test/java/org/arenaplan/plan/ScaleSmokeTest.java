package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.SyntheticGraphs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The 62,185-storage synthetic graph plans validly (its speed is measured by PlannerBench, not here). */
class ScaleSmokeTest {
    @Test
    void theSixtyTwoThousandStorageGraphPlansAndValidates() {
        Graph g = SyntheticGraphs.layered(62_184, 42);
        Plan p = ArenaPlanner.plan(g, ArenaPlanner.Options.DEFAULT.withPlanner("greedy-size"));
        assertThat(p.stats().storages()).isEqualTo(62_185);
        assertThat(PlanValidator.validate(p)).isEmpty();
        assertThat(p.stats().ratio()).isLessThan(1.5);
    }
}
