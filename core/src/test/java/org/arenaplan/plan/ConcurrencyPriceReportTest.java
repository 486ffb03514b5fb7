package org.arenaplan.plan;

import org.arenaplan.hb.StreamGraphsForTests;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measures the price of concurrency on built equivalents of inception, transformer and U-Net
 * graphs (the table in docs/streams.md comes from this test's output) and checks every plan.
 */
class ConcurrencyPriceReportTest {

    @Test
    void priceOfConcurrencyOnBuiltGraphs() {
        ArenaPlanner.Options o = ArenaPlanner.Options.DEFAULT;
        List<Graph> graphs = List.of(StreamGraphsForTests.inceptionLike(3, 4), StreamGraphsForTests.transformerLike(2, 4),
                StreamGraphsForTests.unetLike(4));
        System.out.printf("%-17s %3s %12s %12s %12s %6s %6s %6s %10s %7s %12s %12s %6s%n", "graph", "N", "arena 1 str", "arena none", "arena add",
                "data", "data+", "reuse", "saved B", "pairs", "capacity", "arena cap", "reuse");
        String example = null;
        for (Graph g : graphs) {
            for (int n : new int[]{2, 4}) {
                Plan none = StreamPlanner.plan(g, n, SyncMode.NONE, o);
                Plan add = StreamPlanner.plan(g, n, SyncMode.ADD, o);
                assertThat(PlanValidator.validate(none)).isEmpty();
                assertThat(PlanValidator.validate(add)).isEmpty();
                assertThat(add.arenaBytes()).isLessThanOrEqualTo(none.arenaBytes());
                ConcurrencyPrice pn = StreamPlanner.price(none, o);
                ConcurrencyPrice pa = StreamPlanner.price(add, o);
                assertThat(pn.arenaStreams()).isGreaterThanOrEqualTo(none.stats().lowerBoundBytes());
                assertThat(pa.arenaSyncNone()).isEqualTo(pn.arenaStreams());
                assertThat(pa.dataEventsSyncNone()).isEqualTo(pn.dataEvents());
                long capacity = (none.arenaBytes() + add.arenaBytes()) / 2;
                Plan fit = StreamPlanner.plan(g, n, SyncMode.ADD, o.withPlannerOptions(o.plannerOptions().withCapacity(capacity)));
                assertThat(PlanValidator.validate(fit)).isEmpty();
                assertThat(fit.arenaBytes()).isLessThanOrEqualTo(Math.max(capacity, add.arenaBytes()));
                ConcurrencyPrice pf = StreamPlanner.price(fit, o);
                assertThat(pf.reuseEvents()).isLessThanOrEqualTo(pa.reuseEvents());
                System.out.printf("%-17s %3d %12d %12d %12d %6d %6d %6d %10d %7d %12d %12d %6d%n", g.name(), pn.streams(), pn.arenaOneStream(),
                        pn.arenaStreams(), pa.arenaStreams(), pn.dataEvents(), pa.dataEvents(), pa.reuseEvents(), pa.bytesSaved(), pn.extraConflicts(),
                        capacity, pf.arenaStreams(), pf.reuseEvents());
                if (g == graphs.get(0) && n == 4) example = pa.summary();
            }
        }
        System.out.println("--sync add, inception-like, 4 streams:");
        System.out.println(example);
    }
}
