package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Inputs;
import org.arenaplan.exec.Mode;
import org.arenaplan.exec.RunResult;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.ops.EpilogueFusion;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The faster kernels on the GPU give the simulator's bits: conv2d_igemm (conv2d with group 1) on
 * the emulation test's edge shapes and on ResNet-sized layers, the fused relu epilogue of conv2d
 * and gemm, the vectorized unary / binary / copy kernels on aligned and on shifted buffers (their
 * scalar path), and every GPU graph planned with its epilogues fused against the unfused run.
 */
@GpuTest
class FastKernelsGpuTest {
    private static CudaDevice cuda;
    private static SimDevice sim;

    @BeforeAll
    static void open() {
        cuda = new CudaDevice(0);
        sim = SimDevice.open(DeviceOptions.DEFAULT);
    }

    @AfterAll
    static void close() {
        if (cuda != null) cuda.close();
        if (sim != null) sim.close();
    }

    private static Function<List<KernelArg>, KernelCall> call(String name, long[] ints, double... floats) {
        return args -> new KernelCall(name, args, ints, floats, "test-" + name);
    }

    /** Bit-identical outputs on both devices, every buffer {@code shift} bytes past its base. */
    private static void same(String what, List<float[]> inputs, int outputs, Function<List<KernelArg>, KernelCall> call, int shift) {
        List<byte[]> in = inputs.stream().map(v -> TensorValue.ofFloats(null, v).bytes()).toList();
        byte[] want = KernelRun.runBytes(sim, in, 4 * outputs, call, shift), got = KernelRun.runBytes(cuda, in, 4 * outputs, call, shift);
        int i = java.util.Arrays.mismatch(want, got);
        assertThat(i).as(what + (i >= 0 ? " first differing byte " + i : "")).isEqualTo(-1);
    }

    /** conv2d's ints; OH and OW from the padding at the top/left (the same at the bottom/right). */
    private static long[] conv(int n, int c, int h, int w, int m, int k, int s, int p, int d, boolean bias, int act) {
        int oh = (h + 2 * p - d * (k - 1) - 1) / s + 1, ow = (w + 2 * p - d * (k - 1) - 1) / s + 1;
        return new long[] {n, c, h, w, m, oh, ow, k, k, s, s, p, p, d, d, 1, bias ? 1 : 0, act};
    }

    private static void conv(long seed, long[] ints) {
        int n = (int) ints[0], c = (int) ints[1], m = (int) ints[4];
        List<float[]> in = new java.util.ArrayList<>(List.of(KernelRun.random(seed, (int) (n * c * ints[2] * ints[3])),
                KernelRun.random(seed + 1, (int) (m * c * ints[7] * ints[8]))));
        if (ints[16] == 1) in.add(KernelRun.random(seed + 2, m));
        same("conv2d_igemm " + java.util.Arrays.toString(ints), in, (int) (n * m * ints[5] * ints[6]), call(Kernels.CONV2D, ints), 0);
    }

    @Test
    void implicitGemmConvolutionGivesTheSimulatorsBits() {
        conv(1, conv(2, 3, 17, 21, 70, 3, 2, 1, 1, true, Kernels.ACTIVATION_RELU));
        conv(2, conv(1, 5, 9, 11, 7, 3, 1, 2, 2, false, Kernels.ACTIVATION_NONE));
        conv(3, conv(3, 17, 6, 5, 33, 1, 2, 0, 1, true, Kernels.ACTIVATION_NONE));
        conv(4, conv(1, 3, 224, 224, 64, 7, 2, 3, 1, true, Kernels.ACTIVATION_RELU));    // a ResNet stem
        conv(5, conv(1, 64, 56, 56, 64, 3, 1, 1, 1, false, Kernels.ACTIVATION_NONE));   // a ResNet 3 x 3 layer
        conv(6, conv(1, 256, 56, 56, 64, 1, 1, 0, 1, true, Kernels.ACTIVATION_RELU));   // a 1 x 1 bottleneck
    }

    @Test
    void gemmWithTheReluEpilogueGivesTheSimulatorsBits() {
        int m = 70, n = 45, k = 29;
        if (Cuda.cublasEnabled()) System.out.println("[gpu tests] cuBLAS on: a gemm with an epilogue still runs on the tiled kernel");
        same("gemm relu", List.of(KernelRun.random(7, m * k), KernelRun.random(8, k * n), KernelRun.random(9, n)), m * n,
                call(Kernels.GEMM, new long[] {1, m, n, k, 0, 1, 0, 0, 1, 0, 0, 1, Kernels.ACTIVATION_RELU}, 1.0, 1.0), 0);
    }

    @Test
    void vectorizedElementwiseKernelsGiveTheSimulatorsBitsAlignedAndShifted() {
        for (int n : new int[] {1, 3, 4, 703, 1 << 20}) {
            for (int shift : new int[] {0, 4}) {
                same("unary relu n=" + n + " shift " + shift, List.of(KernelRun.random(n, n)), n, call(Kernels.UNARY, new long[] {n, Kernels.RELU, 1}), shift);
                same("binary mul n=" + n + " shift " + shift, List.of(KernelRun.random(n, n), KernelRun.random(n + 1, n)), n,
                        call(Kernels.BINARY, new long[] {Kernels.MUL, 1, n, 1, 1, 1}), shift);
                same("copy n=" + n + " shift " + shift, List.of(KernelRun.random(n + 2, n)), n, call(Kernels.COPY, new long[] {n, 4}), shift);
            }
        }
    }

    /**
     * With the tf32 option gemm and conv2d (group 1) run on the tensor cores: each output within
     * 2^-9 of the sum of its absolute products (plus 2^-20) of the simulator's FP32 result (the
     * bound of tf32.cuh), and some outputs differ from FP32 (the inputs were rounded).
     */
    @Test
    void tf32KernelsStayWithinTheirBoundOfFp32() {
        int m = 70, n = 130, k = 37;
        List<float[]> g = List.of(KernelRun.random(20, m * k), KernelRun.random(21, k * n), KernelRun.random(22, n));
        tf32Within("gemm_tf32", g, m * n, call(Kernels.GEMM, new long[] {1, m, n, k, 0, 1, 0, 0, 1, 0, 0, 1, Kernels.ACTIVATION_RELU}, 1.0, 1.0));
        long[] c = conv(1, 64, 56, 56, 64, 3, 1, 1, 1, true, Kernels.ACTIVATION_NONE);
        tf32Within("conv2d_igemm_tf32", List.of(KernelRun.random(23, 64 * 56 * 56), KernelRun.random(24, 64 * 64 * 9), KernelRun.random(25, 64)),
                64 * 56 * 56, call(Kernels.CONV2D, c));
    }

    private static void tf32Within(String what, List<float[]> inputs, int outputs, Function<List<KernelArg>, KernelCall> call) {
        float[] want = KernelRun.run(sim, inputs, outputs, call);
        float[] sums = KernelRun.run(sim, inputs.stream().map(v -> {
            float[] a = v.clone();
            for (int i = 0; i < a.length; i++) a[i] = Math.abs(a[i]);
            return a;
        }).toList(), outputs, call);
        float[] got;
        try (CudaDevice tf32 = new CudaDevice(0, true)) {
            got = KernelRun.run(tf32, inputs, outputs, call);
        }
        int differ = 0;
        for (int i = 0; i < outputs; i++) {
            assertThat((double) Math.abs(got[i] - want[i])).as(what + " element " + i + ": tf32 " + got[i] + " fp32 " + want[i])
                    .isLessThanOrEqualTo(Math.scalb((double) sums[i], -9) + Math.scalb(1.0, -20));
            if (got[i] != want[i]) differ++;
        }
        System.out.println("[gpu tests] " + what + ": " + differ + " of " + outputs + " outputs differ from FP32");
        assertThat(differ).as(what + ": outputs that differ from FP32").isPositive();
    }

    @Test
    void everyGpuGraphWithItsEpiloguesFusedGivesTheUnfusedBits() {
        for (Graph g : GpuGraphs.all()) {
            EpilogueFusion.Result fused = EpilogueFusion.fuse(g);
            if (fused.fused().isEmpty()) continue;
            Map<String, TensorValue> inputs = Inputs.of(g, 3);
            try (CudaDevice d = new CudaDevice(0)) {
                RunResult plain = Executors.run(ArenaPlanner.plan(g), d, List.of(Mode.PLANNED), 1, inputs, 5).last(Mode.PLANNED);
                Executors.Comparison f = Executors.run(ArenaPlanner.plan(fused.graph()), d, List.of(Mode.PLANNED, Mode.GRAPH), 2, inputs, 5);
                assertThat(f.outputsEqual()).as(g.name() + " fused: " + f.firstDifference()).isTrue();
                System.out.println("[gpu tests] " + g.name() + ": fused " + fused.fused().size() + " op(s) with their epilogues");
                if (!Cuda.cublasEnabled()) assertThat(Executors.difference(plain, f.last(Mode.PLANNED))).as(g.name() + " fused vs unfused").isNull();
            }
        }
    }
}
