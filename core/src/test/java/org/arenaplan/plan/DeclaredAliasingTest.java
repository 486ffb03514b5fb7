package org.arenaplan.plan;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.LyingGraphs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.OpOrder;
import org.arenaplan.liveness.Refusal;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Declared aliasing that contradicts what an op's kernels do (issue 11, cases 1-4): liveness
 * refuses in-place hints the kernels cannot honour, and the plan validator rejects a plan that
 * relies on any such declaration, however the graph was built and whichever planner placed it.
 */
class DeclaredAliasingTest {

    /** x -> relu -> a -> KIND(a) -> y, with an in-place hint on the second op. */
    private static Graph hinted(String kind, boolean trusting) {
        GraphBuilder g = new GraphBuilder("hinted").tensor("x", DType.F32, 8, 8).tensor("a", DType.F32, 8, 8).tensor("w", DType.F32, 8, 8)
                .tensor("y", DType.F32, 8, 8).input("x").weight("w");
        g.op("relu", OpKinds.RELU).in("x").out("a").add();
        GraphBuilder.OpBuilder op = g.op("op", kind).out("y").inPlace();
        if (kind.equals(OpKinds.MATMUL)) op.in("a", "w");
        else op.in("a");
        if (kind.equals(OpKinds.TRANSPOSE)) op.attr("perm", new long[]{1, 0});
        op.add();
        g.output("y");
        return trusting ? g.buildTrusting() : g.build();
    }

    private static List<Violation.Kind> kinds(List<Violation> v) {
        return v.stream().map(Violation::kind).toList();
    }

    /** Case 1: an in-place hint on Transpose or MatMul is refused with the kernel's reason, and the output gets its own bytes. */
    @Test
    void inPlaceOnTransposeOrMatMulIsRefused() {
        for (String kind : List.of(OpKinds.TRANSPOSE, OpKinds.MATMUL)) {
            Plan plan = ArenaPlanner.plan(hinted(kind, false));
            assertThat(plan.refusals()).hasSize(1);
            Refusal r = plan.refusals().get(0);
            assertThat(r.kind()).isEqualTo(Refusal.Kind.IN_PLACE);
            assertThat(r.toString()).startsWith("in-place refused: op 'op' writing 'y' over 'a': " + kind + " cannot run in place: kernel '"
                    + (kind.equals(OpKinds.MATMUL) ? "gemm" : "transpose") + "'");
            assertThat(Fixtures.shareBytes(plan, "y", "a")).isFalse();
            assertThat(PlanValidator.validate(plan)).isEmpty();
        }
    }

    /**
     * x -> relu -> q -> sigmoid (in place over q) -> a, a member slice of concat c = [a; p]: the
     * hint is refused because 'a' already has its bytes in c, and the reason calls 'a' a member
     * slice of the concat, not a view (it did: breaker8's finding 8).
     */
    @Test
    void anInPlaceHintOnAConcatMemberNamesTheConcat() {
        GraphBuilder g = new GraphBuilder("member").tensor("x", DType.F32, 1, 64).tensor("q", DType.F32, 1, 64).tensor("a", DType.F32, 1, 64)
                .tensor("p", DType.F32, 1, 64).tensor("c", DType.F32, 2, 64).tensor("y", DType.F32, 2, 64).input("x");
        g.op("r0", OpKinds.RELU).in("x").out("q").add();
        g.op("ip", OpKinds.SIGMOID).in("q").out("a").inPlace().add();
        g.op("r1", OpKinds.TANH).in("x").out("p").add();
        g.op("cc", OpKinds.CONCAT).in("a", "p").out("c").attr("axis", 0L).member(0, 0, 0).member(1, 0, 256).add();
        g.op("r3", OpKinds.RELU).in("c").out("y").add();
        g.output("y");
        plansWithTheOneRefusal(g.build(), "in-place refused: op 'ip' writing 'a' over 'q': 'a' is itself a member slice of concat 'c'");
    }

    /** Add in place over a (granted) and over a donated y: the second refusal says 'b' already overwrites 'a' (it called 'a' a member slice: breaker9). */
    @Test
    void aSecondInPlaceHintOfOneOutputNamesTheFirstGrant() {
        GraphBuilder g = new GraphBuilder("twice").tensor("x", DType.F32, 16).tensor("y", DType.F32, 16).tensor("a", DType.F32, 16)
                .tensor("b", DType.F32, 16).tensor("c", DType.F32, 16).input("x").input("y", true);
        g.op("a", OpKinds.RELU).in("x").out("a").add();
        g.op("b", OpKinds.ADD).in("a", "y").out("b").inPlace(0, 0).inPlace(0, 1).add();
        g.op("c", OpKinds.RELU).in("b").out("c").add();
        g.output("c");
        plansWithTheOneRefusal(g.build(), "in-place refused: op 'b' writing 'b' over 'y': 'b' already overwrites 'a' in place (one in-place grant per output)");
    }

    /** {@code g} plans with exactly {@code refusal} refused, and the plan is valid. */
    private static void plansWithTheOneRefusal(Graph g, String refusal) {
        Plan plan = ArenaPlanner.plan(g);
        assertThat(plan.refusals()).extracting(Refusal::toString).containsExactly(refusal);
        assertThat(PlanValidator.validate(plan)).isEmpty();
    }

    @Test
    void underStrictModeARefusedInPlaceHintOfTheKernelIsAnError() {
        Graph g = hinted(OpKinds.TRANSPOSE, false);
        assertThatThrownBy(() -> Lifetimes.of(g, OpOrder.SCHEDULE, true)).isInstanceOf(GraphException.class)
                .hasMessage("in-place refused: op 'op' writing 'y' over 'a': Transpose cannot run in place: kernel 'transpose', 'transpose_bounded' reads input elements"
                        + " after writing output elements over them");
        assertThatThrownBy(() -> ArenaPlanner.plan(g, ArenaPlanner.Options.DEFAULT.withStrict(true))).isInstanceOf(GraphException.class);
        // a refusal liveness makes for reasons of its own (a later reader) stays a refusal
        assertThat(ArenaPlanner.plan(hinted(OpKinds.RELU, false), ArenaPlanner.Options.DEFAULT.withStrict(true)).refusals()).isEmpty();
    }

    /** Case 1, planted: a liveness that granted the hint (it believed the op was a Relu) gives a plan the validator rejects. */
    @Test
    void aPlanThatWritesTransposeInPlaceIsRejected() {
        for (String kind : List.of(OpKinds.TRANSPOSE, OpKinds.MATMUL)) {
            Graph real = hinted(kind, false);
            Graph believed = hinted(OpKinds.RELU, true);
            Lifetimes l = Lifetimes.of(believed);
            assertThat(l.refusals()).isEmpty();
            Problem p = ArenaPlanner.problemOf(l, 256);
            Placement s = new GreedySizePlanner().place(p);
            Plan plan = new Plan(real, l, p, s, ArenaPlanner.statsOf(l, p, s, 0));
            List<Violation> v = PlanValidator.validate(plan);
            assertThat(kinds(v)).containsExactly(Violation.Kind.ILLEGAL_IN_PLACE);
            long a = plan.addressOf("a");
            assertThat(v.get(0).message()).contains("writes 'y' over bytes [" + a + ", " + (a + 256) + ") of 'a', which it also reads, but " + kind + " cannot run in place");
        }
    }

    /** Case 2: a Transpose declared a view, planned from a graph built without the registry's checks, is rejected. */
    @Test
    void aPlanOfATransposeDeclaredAViewIsRejected() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 8, 4).input("x");
        g.op("t", OpKinds.TRANSPOSE).in("x").out("y").view().add();
        Plan plan = ArenaPlanner.plan(g.output("y").buildTrusting());
        List<Violation> v = PlanValidator.validate(plan);
        assertThat(kinds(v)).containsExactly(Violation.Kind.ILLEGAL_VIEW);
        assertThat(v.get(0).subjects()).containsExactly("y", "x");
        assertThat(v.get(0).message()).startsWith("op 't' (Transpose): 'y' is declared a view of 'x' (bytes [0, 128) of it), but Transpose computes its output");
    }

    /** Case 3: members along axis 1 of a [2, 3, 4] output are not contiguous slices. */
    @Test
    void aPlanWithConcatMembersOnANonLeadingAxisIsRejected() {
        Plan plan = ArenaPlanner.plan(LyingGraphs.concatMembersOnAxis1().buildTrusting());
        List<Violation> v = PlanValidator.validate(plan);
        assertThat(kinds(v)).containsExactly(Violation.Kind.ILLEGAL_MEMBER);
        assertThat(v.get(0).message()).contains("writes input 'a' to 2 separate byte ranges ([0, 16), [48, 64))");
    }

    /** Case 4: overlapping members; the validator names the overlap and the bytes left unwritten. */
    @Test
    void aPlanWithOverlappingMembersIsRejected() {
        Graph lying = LyingGraphs.overlappingMembers().buildTrusting();
        Lifetimes l = Lifetimes.of(lying);
        Problem p = ArenaPlanner.problemOf(l, 256);
        Placement s = new GreedySizePlanner().place(p);
        List<Violation> v = PlanValidator.validate(new Plan(lying, l, p, s, ArenaPlanner.statsOf(l, p, s, 0)));
        assertThat(kinds(v)).contains(Violation.Kind.ILLEGAL_MEMBER);
        Violation m = v.stream().filter(x -> x.kind() == Violation.Kind.ILLEGAL_MEMBER).findFirst().orElseThrow();
        assertThat(m.message()).contains("overlapping: 'a' and 'b' share [8, 16)").contains("left unwritten: [24, 32)");
        assertThat(m.fromByte()).isEqualTo(8);
        assertThat(m.toByte()).isEqualTo(32);
    }
}
