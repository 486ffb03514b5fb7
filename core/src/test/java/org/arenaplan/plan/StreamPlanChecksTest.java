package org.arenaplan.plan;

import org.arenaplan.hb.RandomStreamGraphs;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random multi-stream graphs: every planner's plan validates under both sync modes, and the
 * validator agrees with the byte oracle when events are deleted one at a time (mutation test).
 */
class StreamPlanChecksTest {
    private static final ArenaPlanner.Options OPTS = ArenaPlanner.Options.DEFAULT.withAlignment(32);

    @Test
    void everyPlannerAndSyncModeGivesPlansThatValidateAndTheOracleAccepts() {
        int graphs = 0;
        for (long seed = 0; seed < 200; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 1 + (int) (seed % 4), 24);
            for (String planner : List.of("best", "greedy-size", "greedy-breadth", "naive")) {
                for (SyncMode mode : SyncMode.values()) {
                    if (mode == SyncMode.ADD && !planner.equals("best")) continue;
                    Plan plan = StreamPlanner.plan(g, 0, mode, OPTS.withPlanner(planner));
                    assertThat(PlanValidator.validate(plan)).as("seed %d %s %s", seed, planner, mode).isEmpty();
                    assertThat(ByteOracle.unordered(plan)).as("seed %d %s %s", seed, planner, mode).isEmpty();
                    assertThat(plan.arenaBytes()).isGreaterThanOrEqualTo(plan.stats().lowerBoundBytes());
                }
            }
            Plan none = StreamPlanner.plan(g, 0, SyncMode.NONE, OPTS);
            Plan add = StreamPlanner.plan(g, 0, SyncMode.ADD, OPTS);
            assertThat(add.arenaBytes()).as("seed %d: adding events never costs bytes", seed).isLessThanOrEqualTo(none.arenaBytes());
            for (SyncEvent e : add.sync().events()) {
                if (e.reason() == SyncEvent.Reason.REUSE) assertThat(e.bytesSaved()).isPositive();
            }
            graphs++;
        }
        assertThat(graphs).isEqualTo(200);
    }

    @Test
    void assignedStreamsGiveValidPlans() {
        for (long seed = 0; seed < 100; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 1, 24);
            for (int n : new int[]{2, 4}) {
                Plan plan = StreamPlanner.plan(g, n, SyncMode.ADD, OPTS);
                assertThat(PlanValidator.validate(plan)).as("seed %d, %d streams", seed, n).isEmpty();
                assertThat(ByteOracle.unordered(plan)).isEmpty();
            }
        }
    }

    @Test
    void widenedIntervalsOverBudgetGiveValidPlansToo() {
        int widened = 0;
        for (long seed = 0; seed < 100; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 3, 24);
            java.util.List<SyncEvent> events = org.arenaplan.hb.DataSync.events(g);
            org.arenaplan.hb.HappensBefore hb = org.arenaplan.hb.HappensBefore.of(g, events);
            org.arenaplan.liveness.Lifetimes l = org.arenaplan.liveness.Lifetimes.of(g, hb, false);
            org.arenaplan.hb.HbConflicts c = org.arenaplan.hb.HbConflicts.of(l, hb, 0);
            if (c.widened()) widened++;
            Problem p = StreamPlanner.problemOf(l, c, OPTS.alignment());
            Placement placement = Planners.byName("best").place(p);
            Plan plan = new Plan(g, l, p, placement, ArenaPlanner.statsOf(l, p, placement, 0), new SyncPlan(events));
            assertThat(PlanValidator.validate(plan)).as("seed %d", seed).isEmpty();
            assertThat(ByteOracle.unordered(plan)).as("seed %d", seed).isEmpty();
        }
        assertThat(widened).isGreaterThan(30);
    }

    /** Deleting each event in turn: the validator flags exactly the deletions the oracle finds unsafe. */
    @Test
    void mutationDeletingAnyRequiredEventIsCaught() {
        EventMutations m = new EventMutations();
        for (long seed = 0; seed < 150; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 3), 24);
            for (SyncMode mode : SyncMode.values()) {
                m.mutate(StreamPlanner.plan(g, 0, mode, OPTS));
            }
        }
        System.out.printf("mutation: %d event deletions, %d leave bytes unordered, %d of those caught (%.1f%%), %d false alarms%n",
                m.deletions, m.required, m.caught, m.caughtPercent(), m.falseAlarms);
        assertThat(m.required).isGreaterThan(100);
        assertThat(m.caught).isEqualTo(m.required);
        assertThat(m.falseAlarms).isZero();
    }
}
