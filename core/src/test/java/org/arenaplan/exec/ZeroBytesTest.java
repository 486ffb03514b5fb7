package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Tensors of 0 bytes (an empty axis) run in every mode: no pointer into a buffer that was never allocated. */
class ZeroBytesTest {
    /** y = x + w with an empty leading axis: every tensor, the weight and the arena are 0 bytes. */
    private static Graph empty() {
        return new GraphBuilder("empty").tensor("x", DType.F32, 0, 4).tensor("w", DType.F32, 0, 4).tensor("y", DType.F32, 0, 4)
                .input("x").weight("w").output("y").op("add", "Add").in("x", "w").out("y").add().build();
    }

    @Test
    void aGraphWhoseWeightsAndArenaAreAllZeroBytesRunsInEveryMode() {
        Graph g = empty();
        assertThat(ArenaPlanner.plan(g).arenaBytes()).isZero();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            Executors.Comparison c = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.values()), 1, Inputs.of(g, 3), 5);
            for (Mode m : Mode.values()) assertThat(c.last(m).outputs().get("y").byteCount()).as(m.toString()).isZero();
        }
    }

    @Test
    void aZeroByteWeightHasAPointer() {
        Graph g = empty();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT); WeightRegion w = new WeightRegion(d, g, 1)) {
            assertThat(w.holds("w")).isTrue();
            assertThat(w.pointer("w")).isNotNull();
        }
    }
}
