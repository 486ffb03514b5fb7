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
import org.arenaplan.sim.Interleavings;
import org.arenaplan.sim.PrematureReuseException;
import org.arenaplan.exec.Executor;
import org.arenaplan.exec.WeightRegion;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.plan.StreamPlanner;
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

    /** Every interleaving the streams and events of one traced run of {@code mode} allow. */
    private static Interleavings.Result explore(Plan plan, Mode mode) {
        SimDevice d = SimDevice.tracing();
        try (d; WeightRegion w = new WeightRegion(d, plan.graph(), 1); Executor e = mode.open(d, plan, w)) {
            e.run(Inputs.of(plan.graph(), 9));
        } catch (PrematureReuseException ignored) {
            // found at issue; the exploration finds it too
        }
        return Interleavings.explore(d.recorded(), 1_000_000);
    }

    @Test
    void theAddedEventPlanReusesTheSlowReadersInputAndIsSafeInEveryOrderPlannedAndAsAGraph() {
        Graph g = GpuGraphs.hazard(1024);
        Plan added = StreamPlanner.plan(g, 0, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
        assertThat(added.addressOf("b")).as("b reuses a's bytes").isEqualTo(added.addressOf("a"));
        assertThat(added.sync().events()).as("because of an added event after the slow reader, before tanh")
                .anyMatch(e -> e.reason() == SyncEvent.Reason.REUSE && e.recordAfter() == 1 && e.waitBefore() == 2);
        for (Mode m : List.of(Mode.PLANNED, Mode.GRAPH)) {
            Interleavings.Result r = explore(added, m);
            assertThat(r.hazard()).as(m.cliName()).isNull();
            assertThat(r.complete()).isTrue();
        }
    }

    @Test
    void aGraphReplayKeepsTheStreamsConcurrentSoTheUnsafePlanIsCaughtInItToo() {
        Plan unsafe = UnsafePlanner.plan(GpuGraphs.hazard(1024));
        for (Mode m : List.of(Mode.PLANNED, Mode.GRAPH)) assertThat(explore(unsafe, m).hazard()).as(m.cliName()).isNotNull();
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
