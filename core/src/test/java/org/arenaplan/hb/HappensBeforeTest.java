package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HappensBeforeTest {

    /** a(s0) b(s1) c(s0) d(s1); one event a -> d. */
    private static Graph fourOps() {
        return new GraphBuilder().tensor("x", 4).input("x").tensor("a", 4).tensor("b", 4).tensor("c", 4).tensor("d", 4)
                .op("a", "Relu").in("x").out("a").stream(0).add()
                .op("b", "Relu").in("x").out("b").stream(1).add()
                .op("c", "Relu").in("a").out("c").stream(0).add()
                .op("d", "Add").in("b", "a").out("d").stream(1).add()
                .output("c").output("d").build();
    }

    @Test
    void streamOrderAndEventsAndTransitivity() {
        Graph g = fourOps();
        HappensBefore hb = HappensBefore.of(g, List.of(new SyncEvent(0, 0, 3, SyncEvent.Reason.DATA, 0)));
        assertThat(hb.completesBefore(0, 2)).as("same stream, program order").isTrue();
        assertThat(hb.completesBefore(1, 3)).isTrue();
        assertThat(hb.completesBefore(0, 3)).as("event a -> d").isTrue();
        assertThat(hb.completesBefore(0, 1)).as("no event a -> b").isFalse();
        assertThat(hb.completesBefore(2, 3)).as("c is after a on stream 0; the event covers only a").isFalse();
        assertThat(hb.completesBefore(3, 0)).isFalse();
        assertThat(hb.completesBefore(2, 2)).isFalse();
        assertThat(hb.knownComplete(3, hb.lane(0))).isEqualTo(0);
        assertThat(hb.knownComplete(3, hb.lane(3))).isEqualTo(2);
    }

    @Test
    void eventThatWaitsForALaterOpIsRefusedNamingBothOps() {
        Graph g = fourOps();
        assertThatThrownBy(() -> HappensBefore.of(g, List.of(new SyncEvent(7, 3, 1, SyncEvent.Reason.DATA, 0))))
                .isInstanceOf(SyncException.class).hasMessageContaining("event 7").hasMessageContaining("'b'").hasMessageContaining("'d'");
        assertThatThrownBy(() -> HappensBefore.of(g, List.of(new SyncEvent(1, 0, 9, SyncEvent.Reason.DATA, 0))))
                .isInstanceOf(SyncException.class).hasMessageContaining("outside the schedule");
    }

    @Test
    void vectorClocksAgreeWithBruteForceReachabilityOnRandomGraphsAndEvents() {
        for (long seed = 0; seed < 300; seed++) {
            Random r = new Random(seed);
            Graph g = RandomStreamGraphs.generate(seed, 2 + r.nextInt(3), 25);
            List<Integer> device = new ArrayList<>();
            for (int p = 0; p < g.opCount(); p++) if (!g.ops().get(p).isStorageOnly()) device.add(p);
            List<SyncEvent> events = new ArrayList<>();
            for (int k = 0; k < r.nextInt(8) && device.size() > 1; k++) {
                int a = r.nextInt(device.size() - 1);
                int b = a + 1 + r.nextInt(device.size() - a - 1);
                events.add(new SyncEvent(k, device.get(a), device.get(b), SyncEvent.Reason.DATA, 0));
            }
            HappensBefore hb = HappensBefore.of(g, events);
            BruteOrder brute = new BruteOrder(g, events);
            for (int a : device) for (int b : device) {
                assertThat(hb.completesBefore(a, b)).as("seed %d: %d before %d", seed, a, b).isEqualTo(brute.completesBefore(a, b));
            }
        }
    }

    @Test
    void oneHundredThousandOpsOnEightStreamsBuildAndAnswer() {
        GraphBuilder b = new GraphBuilder().tensor("x", 4).input("x");
        int n = 100_000;
        for (int p = 0; p < n; p++) {
            String in = p < 8 ? "x" : "t" + (p - 8);
            GraphBuilder.OpBuilder op = b.tensor("t" + p, 4).op("o" + p, p >= 9 ? "Add" : "Relu").in(in);
            if (p >= 9) op.in("t" + (p - 9));   // also reads the previous stream's op: a cross-stream dependency
            op.out("t" + p).stream(p % 8).add();
        }
        Graph g = b.output("t" + (n - 1)).build();
        List<SyncEvent> events = DataSync.events(g);
        HappensBefore hb = HappensBefore.of(g, events);
        assertThat(events).hasSize(n - 9);
        assertThat(hb.completesBefore(0, n - 1)).isTrue();
        assertThat(hb.completesBefore(n - 2, n - 1)).isFalse();
    }
}
