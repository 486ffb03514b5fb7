package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class SyncReductionTest {

    @Test
    void reductionKeepsHappensBeforeAndLeavesNoEventTheOthersImply() {
        int dropped = 0;
        for (long seed = 0; seed < 300; seed++) {
            Random r = new Random(seed);
            Graph g = RandomStreamGraphs.generate(seed, 2 + r.nextInt(3), 25);
            List<Integer> device = new ArrayList<>();
            for (int p = 0; p < g.opCount(); p++) if (!g.ops().get(p).isStorageOnly()) device.add(p);
            List<SyncEvent> events = new ArrayList<>(DataSync.events(g));
            for (int k = 0; k < r.nextInt(10) && device.size() > 1; k++) {
                int a = r.nextInt(device.size() - 1);
                int b = a + 1 + r.nextInt(device.size() - a - 1);
                events.add(new SyncEvent(events.size(), device.get(a), device.get(b), SyncEvent.Reason.REUSE, 1));
            }
            List<SyncEvent> reduced = SyncReduction.reduce(g, events);
            dropped += events.size() - reduced.size();
            BruteOrder before = new BruteOrder(g, events);
            BruteOrder after = new BruteOrder(g, reduced);
            for (int a : device) for (int b : device) {
                assertThat(after.completesBefore(a, b)).as("seed %d: %d before %d", seed, a, b).isEqualTo(before.completesBefore(a, b));
            }
            for (int i = 0; i < reduced.size(); i++) {
                assertThat(reduced.get(i).id()).isEqualTo(i);
                List<SyncEvent> fewer = new ArrayList<>(reduced);
                SyncEvent e = fewer.remove(i);
                assertThat(new BruteOrder(g, fewer).completesBefore(e.recordAfter(), e.waitBefore()))
                        .as("seed %d: %s is implied by the others", seed, e).isFalse();
            }
        }
        assertThat(dropped).as("random extra events are often redundant").isGreaterThan(100);
    }
}
