package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamAssignerTest {

    /** stem -> four branches of two ops each (one through a view) -> join, twice. */
    static Graph inceptionLike(int blocks) {
        GraphBuilder b = new GraphBuilder("inception-like").tensor("x", 1024).input("x");
        String in = "x";
        for (int k = 0; k < blocks; k++) {
            String stem = "stem" + k;
            b.tensor(stem, 1024).op(stem, "Relu").in(in).out(stem).add();
            String[] ends = new String[4];
            for (int br = 0; br < 4; br++) {
                String p = "b" + k + "_" + br;
                b.tensor(p + "a", 1024).op(p + "a", "Relu").in(stem).out(p + "a").add();
                b.tensor(p + "v", 1024).op(p + "v", "Reshape").in(p + "a").out(p + "v").view().add();
                b.tensor(p + "b", 256).op(p + "b", "Relu").in(p + "v").out(p + "b").add();
                ends[br] = p + "b";
            }
            String join = "join" + k;
            b.tensor(join, 1024).op(join, "Sum").in(ends).out(join).add();
            in = join;
        }
        return b.output(in).build();
    }

    private static int stream(Graph g, String op) {
        for (var o : g.ops()) if (o.name().equals(op)) return o.stream();
        throw new AssertionError(op);
    }

    @Test
    void branchesGoToSeparateStreamsAndChainsStayOnOne() {
        Graph g = StreamAssigner.assign(inceptionLike(2), 4);
        for (int k = 0; k < 2; k++) {
            Set<Integer> branchStreams = new java.util.HashSet<>();
            for (int br = 0; br < 4; br++) {
                String p = "b" + k + "_" + br;
                assertThat(stream(g, p + "b")).as("chain %s stays on one stream", p).isEqualTo(stream(g, p + "a"));
                assertThat(stream(g, p + "v")).as("a view follows its base").isEqualTo(stream(g, p + "a"));
                branchStreams.add(stream(g, p + "a"));
            }
            assertThat(branchStreams).as("block %d: four branches on four streams", k).hasSize(4);
        }
        assertThat(g.streams()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void oneStreamPutsEverythingOnStreamZeroAndMoreStreamsThanBranchesLeavesSomeIdle() {
        assertThat(StreamAssigner.assign(inceptionLike(1), 1).streams()).containsExactly(0);
        Graph g = StreamAssigner.assign(inceptionLike(1), 8);
        assertThat(g.ops().stream().map(o -> o.stream()).collect(Collectors.toSet())).hasSizeLessThanOrEqualTo(4);
        assertThatThrownBy(() -> StreamAssigner.assign(inceptionLike(1), 0)).hasMessageContaining("at least 1");
    }

    @Test
    void aLongChainStaysOnItsStream() {
        GraphBuilder b = new GraphBuilder().tensor("t0", 8).input("t0");
        for (int i = 1; i <= 50; i++) b.tensor("t" + i, 8).op("o" + i, "Relu").in("t" + (i - 1)).out("t" + i).add();
        Graph g = StreamAssigner.assign(b.output("t50").build(), 4);
        assertThat(g.streams()).containsExactly(0);
    }

    @Test
    void anyNumberOfStreamsUpToIntMaxGivesTheAssignmentOfOneStreamPerOp() {
        Graph g = inceptionLike(2);
        Graph many = StreamAssigner.assign(g, Integer.MAX_VALUE);     // no array of 2^31 loads
        Graph perOp = StreamAssigner.assign(g, g.opCount());
        for (int p = 0; p < g.opCount(); p++) assertThat(many.ops().get(p).stream()).isEqualTo(perOp.ops().get(p).stream());
        assertThat(many.streams()).isEqualTo(perOp.streams()).hasSizeLessThanOrEqualTo(g.opCount());
    }
}
