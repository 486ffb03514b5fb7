package org.arenaplan.plan;

import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PeakExplanationTest {
    /** x caller-owned; a = Relu(x); v = view(a); b = Relu(v); c = Add(b, x) ; y = Relu(c) output. */
    private static Graph chain() {
        return new GraphBuilder("c")
                .tensor("x", DType.F32, 256).tensor("a", DType.F32, 256).tensor("v", DType.F32, 256)
                .tensor("b", DType.F32, 256).tensor("c", DType.F32, 256).tensor("y", DType.F32, 256)
                .input("x").output("y")
                .op("a", "Relu").in("x").out("a").add()
                .op("v", "Reshape").in("a").out("v").view().add()
                .op("b", "Relu").in("v").out("b").add()
                .op("c", "Add").in("b", "x").out("c").add()
                .op("y", "Relu").in("c").out("y").add()
                .build();
    }

    private static Map<String, PeakExplanation.Live> byName(PeakExplanation x) {
        Map<String, PeakExplanation.Live> m = new HashMap<>();
        for (PeakExplanation.Live l : x.live()) m.put(l.name(), l);
        return m;
    }

    @Test
    void namesWhatKeepsEachStorageAtThePeak() {
        Plan plan = ArenaPlanner.plan(chain());
        PeakExplanation x = PeakExplanation.of(plan);
        assertThat(x.lowerBound()).isEqualTo(plan.stats().lowerBoundBytes());
        long sum = 0;
        for (PeakExplanation.Live l : x.live()) sum += l.alignedBytes();
        assertThat(sum).as("the storages listed are the lower bound").isEqualTo(x.lowerBound());
        assertThat(x.neededBytes() + x.streamBytes() + x.alignmentBytes() + x.fragmentationBytes()).isEqualTo(plan.arenaBytes());
        Map<String, PeakExplanation.Live> live = byName(x);
        assertThat(live.get("x").keeper()).isEqualTo(PeakExplanation.Keeper.INPUT);
        // at position 2 (b = Relu(v)) a is read through its view v: the reader is 'b', the chain names the view
        assertThat(x.instant()).isEqualTo(2);
        assertThat(live.get("a").keeper()).isEqualTo(PeakExplanation.Keeper.LAST_READER);
        assertThat(live.get("a").reader()).isEqualTo("b");
        assertThat(live.get("a").through()).containsExactly("v (view of a)");
        assertThat(live.get("b").reason()).isEqualTo("last read by 'c' (#3)");
        assertThat(x.text()).contains("peak: position 2 (op 'b', stream 0)", "caller-owned graph input", "through v (view of a)",
                "fragmentation 0 B", "the arena equals the lower bound");
    }

    @Test
    void alignmentAndOutputsAreNamed() {
        Plan plan = ArenaPlanner.plan(chain(), ArenaPlanner.Options.DEFAULT.withAlignment(4096));
        PeakExplanation x = PeakExplanation.of(plan);
        assertThat(x.alignmentBytes()).isEqualTo(x.live().size() * (4096L - 1024));
        assertThat(x.gapCause()).contains("alignment: ");
        PeakExplanation last = PeakExplanation.of(ArenaPlanner.plan(new GraphBuilder("o").tensor("x", 64).tensor("y", 64)
                .input("x", true).output("y").op("y", "Relu").in("x").out("y").add().build()));
        assertThat(byName(last).get("y").keeper()).isEqualTo(PeakExplanation.Keeper.OUTPUT);
    }

    /**
     * a = Relu(x); y = a viewed (a graph output in a's storage); z = Relu(a) output: the storage
     * is named by its base 'a', and the reason names the output that keeps it (it said only
     * "graph output", which read as if 'a' were one: breaker8's finding 8).
     */
    @Test
    void anOutputThatIsAViewIsNamedInItsStoragesReason() {
        Plan plan = ArenaPlanner.plan(new GraphBuilder("ov").tensor("x", DType.F32, 64).tensor("a", DType.F32, 64).tensor("y", DType.F32, 64)
                .tensor("z", DType.F32, 64).input("x").output("y").output("z")
                .op("a", "Relu").in("x").out("a").add()
                .op("y", "Reshape").in("a").out("y").view().add()
                .op("z", "Relu").in("a").out("z").add()
                .build());
        Map<String, PeakExplanation.Live> live = byName(PeakExplanation.of(plan));
        assertThat(live.get("a").keeper()).isEqualTo(PeakExplanation.Keeper.OUTPUT);
        assertThat(live.get("a").through()).containsExactly("y (view of a)");
        assertThat(live.get("a").reason()).isEqualTo("graph output y (view of a): kept to the end for the caller");
        assertThat(live.get("z").reason()).isEqualTo("graph output: kept to the end for the caller");
    }

    /** Two branches on two streams with only data events: the bound counts the unordered branch, and the explanation says why. */
    @Test
    void anUnorderedStreamIsNamed() {
        GraphBuilder b = new GraphBuilder("two").tensor("x", DType.F32, 1024).input("x");
        b.tensor("p", DType.F32, 1024).tensor("q", DType.F32, 1024).tensor("r", DType.F32, 1024).tensor("s", DType.F32, 1024).tensor("y", DType.F32, 1024);
        b.op("p", "Relu").in("x").out("p").stream(0).add();
        b.op("q", "Relu").in("p").out("q").stream(0).add();
        b.op("r", "Relu").in("x").out("r").stream(1).add();
        b.op("s", "Relu").in("r").out("s").stream(1).add();
        b.op("y", "Add").in("q", "s").out("y").stream(0).add();
        Plan plan = StreamPlanner.plan(b.output("y").build(), 0, SyncMode.NONE, ArenaPlanner.Options.DEFAULT);
        PeakExplanation x = PeakExplanation.of(plan);
        assertThat(x.lowerBound()).isEqualTo(plan.stats().lowerBoundBytes()).isGreaterThanOrEqualTo(plan.problem().lowerBound());
        if (x.streamBytes() > 0) {
            assertThat(x.live()).anyMatch(l -> l.keeper() == PeakExplanation.Keeper.UNORDERED_STREAM);
            assertThat(x.text()).contains("no event orders it");
        }
    }

    @Test
    void aCsvProblemNamesItsBuffersAndTheFragmentation() {
        Problem p = new Problem(new String[]{"a", "b", "c"}, new long[]{0, 0, 1}, new long[]{1, 2, 2}, new long[]{10, 20, 30}, 1);
        Placement bad = new Placement(new long[]{0, 10, 30}, 60, "by hand", false);
        PeakExplanation x = PeakExplanation.of(p, bad);
        assertThat(x.lowerBound()).isEqualTo(50);
        assertThat(x.fragmentationBytes()).isEqualTo(10);
        assertThat(x.top().name()).isEqualTo("c");
        assertThat(x.text()).contains("peak: time 1: 50 B in 2 buffer(s)", "fragmentation: the placement leaves 10 B of holes below the arena top, which 'c' sets");
    }
    /**
     * newcomer: storages of one aligned size were listed by name, so bert_tiny's peak printed a 128 B
     * storage above a 256 B one (both 256 B once aligned) under "heaviest first"; ties of the aligned
     * size now go by the bytes shown.
     */
    @Test
    void storagesOfOneAlignedSizeAreListedByTheirOwnBytesHeaviestFirst() {
        Problem p = new Problem(new String[]{"a", "b"}, new long[]{0, 0}, new long[]{1, 1}, new long[]{128, 256}, 256);
        PeakExplanation x = PeakExplanation.of(p, new Placement(new long[]{0, 256}, 512, "by hand", false));
        assertThat(x.live()).extracting(PeakExplanation.Live::name).containsExactly("b", "a");
    }
}
