package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ops with several outputs through every executor (planned, per-tensor, pool, graph replay) on
 * one and on four streams, under the simulator's per-byte version checks: every output is a
 * tensor with its own lifetime, an output nothing reads lives at its op's position only, and its
 * bytes are reused afterwards without a premature reuse.
 */
class SeveralOutputsTest {
    private static final DeviceOptions DELAYS = DeviceOptions.DEFAULT.withSeed(11).withMaxDelayNanos(200_000);

    /** Split into three; the middle part is never read; the other two feed ops on other streams. */
    static Graph splitWithADeadOutput() {
        GraphBuilder g = new GraphBuilder("split3").tensor("x", DType.F32, 4, 6).input("x");
        for (String t : List.of("a", "b", "c")) g.tensor(t, DType.F32, 4, 2);
        g.tensor("ra", DType.F32, 4, 2).tensor("tc", DType.F32, 4, 2).tensor("y", DType.F32, 4, 2).tensor("z", DType.F32, 4, 2);
        g.op("s", OpKinds.SPLIT).in("x").out("a", "b", "c").attr("axis", 1L).add();
        g.op("ra", OpKinds.RELU).in("a").out("ra").add();
        g.op("tc", OpKinds.TANH).in("c").out("tc").add();
        g.op("y", OpKinds.ADD).in("ra", "tc").out("y").add();
        g.op("z", OpKinds.SIGMOID).in("y").out("z").add();
        return g.output("z").build();
    }

    /** Graphs whose ops have several outputs, one at least never read. */
    static List<Graph> graphs() {
        List<Graph> all = new ArrayList<>(List.of(splitWithADeadOutput()));
        all.addAll(RecurrentGraphs.all());
        return all;
    }

    @Test
    void anOutputNothingReadsLivesAtItsOpOnly() {
        Graph g = splitWithADeadOutput();
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.lifetimes().tensorInterval("b")).containsExactly(0, 1);
        assertThat(plan.lifetimes().tensorInterval("a")).containsExactly(0, 2);
        assertThat(plan.lifetimes().tensorInterval("c")).containsExactly(0, 3);
    }

    @Test
    void recurrentOutputsNothingReadsAreWrittenAndLiveAtTheirOpOnly() {
        Graph g = RecurrentGraphs.lstm();
        Plan plan = ArenaPlanner.plan(g);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(plan.lifetimes().tensorInterval("Y_c")).containsExactly(0, 1);
        try (SimDevice d = SimDevice.open(DELAYS)) {
            Executors.Comparison c = Executors.run(plan, d, List.of(Mode.PLANNED), 1, Inputs.of(g, 3), 5);
            assertThat(c.last(Mode.PLANNED).counters().launches()).isEqualTo(3);
            assertThat(d.hazards()).isEmpty();
        }
    }

    /**
     * A plan that puts an output nothing reads (Y_c) on the bytes of an output written by the same
     * op (Y) is rejected by the validator, and caught by the simulator when run anyway.
     */
    @Test
    void aPlanOverlappingAnUnreadOutputWithALiveOneIsRejectedAndCaught() {
        Graph g = RecurrentGraphs.lstm();
        Plan good = ArenaPlanner.plan(g);
        int y = good.lifetimes().storageOf("Y"), yc = good.lifetimes().storageOf("Y_c");
        long[] offsets = good.placement().offsets();
        offsets[yc] = offsets[y];
        Plan bad = new Plan(g, good.lifetimes(), good.problem(),
                org.arenaplan.plan.Placement.of(good.problem(), offsets, "overlapping"), good.stats(), good.sync());
        assertThat(PlanValidator.validate(bad)).extracting(v -> v.kind().name()).contains("OVERLAP");
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Executors.run(bad, d, List.of(Mode.PLANNED), 1, Inputs.of(g, 3), 5))
                    .hasMessageContaining("premature reuse").hasMessageContaining("writing 'Y_c'");
        }
    }

    @Test
    void everyExecutorGivesTheSameBitsOnOneAndFourStreams() {
        for (Graph g : graphs()) {
            try (SimDevice d = SimDevice.open(DELAYS)) {
                Executors.Comparison one = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.values()), 2, Inputs.of(g, 3), 5);
                assertThat(one.outputsEqual()).as(g.name() + ": " + one.firstDifference()).isTrue();
                Graph four = g.withStreams(p -> p % 4);
                for (SyncMode sync : SyncMode.values()) {
                    Plan plan = StreamPlanner.plan(four, 0, sync, ArenaPlanner.Options.DEFAULT);
                    assertThat(PlanValidator.validate(plan)).as(g.name() + " " + sync).isEmpty();
                    Executors.Comparison c = Executors.run(plan, d, List.of(Mode.values()), 2, Inputs.of(g, 3), 5);
                    assertThat(c.outputsEqual()).as(g.name() + " " + sync + ": " + c.firstDifference()).isTrue();
                    assertThat(Executors.difference(one.last(Mode.PLANNED), c.last(Mode.PLANNED))).as(g.name() + " " + sync).isNull();
                }
                assertThat(d.hazards()).as(g.name()).isEmpty();
            }
        }
    }
}
