package org.arenaplan.ir;

import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every op of a known kind is checked against its {@link OpRegistry} entry when the graph is
 * built: attributes, input count, shape rule, declared views and member slices. Each fault is
 * one {@link GraphException} naming the op, the attribute or tensors, and the numbers at fault.
 */
class OpChecksTest {

    private static GraphBuilder image() {
        return new GraphBuilder().tensor("x", DType.F32, 1, 2, 8, 8).input("x");
    }

    /** The build's error message, or null when the graph is accepted. */
    private static String fault(GraphBuilder g) {
        try {
            g.build();
            return null;
        } catch (GraphException e) {
            return e.getMessage();
        }
    }

    private static String poolFault(Consumer<GraphBuilder.OpBuilder> attrs, long... outShape) {
        GraphBuilder g = image().tensor("y", DType.F32, outShape);
        GraphBuilder.OpBuilder op = g.op("pool", OpKinds.MAX_POOL).in("x").out("y");
        attrs.accept(op);
        op.add();
        return fault(g.output("y"));
    }

    @Test
    void aMisspeltAttributeIsAnErrorWithTheNamesTheKindTakes() {
        GraphBuilder g = image().tensor("y", DType.F32, 1, 2, 8, 8);
        g.op("lrn", OpKinds.LRN).in("x").out("y").attr("size", 3L).attr("alpah", 1e-4).add();
        assertThat(fault(g.output("y"))).isEqualTo("op 'lrn' (LRN, position 0): unknown attribute 'alpah'; LRN takes size, alpha, beta, bias (did you mean 'alpha'?)");
    }

    @Test
    void attributesAKindDoesNotTakeAreErrors() {
        assertThat(poolFault(op -> op.attr("kernel_shape", new long[]{2, 2}).attr("p", 2L), 1, 2, 7, 7))
                .contains("unknown attribute 'p'; MaxPool takes kernel_shape, strides, pads, dilations, ceil_mode, count_include_pad");
        GraphBuilder g = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("b", DType.F32, 3, 2).tensor("y", DType.F32, 2, 2).input("a").input("b");
        g.op("mm", OpKinds.MATMUL).in("a", "b").out("y").attr("transB", 1L).add();
        assertThat(fault(g.output("y"))).contains("op 'mm' (MatMul, position 0): unknown attribute 'transB'; MatMul takes no attributes");
        GraphBuilder r = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("y", DType.F32, 2, 3).input("a");
        r.op("relu", OpKinds.RELU).in("a").out("y").attr("strides", new long[]{1}).add();
        assertThat(fault(r.output("y"))).contains("unknown attribute 'strides'; Relu takes no attributes");
        GraphBuilder v = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("y", DType.F32, 2, 3).input("a");
        v.op("same", OpKinds.IDENTITY).in("a").out("y").attr("perm", new long[]{1, 0}).view().add();
        assertThat(fault(v.output("y"))).contains("unknown attribute 'perm'; Identity takes no attributes");
    }

    @Test
    void wrongTypesAndOutOfRangeValuesAreErrors() {
        GraphBuilder g = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("b", DType.F32, 2, 3).tensor("y", DType.F32, 4, 3).input("a").input("b");
        g.op("cat", OpKinds.CONCAT).in("a", "b").out("y").attr("axis", "0").add();
        assertThat(fault(g.output("y"))).isEqualTo("op 'cat' (Concat, position 0): attribute 'axis' must be an integer, got the string \"0\"");

        GraphBuilder h = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("b", DType.F32, 2, 3).tensor("y", DType.F32, 4, 3).input("a").input("b");
        h.op("cat", OpKinds.CONCAT).in("a", "b").out("y").attr("axis", 4294967297L).add();
        assertThat(fault(h.output("y"))).contains("attribute 'axis' = 4294967297 is out of range [-64, 63]");

        GraphBuilder k = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("b", DType.F32, 2, 3).tensor("y", DType.F32, 4, 3).input("a").input("b");
        k.op("cat", OpKinds.CONCAT).in("a", "b").out("y").attr("axis", 2L).add();
        assertThat(fault(k.output("y"))).contains("axis 2 is out of range for rank 2");

        assertThat(poolFault(op -> op.attr("kernel_shape", new long[]{2, 2}).attr("strides", new long[]{0, 0}), 1, 2, 7, 7))
                .contains("attribute 'strides' [0, 0] holds 0, out of range [1, 2147483647]");
        assertThat(poolFault(op -> op.attr("kernel_shape", new long[]{0, 2}), 1, 2, 9, 7))
                .contains("attribute 'kernel_shape' [0, 2] holds 0, out of range [1, 2147483647]");
        assertThat(poolFault(op -> op.attr("kernel_shape", new long[]{2, 2}).attr("strides", new long[]{1L << 31, 1}), 1, 2, 1, 7))
                .contains("attribute 'strides' [2147483648, 1] holds 2147483648, out of range [1, 2147483647]");
        assertThat(poolFault(op -> op.attr("kernel_shape", new long[]{2, 2}), 1, 2, 7, 7)).isNull();
    }

    @Test
    void aDeclaredShapeThatContradictsTheShapeRuleIsAnError() {
        assertThat(poolFault(op -> op.attr("kernel_shape", new long[]{2, 2}).attr("strides", new long[]{2, 2}), 1, 2, 7, 7))
                .isEqualTo("op 'pool' (MaxPool, position 0): output 'y' is declared [1, 2, 7, 7] but MaxPool of [1, 2, 8, 8] gives [1, 2, 4, 4]");
        GraphBuilder g = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("b", DType.F32, 4, 2).tensor("y", DType.F32, 2, 2).input("a").input("b");
        g.op("mm", OpKinds.MATMUL).in("a", "b").out("y").add();
        assertThat(fault(g.output("y"))).contains("inner dimensions differ: [2, 3] x [4, 2]");
        GraphBuilder t = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("y", DType.F32, 2, 3).input("a");
        t.op("t", OpKinds.TRANSPOSE).in("a").out("y").attr("perm", new long[]{1, 0}).add();
        assertThat(fault(t.output("y"))).contains("output 'y' is declared [2, 3] but Transpose of [2, 3] gives [3, 2]");
        GraphBuilder p = new GraphBuilder().tensor("a", DType.F32, 2, 3).tensor("y", DType.F32, 3, 2).input("a");
        p.op("t", OpKinds.TRANSPOSE).in("a").out("y").attr("perm", new long[]{1, 1}).add();
        assertThat(fault(p.output("y"))).contains("perm [1, 1] is not a permutation of 0..1");
    }

    @Test
    void anOpWithTheWrongNumberOfInputsIsAnError() {
        GraphBuilder g = new GraphBuilder().tensor("y", DType.F32, 2, 3);
        g.op("r", OpKinds.RELU).out("y").add();
        assertThat(fault(g.output("y"))).isEqualTo("op 'r' (Relu, position 0): has 0 inputs; Relu takes exactly 1");
        GraphBuilder c = new GraphBuilder().tensor("y", DType.F32, 2, 3);
        c.op("c", OpKinds.CONCAT).out("y").add();
        assertThat(fault(c.output("y"))).contains("has 0 inputs; Concat takes at least 1");
    }

    @Test
    void aTransposeDeclaredAViewIsALoadErrorNamingOpAndTensors() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 8, 4).input("x");
        g.op("t", OpKinds.TRANSPOSE).in("x").out("y").attr("perm", new long[]{1, 0}).view().add();
        assertThat(fault(g.output("y"))).isEqualTo("op 't' (Transpose, position 0): 'y' is declared a view of 'x' (bytes [0, 128) of it), but Transpose computes"
                + " its output (kernels 'transpose', 'transpose_bounded'); only Split, Reshape, Flatten, Identity, Dropout, Squeeze, Unsqueeze, Slice may be views");
    }

    @Test
    void viewsMustBeWhereTheViewRulePutsThem() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 2, 8).input("x");
        g.op("s", OpKinds.SLICE).in("x").out("y").view(0, 0, 16).add();
        assertThat(fault(g.output("y"))).contains("'y' is declared a view of 'x' (bytes [16, 80) of it), but a Slice view starts on a whole row of 32 B");
        GraphBuilder ok = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 2, 8).input("x");
        ok.op("s", OpKinds.SLICE).in("x").out("y").view(0, 0, 64).add();
        assertThat(ok.output("y").build().isView("y")).isTrue();
        GraphBuilder r = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 2, 8).input("x");
        r.op("r", OpKinds.RESHAPE).in("x").out("y").view(0, 0, 64).add();
        assertThat(fault(r.output("y"))).contains("does not hold the 32 elements of input 'x'");
    }

    /** Concat along axis 1 of [2, 3, 4]: each input is two separate runs of the output, not one slice. */
    @Test
    void concatMembersOnANonLeadingAxisWithOuterExtentAboveOneAreALoadError() {
        assertThat(fault(LyingGraphs.concatMembersOnAxis1())).isEqualTo("op 'cat' (Concat, position 2): member slices of 'y' [2, 3, 4] along axis 1 are not contiguous:"
                + " the extents before axis 1 multiply to 2, so Concat writes input 'a' to 2 separate byte ranges ([0, 16), [48, 64)), not to one slice at [0, 32)");
    }

    @Test
    void overlappingMembersAreALoadErrorNamingTheSlicesAndTheBytesLeftUnwritten() {
        assertThat(fault(LyingGraphs.overlappingMembers())).isEqualTo("op 'cat' (Concat, position 2): member slices of 'y' are not where Concat writes its inputs:"
                + " 'b' is declared at [8, 24) but Concat writes it at [16, 32); overlapping: 'a' and 'b' share [8, 16); bytes of 'y' left unwritten: [24, 32)");
    }

    @Test
    void membersWithAGapOrOutOfRangeAreLoadErrors() {
        GraphBuilder g = new GraphBuilder().tensor("x", 16).tensor("a", 16).tensor("b", 16).tensor("y", 48).input("x");
        g.op("pa", "K").in("x").out("a").add();
        g.op("pb", "K").in("x").out("b").add();
        g.op("cat", OpKinds.CONCAT).in("a", "b").out("y").member(0, 0, 0).member(1, 0, 32).add();
        assertThat(fault(g.output("y"))).contains("'b' is declared at [32, 48) but Concat writes it at [16, 32)")
                .contains("bytes of 'y' left unwritten: [16, 32)");
        GraphBuilder o = new GraphBuilder().tensor("x", 16).tensor("a", 16).tensor("b", 16).tensor("y", 32).input("x");
        o.op("pa", "K").in("x").out("a").add();
        o.op("pb", "K").in("x").out("b").add();
        o.op("cat", OpKinds.CONCAT).in("a", "b").out("y").member(0, 0, 0).member(1, 0, 24).add();
        assertThat(fault(o.output("y"))).contains("member slice 'b' of 'y' at byte offset 24 (16 B) does not lie inside its base (32 B)");
    }

    /** Split of [2, 6] along axis 1: each output is two runs of the input, so it cannot be a view; along axis 0 it can. */
    @Test
    void splitOutputsAreViewsOnlyWhereSplitReadsOneSlice() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 2, 6).tensor("a", DType.F32, 2, 2).tensor("b", DType.F32, 2, 4).input("x");
        g.op("s", OpKinds.SPLIT).in("x").out("a", "b").attr("axis", 1L).attr("split", new long[]{2, 4}).view(0, 0, 0).view(1, 0, 16).add();
        assertThat(fault(g.output("a").output("b"))).isEqualTo("op 's' (Split, position 0): 'a' is declared a view of 'x' (bytes [0, 16) of it), but the extents"
                + " of 'x' [2, 6] before the split axis multiply to 2, so Split reads that output from 2 separate byte ranges ([0, 8), [24, 32)), not one slice");
        GraphBuilder rows = new GraphBuilder().tensor("x", DType.F32, 3, 4).tensor("a", DType.F32, 1, 4).tensor("b", DType.F32, 2, 4).input("x");
        rows.op("s", OpKinds.SPLIT).in("x").out("a", "b").attr("split", new long[]{1, 2}).view(0, 0, 0).view(1, 0, 16).add();
        assertThat(rows.output("a").output("b").build().isView("b")).isTrue();
        GraphBuilder off = new GraphBuilder().tensor("x", DType.F32, 3, 4).tensor("a", DType.F32, 1, 4).tensor("b", DType.F32, 2, 4).input("x");
        off.op("s", OpKinds.SPLIT).in("x").out("a", "b").attr("split", new long[]{1, 2}).view(0, 0, 0).view(1, 0, 8).add();
        assertThat(fault(off.output("a").output("b"))).contains("'b' is declared a view of 'x' (bytes [8, 40) of it), but Split reads that output from bytes [16, 48) of it");
        GraphBuilder sum = new GraphBuilder().tensor("x", DType.F32, 3, 4).tensor("a", DType.F32, 1, 4).tensor("b", DType.F32, 2, 4).input("x");
        sum.op("s", OpKinds.SPLIT).in("x").out("a", "b").attr("split", new long[]{1, 1}).add();
        assertThat(fault(sum.output("a").output("b"))).contains("split [1, 1] sums to 2, not to extent 3 of axis 0 of [3, 4]");
        GraphBuilder two = new GraphBuilder().tensor("x", DType.F32, 2, 4).tensor("a", DType.F32, 2, 4).tensor("b", DType.F32, 2, 4).input("x");
        two.op("r", OpKinds.RELU).in("x").out("a", "b").add();
        assertThat(fault(two.output("a"))).contains("has 2 outputs; Relu has exactly 1");
    }

    @Test
    void membersOnAKindThatTakesNoneAreALoadError() {
        GraphBuilder g = new GraphBuilder().tensor("x", 16).tensor("a", 16).tensor("y", 16).input("x");
        g.op("pa", "K").in("x").out("a").add();
        g.op("r", OpKinds.RELU).in("a").out("y").member(0, 0, 0).add();
        assertThat(fault(g.output("y"))).contains("input 'a' is declared a member slice of 'y' at bytes [0, 16), but Relu computes its output (kernel 'unary')");
    }

    @Test
    void kindsOutsideTheRegistryAreTakenOnTrust() {
        GraphBuilder g = new GraphBuilder().tensor("x", 16).tensor("y", 16).input("x");
        g.op("f", "MyFusedKernel").in("x").out("y").attr("anything", "goes").view().add();
        assertThat(g.output("y").build().isView("y")).isTrue();
    }

    @Test
    void buildTrustingSkipsTheRegistryButNotTheStructure() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 8, 4).input("x");
        g.op("t", OpKinds.TRANSPOSE).in("x").out("y").view().add();
        assertThat(g.output("y").buildTrusting().isView("y")).isTrue();
        GraphBuilder bad = new GraphBuilder().tensor("x", DType.F32, 4, 8).input("x");
        bad.op("t", OpKinds.TRANSPOSE).in("x").out("nope").add();
        assertThatThrownBy(bad::buildTrusting).isInstanceOf(GraphException.class).hasMessageContaining("unknown tensor 'nope'");
    }

    @Test
    void inPlaceIsAllowedOnlyWhereTheKernelsRunInPlace() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 4, 8).tensor("y", DType.F32, 8, 4).input("x");
        g.op("t", OpKinds.TRANSPOSE).in("x").out("y").inPlace().add();
        Graph graph = g.output("y").build();
        Op t = graph.ops().get(0);
        assertThat(OpChecks.inPlaceRefusal(t, t.inPlace().get(0), graph::tensor))
                .isEqualTo("Transpose cannot run in place: kernel 'transpose', 'transpose_bounded' reads input elements after writing output elements over them");
        GraphBuilder s = new GraphBuilder().tensor("a", DType.F32, 4, 8).tensor("b", DType.F32, 4, 8).tensor("c", DType.F32, 4, 8)
                .tensor("y", DType.F32, 4, 8).input("a").input("b").input("c");
        s.op("sum", "Sum").in("a", "b", "c").out("y").inPlace(0, 2).add();
        Graph sg = s.output("y").build();
        Op sum = sg.ops().get(0);
        assertThat(OpChecks.inPlaceRefusal(sum, sum.inPlace().get(0), sg::tensor)).isEqualTo("Sum may overwrite only inputs #0, #1, not input #2");
        GraphBuilder b = new GraphBuilder().tensor("a", DType.F32, 4, 8).tensor("bias", DType.F32, 8).tensor("y", DType.F32, 4, 8).input("a").input("bias");
        b.op("add", OpKinds.ADD).in("a", "bias").out("y").inPlace(0, 1).inPlace(0, 0).add();
        Graph bg = b.output("y").build();
        Op add = bg.ops().get(0);
        assertThat(OpChecks.inPlaceRefusal(add, add.inPlace().get(0), bg::tensor)).contains("differ in shape (a broadcast operand cannot be overwritten)");
        assertThat(OpChecks.inPlaceRefusal(add, add.inPlace().get(1), bg::tensor)).isNull();
    }

    @Test
    void editDistanceCountsATranspositionAsOneEdit() {
        assertThat(OpChecks.editDistance("alpah", "alpha")).isEqualTo(1);
        assertThat(OpChecks.editDistance("strides", "pads")).isGreaterThan(2);
    }
}
