package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceCounters;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.Executor;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.PlannedExecutor;
import org.arenaplan.exec.RunResult;
import org.arenaplan.exec.WeightRegion;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.sim.SimDevice;
import org.arenaplan.sim.UnsafePlanner;
import org.junit.jupiter.api.Test;

/**
 * The executors on a real GPU. Outputs across modes on CUDA must be bit-identical (same kernels,
 * fixed reduction orders) unless cuBLAS runs the GEMMs; CUDA against the simulator agrees within
 * |d| <= 1e-5 + 1e-4 |sim| (exp/tanh/pow may differ in the last bit and the difference travels).
 */
@GpuTest
class ExecutorsGpuTest {
    @Test
    void arenaIsExactlyOneCuMemAllocAndIterationsMakeNoAllocatorCall() {
        Graph g = GpuGraphs.mlp();
        Plan plan = ArenaPlanner.plan(g);
        try (CudaDevice cuda = new CudaDevice(0); WeightRegion w = new WeightRegion(cuda, g, 1)) {
            DeviceCounters before = cuda.counters();
            try (PlannedExecutor e = new PlannedExecutor(cuda, plan, w)) {
                DeviceCounters opened = cuda.counters().since(before);
                assertThat(opened.allocations()).as("cuMemAlloc calls to open the planned executor").isEqualTo(1);
                assertThat(opened.liveBytes() - before.liveBytes()).isEqualTo(plan.arenaBytes());
                for (int i = 0; i < 3; i++) assertThat(e.run(Inputs.of(g, 1)).counters().allocatorCalls()).isZero();
            }
        }
    }

    @Test
    void everyModeOnOneAndFourStreamsGivesTheSameOutputsAsTheSimulator() {
        for (Graph g : GpuGraphs.all()) {
            Map<String, TensorValue> inputs = Inputs.of(g, 3);
            Executors.Comparison onSim;
            try (SimDevice sim = SimDevice.open(DeviceOptions.DEFAULT)) {
                onSim = Executors.run(ArenaPlanner.plan(g), sim, List.of(Mode.PLANNED), 1, inputs, 5);
            }
            // One stream: the plain plan. Four streams: ops dealt round-robin, a plan whose events order
            // every reuse, and one whose reuses rest on added events; both with random spins before
            // random launches (JitterDevice) so that a missing event shows.
            Graph four = g.withStreams(p -> p % 4);
            for (Plan plan : List.of(ArenaPlanner.plan(g), ArenaPlanner.plan(four),
                    StreamPlanner.plan(four, 0, SyncMode.ADD, ArenaPlanner.Options.DEFAULT))) {
                String what = g.name() + " on " + plan.graph().streams().size() + " stream(s), " + plan.sync().events().size() + " event(s)";
                Executors.Comparison onGpu;
                try (Device cuda = plan.graph().streams().size() > 1 ? new JitterDevice(new CudaDevice(0), 17, 0.3, 200_000) : new CudaDevice(0)) {
                    onGpu = Executors.run(plan, cuda, List.of(Mode.values()), 2, inputs, 5);
                }
                if (!Cuda.cublasEnabled()) assertThat(onGpu.outputsEqual()).as(what + ": " + onGpu.firstDifference()).isTrue();
                for (Mode m : Mode.values()) {
                    RunResult r = onGpu.last(m);
                    System.out.println("[gpu tests] " + what + " " + m + ": allocator calls per iteration " + r.counters().allocatorCalls()
                            + ", peak live bytes " + r.counters().peakLiveBytes());
                    close(what + " " + m, onSim.last(Mode.PLANNED).outputs(), r.outputs());
                }
                assertThat(onGpu.last(Mode.PLANNED).counters().allocatorCalls()).isZero();
                assertThat(onGpu.last(Mode.GRAPH).counters().allocatorCalls()).isZero();
                assertThat(Executors.difference(onGpu.last(Mode.PLANNED), onGpu.last(Mode.GRAPH))).as(what + ": graph replay vs planned").isNull();
                DeviceCounters perTensor = onGpu.last(Mode.PER_TENSOR).counters(), pool = onGpu.last(Mode.POOL).counters();
                assertThat(perTensor.allocations()).isEqualTo(perTensor.frees()).isPositive();
                assertThat(pool.asyncAllocations()).isEqualTo(pool.asyncFrees()).isPositive();
                assertThat(pool.allocations()).isZero();
            }
        }
    }

    @Test
    void perTensorWithPoisonedFreesEqualsThePlannedRun() {
        for (Graph g : GpuGraphs.all()) {
            Plan plan = ArenaPlanner.plan(g);
            Map<String, TensorValue> inputs = Inputs.of(g, 4);
            RunResult planned;
            try (CudaDevice cuda = new CudaDevice(0)) {
                planned = Executors.run(plan, cuda, List.of(Mode.PLANNED), 1, inputs, 6).last(Mode.PLANNED);
            }
            for (Mode m : List.of(Mode.PER_TENSOR, Mode.POOL)) {
                try (Device poisoned = new PoisoningDevice(new CudaDevice(0))) {
                    RunResult r = Executors.run(plan, poisoned, List.of(m), 2, inputs, 6).last(m);
                    if (Cuda.cublasEnabled()) close(g.name() + " poisoned " + m, planned.outputs(), r.outputs());
                    else assertThat(Executors.difference(planned, r)).as(g.name() + " poisoned " + m).isNull();
                }
            }
        }
    }

    @Test
    void slowReaderOnAnotherStreamIsSafeUnderTheGuardedPlanAndCorruptedUnderTheUnsafeOne() {
        int n = 1 << 16;
        Graph g = GpuGraphs.hazard(n);
        Map<String, TensorValue> inputs = Inputs.of(g, 9);
        float[] want = new float[n], x = inputs.get("x").floats();
        for (int i = 0; i < n; i++) want[i] = x[i] > 0f ? x[i] : 0f;
        float[] guarded = slowRun(ArenaPlanner.plan(g), inputs).outputs().get("y").floats();
        assertThat(guarded).as("guarded plan: y = relu(x)").containsExactly(want);
        float[] unsafe = slowRun(UnsafePlanner.plan(g), inputs).outputs().get("y").floats();
        long wrong = 0;
        for (int i = 0; i < n; i++) if (Float.floatToRawIntBits(unsafe[i]) != Float.floatToRawIntBits(want[i])) wrong++;
        System.out.println("[gpu tests] unsafe plan: " + wrong + " of " + n + " values of y corrupted by the early reuse");
        assertThat(wrong).as("unsafe plan: the writer on stream 0 overtakes the slow reader on stream 1").isPositive();
    }

    @Test
    void slowReaderIsSafeWhenTheReuseRestsOnAnAddedEventPlannedAndReplayedFromAGraph() {
        int n = 1 << 16;
        Graph g = GpuGraphs.hazard(n);
        Plan added = StreamPlanner.plan(g, 0, SyncMode.ADD, ArenaPlanner.Options.DEFAULT);
        // the fixture (checked on the simulator by GpuGraphsTest): b reuses a's bytes only because of a REUSE event slow -> tanh
        assertThat(added.addressOf("b")).isEqualTo(added.addressOf("a"));
        assertThat(added.sync().events()).anyMatch(e -> e.reason() == SyncEvent.Reason.REUSE);
        Map<String, TensorValue> inputs = Inputs.of(g, 9);
        float[] want = new float[n], x = inputs.get("x").floats();
        for (int i = 0; i < n; i++) want[i] = x[i] > 0f ? x[i] : 0f;
        for (Mode m : List.of(Mode.PLANNED, Mode.GRAPH)) {
            assertThat(slowRun(added, inputs, m).outputs().get("y").floats()).as(m + ": y = relu(x) although b reuses a's bytes").containsExactly(want);
        }
    }

    private static RunResult slowRun(Plan plan, Map<String, TensorValue> inputs) {
        return slowRun(plan, inputs, Mode.PLANNED);
    }

    private static RunResult slowRun(Plan plan, Map<String, TensorValue> inputs, Mode mode) {
        try (Device d = new SlowReaderDevice(new CudaDevice(0), "slow", 400_000_000L);
             WeightRegion w = new WeightRegion(d, plan.graph(), 1);
             Executor e = mode.open(d, plan, w)) {
            return e.run(inputs);
        }
    }

    @Test
    void thousandRunsLeakNoDeviceMemory() {
        Graph g = GpuGraphs.mlp();
        Plan plan = ArenaPlanner.plan(g);
        Map<String, TensorValue> inputs = Inputs.of(g, 1);
        try (CudaDevice cuda = new CudaDevice(0)) {
            Executors.run(plan, cuda, List.of(Mode.values()), 1, inputs, 1);   // warm-up: lazy driver set-up is not a leak
            LeakWatch watch = new LeakWatch(cuda);
            try (WeightRegion w = new WeightRegion(cuda, g, 1)) {
                for (int i = 0; i < 1000; i++) {
                    try (Executor e = Mode.values()[i % Mode.values().length].open(cuda, plan, w)) {
                        e.run(inputs);
                    }
                    if ((i + 1) % 100 == 0) watch.checkpoint();
                }
            }
            assertThat(cuda.counters().liveBytes()).isZero();
            watch.assertNoGrowth("1,000 runs of every mode");
        }
    }

    private static void close(String what, Map<String, TensorValue> want, Map<String, TensorValue> got) {
        for (Map.Entry<String, TensorValue> e : want.entrySet()) {
            float[] w = e.getValue().floats(), x = got.get(e.getKey()).floats();
            assertThat(x).as(what + " output " + e.getKey()).hasSameSizeAs(w);
            for (int i = 0; i < w.length; i++) {
                assertThat(Math.abs(x[i] - w[i])).as(what + " output " + e.getKey() + "[" + i + "]: " + x[i] + " vs " + w[i])
                        .isLessThanOrEqualTo(1e-5f + 1e-4f * Math.abs(w[i]));
            }
        }
    }
}
