package org.arenaplan.plan;

import org.arenaplan.hb.DataSync;
import org.arenaplan.hb.HbConflicts;
import org.arenaplan.hb.RandomStreamGraphs;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Over the pair budget: the lane-region placement keeps each stream's own reuse, and stays valid. */
class LaneRegionsTest {
    private static final ArenaPlanner.Options OPTS = ArenaPlanner.Options.DEFAULT.withAlignment(32);

    /** {@code streams} chains of {@code n} Relus over 1 KiB, never synchronised, joined by Adds on stream 0. */
    static Graph chains(int streams, int n) {
        GraphBuilder b = new GraphBuilder("chains").tensor("x", 1024).input("x");
        for (int i = 0; i < n; i++) {
            for (int s = 0; s < streams; s++) {
                b.tensor("s" + s + "_" + i, 1024)
                        .op("o" + s + "_" + i, "Relu").in(i == 0 ? "x" : "s" + s + "_" + (i - 1)).out("s" + s + "_" + i).stream(s).add();
            }
        }
        String acc = "s0_" + (n - 1);
        for (int s = 1; s < streams; s++) {
            String y = "j" + s;
            b.tensor(y, 1024).op("join" + s, "Add").in(acc).in("s" + s + "_" + (n - 1)).out(y).stream(0).add();
            acc = y;
        }
        return b.output(acc).build();
    }

    static Plan planOf(Graph g, StreamPlanner.Attempt a, List<SyncEvent> events) {
        return new Plan(g, a.lifetimes(), a.problem(), a.placement(), ArenaPlanner.statsOf(a.lifetimes(), a.problem(), a.placement(), 0), new SyncPlan(events));
    }

    @Test
    void overBudgetEachStreamStillReusesItsOwnStorages() {
        for (int streams : new int[]{2, 4}) {
            Graph g = chains(streams, 40);
            List<SyncEvent> data = DataSync.events(g);
            StreamPlanner.Attempt exact = StreamPlanner.attempt(g, data, OPTS, Planners.byName("best"));
            StreamPlanner.Attempt over = StreamPlanner.attempt(g, data, OPTS, Planners.byName("best"), GreedyPlacer.NO_DEADLINE, 0);
            assertThat(over.conflicts().widened()).isTrue();
            // widened alone moves every start back to 0 (the other streams never sync): all 40 x streams storages apart
            assertThat(over.arena()).as("%d streams", streams).isLessThan(40L * 1024 * streams / 4);
            assertThat(over.arena()).isGreaterThanOrEqualTo(exact.arena());
            assertThat(over.placement().planner()).contains(LaneRegions.NOTE);
            Plan plan = planOf(g, over, data);
            assertThat(PlanValidator.validate(plan)).isEmpty();
            assertThat(ByteOracle.unordered(plan)).isEmpty();
            assertThat(StreamPlanner.price(plan, OPTS).widened()).isTrue();
        }
    }

    @Test
    void theWidenedProblemIsNotPlacedWhenTheRegionsReachItsLowerBound() {
        Graph g = chains(2, 40);
        List<Integer> placed = new java.util.ArrayList<>();
        Planner best = Planners.byName("best");
        Planner counting = new Planner() {
            @Override public String name() { return "best"; }
            @Override public Placement place(Problem p) { placed.add(p.size()); return best.place(p); }
            @Override public Placement place(Problem p, long deadline) { placed.add(p.size()); return best.place(p, deadline); }
        };
        StreamPlanner.Attempt a = StreamPlanner.attempt(g, DataSync.events(g), OPTS, counting, GreedyPlacer.NO_DEADLINE, 0);
        assertThat(a.placement().planner()).contains(LaneRegions.NOTE);
        assertThat(placed).as("one placement per region, none of all %d storages", a.problem().size())
                .hasSize(3).doesNotContain(a.problem().size());
    }

    @Test
    void overBudgetRandomGraphsGiveValidPlansWithEitherFallback() {
        int regions = 0, widened = 0;
        for (long seed = 0; seed < 150; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 3), 24);
            List<SyncEvent> data = DataSync.events(g);
            for (String planner : List.of("best", "greedy-size", "naive")) {
                StreamPlanner.Attempt a = StreamPlanner.attempt(g, data, OPTS, Planners.byName(planner), GreedyPlacer.NO_DEADLINE, 0);
                if (!a.conflicts().widened()) continue;
                widened++;
                if (a.placement().planner().contains(LaneRegions.NOTE)) regions++;
                Plan plan = planOf(g, a, data);
                assertThat(PlanValidator.validate(plan)).as("seed %d %s", seed, planner).isEmpty();
                assertThat(ByteOracle.unordered(plan)).as("seed %d %s", seed, planner).isEmpty();
                // never worse than the widened intervals alone
                Placement wide = Planners.byName(planner).place(StreamPlanner.problemOf(a.lifetimes(), a.conflicts(), OPTS.alignment()));
                assertThat(a.arena()).isLessThanOrEqualTo(wide.arenaBytes());
            }
        }
        assertThat(widened).isGreaterThan(100);
        assertThat(regions).isGreaterThan(20);
    }

    @Test
    void theLaneRegionsPlacementItselfIsValidOnEveryOverBudgetGraph() {
        for (long seed = 0; seed < 150; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 3), 24);
            List<SyncEvent> data = DataSync.events(g);
            StreamPlanner.Attempt a = StreamPlanner.attempt(g, data, OPTS, Planners.byName("best"), GreedyPlacer.NO_DEADLINE, 0);
            if (!a.conflicts().widened()) continue;
            LaneRegions.Result r = LaneRegions.place(a.lifetimes(), a.conflicts(), OPTS.alignment(), Planners.byName("best"), GreedyPlacer.NO_DEADLINE);
            Plan plan = planOf(g, new StreamPlanner.Attempt(a.hb(), a.lifetimes(), a.conflicts(), r.problem(), r.placement()), data);
            assertThat(PlanValidator.validate(plan)).as("seed %d", seed).isEmpty();
            assertThat(ByteOracle.unordered(plan)).as("seed %d", seed).isEmpty();
        }
    }
}
