package org.arenaplan.plan;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.liveness.Lifetimes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.arenaplan.plan.Fixtures.MiB;
import static org.arenaplan.plan.Fixtures.buf;
import static org.arenaplan.plan.Fixtures.problem;
import static org.assertj.core.api.Assertions.assertThat;

/** Each violation kind, planted on purpose, is caught and named. */
class ValidatorCatchesTest {
    private static final Problem P = problem(4, buf("a", 8, 0, 2), buf("b", 8, 1, 3), buf("c", 4, 2, 4));

    private static List<Violation.Kind> kinds(List<Violation> v) {
        return v.stream().map(Violation::kind).toList();
    }

    @Test
    void aValidPlacementHasNoViolations() {
        assertThat(PlacementValidator.validate(P, new long[]{0, 8, 0}, 16, 16L)).isEmpty();
    }

    @Test
    void overlap() {
        List<Violation> v = PlacementValidator.validate(P, new long[]{0, 4, 0}, 16, null);
        assertThat(kinds(v)).containsExactly(Violation.Kind.OVERLAP);
        assertThat(v.get(0).subjects()).containsExactlyInAnyOrder("a", "b");
        assertThat(v.get(0).fromByte()).isEqualTo(4);
        assertThat(v.get(0).toByte()).isEqualTo(8);
        assertThat(v.get(0).message()).contains("'a' [0, 2)").contains("'b' [1, 3)").contains("[4, 8)");
    }

    @Test
    void anOverlapAtTheSameOffsetIsCaught() {
        assertThat(kinds(PlacementValidator.validate(P, new long[]{0, 0, 8}, 16, null))).containsExactly(Violation.Kind.OVERLAP);
    }

    @Test
    void touchingIntervalsMayShare() {
        Problem p = problem(1, buf("a", 8, 0, 2), buf("b", 8, 2, 3));
        assertThat(PlacementValidator.validate(p, new long[]{0, 0}, 8, null)).isEmpty();
    }

    @Test
    void outOfArenaNegativeMisalignedOverCapacityMissing() {
        assertThat(kinds(PlacementValidator.validate(P, new long[]{0, 8, 16}, 16, null))).containsExactly(Violation.Kind.OUT_OF_ARENA);
        assertThat(kinds(PlacementValidator.validate(P, new long[]{-8, 8, 0}, 16, null))).contains(Violation.Kind.NEGATIVE_OFFSET);
        assertThat(kinds(PlacementValidator.validate(P, new long[]{0, 10, 0}, 20, null))).contains(Violation.Kind.MISALIGNED);
        assertThat(kinds(PlacementValidator.validate(P, new long[]{0, 8, 0}, 16, 12L))).containsExactly(Violation.Kind.OVER_CAPACITY);
        assertThat(kinds(PlacementValidator.validate(P, new long[]{0, 8}, 16, null))).containsExactly(Violation.Kind.MISSING_BUFFER);
    }

    @Test
    void anExtraConflictBetweenDisjointIntervalsIsChecked() {
        Problem p = problem(1, buf("a", 8, 0, 2), buf("b", 8, 2, 3)).withExtraConflicts(new int[][]{{1}, {0}});
        assertThat(kinds(PlacementValidator.validate(p, new long[]{0, 0}, 8, null))).containsExactly(Violation.Kind.OVERLAP);
        assertThat(PlacementValidator.validate(p, new long[]{0, 8}, 16, null)).isEmpty();
    }

    // Graph plans: a broken liveness (the lifetimes of a slightly different graph) is planted
    // under the real graph, and the replay must see what it breaks.

    private static Plan planWithLivenessOf(Graph real, Graph wrong) {
        Lifetimes l = Lifetimes.of(wrong);
        Problem p = ArenaPlanner.problemOf(l, 256);
        Placement s = new GreedySizePlanner().place(p);
        Lifetimes lr = Lifetimes.of(real);
        assertThat(lr.storages().size()).isGreaterThan(0);
        return new Plan(real, l, p, s, ArenaPlanner.statsOf(l, p, s, 0));
    }

    /** x -> a -> b ; c reads a late when {@code lateRead}. */
    private static Graph readLate(boolean lateRead, boolean inPlace) {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("a", MiB).tensor("b", MiB).tensor("c", MiB).tensor("d", MiB);
        g.input("x");
        g.op("make_a", "K").in("x").out("a").add();
        GraphBuilder.OpBuilder relu = g.op("relu", "Relu").in("a").out("b");
        if (inPlace) relu.inPlace();
        relu.add();
        g.op("make_c", "K").in("b").out("c").add();
        g.op("late", "K").in(lateRead ? "a" : "b", "c").out("d").add();
        g.output("d");
        return g.build();
    }

    @Test
    void clobberedRead() {
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(readLate(true, false), readLate(false, false)));
        assertThat(kinds(v)).contains(Violation.Kind.CLOBBERED_READ);
        Violation c = v.stream().filter(x -> x.kind() == Violation.Kind.CLOBBERED_READ).findFirst().orElseThrow();
        assertThat(c.message()).contains("op 'late'").contains("reads 'a'").contains("overwritten by 'c'");
        assertThat(c.position()).isEqualTo(3);
    }

    @Test
    void illegalInPlace() {
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(readLate(true, true), readLate(false, true)));
        assertThat(kinds(v)).contains(Violation.Kind.ILLEGAL_IN_PLACE);
        assertThat(v.stream().filter(x -> x.kind() == Violation.Kind.ILLEGAL_IN_PLACE).findFirst().orElseThrow().message())
                .contains("'b' was written in place over 'a' by op 'relu'").contains("reads 'a' later");
    }

    /**
     * Both outputs of one op at the input's bytes, in one storage (as liveness made it before it
     * refused a second in-place grant of one op over the same input; the wrong liveness here gets
     * there through a view instead). The replay, writing the outputs one after the other, found
     * nothing, and the placement check sees one storage: caught only once the replay checks that
     * the outputs an op computes share no byte.
     */
    @Test
    void outputsShareBytes() {
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(twoOutputs(false), twoOutputs(true)));
        assertThat(kinds(v)).containsExactly(Violation.Kind.OUTPUTS_SHARE_BYTES);
        assertThat(v.get(0).message()).contains("op 'two'").contains("outputs 'o1' and 'o2' over the same bytes");
        assertThat(PlanValidator.validate(planWithLivenessOf(twoOutputs(false), twoOutputs(false)))).isEmpty();
    }

    /**
     * a -> two -> (o1, o2), each output hinted in place over a; o2 read later. {@code wrong}: the
     * same tensors where two writes only o1 in place over a and a storage-only op makes o2 a view
     * of o1, so that a, o1 and o2 are one storage.
     */
    private static Graph twoOutputs(boolean wrong) {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("a", MiB).tensor("o1", MiB).tensor("o2", MiB).tensor("y", MiB);
        g.input("x");
        g.op("make_a", "K").in("x").out("a").add();
        if (wrong) {
            g.op("two", "custom.One").in("a").out("o1").inPlace(0, 0).add();
            g.op("v", "custom.View").in("o1").out("o2").view().add();
        } else {
            g.op("two", "custom.Two").in("a").out("o1", "o2").inPlace(0, 0).inPlace(1, 0).add();
        }
        g.op("late", "K").in("o2").out("y").add();
        g.output("y");
        return g.build();
    }

    /**
     * Two graph inputs placed on the same bytes: the later upload is the earlier input's writer,
     * which no op produces. The replay looked up that writer's op and threw
     * ArrayIndexOutOfBoundsException instead of reporting (found by the breakstreams address mutants).
     */
    @Test
    void twoInputsOnTheSameBytesAreReportedNotThrown() {
        GraphBuilder b = new GraphBuilder();
        b.tensor("x", MiB).tensor("y", MiB).tensor("z", MiB);
        b.input("x").input("y");
        b.op("add", "Add").in("x", "y").out("z").add();
        b.output("z");
        Graph g = b.build();
        Lifetimes l = Lifetimes.of(g);
        Problem p = ArenaPlanner.problemOf(l, 256);
        Placement s = new Placement(new long[l.storages().size()], MiB, "all at 0", false);
        List<Violation> v = PlanValidator.validate(new Plan(g, l, p, s, ArenaPlanner.statsOf(l, p, s, 0)));
        assertThat(kinds(v)).contains(Violation.Kind.OVERLAP, Violation.Kind.CLOBBERED_READ, Violation.Kind.ILLEGAL_DONATION);
        assertThat(v).anySatisfy(x -> assertThat(x.message()).contains("reads 'x'").contains("overwritten by 'y' (graph input, uploaded before the first op)"));
    }

    private static Graph relu(boolean donate, boolean output) {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", MiB).tensor("y", MiB).tensor("z", MiB);
        g.input("x", donate);
        g.op("relu", "Relu").in("x").out("y").inPlace().add();
        g.op("next", "K").in("y").out("z").add();
        g.output("z");
        if (output) g.output("y");
        return g.build();
    }

    @Test
    void illegalDonation() {
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(relu(false, false), relu(true, false)));
        assertThat(kinds(v)).contains(Violation.Kind.ILLEGAL_DONATION);
        assertThat(v.stream().filter(x -> x.kind() == Violation.Kind.ILLEGAL_DONATION).findFirst().orElseThrow().message())
                .contains("caller-owned input 'x' was overwritten").contains("by 'y'");
    }

    private static Graph outputEarly(boolean yIsOutput) {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", 256).tensor("y", MiB).tensor("t", MiB).tensor("z", 256);
        g.input("x");
        g.op("make_y", "K").in("x").out("y").add();
        g.op("make_t", "K").in("x").out("t").add();
        g.op("make_z", "K").in("t").out("z").add();
        g.output("z");
        if (yIsOutput) g.output("y");
        return g.build();
    }

    @Test
    void outputClobbered() {
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(outputEarly(true), outputEarly(false)));
        assertThat(kinds(v)).contains(Violation.Kind.OUTPUT_CLOBBERED);
    }

    /**
     * x -> NonZero -> (extent e, y), a graph output; t and z written after. {@code bounded} false: the
     * same tensors written by a plain kind, so e is not kept to the end (the wrong liveness).
     * {@code castAfterT}: after t, Cast reads y (and e, to zero its output c's tail, {@code
     * ir.OpSpec.BoundedFlow}); c is the graph output instead of y.
     */
    private static Graph extentEarly(boolean bounded, boolean castAfterT) {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", org.arenaplan.ir.DType.F32, 64).tensor("e", org.arenaplan.ir.DType.I64, 1).tensor("y", org.arenaplan.ir.DType.I64, 1, 64)
                .tensor("t", MiB).tensor("c", org.arenaplan.ir.DType.F32, 1, 64).tensor("z", 256);
        g.input("x");
        g.op("nz", bounded ? "NonZero" : "K").in("x").out("e").out("y").add();
        g.op("make_t", "K").in("x").out("t").add();
        if (castAfterT) g.op("cast", "Cast").in("y").out("c").attr("to", 1L).add();
        g.op("make_z", "K").in("t").out("z").add();
        g.output(castAfterT ? "c" : "y").output("z");
        return g.build();
    }

    /** review19: the runtime extent of a data-dependent output is read after the run, like a graph output; one overwritten was not reported. */
    @Test
    void aRuntimeExtentClobberedIsCaught() {
        assertThat(PlanValidator.validate(planWithLivenessOf(extentEarly(true, false), extentEarly(true, false)))).isEmpty();
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(extentEarly(true, false), extentEarly(false, false)));
        assertThat(kinds(v)).contains(Violation.Kind.OUTPUT_CLOBBERED);
        assertThat(v.stream().filter(x -> x.kind() == Violation.Kind.OUTPUT_CLOBBERED).findFirst().orElseThrow().message())
                .contains("runtime extent 'e' (of graph output 'y') was overwritten");
    }

    /** An op that carries a bounded tensor reads its runtime extent: one overwritten before it is caught at that op. */
    @Test
    void aRuntimeExtentClobberedBeforeACarrierReadsItIsCaught() {
        assertThat(PlanValidator.validate(planWithLivenessOf(extentEarly(true, true), extentEarly(true, true)))).isEmpty();
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(extentEarly(true, true), extentEarly(false, true)));
        assertThat(v.stream().filter(x -> x.kind() == Violation.Kind.CLOBBERED_READ).map(Violation::message))
                .anyMatch(m -> m.startsWith("op 'cast' at position 2 reads runtime extent 'e' (to zero the tail of 'c') from bytes"));
    }

    private static Graph slice(long offset) {
        GraphBuilder g = new GraphBuilder();
        g.tensor("x", 256).tensor("a", MiB).tensor("s", 1024).tensor("u", 256);
        g.input("x");
        g.op("make_a", "K").in("x").out("a").add();
        g.op("slice", "Slice").in("a").out("s").view(0, 0, offset).add();
        g.op("use", "K").in("s").out("u").add();
        g.output("u");
        return g.build();
    }

    @Test
    void viewOutsideBase() {
        List<Violation> v = PlanValidator.validate(planWithLivenessOf(slice(4096), slice(0)));
        assertThat(kinds(v)).contains(Violation.Kind.VIEW_OUTSIDE_BASE);
        assertThat(v.stream().filter(x -> x.kind() == Violation.Kind.VIEW_OUTSIDE_BASE).findFirst().orElseThrow().message())
                .contains("view 's' of 'a'").contains("declared offset 4096");
    }

    @Test
    void theSameHarnessOnTheRightLivenessFindsNothing() {
        assertThat(PlanValidator.validate(planWithLivenessOf(readLate(true, true), readLate(true, true)))).isEmpty();
        assertThat(PlanValidator.validate(planWithLivenessOf(slice(4096), slice(4096)))).isEmpty();
    }
}
