package org.arenaplan.plan;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncException;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each happens-before violation kind, planted on purpose. */
class OrderValidatorTest {
    private static final ArenaPlanner.Options OPTS = ArenaPlanner.Options.DEFAULT;

    private static Plan withEvents(Plan p, List<SyncEvent> events) {
        return new Plan(p.graph(), p.lifetimes(), p.problem(), p.placement(), p.stats(), new SyncPlan(events));
    }

    @Test
    void aMissingDataEventIsAnUnorderedRead() {
        Graph g = new GraphBuilder().tensor("x", 64).input("x").tensor("a", 64).tensor("b", 64)
                .op("pa", "Relu").in("x").out("a").stream(0).add()
                .op("pb", "Relu").in("a").out("b").stream(1).add()
                .output("b").build();
        Plan plan = StreamPlanner.plan(g, 0, SyncMode.NONE, OPTS);
        assertThat(plan.sync().events()).hasSize(1);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        List<Violation> v = PlanValidator.validate(withEvents(plan, List.of()));
        assertThat(v).extracting(Violation::kind).containsExactly(Violation.Kind.UNORDERED_READ);
        assertThat(v.get(0).toString()).isEqualTo("UNORDERED_READ: op 'pb' on stream 1 reads 'a', whose bytes were written by 'pa' on stream 0 (as 'a'); no event orders pa before pb");
        assertThat(v.get(0).position()).isEqualTo(1);
    }

    @Test
    void overwritingBytesReadOnAnotherStreamIsUnorderedReuse() {
        Plan edge = StreamPlanner.plan(StreamPlannerTest.reuseNeedsAnEdge(), 0, SyncMode.ADD, OPTS);
        List<Violation> v = PlanValidator.validate(withEvents(edge, List.of()));
        assertThat(v).extracting(Violation::kind).containsExactly(Violation.Kind.UNORDERED_REUSE, Violation.Kind.UNORDERED_REUSE);
        assertThat(v.get(0).toString()).isEqualTo("UNORDERED_REUSE: storage A (written by a on stream 0) overwritten by b on stream 1 (writing 'B' at bytes ["
                + edge.addressOf("A") + ", " + (edge.addressOf("A") + 4096) + ")); no event orders a before b");
        assertThat(v.get(1).toString()).startsWith("UNORDERED_REUSE: storage A (read by r on stream 0) overwritten by b on stream 1");
        assertThat(v.get(1).subjects()).containsExactly("A", "B");
    }

    @Test
    void eventsThatDoNotPointForwardAreRefused() {
        Plan edge = StreamPlanner.plan(StreamPlannerTest.reuseNeedsAnEdge(), 0, SyncMode.ADD, OPTS);
        Plan backwards = withEvents(edge, List.of(new SyncEvent(0, 2, 1, SyncEvent.Reason.REUSE, 0)));
        assertThatThrownBy(() -> PlanValidator.validate(backwards)).isInstanceOf(SyncException.class)
                .hasMessageContaining("op 'r' at position 1 waits for op 'b' at position 2");
    }
}
