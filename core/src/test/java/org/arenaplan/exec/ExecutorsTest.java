package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExecutorsTest {
    private static final DeviceOptions DELAYS = DeviceOptions.DEFAULT.withSeed(7).withMaxDelayNanos(200_000);

    /** Warm-up iterations run (each as many launches as a timed one) but are not among the results. */
    @Test
    void warmUpIterationsRunButAreLeftOutOfTheResults() {
        Graph g = TestGraphs.convNet();
        Plan plan = ArenaPlanner.plan(g);
        long[] launches = new long[3];
        for (int w = 0; w < 3; w++) {
            try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
                Executors.Comparison c = Executors.run(plan, d, List.of(Mode.PLANNED, Mode.PER_TENSOR), w, 2, Inputs.of(g, 1), 1, false);
                assertThat(c.results().get(Mode.PLANNED)).hasSize(2);
                assertThat(c.results().get(Mode.PER_TENSOR)).hasSize(2);
                assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
                launches[w] = d.counters().launches();
            }
        }
        assertThat(launches[1] - launches[0]).isPositive().isEqualTo(launches[2] - launches[1]);
    }

    @Test
    void allModesGiveTheSameBitsOnOneStream() {
        for (Graph g : TestGraphs.all()) {
            try (SimDevice d = SimDevice.open(DELAYS)) {
                Executors.Comparison c = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.values()), 2, Inputs.of(g, 3), 5);
                assertThat(c.outputsEqual()).as(g.name() + ": " + c.firstDifference()).isTrue();
                assertThat(d.hazards()).as(g.name()).isEmpty();
                assertFinite(c.last(Mode.PLANNED).outputs());
            }
        }
    }

    @Test
    void fourStreamsGiveTheSameBitsAsOne() {
        for (Graph g : TestGraphs.all()) {
            Graph four = g.withStreams(p -> p % 4);
            try (SimDevice d = SimDevice.open(DELAYS)) {
                for (SyncMode sync : SyncMode.values()) {
                    Plan plan = StreamPlanner.plan(four, 0, sync, ArenaPlanner.Options.DEFAULT);
                    Executors.Comparison c = Executors.run(plan, d, List.of(Mode.values()), 2, Inputs.of(g, 3), 5);
                    assertThat(c.outputsEqual()).as(g.name() + " " + sync + ": " + c.firstDifference()).isTrue();
                }
                Executors.Comparison c = Executors.run(ArenaPlanner.plan(four), d, List.of(Mode.PLANNED), 1, Inputs.of(g, 3), 5);
                Executors.Comparison one = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, Inputs.of(g, 3), 5);
                assertThat(Executors.difference(one.last(Mode.PLANNED), c.last(Mode.PLANNED))).as(g.name()).isNull();
                assertThat(d.hazards()).as(g.name()).isEmpty();
            }
        }
    }

    /**
     * A concat with one input copied and one written in place as a member slice, the member also
     * read after the concat (a graph output and by a later op): the concat's copy writes only its
     * own slice, so the member keeps its producer's write. Found by a random differential run
     * (breakstreams): the copy was declared to write all of the output, so the simulator reported
     * a premature reuse of the member on every mode of a correct plan.
     */
    @Test
    void aMemberSliceReadAfterItsConcatKeepsItsProducersWrite() {
        Graph g = new GraphBuilder("member-late").tensor("x", DType.F32, 32).input("x")
                .tensor("a", DType.F32, 32).tensor("cat", DType.F32, 64).tensor("n", DType.F32, 32)
                .op("a", OpKinds.RELU).in("x").out("a").add()
                .op("cat", OpKinds.CONCAT).in("x", "a").out("cat").attr("axis", 0L).member(1, 0, 128).add()
                .op("n", OpKinds.SIGMOID).in("a").out("n").add()
                .output("a").output("cat").output("n").build();
        for (Graph h : List.of(g, g.withStreams(p -> p % 2))) {
            try (SimDevice d = SimDevice.open(DELAYS)) {
                Executors.Comparison c = Executors.run(StreamPlanner.plan(h, 0, SyncMode.ADD, ArenaPlanner.Options.DEFAULT), d, List.of(Mode.values()), 2, Inputs.of(h, 3), 5);
                assertThat(c.outputsEqual()).as(c.firstDifference()).isTrue();
                assertThat(d.hazards()).isEmpty();
            }
        }
    }

    @Test
    void plannedRunMakesNoAllocatorCallPerIteration() {
        Graph g = TestGraphs.convNet();
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            Executors.Comparison c = Executors.runAllModes(ArenaPlanner.plan(g), d);
            assertThat(c.last(Mode.PLANNED).counters().allocatorCalls()).isZero();
            long storages = ArenaPlanner.plan(g).storages().size();
            assertThat(c.last(Mode.PER_TENSOR).counters().allocatorCalls()).isEqualTo(2 * storages);
            assertThat(c.last(Mode.POOL).counters().asyncAllocations()).isEqualTo(storages);
        }
    }

    @Test
    void viewsAndInPlaceConcatenationLaunchNothing() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            // mlp: mm, bias, relu, fc, sm launch; the Identity view does not.
            assertThat(Executors.runAllModes(ArenaPlanner.plan(TestGraphs.mlp()), d).last(Mode.PLANNED).counters().launches()).isEqualTo(5);
            // convnet: 24 ops, of which the member concat and the Flatten view are storage-only; Sum of 3 is 2 launches,
            // the non-member concat of 3 inputs is 3.
            assertThat(Executors.runAllModes(ArenaPlanner.plan(TestGraphs.convNet()), d).last(Mode.PLANNED).counters().launches()).isEqualTo(22 + 1 + 2);
        }
    }

    private static void assertFinite(Map<String, org.arenaplan.ir.TensorValue> outputs) {
        for (Map.Entry<String, org.arenaplan.ir.TensorValue> e : outputs.entrySet()) {
            for (double v : e.getValue().doubles()) assertThat(Double.isFinite(v)).as(e.getKey()).isTrue();
        }
    }
}
