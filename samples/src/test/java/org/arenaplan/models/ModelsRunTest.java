package org.arenaplan.models;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.RunResult;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.ops.EpilogueFusion;
import org.arenaplan.exec.Mode;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every built-in model, planned, per-tensor and pool on the simulator, on 1 and 4 streams: bit-identical outputs. */
class ModelsRunTest {
    static Stream<String> models() {
        return BuiltinModels.names().stream();
    }

    @ParameterizedTest
    @MethodSource("models")
    void allModesGiveTheSameBitsOnOneAndFourStreams(String name) {
        Graph g = BuiltinModels.build(name, Map.of());
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(name.hashCode()).withMaxDelayNanos(50_000))) {
            Executors.Comparison one = Executors.runAllModes(ArenaPlanner.plan(g), d);
            assertThat(one.outputsEqual()).as(name + ": " + one.firstDifference()).isTrue();
            assertThat(one.last(Mode.PLANNED).counters().allocatorCalls()).isZero();
            Plan four = StreamPlanner.plan(g, 4, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
            Executors.Comparison many = Executors.runAllModes(four, d);
            assertThat(many.outputsEqual()).as(name + " on 4 streams: " + many.firstDifference()).isTrue();
            assertThat(Executors.difference(one.last(Mode.PLANNED), many.last(Mode.PLANNED))).as(name).isNull();
            assertThat(d.hazards()).as(name).isEmpty();
        }
    }

    /** With their epilogues fused (EpilogueFusion), planned on 1 and 4 streams: the unfused planned run's bits, fewer tensors planned. */
    @ParameterizedTest
    @MethodSource("models")
    void fusedEpiloguesGiveTheSameBits(String name) {
        Graph g = BuiltinModels.build(name, Map.of());
        EpilogueFusion.Result fused = EpilogueFusion.fuse(g);
        assertThat(fused.graph().tensors().size()).isEqualTo(g.tensors().size() - (g.opCount() - fused.graph().opCount()));
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(name.hashCode()).withMaxDelayNanos(50_000))) {
            Map<String, TensorValue> inputs = Inputs.of(g, 1);
            RunResult plain = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, inputs, 1).last(Mode.PLANNED);
            for (int streams : new int[] {1, 4}) {
                Plan p = StreamPlanner.plan(fused.graph(), streams, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
                RunResult f = Executors.run(p, d, List.of(Mode.PLANNED), 1, inputs, 1).last(Mode.PLANNED);
                assertThat(Executors.difference(plain, f)).as(name + " fused " + fused.fused() + " on " + streams + " stream(s)").isNull();
            }
            assertThat(d.hazards()).as(name).isEmpty();
        }
    }
}
