package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.sim.UnsafePlanner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay checks an op's reads before its own writes: an in-place output written over its
 * input must not hide that another storage clobbered that input earlier. (Found by the
 * simulator's detector: the unsafe planner on random graph 5000137 of the first generator, one
 * stream; that graph is kept as a file since the generator has since grown.)
 */
class ReplayOrderTest {
    @Test
    void anInPlaceWriteDoesNotHideAnEarlierClobberOfItsInput() throws Exception {
        Graph g;
        try (java.io.Reader in = new java.io.InputStreamReader(ReplayOrderTest.class.getResourceAsStream("replay-order-5000137.json"),
                java.nio.charset.StandardCharsets.UTF_8)) {
            g = org.arenaplan.io.GraphJson.read(in, "replay-order-5000137.json");
        }
        assertThat(PlanValidator.validate(UnsafePlanner.plan(g)))
                .extracting(Violation::kind).contains(Violation.Kind.CLOBBERED_READ);
        assertThat(PlanValidator.validate(ArenaPlanner.plan(g))).isEmpty();
    }
}
