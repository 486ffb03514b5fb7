package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.liveness.Lifetimes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CopyPlanTest {

    @Test
    void uploadsAreWaitedByTheFirstToucherOnEachStreamAndDownloadsFollowTheirWriters() {
        Graph g = new GraphBuilder().tensor("x", 8).input("x").tensor("unused", 8).input("unused", true)
                .tensor("pass", 8).input("pass")
                .tensor("xv", 8).tensor("a", 8).tensor("b", 8).tensor("c", 8).tensor("m1", 4).tensor("m2", 4).tensor("k", 8)
                .op("xv", "Reshape").in("x").out("xv").view().stream(1).add()
                .op("a", "Relu").in("x").out("a").stream(0).add()
                .op("b", "Relu").in("xv").out("b").stream(1).add()
                .op("c", "Relu").in("x").out("c").stream(1).add()
                .op("m1", "Relu").in("a").out("m1").stream(0).add()
                .op("m2", "Relu").in("b").out("m2").stream(1).add()
                .op("k", "Concat").in("m1", "m2").out("k").member(0, 0, 0).member(1, 0, 4).stream(0).add()
                .output("c").output("k").output("pass").build();
        CopyPlan cp = CopyPlan.of(Lifetimes.of(g));
        assertThat(cp.copyStream()).isEqualTo(2);
        assertThat(cp.uploads()).extracting(CopyPlan.Upload::tensor).containsExactly("x", "pass");
        assertThat(cp.uploads().get(0).waiters()).as("a on stream 0; b (through the view) on stream 1").containsExactly(1, 2);
        assertThat(cp.uploads().get(1).waiters()).as("a pass-through output: uploaded, nothing waits").isEmpty();
        assertThat(cp.uploads("unused")).as("nothing reads it: not uploaded").isFalse();
        assertThat(cp.downloads()).extracting(CopyPlan.Download::tensor).containsExactly("c", "k", "pass");
        assertThat(cp.downloads().get(0).after()).containsExactly(3);
        assertThat(cp.downloads().get(1).after()).as("both member writers, one per stream").containsExactly(4, 5);
        assertThat(cp.downloads().get(2).after()).as("passed through: follows its upload on the copy stream").isEmpty();
    }
}
