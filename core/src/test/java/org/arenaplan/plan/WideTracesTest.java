package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The synthetic wide traces: their shape, and every heuristic's placement of one validated.
 * (Their planning time is measured by PlannerBench, not here.)
 */
class WideTracesTest {
    @Test
    void aWideTraceHasTheAskedForBuffersAboutTheAskedForWidthAndIsReproducible() {
        Problem p = WideTraces.generate(7, 20_000, 3_000);
        assertThat(p.size()).isEqualTo(20_000);
        assertThat(WideTraces.maxLive(p)).isBetween(2_400, 4_000);
        Problem again = WideTraces.generate(7, 20_000, 3_000);
        for (int i = 0; i < p.size(); i += 97) {
            assertThat(again.lower(i)).isEqualTo(p.lower(i));
            assertThat(again.upper(i)).isEqualTo(p.upper(i));
            assertThat(again.bytes(i)).isEqualTo(p.bytes(i));
        }
        assertThat(GreedyPlacer.isWide(p)).as("wide enough for the occupancy tree").isTrue();
    }

    @Test
    void everyHeuristicAndBestPlaceAWideTraceValidly() {
        Problem p = WideTraces.generate(3, 6_000, 900);
        long lb = p.lowerBound();
        long bestArena = Long.MAX_VALUE;
        for (String name : new String[]{"greedy-size", "greedy-breadth"}) {
            Placement s = Planners.byName(name, new PlannerOptions(null, null)).place(p);
            assertThat(PlacementValidator.validate(p, s)).as(name).isEmpty();
            assertThat(s.arenaBytes()).as(name).isGreaterThanOrEqualTo(lb);
            bestArena = Math.min(bestArena, s.arenaBytes());
        }
        Placement best = new BestPlanner().place(p);
        assertThat(PlacementValidator.validate(p, best)).isEmpty();
        assertThat(best.arenaBytes()).isLessThanOrEqualTo(bestArena);
    }

    @Test
    void theOccupancyTreeAndNeighbourEnumerationAgreeOnAWideTrace() {
        Problem p = WideTraces.generate(5, 3_000, 450);
        for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
            int[] order = Orders.byBreadth(p);
            assertThat(GreedyPlacer.placeWide(p, order, fit)).as(fit.name()).containsExactly(GreedyPlacer.placeByNeighbours(p, order, fit));
        }
    }

    @Test
    void aWidthAboveHalfTheBuffersIsRefused() {
        assertThatThrownBy(() -> WideTraces.generate(1, 100, 60)).isInstanceOf(PlanningException.class).hasMessageContaining("width");
    }
}
