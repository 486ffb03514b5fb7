package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kernels of data-dependent outputs (data_dependent.cuh: one block of 1024 threads, scans and
 * bitonic sorts in shared and global memory) on the GPU give the simulator's bits on inputs far
 * larger than the emulation test's (10^5 to 10^6 elements, 10^4 boxes): every output, the extent
 * included, compared whole. The emulator runs a block's threads in a fixed order; this runs them as
 * the GPU does, under its memory model.
 */
@GpuTest
class DataDependentKernelsGpuTest {
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

    /** The call over buffers (outputs from firstOutput on, starting as zeros) on both devices: every buffer's bytes equal. */
    private static void same(String what, String kernel, long[] ints, List<byte[]> buffers, int firstOutput) {
        byte[][] want = KernelRun.runAll(sim, buffers, firstOutput, args -> new KernelCall(kernel, args, ints, new double[0], what));
        byte[][] got = KernelRun.runAll(cuda, buffers, firstOutput, args -> new KernelCall(kernel, args, ints, new double[0], what));
        for (int k = firstOutput; k < buffers.size(); k++) {
            int i = java.util.Arrays.mismatch(want[k], got[k]);
            assertThat(i).as(what + ": pointer " + k + (i >= 0 ? ", first differing byte " + i : "")).isEqualTo(-1);
        }
    }

    private static byte[] zeros(long bytes) {
        return new byte[Math.toIntExact(bytes)];
    }

    @Test
    void nonzeroAndCompressGiveTheSimulatorsBits() {
        Random r = new Random(1);
        double[] x = new double[1000 * 1000];
        for (int i = 0; i < x.length; i++) {
            double u = r.nextDouble();
            x[i] = u < 0.5 ? 0 : u < 0.52 ? -0.0 : u < 0.54 ? Double.NaN : r.nextGaussian();
        }
        same("nonzero [1000, 1000] f32", Kernels.NONZERO, new long[] {x.length, 2, 1000, 1000, DType.F32.onnxCode()},
                List.of(TensorValue.ofDoubles(DType.F32, null, x).bytes(), zeros(8), zeros(16L * x.length)), 1);
        // [4, 100000, 3] along axis 1, half the slices (more than the threads); [2, 10, 100000] int16, 3 of 10 (fewer)
        long[] half = new long[100_000];
        for (int i = 0; i < half.length; i++) half[i] = r.nextBoolean() ? 1 : 0;
        byte[] wide = TensorValue.ofDoubles(DType.F32, null, x).bytes();
        same("compress [4, 100000, 3] f32", Kernels.COMPRESS, new long[] {4, 100_000, 3, half.length, 4},
                List.of(java.util.Arrays.copyOf(wide, 4 * 4 * 100_000 * 3), TensorValue.ofLongs(DType.BOOL, null, half).bytes(), zeros(8), zeros(4L * 4 * 100_000 * 3)), 2);
        same("compress [2, 10, 100000] int16", Kernels.COMPRESS, new long[] {2, 10, 100_000, 10, 2},
                List.of(java.util.Arrays.copyOf(wide, 2 * 2 * 10 * 100_000), TensorValue.ofLongs(DType.BOOL, null, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0).bytes(), zeros(8),
                        zeros(2L * 2 * 10 * 100_000)), 2);
    }

    @Test
    void uniqueGivesTheSimulatorsBitsSortedAndNot() {
        Random r = new Random(2);
        double[] pool = new double[5000];
        for (int i = 0; i < pool.length; i++) pool[i] = Math.round(r.nextGaussian() * 1000) / 16.0;
        pool[0] = Double.NaN;
        pool[1] = -0.0;
        double[] x = new double[200_000];
        for (int i = 0; i < x.length; i++) x[i] = pool[r.nextInt(pool.length)];
        byte[] bytes = TensorValue.ofDoubles(DType.F32, null, x).bytes();
        for (int sorted = 0; sorted <= 1; sorted++) {
            same("unique 200000 f32, sorted " + sorted, Kernels.UNIQUE, new long[] {1, x.length, 1, sorted, DType.F32.onnxCode(), 4},
                    List.of(bytes, zeros(8), zeros(4L * x.length), zeros(8L * x.length), zeros(8L * x.length), zeros(8L * x.length)), 1);
        }
    }

    @Test
    void nonMaxSuppressionGivesTheSimulatorsBitsSortedAndByArgMax() {
        for (int[] shape : new int[][] {{2, 3000, 3, 3000}, {1, 10_000, 1, 100}}) {   // B, N, C, max_output: up to 4096 candidates sorted; more
            int batches = shape[0], n = shape[1], classes = shape[2], max = shape[3];
            Random r = new Random(n);
            float[] boxes = new float[4 * batches * n], scores = new float[batches * classes * n];
            for (int k = 0; k < batches * n; k++) {
                float y = r.nextInt(30) + (float) r.nextGaussian() * 0.3f, x = r.nextInt(30) + (float) r.nextGaussian() * 0.3f;
                float h = 0.5f + 2 * r.nextFloat(), w = 0.5f + 2 * r.nextFloat();
                boxes[4 * k] = y;
                boxes[4 * k + 1] = x;
                boxes[4 * k + 2] = k % 5 == 0 ? y - h : y + h;
                boxes[4 * k + 3] = x + w;
            }
            for (int k = 0; k < scores.length; k++) scores[k] = r.nextInt(256) / 256f;
            for (int center = 0; center <= 1; center++) {
                List<byte[]> buffers = new ArrayList<>(List.of(TensorValue.ofFloats(null, boxes).bytes(), TensorValue.ofFloats(null, scores).bytes(),
                        TensorValue.ofLongs(DType.I64, null, max).bytes(), TensorValue.ofFloats(null, 0.5f).bytes(), TensorValue.ofFloats(null, 0f).bytes(),
                        zeros(8), zeros(24L * batches * classes * max)));
                same("non_max_suppression " + java.util.Arrays.toString(shape) + " center " + center, Kernels.NMS,
                        new long[] {batches, n, classes, center, 0, max}, buffers, 5);
            }
        }
    }
}
