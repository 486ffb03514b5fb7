package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class IntervalIndexTest {
    @Test
    void reportsExactlyTheOverlappingIntervals() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = 1 + r.nextInt(60);
            long[] lo = new long[n], hi = new long[n];
            for (int i = 0; i < n; i++) {
                lo[i] = r.nextInt(100);
                hi[i] = lo[i] + 1 + r.nextInt(30);
            }
            IntervalIndex ix = new IntervalIndex(lo, hi);
            for (int q = 0; q < 20; q++) {
                long a = r.nextInt(120);
                long b = a + 1 + r.nextInt(20);
                List<Integer> got = new ArrayList<>();
                ix.forEachOverlap(a, b, got::add);
                List<Integer> want = new ArrayList<>();
                for (int i = 0; i < n; i++) if (lo[i] < b && a < hi[i]) want.add(i);
                assertThat(got).containsExactlyInAnyOrderElementsOf(want);
            }
        }
    }

    @Test
    void overlappingPairsCountEveryOrderedPairOfAllAndOfASubset() {
        // Against the pairwise definition, with many equal starts and ends (half-open: [0, 2) and [2, 4) do not overlap).
        Random r = new Random(11);
        for (int round = 0; round < 300; round++) {
            int n = 1 + r.nextInt(80);
            String[] ids = new String[n];
            long[] lo = new long[n], hi = new long[n], size = new long[n];
            for (int i = 0; i < n; i++) {
                ids[i] = "b" + i;
                lo[i] = r.nextInt(20);
                hi[i] = lo[i] + 1 + r.nextInt(round % 2 == 0 ? 4 : 30);
                size[i] = 1;
            }
            Problem p = new Problem(ids, lo, hi, size, 1);
            int[] subset = new int[n];
            int count = 0;
            for (int i = n - 1; i >= 0; i--) if (r.nextBoolean()) subset[count++] = i;
            boolean[] in = new boolean[n];
            for (int k = 0; k < count; k++) in[subset[k]] = true;
            long all = 0, some = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (i == j || !(lo[i] < hi[j] && lo[j] < hi[i])) continue;
                    all++;
                    if (in[i] && in[j]) some++;
                }
            }
            assertThat(p.overlappingPairs(subset, count)).as("subset, round " + round).isEqualTo(some);
            assertThat(p.overlappingPairs()).as("round " + round).isEqualTo(all);
        }
    }

    @Test
    void lowerBoundIsTheWidestInstantWithHalfOpenEnds() {
        Problem p = Fixtures.problem(1, Fixtures.buf("a", 5, 0, 2), Fixtures.buf("b", 7, 2, 4), Fixtures.buf("c", 3, 1, 3));
        assertThat(p.lowerBound()).isEqualTo(10);
        assertThat(Fixtures.problem(256, Fixtures.buf("a", 1, 0, 1), Fixtures.buf("b", 1, 0, 1)).lowerBound()).isEqualTo(512);
    }

    @Test
    void badProblemsNameTheBuffer() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fixtures.problem(1, Fixtures.buf("neg", -1, 0, 1)))
                .hasMessageContaining("'neg'").hasMessageContaining("negative");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fixtures.problem(1, Fixtures.buf("empty", 1, 3, 3)))
                .hasMessageContaining("'empty'").hasMessageContaining("upper must exceed lower");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Fixtures.problem(256, Fixtures.buf("big", Long.MAX_VALUE - 3, 0, 1)))
                .hasMessageContaining("'big'").hasMessageContaining("overflows");
    }
}
