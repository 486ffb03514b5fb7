package org.arenaplan.ir;

import org.arenaplan.io.Printable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GraphBuilderTest {
    @Test
    void aTensorWrittenTwiceIsNamed() {
        GraphBuilder g = new GraphBuilder().tensor("a", 4).tensor("x", 4).input("x");
        g.op("one", "K").in("x").out("a").add();
        g.op("two", "K").in("x").out("a").add();
        assertThatThrownBy(g::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("op 'two'").hasMessageContaining("writes tensor 'a', already written by op 'one'");
    }

    /** breaker21: an op listing one output twice was told it was "already written by op 'mm'", itself. */
    @Test
    void anOutputListedTwiceByOneOpIsToldSo() {
        GraphBuilder g = new GraphBuilder().tensor("h", 4).tensor("x", 4).input("x");
        g.op("mm", "K").in("x").out("h", "h").add();
        assertThatThrownBy(g::build).isInstanceOf(GraphException.class)
                .hasMessage("op 'mm' (K, position 0) lists output 'h' twice; an op writes each tensor once");
    }

    @Test
    void aReadBeforeTheWriteNamesBothOps() {
        GraphBuilder g = new GraphBuilder().tensor("a", 4).tensor("b", 4).tensor("x", 4).input("x");
        g.op("early", "K").in("a").out("b").add();
        g.op("late", "K").in("x").out("a").add();
        assertThatThrownBy(g::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("op 'early'").hasMessageContaining("before it is written")
                .hasMessageContaining("written later by op 'late'").hasMessageContaining("topological");
    }

    /** newcomer: an op reading its own output was told "written later by op 'mm' at position 0", itself, at its own position. */
    @Test
    void anOpReadingItsOwnOutputIsToldSo() {
        GraphBuilder g = new GraphBuilder().tensor("h", 4).tensor("x", 4).input("x");
        g.op("mm", "K").in("h").out("h").add();
        assertThatThrownBy(g::build).isInstanceOf(GraphException.class)
                .hasMessage("op 'mm' (K, position 0) reads tensor 'h' before it is written (it is this op's own output: an op cannot read what it writes)");
    }

    @Test
    void unknownTensorsAreNamed() {
        GraphBuilder g = new GraphBuilder().tensor("x", 4).input("x");
        g.op("f", "K").in("x").out("nope").add();
        assertThatThrownBy(g::build).hasMessageContaining("op 'f'").hasMessageContaining("unknown tensor 'nope'");
        assertThatThrownBy(() -> new GraphBuilder().tensor("x", 4).output("ghost").build()).hasMessageContaining("'ghost'");
    }

    @Test
    void negativeSizesAndOverflowingSumsAreNamed() {
        assertThatThrownBy(() -> new GraphBuilder().tensor("neg", -1).build()).hasMessageContaining("tensor 'neg' has negative size -1");
        assertThatThrownBy(() -> new GraphBuilder().tensor("a", Long.MAX_VALUE).tensor("b", 2).build())
                .hasMessageContaining("overflows").hasMessageContaining("'b'");
        assertThatThrownBy(() -> Tensor.of("huge", DType.F32, 1L << 40, 1L << 40)).hasMessageContaining("'huge'").hasMessageContaining("overflows");
    }

    /**
     * breaker21: member slices of an opaque kind were taken on trust, so an overlap planned
     * silently (the reader of 'm1' saw the bytes 'm2' wrote over it; the validator unions members
     * into one family and saw nothing), an output that is also a view let 'm1' overwrite its base
     * 'z' while 'z' was still to be read, and an op whose inputs are all member slices (no device
     * work) left a gap, or a second output, never written: an 'internal error' (exit 1).
     */
    @Test
    void memberSlicesOfAnyKindMayNotOverlapNorWriteIntoAViewNorLeaveBytesUnwritten() {
        GraphBuilder overlap = members(768);
        overlap.op("cat", "MyCat").in("m1", "m2").out("o").member(0, 0, 0).member(1, 0, 256).add();
        assertThatThrownBy(overlap::build).isInstanceOf(GraphException.class)
                .hasMessage("op 'cat' (MyCat, position 2): member slices 'm1' (bytes [0, 512)) and 'm2' (bytes [256, 768)) of 'o' overlap; two inputs cannot be written into the same bytes");

        GraphBuilder view = members(1024).tensor("z", 1024);
        view.op("z", "K").in("x").out("z").add();
        view.op("upd", "MyUpdate").in("z", "m1").out("o").view(0, 0, 0).member(1, 0, 0).add();
        assertThatThrownBy(view::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("op 'upd' (MyUpdate, position 3): output 'o' is declared both a view of 'z' and the target of member slice 'm1'");

        GraphBuilder gap = members(1536);
        gap.op("cat", "MyCat").in("m1", "m2").out("o").member(0, 0, 0).member(1, 0, 1024).add();
        assertThatThrownBy(gap::build).isInstanceOf(GraphException.class)
                .hasMessage("op 'cat' (MyCat, position 2): every input is a member slice, so the op does no device work, but bytes [512, 1024) of output 'o' lie in no member slice and would never be written");

        GraphBuilder second = members(1024).tensor("p", 64);
        second.op("cat", "MyCat").in("m1", "m2").out("o", "p").member(0, 0, 0).member(1, 0, 512).add();
        assertThatThrownBy(second::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("bytes [0, 64) of output 'p' lie in no member slice and would never be written");

        GraphBuilder ok = members(1536);
        ok.op("cat", "MyCat").in("m1", "m2", "x").out("o").member(0, 0, 0).member(1, 0, 1024).add();   // reads x: device work writes the gap
        ok.build();
        GraphBuilder exact = members(1024);
        exact.op("cat", "MyCat").in("m1", "m2").out("o").member(1, 0, 512).member(0, 0, 0).add();
        exact.build();
    }

    /** x input; m1, m2 (512 B each) written from it; o of {@code oBytes}; the caller adds the op writing o. */
    private static GraphBuilder members(long oBytes) {
        return members(oBytes, "m1", "m2", "o");
    }

    /** As {@link #members(long)}, with the members and the output named {@code m1}, {@code m2}, {@code o}. */
    private static GraphBuilder members(long oBytes, String m1, String m2, String o) {
        GraphBuilder g = new GraphBuilder().tensor("x", 1024).tensor(m1, 512).tensor(m2, 512).tensor(o, oBytes).input("x");
        g.op("a", "K").in("x").out(m1).add();
        g.op("b", "K").in("x").out(m2).add();
        return g;
    }

    /** The member-slice messages printed a tensor's whole name (a file may give 100,000 characters); now cut as every other name (io.Printable.name). */
    @Test
    void memberSliceMessagesCutLongNames() {
        String m1 = "m1".repeat(150), m2 = "m2".repeat(150), o = "o\n".repeat(150);
        GraphBuilder overlap = members(768, m1, m2, o);
        overlap.op("cat", "MyCat").in(m1, m2).out(o).member(0, 0, 0).member(1, 0, 256).add();
        assertThatThrownBy(overlap::build).isInstanceOf(GraphException.class).hasMessageContaining("member slices '" + Printable.name(m1) + "' (bytes [0, 512)) and '"
                + Printable.name(m2) + "' (bytes [256, 768)) of '" + Printable.name(o) + "' overlap").message().doesNotContain(m1, m2);
        GraphBuilder view = members(1024, m1, m2, o).tensor("z", 1024);
        view.op("z", "K").in("x").out("z").add();
        view.op("upd", "MyUpdate").in("z", m1).out(o).view(0, 0, 0).member(1, 0, 0).add();
        assertThatThrownBy(view::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("the target of member slice '" + Printable.name(m1) + "'").message().doesNotContain(m1);
        GraphBuilder gap = members(1536, m1, m2, o);
        gap.op("cat", "MyCat").in(m1, m2).out(o).member(0, 0, 0).member(1, 0, 1024).add();
        assertThatThrownBy(gap::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("bytes [512, 1024) of output '" + Printable.name(o) + "' lie in no member slice").message().doesNotContain("\n");
    }

    /** OpChecks (a registry kind's shapes, member slices, attribute names) printed whole names too. */
    @Test
    void registryChecksCutLongNames() {
        String x = "x\n".repeat(150), y = "y".repeat(300), attr = "alpah".repeat(60);
        GraphBuilder reshape = new GraphBuilder().tensor(x, DType.F32, 2, 3).tensor(y, DType.F32, 5).input(x);
        reshape.op("r", "Reshape").in(x).out(y).add();
        assertThatThrownBy(reshape::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("output '" + Printable.name(y) + "' [5] does not hold the 6 elements of input '" + Printable.name(x) + "' [2, 3]")
                .message().doesNotContain(y, "\n");
        GraphBuilder concat = new GraphBuilder().tensor("a", DType.F32, 4).tensor(x, DType.F32, 4).tensor(y, DType.F32, 8).input("a");
        concat.op("m", "Relu").in("a").out(x).add();
        concat.op("cat", "Concat").attr("axis", 0L).in(x, "a").out(y).member(0, 0, 16).add();
        assertThatThrownBy(concat::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("member slices of '" + Printable.name(y) + "' are not where Concat writes its inputs: '" + Printable.name(x) + "' is declared at [16, 32)")
                .message().doesNotContain(y, "\n");
        GraphBuilder relu = new GraphBuilder().tensor("a", DType.F32, 4).tensor("b", DType.F32, 4).input("a");
        relu.op("act", "LeakyRelu").attr(attr, 0.1).in("a").out("b").add();
        assertThatThrownBy(relu::build).isInstanceOf(GraphException.class)
                .hasMessageContaining("unknown attribute '" + Printable.name(attr) + "'; LeakyRelu takes alpha").message().doesNotContain(attr);
    }

    @Test
    void aViewOutsideItsBaseIsNamed() {
        GraphBuilder g = new GraphBuilder().tensor("x", 16).tensor("v", 8).input("x");
        g.op("slice", "Slice").in("x").out("v").view(0, 0, 12).add();
        assertThatThrownBy(g::build).hasMessageContaining("op 'slice'").hasMessageContaining("does not lie inside its base");
    }

    @Test
    void donatingANonInputIsAnError() {
        GraphBuilder g = new GraphBuilder().tensor("x", 4).tensor("y", 4).input("x");
        g.op("f", "K").in("x").out("y").add();
        g.build();
        assertThatThrownBy(() -> new GraphBuilder().tensor("x", 4).weight("x").input("x").build()).hasMessageContaining("both a graph input and a weight");
    }
}
