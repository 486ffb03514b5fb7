package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.sim.SimDevice;
import org.arenaplan.sim.UnsafePlanner;
import org.junit.jupiter.api.Test;

/** The GPU tests' fixtures, checked on the simulator so that a GPU run only has CUDA left to fail. */
class GpuGraphsTest {
    private static final DeviceOptions DELAYS = DeviceOptions.DEFAULT.withSeed(11).withMaxDelayNanos(100_000);

    @Test
    void everyGraphRunsInEveryModeOnOneAndFourStreamsWithoutHazards() {
        for (Graph g : GpuGraphs.all()) {
            for (Plan plan : List.of(ArenaPlanner.plan(g), ArenaPlanner.plan(g.withStreams(p -> p % 4)))) {
                try (SimDevice sim = SimDevice.open(DELAYS)) {
                    Executors.Comparison c = Executors.run(plan, sim, List.of(Mode.values()), 1, Inputs.of(g, 3), 5);
                    assertThat(c.outputsEqual()).as(g.name() + ": " + c.firstDifference()).isTrue();
                    assertThat(sim.hazards()).as(g.name()).isEmpty();
                    for (org.arenaplan.ir.TensorValue out : c.last(Mode.PLANNED).outputs().values()) for (double v : out.doubles()) assertThat(v).isFinite();
                }
            }
        }
    }

    @Test
    void onlyTheUnsafeHazardPlanPutsTheWriterOnTheSlowReadersInput() {
        Graph g = GpuGraphs.hazard(1024);
        Plan unsafe = UnsafePlanner.plan(g);
        Plan guarded = ArenaPlanner.plan(g);
        assertThat(unsafe.addressOf("b")).as("unsafe: b reuses a").isEqualTo(unsafe.addressOf("a"));
        assertThat(guarded.addressOf("b")).as("guarded: b apart from a").isNotEqualTo(guarded.addressOf("a"));
        assertThat(guarded.sync().events()).as("guarded: relu -> slow event").isNotEmpty();
        try (SimDevice sim = SimDevice.open(DELAYS)) {
            Executors.run(guarded, sim, List.of(Mode.PLANNED), 2, Inputs.of(g, 9), 1);
            assertThat(sim.hazards()).isEmpty();
        }
    }
}
