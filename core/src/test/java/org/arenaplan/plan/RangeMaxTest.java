package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RangeMaxTest {
    @Test
    void everyRangeGivesTheEarliestLargestAsAScanDoes() {
        Random r = new Random(4);
        for (int round = 0; round < 200; round++) {
            long[] v = new long[1 + r.nextInt(70)];
            for (int i = 0; i < v.length; i++) v[i] = r.nextInt(8) - 4;   // few values: many ties
            RangeMax m = new RangeMax(v);
            for (int a = 0; a < v.length; a++) {
                int best = a;
                for (int b = a + 1; b <= v.length; b++) {
                    if (v[b - 1] > v[best]) best = b - 1;
                    assertThat(m.argMax(a, b)).as("round %d [%d, %d)", round, a, b).isEqualTo(best);
                    assertThat(m.max(a, b, 99)).isEqualTo(v[best]);
                }
                assertThat(m.max(a, a, 99)).as("empty").isEqualTo(99);
            }
        }
    }
}
