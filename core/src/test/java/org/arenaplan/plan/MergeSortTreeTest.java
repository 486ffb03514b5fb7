package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class MergeSortTreeTest {
    /**
     * Against a scan of the window: -1 exactly when no range meets the query; otherwise an end
     * above x and at least the end of the lowest-ending range that meets it, and every offset
     * skipped on the way to it
     * (each y' in [x, end) for a query of the same length) still meets a range of the window,
     * which is what lets the sweep jump there. Asked with a finite {@code enough}, the answer
     * is the one asked without it where that is at most {@code enough}, else another end above
     * {@code enough} with the same guarantees.
     */
    @Test
    void blockEndAgreesWithAScanOfTheWindow() {
        Random r = new Random(11);
        for (int round = 0; round < 300; round++) {
            int n = 1 + r.nextInt(40);
            long[] from = new long[n], to = new long[n];
            for (int i = 0; i < n; i++) {
                from[i] = r.nextInt(60);
                to[i] = from[i] + r.nextInt(12);           // some empty ranges: they meet nothing
            }
            MergeSortTree t = new MergeSortTree(from, to);
            for (int q = 0; q < 60; q++) {
                int a = r.nextInt(n + 1), b = a + r.nextInt(n - a + 1);
                long x = r.nextInt(75), len = 1 + r.nextInt(10);
                t.window(a, b);
                long enough = r.nextBoolean() ? Long.MAX_VALUE : x + r.nextInt(12);
                long end = t.blockEnd(x, x + len, enough);
                long maxMeeting = -1, minMeeting = Long.MAX_VALUE;
                for (int i = a; i < b; i++) {
                    if (meets(from[i], to[i], x, x + len)) {
                        maxMeeting = Math.max(maxMeeting, to[i]);
                        minMeeting = Math.min(minMeeting, to[i]);
                    }
                }
                String what = "round " + round + " window [" + a + ", " + b + ") bytes [" + x + ", " + (x + len) + ")";
                if (maxMeeting < 0) {
                    assertThat(end).as(what).isEqualTo(-1);
                    continue;
                }
                assertThat(end).as(what).isGreaterThan(x).isGreaterThanOrEqualTo(minMeeting);
                long full = t.blockEnd(x, x + len, Long.MAX_VALUE);
                if (full <= enough) assertThat(end).as(what + " (enough " + enough + ")").isEqualTo(full);
                else assertThat(end).as(what + " (enough " + enough + ")").isGreaterThan(enough);
                for (long y = x; y < end; y++) {
                    boolean blocked = false;
                    for (int i = a; i < b && !blocked; i++) blocked = meets(from[i], to[i], y, y + len);
                    assertThat(blocked).as(what + ": offset " + y + " below " + end + " is free").isTrue();
                }
            }
        }
    }

    private static boolean meets(long f, long t, long x, long y) {
        return f < t && f < y && x < t;
    }
}
