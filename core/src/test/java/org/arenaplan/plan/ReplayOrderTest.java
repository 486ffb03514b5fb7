package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.sim.RandomGraphs;
import org.arenaplan.sim.UnsafePlanner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay checks an op's reads before its own writes: an in-place output written over its
 * input must not hide that another storage clobbered that input earlier. (Found by the
 * simulator's detector: the unsafe planner on this seed, one stream.)
 */
class ReplayOrderTest {
    private static final int MAX_OPS = 24;      // Stress.Options.live(...)'s maxOps
    @Test
    void anInPlaceWriteDoesNotHideAnEarlierClobberOfItsInput() {
        long seed = 5_000_137;
        int ops = 6 + new java.util.SplittableRandom(seed).nextInt(MAX_OPS - 5);   // as Stress draws it
        Graph g = RandomGraphs.generate(seed, ops, 1);
        assertThat(PlanValidator.validate(UnsafePlanner.plan(g)))
                .extracting(Violation::kind).contains(Violation.Kind.CLOBBERED_READ);
        assertThat(PlanValidator.validate(ArenaPlanner.plan(g))).isEmpty();
    }
}
