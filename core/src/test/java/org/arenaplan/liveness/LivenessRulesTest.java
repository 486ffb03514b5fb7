package org.arenaplan.liveness;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.plan.Fixtures;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.junit.jupiter.api.Test;

import static org.arenaplan.plan.Fixtures.MiB;
import static org.arenaplan.plan.Fixtures.plan;
import static org.arenaplan.plan.Fixtures.shareBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LivenessRulesTest {

    /** Ops 0..n-1; A written at 3 and last read at 7; B written at {@code bAt}. */
    private static Graph endpoint(int bAt) {
        GraphBuilder g = new GraphBuilder("endpoint");
        g.tensor("A", MiB).tensor("B", MiB);
        for (int p = 0; p < 10; p++) g.tensor("f" + p, 256);
        for (int p = 0; p < 10; p++) {
            GraphBuilder.OpBuilder op = g.op("op" + p, "K");
            if (p == 3) op.out("A");
            else if (p == bAt) op.out("B");
            else op.out("f" + p);
            if (p == 7) op.in("A");
            if (p == bAt) op.in("f" + (p - 1));
            op.add();
        }
        g.output("B");
        return g.build();
    }

    @Test
    void aTensorLastReadAtPConflictsWithOneWrittenAtP() {
        Plan p = plan(endpoint(7), "greedy-size");
        assertThat(p.lifetimes().tensorInterval("A")).containsExactly(3, 8);
        assertThat(p.lifetimes().tensorInterval("B")).containsExactly(7, 10);
        assertThat(p.problem().conflicts(p.lifetimes().storageOf("A"), p.lifetimes().storageOf("B"))).isTrue();
        assertThat(shareBytes(p, "A", "B")).isFalse();
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void aTensorLastReadAtPMinusOneMayShareWithOneWrittenAtP() {
        Plan p = plan(endpoint(8), "greedy-size");
        assertThat(p.problem().conflicts(p.lifetimes().storageOf("A"), p.lifetimes().storageOf("B"))).isFalse();
        assertThat(shareBytes(p, "A", "B")).isTrue();
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void aTensorNobodyReadsLivesOneStep() {
        Plan p = plan(endpoint(8), "greedy-size");
        assertThat(p.lifetimes().tensorInterval("f0")).containsExactly(0, 1);
    }

    /**
     * read A -> slice B -> view C -> view D -> ... -> compute U (late); E is written between D and
     * U. With views, A's storage lives until U, so E may not overlap it; with copies it may.
     */
    private static Graph viewChain(boolean views) {
        GraphBuilder g = new GraphBuilder("view-chain");
        g.tensor("A", 4 * MiB).tensor("B", MiB).tensor("C", MiB).tensor("D", MiB).tensor("E", 4 * MiB)
                .tensor("F", 256).tensor("U", 256).tensor("in", 256);
        g.input("in");
        g.op("make_A", "K").in("in").out("A").add();
        if (views) {
            g.op("slice", "Slice").in("A").out("B").view(0, 0, 2 * MiB).add();
            g.op("view_C", "Reshape").in("B").out("C").view().add();
            g.op("view_D", "Reshape").in("C").out("D").view().add();
        } else {
            g.op("slice", "Copy").in("A").out("B").add();
            g.op("view_C", "Copy").in("B").out("C").add();
            g.op("view_D", "Copy").in("C").out("D").add();
        }
        g.op("make_E", "K").in("in").out("E").add();
        g.op("use_E", "K").in("E").out("F").add();
        g.op("compute_U", "K").in("D", "F").out("U").add();
        g.output("U");
        return g.build();
    }

    @Test
    void aStorageLivesUntilTheLastReaderThroughAChainOfViews() {
        Plan p = plan(viewChain(true), "greedy-size");
        assertThat(p.lifetimes().storageOf("D")).isEqualTo(p.lifetimes().storageOf("A"));
        assertThat(p.addressOf("B")).isEqualTo(p.addressOf("A") + 2 * MiB);
        assertThat(p.addressOf("D")).isEqualTo(p.addressOf("B"));
        Storage a = p.storages().get(p.lifetimes().storageOf("A"));
        assertThat(a.end()).isEqualTo(7);                      // compute_U at 6 reads D
        assertThat(shareBytes(p, "E", "A")).isFalse();
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void theSameGraphWithCopiesLetsEReuseAsBytes() {
        Plan p = plan(viewChain(false), "greedy-size");
        assertThat(shareBytes(p, "E", "A")).isTrue();           // proves the view test exercises the chain
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    /** x (input) -> a -> y (output) early, then big temporaries after. */
    private static Graph pinned(boolean donate) {
        GraphBuilder g = new GraphBuilder("pinned");
        g.tensor("x", MiB).tensor("y", MiB).tensor("t1", MiB).tensor("t2", MiB).tensor("t3", MiB).tensor("z", 256);
        g.input("x", donate);
        g.op("first", "K").in("x").out("y").add();
        g.op("t1", "K").in("y").out("t1").add();
        g.op("t2", "K").in("t1").out("t2").add();
        g.op("t3", "K").in("t2").out("t3").add();
        g.op("z", "K").in("t3").out("z").add();
        g.output("y").output("z");
        return g.build();
    }

    @Test
    void graphOutputsAndCallerOwnedInputsAreNeverReused() {
        Plan p = plan(pinned(false), "greedy-size");
        for (String t : new String[]{"t1", "t2", "t3", "z"}) {
            assertThat(shareBytes(p, t, "y")).as(t + " vs output y").isFalse();
            assertThat(shareBytes(p, t, "x")).as(t + " vs input x").isFalse();
        }
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void aDonatedInputIsReusedAfterItsLastRead() {
        Plan p = plan(pinned(true), "greedy-size");
        assertThat(p.lifetimes().tensorInterval("x")).containsExactly(0, 1);
        boolean reused = false;
        for (String t : new String[]{"t1", "t2", "t3"}) reused |= shareBytes(p, t, "x");
        assertThat(reused).isTrue();
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void inPlaceOverATensorReadLaterIsRefusedWithTheReader() {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("a", MiB).tensor("b", MiB).tensor("c", MiB);
        g.input("x");
        g.op("make_a", "K").in("x").out("a").add();
        g.op("relu", "Relu").in("a").out("b").inPlace().add();
        g.op("late", "Add").in("a", "b").out("c").add();
        g.output("c");
        Lifetimes l = Lifetimes.of(g.build());
        assertThat(l.refusals()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(Refusal.Kind.IN_PLACE);
            assertThat(r.reason()).contains("'a' is read later by op 'late' at position 2");
        });
    }

    /**
     * Two outputs of one op, each hinted in place over the same input: the first grant puts that
     * output in the input's storage, so the second would give both outputs the same bytes, which
     * the op writes at once. Found by the breakstreams differential run (an opaque kind with two
     * outputs, the first never read): both were granted, and the later reader of the second read
     * bytes the first output's write could land on.
     */
    @Test
    void twoOutputsOfOneOpNeverTakeTheSameInputInPlace() {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("a", MiB).tensor("o1", MiB).tensor("o2", MiB).tensor("y", MiB);
        g.input("x");
        g.op("make_a", "K").in("x").out("a").add();
        g.op("two", "custom.Two").in("a").out("o1", "o2").inPlace(0, 0).inPlace(1, 0).add();
        g.op("late", "K").in("o2").out("y").add();
        g.output("y");
        Plan p = plan(g.build(), "greedy-size");
        assertThat(p.lifetimes().storageOf("o1")).isEqualTo(p.lifetimes().storageOf("a"));
        assertThat(shareBytes(p, "o1", "o2")).isFalse();
        assertThat(p.refusals()).singleElement().satisfies(r -> assertThat(r.reason()).contains("output 'o1' of this op already overwrites"));
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    /**
     * A reason a member brings into a storage when in-place folds it there holds for every later
     * grant over that storage: a graph output folded in, a later reader of a folded member (the
     * storage's guards and latest read are kept per storage as it folds, not rescanned).
     */
    @Test
    void reasonsFoldedIntoAStorageHoldForLaterGrants() {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("a", MiB).tensor("b", MiB).tensor("c", MiB).tensor("e", MiB);
        g.input("x");
        g.op("make_a", "K").in("x").out("a").add();
        g.op("r1", "Relu").in("a").out("b").inPlace().add();     // granted: a and b one storage
        g.op("r2", "Relu").in("b").out("c").inPlace().add();     // granted: c is a graph output, now in that storage
        g.op("r4", "Relu").in("c").out("e").inPlace().add();     // refused: the storage holds graph output c
        g.output("c");
        g.output("e");
        Lifetimes l = Lifetimes.of(g.build());
        assertThat(l.refusals()).singleElement().satisfies(r -> {
            assertThat(r.op()).isEqualTo("r4");
            assertThat(r.reason()).contains("'c' is a graph output");
        });
        GraphBuilder h = new GraphBuilder();
        h.tensor("x", MiB).tensor("a", MiB).tensor("b", MiB).tensor("v", MiB).tensor("c", MiB).tensor("d", MiB);
        h.input("x");
        h.op("make_a", "K").in("x").out("a").add();
        h.op("r1", "Relu").in("a").out("b").inPlace().add();     // granted: b's storage (b and its view v) folds into a's
        h.op("view", "Reshape").in("b").out("v").view().add();
        h.op("r2", "Relu").in("b").out("c").inPlace().add();     // refused: v, folded in with b, is read later
        h.op("late", "Add").in("v", "c").out("d").add();
        h.output("d");
        Lifetimes m = Lifetimes.of(h.build());
        assertThat(m.refusals()).singleElement().satisfies(r -> {
            assertThat(r.op()).isEqualTo("r2");
            assertThat(r.reason()).contains("'v' is read later by op 'late' at position 4");
        });
    }

    @Test
    void inPlaceOverACallerOwnedInputIsRefusedAndOverADonatedOneAccepted() {
        for (boolean donate : new boolean[]{false, true}) {
            GraphBuilder g = new GraphBuilder();
            g.tensor("x", MiB).tensor("y", MiB);
            g.input("x", donate);
            g.op("relu", "Relu").in("x").out("y").inPlace().add();
            g.output("y");
            Lifetimes l = Lifetimes.of(g.build());
            if (donate) {
                assertThat(l.refusals()).isEmpty();
                assertThat(l.storages()).hasSize(1);
            } else {
                assertThat(l.refusals()).singleElement().extracting(Refusal::reason).asString().contains("caller-owned graph input");
            }
        }
    }

    @Test
    void strictModeRefusesAMisspeltKindWhoseOpaqueHintWouldBeGranted() {
        // "Tranpose" is outside the registry, so planning trusts its in-place hint, which the
        // real Transpose is refused; strict planning (not only the CLI) refuses the near miss.
        for (String kind : new String[]{"Tranpose", "custom.Tranpose"}) {
            GraphBuilder g = new GraphBuilder();
            g.tensor("x", MiB).tensor("a", MiB).tensor("y", MiB);
            g.input("x", false);
            g.op("r", "Relu").in("x").out("a").add();
            g.op("t", kind).in("a").out("y").inPlace().add();
            g.output("y");
            Graph graph = g.build();
            assertThat(Lifetimes.of(graph, OpOrder.SCHEDULE, false).refusals()).as(kind).isEmpty();   // trusted
            if (kind.contains(".")) {
                assertThat(Lifetimes.of(graph, OpOrder.SCHEDULE, true).refusals()).as(kind).isEmpty();   // a custom kind
            } else {
                assertThatThrownBy(() -> Lifetimes.of(graph, OpOrder.SCHEDULE, true)).isInstanceOf(GraphException.class)
                        .hasMessageContaining("op 't' (Tranpose, position 1): unknown op kind 'Tranpose'; did you mean 'Transpose'?");
            }
        }
    }

    @Test
    void aDonationWhoseBytesEscapeIsRefusedAndStrictModeFails() {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("v", MiB).tensor("y", MiB);
        g.input("x", true);
        g.op("view", "Reshape").in("x").out("v").view().add();
        g.op("relu", "Relu").in("x").out("y").add();
        g.output("v").output("y");
        Graph graph = g.build();
        assertThat(Lifetimes.of(graph).refusals()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo(Refusal.Kind.DONATION);
            assertThat(r.toString()).contains("'x'").contains("graph output 'v'");
        });
        assertThatThrownBy(() -> Lifetimes.of(graph, OpOrder.SCHEDULE, true))
                .isInstanceOf(GraphException.class).hasMessageContaining("donation refused: input 'x'");
    }

    @Test
    void anEscapingViewPinsItsStorageToTheEnd() {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", 256).tensor("a", MiB).tensor("v", MiB).tensor("b", MiB).tensor("c", MiB);
        g.input("x");
        g.op("a", "K").in("x").out("a").add();
        g.op("v", "Reshape").in("a").out("v").view().add();
        g.op("b", "K").in("x").out("b").add();
        g.op("c", "K").in("b").out("c").add();
        g.output("v").output("c");
        Plan p = plan(g.build(), "greedy-size");
        assertThat(p.storages().get(p.lifetimes().storageOf("a")).end()).isEqualTo(4);
        assertThat(shareBytes(p, "a", "b")).isFalse();
        assertThat(shareBytes(p, "a", "c")).isFalse();
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void aTenThousandDeepViewChainResolvesWithoutRecursion() {
        GraphBuilder g = new GraphBuilder();
        int depth = 10_000;
        g.tensor("x", 256).tensor("v0", MiB);
        g.input("x");
        g.op("make", "K").in("x").out("v0").add();
        for (int i = 1; i <= depth; i++) {
            g.tensor("v" + i, MiB);
            g.op("view" + i, "Reshape").in("v" + (i - 1)).out("v" + i).view().add();
        }
        g.tensor("u", 256);
        g.op("use", "K").in("v" + depth).out("u").add();
        g.output("u");
        Plan p = Fixtures.plan(g.build(), "best");
        assertThat(p.storages()).hasSize(3);
        assertThat(p.storages().get(p.lifetimes().storageOf("v0")).end()).isEqualTo(depth + 2);
        assertThat(PlanValidator.validate(p)).isEmpty();
    }
}
