package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.arenaplan.ir.Graph;
import org.arenaplan.plan.Plan;
import org.arenaplan.sim.StandInStreamPlanner;
import org.arenaplan.sim.UnsafePlanner;
import org.junit.jupiter.api.Test;

/** The GPU hazard test's precondition, checked without a GPU: only the unsafe plan puts b on a's bytes. */
class HazardFixtureTest {

    @Test
    void unsafePlanReusesTheSlowReadersInputAndTheGuardedPlanDoesNot() {
        Graph g = GpuGraphs.hazard(1024);
        Plan unsafe = UnsafePlanner.plan(g);
        Plan guarded = StandInStreamPlanner.plan(g, "best");
        assertThat(unsafe.addressOf("b")).as("unsafe: b reuses a").isEqualTo(unsafe.addressOf("a"));
        assertThat(guarded.addressOf("b")).as("guarded: b apart from a").isNotEqualTo(guarded.addressOf("a"));
        assertThat(guarded.sync().events()).as("guarded: relu -> slow event").isNotEmpty();
    }
}
