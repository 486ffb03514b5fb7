package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class CliqueBoundTest {
    private static final String[] IDS = {"a", "b", "c"};
    private static final long[] LO = {0, 1, 2};
    private static final long[] HI = {1, 2, 3};
    private static final long[] SIZE = {100, 200, 300};

    @Test
    void withoutExtraConflictsItIsTheLiveBytesMaximum() {
        Problem p = new Problem(IDS, LO, HI, SIZE, 1);
        assertThat(CliqueBound.of(p)).isEqualTo(300).isEqualTo(p.lowerBound());
    }

    /** Three buffers at disjoint positions, pairwise unordered (three streams, no event): they sit side by side. */
    @Test
    void unorderedBuffersAddUpAndThePlacementCannotBeatIt() {
        Problem p = new Problem(IDS, LO, HI, SIZE, 1, new int[][]{{1, 2}, {0, 2}, {0, 1}});
        assertThat(CliqueBound.of(p)).isEqualTo(600);
        assertThat(Planners.byName("best").place(p).arenaBytes()).isEqualTo(600);
    }

    /** a-b and b-c unordered, a and c ordered: the heaviest clique is {b, c}. */
    @Test
    void onlyAClique() {
        Problem p = new Problem(IDS, LO, HI, SIZE, 1, new int[][]{{1}, {0, 2}, {1}});
        assertThat(CliqueBound.of(p)).isEqualTo(500);
        assertThat(Planners.byName("best").place(p).arenaBytes()).isEqualTo(500);
    }

    /**
     * Searched once per problem: the stats, the peak explanation and the plan JSON each searched
     * it again, three times the slowest step of a plan on many streams (newcomer: a 6,000-op
     * graph on 64 streams spent most of its time there). The members handed out are copies.
     */
    @Test
    void searchedOncePerProblemAndItsMembersAreCopies() {
        Problem p = new Problem(IDS, LO, HI, SIZE, 1, new int[][]{{1}, {0, 2}, {1}});
        CliqueBound.Clique c = CliqueBound.best(p);
        assertThat(CliqueBound.best(p)).isSameAs(c);
        int[] members = c.members();
        assertThat(members).containsExactlyInAnyOrder(1, 2);
        c.members()[0] = 0;
        assertThat(CliqueBound.best(p).members()).containsExactly(members);
    }

    /**
     * The search (a sweep for the candidates, instants skipped when they cannot beat the best
     * clique found) finds the very clique the straightforward search it replaced finds
     * ({@link CliqueBoundReference}): same bytes, same instant, same members in the same order,
     * on random problems with repeated sizes (ties), alignment, and extra conflicts between
     * disjoint and between overlapping intervals.
     */
    @Test
    void sameCliqueAsTheStraightforwardSearch() {
        Random r = new Random(20261204);
        long[] sizes = {0, 1, 64, 100, 256, 256, 1000, 4096};
        for (int trial = 0; trial < 2000; trial++) {
            int n = 1 + r.nextInt(40);
            String[] ids = new String[n];
            long[] lo = new long[n];
            long[] hi = new long[n];
            long[] size = new long[n];
            for (int i = 0; i < n; i++) {
                ids[i] = "b" + i;
                lo[i] = r.nextInt(30);
                hi[i] = lo[i] + 1 + r.nextInt(1 + r.nextInt(12));
                size[i] = sizes[r.nextInt(sizes.length)];
            }
            double density = r.nextDouble();
            List<List<Integer>> adj = new ArrayList<>();
            for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    boolean overlap = lo[i] < hi[j] && lo[j] < hi[i];
                    if (r.nextDouble() < (overlap ? density / 4 : density)) {
                        adj.get(i).add(j);
                        adj.get(j).add(i);
                    }
                }
            }
            for (List<Integer> a : adj) java.util.Collections.shuffle(a, r);   // lists in no particular order
            int[][] extra = adj.stream().map(a -> a.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
            Problem p = new Problem(ids, lo, hi, size, r.nextBoolean() ? 1 : 64, extra);
            CliqueBound.Clique want = CliqueBoundReference.search(p);
            CliqueBound.Clique got = CliqueBound.search(p);
            String at = "trial " + trial;
            assertThat(got.bytes()).as(at).isEqualTo(want.bytes());
            assertThat(got.instant()).as(at).isEqualTo(want.instant());
            assertThat(got.members()).as(at).containsExactly(want.members());
        }
    }
}
