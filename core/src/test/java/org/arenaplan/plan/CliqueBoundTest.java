package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

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
}
