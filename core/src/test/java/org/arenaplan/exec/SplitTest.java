package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Split computes ONNX Split's values, whether its outputs are copies (any axis) or views (every extent before the axis 1). */
class SplitTest {

    private static Map<String, float[]> run(Graph g) {
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            Executors.Comparison c = Executors.run(plan, d, List.of(Mode.values()), 1,
                    Map.of("x", org.arenaplan.ir.TensorValue.ofFloats(plan.graph().tensor("x").shape(), iota(24))), 1);
            assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
            assertThat(d.hazards()).isEmpty();
            Map<String, float[]> out = new java.util.LinkedHashMap<>();
            c.last(Mode.PLANNED).outputs().forEach((k, v) -> out.put(k, v.floats()));
            return out;
        }
    }

    private static float[] iota(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = i;
        return v;
    }

    @Test
    void splitAlongTheLastAxisCopiesStridedRuns() {
        GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 2, 3, 4).input("x")
                .tensor("a", DType.F32, 2, 3, 1).tensor("b", DType.F32, 2, 3, 3).tensor("ya", DType.F32, 2, 3, 1).tensor("yb", DType.F32, 2, 3, 3);
        g.op("s", OpKinds.SPLIT).in("x").out("a", "b").attr("axis", -1L).attr("split", new long[]{1, 3}).add();
        g.op("ra", OpKinds.RELU).in("a").out("ya").add();
        g.op("rb", OpKinds.RELU).in("b").out("yb").add();
        Map<String, float[]> out = run(g.output("ya").output("yb").build());
        assertThat(out.get("ya")).containsExactly(0, 4, 8, 12, 16, 20);
        assertThat(out.get("yb")).containsExactly(1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23);
    }

    @Test
    void splitAlongAxisOneWithOuterExtentOneIsViewsAndGivesTheSameValues() {
        for (boolean views : new boolean[]{false, true}) {
            GraphBuilder g = new GraphBuilder().tensor("x", DType.F32, 1, 6, 4).input("x")
                    .tensor("a", DType.F32, 1, 2, 4).tensor("b", DType.F32, 1, 4, 4).tensor("ya", DType.F32, 1, 2, 4).tensor("yb", DType.F32, 1, 4, 4);
            GraphBuilder.OpBuilder s = g.op("s", OpKinds.SPLIT).in("x").out("a", "b").attr("axis", 1L).attr("split", new long[]{2, 4});
            if (views) s.view(0, 0, 0).view(1, 0, 32);
            s.add();
            g.op("ra", OpKinds.RELU).in("a").out("ya").add();
            g.op("rb", OpKinds.RELU).in("b").out("yb").add();
            Graph graph = g.output("ya").output("yb").build();
            assertThat(graph.ops().get(0).isStorageOnly()).isEqualTo(views);
            Map<String, float[]> out = run(graph);
            assertThat(out.get("ya")).as("views " + views).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            assertThat(out.get("yb")[0]).isEqualTo(8);
            assertThat(out.get("yb")[15]).isEqualTo(23);
        }
    }
}
