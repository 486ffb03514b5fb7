package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.arenaplan.plan.Fixtures.buf;
import static org.arenaplan.plan.Fixtures.problem;
import static org.assertj.core.api.Assertions.assertThat;

class GreedyPlacerTest {
    private static Problem random(Random r, boolean extras) {
        Problem p = Fixtures.randomProblem(r, 120, 50, 40, x -> x.nextInt(10) == 0 ? 0 : 1 + x.nextInt(1000));
        int n = p.size();
        if (!extras) return p;
        java.util.List<java.util.Set<Integer>> adj = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new java.util.TreeSet<>());
        for (int e = 0; e < n; e++) {
            int a = r.nextInt(n), b = r.nextInt(n);
            if (a != b) {
                adj.get(a).add(b);
                adj.get(b).add(a);
            }
        }
        int[][] ex = new int[n][];
        for (int i = 0; i < n; i++) ex[i] = adj.get(i).stream().mapToInt(Integer::intValue).toArray();
        return p.withExtraConflicts(ex);
    }

    @Test
    void theOccupancyTreeGivesExactlyTheGapsOfNeighbourEnumeration() {
        Random r = new Random(11);
        for (int round = 0; round < 500; round++) {
            Problem p = random(r, round % 2 == 1);
            for (GreedyPlacer.Fit fit : GreedyPlacer.Fit.values()) {
                int[] order = Orders.bySizeDesc(p);
                long[] a = GreedyPlacer.placeByNeighbours(p, order, fit);
                long[] b = GreedyPlacer.placeWide(p, order, fit);
                assertThat(b).as("round " + round + " " + fit).containsExactly(a);
                assertThat(PlacementValidator.validate(p, Placement.of(p, a, "x"))).isEmpty();
            }
        }
    }

    @Test
    void bestFitTakesTheSmallestGapThatHoldsAndFirstFitTheLowest() {
        // Long-lived L1 [0,10) at 0, s1 [10,20), L2 [20,28), s2 [28,33), L3 [33,37); s1 and s2 die at 2,
        // leaving holes of 10 bytes at 10 and 5 bytes at 28 for e (4 bytes, [5,10)).
        Problem p = problem(1, buf("L1", 10, 0, 10), buf("s1", 10, 0, 2), buf("L2", 8, 0, 10), buf("s2", 5, 0, 2),
                buf("L3", 4, 0, 10), buf("e", 4, 5, 10));
        long[] best = GreedyPlacer.place(p, Orders.bySizeDesc(p), GreedyPlacer.Fit.BEST);
        long[] first = GreedyPlacer.place(p, Orders.bySizeDesc(p), GreedyPlacer.Fit.FIRST);
        assertThat(best).containsExactly(0, 10, 20, 28, 33, 28);
        assertThat(first[5]).isEqualTo(10);
    }

    @Test
    void breadthOrderPlacesTheWidestInstantFirst() {
        Problem p = problem(1, buf("a", 4, 0, 1), buf("b", 4, 0, 1), buf("c", 10, 1, 2), buf("d", 1, 1, 2), buf("e", 9, 2, 3));
        int[] order = Orders.byBreadth(p);
        assertThat(p.id(order[0])).isEqualTo("c");
        assertThat(p.id(order[1])).isEqualTo("d");
    }
}
