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

    /**
     * A graph input or output past one host array (the JVM's 2 GiB) cannot be given or copied back:
     * refused before anything is allocated, naming it. The output was an ArithmeticException from
     * the copy after the whole run (an internal error, exit 1), the input "was not given".
     */
    @Test
    void anInputOrOutputPastOneHostArrayIsRefusedBeforeAnythingIsAllocated() {
        Graph bigOut = new GraphBuilder("big").tensor("x", DType.F32, 2).tensor("y", DType.F32, 600_000_000L)
                .input("x").output("y").op("the-op", "Frobnicate").in("x").out("y").add().build();
        Graph bigIn = new GraphBuilder("big").tensor("x", DType.F32, 600_000_000L).tensor("y", DType.F32, 2)
                .input("x").output("y").op("the-op", "Frobnicate").in("x").out("y").add().build();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            assertThatThrownBy(() -> Executors.run(ArenaPlanner.plan(bigOut), d, List.of(Mode.PLANNED), 1, Map.of(), 1)).isInstanceOf(ExecutionException.class)
                    .hasMessage("graph output 'y' [600000000] holds 2,400,000,000 B, more than the 2,147,483,639 B one host array holds (the JVM's array limit),"
                            + " so it cannot be copied back to the host");
            assertThatThrownBy(() -> Executors.run(ArenaPlanner.plan(bigIn), d, List.of(Mode.PLANNED), 1, Map.of(), 1)).isInstanceOf(ExecutionException.class)
                    .hasMessage("graph input 'x' [600000000] holds 2,400,000,000 B, more than the 2,147,483,639 B one host array holds (the JVM's array limit),"
                            + " so it cannot be given from the host");
        }
    }
}
