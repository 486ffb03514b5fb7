package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncPlan;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Inputs an executor refuses, each with a message naming the culprit; nothing leaks on the way out. */
class BadInputTest {
    private static Graph oneOp(String kind) {
        return new GraphBuilder("bad").tensor("x", DType.F32, 2, 4).tensor("y", DType.F32, 2, 4)
                .input("x").output("y").op("the-op", kind).in("x").out("y").add().build();
    }

    @Test
    void anUnknownOpKindIsNamedAtLoad() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT); WeightRegion w = new WeightRegion(d, oneOp("Frobnicate"), 1)) {
            assertThatThrownBy(() -> new PlannedExecutor(d, ArenaPlanner.plan(oneOp("Frobnicate")), w))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("op 'the-op' (Frobnicate): unknown op kind 'Frobnicate'");
        }
    }

    @Test
    void aMissingOrMisSizedInputIsNamed() {
        Graph g = oneOp("Relu");
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT); WeightRegion w = new WeightRegion(d, g, 1);
             PlannedExecutor e = new PlannedExecutor(d, ArenaPlanner.plan(g), w)) {
            assertThatThrownBy(() -> e.run(Map.of())).hasMessageContaining("graph input 'x' was not given");
            assertThatThrownBy(() -> e.run(Map.of("x", TensorValue.ofFloats(null, new float[3])))).hasMessageContaining("graph input 'x': 3 values given, 8 expected");
            assertThatThrownBy(() -> e.run(Map.of("x", TensorValue.ofLongs(DType.I64, null, new long[8]))))
                    .hasMessageContaining("graph input 'x': i64 values given, f32 expected");
        }
    }

    @Test
    void anEventWaitedBeforeItIsRecordedIsRefused() {
        Graph g = oneOp("Relu");
        Plan p = ArenaPlanner.plan(g);
        Plan bad = new Plan(g, p.lifetimes(), p.problem(), p.placement(), p.stats(),
                new SyncPlan(List.of(new SyncEvent(0, 0, 0, SyncEvent.Reason.DATA, 0))));
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT); WeightRegion w = new WeightRegion(d, g, 1)) {
            assertThatThrownBy(() -> new PlannedExecutor(d, bad, w)).isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("sync event 0 records after position 0 and is waited before position 0");
        }
    }
}
