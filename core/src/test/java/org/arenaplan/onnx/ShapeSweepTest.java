package org.arenaplan.onnx;

import org.arenaplan.io.InputException;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShapeSweepTest {
    @TempDir
    Path dir;

    private Path dynamicModel() throws Exception {
        Path p = dir.resolve("dyn.onnx");
        Files.write(p, new TinyOnnx().input("x", "batch", 64L, "seq").floats("w", 0.5f, 64, 16).output("y")
                .node("t", "Transpose", List.of("x"), List.of("xt"), "perm", new long[]{0, 2, 1})
                .node("m", "MatMul", List.of("xt", "w"), List.of("h"))
                .node("r", "Relu", List.of("h"), List.of("y"))
                .bytes());
        return p;
    }

    private static Map<String, List<Long>> dims(Object... kv) {
        Map<String, List<Long>> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], (List<Long>) kv[i + 1]);
        return m;
    }

    @Test
    void parsesDimSpecsAndRejectsBadOnes() {
        assertThat(ShapeSweep.parseDim("batch=1,2,8")).isEqualTo(Map.entry("batch", List.of(1L, 2L, 8L)));
        assertThat(ShapeSweep.parseDim("data_0.0=4")).isEqualTo(Map.entry("data_0.0", List.of(4L)));
        assertThatThrownBy(() -> ShapeSweep.parseDim("batch")).isInstanceOf(InputException.class).hasMessageContaining("NAME=V1,V2");
        assertThatThrownBy(() -> ShapeSweep.parseDim("batch=1,x")).hasMessageContaining("'x' is not an integer of at least 0");
        assertThat(ShapeSweep.parseDim("batch=0")).isEqualTo(Map.entry("batch", List.of(0L)));   // ONNX allows a 0 dim (breaker20)
        assertThatThrownBy(() -> ShapeSweep.parseDim("batch=-1")).hasMessageContaining("'-1' is not an integer of at least 0");
        // a whole number past a long is too large, not "not an integer"
        assertThatThrownBy(() -> ShapeSweep.parseDim("batch=2,99999999999999999999")).isInstanceOf(InputException.class)
                .hasMessage("--dim 'batch=2,99999999999999999999': '99999999999999999999' is too large (at most 9223372036854775807)");
        assertThatThrownBy(() -> ShapeSweep.parseDim("batch=-99999999999999999999")).hasMessageContaining("is not an integer of at least 0");
    }

    @Test
    void combinationsVaryTheFirstDimSlowest() {
        assertThat(ShapeSweep.combinations(dims("a", List.of(1L, 2L), "b", List.of(3L, 4L))).stream().map(Map::toString).toList())
                .containsExactly("{a=1, b=3}", "{a=1, b=4}", "{a=2, b=3}", "{a=2, b=4}");
    }

    @Test
    void plansPerShapeAndCachesByEveryDim() throws Exception {
        ShapeSweep sweep = new ShapeSweep(dynamicModel(), OnnxImporter.Options.DEFAULT, ArenaPlanner.Options.DEFAULT.withAlignment(1));
        List<ShapeSweep.Row> rows = sweep.perShape(dims("batch", List.of(1L, 2L, 4L), "seq", List.of(3L, 5L)));
        assertThat(rows).hasSize(6);
        assertThat(sweep.cachedPlans()).isEqualTo(6);
        for (ShapeSweep.Row r : rows) {
            assertThat(PlanValidator.validate(r.plan())).isEmpty();
            long b = r.dims().get("batch"), s = r.dims().get("seq");
            assertThat(r.plan().graph().tensor("y").shape()).containsExactly(b, s, 16);
            // x (input, pinned) + xt + h, y folded into h by the in-place Relu: 4 * (64bs + 64bs + 16bs)
            assertThat(r.arenaBytes()).isEqualTo(4 * b * s * (64 + 64 + 16));
        }
        Plan again = sweep.plan(Map.of("seq", 5L, "batch", 2L));
        assertThat(again).isSameAs(rows.get(3).plan());
        assertThat(sweep.cachedPlans()).isEqualTo(6);
    }

    @Test
    void worstCaseReportsTheBytesWastedAtSmallerShapesAndHoldsThemAll() throws Exception {
        ShapeSweep sweep = new ShapeSweep(dynamicModel(), OnnxImporter.Options.DEFAULT, ArenaPlanner.Options.DEFAULT);
        ShapeSweep.WorstCase w = sweep.worstCase(dims("batch", List.of(2L, 8L, 4L), "seq", List.of(7L)));
        assertThat(w.largest()).containsEntry("batch", 8L).containsEntry("seq", 7L);
        assertThat(w.rows()).hasSize(3);
        for (ShapeSweep.Row r : w.rows()) {
            assertThat(r.fitsWorstCase()).isTrue();
            assertThat(r.wastedBytes()).isEqualTo(w.plan().arenaBytes() - r.arenaBytes()).isNotNegative();
        }
        assertThat(w.rows().get(1).wastedBytes()).isZero();
        assertThat(w.rows().get(0).wastedBytes()).isPositive();
    }

    @Test
    void aConcatInPlaceOnlyAtBatchOneMakesTheSharedPlanUseCopies() throws Exception {
        Path p = dir.resolve("cat.onnx");
        Files.write(p, new TinyOnnx().input("x", "batch", 8L).output("y")
                .node("r", "Relu", List.of("x"), List.of("a"))
                .node("s", "Sigmoid", List.of("x"), List.of("b"))
                .node("cat", "Concat", List.of("a", "b"), List.of("c"), "axis", 1L)
                .node("t", "Tanh", List.of("c"), List.of("y")).bytes());
        ShapeSweep sweep = new ShapeSweep(p, OnnxImporter.Options.DEFAULT, ArenaPlanner.Options.DEFAULT.withAlignment(1));
        ShapeSweep.WorstCase w = sweep.worstCase(dims("batch", List.of(1L, 3L)));
        assertThat(w.concatsAsCopies()).isTrue();
        assertThat(w.rows()).allSatisfy(r -> assertThat(r.fitsWorstCase()).isTrue());
        assertThat(w.rows().get(0).plan().graph().ops().get(2).members()).hasSize(2);
        assertThat(w.plan().graph().ops().get(2).members()).isEmpty();
        ShapeSweep.WorstCase same = sweep.worstCase(dims("batch", List.of(2L, 3L)));
        assertThat(same.concatsAsCopies()).isFalse();
    }
}
