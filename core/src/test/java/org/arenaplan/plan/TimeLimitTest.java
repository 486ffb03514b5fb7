package org.arenaplan.plan;

import org.arenaplan.plan.search.SearchOutcome;
import org.arenaplan.plan.search.SearchPlanner;
import org.arenaplan.plan.search.SearchStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every planner honours its deadline: a passed deadline cuts the heuristics short with a valid
 * placement that says so, and search returns within its limit plus a generous margin while
 * another thread keeps a core busy. (No assertion on speed: the margin only catches a limit
 * that is ignored.)
 */
class TimeLimitTest {
    private static final Problem WIDE = WideTraces.generate(11, 30_000, 4_500);
    /** Far more than the documented margin; catches a planner that ignores its limit. */
    private static final long MARGIN_NANOS = 20_000_000_000L;

    @Test
    void aPassedDeadlineCutsEveryHeuristicShortWithAValidPlacement() {
        int[] order = Orders.bySizeDesc(WIDE);
        for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
            GreedyPlacer.Result r = GreedyPlacer.place(WIDE, order, fit, System.nanoTime() - 1);
            assertThat(r.complete()).isFalse();
            assertThat(PlacementValidator.validate(WIDE, Placement.of(WIDE, r.offsets(), "cut"))).isEmpty();
        }
        Placement best = new BestPlanner().place(WIDE, System.nanoTime() - 1);
        assertThat(best.planner()).contains("cut at the time limit");
        assertThat(PlacementValidator.validate(WIDE, best)).isEmpty();
        Placement size = new GreedySizePlanner(Duration.ZERO).place(WIDE);
        assertThat(size.planner()).as("past the exact budget, so swept").isEqualTo("greedy-size (swept, cut at the time limit)");
        assertThat(PlacementValidator.validate(WIDE, size)).isEmpty();
    }

    @Test
    void withoutALimitNothingIsCut() {
        Problem p = WideTraces.generate(2, 2_000, 300);
        assertThat(new BestPlanner().place(p).planner()).doesNotContain("cut");
        assertThat(Planners.byName("greedy-breadth", new PlannerOptions(null, null)).place(p).planner()).isEqualTo("greedy-breadth");
    }

    @Test
    void searchReturnsWithinItsLimitWhileAnotherThreadKeepsACoreBusy() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = new Thread(() -> {
            long x = 0;
            while (!stop.get()) x += System.nanoTime() % 7;
            if (x == 42) System.out.print("");
        }, "busy-core");
        busy.setDaemon(true);
        busy.start();
        try {
            for (Long capacity : new Long[]{null, WIDE.lowerBound()}) {
                Duration limit = Duration.ofMillis(500);
                long t0 = System.nanoTime();
                SearchOutcome out = new SearchPlanner(new PlannerOptions(capacity, limit)).solve(WIDE);
                long took = System.nanoTime() - t0;
                assertThat(took).as("capacity " + capacity).isLessThan(limit.toNanos() + MARGIN_NANOS);
                assertThat(PlacementValidator.validate(WIDE, out.placement())).isEmpty();
                if (capacity == null) assertThat(out.status()).isIn(SearchStatus.OPTIMAL, SearchStatus.TIMEOUT_BEST_EFFORT);
            }
        } finally {
            stop.set(true);
            busy.join();
        }
    }
}
