package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrdersTest {
    /** Against the JDK's sort of boxed indices with a comparator of the keys in turn, then the index. */
    @Test
    void sortedByKeysIsTheKeysInTurnThenTheIndex() {
        Random r = new Random(5);
        for (int round = 0; round < 400; round++) {
            int n = r.nextInt(round < 200 ? 60 : 3000);
            int keyCount = 1 + r.nextInt(3);
            long[][] keys = new long[keyCount][n];
            int spread = 1 + r.nextInt(round % 2 == 0 ? 4 : 1_000_000);   // many ties, or few
            for (long[] k : keys) for (int i = 0; i < n; i++) k[i] = r.nextInt(spread) - spread / 2;
            Integer[] expected = new Integer[n];
            for (int i = 0; i < n; i++) expected[i] = i;
            Comparator<Integer> byKeys = (x, y) -> {
                for (long[] k : keys) if (k[x] != k[y]) return Long.compare(k[x], k[y]);
                return Integer.compare(x, y);
            };
            Arrays.sort(expected, byKeys);
            int[] got = Orders.sortedByKeys(n, keys);
            assertThat(got).as("round " + round + ", n " + n + ", " + keyCount + " keys")
                    .containsExactly(Arrays.stream(expected).mapToInt(Integer::intValue).toArray());
        }
    }

    @Test
    void aPassedDeadlineThrowsOnALargeSort() {
        long[] key = new long[2 * Orders.CLOCK_RUN];
        for (int i = 0; i < key.length; i++) key[i] = -i;
        assertThatThrownBy(() -> Orders.sortedByKeys(System.nanoTime() - 1, key.length, key)).isInstanceOf(Orders.TimeUp.class);
    }
}
