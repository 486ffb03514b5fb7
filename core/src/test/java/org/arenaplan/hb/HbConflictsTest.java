package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class HbConflictsTest {

    @Test
    void extraConflictsAreExactlyTheUnorderedIntervalDisjointPairs() {
        for (long seed = 0; seed < 300; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 3), 25);
            List<SyncEvent> events = DataSync.events(g);
            HappensBefore hb = HappensBefore.of(g, events);
            Lifetimes l = Lifetimes.of(g, hb, false);
            HbConflicts c = HbConflicts.of(l, hb);
            Set<String> expected = bruteForcePairs(g, l, new BruteOrder(g, events));
            Set<String> found = new TreeSet<>();
            for (int i = 0; i < c.extras().length; i++) {
                for (int j : c.extras()[i]) {
                    found.add(Math.min(i, j) + "-" + Math.max(i, j));
                    assertThat(c.extras()[j]).as("symmetric").contains(i);
                }
            }
            assertThat(found).as("seed %d", seed).isEqualTo(expected);
            assertThat(c.pairs()).isEqualTo(expected.size());
            assertThat(c.widened()).isFalse();
        }
    }

    @Test
    void overBudgetTheWidenedIntervalsCoverEveryUnorderedPair() {
        int widenedGraphs = 0;
        for (long seed = 0; seed < 300; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 3, 25);
            List<SyncEvent> events = DataSync.events(g);
            HappensBefore hb = HappensBefore.of(g, events);
            Lifetimes l = Lifetimes.of(g, hb, false);
            Set<String> pairs = bruteForcePairs(g, l, new BruteOrder(g, events));
            if (pairs.isEmpty()) continue;
            HbConflicts c = HbConflicts.of(l, hb, 0);
            assertThat(c.widened()).isTrue();
            widenedGraphs++;
            for (String pair : pairs) {
                int s = Integer.parseInt(pair.split("-")[0]);
                int t = Integer.parseInt(pair.split("-")[1]);
                boolean overlap = c.lower()[s] < l.storages().get(t).end() && c.lower()[t] < l.storages().get(s).end();
                assertThat(overlap).as("seed %d: pair %s overlaps once widened", seed, pair).isTrue();
            }
        }
        assertThat(widenedGraphs).isGreaterThan(50);
    }

    @Test
    void lanesNameTheOneLaneOfEveryDeviceAccessOrMinusOne() {
        int single = 0, several = 0;
        for (long seed = 0; seed < 200; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 3), 25);
            HappensBefore hb = HappensBefore.of(g, DataSync.events(g));
            Lifetimes l = Lifetimes.of(g, hb, false);
            for (long budget : new long[]{0, HbConflicts.DEFAULT_BUDGET}) {
                HbConflicts c = HbConflicts.of(l, hb, budget);
                for (int s = 0; s < l.storages().size(); s++) {
                    Set<Integer> lanes = new TreeSet<>();
                    Storage st = l.storages().get(s);
                    for (int[] acc : new int[][]{st.writers(), st.readers()}) {
                        for (int p : acc) if (!g.ops().get(p).isStorageOnly()) lanes.add(hb.lane(p));
                    }
                    int expected = lanes.size() == 1 ? lanes.iterator().next() : -1;
                    assertThat(c.lanes()[s]).as("seed %d storage %s", seed, st.name()).isEqualTo(expected);
                    if (expected >= 0) single++;
                    else if (lanes.size() > 1) several++;
                }
            }
        }
        assertThat(single).isGreaterThan(100);
        assertThat(several).isGreaterThan(100);
    }

    /** Every pair S before T (interval-disjoint) where some device access of S does not reach some device writer of T. */
    static Set<String> bruteForcePairs(Graph g, Lifetimes l, BruteOrder order) {
        Set<String> out = new TreeSet<>();
        List<Storage> st = l.storages();
        for (int s = 0; s < st.size(); s++) {
            for (int t = 0; t < st.size(); t++) {
                if (s == t || st.get(s).end() > st.get(t).start()) continue;
                boolean ordered = true;
                for (int w : st.get(t).writers()) {
                    if (g.ops().get(w).isStorageOnly()) continue;
                    for (int[] acc : new int[][]{st.get(s).writers(), st.get(s).readers()}) {
                        for (int a : acc) {
                            if (!g.ops().get(a).isStorageOnly() && !order.completesBefore(a, w)) ordered = false;
                        }
                    }
                }
                if (!ordered) out.add(Math.min(s, t) + "-" + Math.max(s, t));
            }
        }
        return out;
    }
}
