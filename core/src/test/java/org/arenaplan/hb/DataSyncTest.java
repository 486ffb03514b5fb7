package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DataSyncTest {

    @Test
    void forkAndJoinNeedOneEventPerCrossStreamEdge() {
        Graph g = new GraphBuilder().tensor("x", 4).input("x").tensor("a", 4).tensor("b", 4).tensor("c", 4).tensor("j", 4)
                .op("a", "Relu").in("x").out("a").stream(0).add()
                .op("b", "Relu").in("a").out("b").stream(1).add()
                .op("c", "Relu").in("a").out("c").stream(0).add()
                .op("j", "Add").in("c", "b").out("j").stream(0).add()
                .output("j").build();
        List<SyncEvent> events = DataSync.events(g);
        assertThat(events).extracting(SyncEvent::recordAfter, SyncEvent::waitBefore)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 3));
        assertThat(events).allMatch(e -> e.reason() == SyncEvent.Reason.DATA && e.bytesSaved() == 0);
        assertThat(SyncText.line(g, events.get(1))).isEqualTo("event 1: after 'b' (#1, stream 1) -> before 'j' (#3, stream 0), DATA");
        assertThat(SyncText.line(g, new SyncEvent(7, 1, 3, SyncEvent.Reason.REUSE, 4096)))
                .isEqualTo("event 7: after 'b' (#1, stream 1) -> before 'j' (#3, stream 0), REUSE, saves 4,096 B");
    }

    @Test
    void waitsImpliedByEarlierEventsOrByAnotherCandidateAreDropped() {
        // p on s0; q on s1 reads p (event); r on s1 reads p again (implied by stream order);
        // z on s2 reads p and q: q's completion implies p's, so one event q -> z.
        Graph g = new GraphBuilder().tensor("x", 4).input("x").tensor("p", 4).tensor("q", 4).tensor("r", 4).tensor("z", 4)
                .op("p", "Relu").in("x").out("p").stream(0).add()
                .op("q", "Relu").in("p").out("q").stream(1).add()
                .op("r", "Relu").in("p").out("r").stream(1).add()
                .op("z", "Add").in("p", "q").out("z").stream(2).add()
                .output("r").output("z").build();
        List<SyncEvent> events = DataSync.events(g);
        assertThat(events).extracting(SyncEvent::recordAfter, SyncEvent::waitBefore)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 3));
    }

    @Test
    void readsThroughViewsAndMemberSlicesWaitForTheOpsThatWroteTheBytes() {
        Graph g = new GraphBuilder().tensor("x", 8).input("x").tensor("m1", 4).tensor("m2", 4).tensor("k", 8).tensor("v", 8).tensor("y", 8)
                .op("m1", "Relu").in("x").out("m1").stream(0).add()
                .op("m2", "Relu").in("x").out("m2").stream(1).add()
                .op("k", "Concat").in("m1", "m2").out("k").member(0, 0, 0).member(1, 0, 4).stream(2).add()
                .op("v", "Reshape").in("k").out("v").view().stream(2).add()
                .op("y", "Relu").in("v").out("y").stream(2).add()
                .output("y").build();
        List<SyncEvent> events = DataSync.events(g);
        assertThat(events).extracting(SyncEvent::recordAfter, SyncEvent::waitBefore)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(0, 4), org.assertj.core.groups.Tuple.tuple(1, 4));
    }

    @Test
    void onRandomGraphsEveryDataDependencyIsOrderedAndEveryEventIsRequired() {
        for (long seed = 0; seed < 300; seed++) {
            Graph g = RandomStreamGraphs.generate(seed, 2 + (int) (seed % 3), 25);
            List<SyncEvent> events = DataSync.events(g);
            assertThat(unorderedReads(g, events)).as("seed %d", seed).isEmpty();
            for (int i = 0; i < events.size(); i++) {
                List<SyncEvent> fewer = new ArrayList<>(events);
                fewer.remove(i);
                assertThat(unorderedReads(g, fewer)).as("seed %d without event %s", seed, events.get(i)).isNotEmpty();
            }
        }
    }

    /** Reads whose data writers (found by walking views and members) do not reach the reader. */
    static List<String> unorderedReads(Graph g, List<SyncEvent> events) {
        BruteOrder order = new BruteOrder(g, events);
        List<String> out = new ArrayList<>();
        for (int p = 0; p < g.opCount(); p++) {
            Op op = g.ops().get(p);
            for (int j = 0; j < op.inputs().size(); j++) {
                if (!op.readsAtRuntime(j)) continue;
                for (int w : writersOf(g, op.inputs().get(j))) {
                    if (!order.completesBefore(w, p)) out.add(op.name() + " reads " + op.inputs().get(j) + " unordered after " + g.ops().get(w).name());
                }
            }
        }
        return out;
    }

    private static List<Integer> writersOf(Graph g, String t) {
        List<Integer> w = new ArrayList<>();
        List<String> todo = new ArrayList<>(List.of(t));
        while (!todo.isEmpty()) {
            String cur = todo.remove(todo.size() - 1);
            Op op = g.producer(cur);
            if (op == null) continue;
            int k = op.outputs().indexOf(cur);
            boolean view = false;
            for (Op.View v : op.views()) if (v.output() == k) { todo.add(op.inputs().get(v.input())); view = true; }
            if (view) continue;
            if (!op.isStorageOnly()) w.add(g.producerPosition(cur));
            for (Op.Member m : op.members()) if (m.output() == k) todo.add(op.inputs().get(m.input()));
        }
        return w;
    }
}
