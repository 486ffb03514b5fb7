package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CUDA kernels, compiled for the CPU by g++ (src/test/cuda/emulator.cpp: real threads per
 * block, a barrier for __syncthreads) and launched with {@link CudaKernelTable}'s slots and grid,
 * give the simulator's results: bit for bit where only +, -, *, /, sqrt and comparisons are
 * involved, within 2 ulp where exp, tanh or pow are (the C library's may differ from Java's).
 * Checks index arithmetic, summation order and launch geometry without a GPU; not the GPU's own
 * math library or memory model. Skipped where g++ is not installed.
 */
class KernelEmulationTest {
    private static final Path EMULATOR = Path.of("target/kernel-emulator/emulator");
    private static String skip;

    /** One kernel call: inputs, output length, ints, floats, and how close the results must be. */
    private record Case(String kernel, List<float[]> inputs, int outputs, long[] ints, double[] floats, int ulps) { }

    @BeforeAll
    static void compile() throws Exception {
        Files.createDirectories(EMULATOR.getParent());
        try {
            Process p = new ProcessBuilder("g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-I", "src/main/cuda",
                    "-o", EMULATOR.toString(), "src/test/cuda/emulator.cpp").redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) throw new AssertionError("g++ failed:\n" + log);
        } catch (IOException e) {
            skip = "g++ not available: " + e.getMessage();
        }
    }

    private static float[] random(long seed, int n, boolean positive) {
        Random r = new Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = positive ? (float) Math.abs(r.nextGaussian()) + 0.5f : (float) r.nextGaussian();
        return a;
    }

    private static float[] random(long seed, int n) {
        return random(seed, n, false);
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        for (int op : new int[] {Kernels.RELU, Kernels.SIGMOID, Kernels.TANH, Kernels.GELU, Kernels.IDENTITY}) {
            boolean exact = op == Kernels.RELU || op == Kernels.IDENTITY;
            c.add(new Case(Kernels.UNARY, List.of(random(op, 700)), 700, new long[] {700, op}, new double[0], exact ? 0 : 2));
        }
        for (int op : new int[] {Kernels.ADD, Kernels.SUB, Kernels.MUL, Kernels.DIV, Kernels.RELU_GRAD}) {
            // y [4, 5, 6]; a full; b [5, 1] broadcast over the first and last axes.
            c.add(new Case(Kernels.BINARY, List.of(random(1, 120), random(2, 5, true)), 120,
                    new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0}, new double[0], 0));
        }
        int batch = 2, m = 17, n = 19, k = 23;
        for (int ta = 0; ta <= 1; ta++) {
            for (int tb = 0; tb <= 1; tb++) {
                c.add(new Case(Kernels.GEMM, List.of(random(3, batch * m * k), random(4, batch * k * n), random(5, n)), batch * m * n,
                        new long[] {batch, m, n, k, ta, tb, m * k, k * n, 1, 0, 0, 1}, new double[] {0.5, 2.0}, 0));
                c.add(new Case(Kernels.GEMM, List.of(random(3, batch * m * k), random(4, batch * k * n)), batch * m * n,
                        new long[] {batch, m, n, k, ta, tb, m * k, k * n, 0, 0, 0, 0}, new double[] {1.0, 0.0}, 0));
            }
        }
        // Several 64 x 64 register tiles in both directions, ragged edges, k not a multiple of 16.
        int bm = 70, bn = 130, bk = 37;
        for (int t = 0; t <= 1; t++) {
            c.add(new Case(Kernels.GEMM, List.of(random(6, 2 * bm * bk), random(7, 2 * bk * bn), random(8, bn)), 2 * bm * bn,
                    new long[] {2, bm, bn, bk, t, t, bm * bk, bk * bn, 1, 0, 0, 1}, new double[] {1.0, 1.0}, 0));
        }
        c.add(new Case(Kernels.SOFTMAX, List.of(random(6, 7 * 33)), 7 * 33, new long[] {7, 33}, new double[0], 2));
        c.add(new Case(Kernels.LAYERNORM, List.of(random(7, 5 * 64), random(8, 64), random(9, 64)), 5 * 64, new long[] {5, 64}, new double[] {1e-5}, 0));
        c.add(new Case(Kernels.BATCHNORM, List.of(random(10, 60), random(11, 3), random(12, 3), random(13, 3), random(14, 3, true)), 60,
                new long[] {2, 3, 10}, new double[] {1e-5}, 0));
        c.add(new Case(Kernels.LRN, List.of(random(15, 35)), 35, new long[] {1, 7, 5, 5}, new double[] {1e-4, 0.75, 1.0}, 2));
        // x 1x4x9x9, w 6x2x3x3 (group 2), stride 2, pad 1 -> y 1x6x5x5; with and without bias.
        long[] conv = {1, 4, 9, 9, 6, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1};
        c.add(new Case(Kernels.CONV2D, List.of(random(16, 324), random(17, 108), random(18, 6)), 150, conv, new double[0], 0));
        long[] noBias = conv.clone();
        noBias[16] = 0;
        c.add(new Case(Kernels.CONV2D, List.of(random(16, 324), random(17, 108)), 150, noBias, new double[0], 0));
        // x 1x2x7x7, 3x3 window, stride 2, pads 1 -> 4x4; max and average, with and without the padding counted.
        for (int mode : new int[] {Kernels.MAX, Kernels.AVERAGE}) {
            for (int include = 0; include <= 1; include++) {
                c.add(new Case(Kernels.POOL2D, List.of(random(19, 98)), 32,
                        new long[] {1, 2, 7, 7, 4, 4, 3, 3, 2, 2, 1, 1, 1, 1, mode, include}, new double[0], 0));
            }
        }
        // x [2, 3, 4] -> y [4, 2, 3] (perm 2, 0, 1): strides into x are 1, 12, 4.
        c.add(new Case(Kernels.TRANSPOSE, List.of(random(20, 24)), 24, new long[] {3, 4, 2, 3, 1, 12, 4}, new double[0], 0));
        c.add(new Case(Kernels.COPY, List.of(random(21, 600)), 600, new long[] {600}, new double[0], 0));
        // x [2, 3] into columns 4..6 of y [2, 8]; the rest of y stays as both initialise it (zero).
        c.add(new Case(Kernels.CONCAT_SLICE, List.of(random(22, 6)), 16, new long[] {2, 3, 8, 4}, new double[0], 0));
        return c;
    }

    @Test
    void everyKernelOnTheCpuMatchesTheSimulator() throws Exception {
        assumeTrue(skip == null, skip);
        List<Case> cases = cases();
        StringBuilder input = new StringBuilder();
        List<float[]> want = new ArrayList<>();
        try (SimDevice sim = SimDevice.open(DeviceOptions.DEFAULT)) {
            for (Case c : cases) {
                float[][] args = new float[c.inputs().size() + 1][];
                for (int i = 0; i < c.inputs().size(); i++) args[i] = c.inputs().get(i);
                args[args.length - 1] = new float[c.outputs()];
                want.add(onSimulator(sim, c));
                KernelCall shape = new KernelCall(c.kernel(), List.of(), c.ints(), c.floats(), "shape");
                CudaKernelTable.Spec spec = CudaKernelTable.SPECS.get(c.kernel());
                CudaKernelTable.Geometry g = CudaKernelTable.geometry(shape, spec);
                float[][] slots = new float[spec.slots()][];
                for (int i = 0; i < args.length; i++) slots[CudaKernelTable.slotOf(spec, args.length, i)] = args[i];
                input.append(c.kernel()).append(' ').append(g.gridX()).append(' ').append(g.gridY()).append(' ').append(g.gridZ())
                        .append(' ').append(g.blockX()).append(' ').append(g.blockY()).append(' ').append(spec.slots())
                        .append(' ').append(spec.slots() - 1);
                for (float[] s : slots) {
                    input.append(' ').append(s == null ? 0 : s.length);
                    if (s != null) for (float v : s) input.append(' ').append(Integer.toHexString(Float.floatToRawIntBits(v)));
                }
                long[] ints = java.util.Arrays.copyOf(c.ints(), CudaKernelTable.MAX_INTS);
                for (long v : ints) input.append(' ').append(v);
                double[] floats = java.util.Arrays.copyOf(c.floats(), CudaKernelTable.MAX_FLOATS);
                for (double v : floats) input.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(v)));
                input.append('\n');
            }
        }
        List<String> lines = emulate(input.toString());
        assertThat(lines).hasSize(cases.size());
        for (int k = 0; k < cases.size(); k++) {
            Case c = cases.get(k);
            String[] hex = lines.get(k).trim().split(" ");
            assertThat(hex).hasSize(c.outputs());
            for (int i = 0; i < hex.length; i++) {
                float got = Float.intBitsToFloat(Integer.parseUnsignedInt(hex[i], 16)), w = want.get(k)[i];
                String what = "case " + k + " " + c.kernel() + " " + java.util.Arrays.toString(c.ints()) + " element " + i + ": emulated " + got + " sim " + w;
                if (c.ulps() == 0) assertThat(Float.floatToRawIntBits(got)).as(what).isEqualTo(Float.floatToRawIntBits(w));
                else assertThat(Math.abs(got - w)).as(what).isLessThanOrEqualTo(c.ulps() * Math.ulp(Math.max(Math.abs(w), Float.MIN_NORMAL)));
            }
        }
    }

    /** The simulator's result for the case; the output buffer starts as zeros, like the emulator's. */
    private static float[] onSimulator(SimDevice sim, Case c) {
        List<DeviceBuffer> buffers = new ArrayList<>();
        try (DeviceStream s = sim.createStream("emulation")) {
            List<KernelArg> args = new ArrayList<>();
            for (int i = 0; i < c.inputs().size(); i++) {
                float[] in = c.inputs().get(i);
                DeviceBuffer b = sim.allocate(4L * in.length, "in" + i);
                buffers.add(b);
                sim.copyToDevice(s, in, b.base(), "in" + i);
                args.add(KernelArg.read(b.base(), 4L * in.length, "in" + i));
            }
            DeviceBuffer out = sim.allocate(4L * c.outputs(), "out");
            buffers.add(out);
            sim.copyToDevice(s, new float[c.outputs()], out.base(), "out");
            args.add(KernelArg.write(out.base(), 4L * c.outputs(), "out"));
            sim.launch(s, new KernelCall(c.kernel(), args, c.ints(), c.floats(), "emulation"));
            float[] result = new float[c.outputs()];
            sim.copyToHost(s, out.base(), result, "out");
            return result;
        } finally {
            buffers.forEach(DeviceBuffer::close);
        }
    }

    /** Feeds the cases from a file (a pipe both ways could fill up and block both processes). */
    private static List<String> emulate(String input) throws Exception {
        Path cases = EMULATOR.resolveSibling("cases.txt");
        Files.writeString(cases, input, StandardCharsets.US_ASCII);
        Process p = new ProcessBuilder(EMULATOR.toAbsolutePath().toString()).redirectInput(cases.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("emulator exit status").isZero();
        return out.lines().toList();
    }
}
