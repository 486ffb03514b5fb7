package org.arenaplan.plan;

import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --sync add} with a planner that uses up the time limit: the price says the reuse-event
 * search was cut, advising {@code --planner best} only to a {@code search} plan.
 */
class ReuseRoundsCutTest {

    /** "best", but it returns only once the deadline has passed (a search that spends its whole limit). */
    private static final class SpendsTheLimit implements Planner {
        private final Planner best = Planners.byName("best");

        @Override public String name() { return "spends-the-limit"; }

        @Override public Placement place(Problem problem) { return best.place(problem); }

        @Override public Placement place(Problem problem, long deadline) {
            Placement p = best.place(problem);
            while (!GreedyPlacer.passed(deadline)) Thread.onSpinWait();
            return p;
        }
    }

    @Test
    void aSearchWhoseTimeLimitPassedBeforeTheRoundsSaysSo() {
        Graph g = StreamPlannerTest.reuseNeedsAnEdge();
        ArenaPlanner.Options o = ArenaPlanner.Options.DEFAULT.withPlannerOptions(PlannerOptions.DEFAULT.withTimeLimit(Duration.ofMillis(50)));
        Plan cut = StreamPlanner.plan(g, 0, SyncMode.ADD, o, new SpendsTheLimit());
        assertThat(cut.sync().roundsCut()).isTrue();
        ConcurrencyPrice price = StreamPlanner.price(cut, ArenaPlanner.Options.DEFAULT);
        assertThat(price.roundsCut()).isTrue();
        assertThat(price.summary()).endsWith(ConcurrencyPrice.ROUNDS_CUT_MORE_TIME).contains("events, for reuse    : 0")
                .as("the planner is best already").doesNotContain("--planner best");
        assertThat(price.line()).endsWith("; reuse-event search " + Placement.CUT);
        for (String planner : new String[]{"greedy-size", "naive"})
            assertThat(StreamPlanner.price(cut, o.withPlanner(planner)).summary()).as(planner).endsWith(ConcurrencyPrice.ROUNDS_CUT_MORE_TIME);
        assertThat(StreamPlanner.price(cut, o.withPlanner("search")).summary()).as("search may spend the limit on one placement")
                .endsWith("(rounds cut or not started; more --time-limit, or --planner best, may add events)");

        Plan full = StreamPlanner.plan(g, 0, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
        assertThat(full.sync().roundsCut()).isFalse();
        assertThat(full.sync().events()).anyMatch(e -> e.reason() == org.arenaplan.hb.SyncEvent.Reason.REUSE);
        assertThat(StreamPlanner.price(full, ArenaPlanner.Options.DEFAULT).summary()).doesNotContain("reuse-event search");
        Plan none = StreamPlanner.plan(g, 0, SyncMode.NONE, o, new SpendsTheLimit());
        assertThat(none.sync().roundsCut()).as("--sync none searches nothing").isFalse();
    }
}
