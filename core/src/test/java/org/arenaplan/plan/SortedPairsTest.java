package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SortedPairsTest {
    private record Pair(long a, long b) implements Comparable<Pair> {
        @Override
        public int compareTo(Pair o) {
            return a != o.a ? Long.compare(a, o.a) : Long.compare(b, o.b);
        }
    }

    private static List<Pair> walk(SortedPairs s) {
        List<Pair> out = new ArrayList<>();
        for (long c = s.firstPosition(); c != SortedPairs.NONE; c = s.next(c)) out.add(new Pair(s.first(c), s.second(c)));
        return out;
    }

    private static Pair at(SortedPairs s, long c) {
        return c == SortedPairs.NONE ? null : new Pair(s.first(c), s.second(c));
    }

    @Test
    void randomInsertsAndRemovesMatchATreeSetThroughSplitsAndDrops() {
        Random r = new Random(9);
        SortedPairs s = new SortedPairs();
        TreeSet<Pair> model = new TreeSet<>();
        for (int op = 0; op < 60_000; op++) {
            int phase = op / 10_000;                           // grow, shrink, grow...: blocks split, then empty and drop
            boolean grow = phase % 2 == 0;
            Pair p = new Pair(r.nextInt(300), r.nextInt(300));
            if (grow ? r.nextInt(4) > 0 : r.nextInt(4) == 0) {
                if (model.add(p)) s.insert(p.a(), p.b());
            } else if (!model.isEmpty()) {
                Pair q = model.ceiling(p) != null ? model.ceiling(p) : model.first();
                model.remove(q);
                s.remove(q.a(), q.b());
            }
            Pair probe = new Pair(r.nextInt(310) - 5, r.nextInt(310) - 5);
            assertThat(at(s, s.floor(probe.a(), probe.b()))).as("floor " + probe).isEqualTo(model.floor(probe));
            assertThat(at(s, s.ceiling(probe.a(), probe.b()))).as("ceiling " + probe).isEqualTo(model.ceiling(probe));
            assertThat(s.size()).isEqualTo(model.size());
            if (op % 1000 == 0) assertThat(walk(s)).containsExactlyElementsOf(model);
        }
        assertThat(at(s, s.lastPosition())).isEqualTo(model.isEmpty() ? null : model.last());
    }

    @Test
    void changingAValueInPlaceKeepsThePosition() {
        SortedPairs s = new SortedPairs();
        for (int i = 0; i < 200; i++) s.insert(10L * i, i);
        long c = s.floor(505, Long.MAX_VALUE);                  // (500, 50)
        s.setFirst(c, 505);
        s.setSecond(c, 7);
        assertThat(at(s, s.floor(509, 0))).isEqualTo(new Pair(505, 7));
        assertThat(at(s, s.next(c))).isEqualTo(new Pair(510, 51));
        s.remove(505, 7);
        assertThat(s.size()).isEqualTo(199);
    }

    @Test
    void removingAPairNotHeldIsABug() {
        SortedPairs s = new SortedPairs();
        s.insert(1, 2);
        assertThatThrownBy(() -> s.remove(1, 3)).isInstanceOf(IllegalStateException.class).hasMessageContaining("(1, 3)");
    }
}
