package org.arenaplan.onnx;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.liveness.Lifetimes;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConcatInPlaceTest {
    private static Graph load(TinyOnnx m) {
        return OnnxImporter.convert(OnnxProtos.read(m.bytes(), "tiny.onnx"), "tiny.onnx", OnnxImporter.Options.DEFAULT.withElementwiseInPlace(false));
    }

    /** x -> a = Relu(x), b = Sigmoid(x) -> c = Concat(a, b) on axis 1 -> y = Tanh(c). */
    private static TinyOnnx branches(long batch, String... extraOutputs) {
        TinyOnnx m = new TinyOnnx().input("x", batch, 2L, 3L).output("y");
        for (String o : extraOutputs) m.output(o);
        return m.node("ra", "Relu", List.of("x"), List.of("a"))
                .node("sb", "Sigmoid", List.of("x"), List.of("b"))
                .node("cat", "Concat", List.of("a", "b"), List.of("c"), "axis", 1L)
                .node("th", "Tanh", List.of("c"), List.of("y"));
    }

    private static Op op(Graph g, String name) {
        return g.ops().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void contiguousSlicesOfOpResultsBecomeMembersAtSummedOffsets() {
        Graph g = load(branches(1));
        Op cat = op(g, "cat");
        assertThat(cat.members()).containsExactly(new Op.Member(0, 0, 0), new Op.Member(1, 0, 24));
        assertThat(cat.isStorageOnly()).isTrue();
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.addressOf("b")).isEqualTo(plan.addressOf("c") + 24);
        // one storage holds a, b and c: it lives from a's write to c's last read
        Storage s = plan.storages().get(plan.lifetimes().storageOf("c"));
        assertThat(s.memberNames()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(s.start()).isEqualTo(0);
        assertThat(s.end()).isEqualTo(4);
    }

    @Test
    void aBatchAboveOneMakesSlicesNonContiguous() {
        Graph g = load(branches(2));
        assertThat(op(g, "cat").members()).isEmpty();
        assertThat(OnnxImporter.convert(OnnxProtos.read(branches(2).bytes(), "t"), "t", OnnxImporter.Options.DEFAULT).ops()).hasSize(4);
    }

    @Test
    void graphOutputsGraphInputsAndDuplicatesStayCopies() {
        assertThat(op(load(branches(1, "a")), "cat").members()).isEmpty();
        Graph fromInput = load(new TinyOnnx().input("x", 1L, 2L).output("c").node("r", "Relu", List.of("x"), List.of("a"))
                .node("cat", "Concat", List.of("a", "x"), List.of("c"), "axis", 1L));
        assertThat(op(fromInput, "cat").members()).isEmpty();
        Graph twice = load(new TinyOnnx().input("x", 1L, 2L).output("c").node("r", "Relu", List.of("x"), List.of("a"))
                .node("cat", "Concat", List.of("a", "a"), List.of("c"), "axis", 1L));
        assertThat(op(twice, "cat").members()).isEmpty();
        Graph ofView = load(new TinyOnnx().opset(11).input("x", 1L, 2L).output("c").node("r", "Relu", List.of("x"), List.of("a"))
                .node("f", "Flatten", List.of("a"), List.of("v"))
                .node("s", "Sigmoid", List.of("x"), List.of("b"))
                .node("cat", "Concat", List.of("v", "b"), List.of("c"), "axis", 1L));
        assertThat(op(ofView, "cat").members()).isEmpty();
    }

    @Test
    void aTensorJoinsOnlyTheFirstConcatAndNestedConcatsChain() {
        Graph g = load(new TinyOnnx().input("x", 1L, 2L).output("e").output("f")
                .node("r", "Relu", List.of("x"), List.of("a"))
                .node("s", "Sigmoid", List.of("x"), List.of("b"))
                .node("c1", "Concat", List.of("a", "b"), List.of("c"), "axis", 1L)
                .node("c2", "Concat", List.of("a", "x"), List.of("d"), "axis", 1L)
                .node("t", "Tanh", List.of("x"), List.of("t"))
                .node("c3", "Concat", List.of("c", "t"), List.of("e"), "axis", 1L)
                .node("u", "Relu", List.of("d"), List.of("f")));
        assertThat(op(g, "c1").members()).hasSize(2);
        assertThat(op(g, "c2").members()).isEmpty();
        assertThat(op(g, "c3").members()).hasSize(2);
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.addressOf("b")).isEqualTo(plan.addressOf("e") + 8);
        assertThat(plan.addressOf("t")).isEqualTo(plan.addressOf("e") + 16);
    }

    @Test
    void aMemberReadAfterTheConcatKeepsTheWholeAllocationAlive() {
        Graph g = load(new TinyOnnx().input("x", 1L, 64L).output("e").output("z")
                .node("r", "Relu", List.of("x"), List.of("a"))
                .node("s", "Sigmoid", List.of("x"), List.of("b"))
                .node("cat", "Concat", List.of("a", "b"), List.of("c"), "axis", 1L)
                .node("t", "Tanh", List.of("c"), List.of("d"))
                .node("u", "Sigmoid", List.of("d"), List.of("e"))
                .node("late", "Relu", List.of("a"), List.of("z")));
        Lifetimes l = Lifetimes.of(g);
        Storage s = l.storages().get(l.storageOf("c"));
        assertThat(s.end()).isEqualTo(6);      // 'late' (position 5) reads member a; c is never read after position 3
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.arenaBytes()).isEqualTo(plan.stats().lowerBoundBytes());
    }

    @Test
    void canBeTurnedOff() {
        Graph g = OnnxImporter.convert(OnnxProtos.read(branches(1).bytes(), "t"), "t", new OnnxImporter.Options(Map.of(), false, false));
        assertThat(op(g, "cat").members()).isEmpty();
        assertThat(op(g, "ra").inPlace()).isEmpty();
    }
}
