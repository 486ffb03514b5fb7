package org.arenaplan.exec;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.ir.Graph;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Two planned executors of one plan at once: own arenas and streams, one shared weight region. */
class ConcurrentEnginesTest {

    @Test
    void twoEnginesAtOnceMatchSequentialRuns() throws Exception {
        Graph g = TestGraphs.branches().withStreams(p -> p % 2);
        Plan plan = ArenaPlanner.plan(g);
        Map<String, org.arenaplan.ir.TensorValue> in1 = Inputs.of(g, 1), in2 = Inputs.of(g, 2);
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withSeed(3).withMaxDelayNanos(100_000));
             WeightRegion w = new WeightRegion(d, g, 9)) {
            RunResult seq1, seq2;
            try (PlannedExecutor e = new PlannedExecutor(d, plan, w)) {
                seq1 = e.run(in1);
                seq2 = e.run(in2);
            }
            ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try (PlannedExecutor a = new PlannedExecutor(d, plan, w); PlannedExecutor b = new PlannedExecutor(d, plan, w)) {
                List<Future<List<RunResult>>> runs = new ArrayList<>();
                runs.add(pool.submit(() -> List.of(a.run(in1), a.run(in2), a.run(in1))));
                runs.add(pool.submit(() -> List.of(b.run(in2), b.run(in1), b.run(in2))));
                List<RunResult> ra = runs.get(0).get(), rb = runs.get(1).get();
                assertThat(Executors.difference(seq1, ra.get(0))).isNull();
                assertThat(Executors.difference(seq2, ra.get(1))).isNull();
                assertThat(Executors.difference(seq1, ra.get(2))).isNull();
                assertThat(Executors.difference(seq2, rb.get(0))).isNull();
                assertThat(Executors.difference(seq1, rb.get(1))).isNull();
                assertThat(Executors.difference(seq2, rb.get(2))).isNull();
                assertThat(Executors.difference(seq1, seq2)).isNotNull();   // the inputs matter
            } finally {
                pool.shutdown();
            }
            assertThat(d.hazards()).isEmpty();
        }
    }
}
