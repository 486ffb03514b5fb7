package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FreeGapsTest {
    private static List<String> holding(FreeGaps f, long size, boolean smallestFirst) {
        return holding(smallestFirst ? f.smallestHolding(size) : f.lowestHolding(size, Integer.MAX_VALUE));
    }

    private static List<String> holding(Iterator<long[]> it) {
        List<String> out = new ArrayList<>();
        for (; it.hasNext(); ) {
            long[] g = it.next();
            out.add(g[0] + "-" + g[1]);
        }
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

    @Test
    void takingBytesThatAreNotFreeIsABug() {
        FreeGaps f = new FreeGaps();
        f.take(10, 20);
        assertThatThrownBy(() -> f.take(15, 25)).isInstanceOf(IllegalStateException.class).hasMessageContaining("[15, 25)");
    }
}
