package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Random;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FreeGapsTest {
    private static List<String> holding(FreeGaps f, long size, boolean smallestFirst) {
        return holding(smallestFirst ? f.smallestHolding(size) : f.lowestHolding(size, Integer.MAX_VALUE));
    }

    private static List<String> holding(FreeGaps.Walk w) {
        List<String> out = new ArrayList<>();
        while (w.next()) out.add(w.start + "-" + w.end);
        return out;
    }

    @Test
    void takingSplitsAndFreeingMergesBackToOneGap() {
        FreeGaps f = new FreeGaps();
        f.take(0, 100);
        f.take(100, 130);
        f.take(130, 200);
        f.take(200, 210);
        assertThat(f.top()).isEqualTo(210);
        f.free(100, 130);
        f.free(200, 210);
        assertThat(f.top()).as("the freed top merges into the last gap").isEqualTo(200);
        assertThat(holding(f, 1, true)).containsExactly("100-130");
        f.free(0, 100);
        assertThat(holding(f, 1, true)).containsExactly("0-130");
        f.free(130, 200);
        assertThat(f.size()).isEqualTo(1);
        assertThat(f.top()).isZero();
    }

    @Test
    void gapsComeSmallestFirstOrLowestFirstAndOnlyThoseThatHold() {
        FreeGaps f = new FreeGaps();
        f.take(0, 1000);
        f.free(0, 50);      // 50 B at 0
        f.free(100, 110);   // 10 B at 100
        f.free(200, 230);   // 30 B at 200
        f.free(300, 330);   // 30 B at 300
        assertThat(holding(f, 20, true)).containsExactly("200-230", "300-330", "0-50");
        assertThat(holding(f, 20, false)).containsExactly("0-50", "200-230", "300-330");
        assertThat(holding(f, 60, true)).as("the last gap is never a candidate").isEmpty();
        assertThat(holding(f.lowestHolding(20, 2))).as("among the lowest two gaps only").containsExactly("0-50");
    }

    /** The free gaps of a bitmap of used bytes below {@code limit}, as "start-end", the last one to {@link FreeGaps#END}. */
    private static List<String> gapsOf(BitSet used, int limit) {
        List<String> out = new ArrayList<>();
        for (int s = used.nextClearBit(0); s < limit; ) {
            int e = used.nextSetBit(s);
            out.add(s + "-" + (e < 0 ? FreeGaps.END : e));
            if (e < 0) break;
            s = used.nextClearBit(e);
        }
        return out;
    }

    @Test
    void randomTakesAndFreesKeepTheGapsOfABitmapInBothOrders() {
        Random r = new Random(3);
        for (int round = 0; round < 20; round++) {
            FreeGaps f = new FreeGaps();
            BitSet used = new BitSet();
            List<long[]> taken = new ArrayList<>();
            int limit = 1 << 16;
            for (int op = 0; op < 4000; op++) {                  // thousands of gaps: blocks split and drop
                if (taken.isEmpty() || r.nextInt(5) < 3) {
                    int from = r.nextInt(limit - 64), len = 1 + r.nextInt(r.nextBoolean() ? 4 : 64);
                    if (used.get(from, from + len).isEmpty()) {
                        f.take(from, from + len);
                        used.set(from, from + len);
                        taken.add(new long[] {from, from + len});
                    }
                } else {
                    long[] t = taken.remove(r.nextInt(taken.size()));
                    f.free(t[0], t[1]);
                    used.clear((int) t[0], (int) t[1]);
                }
                if (op % 97 == 0 || op == 3999) {
                    List<String> lowest = holding(f, 1, false);
                    List<String> expected = gapsOf(used, limit + 1);
                    assertThat(lowest).as("round " + round + " op " + op).isEqualTo(expected.subList(0, expected.size() - 1));
                    assertThat(f.size()).isEqualTo(expected.size());
                    assertThat(f.top()).isEqualTo(Math.max(0, used.length()));
                    long size = 1 + r.nextInt(40);
                    List<String> smallest = holding(f, size, true);
                    List<String> want = new ArrayList<>(expected.subList(0, expected.size() - 1));
                    want.removeIf(g -> length(g) < size);
                    want.sort(java.util.Comparator.comparingLong(FreeGapsTest::length).thenComparingLong(g -> Long.parseLong(g.split("-")[0])));
                    assertThat(smallest).as("round " + round + " op " + op + " size " + size).isEqualTo(want);
                }
            }
        }
    }

    private static long length(String gap) {
        String[] se = gap.split("-");
        return Long.parseLong(se[1]) - Long.parseLong(se[0]);
    }

    @Test
    void takingBytesThatAreNotFreeIsABug() {
        FreeGaps f = new FreeGaps();
        f.take(10, 20);
        assertThatThrownBy(() -> f.take(15, 25)).isInstanceOf(IllegalStateException.class).hasMessageContaining("[15, 25)");
    }
}
