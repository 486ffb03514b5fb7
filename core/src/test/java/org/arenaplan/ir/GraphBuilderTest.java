package org.arenaplan.ir;

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
