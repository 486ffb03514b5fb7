package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CUDA kernels, compiled for the CPU by g++ (src/test/cuda/emulator.cpp: a block's threads are
 * fibers of one OS thread that meet at each __syncthreads; every case runs twice, its threads in
 * order and in a shuffled order each round, which must give the same bytes) and launched with {@link CudaKernelTable}'s slots and grid,
 * give the simulator's results: bit for bit where only +, -, *, /, sqrt, comparisons, data
 * movement and element conversions are involved, within 2 ulp (of the output type) where exp,
 * tanh or pow are (the C library's may differ from Java's). Every element type of
 * {@link DType}: casts between all pairs over special values (NaN, infinities, f16 overflow and
 * subnormals, int64 beyond 2^53, out-of-range floats; float8e8m0 from all its codes, and to it in
 * each round mode), integer arithmetic with wrap-around,
 * gather with negative int64/int32 indices, where and equal with broadcasting.
 * Checks index arithmetic, summation order and launch geometry without a GPU; not the GPU's own
 * math library or memory model. Skipped where g++ is not installed.
 */
class KernelEmulationTest {
    private static final Path EMULATOR = Path.of("target/kernel-emulator/emulator");
    private static String skip;

    /**
     * One kernel call: inputs, output type and length, ints, floats, how close the results must be
     * (ulps of the output type), and how many bytes past a 16-byte boundary every buffer starts in
     * the emulator (0: aligned; else the vectorized kernels take their scalar path).
     */
    /**
     * @param compared the pointer compared: its index among the call's pointers (the others are {@code inputs}, in order), -1 for the last
     * @param initial  the compared pointer's bytes before the call (a kernel that leaves some of them, zero_tail), or null: zeros
     */
    private record Case(String kernel, List<TensorValue> inputs, DType out, int outputs, long[] ints, double[] floats, int ulps, int shift, int compared,
                        TensorValue initial) {
        Case(String kernel, List<TensorValue> inputs, DType out, int outputs, long[] ints, double[] floats, int ulps) {
            this(kernel, inputs, out, outputs, ints, floats, ulps, 0, -1);
        }

        Case(String kernel, List<TensorValue> inputs, DType out, int outputs, long[] ints, double[] floats, int ulps, int shift, int compared) {
            this(kernel, inputs, out, outputs, ints, floats, ulps, shift, compared, null);
        }

        /** The pointer the emulation compares, among the inputs and the output. */
        int comparedArg() {
            return compared < 0 ? inputs.size() : compared;
        }

        /** An all-f32 case. */
        static Case f32(String kernel, List<float[]> inputs, int outputs, long[] ints, double[] floats, int ulps) {
            return new Case(kernel, inputs.stream().map(v -> TensorValue.ofFloats(null, v)).toList(), DType.F32, outputs, ints, floats, ulps);
        }

        Case shifted(int bytes) {
            return new Case(kernel, inputs, out, outputs, ints, floats, ulps, bytes, compared, initial);
        }
    }

    @BeforeAll
    static void compile() throws Exception {
        Files.createDirectories(EMULATOR.getParent());
        try {
            Process p = new ProcessBuilder("g++", "-std=c++20", "-O1", "-ffp-contract=off", "-I", "src/main/cuda",
                    "-o", EMULATOR.toString(), "src/test/cuda/emulator.cpp").redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) throw new AssertionError("g++ failed:\n" + log);
        } catch (IOException e) {
            skip = "g++ not available: " + e.getMessage();
        }
    }

    /**
     * tree_ensemble over a hand-made table (Kernels#TREE_ENSEMBLE): tree 0 LEQ f0 0.5 (NaN tracks true),
     * then MEMBER f1 {1, 4}; tree 1 GT f2 0; leaves of 1 or 2 entries; 8 rows of 3 features with NaN.
     * Regressors over every aggregate and post transform, classifiers of 3 and 2 classes (scores and labels).
     */
    private static void treeEnsembleCases(List<Case> c) {
        float[] rows = {0.25f, 1, 0.5f, Float.NaN, 4, -2, 1, 4, 3, 0.5f, 2, 0, -3, 1, -1, 7, Float.NaN, 0.125f, 0.5f, 4, 1, 2, 2, -0.5f};
        for (int targets = 2; targets <= 3; targets++) {
            double[] nodes = {0, 0, 0.5, 1, 2, 1, 0, 0, 6, 1, 0, 3, 4, 0, 0, 2, 7, 0, 0, 0, 0, 0, 0, 2, 7, 0, 0, 0, 0, 0, 2, 1,
                    7, 0, 0, 0, 0, 0, 3, 2, 3, 2, 0, 6, 2, 0, 0, 0, 7, 0, 0, 0, 0, 0, 5, 1};
            double[] entries = {0, 1.5, 2 % targets, -0.5, 1, 0.25, 0, -1, 2 % targets, 2, 1, 0.75};
            double[] rest = {1, 4, 0, 5, 0.1, 0.2, -0.3, 10, 20, 30};   // set, roots, 3 base values, 3 labels
            for (int classifier = 0; classifier <= 1; classifier++)
                for (int agg = 0; agg <= 3; agg++)
                    for (int post = 0; post <= 4; post++) {
                        if (classifier == 1 && agg != 1) continue;   // a classifier sums
                        int base = targets == 2 && classifier == 1 ? post % 3 : post % 2 * targets;
                        double[] table = new double[nodes.length + entries.length + 4 + base + (classifier == 1 ? targets : 0)];
                        System.arraycopy(nodes, 0, table, 0, nodes.length);
                        System.arraycopy(entries, 0, table, nodes.length, entries.length);
                        System.arraycopy(rest, 0, table, nodes.length + entries.length, 4 + base);
                        if (classifier == 1) System.arraycopy(rest, 7, table, table.length - targets, targets);
                        DType x = post == 3 ? DType.F64 : post == 2 ? DType.F16 : DType.F32, y = post == 3 ? DType.F64 : DType.F32;
                        double[] xv = new double[rows.length];
                        for (int i = 0; i < xv.length; i++) xv[i] = rows[i];
                        long[] ints = {8, 3, x.onnxCode(), y.onnxCode(), 7, 6, 2, 2, targets, agg, post, classifier, base, 0, post % 2};
                        TensorValue xt = TensorValue.ofDoubles(x, null, xv), tt = TensorValue.ofDoubles(DType.F64, null, table);
                        if (classifier == 0) {
                            c.add(new Case(Kernels.TREE_ENSEMBLE, List.of(xt, tt), y, 8 * targets, ints, new double[0], 2));
                            continue;
                        }
                        for (int binary = 0; binary <= (targets == 2 ? 1 : 0); binary++) {
                            ints = ints.clone();
                            ints[13] = binary;
                            TensorValue labels = TensorValue.ofLongs(DType.I64, null, new long[8]), scores = TensorValue.ofDoubles(y, null, new double[8 * targets]);
                            c.add(new Case(Kernels.TREE_ENSEMBLE, List.of(xt, tt, labels), y, 8 * targets, ints, new double[0], 2, 0, 2));
                            c.add(new Case(Kernels.TREE_ENSEMBLE, List.of(xt, tt, scores), DType.I64, 8, ints, new double[0], 0, 0, 3));
                        }
                    }
        }
    }

    private static float[] random(long seed, int n, boolean positive) {
        Random r = new Random(seed);
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = positive ? (float) Math.abs(r.nextGaussian()) + 0.5f : (float) r.nextGaussian();
        return a;
    }

    private static double[] doubles(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) d[i] = v[i];
        return d;
    }

    /** {@code v} with every element times {@code k}. */
    private static float[] scaled(float[] v, float k) {
        for (int i = 0; i < v.length; i++) v[i] *= k;
        return v;
    }

    private static float[] random(long seed, int n) {
        return random(seed, n, false);
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        for (int op : new int[] {Kernels.RELU, Kernels.SIGMOID, Kernels.TANH, Kernels.GELU, Kernels.IDENTITY}) {
            boolean exact = op == Kernels.RELU || op == Kernels.IDENTITY;
            c.add(Case.f32(Kernels.UNARY, List.of(random(op, 700)), 700, new long[] {700, op, 1}, new double[0], exact ? 0 : 2));
        }
        // special values: sign of -0 (0), relu of -0 (-0), asinh and atanh of -0 and subnormals (x itself), acosh below 1 (NaN); C's pow: 1^NaN = (-1)^inf = 1
        float[] special = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f, 1e-40f, -1e-40f, 1f, -2.5f, 0.5f, -0.5f, 3e38f, -3e38f, 1e-9f};
        for (int op : new int[] {Kernels.SIGN, Kernels.RELU, Kernels.ASINH, Kernels.ACOSH, Kernels.ATANH}) {
            c.add(Case.f32(Kernels.UNARY, List.of(special), special.length, new long[] {special.length, op, 1}, new double[0], op == Kernels.SIGN || op == Kernels.RELU ? 0 : 2));
        }
        c.add(Case.f32(Kernels.BINARY, List.of(new float[] {1, 1, -1, -1, 0, -0f, Float.NaN, -8, 2}, new float[] {Float.NaN, Float.NEGATIVE_INFINITY,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -1, -1, 0, 1f / 3, 0.5f}), 9, new long[] {Kernels.POW, 1, 9, 1, 1, 1}, new double[0], 2));
        for (int op : new int[] {Kernels.ADD, Kernels.SUB, Kernels.MUL, Kernels.DIV, Kernels.RELU_GRAD}) {
            // y [4, 5, 6]; a full; b [5, 1] broadcast over the first and last axes.
            c.add(Case.f32(Kernels.BINARY, List.of(random(1, 120), random(2, 5, true)), 120,
                    new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, 1}, new double[0], 0));
        }
        int batch = 2, m = 17, n = 19, k = 23;
        for (int ta = 0; ta <= 1; ta++) {
            for (int tb = 0; tb <= 1; tb++) {
                c.add(Case.f32(Kernels.GEMM, List.of(random(3, batch * m * k), random(4, batch * k * n), random(5, n)), batch * m * n,
                        new long[] {batch, m, n, k, ta, tb, m * k, k * n, 1, 0, 0, 1}, new double[] {0.5, 2.0}, 0));
                c.add(Case.f32(Kernels.GEMM, List.of(random(3, batch * m * k), random(4, batch * k * n)), batch * m * n,
                        new long[] {batch, m, n, k, ta, tb, m * k, k * n, 0, 0, 0, 0}, new double[] {1.0, 0.0}, 0));
            }
        }
        // Several 64 x 64 register tiles in both directions, ragged edges, k not a multiple of 16.
        int bm = 70, bn = 130, bk = 37;
        for (int t = 0; t <= 1; t++) {
            c.add(Case.f32(Kernels.GEMM, List.of(random(6, 2 * bm * bk), random(7, 2 * bk * bn), random(8, bn)), 2 * bm * bn,
                    new long[] {2, bm, bn, bk, t, t, bm * bk, bk * bn, 1, 0, 0, 1}, new double[] {1.0, 1.0}, 0));
        }
        // f16 gemm (Kernels.typeInt, int 13): operands widened to f32, the f32 sums, Y rounded once: the simulator's bits
        for (int t = 0; t <= 1; t++) {
            List<TensorValue> in = List.of(TensorValue.ofDoubles(DType.F16, null, doubles(random(95 + t, 2 * bm * bk))),
                    TensorValue.ofDoubles(DType.F16, null, doubles(random(97, 2 * bk * bn))), TensorValue.ofDoubles(DType.F16, null, doubles(random(98, bn))));
            c.add(new Case(Kernels.GEMM, in, DType.F16, 2 * bm * bn, new long[] {2, bm, bn, bk, t, 1 - t, bm * bk, bk * bn, 1, 0, 0, 1, Kernels.ACTIVATION_NONE,
                    DType.F16.onnxCode()}, new double[] {0.5, 2.0}, 0));
        }
        c.addAll(typedFormCases());   // the other typed forms (typed.cuh)
        for (int mode = Kernels.SOFTMAX_MODE; mode <= Kernels.HARDMAX_MODE; mode++) {
            c.add(Case.f32(Kernels.SOFTMAX, List.of(random(6, 7 * 33)), 7 * 33, new long[] {7, 33, 1, mode}, new double[0], 2));
            // axis 1 of [3, 11, 7]: lanes of 11 values with stride 7
            c.add(Case.f32(Kernels.SOFTMAX, List.of(random(6, 3 * 11 * 7)), 3 * 11 * 7, new long[] {3, 11, 7, mode}, new double[0], 2));
            // x [6, 4] bounded along axis 0 (held compactly), counts 0, 3, 6, 9 (past the bound) and -1: along that axis
            // (lanes of 6 with stride 4, per 1), and over axes 0 and 1 together (one lane of 24, before opset 13: per 4)
            for (DType t : new DType[] {DType.F32, DType.F16, DType.F64}) {
                TensorValue x = TensorValue.ofDoubles(t, null, doubles(random(7, 24)));
                for (long count : new long[] {0, 3, 6, 9, -1}) {
                    TensorValue extent = TensorValue.ofLongs(DType.I64, null, count);
                    c.add(new Case(Kernels.SOFTMAX, List.of(x, extent), t, 24, new long[] {1, 6, 4, mode, t.onnxCode(), 1}, new double[0], 2));
                    c.add(new Case(Kernels.SOFTMAX, List.of(x, extent), t, 24, new long[] {1, 24, 1, mode, t.onnxCode(), 4}, new double[0], 2));
                }
            }
        }
        c.add(Case.f32(Kernels.BATCHNORM, List.of(random(10, 60), random(11, 3), random(12, 3), random(13, 3), random(14, 3, true)), 60,
                new long[] {2, 3, 10}, new double[] {1e-5}, 0));
        c.add(Case.f32(Kernels.LRN, List.of(random(15, 35)), 35, new long[] {1, 7, 5, 5}, new double[] {1e-4, 0.75, 1.0}, 2));
        // x 1x4x9x9, w 6x2x3x3 (group 2), stride 2, pad 1 -> y 1x6x5x5; with and without bias.
        long[] conv = {1, 4, 9, 9, 6, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1};
        c.add(Case.f32(Kernels.CONV2D, List.of(random(16, 324), random(17, 108), random(18, 6)), 150, conv, new double[0], 0));
        long[] noBias = conv.clone();
        noBias[16] = 0;
        c.add(Case.f32(Kernels.CONV2D, List.of(random(16, 324), random(17, 108)), 150, noBias, new double[0], 0));
        // conv_nd: a 3-D Conv, x 1x4x5x6x7, w 6x2x3x3x3 (group 2), strides 2,1,2, pads 1,0,1, dilations 1,2,1 -> y 1x6x3x2x4;
        // a 2-D ConvTranspose, x 1x4x3x3, w 4x3x3x3 (group 2), stride 2, pad 1, one extra row and column -> y 1x6x6x6.
        c.add(Case.f32(Kernels.CONV_ND, List.of(random(16, 840), random(17, 324), random(18, 6)), 144,
                new long[] {3, 1, 4, 6, 2, 1, 0, 5, 3, 3, 2, 1, 1, 6, 2, 3, 1, 0, 2, 7, 4, 3, 2, 1, 1}, new double[0], 0));
        c.add(Case.f32(Kernels.CONV_ND, List.of(random(16, 36), random(17, 108)), 216,
                new long[] {2, 1, 4, 6, 2, 0, 1, 3, 6, 3, 2, 1, 1, 3, 6, 3, 2, 1, 1}, new double[0], 0));
        // pool: 2 planes of 4x5x6, window 2x2x3, strides 1,2,2, pads (1,0,1) and (0,1,1), dilations 1,2,1 -> 4x2x3;
        // max, average with and without the padding counted, L3.
        for (int mode : new int[] {Kernels.MAX, Kernels.AVERAGE, Kernels.LP}) {
            for (int include = 0; include <= (mode == Kernels.AVERAGE ? 1 : 0); include++) {
                c.add(Case.f32(Kernels.POOL, List.of(random(19, 240)), 48, new long[] {3, 2, mode, include, 3,
                    4, 4, 2, 1, 1, 0, 1, 5, 2, 2, 2, 0, 1, 2, 6, 3, 3, 2, 1, 1, 1}, new double[0], mode == Kernels.LP ? 2 : 0));
            }
        }
        // pool_indices: the same max windows' argmax, row- and column-major.
        for (int order = 0; order <= 1; order++) {
            c.add(new Case(Kernels.POOL_INDICES, List.of(TensorValue.ofFloats(null, random(19, 240))), DType.I64, 48, new long[] {3, 2, 0, 0, 0,
                4, 4, 2, 1, 1, 0, 1, 5, 2, 2, 2, 0, 1, 2, 6, 3, 3, 2, 1, 1, 1, order}, new double[0], 0));
        }
        c.addAll(resizeCases());
        // grid_sample: x 1x2x4x5 sampled at a 3x2 grid of coordinates up to 1.4 outside [-1, 1] (2-D), and x 1x1x3x4x2 at
        // 2x2x2 (3-D); every mode, padding mode and alignment.
        for (int mode = 0; mode <= 2; mode++) {
            for (int padding = 0; padding <= 2; padding++) {
                for (int align = 0; align <= 1; align++) {
                    c.add(Case.f32(Kernels.GRID_SAMPLE, List.of(random(44, 40), scaled(random(45, 12), 1.4f)), 12,
                            new long[] {2, 1, 2, 4, 5, 3, 2, mode, padding, align}, new double[0], 0));
                    if (mode < 2) c.add(Case.f32(Kernels.GRID_SAMPLE, List.of(random(46, 24), scaled(random(47, 24), 1.4f)), 8,
                            new long[] {3, 1, 1, 3, 4, 2, 2, 2, 2, mode, padding, align}, new double[0], 0));
                }
            }
        }
        // col2im: N 1, C 2, image 5x6, blocks of 2x3, strides 1,2, pads (1, 1) at the start, dilations 2,1 -> blocks 3x3.
        c.add(Case.f32(Kernels.COL2IM, List.of(random(41, 2 * 6 * 9)), 60,
                new long[] {2, 1, 2, 5, 3, 2, 1, 1, 2, 6, 3, 3, 2, 1, 1}, new double[0], 0));
        // affine_grid: 2 thetas of 2 x 3 to 3 x 4 grids, and 1 theta of 3 x 4 to a 2 x 3 x 1 grid; with and without align_corners.
        for (int align = 0; align <= 1; align++) {
            c.add(Case.f32(Kernels.AFFINE_GRID, List.of(random(42, 12)), 48, new long[] {2, 2, 3, 4, align}, new double[0], 0));
            c.add(Case.f32(Kernels.AFFINE_GRID, List.of(random(43, 12)), 18, new long[] {1, 3, 2, 3, 1, align}, new double[0], 0));
        }
        // x [2, 3, 4] -> y [4, 2, 3] (perm 2, 0, 1): strides into x are 1, 12, 4.
        c.add(Case.f32(Kernels.TRANSPOSE, List.of(random(20, 24)), 24, new long[] {3, 4, 2, 3, 1, 12, 4, 4}, new double[0], 0));
        c.add(Case.f32(Kernels.COPY, List.of(random(21, 600)), 600, new long[] {600, 4}, new double[0], 0));
        // x [2, 3] into columns 4..6 of y [2, 8]; the rest of y stays as both initialise it (zero).
        c.add(Case.f32(Kernels.CONCAT_SLICE, List.of(random(22, 6)), 16, new long[] {2, 3, 8, 4, 4}, new double[0], 0));
        c.addAll(typedCases());
        c.addAll(reduceCases());
        c.addAll(normalizationCases());
        c.addAll(recurrentCases());
        c.addAll(elementwiseCases());
        c.addAll(implicitGemmCases());
        c.addAll(blockedSumCases());
        c.addAll(vectorizedCases());
        c.addAll(tf32Cases());
        c.addAll(trainingCases());
        c.addAll(optimizerCases());
        c.addAll(flexAttentionCases());
        c.addAll(dataDependentCases());
        c.addAll(zeroTailCases());
        return c;
    }

    /**
     * zero_tail, transpose_bounded, split_bounded, slice_bounded and concat_bounded (bounded.cuh), bit for bit: zero_tail over y [5, 3] of 1-, 2-,
     * 4- and 8-byte elements, none of them zero, with extents 0, 2, 5 (the bound: nothing zeroed),
     * 7 (past it: clamped) and -1 (zeroes all); transpose_bounded, split_bounded, slice_bounded and concat_bounded below.
     */
    private static List<Case> zeroTailCases() {
        List<Case> c = new ArrayList<>();
        for (DType t : new DType[] {DType.U8, DType.I16, DType.I32, DType.U64}) {
            TensorValue y = small(t, 23, 15, 1, 9);
            for (long n : new long[] {0, 2, 5, 7, -1}) {
                c.add(new Case(Kernels.ZERO_TAIL, List.of(TensorValue.ofLongs(DType.I64, null, n)), t, 15, new long[] {3, 15, t.bytes()}, new double[0], 0, 0, -1, y));
            }
        }
        // transpose_bounded: x [3, 5] bounded along axis 1 (NonZero's [rank, n]) to [n, 3], and [5, 2, 3] along axis 0 by perm
        // [2, 0, 1]; counts 0, 2, the bound, past it and -1; y starts non-zero, so its zeroed tail is checked
        for (DType t : new DType[] {DType.I64, DType.U8}) {
            TensorValue x = small(t, 29, 30, 1, 9), y = small(t, 31, 30, 1, 9);
            for (long n : new long[] {0, 2, 5, 7, -1}) {
                TensorValue extent = TensorValue.ofLongs(DType.I64, null, n);
                c.add(new Case(Kernels.TRANSPOSE_BOUNDED, List.of(extent, new TensorValue(t, null, java.util.Arrays.copyOf(x.bytes(), 15 * t.bytes()))), t, 15,
                        new long[] {2, 1, t.bytes(), 3, 5, 1, 0}, new double[0], 0, 0, -1, new TensorValue(t, null, java.util.Arrays.copyOf(y.bytes(), 15 * t.bytes()))));
                c.add(new Case(Kernels.TRANSPOSE_BOUNDED, List.of(extent, x), t, 30, new long[] {3, 0, t.bytes(), 5, 2, 3, 2, 0, 1}, new double[0], 0, 0, -1, y));
            }
        }
        // split_bounded: x [6, 2] bounded along axis 0, each part of 2 (equal parts, mode 0) and 3 (num_outputs, mode 1) at
        // counts the parts take (0, 2, 4, 6; 2, 3, 5, 6, and 9 clamped to the bound), y [3, 2] starting non-zero (its tail
        // zeroed) and the part's extent compared
        for (DType t : new DType[] {DType.U8, DType.I32, DType.I64}) {
            TensorValue x = small(t, 37, 12, 1, 9), y = small(t, 41, 6, 1, 9), none = TensorValue.ofLongs(DType.I64, null, -7);
            for (long[] run : new long[][] {{0, 0}, {0, 2}, {0, 4}, {0, 6}, {1, 2}, {1, 3}, {1, 5}, {1, 6}, {1, 9}}) {
                TensorValue extent = TensorValue.ofLongs(DType.I64, null, run[1]);
                for (long part = 0; part < 2; part++) {
                    long[] ints = {part, 2, run[0], 2, 3, 6, t.bytes()};
                    c.add(new Case(Kernels.SPLIT_BOUNDED, List.of(extent, x, none), t, 6, ints, new double[0], 0, 0, 2, y));
                    c.add(new Case(Kernels.SPLIT_BOUNDED, List.of(extent, x, y), DType.I64, 1, ints, new double[0], 0, 0, 3, none));
                }
            }
        }
        // slice_bounded: x [6, 2] bounded along axis 0, sliced by the actual extent: x[m][1:], x[m][-2:], x[m].flip(0),
        // x[m][::2], x[m][-2::-3] and torch.chunk's second part (from (n + 1) / 2 to 2 ((n + 1) / 2)), at counts 0, 1, 4, 6,
        // 9 (clamped to the bound) and -1; y (rows of the output's bound) starting non-zero (its tail zeroed) and the count compared
        long big = Long.MAX_VALUE, least = Long.MIN_VALUE;
        long[][] slices = {{0, 0, 1, 1, 1, 0, 0, 1, 1, big, 1, 5}, {0, 0, 1, 1, -2, 0, 0, 1, 1, big, 1, 2}, {0, 0, 1, 1, -1, 0, 0, 1, 1, least, -1, 6},
                {0, 0, 1, 1, 0, 0, 0, 1, 1, big, 2, 3}, {0, 0, 1, 1, -2, 0, 0, 1, 1, least, -3, 2}, {1, 1, 2, 1, 0, 1, 1, 2, 2, 0, 1, 3}};
        for (DType t : new DType[] {DType.U8, DType.I32, DType.I64}) {
            TensorValue x = small(t, 43, 12, 1, 9), none = TensorValue.ofLongs(DType.I64, null, -7);
            for (long[] s : slices) {
                TensorValue y = small(t, 47, (int) s[11] * 2, 1, 9);
                for (long n : new long[] {0, 1, 4, 6, 9, -1}) {
                    TensorValue extent = TensorValue.ofLongs(DType.I64, null, n);
                    long[] ints = java.util.Arrays.copyOf(s, 15);
                    ints[12] = 6;
                    ints[13] = 2;
                    ints[14] = t.bytes();
                    c.add(new Case(Kernels.SLICE_BOUNDED, List.of(extent, x, none), t, (int) s[11] * 2, ints, new double[0], 0, 0, 2, y));
                    c.add(new Case(Kernels.SLICE_BOUNDED, List.of(extent, x, y), DType.I64, 1, ints, new double[0], 0, 0, 3, none));
                }
            }
        }
        // concat_bounded: x [4, 2] into y [7, 2] (its rows before the offset left, the rest zeroed), before absent, 0, 2,
        // 5, 7 (the bound) and 9 (past it: clamped), extent absent (all rows), 0, 3, 6 (past x's bound) and -1; y
        // starting non-zero, and after compared
        for (DType t : new DType[] {DType.U8, DType.I32, DType.I64}) {
            TensorValue x = small(t, 53, 8, 1, 9), y = small(t, 59, 14, 1, 9), none = TensorValue.ofLongs(DType.I64, null, -7);
            for (long before : new long[] {-2, 0, 2, 5, 7, 9}) {
                for (long n : new long[] {-2, 0, 3, 6, -1}) {
                    List<TensorValue> head = new ArrayList<>();
                    if (before != -2) head.add(TensorValue.ofLongs(DType.I64, null, before));
                    if (n != -2) head.add(TensorValue.ofLongs(DType.I64, null, n));
                    long[] ints = {4, 2, 7, t.bytes(), before != -2 ? 1 : 0, n != -2 ? 1 : 0};
                    List<TensorValue> in = new ArrayList<>(head);
                    in.addAll(List.of(x, none));
                    c.add(new Case(Kernels.CONCAT_BOUNDED, in, t, 14, ints, new double[0], 0, 0, head.size() + 1, y));
                    in = new ArrayList<>(head);
                    in.addAll(List.of(x, y));
                    c.add(new Case(Kernels.CONCAT_BOUNDED, in, DType.I64, 1, ints, new double[0], 0, 0, head.size() + 2, none));
                }
            }
        }
        // reshape_extent: rows of 3 flattened (mul 3, div 1), rows of 12 to rows of 4 (mul 12, div 4) and a flat [15] to rows of
        // 3 (mul 1, div 3), at counts 0, 3, the bound, past it (clamped) and -1, each of which fills whole rows
        for (long[] r : new long[][] {{3, 1, 5}, {12, 4, 2}, {1, 3, 15}}) {
            for (long n : new long[] {0, 3, r[2], r[2] + 4, -1}) {
                long[] ints = {r[0], r[1], r[2]};
                c.add(new Case(Kernels.RESHAPE_EXTENT, List.of(TensorValue.ofLongs(DType.I64, null, n)), DType.I64, 1, ints, new double[0], 0, 0, -1,
                        TensorValue.ofLongs(DType.I64, null, -7)));
            }
        }
        return c;
    }

    /**
     * nonzero and compress (data_dependent.cuh), bit for bit: y compared whole, so its layout
     * (rank x count, or outer x count x inner, from the count) and its zero tail up to the upper
     * bound are checked. nonzero over every type it takes, with NaN (non-zero) and -0.0 (zero) among
     * the floats, rank 1 to 3, none and all non-zero; compress over 1-, 2-, 4- and 8-byte elements,
     * a condition shorter than the axis, none and all true; unique, each of its five outputs compared; non_max_suppression.
     */
    private static List<Case> dataDependentCases() {
        List<Case> c = new ArrayList<>();
        TensorValue extent = TensorValue.ofLongs(DType.I64, null, 0);
        double[] mixed = {0, 1.5, -0.0, Double.NaN, 0, 0, 3, 0, 0, -2, 0, 7};
        for (DType t : new DType[] {DType.F32, DType.F16, DType.BF16, DType.F64}) {
            c.add(new Case(Kernels.NONZERO, List.of(TensorValue.ofDoubles(t, null, mixed), extent), DType.I64, 36,
                    new long[] {12, 3, 2, 3, 2, t.onnxCode()}, new double[0], 0));
        }
        for (DType t : new DType[] {DType.BOOL, DType.U8, DType.I8, DType.I16, DType.U16, DType.I32, DType.U32, DType.I64, DType.U64}) {
            TensorValue x = t == DType.BOOL ? small(t, 7, 20, 0, 1) : small(t, t.onnxCode(), 20, -1, 1);
            c.add(new Case(Kernels.NONZERO, List.of(x, extent), DType.I64, 40, new long[] {20, 2, 4, 5, t.onnxCode()}, new double[0], 0));
        }
        c.add(new Case(Kernels.NONZERO, List.of(TensorValue.ofLongs(DType.I32, null, new long[9]), extent), DType.I64, 9,
                new long[] {9, 1, 9, DType.I32.onnxCode()}, new double[0], 0));                     // none
        c.add(new Case(Kernels.NONZERO, List.of(small(DType.I64, 3, 6, 1, 9), extent), DType.I64, 12,
                new long[] {6, 2, 2, 3, DType.I64.onnxCode()}, new double[0], 0));                   // all
        for (DType t : new DType[] {DType.U8, DType.F16, DType.F32, DType.I64}) {
            // x [2, 5, 3] along axis 1: conditions of 5 (mixed), 3 (shorter), none and all true
            TensorValue x = t.isIntegral() ? small(t, 11, 30, -50, 50) : floats(t, 11, 30);
            for (long[] cond : new long[][] {{1, 0, 1, 1, 0}, {0, 1, 1}, {0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}}) {
                c.add(new Case(Kernels.COMPRESS, List.of(x, TensorValue.ofLongs(DType.BOOL, null, cond), extent), t, 2 * cond.length * 3,
                        new long[] {2, 5, 3, cond.length, t.bytes()}, new double[0], 0));
            }
        }
        // unique: [2, 5, 3] along axis 1 (slices 0 and 3 equal, 1 and 4 equal) and flattened, sorted and not, over
        // f32 with -0.0, 0.0 and NaNs, int64 and uint64 across 2^63; each of y, indices, inverse_indices, counts and the extent compared
        double[] f = {1, 2, 3, 0, -0.0, Double.NaN, 1, 2, 3, 0, 0, Double.NaN, -5, 4, 4,
                      7, 8, 9, 1, 1, 1, 7, 8, 9, 1, 1, 1, 6, 6, 6};
        long[] u = {1L << 63, 3, 3, 1, 2, 3, 1L << 63, 3, 3, 1, 2, 3, 5, 5, -1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 9, 9, 9};
        for (TensorValue x : new TensorValue[] {TensorValue.ofDoubles(DType.F32, null, f), TensorValue.ofLongs(DType.I64, null, u), TensorValue.ofLongs(DType.U64, null, u)}) {
            uniqueCases(c, x, 2, 5, 3);
            uniqueCases(c, x, 1, 30, 1);
        }
        // unique over 240 int16 values drawn from 37 (many repeats, first occurrences scattered): flattened, and as [4, 60, 1]
        // along 60 slices of 4, sorted and not; each output compared
        TensorValue many = small(DType.I16, 19, 240, -18, 18);
        uniqueCases(c, many, 1, 240, 1);
        uniqueCases(c, many, 4, 60, 1);
        // non_max_suppression: 2 batches x 2 classes x 7 boxes (overlapping, nested, a flipped one, a zero-area one, equal scores),
        // both box formats, with and without a score threshold, 3 and 7 (every box) per class; y and the extent compared
        float[] boxes = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f, 1, 1, 0, 0, 0, 10, 1, 11, 0.2f, 0.2f, 0.8f, 0.8f, 3, 3, 3, 5,
                         0.5f, 0.5f, 1, 1, 0.6f, 0.5f, 1, 1, 2, 2, 0.5f, 0.5f, 0.5f, 0.5f, 0.2f, 0.2f, -1, -1, 2, 2, 4, 4, 0, 0, 9, 9, 1, 1};
        float[] scores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f, 0.75f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f,
                          0.5f, 0.5f, 0.9f, 0.2f, 0.8f, 0.5f, 0.05f, 0.3f, 0.3f, 0.3f, 0.1f, 0.9f, 0.95f, 0.3f};
        for (int center = 0; center <= 1; center++) {
            for (int hasScore = 0; hasScore <= 1; hasScore++) {
                for (long max : new long[] {3, 7}) nmsCases(c, boxes, scores, 2, 7, 2, center, hasScore, max, max, 0.25f);
            }
        }
        // boxes [1, 7, 4] and scores [1, 1, 7] bounded along N (ir.BoundedFlows#nms): the first 0, 4 and 7 boxes only
        float[] first = java.util.Arrays.copyOf(boxes, 28), firstScores = java.util.Arrays.copyOf(scores, 7);
        for (long actual : new long[] {0, 4, 7}) {
            for (int t = 4 * (int) actual; t < 28; t++) first[t] = 0;
            for (int t = (int) actual; t < 7; t++) firstScores[t] = 0;
            nmsBoundedCases(c, first, firstScores, actual);
        }
        c.addAll(manyThreadDataDependentCases());
        return c;
    }

    /**
     * unique over x as [outer, n, inner] (along axis 1; flattened where outer = inner = 1), sorted and
     * not: Y, indices, inverse_indices, counts and the extent, each compared whole in a case of its own.
     */
    private static void uniqueCases(List<Case> c, TensorValue x, long outer, long n, long inner) {
        DType t = x.dtype();
        int all = Math.toIntExact(outer * n * inner), slices = Math.toIntExact(n);
        for (int sorted = 0; sorted <= 1; sorted++) {
            long[] ints = {outer, n, inner, sorted, t.onnxCode(), t.bytes()};
            TensorValue ext = TensorValue.ofLongs(DType.I64, null, 0), idx = TensorValue.ofLongs(DType.I64, null, new long[slices]);
            TensorValue ys = new TensorValue(t, null, new byte[all * t.bytes()]);
            c.add(new Case(Kernels.UNIQUE, List.of(x, ext, idx, idx, idx), t, all, ints, new double[0], 0, 0, 2));
            for (int k = 3; k <= 5; k++) c.add(new Case(Kernels.UNIQUE, List.of(x, ext, ys, idx, idx), DType.I64, slices, ints, new double[0], 0, 0, k));
            c.add(new Case(Kernels.UNIQUE, List.of(x, ys, idx, idx, idx), DType.I64, 1, ints, new double[0], 0, 0, 1));
        }
    }

    /**
     * non_max_suppression over boxes [batches, n, 4] and scores [batches, classes, n], iou_threshold
     * 0.5, max_output_boxes_per_class {@code max} at run time and {@code per} in the plan: y (its
     * bound, batches * classes * per rows) and the extent, each compared whole.
     */
    private static void nmsCases(List<Case> c, float[] boxes, float[] scores, int batches, int n, int classes, int center, int hasScore,
                                 long max, long per, float scoreThreshold) {
        long[] ints = {batches, n, classes, center, hasScore, per};
        int rows = Math.toIntExact(3L * batches * classes * per);
        TensorValue bx = TensorValue.ofFloats(null, boxes), sc = TensorValue.ofFloats(null, scores), iouT = TensorValue.ofFloats(null, 0.5f);
        TensorValue m = TensorValue.ofLongs(DType.I64, null, max), st = TensorValue.ofFloats(null, scoreThreshold);
        TensorValue ext = TensorValue.ofLongs(DType.I64, null, 0), ys = TensorValue.ofLongs(DType.I64, null, new long[rows]);
        c.add(new Case(Kernels.NMS, List.of(bx, sc, m, iouT, st, ext), DType.I64, rows, ints, new double[0], 0));
        c.add(new Case(Kernels.NMS, List.of(bx, sc, m, iouT, st, ys), DType.I64, 1, ints, new double[0], 0, 0, 5));
    }

    /**
     * non_max_suppression over boxes [1, 7, 4] and scores [1, 1, 7] holding {@code actual} boxes, zeros after, with their
     * runtime extent (slot 5), without a score threshold, every box per class: y and the extent compared whole.
     */
    private static void nmsBoundedCases(List<Case> c, float[] boxes, float[] scores, long actual) {
        long[] ints = {1, 7, 1, 0, 0, 7};
        TensorValue bx = TensorValue.ofFloats(null, boxes), sc = TensorValue.ofFloats(null, scores), iouT = TensorValue.ofFloats(null, 0.5f);
        TensorValue m = TensorValue.ofLongs(DType.I64, null, 7), st = TensorValue.ofFloats(null, 0f), n = TensorValue.ofLongs(DType.I64, null, actual);
        TensorValue ext = TensorValue.ofLongs(DType.I64, null, 0), ys = TensorValue.ofLongs(DType.I64, null, new long[21]);
        c.add(new Case(Kernels.NMS, List.of(bx, sc, m, iouT, st, n, ext), DType.I64, 21, ints, new double[0], 0));
        c.add(new Case(Kernels.NMS, List.of(bx, sc, m, iouT, st, n, ys), DType.I64, 1, ints, new double[0], 0, 0, 6));
    }

    /**
     * The data-dependent kernels on inputs that spread over the {@link CudaKernelTable#DATA_DEPENDENT_THREADS}
     * threads of their block (thread chunks of several elements, chunk edges inside runs, the
     * block-wide scans and sorts): nonzero over 3,003 f32 with NaN and -0.0, 5,000 bool, all zero,
     * all non-zero, empty; compress with more selected slices than threads (each thread moves its
     * chunk's), fewer (the threads share each slice), long slices, a short condition, none, all and an
     * empty condition; unique flattened over 3,000 f32 with NaN, -0.0 and infinities, along an axis
     * of 1,500 slices with many repeats, all equal, all distinct, empty; non_max_suppression over 2,000
     * clustered boxes with tied and signed-zero scores (sorted in shared memory), over 5,000 (more
     * candidates than NMS_SORTED_MAX: the arg-max path) with and without a threshold that drops NaN
     * scores, max_output_boxes_per_class 0, and no boxes.
     */
    private static List<Case> manyThreadDataDependentCases() {
        List<Case> c = new ArrayList<>();
        TensorValue extent = TensorValue.ofLongs(DType.I64, null, 0);
        Random r = new Random(71);
        double[] sparse = new double[3 * 7 * 143];
        for (int i = 0; i < sparse.length; i++) {
            double u = r.nextDouble();
            sparse[i] = u < 0.5 ? 0 : u < 0.55 ? -0.0 : u < 0.6 ? Double.NaN : r.nextGaussian();
        }
        for (int k = 1; k <= 2; k++) {   // y, then the extent
            int out = k == 1 ? -1 : 1;
            TensorValue ys = TensorValue.ofLongs(DType.I64, null, new long[3 * sparse.length]);
            c.add(nonzeroCase(TensorValue.ofDoubles(DType.F32, null, sparse), extent, ys, new long[] {3, 7, 143}, out));
            c.add(nonzeroCase(small(DType.BOOL, 72, 5000, 0, 1), extent, TensorValue.ofLongs(DType.I64, null, new long[10_000]), new long[] {50, 100}, out));
            c.add(nonzeroCase(TensorValue.ofLongs(DType.I32, null, new long[2500]), extent, TensorValue.ofLongs(DType.I64, null, new long[2500]), new long[] {2500}, out));
            c.add(nonzeroCase(small(DType.U8, 73, 2049, 1, 255), extent, TensorValue.ofLongs(DType.I64, null, new long[2049]), new long[] {2049}, out));
            c.add(nonzeroCase(TensorValue.ofFloats(null), extent, TensorValue.ofLongs(DType.I64, null), new long[] {0, 5}, out));
        }
        // compress: x [2, 3000, 2] f32 with conditions of 3000 (about half true: more than the threads), 2500 (about a tenth:
        // fewer), none and all; x [3, 4, 700] int16 (slices of 700 x 3, the threads share them); an empty condition
        TensorValue wide = floats(DType.F32, 74, 2 * 3000 * 2), longSlices = small(DType.I16, 75, 3 * 4 * 700, -999, 999);
        List<long[]> conditions = List.of(small(DType.BOOL, 76, 3000, 0, 1).longs(), fractionTrue(77, 2500, 0.1), new long[3000], ones(3000));
        for (long[] cond : conditions) compressCases(c, wide, cond, 2, 3000, 2, DType.F32);
        compressCases(c, longSlices, new long[] {0, 1, 1, 0}, 3, 4, 700, DType.I16);
        compressCases(c, small(DType.I64, 78, 30, -9, 9), new long[0], 2, 5, 3, DType.I64);
        // unique
        double[] pool = new double[200];
        for (int i = 0; i < pool.length; i++) pool[i] = Math.round(r.nextGaussian() * 100) / 8.0;
        pool[0] = Double.NaN;
        pool[1] = -0.0;
        pool[2] = 0.0;
        pool[3] = Double.POSITIVE_INFINITY;
        pool[4] = Double.NEGATIVE_INFINITY;
        double[] drawn = new double[3000];
        for (int i = 0; i < drawn.length; i++) drawn[i] = pool[r.nextInt(pool.length)];
        uniqueCases(c, TensorValue.ofDoubles(DType.F32, null, drawn), 1, 3000, 1);
        uniqueCases(c, small(DType.I32, 79, 3 * 1500 * 2, 0, 2), 3, 1500, 2);
        uniqueCases(c, TensorValue.ofLongs(DType.I16, null, filled(2000, 7)), 1, 2000, 1);
        long[] distinct = new long[1100];
        for (int i = 0; i < distinct.length; i++) distinct[i] = (i * 397L) % 1100 - 550;
        uniqueCases(c, TensorValue.ofLongs(DType.I64, null, distinct), 1, 1100, 1);
        uniqueCases(c, TensorValue.ofFloats(null), 1, 0, 1);
        // non_max_suppression
        float[] boxes = clusteredBoxes(80, 2000), scores = tiedScores(81, 2 * 2000, false);
        for (int center = 0; center <= 1; center++) {
            nmsCases(c, boxes, scores, 1, 2000, 2, center, 0, 60, 60, 0f);
            nmsCases(c, boxes, tiedScores(82, 2 * 2000, true), 1, 2000, 2, center, 1, 2000, 2000, 0.25f);
        }
        float[] more = clusteredBoxes(83, 5000);
        nmsCases(c, more, tiedScores(84, 5000, false), 1, 5000, 1, 0, 0, 40, 40, 0f);
        nmsCases(c, more, tiedScores(85, 5000, true), 1, 5000, 1, 1, 1, 40, 50, -1f);    // NaNs dropped, still over 4,096 candidates
        nmsCases(c, more, tiedScores(86, 5000, true), 1, 5000, 1, 0, 1, 100, 100, 0.5f);  // about half: sorted in shared memory
        nmsCases(c, more, tiedScores(87, 5000, false), 1, 5000, 1, 0, 0, 0, 7, 0f);      // max_output_boxes_per_class 0
        nmsCases(c, new float[0], new float[0], 2, 0, 3, 0, 0, 5, 0, 0f);                 // no boxes
        return c;
    }

    /** nonzero over x of the given shape, comparing y ({@code out} -1) or the extent (1). */
    private static Case nonzeroCase(TensorValue x, TensorValue extent, TensorValue y, long[] shape, int out) {
        long[] ints = new long[3 + shape.length];
        long n = 1;
        for (int d = 0; d < shape.length; d++) {
            ints[2 + d] = shape[d];
            n *= shape[d];
        }
        ints[0] = n;
        ints[1] = shape.length;
        ints[2 + shape.length] = x.dtype().onnxCode();
        return out < 0 ? new Case(Kernels.NONZERO, List.of(x, extent), DType.I64, Math.toIntExact(shape.length * n), ints, new double[0], 0)
                : new Case(Kernels.NONZERO, List.of(x, y), DType.I64, 1, ints, new double[0], 0, 0, out);
    }

    /** compress of x [outer, n, inner] along axis 1 by cond: y and the extent compared. */
    private static void compressCases(List<Case> c, TensorValue x, long[] cond, int outer, int n, int inner, DType t) {
        long[] ints = {outer, n, inner, cond.length, t.bytes()};
        TensorValue condition = TensorValue.ofLongs(DType.BOOL, null, cond), extent = TensorValue.ofLongs(DType.I64, null, 0);
        int all = outer * cond.length * inner;
        c.add(new Case(Kernels.COMPRESS, List.of(x, condition, extent), t, all, ints, new double[0], 0));
        c.add(new Case(Kernels.COMPRESS, List.of(x, condition, new TensorValue(t, null, new byte[all * t.bytes()])), DType.I64, 1, ints, new double[0], 0, 0, 2));
    }

    private static long[] fractionTrue(long seed, int n, double p) {
        Random r = new Random(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = r.nextDouble() < p ? 1 : 0;
        return v;
    }

    private static long[] ones(int n) {
        return filled(n, 1);
    }

    private static long[] filled(int n, long value) {
        long[] v = new long[n];
        java.util.Arrays.fill(v, value);
        return v;
    }

    /** n boxes (4 f32 each) around 40 centres, so that many overlap; every fifth with its corners swapped. */
    private static float[] clusteredBoxes(long seed, int n) {
        Random r = new Random(seed);
        float[] b = new float[4 * n];
        for (int k = 0; k < n; k++) {
            int cluster = r.nextInt(40);
            float y = cluster / 8 * 3 + (float) r.nextGaussian() * 0.3f, x = cluster % 8 * 3 + (float) r.nextGaussian() * 0.3f;
            float h = 0.5f + r.nextFloat() * 2, w = 0.5f + r.nextFloat() * 2;
            boolean swap = k % 5 == 0;
            b[4 * k] = swap ? y + h : y;
            b[4 * k + 1] = swap ? x + w : x;
            b[4 * k + 2] = swap ? y : y + h;
            b[4 * k + 3] = swap ? x : x + w;
        }
        return b;
    }

    /** n scores in 64ths (many ties), some -0.0 and 0.0, and some NaN where {@code nan}. */
    private static float[] tiedScores(long seed, int n, boolean nan) {
        Random r = new Random(seed);
        float[] s = new float[n];
        for (int k = 0; k < n; k++) {
            double u = r.nextDouble();
            s[k] = u < 0.03 ? -0.0f : u < 0.06 ? 0.0f : nan && u < 0.08 ? Float.NaN : r.nextInt(64) / 64f;
        }
        return s;
    }

    /**
     * The training kernels (training.cuh), bit for bit but gelu_grad (within 1 ulp: its exp and erf
     * run in double, where libm and Java may differ by an ulp of a double before the one rounding to
     * f32). Odd sizes, strides, padding and dilation (taps that fall between strided outputs or in the
     * padding), and the shapes of {@code run --train} on the built-in models' defaults: the transformer
     * (seq 32, hidden 64, 4 heads: Gelu over 32 x 256, LayerNorm rows of 64, Softmax rows of 32) and
     * the ResNet (16 channels of 32 x 32, 3 x 3 convs, pad 1; the stem's 3 input channels).
     */
    private static List<Case> trainingCases() {
        List<Case> c = new ArrayList<>();
        for (int n : new int[] {1037, 32 * 256})
            c.add(Case.f32(Kernels.GELU_GRAD, List.of(random(100 + n, n), scaled(random(101 + n, n), 3f)), n, new long[] {n}, new double[0], 1));
        for (int[] rc : new int[][] {{7, 33}, {4 * 32, 32}})
            c.add(Case.f32(Kernels.SOFTMAX_GRAD, List.of(random(102, rc[0] * rc[1]), random(103, rc[0] * rc[1], true)), rc[0] * rc[1],
                    new long[] {rc[0], rc[1]}, new double[0], 0));
        for (int[] rc : new int[][] {{5, 37}, {32, 64}})
            c.add(Case.f32(Kernels.LAYERNORM_GRAD, List.of(random(104, rc[0] * rc[1]), scaled(random(105, rc[0] * rc[1]), 2f), random(106, rc[1], true)),
                    rc[0] * rc[1], new long[] {rc[0], rc[1]}, new double[] {1e-5}, 0));
        // x 2x3x9x11, 5 filters of 3x2, strides 2,1, pads 1,0, dilations 2,1; x 1x2x7x6, 3 filters of 3x3, strides 2,3, pads 2,1;
        // the ResNet's block conv (dx and dw) and stem conv (dw)
        List<long[]> geometries = List.of(convInts(2, 3, 9, 11, 5, 3, 2, 2, 1, 1, 0, 2, 1, 1, false, 0), convInts(1, 2, 7, 6, 3, 3, 3, 2, 3, 2, 1, 1, 1, 1, false, 0),
                convInts(1, 16, 32, 32, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, 0), convInts(1, 3, 32, 32, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, 0));
        for (int k = 0; k < geometries.size(); k++) {
            long[] g = geometries.get(k);
            int x = (int) (g[0] * g[1] * g[2] * g[3]), w = (int) (g[4] * g[1] * g[7] * g[8]), dy = (int) (g[0] * g[4] * g[5] * g[6]);
            if (k < 3) c.add(Case.f32(Kernels.CONV2D_BACKWARD_DATA, List.of(random(107 + k, dy), random(108 + k, w)), x, g, new double[0], 0));
            c.add(Case.f32(Kernels.CONV2D_BACKWARD_FILTER, List.of(random(109 + k, x), random(110 + k, dy)), w, g, new double[0], 0));
        }
        return c;
    }

    /**
     * optimizer (training.cuh) over 1037 elements (more than a block) in each mode (Adagrad, Adam,
     * Momentum, Nesterov), at t 0 (Adam without bias correction, Momentum's first step) and t 3,
     * every output compared: bit for bit (+, -, *, /, sqrt in double, rounded once) but Adam within
     * 1 ulp of f32 (its pow in libm and Java's may differ by an ulp of a double).
     */
    private static List<Case> optimizerCases() {
        List<Case> c = new ArrayList<>();
        int n = 1037;
        for (int mode = Kernels.OPTIMIZER_ADAGRAD; mode <= Kernels.OPTIMIZER_NESTEROV; mode++) {
            int states = mode == Kernels.OPTIMIZER_ADAM ? 2 : 1;
            for (long t : new long[] {0, 3}) {
                List<TensorValue> args = new ArrayList<>(List.of(TensorValue.ofFloats(null, 0.05f), TensorValue.ofLongs(DType.I64, null, t),
                        TensorValue.ofFloats(null, random(120 + mode, n)), TensorValue.ofFloats(null, random(121 + mode, n))));
                for (int s = 0; s < states; s++) args.add(TensorValue.ofFloats(null, random(122 + mode + s, n, true)));
                for (int o = 0; o <= states; o++) args.add(TensorValue.ofFloats(null, new float[n]));   // outputs not compared: written, ignored
                for (int o = 0; o <= states; o++) {
                    int compared = 4 + states + o;
                    List<TensorValue> in = new ArrayList<>(args);
                    in.remove(compared);
                    c.add(new Case(Kernels.OPTIMIZER, in, DType.F32, n, new long[] {n, mode}, new double[] {0.01, 0.9, 0.999, 1e-6, 0.1, 0.001},
                            mode == Kernels.OPTIMIZER_ADAM ? 1 : 0, 0, compared));
                }
            }
        }
        return c;
    }

    /**
     * flex_attention (flex_attention.cuh): B 1, Hq 4, Hkv 2, L 3, S 5, E 8, Ev 6 (a block per query row, so few
     * rows keep the emulation short) over every stage range the lowering calls (0 to 3 whole, 0 to 1 the scores,
     * 1 to 2 the softmax, 2 to 3 Y from probabilities; bf16 whole only), Q/K/V in f32, f16, bf16 and f64 with softmax_precision
     * f32 or f64, and f64 with f16 or bf16, f32 with bf16; a row of -inf scores (NaN, as the reference); S 300 (more keys than a block has threads).
     * Bit for bit where no exp is taken (0 to 1, 2 to 3), else within 2 ulp of the output type (exp in libm
     * vs Java's, as the other exp cases).
     */
    private static List<Case> flexAttentionCases() {
        List<Case> c = new ArrayList<>();
        int b = 1, hq = 4, hkv = 2, l = 3, s = 5, e = 8, ev = 6, rows = b * hq * l;
        double f = Math.sqrt(1 / Math.sqrt(e));
        for (DType t : new DType[] {DType.F32, DType.F16, DType.BF16, DType.F64}) {
            DType cd = t == DType.F16 ? DType.F64 : t == DType.BF16 ? DType.F32 : t;
            TensorValue q = scaled(t, 120, rows * e, 0.3), k = scaled(t, 121, b * hkv * s * e, 0.3), v = floats(t, 122, b * hkv * s * ev);
            c.add(new Case(Kernels.FLEX_ATTENTION, List.of(q, k, v), t, rows * ev, flexInts(b, hq, hkv, l, s, e, ev, 0, 3, t, cd), new double[] {f}, 2));
            if (t == DType.BF16) continue;
            c.add(new Case(Kernels.FLEX_ATTENTION, List.of(q, k), cd, rows * s, flexInts(b, hq, hkv, l, s, e, ev, 0, 1, t, cd), new double[] {f}, 0));
            c.add(new Case(Kernels.FLEX_ATTENTION, List.of(unit(cd, 123, rows * s), v), t, rows * ev, flexInts(b, hq, hkv, l, s, e, ev, 2, 3, t, cd), new double[] {1}, 0));
        }
        // a narrow softmax_precision: f64 to f16 rounded once, bf16 sums rounded each step, P V in bf16 a float32 sum
        for (DType[] tc : new DType[][] {{DType.F64, DType.F16}, {DType.F64, DType.BF16}, {DType.F32, DType.BF16}}) {
            DType t = tc[0], cd = tc[1];
            TensorValue q = scaled(t, 128, rows * e, 0.3), k = scaled(t, 129, b * hkv * s * e, 0.3), v = floats(t, 130, b * hkv * s * ev);
            c.add(new Case(Kernels.FLEX_ATTENTION, List.of(q, k, v), t, rows * ev, flexInts(b, hq, hkv, l, s, e, ev, 0, 3, t, cd), new double[] {f}, 2));
            c.add(new Case(Kernels.FLEX_ATTENTION, List.of(q, k), cd, rows * s, flexInts(b, hq, hkv, l, s, e, ev, 0, 1, t, cd), new double[] {f}, 0));
            c.add(new Case(Kernels.FLEX_ATTENTION, List.of(unit(cd, 131, rows * s), v), t, rows * ev, flexInts(b, hq, hkv, l, s, e, ev, 2, 3, t, cd), new double[] {1}, 0));
        }
        double[] scores = floats(DType.F64, 124, rows * s).doubles();
        java.util.Arrays.fill(scores, 2 * s, 3 * s, Double.NEGATIVE_INFINITY);   // row 2: every key masked out
        scores[7] = Double.NEGATIVE_INFINITY;
        c.add(new Case(Kernels.FLEX_ATTENTION, List.of(TensorValue.ofDoubles(DType.F32, null, scores)), DType.F32, rows * s,
                flexInts(b, hq, hkv, l, s, e, ev, 1, 2, DType.F32, DType.F32), new double[] {1}, 2));
        int wide = 300;
        c.add(new Case(Kernels.FLEX_ATTENTION, List.of(scaled(DType.F32, 125, 2 * e, 0.3), scaled(DType.F32, 126, wide * e, 0.3), floats(DType.F32, 127, wide * ev)),
                DType.F32, 2 * ev, flexInts(1, 1, 1, 2, wide, e, ev, 0, 3, DType.F32, DType.F32), new double[] {f}, 2));
        return c;
    }

    private static long[] flexInts(int b, int hq, int hkv, int l, int s, int e, int ev, int from, int to, DType t, DType cd) {
        return new long[] {b, hq, hkv, l, s, e, ev, from, to, t.onnxCode(), cd.onnxCode()};
    }

    /** The ulps of a case run on the TF32 kernels (--tf32): compared within the TF32 bound instead (see {@link #tf32Bound}). */
    private static final int TF32 = -1;

    /**
     * gemm_tf32 and conv2d_igemm_tf32 (entry(call, true)): the FP32 cases' edges (ragged 64 x 64
     * tiles, k not a multiple of 16, both transposes, a batch, broadcast C, strides, padding,
     * dilation, 1 x 1 kernels, the relu epilogue), compared with the simulator's FP32 within the bound.
     */
    private static List<Case> tf32Cases() {
        List<Case> c = new ArrayList<>();
        int bm = 70, bn = 130, bk = 37;
        for (int t = 0; t <= 1; t++) {
            c.add(Case.f32(Kernels.GEMM, List.of(random(90, 2 * bm * bk), random(91, 2 * bk * bn), random(92, bn)), 2 * bm * bn,
                    new long[] {2, bm, bn, bk, t, 1 - t, bm * bk, bk * bn, 1, 0, 0, 1}, new double[] {0.5, 2.0}, TF32));
        }
        c.add(Case.f32(Kernels.GEMM, List.of(random(93, 17 * 23), random(94, 23 * 19)), 17 * 19,
                new long[] {1, 17, 19, 23, 0, 0, 0, 0, 0, 0, 0, 0, Kernels.ACTIVATION_RELU}, new double[] {1.0, 0.0}, TF32));
        for (long[] ints : List.of(convInts(2, 3, 17, 21, 70, 3, 3, 2, 2, 1, 1, 1, 1, 1, true, Kernels.ACTIVATION_RELU),
                convInts(1, 5, 9, 11, 7, 3, 2, 1, 1, 2, 0, 2, 1, 1, false, Kernels.ACTIVATION_NONE),
                convInts(3, 17, 6, 5, 33, 1, 1, 2, 1, 0, 0, 1, 1, 1, true, Kernels.ACTIVATION_NONE))) {
            Case f = conv(95, ints);
            c.add(new Case(f.kernel(), f.inputs(), f.out(), f.outputs(), f.ints(), f.floats(), TF32));
        }
        return c;
    }

    /**
     * The TF32 bound of each output: 2^-9 times the sum of the absolute products (the simulator's
     * result on |inputs|; each input rounded to a 10-bit mantissa is off by at most 2^-11 relative,
     * a product by about 2^-10, the FP32 sums add less), plus 2^-20.
     */
    private static double[] tf32Bound(SimDevice sim, Case c, byte[][] args) {
        byte[][] abs = new byte[args.length][];
        for (int i = 0; i < args.length - 1; i++) {
            float[] v = c.inputs().get(i).floats();
            for (int j = 0; j < v.length; j++) v[j] = Math.abs(v[j]);
            abs[i] = TensorValue.ofFloats(null, v).bytes();
        }
        abs[args.length - 1] = new byte[args[args.length - 1].length];
        double[] sums = new TensorValue(DType.F32, null, onSimulator(sim, c, abs)).doubles();
        for (int i = 0; i < sums.length; i++) sums[i] = Math.scalb(sums[i], -9) + Math.scalb(1.0, -20);
        return sums;
    }

    /** conv2d's ints: x n x c x h x w, m filters of kh x kw, strides, pads (top, left), dilations, group, bias, activation; OH and OW from them. */
    private static long[] convInts(int n, int ch, int h, int w, int m, int kh, int kw, int sh, int sw, int pt, int pl, int dh, int dw, int group, boolean bias, int act) {
        int oh = (h + 2 * pt - dh * (kh - 1) - 1) / sh + 1, ow = (w + 2 * pl - dw * (kw - 1) - 1) / sw + 1;
        return new long[] {n, ch, h, w, m, oh, ow, kh, kw, sh, sw, pt, pl, dh, dw, group, bias ? 1 : 0, act};
    }

    private static Case conv(long seed, long[] ints) {
        int n = (int) ints[0], ch = (int) ints[1], m = (int) ints[4], g = (int) ints[15];
        List<float[]> in = new ArrayList<>(List.of(random(seed, n * ch * (int) (ints[2] * ints[3])), random(seed + 1, m * ch / g * (int) (ints[7] * ints[8]))));
        if (ints[16] == 1) in.add(random(seed + 2, m));
        return Case.f32(Kernels.CONV2D, in, (int) (n * m * ints[5] * ints[6]), ints, new double[0], 0);
    }

    /**
     * conv2d with group 1 runs as conv2d_igemm (CudaKernelTable.entry): channel and pixel tiles of
     * 64 with ragged edges (70 channels, 2 x 9 x 11 pixels), K = C x KH x KW not a multiple of 16,
     * strides, padding (also more at the bottom than at the top), dilation, 1 x 1 and 1-D kernels, bias and the fused relu; and
     * an infinite weight whose tap lies in the padding for the border outputs (no term there, so
     * those outputs stay finite as the simulator's do). The fused relu also on the group-2
     * fallback and on gemm.
     */
    /** {@code c} computed in {@code t} ({@link Kernels#withType}): its f32 inputs converted to {@code t}, the others kept. */
    private static Case typedForm(Case c, DType t, DType out, int ulps) {
        List<TensorValue> in = c.inputs().stream().map(v -> v.dtype() == DType.F32 ? TensorValue.ofDoubles(t, null, v.doubles()) : v).toList();
        return new Case(c.kernel(), in, out, c.outputs(), Kernels.withType(c.kernel(), c.ints(), t.onnxCode()), c.floats(), ulps);
    }

    /** {@code n} integers in [lo, hi] as elements of {@code t}. */
    private static TensorValue integers(DType t, long seed, int n, int lo, int hi) {
        Random r = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = lo + r.nextInt(hi - lo + 1);
        return TensorValue.ofDoubles(t, null, v);
    }

    /**
     * The typed forms of typed.cuh (one entry function per kernel and type, CudaKernelTable.entry
     * picks it) against the simulator's: gemm in f16 with the fused Relu and f64 (a negative alpha
     * without C: the sign of a zero product kept); conv2d (grouped and as the implicit GEMM, odd
     * sizes, more than one tile) and conv_nd (3-D, ConvTranspose) in f16; pool in f16 (max, average,
     * Lp) and max in u8 and i8 with windows wholly in the padding (the type's lowest value);
     * pool_indices in f16, u8 and i8; softmax, log-softmax and hardmax in f16 and f64; normalize
     * (LayerNormalization with its invstd) in f16, and in f64 (sqrt and / correctly rounded in both: bit for bit); attention in f16 (Y over two chunks of 32 values,
     * qk, present_value, a bool mask with a fully masked row). Bit for bit, also where exp, tanh or
     * pow enter the f16 forms (the C library's and Java's agree once rounded to f32, then to f16, on
     * these inputs: a last-bit difference of the double result survives both roundings with a
     * probability of about 2^-29 per value); f64 softmax within 2 ulp (exp, log: last bits may differ).
     */
    private static List<Case> typedFormCases() {
        List<Case> c = new ArrayList<>();
        int bm = 33, bn = 70, bk = 19;
        c.add(typedForm(Case.f32(Kernels.GEMM, List.of(random(120, bm * bk), random(121, bk * bn), random(122, bn)), bm * bn,
                new long[] {1, bm, bn, bk, 0, 1, 0, 0, 1, 0, 0, 1, Kernels.ACTIVATION_RELU}, new double[] {1.0, 1.0}, 0), DType.F16, DType.F16, 0));
        for (int t = 0; t <= 1; t++) {
            c.add(typedForm(Case.f32(Kernels.GEMM, List.of(random(123, 2 * bm * bk), random(124, 2 * bk * bn), random(125, bn)), 2 * bm * bn,
                    new long[] {2, bm, bn, bk, t, 1 - t, bm * bk, bk * bn, 1, 0, 0, 1}, new double[] {0.5, 2.0}, 0), DType.F64, DType.F64, 0));
        }
        float[] zeros = random(126, bm * bk);   // every third row of A all zeros: alpha * (+0) = -0, kept without C
        for (int r = 0; r < bm; r += 3) java.util.Arrays.fill(zeros, r * bk, (r + 1) * bk, 0f);
        c.add(typedForm(Case.f32(Kernels.GEMM, List.of(zeros, random(127, bk * bn)), bm * bn,
                new long[] {1, bm, bn, bk, 0, 0, 0, 0, 0, 0, 0, 0}, new double[] {-1.5, 0.0}, 0), DType.F64, DType.F64, 0));
        // conv2d: group 1 (conv2d_igemm_f16: 70 channels, 2 x 9 x 11 pixels, two tiles each way) and group 2 (conv2d_f16)
        c.add(typedForm(conv(128, convInts(2, 3, 17, 21, 70, 3, 3, 2, 2, 1, 1, 1, 1, 1, true, Kernels.ACTIVATION_NONE)), DType.F16, DType.F16, 0));
        c.add(typedForm(conv(129, convInts(1, 4, 9, 7, 6, 3, 2, 2, 1, 1, 0, 1, 2, 2, true, Kernels.ACTIVATION_NONE)), DType.F16, DType.F16, 0));
        c.add(typedForm(conv(130, convInts(1, 5, 9, 11, 7, 3, 2, 1, 1, 2, 0, 2, 1, 1, false, Kernels.ACTIVATION_NONE)), DType.F16, DType.F16, 0));
        // conv_nd: the 3-D Conv and the 2-D ConvTranspose of cases()
        c.add(typedForm(Case.f32(Kernels.CONV_ND, List.of(random(16, 840), random(17, 324), random(18, 6)), 144,
                new long[] {3, 1, 4, 6, 2, 1, 0, 5, 3, 3, 2, 1, 1, 6, 2, 3, 1, 0, 2, 7, 4, 3, 2, 1, 1}, new double[0], 0), DType.F16, DType.F16, 0));
        c.add(typedForm(Case.f32(Kernels.CONV_ND, List.of(random(16, 36), random(17, 108)), 216,
                new long[] {2, 1, 4, 6, 2, 0, 1, 3, 6, 3, 2, 1, 1, 3, 6, 3, 2, 1, 1}, new double[0], 0), DType.F16, DType.F16, 0));
        // pool: the 3-D windows of cases() in f16 (max, average with and without the padding, L3) and max in u8 and i8;
        // a 1-D pool of 3 values padded by 2 each side with windows of 1: four windows hold no value
        long[] pool3 = {3, 2, 0, 0, 3, 4, 4, 2, 1, 1, 0, 1, 5, 2, 2, 2, 0, 1, 2, 6, 3, 3, 2, 1, 1, 1};
        for (int mode : new int[] {Kernels.MAX, Kernels.AVERAGE, Kernels.LP}) {
            for (int include = 0; include <= (mode == Kernels.AVERAGE ? 1 : 0); include++) {
                long[] ints = pool3.clone();
                ints[2] = mode;
                ints[3] = include;
                c.add(typedForm(Case.f32(Kernels.POOL, List.of(random(19, 240)), 48, ints, new double[0], 0), DType.F16, DType.F16, 0));
            }
        }
        long[] empty = {1, 2, Kernels.MAX, 0, 0, 3, 7, 1, 1, 2, 2, 1};
        for (DType t : new DType[] {DType.U8, DType.I8}) {
            int lo = t == DType.U8 ? 0 : -128, hi = t == DType.U8 ? 255 : 127;
            c.add(new Case(Kernels.POOL, List.of(integers(t, 131, 240, lo, hi)), t, 48, Kernels.withType(Kernels.POOL, pool3, t.onnxCode()), new double[0], 0));
            c.add(new Case(Kernels.POOL, List.of(integers(t, 132, 6, lo, hi)), t, 14, Kernels.withType(Kernels.POOL, empty, t.onnxCode()), new double[0], 0));
        }
        c.add(typedForm(Case.f32(Kernels.POOL, List.of(random(133, 6)), 14, empty, new double[0], 0), DType.F16, DType.F16, 0));
        // pool_indices: the max windows' argmax, column-major, in f16, u8 and i8 (ties likely in u8 and i8: the first maximum)
        long[] indices = java.util.Arrays.copyOf(pool3, pool3.length + 1);
        indices[pool3.length] = 1;
        c.add(new Case(Kernels.POOL_INDICES, List.of(TensorValue.ofDoubles(DType.F16, null, doubles(random(19, 240)))), DType.I64, 48,
                Kernels.withType(Kernels.POOL_INDICES, indices, DType.F16.onnxCode()), new double[0], 0));
        for (DType t : new DType[] {DType.U8, DType.I8}) {
            c.add(new Case(Kernels.POOL_INDICES, List.of(integers(t, 134, 240, -3, 3)), DType.I64, 48,
                    Kernels.withType(Kernels.POOL_INDICES, indices, t.onnxCode()), new double[0], 0));
        }
        // softmax family: lanes of 33 (contiguous) and of 11 with stride 7, in f16 and f64
        for (int mode = Kernels.SOFTMAX_MODE; mode <= Kernels.HARDMAX_MODE; mode++) {
            c.add(typedForm(Case.f32(Kernels.SOFTMAX, List.of(random(135, 7 * 33)), 7 * 33, new long[] {7, 33, 1, mode}, new double[0], 0), DType.F16, DType.F16, 0));
            c.add(typedForm(Case.f32(Kernels.SOFTMAX, List.of(random(136, 3 * 11 * 7)), 3 * 11 * 7, new long[] {3, 11, 7, mode}, new double[0], 0), DType.F16, DType.F16, 0));
            c.add(typedForm(Case.f32(Kernels.SOFTMAX, List.of(random(137, 3 * 11 * 7)), 3 * 11 * 7, new long[] {3, 11, 7, mode}, new double[0], 0), DType.F64, DType.F64,
                    mode == Kernels.HARDMAX_MODE ? 0 : 2));
        }
        // a NaN first in a lane: hardmax keeps index 0 (no value is greater than NaN), softmax and log-softmax give NaN
        float[] nan = random(149, 4 * 5);
        nan[0] = Float.NaN;
        for (int mode = Kernels.SOFTMAX_MODE; mode <= Kernels.HARDMAX_MODE; mode++)
            c.add(typedForm(Case.f32(Kernels.SOFTMAX, List.of(nan), 4 * 5, new long[] {4, 5, 1, mode}, new double[0], 0), DType.F64, DType.F64, mode == Kernels.HARDMAX_MODE ? 0 : 2));
        // normalize: LayerNormalization over 63 values (y, then invstd: f32 whatever the type)
        long[] ln = {Kernels.N_STANDARDIZE, 1, 1, 0, 0, 1, 1, 5, 63, 0, 0, 63, 1, 1, 1};
        c.add(typedForm(Case.f32(Kernels.NORMALIZE, List.of(random(138, 5 * 63), random(139, 63), random(140, 63)), 5 * 63, ln, new double[] {1e-5}, 0),
                DType.F16, DType.F16, 0));
        c.add(typedForm(Case.f32(Kernels.NORMALIZE, List.of(random(138, 5 * 63), random(139, 63), random(140, 63)), 5 * 63, ln, new double[] {1e-5}, 0),
                DType.F64, DType.F64, 0));
        long[] stats = ln.clone();
        stats[3] = 1;
        stats[4] = 1;
        c.add(new Case(Kernels.NORMALIZE, List.of(floats(DType.F16, 138, 5 * 63), floats(DType.F16, 139, 63), floats(DType.F16, 140, 63),
                TensorValue.ofDoubles(DType.F16, null, new double[5 * 63]), TensorValue.ofFloats(null, new float[5])), DType.F32, 5,
                Kernels.withType(Kernels.NORMALIZE, stats, DType.F16.onnxCode()), new double[] {1e-5}, 0));
        attentionF16(c);
        return c;
    }

    /** attention_f16: B 2, Hq 4, Hkv 2, Sq 3, Skv 5, past 2, D 8, Dv 37 (two chunks of Y); qk, Y, present_value compared. */
    private static void attentionF16(List<Case> c) {
        int b = 2, hq = 4, hkv = 2, sq = 3, skv = 5, d = 8, dv = 37, past = 2, total = past + skv;
        float[] q = random(141, b * hq * sq * d), k = random(142, b * hkv * skv * d), v = random(143, b * hkv * skv * dv);
        float[] pk = random(144, b * hkv * past * d), pv = random(145, b * hkv * past * dv), mask = random(146, sq * 6);
        float[] y = new float[b * hq * sq * dv], presK = new float[b * hkv * total * d], presV = new float[b * hkv * total * dv];
        long[] ints = {b, hq, hkv, sq, skv, past, d, dv, 0, 1, 0, 0, 0, 6, 6, 1, 1, 0, 1, 1, 1, 3, -1, -1};
        c.add(typedForm(Case.f32(Kernels.ATTENTION, List.of(q, k, v, mask, pk, pv, y, presK, presV), b * hq * sq * total, ints, new double[] {0.3, 2.0}, 0),
                DType.F16, DType.F16, 0));
        long[] yOnly = ints.clone();
        yOnly[18] = yOnly[19] = yOnly[20] = 0;
        c.add(typedForm(Case.f32(Kernels.ATTENTION, List.of(q, k, v, mask, pk, pv), b * hq * sq * dv, yOnly, new double[] {0.3, 2.0}, 0), DType.F16, DType.F16, 0));
        long[] presentV = ints.clone();
        presentV[20] = 0;
        c.add(typedForm(Case.f32(Kernels.ATTENTION, List.of(q, k, v, mask, pk, pv, y, presK), b * hkv * total * dv, presentV, new double[] {0.3, 0.0}, 0),
                DType.F16, DType.F16, 0));
        // 3-D, a bool mask [B, 1, Sq, Skv] whose row (1, *, 2) is all false (those Y rows 0), no past, Dv 6
        int dv3 = 6;
        byte[] bmask = new byte[b * sq * skv];
        Random r = new Random(147);
        for (int i = 0; i < bmask.length; i++) bmask[i] = (byte) (r.nextInt(3) == 0 ? 0 : 1);
        java.util.Arrays.fill(bmask, (sq + 2) * skv, (sq + 3) * skv, (byte) 0);
        c.add(typedForm(new Case(Kernels.ATTENTION, List.of(TensorValue.ofFloats(null, q), TensorValue.ofFloats(null, k), TensorValue.ofFloats(null, random(148, b * hkv * skv * dv3)),
                new TensorValue(DType.BOOL, new long[] {bmask.length}, bmask)), DType.F32, b * hq * sq * dv3,
                new long[] {b, hq, hkv, sq, skv, 0, d, dv3, 1, 1, 1, sq * skv, 0, skv, skv, 0, 0, 0, 0, 0, 0, 0, -1, -1}, new double[] {0.35, 0.0}, 0), DType.F16, DType.F16, 0));
    }

    private static List<Case> implicitGemmCases() {
        List<Case> c = new ArrayList<>();
        c.add(conv(60, convInts(2, 3, 17, 21, 70, 3, 3, 2, 2, 1, 1, 1, 1, 1, true, Kernels.ACTIVATION_RELU)));
        long[] bottom = convInts(1, 5, 9, 11, 7, 3, 2, 1, 1, 2, 0, 2, 1, 1, false, Kernels.ACTIVATION_NONE);
        bottom[5]++;   // one more output row: 2 rows of padding at the top, 4 at the bottom
        c.add(conv(61, bottom));
        c.add(conv(62, convInts(3, 17, 6, 5, 33, 1, 1, 2, 1, 0, 0, 1, 1, 1, true, Kernels.ACTIVATION_NONE)));
        c.add(conv(63, convInts(1, 4, 1, 40, 9, 1, 5, 1, 3, 0, 2, 1, 2, 1, true, Kernels.ACTIVATION_RELU)));   // 1-D as H = 1
        c.add(conv(64, convInts(1, 64, 7, 7, 65, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, Kernels.ACTIVATION_RELU)));
        c.add(conv(65, convInts(1, 4, 9, 9, 6, 3, 3, 2, 2, 1, 1, 1, 1, 2, true, Kernels.ACTIVATION_RELU)));    // group 2: conv2d
        long[] inf = convInts(1, 2, 6, 7, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, Kernels.ACTIVATION_NONE);
        float[] x = random(66, 2 * 6 * 7, true), w = random(67, 3 * 2 * 9, true);
        w[0] = Float.POSITIVE_INFINITY;   // filter 0, channel 0, tap (0, 0): in the padding for the top row and left column
        c.add(Case.f32(Kernels.CONV2D, List.of(x, w), 3 * 6 * 7, inf, new double[0], 0));
        int bm = 70, bn = 45, bk = 29;
        c.add(Case.f32(Kernels.GEMM, List.of(random(68, bm * bk), random(69, bk * bn), random(70, bn)), bm * bn,
                new long[] {1, bm, bn, bk, 0, 1, 0, 0, 1, 0, 0, 1, Kernels.ACTIVATION_RELU}, new double[] {1.0, 1.0}, 0));
        return c;
    }

    /**
     * Sums of more than one block (Kernels.SUM_BLOCK = 64 values of k) with a ragged last block:
     * gemm with K = 150 in every transposition (f32, f16; f64, one running sum on both sides; ragged 64 x 64 tiles); conv2d_igemm
     * with K = 180 (f32, f16); grouped conv2d and conv_nd (1-D) with a 1 x 150 kernel over 10
     * pixels padded by 140 on both sides, so that whole blocks of taps fall in the padding (no
     * term: the CUDA kernels skip a block without terms, the simulator folds it as +0); conv2d
     * with 40 channels a group of 3 x 3, stride 2 and padding; ConvTranspose over 80 channels
     * with stride 2 (half the terms absent).
     */
    private static List<Case> blockedSumCases() {
        List<Case> c = new ArrayList<>();
        int bm = 70, bn = 45, bk = 150;
        for (int ta = 0; ta <= 1; ta++) {
            for (int tb = 0; tb <= 1; tb++) {
                c.add(Case.f32(Kernels.GEMM, List.of(random(150, 2 * bm * bk), random(151, 2 * bk * bn), random(152, bn)), 2 * bm * bn,
                        new long[] {2, bm, bn, bk, ta, tb, bm * bk, bk * bn, 1, 0, 0, 1}, new double[] {0.5, 2.0}, 0));
            }
        }
        Case gemm = Case.f32(Kernels.GEMM, List.of(random(153, bm * bk), random(154, bk * bn)), bm * bn,
                new long[] {1, bm, bn, bk, 0, 1, 0, 0, 0, 0, 0, 0}, new double[] {1.0, 0.0}, 0);
        c.add(typedForm(gemm, DType.F16, DType.F16, 0));
        c.add(typedForm(gemm, DType.F64, DType.F64, 0));
        Case igemm = conv(155, convInts(2, 20, 9, 9, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, true, Kernels.ACTIVATION_NONE));
        c.add(igemm);
        c.add(typedForm(igemm, DType.F16, DType.F16, 0));
        c.add(conv(157, convInts(1, 4, 1, 10, 4, 1, 150, 1, 1, 0, 140, 1, 1, 2, true, Kernels.ACTIVATION_NONE)));   // group 2: conv2d
        c.add(conv(159, convInts(1, 80, 6, 6, 4, 3, 3, 2, 2, 1, 1, 1, 1, 2, false, Kernels.ACTIVATION_RELU)));
        Case line = Case.f32(Kernels.CONV_ND, List.of(random(161, 40), random(162, 1200)), 4 * 141,
                new long[] {1, 1, 4, 4, 2, 0, 0, 10, 141, 150, 1, 140, 1}, new double[0], 0);
        c.add(line);
        c.add(typedForm(line, DType.F16, DType.F16, 0));
        c.add(Case.f32(Kernels.CONV_ND, List.of(random(163, 720), random(164, 2160), random(165, 3)), 75,
                new long[] {2, 1, 80, 3, 1, 1, 1, 3, 5, 3, 2, 1, 1, 3, 5, 3, 2, 1, 1}, new double[0], 0));
        return c;
    }

    /**
     * The vectorized paths (float4 / 16-byte moves where every pointer is 16-byte aligned, the
     * n % 4 tail scalar) and, with buffers shifted off the boundary, the scalar path: unary and
     * same-shape binary f32 with counts that leave tails of 1 to 3, a broadcast binary (scalar path
     * only), copies of 1-, 2-, 4- and 8-byte elements.
     */
    private static List<Case> vectorizedCases() {
        List<Case> c = new ArrayList<>();
        for (int n : new int[] {1, 3, 4, 703, 1024}) {
            for (int shift : new int[] {0, 4}) {
                c.add(Case.f32(Kernels.UNARY, List.of(random(80 + n, n)), n, new long[] {n, Kernels.TANH, 1}, new double[0], 2).shifted(shift));
                c.add(Case.f32(Kernels.UNARY, List.of(random(80 + n, n)), n, new long[] {n, Kernels.RELU, 1}, new double[0], 0).shifted(shift));
                c.add(Case.f32(Kernels.BINARY, List.of(random(81 + n, n), random(82 + n, n)), n,
                        new long[] {Kernels.MUL, 1, n, 1, 1, 1}, new double[0], 0).shifted(shift));
            }
        }
        // y [5, 7] = a [5, 7] - b [1, 7]: b broadcast over rows, so the scalar path
        c.add(Case.f32(Kernels.BINARY, List.of(random(83, 35), random(84, 7)), 35, new long[] {Kernels.SUB, 2, 5, 7, 7, 1, 0, 1, 1}, new double[0], 0));
        for (DType t : new DType[] {DType.I8, DType.F16, DType.F32, DType.I64}) {
            for (int n : new int[] {5, 37, 603}) {
                c.add(new Case(Kernels.COPY, List.of(longsOrFloats(t, n)), t, n, new long[] {n, t.bytes()}, new double[0], 0));
                c.add(new Case(Kernels.COPY, List.of(longsOrFloats(t, n)), t, n, new long[] {n, t.bytes()}, new double[0], 0, t.bytes() == 8 ? 8 : 4, -1));
            }
        }
        return c;
    }

    /** Unary float op codes, with the floats [alpha, beta] each reads (Kernels' codes 0..39 but not, bitwise_not; 44, 45, 46). */
    private static final int[] UNARY_FLOAT_OPS = java.util.stream.IntStream.rangeClosed(0, Kernels.BINARIZER)
            .filter(op -> op != Kernels.NOT && op != Kernels.BITWISE_NOT && op != Kernels.IS_NAN && op != Kernels.IS_INF && op < 40
                    || op == Kernels.DIV_BY || op == Kernels.SWISH || op == Kernels.BINARIZER).toArray();

    /** Every op code of unary, binary_broadcast and compare over the types it takes (ElementwiseMath), special values included. */
    private static List<Case> elementwiseCases() {
        List<Case> c = new ArrayList<>();
        double[] params = {0.3, 0.7};
        for (DType t : new DType[] {DType.F32, DType.F16, DType.BF16, DType.F64}) {
            TensorValue x = TensorValue.ofDoubles(t, null, java.util.stream.DoubleStream.concat(java.util.Arrays.stream(SPECIAL),
                    java.util.Arrays.stream(floats(t, 9, 64).doubles()).map(v -> v / 4)).toArray());
            int n = (int) x.elements();
            for (int op : UNARY_FLOAT_OPS) {
                boolean exact = op == Kernels.RELU || op == Kernels.IDENTITY || op == Kernels.ABS || op == Kernels.NEG || (op >= Kernels.FLOOR && op <= Kernels.SIGN)
                        || op == Kernels.CLIP || op == Kernels.LEAKY_RELU || op == Kernels.THRESHOLDED_RELU || op == Kernels.SHRINK || op == Kernels.BINARIZER;
                c.add(new Case(Kernels.UNARY, List.of(x), t, n, new long[] {n, op, t.onnxCode()}, params, exact ? 0 : 2));
            }
            for (int op : new int[] {Kernels.IS_NAN, Kernels.IS_INF}) {
                c.add(new Case(Kernels.UNARY, List.of(x), DType.BOOL, n, new long[] {n, op, t.onnxCode(), DType.BOOL.onnxCode()}, new double[] {1, 0}, 0));
                c.add(new Case(Kernels.UNARY, List.of(x), DType.BOOL, n, new long[] {n, op, t.onnxCode(), DType.BOOL.onnxCode()}, new double[] {0, 1}, 0));
            }
            for (int op : new int[] {Kernels.POW, Kernels.FMOD, Kernels.MAXIMUM, Kernels.MINIMUM, Kernels.PRELU}) {
                // y [4, 5, 6]; b [5, 1] broadcast, with a NaN and a zero
                TensorValue b = TensorValue.ofDoubles(t, null, 1.5, Double.NaN, -2, 0.0, 3);
                c.add(new Case(Kernels.BINARY, List.of(floats(t, 1, 120), b), t, 120,
                        new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, t.onnxCode()}, new double[0], op == Kernels.POW ? 2 : 0));
            }
            // pow with an integer exponent
            c.add(new Case(Kernels.BINARY, List.of(floats(t, 2, 6), TensorValue.ofLongs(DType.I64, null, 3, -2, 0)), t, 6,
                    new long[] {Kernels.POW, 2, 2, 3, 3, 1, 0, 1, t.onnxCode(), DType.I64.onnxCode()}, new double[0], 2));
            for (int op = Kernels.EQUAL; op <= Kernels.GREATER_OR_EQUAL; op++) {
                TensorValue a = TensorValue.ofDoubles(t, null, 1, 2, 3, -0.0, 2, Double.NaN, 1, 1, 1, Double.NaN, 2, 3.0001);
                c.add(new Case(Kernels.COMPARE, List.of(a, TensorValue.ofDoubles(t, null, 0.0, 2, Double.NaN)), DType.BOOL, 12,
                        new long[] {op, 2, 4, 3, 3, 1, 0, 1, t.onnxCode()}, new double[0], 0));
            }
        }
        for (DType t : new DType[] {DType.I64, DType.I32, DType.I16, DType.I8, DType.U64, DType.U32, DType.U16, DType.U8}) {
            TensorValue x = TensorValue.ofLongs(t, null, SPECIAL_LONGS);
            int n = (int) x.elements();
            for (int op : new int[] {Kernels.RELU, Kernels.ABS, Kernels.NEG, Kernels.SIGN, Kernels.BITWISE_NOT}) {
                if (!org.arenaplan.device.ElementwiseMath.unaryTakes(op, t)) continue;
                c.add(new Case(Kernels.UNARY, List.of(x), t, n, new long[] {n, op, t.onnxCode()}, new double[0], 0));
            }
            if (org.arenaplan.device.ElementwiseMath.unaryTakes(Kernels.BINARIZER, t))   // thresholds between values, on one, and a negative one
                for (double threshold : new double[] {2.5, 1.0, -3.0})
                    c.add(new Case(Kernels.UNARY, List.of(x), t, n, new long[] {n, Kernels.BINARIZER, t.onnxCode()}, new double[] {threshold}, 0));
            TensorValue b = TensorValue.ofLongs(t, null, 7, -1, 3, t == DType.U8 ? 200 : -100, 1);
            for (int op : new int[] {Kernels.MOD, Kernels.FMOD, Kernels.MAXIMUM, Kernels.MINIMUM, Kernels.PRELU, Kernels.BITWISE_AND,
                    Kernels.BITWISE_OR, Kernels.BITWISE_XOR, Kernels.POW}) {
                if (!org.arenaplan.device.ElementwiseMath.binaryTakes(op, t, t)) continue;
                c.add(new Case(Kernels.BINARY, List.of(longs(t, 4, 120, Long.MAX_VALUE), b), t, 120,
                        new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, t.onnxCode()}, new double[0], 0));
            }
            for (int op = Kernels.EQUAL; op <= Kernels.GREATER_OR_EQUAL; op++) {
                c.add(new Case(Kernels.COMPARE, List.of(longs(t, 5, 12, 3), longs(t, 6, 3, 3)), DType.BOOL, 12,
                        new long[] {op, 2, 4, 3, 3, 1, 0, 1, t.onnxCode()}, new double[0], 0));
            }
        }
        for (DType t : new DType[] {DType.I64, DType.I32}) {
            // integer base, float exponent: the real power truncated
            c.add(new Case(Kernels.BINARY, List.of(TensorValue.ofLongs(t, null, 2, -3, 7, 0, 5, 9), TensorValue.ofDoubles(DType.F32, null, 0.5, 3, -1)), t, 6,
                    new long[] {Kernels.POW, 2, 2, 3, 3, 1, 0, 1, t.onnxCode(), DType.F32.onnxCode()}, new double[0], 0));
        }
        TensorValue bools = TensorValue.ofLongs(DType.BOOL, null, 0, 1, 1, 0, 1, 0);
        c.add(new Case(Kernels.UNARY, List.of(bools), DType.BOOL, 6, new long[] {6, Kernels.NOT, DType.BOOL.onnxCode()}, new double[0], 0));
        for (int op : new int[] {Kernels.AND, Kernels.OR, Kernels.XOR}) {
            c.add(new Case(Kernels.BINARY, List.of(bools, TensorValue.ofLongs(DType.BOOL, null, 0, 1, 1)), DType.BOOL, 6,
                    new long[] {op, 2, 2, 3, 3, 1, 0, 1, DType.BOOL.onnxCode()}, new double[0], 0));
        }
        for (DType t : new DType[] {DType.U8, DType.U16, DType.U32, DType.U64}) {
            TensorValue shifts = TensorValue.ofLongs(t, null, 0, 1, 3, 7, 63, 200);
            for (int op : new int[] {Kernels.SHIFT_LEFT, Kernels.SHIFT_RIGHT}) {
                c.add(new Case(Kernels.BINARY, List.of(TensorValue.ofLongs(t, null, 255, 16, 1, 128, -1, 9), shifts), t, 6,
                        new long[] {op, 1, 6, 1, 1, t.onnxCode()}, new double[0], 0));
            }
        }
        // pow of a float to uint64 exponents past 2^63 (read unsigned)
        c.add(new Case(Kernels.BINARY, List.of(TensorValue.ofDoubles(DType.F64, null, 1, 0.5, 2), TensorValue.ofLongs(DType.U64, null, -1, 3, 10)), DType.F64, 3,
                new long[] {Kernels.POW, 1, 3, 1, 1, DType.F64.onnxCode(), DType.U64.onnxCode()}, new double[0], 0));
        return c;
    }
    /**
     * normalize (layer norm with scale and bias, its InvStdDev output, mean-variance over axes 0
     * and 2 of [2, 3, 4], L1 and L2 along an axis), cumsum (every exclusive/reverse pair, sum and product; f32,
     * int32, f64), topk (largest and smallest with ties; the Indices output; x bounded along the axis) and nll_loss (softmax
     * cross-entropy with weights and an ignored target, mean; per sample with log_prob).
     */
    private static List<Case> normalizationCases() {
        List<Case> c = new ArrayList<>();
        long[] ln = {Kernels.N_STANDARDIZE, 1, 1, 0, 0, 1, 1, 5, 64, 0, 0, 64, 1, 1, 1};
        c.add(Case.f32(Kernels.NORMALIZE, List.of(random(7, 5 * 64), random(8, 64), random(9, 64)), 5 * 64, ln, new double[] {1e-5}, 0));
        long[] stats = ln.clone();
        stats[3] = 1;
        stats[4] = 1;
        c.add(Case.f32(Kernels.NORMALIZE, List.of(random(7, 5 * 64), random(8, 64), random(9, 64), new float[5 * 64], new float[5]), 5, stats, new double[] {1e-5}, 0));
        // batchnorm_running: x [3, 4, 5], momentum 0.9; running_mean alone, then running_var (running_mean passed as zeros)
        c.add(Case.f32(Kernels.BATCHNORM_RUNNING, List.of(random(12, 60), random(13, 4), random(14, 4, true)), 4, new long[] {3, 4, 5}, new double[] {0.9}, 0));
        c.add(Case.f32(Kernels.BATCHNORM_RUNNING, List.of(random(12, 60), random(13, 4), random(14, 4, true), new float[4]), 4, new long[] {3, 4, 5},
                new double[] {0.9}, 0));
        // quantize_range over 1000 values (more than its 256 slots), the zero point compared (y_scale passed in as zeros): it depends on both
        // the min and the scale; then a NaN among them
        float[] wide = scaled(random(15, 1000), 3f);
        c.add(new Case(Kernels.QUANTIZE_RANGE, List.of(TensorValue.ofFloats(null, wide), TensorValue.ofFloats(null, 0f)), DType.U8, 1, new long[] {1000},
                new double[0], 0));
        wide[777] = Float.NaN;
        c.add(new Case(Kernels.QUANTIZE_RANGE, List.of(TensorValue.ofFloats(null, wide), TensorValue.ofFloats(null, 0f)), DType.U8, 1, new long[] {1000},
                new double[0], 0));
        long[] mvn = {Kernels.N_MVN, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 2, 4, 12, 1, 0, 0, 0, 0};
        c.add(Case.f32(Kernels.NORMALIZE, List.of(random(10, 24)), 24, mvn, new double[] {1e-9}, 0));
        // RMSNormalization: rows of 4 (groups [6] kept, stride 4), a scale of 4 (reduced stride 1)
        c.add(Case.f32(Kernels.NORMALIZE, List.of(random(16, 24), random(17, 4)), 24,
                new long[] {Kernels.N_RMS, 1, 0, 0, 0, 1, 1, 6, 4, 0, 0, 4, 1, 1, 0}, new double[] {1e-5}, 0));
        rotaryAndAttention(c);
        for (int mode : new int[] {Kernels.N_L1, Kernels.N_L2}) {
            c.add(Case.f32(Kernels.NORMALIZE, List.of(random(11, 24)), 24, new long[] {mode, 0, 0, 0, 0, 1, 1, 6, 4, 0, 0, 4, 1, 0, 0}, new double[] {0}, 0));
            float[] zeroRow = random(11, 24);
            java.util.Arrays.fill(zeroRow, 8, 12, 0f);   // row 2's norm is 0: it stays 0
            c.add(Case.f32(Kernels.NORMALIZE, List.of(zeroRow), 24, new long[] {mode, 0, 0, 0, 0, 1, 1, 6, 4, 0, 0, 4, 1, 0, 0}, new double[] {0}, 0));
        }
        for (DType t : new DType[] {DType.F32, DType.I32, DType.F64}) {
            TensorValue x = t.isIntegral() ? longs(t, 12, 60, 1000) : floats(t, 12, 60);
            for (int exclusive = 0; exclusive <= 1; exclusive++) {
                for (int reverse = 0; reverse <= 1; reverse++) {
                    for (int product = 0; product <= 1; product++)
                        c.add(new Case(Kernels.CUMSUM, List.of(x), t, 60, new long[] {3, 5, 4, exclusive, reverse, t.onnxCode(), product}, new double[0], 0));
                }
            }
        }
        TensorValue ties = TensorValue.ofDoubles(DType.F32, null, new double[] {
            3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7, 1, 6});
        for (int largest = 0; largest <= 1; largest++) {
            c.add(new Case(Kernels.TOPK, List.of(ties, TensorValue.ofDoubles(DType.F32, null, new double[18])), DType.I64, 18,
                    new long[] {3, 7, 2, 3, largest, DType.F32.onnxCode(), 4}, new double[0], 0));
        }
        // NaNs rank above every number, tying with each other (numpy's order): a total order, every element ranked once
        double[] withNaN = ties.doubles().clone();
        for (int i = 0; i < withNaN.length; i += 5) withNaN[i] = Double.NaN;
        withNaN[7] = Double.POSITIVE_INFINITY;
        withNaN[8] = Double.NEGATIVE_INFINITY;
        for (int largest = 0; largest <= 1; largest++) {
            c.add(new Case(Kernels.TOPK, List.of(TensorValue.ofDoubles(DType.F32, null, withNaN), TensorValue.ofDoubles(DType.F32, null, new double[42])), DType.I64, 42,
                    new long[] {3, 7, 2, 7, largest, DType.F32.onnxCode(), 4}, new double[0], 0));
        }
        // topk of x bounded along the axis ([1, 21, 2] holding 9 actual values per lane: the tail's 12 are not ranked)
        for (int largest = 0; largest <= 1; largest++) {
            c.add(new Case(Kernels.TOPK, List.of(ties, TensorValue.ofLongs(DType.I64, null, 9), TensorValue.ofDoubles(DType.F32, null, new double[8])), DType.I64, 8,
                    new long[] {1, 21, 2, 4, largest, DType.F32.onnxCode(), 4}, new double[0], 0));
        }
        // clamp: k = 4 of 3 actual values per lane writes the first 3 (a TopK by min(c, the count)), the rest left as it was
        for (int largest = 0; largest <= 1; largest++) {
            c.add(new Case(Kernels.TOPK, List.of(ties, TensorValue.ofLongs(DType.I64, null, 3), TensorValue.ofDoubles(DType.F32, null, new double[8])), DType.I64, 8,
                    new long[] {1, 21, 2, 4, largest, DType.F32.onnxCode(), 4, 1}, new double[0], 0));
        }
        // topk over uint64 (values across 2^63: ordered unsigned) and int64 beyond 2^53 (ordered exactly, not as doubles)
        for (DType t : new DType[] {DType.U64, DType.I64}) {
            TensorValue big = TensorValue.ofLongs(t, null, java.util.stream.LongStream.range(0, 42)
                    .map(i -> (1L << 62) + (i % 7) * (1L << 61) + (i % 3)).toArray());
            for (int largest = 0; largest <= 1; largest++) {
                c.add(new Case(Kernels.TOPK, List.of(big, TensorValue.ofLongs(t, null, new long[18])), DType.I64, 18,
                        new long[] {3, 7, 2, 3, largest, t.onnxCode(), 8}, new double[0], 0));
            }
        }
        // einsum: batched matmul bij,bjk->bik over [2, 3, 4] x [2, 4, 5] (letters b, i, k out; j summed), and the diagonal ii->i of [4, 4]
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            c.add(new Case(Kernels.EINSUM, List.of(floats(t, 15, 24), floats(t, 16, 40)), t, 30,
                    new long[] {2, t.onnxCode(), 4, 3, 2, 3, 5, 4, 12, 4, 0, 1, 20, 0, 1, 5}, new double[0], 0));
        }
        c.add(new Case(Kernels.EINSUM, List.of(floats(DType.F32, 17, 16)), DType.F32, 4, new long[] {1, DType.F32.onnxCode(), 1, 1, 4, 5, 0}, new double[0], 0));
        // dft: forward and inverse of a complex [2, 5, 3, 2] along n = 5 cut/padded to L = 6, onesided real forward,
        // irfft of 4 bins to L = 6, and a windowed STFT ([1, 9, 1], frames of 4 every 2 samples)
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            for (int mode = Kernels.DFT_FORWARD; mode <= Kernels.DFT_INVERSE; mode++)
                c.add(new Case(Kernels.DFT, List.of(floats(t, 31, 60)), t, 2 * 6 * 3 * 2,
                        new long[] {2, 5, 3, 2, 6, 6, mode, 1, 0, 6, 0, t.onnxCode()}, new double[0], 64));
        }
        c.add(new Case(Kernels.DFT, List.of(floats(DType.F32, 32, 30)), DType.F32, 2 * 4 * 3 * 2,
                new long[] {2, 5, 3, 1, 6, 4, Kernels.DFT_FORWARD, 1, 0, 6, 0, DType.F32.onnxCode()}, new double[0], 64));
        c.add(new Case(Kernels.DFT, List.of(floats(DType.F32, 33, 2 * 4 * 3 * 2)), DType.F32, 2 * 6 * 3,
                new long[] {2, 4, 3, 2, 6, 6, Kernels.DFT_IRFFT, 1, 0, 6, 0, DType.F32.onnxCode()}, new double[0], 64));
        c.add(new Case(Kernels.DFT, List.of(floats(DType.F32, 34, 9), floats(DType.F32, 35, 4)), DType.F32, 3 * 3 * 2,
                new long[] {1, 9, 1, 1, 4, 3, Kernels.DFT_FORWARD, 3, 2, 4, 1, DType.F32.onnxCode()}, new double[0], 64));
        // qmatmul: uint8 [2, 3, 4] (batched) x int8 [4, 5] with per-row and per-column zero points: int32, and requantized
        // to int8 with per-column b scales in f32 and f16; qconv: uint8 [1, 2, 4, 4] by [3, 2, 3, 3], pads 1, bias, per-channel w
        long u8 = DType.U8.onnxCode(), i8 = DType.I8.onnxCode();
        List<TensorValue> mm = List.of(small(DType.U8, 41, 24, 0, 255), small(DType.I8, 42, 20, -128, 127), small(DType.U8, 43, 3, 0, 255), small(DType.I8, 44, 5, -128, 127));
        c.add(new Case(Kernels.QMATMUL, mm, DType.I32, 30, new long[] {2, 3, 4, 5, 1, 0, u8, i8, DType.I32.onnxCode(), 0, 1, 1, 0, 0, DType.F32.onnxCode()}, new double[0], 0));
        for (DType scale : new DType[] {DType.F32, DType.F16}) {
            List<TensorValue> q = new ArrayList<>(mm);
            q.addAll(List.of(TensorValue.ofDoubles(scale, null, new double[] {0.05}), TensorValue.ofDoubles(scale, null, new double[] {0.01, 0.02, 0.03, 0.015, 0.5}),
                    TensorValue.ofDoubles(scale, null, new double[] {0.7}), small(DType.I8, 45, 1, -10, 10)));
            c.add(new Case(Kernels.QMATMUL, q, DType.I8, 30, new long[] {2, 3, 4, 5, 1, 0, u8, i8, i8, 1, 1, 1, 0, 1, scale.onnxCode()}, new double[0], 0));
        }
        c.add(new Case(Kernels.QCONV, List.of(small(DType.U8, 46, 32, 0, 255), small(DType.U8, 47, 54, 0, 255), small(DType.U8, 48, 1, 0, 255),
                small(DType.U8, 49, 3, 0, 255), TensorValue.ofDoubles(DType.F32, null, new double[] {0.02}),
                TensorValue.ofDoubles(DType.F32, null, new double[] {0.01, 0.003, 0.02}), TensorValue.ofDoubles(DType.F32, null, new double[] {0.9}),
                small(DType.U8, 50, 1, 100, 140), small(DType.I32, 51, 3, -5000, 5000)), DType.U8, 48,
                new long[] {u8, u8, u8, 1, 0, 1, 0, 1, DType.F32.onnxCode(), 2, 1, 2, 3, 1, 1, 0, 4, 4, 3, 1, 1, 1, 4, 4, 3, 1, 1, 1}, new double[0], 0));
        // reverse_sequence: [4 steps, 3 batch, 2] f32 with time axis 0, and [3 batch, 4 steps, 2] with time axis 1; lengths 4, 0, 2
        for (int time = 0; time <= 1; time++)
            c.add(new Case(Kernels.REVERSE_SEQUENCE, List.of(floats(DType.F32, 52, 24), TensorValue.ofLongs(DType.I64, null, 4, 0, 2)), DType.F32, 24,
                    new long[] {time == 0 ? 4 : 3, time == 0 ? 3 : 4, 2, time, 4, DType.I64.onnxCode()}, new double[0], 0));
        // tfidf: 2 rows of 8 int32 tokens from {1, 2, 3}; unigram 2 -> 0, bigrams (1, 2) -> 1, (2, 3) -> 2, (3, 3) -> 1; skips up to 2; TF and weighted TFIDF
        TensorValue tokens = TensorValue.ofLongs(DType.I32, null, 1, 2, 3, 3, 2, 1, 2, 3, 3, 3, 1, 1, 2, 2, 3, 1);
        long[] pool = {4, 1, 0, 2, 2, 1, 1, 2, 2, 2, 2, 3, 2, 1, 3, 3};
        for (int mode = 0; mode <= 2; mode += 2) {
            long[] head = {2, 8, DType.I32.onnxCode(), 3, mode, 2, mode == 2 ? 1 : 0};
            long[] ints = java.util.Arrays.copyOf(head, head.length + pool.length);
            System.arraycopy(pool, 0, ints, head.length, pool.length);
            c.add(new Case(Kernels.TFIDF, List.of(tokens), DType.F32, 6, ints, mode == 2 ? new double[] {0.5, 1.25, 2} : new double[0], 0));
        }
        treeEnsembleCases(c);
        // scores [2, 4, 3] (N, C, D), targets [2, 3] with one ignored (-1), weights [4]
        TensorValue targets = TensorValue.ofLongs(DType.I64, null, 0, 3, -1, 2, 1, 1);
        c.add(new Case(Kernels.NLL_LOSS, List.of(TensorValue.ofFloats(null, random(13, 24)), targets, TensorValue.ofFloats(null, random(14, 4, true))),
                DType.F32, 1, new long[] {1, 2, 4, 3, Kernels.LOSS_MEAN, 1, -1, 1, 0, DType.I64.onnxCode()}, new double[0], 2));
        c.add(new Case(Kernels.NLL_LOSS, List.of(TensorValue.ofFloats(null, random(13, 24)), targets, TensorValue.ofFloats(null, new float[6])),
                DType.F32, 24, new long[] {1, 2, 4, 3, Kernels.LOSS_NONE, 1, -1, 0, 1, DType.I64.onnxCode()}, new double[0], 2));
        return c;
    }

    /**
     * The reduce kernel: x [4, 5, 6] reduced over axes 0 and 2 (kept: axis 1, stride 6; reduced:
     * extents 4 and 6, strides 30 and 1), every op on f32, f16 and bf16, the integer ops on int64,
     * int32 and uint8 (wrapping), argmax/argmin with first and last ties, and an empty reduction.
     */
    private static List<Case> reduceCases() {
        List<Case> c = new ArrayList<>();
        long[] geometry = {1, 2, 5, 6, 4, 6, 30, 1};   // K, R, keptShape, keptStride, redShape[2], redStride[2]
        for (DType t : new DType[] {DType.F32, DType.F16, DType.BF16}) {
            for (int op = Kernels.R_SUM; op <= Kernels.R_SUM_SQUARE; op++) {
                TensorValue x = op == Kernels.R_LOG_SUM || op == Kernels.R_PROD ? positive(t, op, 120) : floats(t, op, 120);
                c.add(new Case(Kernels.REDUCE, List.of(x), t, 5, reduceInts(op, t, 0, geometry), new double[0], 2));
            }
        }
        for (DType t : new DType[] {DType.I64, DType.I32, DType.U8}) {
            for (int op = Kernels.R_SUM; op <= Kernels.R_SUM_SQUARE; op++) {
                long bound = op == Kernels.R_LOG_SUM || op == Kernels.R_LOG_SUM_EXP ? 4 : 1000;
                c.add(new Case(Kernels.REDUCE, List.of(longs(t, op, 120, bound)), t, 5, reduceInts(op, t, 0, geometry), new double[0], 0));
            }
        }
        // uint64 across 2^63 (every op: max/min/argmax ordered unsigned, mean and the other float ops through unsigned doubles)
        TensorValue u64 = TensorValue.ofLongs(DType.U64, null, java.util.stream.LongStream.range(0, 120).map(i -> (i * 0x2545F4914F6CDD1DL) ^ (i << 60)).toArray());
        for (int op = Kernels.R_SUM; op <= Kernels.R_ARGMIN; op++)
            c.add(new Case(Kernels.REDUCE, List.of(u64), op >= Kernels.R_ARGMAX ? DType.I64 : DType.U64, 5, reduceInts(op, DType.U64, 0, geometry), new double[0], 0));
        // argmax/argmin along axis 1 of [2, 6, 3] with repeated values (ties), first and last.
        long[] along = {2, 1, 2, 3, 18, 1, 6, 3};
        for (DType t : new DType[] {DType.F32, DType.I64, DType.F16}) {
            TensorValue x = t.isIntegral() ? longs(t, 9, 36, 3) : TensorValue.ofDoubles(t, null, new double[] {
                1, 2, 3, 3, 2, 1, 1, 1, 1, 0, 5, 5, 3, 5, 0, -1, 5, 0, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 7, 0, 7, 7, 0, 7});
            for (int op : new int[] {Kernels.R_ARGMAX, Kernels.R_ARGMIN}) {
                for (int last = 0; last <= 1; last++) c.add(new Case(Kernels.REDUCE, List.of(x), DType.I64, 6, reduceInts(op, t, last, along), new double[0], 0));
            }
        }
        // argmax/argmin with NaNs: a NaN wins (the first, or the last), in f32, f16 and f64
        for (DType t : new DType[] {DType.F32, DType.F16, DType.F64}) {
            double nan = Double.NaN;
            TensorValue x = TensorValue.ofDoubles(t, null, new double[] {
                1, nan, 3, nan, 2, 1, 1, 1, 1, 0, nan, 5, 3, 5, 0, -1, 5, nan, nan, 2, 2, 2, 2, 2, 1, nan, 1, 1, 1, 1, 7, 0, 7, 7, 0, 7});
            for (int op : new int[] {Kernels.R_ARGMAX, Kernels.R_ARGMIN}) {
                for (int last = 0; last <= 1; last++) c.add(new Case(Kernels.REDUCE, List.of(x), DType.I64, 6, reduceInts(op, t, last, along), new double[0], 0));
            }
        }
        // an empty reduction (extent 0): the empty value of each op (the integer max and min: the type's lowest and highest)
        for (DType t : new DType[] {DType.F32, DType.I32, DType.I8, DType.U16, DType.I64}) {
            for (int op = Kernels.R_SUM; op <= Kernels.R_SUM_SQUARE; op++) {
                c.add(new Case(Kernels.REDUCE, List.of(TensorValue.ofDoubles(t, null, new double[0])), t, 3,
                        reduceInts(op, t, 0, new long[] {1, 1, 3, 0, 0, 1}), new double[0], 0));
            }
        }
        // x [6, 4] bounded along axis 0 (per 4), 0, 3, 6 and 9 (past the bound) rows actual: reduced over axis 0 (spans 1),
        // over axis 1 (spans 0: the rows past the extent reduce no element) and over all (spans 1); argmax/argmin over
        // axis 0 of no actual row is an error (ReduceExtent), left out
        long[][] bounded = {{1, 1, 4, 1, 6, 4, 4, 1}, {1, 1, 6, 4, 4, 1, 4, 0}, {0, 1, 24, 1, 4, 1}};
        for (DType t : new DType[] {DType.F32, DType.I32}) {
            TensorValue x = t.isIntegral() ? longs(t, 21, 24, 50) : floats(t, 21, 24);
            for (long rows : new long[] {0, 3, 6, 9}) {
                for (long[] g : bounded) {
                    for (int op = Kernels.R_SUM; op <= Kernels.R_ARGMIN; op++) {
                        if (rows == 0 && g[g.length - 1] == 1 && op >= Kernels.R_ARGMAX) continue;
                        if (op >= Kernels.R_ARGMAX && g[1] != 1) continue;   // argmax/argmin reduce one axis
                        long outN = g[0] == 0 ? 1 : g[2];
                        c.add(new Case(Kernels.REDUCE, List.of(x, TensorValue.ofLongs(DType.I64, null, rows)), op >= Kernels.R_ARGMAX ? DType.I64 : t, (int) outN,
                                reduceInts(op, t, 0, g), new double[0], t.isIntegral() ? 0 : 2));
                    }
                }
            }
        }
        return c;
    }

    private static long[] reduceInts(int op, DType t, int last, long[] geometry) {
        long[] ints = new long[3 + geometry.length];
        ints[0] = op;
        ints[1] = t.onnxCode();
        ints[2] = last;
        System.arraycopy(geometry, 0, ints, 3, geometry.length);
        return ints;
    }

    private static TensorValue positive(DType t, long seed, int n) {
        Random r = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = 0.9 + r.nextDouble() * 0.2;
        return TensorValue.ofDoubles(t, null, v);
    }


    /**
     * LSTM (peepholes, initial states, input_forget, clip), GRU (both reset variants) and RNN
     * (several activations) over 2 directions or one reversed, both layouts, sequence_lens; one
     * output per case (the others left out, as an op may). 8 ulps: the state passes through
     * 4 steps of exp and tanh.
     */
    private static List<Case> recurrentCases() {
        List<Case> c = new ArrayList<>();
        int seq = 4, batch = 3, input = 5, hidden = 7;
        for (int cell = 0; cell <= 2; cell++) {
            int gates = cell == 2 ? 4 : cell == 1 ? 3 : 1, acts = cell == 2 ? 3 : cell == 1 ? 2 : 1;
            for (int variant = 0; variant < 2; variant++) {
                int dirs = variant == 0 ? 2 : 1;
                for (int out = 0; out < (cell == 2 ? 3 : 2); out++) {
                    List<TensorValue> in = new ArrayList<>();
                    in.add(TensorValue.ofFloats(null, random(40 + cell, seq * batch * input)));
                    in.add(TensorValue.ofFloats(null, random(41 + cell, dirs * gates * hidden * input)));
                    in.add(TensorValue.ofFloats(null, random(42 + cell, dirs * gates * hidden * hidden)));
                    in.add(TensorValue.ofFloats(null, random(43 + cell, dirs * 2 * gates * hidden)));
                    in.add(TensorValue.ofLongs(DType.I32, null, 4, 0, 2));
                    in.add(TensorValue.ofFloats(null, random(44 + cell, dirs * batch * hidden)));
                    if (cell == 2) {
                        in.add(TensorValue.ofFloats(null, random(45, dirs * batch * hidden)));
                        in.add(TensorValue.ofFloats(null, random(46, dirs * 3 * hidden)));
                    }
                    long[] ints = new long[25];
                    long[] head = {cell, seq, batch, input, hidden, dirs, variant, variant, variant, variant, variant};
                    System.arraycopy(head, 0, ints, 0, head.length);
                    double[] floats = new double[13];
                    floats[0] = 1.5;
                    for (int a = 0; a < dirs * acts; a++) {
                        // direction 1 (or the reversed one) gets other functions: HardSigmoid, LeakyRelu, Elu, Softsign
                        ints[11 + a] = variant == 0 && a < acts ? (a == 0 && cell > 0 ? 2 : 1) : new long[]{7, 4, 8, 9, 10, 0}[a % 6];
                        floats[1 + a] = 0.3;
                        floats[7 + a] = 0.4;
                    }
                    int inputs = cell == 2 ? 5 : 3;
                    for (int k = 0; k < inputs; k++) ints[17 + k] = 1;
                    ints[17 + 5 + out] = 1;
                    int n = out == 0 ? seq * dirs * batch * hidden : dirs * batch * hidden;
                    c.add(new Case(Kernels.RECURRENT, in, DType.F32, n, ints, floats, 8));
                }
            }
        }
        return c;
    }

    /**
     * resize of x [2, 4, 5] to [2, 7, 3] (and, shrinking with antialias, to [2, 3, 2]) in each mode, several coordinate
     * modes, the four nearest modes, exclude_outside, antialias and tf_crop_and_resize with a roi and an extrapolation value.
     */
    private static List<Case> resizeCases() {
        List<Case> c = new ArrayList<>();
        long[][] variants = {   // mode, coordinate mode, nearest mode, exclude, antialias
            {0, 0, 0, 0, 0}, {0, 0, 1, 0, 0}, {0, 4, 2, 0, 0}, {0, 3, 3, 0, 0}, {1, 0, 0, 0, 0}, {1, 3, 0, 0, 0}, {1, 1, 0, 0, 0},
            {2, 2, 0, 0, 0}, {2, 0, 0, 1, 0}, {2, 5, 0, 0, 0}, {1, 0, 0, 0, 1}, {2, 0, 0, 0, 1}, {1, 6, 0, 0, 0}, {2, 6, 0, 1, 0}};
        for (long[] v : variants) {
            boolean shrink = v[4] == 1;
            long[] in = {2, 4, 5}, out = shrink ? new long[] {2, 3, 2} : new long[] {2, 7, 3};
            double[] roi = v[1] == 6 ? new double[] {0, 0.2, -0.1, 1, 0.9, 1.2} : new double[] {0, 0, 0, 1, 1, 1};
            long[] ints = new long[6 + 15];
            System.arraycopy(v, 0, ints, 1, 5);
            ints[0] = 3;
            for (int d = 0; d < 3; d++) {
                long[] a = {in[d], out[d], Double.doubleToRawLongBits((double) out[d] / in[d]), Double.doubleToRawLongBits(roi[d]),
                    Double.doubleToRawLongBits(roi[3 + d])};
                System.arraycopy(a, 0, ints, 6 + 5 * d, 5);
            }
            Case f32 = Case.f32(Kernels.RESIZE, List.of(random(40, 40)), (int) (out[0] * out[1] * out[2]), ints, new double[] {-0.5, 10.0}, 0);
            c.add(f32);
            c.add(typedForm(f32, DType.F16, DType.F16, 0));   // resize_f16: x widened, the f64 sum rounded to f32, then to f16 on store
        }
        // quantize: x [2, 3, 4] per axis 1 (scale and zero point [3]) and per tensor; ties (x / scale = 2.5, -0.5) round to even
        for (DType yt : new DType[] {DType.U8, DType.I8, DType.U16, DType.I16}) {
            TensorValue x = TensorValue.ofDoubles(DType.F32, null, java.util.stream.DoubleStream.concat(java.util.Arrays.stream(floats(DType.F32, 30, 20).doubles())
                    .map(v -> v * 40), java.util.stream.DoubleStream.of(2.5, -0.5, 1e9, Double.NaN)).toArray());
            TensorValue zp = TensorValue.ofLongs(yt, null, 3, 0, yt == DType.U8 || yt == DType.U16 ? 250 : -120);
            c.add(new Case(Kernels.QUANTIZE, List.of(x, TensorValue.ofDoubles(DType.F32, null, 0.5, 1, 2), zp), yt, 24,
                    new long[] {2, 3, 4, 0, DType.F32.onnxCode(), yt.onnxCode(), 1}, new double[0], 0));
            c.add(new Case(Kernels.QUANTIZE, List.of(x, TensorValue.ofDoubles(DType.F32, null, 1)), yt, 24,
                    new long[] {1, 1, 24, 0, DType.F32.onnxCode(), yt.onnxCode(), 0}, new double[0], 0));
            c.add(new Case(Kernels.QUANTIZE, List.of(longs(yt, 31, 24, 1000), TensorValue.ofDoubles(DType.F32, null, 0.5, 1, 2), zp), DType.F32, 24,
                    new long[] {2, 3, 4, 1, yt.onnxCode(), DType.F32.onnxCode(), 1}, new double[0], 0));
        }
        c.add(new Case(Kernels.QUANTIZE, List.of(longs(DType.I32, 32, 24, 100000), TensorValue.ofDoubles(DType.F32, null, 0.25)), DType.F32, 24,
                new long[] {1, 1, 24, 1, DType.I32.onnxCode(), DType.F32.onnxCode(), 0}, new double[0], 0));
        // float8: x / scale (+ zero point) to float8, saturating or not, per axis; float8 back to f32 and f16 by f32 and f16 scales
        TensorValue wideX = TensorValue.ofDoubles(DType.F32, null, java.util.stream.DoubleStream.concat(java.util.Arrays.stream(SPECIAL).limit(20),
                java.util.Arrays.stream(FLOAT8_SPECIAL).limit(4)).toArray());
        for (DType yt : FLOAT8) {
            TensorValue zp = TensorValue.ofDoubles(yt, null, 0, 0.5, -2);
            for (long sat : new long[] {0, 1}) {
                c.add(new Case(Kernels.QUANTIZE, List.of(wideX, TensorValue.ofDoubles(DType.F32, null, 0.5, 1, 3), zp), yt, 24,
                        new long[] {2, 3, 4, 0, DType.F32.onnxCode(), yt.onnxCode(), 1, sat}, new double[0], 0));
                c.add(new Case(Kernels.QUANTIZE, List.of(wideX, TensorValue.ofDoubles(DType.F32, null, 0.01)), yt, 24,
                        new long[] {1, 1, 24, 0, DType.F32.onnxCode(), yt.onnxCode(), 0, sat}, new double[0], 0));
            }
            for (DType st : new DType[] {DType.F32, DType.F16, DType.BF16}) {
                c.add(new Case(Kernels.QUANTIZE, List.of(allCodes(yt), TensorValue.ofDoubles(st, null, 0.5, 3, 1e-3, 700)), st, 256,
                        new long[] {4, 4, 16, 1, yt.onnxCode(), st.onnxCode(), 0, 0}, new double[0], 0));
            }
            c.add(new Case(Kernels.QUANTIZE, List.of(allCodes(yt), TensorValue.ofDoubles(DType.F32, null, 2), TensorValue.ofDoubles(yt, null, 0.25)), DType.F32, 256,
                    new long[] {1, 1, 256, 1, yt.onnxCode(), DType.F32.onnxCode(), 1, 0}, new double[0], 0));
        }
        // packed types: quantize x [2, 3, 4] per axis 1 with a zero point, per tensor without, and blocked (axis 1 in blocks
        // of 2: scale and zero point [2, 2, 4]); dequantize every code (and the part-filled last byte) per tensor and blocked
        TensorValue qx = TensorValue.ofDoubles(DType.F32, null, java.util.stream.DoubleStream.concat(java.util.Arrays.stream(floats(DType.F32, 33, 18).doubles())
                .map(v -> v * 3), java.util.stream.DoubleStream.of(2.5, -0.5, 1e9, Double.NaN, -1e9, 0.25)).toArray());
        double[] blockScales = new double[16];
        for (int i = 0; i < 16; i++) blockScales[i] = 0.25 + 0.5 * (i % 5);
        for (DType yt : PACKED) {
            TensorValue zp = yt == DType.F4E2M1 ? TensorValue.ofDoubles(yt, new long[] {3}, 0, 0.5, -1)
                    : TensorValue.ofLongs(yt, new long[] {3}, 1, 0, yt == DType.U4 || yt == DType.U2 ? 2 : -1);
            c.add(new Case(Kernels.QUANTIZE, List.of(qx, TensorValue.ofDoubles(DType.F32, null, 0.5, 1, 3), zp), yt, 24,
                    new long[] {2, 3, 4, 0, DType.F32.onnxCode(), yt.onnxCode(), 1, 1}, new double[0], 0));
            c.add(new Case(Kernels.QUANTIZE, List.of(qx, TensorValue.ofDoubles(DType.F32, null, 0.7)), yt, 24,
                    new long[] {1, 1, 24, 0, DType.F32.onnxCode(), yt.onnxCode(), 0, 1}, new double[0], 0));
            long[] bz = new long[16];
            for (int i = 0; i < 16; i++) bz[i] = i % 3 - (yt == DType.U4 || yt == DType.U2 ? 0 : 1);
            TensorValue blockZp = yt == DType.F4E2M1 ? TensorValue.ofDoubles(yt, new long[] {16}, java.util.Arrays.stream(bz).asDoubleStream().map(v -> v / 2).toArray())
                    : TensorValue.ofLongs(yt, new long[] {16}, bz);
            c.add(new Case(Kernels.QUANTIZE, List.of(qx, TensorValue.ofDoubles(DType.F32, null, java.util.Arrays.copyOf(blockScales, 16)), blockZp), yt, 24,
                    new long[] {2, 3, 4, 0, DType.F32.onnxCode(), yt.onnxCode(), 1, 1, 2}, new double[0], 0));
            TensorValue codes = packedCodes(yt);
            DType st = yt == DType.F4E2M1 ? DType.F16 : DType.F32;
            c.add(new Case(Kernels.QUANTIZE, List.of(codes, TensorValue.ofDoubles(st, null, 1.5),
                    yt == DType.F4E2M1 ? TensorValue.ofDoubles(yt, new long[] {1}, -0.5) : TensorValue.ofLongs(yt, new long[] {1}, 1)), st, codes.elements(),
                    new long[] {1, 1, codes.elements(), 1, yt.onnxCode(), st.onnxCode(), 1, 0}, new double[0], 0));
            // dequantize blocked: x [2, 3, 4] of codes, axis 1 in blocks of 2
            long[] xc = new long[24];
            for (int i = 0; i < 24; i++) xc[i] = i % (1 << yt.bits());
            TensorValue bx = yt == DType.F4E2M1 ? TensorValue.ofDoubles(yt, new long[] {24}, java.util.Arrays.stream(xc).asDoubleStream().map(v -> v / 2 - 2).toArray())
                    : TensorValue.ofLongs(yt, new long[] {24}, xc);
            c.add(new Case(Kernels.QUANTIZE, List.of(bx, TensorValue.ofDoubles(st, null, java.util.Arrays.copyOf(blockScales, 16)), blockZp), st, 24,
                    new long[] {2, 3, 4, 1, yt.onnxCode(), st.onnxCode(), 1, 0, 2}, new double[0], 0));
        }
        // blocked int8 and uint8: x [2, 5, 3] along axis 1 in blocks of 2 (3 blocks, the last one short)
        for (DType yt : new DType[] {DType.U8, DType.I8}) {
            double[] s18 = new double[18];
            long[] z18 = new long[18];
            for (int i = 0; i < 18; i++) { s18[i] = 0.1 + 0.3 * (i % 7); z18[i] = (i % 4) * (yt == DType.U8 ? 40 : 20) - (yt == DType.U8 ? 0 : 30); }
            TensorValue x30 = TensorValue.ofDoubles(DType.F32, null, java.util.Arrays.copyOf(floats(DType.F32, 34, 30).doubles(), 30));
            c.add(new Case(Kernels.QUANTIZE, List.of(x30, TensorValue.ofDoubles(DType.F32, null, s18), TensorValue.ofLongs(yt, null, z18)), yt, 30,
                    new long[] {2, 5, 3, 0, DType.F32.onnxCode(), yt.onnxCode(), 1, 1, 2}, new double[0], 0));
            c.add(new Case(Kernels.QUANTIZE, List.of(longs(yt, 35, 30, 1000), TensorValue.ofDoubles(DType.F32, null, s18), TensorValue.ofLongs(yt, null, z18)), DType.F32, 30,
                    new long[] {2, 5, 3, 1, yt.onnxCode(), DType.F32.onnxCode(), 1, 0, 2}, new double[0], 0));
        }
        return c;
    }

    /** Doubles over the cases that break conversions: NaN, infinities, signed zeros, f16 limits and subnormals, ties, out-of-range. */
    private static final double[] SPECIAL = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 0.5, -1.5, 2.5, 3.5,
        65504, 65519.99, 65520, 1e-8, -3e-5, 6.0e-8, 2.9802322387695312e-8, 1.00048828125, 1.0009765625, 300.7, -129.9, 255.5, -1,
        3e9, -3e9, 1e20, -1e20, 9.3e18, 1.7e308, 3.4028235677973366e38, 1 + 0x1p-9, 1 + 0x1p-8 + 0x1p-9};
    /** Longs over the cases that break conversions: beyond 2^53, beyond 2^31, negative, the limits. */
    private static final long[] SPECIAL_LONGS = {0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 65535, 65536, 2147483647L, 2147483648L, -2147483649L,
        (1L << 53) + 1, (1L << 24) + 1, Long.MAX_VALUE, Long.MIN_VALUE, 123456789012345L, -987654321098L, 2049, 16777217};

    private static final DType[] TYPES = {DType.F32, DType.F16, DType.BF16, DType.F64, DType.I64, DType.I32, DType.I16, DType.I8, DType.U64, DType.U32,
        DType.U16, DType.U8, DType.BOOL, DType.F8E4M3FN, DType.F8E4M3FNUZ, DType.F8E5M2, DType.F8E5M2FNUZ};
    private static final DType[] FLOAT8 = {DType.F8E4M3FN, DType.F8E4M3FNUZ, DType.F8E5M2, DType.F8E5M2FNUZ};
    private static final DType[] PACKED = {DType.U4, DType.I4, DType.F4E2M1, DType.U2, DType.I2};

    /** Every code of a packed type in order, then code 1 once more: 2^bits + 1 elements, so the last byte is part-filled. */
    private static TensorValue packedCodes(DType t) {
        int codes = 1 << t.bits(), n = codes + 1;
        byte[] b = new byte[Math.toIntExact(t.byteSize(n))];
        int per = 8 / t.bits();
        for (int i = 0; i < n; i++) b[i / per] |= (byte) ((i < codes ? i : 1) << (i % per * t.bits()));
        return new TensorValue(t, new long[] {n}, b);
    }

    /** Float8's edges: the maxima (448, 240, 57344), ties just below and above them, subnormal ties and the halves of the least subnormals. */
    private static final double[] FLOAT8_SPECIAL = {448, 464, 464.00001, 480, 240, 248, 248.0001, 256, 57344, 61440, 61439.99, 65536, -464.00001, -61440,
        0x1p-9, 0x1p-10, 0x1p-10 + 0x1p-30, 0x1p-17, 0x1p-18, 0x1p-18 + 0x1p-40, 3 * 0x1p-11, 3 * 0x1p-18, -0x1p-19, 0x1p-6 - 0x1p-10, 0x1p-14 - 0x1p-17,
        17, 19, 0.1, -0.3, 1e-300, -4.9e-324};

    private static TensorValue specials(DType t) {
        if (t.isIntegral()) return TensorValue.ofLongs(t, null, SPECIAL_LONGS);
        double[] v = java.util.Arrays.copyOf(SPECIAL, SPECIAL.length + FLOAT8_SPECIAL.length);
        System.arraycopy(FLOAT8_SPECIAL, 0, v, SPECIAL.length, FLOAT8_SPECIAL.length);
        return TensorValue.ofDoubles(t, null, v);
    }

    /** All 256 codes of a float8 type. */
    private static TensorValue allCodes(DType t) {
        byte[] b = new byte[256];
        for (int i = 0; i < 256; i++) b[i] = (byte) i;
        return new TensorValue(t, null, b);
    }

    private static TensorValue longs(DType t, long seed, int n, long bound) {
        Random r = new Random(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = r.nextLong() % bound;
        return TensorValue.ofLongs(t, null, v);
    }

    /** n integers of type t, uniform in [lo, hi]. */
    private static TensorValue small(DType t, long seed, int n, long lo, long hi) {
        Random r = new Random(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = lo + (long) (r.nextDouble() * (hi - lo + 1));
        return TensorValue.ofLongs(t, null, v);
    }

    private static void linearAttentionCases(List<Case> c) {
        long b = 2, steps = 5, hq = 4, hkv = 2, dk = 6, dv = 3;
        int qs = (int) (b * steps * hq * dk), ks = (int) (b * steps * hkv * dk), vs = (int) (b * steps * hkv * dv), outs = (int) (b * steps * hq * dv),
                state = (int) (b * hkv * dk * dv), heads = (int) (b * steps * hkv), rows = (int) (b * steps);
        for (DType t : new DType[] {DType.F32, DType.F16, DType.BF16}) {
            TensorValue q = floats(t, 70, qs), k = scaled(t, 71, ks, 0.1), v = floats(t, 72, vs), past = scaled(t, 73, state, 0.5);
            TensorValue decay = negative(t, 74, ks), beta = unit(t, 75, heads), headDecay = negative(t, 76, heads), scalarBeta = unit(t, 77, rows);
            long code = t.onnxCode();
            // gated_delta with every input, output then present (out given as zeros before it)
            c.add(new Case(Kernels.LINEAR_ATTENTION, List.of(q, k, v, past, decay, beta), t, outs,
                    new long[] {b, steps, hq, hkv, dk, dv, 1, 1, 1, 1, 1, 0, code, code}, new double[] {0.4}, 2));
            c.add(new Case(Kernels.LINEAR_ATTENTION, List.of(q, k, v, past, decay, beta, zeros(t, outs)), t, state,
                    new long[] {b, steps, hq, hkv, dk, dv, 1, 1, 1, 1, 1, 1, code, code}, new double[] {0.4}, 2));
            // linear without past; delta with one beta per step (no exp: exact)
            c.add(new Case(Kernels.LINEAR_ATTENTION, List.of(q, k, v), t, outs,
                    new long[] {b, steps, hq, hkv, dk, dv, 0, 0, 0, 0, 0, 0, code, code}, new double[] {0.4}, 0));
            c.add(new Case(Kernels.LINEAR_ATTENTION, List.of(q, k, v, scalarBeta, zeros(t, outs)), t, state,
                    new long[] {b, steps, hq, hkv, dk, dv, 0, 0, 0, 1, 0, 1, code, code}, new double[] {0.4}, 0));
            // gated per head with an f32 state (S != T): output, then present in f32
            TensorValue past32 = scaled(DType.F32, 78, state, 0.5);
            c.add(new Case(Kernels.LINEAR_ATTENTION, List.of(q, k, v, past32, headDecay), t, outs,
                    new long[] {b, steps, hq, hkv, dk, dv, 1, 1, 0, 0, 0, 0, code, DType.F32.onnxCode()}, new double[] {0.4}, 2));
            c.add(new Case(Kernels.LINEAR_ATTENTION, List.of(q, k, v, past32, headDecay, zeros(t, outs)), DType.F32, state,
                    new long[] {b, steps, hq, hkv, dk, dv, 1, 1, 0, 0, 0, 1, code, DType.F32.onnxCode()}, new double[] {0.4}, 2));
        }
    }

    private static TensorValue zeros(DType t, int n) {
        return TensorValue.ofDoubles(t, null, new double[n]);
    }

    private static TensorValue scaled(DType t, long seed, int n, double by) {
        double[] v = floats(DType.F64, seed, n).doubles();
        for (int i = 0; i < n; i++) v[i] *= by;
        return TensorValue.ofDoubles(t, null, v);
    }

    /** Log-space decays: -|N(0, 1)| / 10, as the ONNX node tests draw them. */
    private static TensorValue negative(DType t, long seed, int n) {
        double[] v = floats(DType.F64, seed, n).doubles();
        for (int i = 0; i < n; i++) v[i] = -Math.abs(v[i]) / 40;
        return TensorValue.ofDoubles(t, null, v);
    }

    /** Update rates in [0, 1). */
    private static TensorValue unit(DType t, long seed, int n) {
        Random r = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = r.nextDouble();
        return TensorValue.ofDoubles(t, null, v);
    }

    private static TensorValue floats(DType t, long seed, int n) {
        Random r = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = r.nextGaussian() * 4;
        return TensorValue.ofDoubles(t, null, v);
    }

    private static List<Case> typedCases() {
        List<Case> c = new ArrayList<>();
        for (DType from : TYPES) {
            for (DType to : TYPES) {
                TensorValue x = specials(from);
                c.add(new Case(Kernels.CAST, List.of(x), to, x.elements(), new long[] {x.elements(), from.onnxCode(), to.onnxCode()}, new double[0], 0));
                if (to.isFloat8()) c.add(new Case(Kernels.CAST, List.of(x), to, x.elements(), new long[] {x.elements(), from.onnxCode(), to.onnxCode(), 1}, new double[0], 0));
            }
        }
        for (DType from : FLOAT8) {
            for (DType to : TYPES) c.add(new Case(Kernels.CAST, List.of(allCodes(from)), to, 256, new long[] {256, from.onnxCode(), to.onnxCode(), 1}, new double[0], 0));
        }
        // float8e8m0: every code to every type and to itself; every type's special values to it in each round mode, with and without saturate
        for (DType to : TYPES) c.add(new Case(Kernels.CAST, List.of(allCodes(DType.F8E8M0)), to, 256, new long[] {256, 24, to.onnxCode(), 1}, new double[0], 0));
        c.add(new Case(Kernels.CAST, List.of(allCodes(DType.F8E8M0)), DType.F8E8M0, 256, new long[] {256, 24, 24, 1}, new double[0], 0));
        for (DType from : TYPES) {
            TensorValue x = specials(from);
            for (int saturate = 0; saturate <= 1; saturate++)
                for (int round = 0; round <= 2; round++)
                    c.add(new Case(Kernels.CAST, List.of(x), DType.F8E8M0, x.elements(), new long[] {x.elements(), from.onnxCode(), 24, saturate, round}, new double[0], 0));
        }
        // packed types: every code (and one more, an odd count that leaves the last byte part-filled) to every type and
        // every packed type; every type's special values to every packed type (whole bytes per thread on the GPU)
        for (DType from : PACKED) {
            TensorValue x = packedCodes(from);
            for (DType to : TYPES) c.add(new Case(Kernels.CAST, List.of(x), to, x.elements(), new long[] {x.elements(), from.onnxCode(), to.onnxCode(), 1}, new double[0], 0));
            for (DType to : PACKED) c.add(new Case(Kernels.CAST, List.of(x), to, x.elements(), new long[] {x.elements(), from.onnxCode(), to.onnxCode(), 1}, new double[0], 0));
        }
        for (DType from : TYPES) {
            TensorValue x = specials(from);
            for (DType to : PACKED) c.add(new Case(Kernels.CAST, List.of(x), to, x.elements(), new long[] {x.elements(), from.onnxCode(), to.onnxCode(), 1}, new double[0], 0));
        }
        for (DType t : new DType[] {DType.F16, DType.BF16}) {
            for (int op : new int[] {Kernels.RELU, Kernels.SIGMOID, Kernels.TANH, Kernels.GELU, Kernels.IDENTITY}) {
                boolean exact = op == Kernels.RELU || op == Kernels.IDENTITY;
                c.add(new Case(Kernels.UNARY, List.of(floats(t, op, 300)), t, 300, new long[] {300, op, t.onnxCode()}, new double[0], exact ? 0 : 2));
            }
            for (int op : new int[] {Kernels.ADD, Kernels.SUB, Kernels.MUL, Kernels.DIV, Kernels.RELU_GRAD}) {
                c.add(new Case(Kernels.BINARY, List.of(floats(t, 1, 120), floats(t, 2, 5)), t, 120,
                        new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, t.onnxCode()}, new double[0], 0));
            }
        }
        for (DType t : new DType[] {DType.I64, DType.I32, DType.I16, DType.I8, DType.U8}) {
            c.add(new Case(Kernels.UNARY, List.of(longs(t, 3, 100, Long.MAX_VALUE)), t, 100, new long[] {100, Kernels.RELU, t.onnxCode()}, new double[0], 0));
            for (int op : new int[] {Kernels.ADD, Kernels.SUB, Kernels.MUL, Kernels.DIV}) {
                // y [4, 5, 6]; b [5, 1] of non-zero divisors (with -1: INT_MIN / -1 wraps), broadcast.
                TensorValue b = TensorValue.ofLongs(t, null, 7, -1, 3, t == DType.U8 ? 200 : -100, 1);
                c.add(new Case(Kernels.BINARY, List.of(longs(t, 4, 120, Long.MAX_VALUE), b), t, 120,
                        new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, t.onnxCode()}, new double[0], 0));
            }
        }
        c.add(new Case(Kernels.BINARY, List.of(TensorValue.ofLongs(DType.I64, null, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE),
                TensorValue.ofLongs(DType.I64, null, -1, 1, 1)), DType.I64, 3, new long[] {Kernels.DIV, 1, 3, 1, 1, DType.I64.onnxCode()}, new double[0], 0));
        // data [2, 5, 3] gathered on axis 1 by [4, -1, 0, -5, 2]: y [2, 5, 3]; every element size, both index types.
        for (DType t : new DType[] {DType.F32, DType.I64, DType.F16, DType.U8, DType.BOOL}) {
            TensorValue data = t.isIntegral() ? longs(t, 5, 30, 1000) : floats(t, 5, 30);
            for (DType it : new DType[] {DType.I64, DType.I32}) {
                c.add(new Case(Kernels.GATHER, List.of(data, TensorValue.ofLongs(it, null, 4, -1, 0, -5, 2)), t, 30,
                        new long[] {2, 5, 3, 5, t.bytes(), it.onnxCode()}, new double[0], 0));
                // data [10, 3] bounded along axis 0 with runtime extent 4, by indices known before the run: -1 is row 3
                TensorValue four = TensorValue.ofLongs(DType.I64, null, 4), zero = TensorValue.ofLongs(DType.I64, null, 0);
                c.add(new Case(Kernels.GATHER, List.of(data, TensorValue.ofLongs(it, null, 3, -1, 0, -4, 2), four), t, 15,
                        new long[] {1, 10, 3, 5, t.bytes(), it.onnxCode(), 0}, new double[0], 0));
                // by bounded indices [3, 2] (per 2) with runtime extent 2: four real indices, the rows of the last two (padding) zeros;
                // with extents 0 and 0 (nothing kept, nothing selected): every row padding, zeros
                c.add(new Case(Kernels.GATHER, List.of(data, TensorValue.ofLongs(it, null, 3, -1, 2, -4, 0, 0), four, TensorValue.ofLongs(DType.I64, null, 2)), t, 18,
                        new long[] {1, 10, 3, 6, t.bytes(), it.onnxCode(), 2}, new double[0], 0));
                c.add(new Case(Kernels.GATHER, List.of(data, TensorValue.ofLongs(it, null, 0, 0), zero, zero), t, 6,
                        new long[] {1, 10, 3, 2, t.bytes(), it.onnxCode(), 1}, new double[0], 0));
            }
        }
        // out [3, 4] = cond [3, 1] ? x [1, 4] : y [3, 4].
        for (DType t : new DType[] {DType.F32, DType.I64, DType.BF16, DType.BOOL, DType.I8}) {
            TensorValue x = t.isIntegral() ? longs(t, 6, 4, 1000) : floats(t, 6, 4), y = t.isIntegral() ? longs(t, 7, 12, 1000) : floats(t, 7, 12);
            c.add(new Case(Kernels.WHERE, List.of(TensorValue.ofLongs(DType.BOOL, null, 1, 0, 1), x, y), t, 12,
                    new long[] {2, 3, 4, 1, 0, 0, 1, 4, 1, t.bytes()}, new double[0], 0));
        }
        // y [4, 3] = a [4, 3] == b [3] (broadcast over rows), with equal, unequal, NaN and signed-zero pairs.
        for (DType t : TYPES) {
            TensorValue a = t.isIntegral() ? TensorValue.ofLongs(t, null, 1, 2, 3, 0, 2, 4, 1, 1, 1, -1, 2, 3)
                    : TensorValue.ofDoubles(t, null, 1, 2, 3, -0.0, 2, Double.NaN, 1, 1, 1, Double.NaN, 2, 3.0001);
            TensorValue b = t.isIntegral() ? TensorValue.ofLongs(t, null, 1, 2, 3) : TensorValue.ofDoubles(t, null, 0.0, 2, Double.NaN);
            c.add(new Case(Kernels.COMPARE, List.of(a, b), DType.BOOL, 12, new long[] {Kernels.EQUAL, 2, 4, 3, 3, 1, 0, 1, t.onnxCode()}, new double[0], 0));
        }
        // copy, transpose and concat_slice of 1-, 2- and 8-byte elements.
        for (DType t : new DType[] {DType.I8, DType.F16, DType.I64}) {
            TensorValue x = longsOrFloats(t, 24);
            c.add(new Case(Kernels.COPY, List.of(x), t, 24, new long[] {24, t.bytes()}, new double[0], 0));
            c.add(new Case(Kernels.TRANSPOSE, List.of(x), t, 24, new long[] {3, 4, 2, 3, 1, 12, 4, t.bytes()}, new double[0], 0));
            c.add(new Case(Kernels.CONCAT_SLICE, List.of(longsOrFloats(t, 6)), t, 16, new long[] {2, 3, 8, 4, t.bytes()}, new double[0], 0));
        }
        indexCases(c);
        return c;
    }

    /** The shape and index kernels (index.cuh) on 1-, 2-, 4- and 8-byte elements: negative and zero strides, every pad mode, reductions over duplicate indices. */
    /** roi_align, deform_conv, max_unpool and det: bit for bit (the same double arithmetic in the same order). */
    private static void detectionCases(List<Case> c) {
        // roi_align: X [2, 3, 6, 7]; rois inside, across the edges, degenerate; every mode, coordinate mode, fixed and adaptive grid
        TensorValue x = TensorValue.ofFloats(null, random(70, 2 * 3 * 6 * 7));
        TensorValue rois = TensorValue.ofFloats(null, 0, 0, 12, 10, 2.5f, 1.25f, 5, 4, 6, 3, 20, 15, -3, -2, 4, 5, 8, 4, 7, 6);
        TensorValue batch = TensorValue.ofLongs(DType.I64, null, 0, 1, 1, 0, 1);
        for (long mode = 0; mode <= 1; mode++)
            for (long half = 0; half <= 1; half++)
                for (long ratio : new long[] {0, 2})
                    c.add(new Case(Kernels.ROI_ALIGN, List.of(x, rois, batch), DType.F32, 5 * 3 * 3 * 4,
                            new long[] {2, 3, 6, 7, 5, 3, 4, ratio, mode, half}, new double[] {0.5}, 0));   // adaptive + half_pixel: the degenerate roi samples nothing
        // deform_conv: X [2, 4, 5, 6], W [6, 2, 2, 3] (group 2), offset_group 2, offsets up to +-3 pixels; with and without B and mask
        TensorValue dx = TensorValue.ofFloats(null, random(71, 2 * 4 * 5 * 6)), dw = TensorValue.ofFloats(null, random(72, 6 * 2 * 2 * 3));
        // pads (1, 0) at the start, strides (2, 1), dilations (1, 2): OH = (5 + 1 + 0 - 2) / 2 + 1 = 3, OW = (6 + 0 + 0 - 5) / 1 + 1 = 2
        TensorValue off = TensorValue.ofFloats(null, scaled(random(73, 2 * 2 * 6 * 2 * 3 * 2), 1.7f));
        TensorValue db = TensorValue.ofFloats(null, random(74, 6)), mask = TensorValue.ofFloats(null, random(75, 2 * 2 * 6 * 3 * 2, true));
        long[] deform = {2, 4, 5, 6, 6, 3, 2, 2, 3, 2, 1, 1, 0, 1, 2, 2, 2, 1, 1};
        c.add(new Case(Kernels.DEFORM_CONV, List.of(dx, dw, off, db, mask), DType.F32, 2 * 6 * 3 * 2, deform, new double[0], 0));
        long[] plain = deform.clone();
        plain[17] = 0;
        plain[18] = 0;
        c.add(new Case(Kernels.DEFORM_CONV, List.of(dx, dw, off), DType.F32, 2 * 6 * 3 * 2, plain, new double[0], 0));
        long[] maskOnly = deform.clone();
        maskOnly[17] = 0;
        c.add(new Case(Kernels.DEFORM_CONV, List.of(dx, dw, off, mask), DType.F32, 2 * 6 * 3 * 2, maskOnly, new double[0], 0));
        // max_unpool: X [1, 2, 2, 3] into the inferred [1, 2, 4, 6], output [1, 2, 5, 7]; phase 0 zeroes, phase 1 scatters
        long[] unpool = {1, 12, 70, 4, 1, 2, 4, 6, 1, 2, 5, 7};
        TensorValue ux = TensorValue.ofFloats(null, random(76, 12));
        TensorValue ui = TensorValue.ofLongs(DType.I64, null, 0, 3, 5, 8, 10, 22, 24, 27, 29, 40, 43, 47);
        c.add(new Case(Kernels.MAX_UNPOOL, List.of(ux, ui), DType.F32, 70, unpool, new double[0], 0));
        long[] zero = unpool.clone();
        zero[0] = 0;
        c.add(new Case(Kernels.MAX_UNPOOL, List.of(), DType.F32, 70, zero, new double[0], 0));
        // det: 7 matrices of 5 x 5 (one singular: two equal rows), and 3 of 1 x 1
        float[] m = random(77, 7 * 25);
        System.arraycopy(m, 25, m, 30, 5);
        c.add(Case.f32(Kernels.DET, List.of(m), 7, new long[] {7, 5}, new double[0], 0));
        c.add(Case.f32(Kernels.DET, List.of(random(78, 3)), 3, new long[] {3, 1}, new double[0], 0));
    }

    private static void indexCases(List<Case> c) {
        for (DType t : new DType[] {DType.I8, DType.F16, DType.F32, DType.I64}) {
            TensorValue x = longsOrFloats(t, 24);
            // x [4, 6]: rows reversed, columns 1, 3, 5; then broadcast to [2, 4, 6]
            c.add(new Case(Kernels.STRIDED_COPY, List.of(x), t, 12, new long[] {2, 4, 3, -6, 2, 19, t.bytes()}, new double[0], 0));
            c.add(new Case(Kernels.STRIDED_COPY, List.of(x), t, 48, new long[] {3, 2, 4, 6, 0, 6, 1, 0, t.bytes()}, new double[0], 0));
            // x [2, 3] into y [4, 7], begin [1, 2]: every mode; constant with and without a value
            TensorValue six = longsOrFloats(t, 6);
            for (int mode = 0; mode < 4; mode++)
                c.add(new Case(Kernels.PAD, List.of(six), t, 28, new long[] {2, 4, 7, 2, 3, 1, 2, mode, t.bytes()}, new double[0], 0));
            c.add(new Case(Kernels.PAD, List.of(six, longsOrFloats(t, 1)), t, 28, new long[] {2, 4, 7, 2, 3, -1, 2, 0, t.bytes()}, new double[0], 0));
            c.add(new Case(Kernels.TRILU, List.of(x), t, 24, new long[] {2, 3, 4, 1, 1, t.bytes()}, new double[0], 0));
            c.add(new Case(Kernels.TRILU, List.of(x), t, 24, new long[] {2, 3, 4, -1, 0, t.bytes()}, new double[0], 0));
            for (DType it : new DType[] {DType.I64, DType.I32}) {
                TensorValue idx = TensorValue.ofLongs(it, null, 0, -1, 2, 1, 2, 0, -3, 1);   // [2, 4] into axis 0 of [3, 4]
                c.add(new Case(Kernels.GATHER_ELEMENTS, List.of(longsOrFloats(t, 12), idx), t, 8, new long[] {2, 2, 4, 3, 4, 0, t.bytes(), it.onnxCode()}, new double[0], 0));
                for (int red = 0; red < 5; red++)
                    c.add(new Case(Kernels.SCATTER_ELEMENTS, List.of(longsOrFloats(t, 12), idx, longsOrFloats(t, 8)), t, 12,
                            new long[] {2, 2, 4, 3, 4, 0, red, t.bytes(), t.onnxCode(), it.onnxCode()}, new double[0], 0));
                // the same indices and updates bounded along axis 0 with runtime extent 1: the first row only (the second's indices not applied)
                c.add(new Case(Kernels.SCATTER_ELEMENTS, List.of(longsOrFloats(t, 12), idx, longsOrFloats(t, 8), TensorValue.ofLongs(DType.I64, null, 1)), t, 12,
                        new long[] {2, 2, 4, 3, 4, 0, 1, t.bytes(), t.onnxCode(), it.onnxCode(), 4}, new double[0], 0));
                // data [3, 4, 2], indices [2, 2] (k = 2), slices of 2
                c.add(new Case(Kernels.GATHER_ND, List.of(longsOrFloats(t, 24), TensorValue.ofLongs(it, null, 2, -1, 0, 1)), t, 4,
                        new long[] {1, 2, 2, 2, 3, 4, t.bytes(), it.onnxCode()}, new double[0], 0));
                // the same data bounded along axis 0 with runtime extent 2: -1 is row 1, not row 2
                TensorValue two = TensorValue.ofLongs(DType.I64, null, 2);
                c.add(new Case(Kernels.GATHER_ND, List.of(longsOrFloats(t, 24), TensorValue.ofLongs(it, null, 1, -1, 0, 1), two), t, 4,
                        new long[] {1, 2, 2, 2, 3, 4, t.bytes(), it.onnxCode(), 0}, new double[0], 0));
                // by bounded tuples (one per step) with runtime extent 1: the second tuple is padding, its slice zeros
                c.add(new Case(Kernels.GATHER_ND, List.of(longsOrFloats(t, 24), TensorValue.ofLongs(it, null, -2, 3, 0, 0), two, TensorValue.ofLongs(DType.I64, null, 1)), t, 4,
                        new long[] {1, 2, 2, 2, 3, 4, t.bytes(), it.onnxCode(), 1}, new double[0], 0));
                // data [4, 3], indices [3, 1] with a duplicate, updates [3, 3]
                for (int red = 0; red < 5; red++)
                    c.add(new Case(Kernels.SCATTER_ND, List.of(longsOrFloats(t, 12), TensorValue.ofLongs(it, null, 1, -1, 1), longsOrFloats(t, 9)), t, 12,
                            new long[] {3, 1, 3, 4, red, t.bytes(), t.onnxCode(), it.onnxCode()}, new double[0], 0));
                // the same indices and updates bounded along axis 0 (per 1) with runtime extent 2: the third tuple (-1's duplicate 1) not applied
                c.add(new Case(Kernels.SCATTER_ND, List.of(longsOrFloats(t, 12), TensorValue.ofLongs(it, null, 1, -1, 1), longsOrFloats(t, 9), TensorValue.ofLongs(DType.I64, null, 2)), t, 12,
                        new long[] {3, 1, 3, 4, 1, t.bytes(), t.onnxCode(), it.onnxCode(), 1}, new double[0], 0));
            }
            // tensor_scatter: past [2, 2, 5, 3], update [2, 2, 3, 3] at write indices [1, 2] (linear) or [4, -1] (circular: wraps)
            for (long[] w : new long[][] {{1, 2, 0}, {4, -1, 1}})
                c.add(new Case(Kernels.TENSOR_SCATTER, List.of(longsOrFloats(t, 60), longsOrFloats(t, 36), TensorValue.ofLongs(DType.I64, null, w[0], w[1])), t, 60,
                        new long[] {2, 2, 5, 3, 3, w[2], t.bytes(), 1, DType.I64.onnxCode()}, new double[0], 0));
            // indices [2, 2] of f32 (truncated, one out of range), depth 5 at axis 1: y [2, 5, 2]
            c.add(new Case(Kernels.ONEHOT, List.of(TensorValue.ofFloats(null, 1.7f, -1, 7, 0), longsOrFloats(t, 2)), t, 20,
                    new long[] {2, 5, 2, DType.F32.onnxCode(), t.bytes()}, new double[0], 0));
        }
    }

    private static TensorValue longsOrFloats(DType t, int n) {
        return t.isIntegral() ? longs(t, n, n, Long.MAX_VALUE) : floats(t, n, n);
    }

    /**
     * rotary: 4D halves with positions (one negative), 3D interleaved without, a partial rotary dim;
     * attention: each case's last pointer is the one compared (Y, present_value or qk_matmul_output),
     * covering 4D and 3D, GQA, f32 and bool masks broadcast and shorter than the keys, causal with
     * a past and with nonpad_kv_seqlen, softcap, every qk mode, and a fully masked row.
     */
    private static void rotaryAndAttention(List<Case> c) {
        long[] pos = {0, 5, -1, 7, 2, 3};   // [B 2, S 3] into 9 cache rows
        TensorValue positions = TensorValue.ofLongs(DType.I64, new long[] {2, 3}, pos);
        // x [2, 4 heads, 3, 8]: strides b 96, h 24, s 8; full rotation (cache [9, 4]) and rd 4 (cache [9, 2])
        c.add(new Case(Kernels.ROTARY, List.of(TensorValue.ofFloats(null, random(40, 192)), TensorValue.ofFloats(null, random(41, 36)),
                TensorValue.ofFloats(null, random(42, 36)), positions), DType.F32, 192, new long[] {2, 3, 4, 8, 8, 0, 1, 96, 24, 8, 9}, new double[0], 0));
        c.add(new Case(Kernels.ROTARY, List.of(TensorValue.ofFloats(null, random(40, 192)), TensorValue.ofFloats(null, random(41, 18)),
                TensorValue.ofFloats(null, random(42, 18)), positions), DType.F32, 192, new long[] {2, 3, 4, 8, 4, 1, 1, 96, 24, 8, 9}, new double[0], 0));
        // x [2, 3, 32] as 4 heads of 8: strides b 96, h 8, s 32; caches [2, 3, 4] without positions, interleaved
        c.add(Case.f32(Kernels.ROTARY, List.of(random(43, 192), random(44, 24), random(45, 24)), 192,
                new long[] {2, 3, 4, 8, 8, 1, 0, 96, 8, 32, 6}, new double[0], 0));
        // causal_conv: x [2, 3, 7], w [3, 1, 4], bias [3], past [2, 3, 3]; y (silu: within 2 ulp, exp) or present compared;
        // f32 with and without the optional inputs, f16 and bf16
        for (DType t : new DType[] {DType.F32, DType.F16, DType.BF16}) {
            TensorValue cx = floats(t, 60, 42), cw = floats(t, 61, 12), cb = floats(t, 62, 3), cp = floats(t, 63, 18);
            c.add(new Case(Kernels.CAUSAL_CONV, List.of(cx, cw, cb, cp), t, 42, new long[] {2, 3, 7, 4, 1, 1, 1, 0, t.onnxCode()}, new double[0], 2));
            c.add(new Case(Kernels.CAUSAL_CONV, List.of(cx, cw), t, 42, new long[] {2, 3, 7, 4, 0, 0, 0, 0, t.onnxCode()}, new double[0], 0));
            c.add(new Case(Kernels.CAUSAL_CONV, List.of(cx, cw, cp, TensorValue.ofDoubles(t, null, new double[42])), t, 18, new long[] {2, 3, 7, 4, 0, 1, 0, 1, t.onnxCode()}, new double[0], 0));
        }
        // a sequence shorter than the state (L 2, K 5) without past: present is zeros then x
        c.add(new Case(Kernels.CAUSAL_CONV, List.of(floats(DType.F32, 64, 12), floats(DType.F32, 65, 15), TensorValue.ofDoubles(DType.F32, null, new double[12])), DType.F32, 24,
                new long[] {2, 3, 2, 5, 0, 0, 0, 1, DType.F32.onnxCode()}, new double[0], 0));
        // linear_attention: B 2, T 5, Hq 4, Hkv 2 (groups of 2), dk 6, dv 3; keys and decays small so the delta rules stay bounded;
        // exact where no exp is taken, within 2 ulp with decay
        linearAttentionCases(c);
        detectionCases(c);
        // attention: B 2, Hq 4, Hkv 2, Sq 3, Skv 5, D 8, Dv 6
        int b = 2, hq = 4, hkv = 2, sq = 3, skv = 5, d = 8, dv = 6, past = 2, total = past + skv;
        float[] q = random(50, b * hq * sq * d), k = random(51, b * hkv * skv * d), v = random(52, b * hkv * skv * dv);
        float[] pk = random(53, b * hkv * past * d), pv = random(54, b * hkv * past * dv);
        // a float mask [Sq, 6] (broadcast over B and H, one key short: padded with -inf), a bool mask [B, 1, Sq, T] with row (1, *, 2) all false
        float[] fmask = random(55, sq * 6);
        byte[] bmask = new byte[b * sq * total];
        Random r = new Random(56);
        for (int i = 0; i < bmask.length; i++) bmask[i] = (byte) (r.nextInt(3) == 0 ? 0 : 1);
        java.util.Arrays.fill(bmask, (1 * sq + 2) * total, (1 * sq + 3) * total, (byte) 0);
        TensorValue boolMask = new TensorValue(DType.BOOL, new long[] {bmask.length}, bmask);
        for (int mode = 0; mode <= 3; mode++) {
            // 4D, GQA, float mask, causal over a past of 2; present_key, present_value and qk listed: qk compared
            long[] ints = {b, hq, hkv, sq, skv, past, d, dv, 0, 1, 0, 0, 0, 6, 6, 1, 1, 0, 1, 1, 1, mode, -1, -1};
            c.add(Case.f32(Kernels.ATTENTION, List.of(q, k, v, fmask, pk, pv, new float[b * hq * sq * dv], new float[b * hkv * total * d],
                    new float[b * hkv * total * dv]), b * hq * sq * total, ints, new double[] {0.3, mode == 1 ? 2.0 : 0.0}, 2));
        }
        // the same with present_value last (qk not listed), then Y alone
        c.add(Case.f32(Kernels.ATTENTION, List.of(q, k, v, fmask, pk, pv, new float[b * hq * sq * dv], new float[b * hkv * total * d]),
                b * hkv * total * dv, new long[] {b, hq, hkv, sq, skv, past, d, dv, 0, 1, 0, 0, 0, 6, 6, 1, 1, 0, 1, 1, 0, 0, -1, -1}, new double[] {0.3, 0.0}, 0));
        c.add(Case.f32(Kernels.ATTENTION, List.of(q, k, v, fmask, pk, pv), b * hq * sq * dv,
                new long[] {b, hq, hkv, sq, skv, past, d, dv, 0, 1, 0, 0, 0, 6, 6, 1, 1, 0, 0, 0, 0, 0, -1, -1}, new double[] {0.3, 1.5}, 2));
        // 3D ([B, S, H*D]), bool mask [B, 1, Sq, T] (strides b 21, h 0, q 7), no past (T = Skv = 7 here), Y and qk mode 3
        int s3 = 7;
        float[] k3 = random(57, b * hkv * s3 * d), v3 = random(58, b * hkv * s3 * dv);
        c.add(new Case(Kernels.ATTENTION, List.of(TensorValue.ofFloats(null, q), TensorValue.ofFloats(null, k3), TensorValue.ofFloats(null, v3), boolMask,
                TensorValue.ofFloats(null, new float[b * hq * sq * dv])), DType.F32, b * hq * sq * s3,
                new long[] {b, hq, hkv, sq, s3, 0, d, dv, 1, 1, 1, 21, 0, 7, 7, 0, 0, 0, 0, 0, 1, 3, -1, -1}, new double[] {0.35, 0.0}, 2));
        c.add(new Case(Kernels.ATTENTION, List.of(TensorValue.ofFloats(null, q), TensorValue.ofFloats(null, k3), TensorValue.ofFloats(null, v3), boolMask),
                DType.F32, b * hq * sq * dv, new long[] {b, hq, hkv, sq, s3, 0, d, dv, 1, 1, 1, 21, 0, 7, 7, 0, 0, 0, 0, 0, 0, 0, -1, -1}, new double[] {0.35, 0.0}, 2));
        // a sliding window (left 1, right 2; Attention-25) over the 3D bool-mask case, and a left-only window with a past, causal
        c.add(new Case(Kernels.ATTENTION, List.of(TensorValue.ofFloats(null, q), TensorValue.ofFloats(null, k3), TensorValue.ofFloats(null, v3), boolMask),
                DType.F32, b * hq * sq * dv, new long[] {b, hq, hkv, sq, s3, 0, d, dv, 1, 1, 1, 21, 0, 7, 7, 0, 0, 0, 0, 0, 0, 0, 1, 2}, new double[] {0.35, 0.0}, 2));
        c.add(Case.f32(Kernels.ATTENTION, List.of(q, k, v, fmask, pk, pv), b * hq * sq * dv,
                new long[] {b, hq, hkv, sq, skv, past, d, dv, 0, 1, 0, 0, 0, 6, 6, 1, 1, 0, 0, 0, 0, 0, 2, -1}, new double[] {0.3, 0.0}, 2));
        // causal with nonpad_kv_seqlen [7, 2] (batch 1: offset -1, its first row fully masked), 4D, no mask
        TensorValue nonpad = TensorValue.ofLongs(DType.I64, new long[] {2}, 7, 2);
        c.add(new Case(Kernels.ATTENTION, List.of(TensorValue.ofFloats(null, q), TensorValue.ofFloats(null, k3), TensorValue.ofFloats(null, v3), nonpad),
                DType.F32, b * hq * sq * dv, new long[] {b, hq, hkv, sq, s3, 0, d, dv, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, -1, -1}, new double[] {0.35, 0.0}, 2));
    }

    /**
     * The system property that keeps only the cases of the kernels it lists (comma-separated names of
     * {@link Kernels}, e.g. {@code -Darenaplan.emulation.kernels=conv2d,flex_attention}): a quicker run
     * after editing one kernel; unset, every case runs.
     */
    static final String ONLY = "arenaplan.emulation.kernels";

    @Test
    void everyKernelOnTheCpuMatchesTheSimulator() throws Exception {
        assumeTrue(skip == null, skip);
        List<Case> cases = cases();
        String only = System.getProperty(ONLY);
        if (only != null) cases.removeIf(c -> !java.util.Set.of(only.split(",")).contains(c.kernel()));
        StringBuilder input = new StringBuilder();
        List<TensorValue> want = new ArrayList<>();
        List<double[]> bounds = new ArrayList<>();
        try (SimDevice sim = SimDevice.open(DeviceOptions.DEFAULT)) {
            for (Case c : cases) {
                byte[][] args = new byte[c.inputs().size() + 1][];
                for (int i = 0, k = 0; i < args.length; i++) if (i != c.comparedArg()) args[i] = c.inputs().get(k++).bytes();
                args[c.comparedArg()] = c.initial() != null ? c.initial().bytes().clone()
                        : new byte[Math.toIntExact(c.out().byteSize(c.outputs()))];   // packed types: ceil(n * bits / 8)
                want.add(new TensorValue(c.out(), new long[] {c.outputs()}, onSimulator(sim, c, args)));
                bounds.add(c.ulps() == TF32 ? tf32Bound(sim, c, args) : null);
                KernelCall shape = new KernelCall(c.kernel(), List.of(), c.ints(), c.floats(), "shape");
                CudaKernelTable.Spec spec = CudaKernelTable.SPECS.get(c.kernel());
                String entry = CudaKernelTable.entry(shape, c.ulps() == TF32);
                CudaKernelTable.Geometry g = CudaKernelTable.geometry(entry, shape, spec);
                byte[][] slots = new byte[spec.slots()][];
                for (int i = 0; i < args.length; i++) slots[CudaKernelTable.slotOf(spec, c.ints(), args.length, i)] = args[i];
                input.append(entry).append(c.shift() > 0 ? "@" + c.shift() : "").append(' ').append(g.gridX()).append(' ').append(g.gridY()).append(' ').append(g.gridZ())
                        .append(' ').append(g.blockX()).append(' ').append(g.blockY()).append(' ').append(spec.slots())
                        .append(' ').append(CudaKernelTable.slotOf(spec, c.ints(), args.length, c.comparedArg()));
                for (byte[] s : slots) input.append(' ').append(s == null ? 0 : s.length).append(' ').append(s == null || s.length == 0 ? "-" : HexFormat.of().formatHex(s));
                long[] ints = java.util.Arrays.copyOf(c.ints(), CudaKernelTable.MAX_INTS);
                for (long v : ints) input.append(' ').append(v);
                double[] floats = java.util.Arrays.copyOf(c.floats(), CudaKernelTable.MAX_FLOATS);
                for (double v : floats) input.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(v)));
                input.append('\n');
            }
        }
        Path file = EMULATOR.resolveSibling("cases.txt");
        Files.writeString(file, input, StandardCharsets.US_ASCII);
        List<String> lines = emulate(file);
        assertThat(lines).hasSize(cases.size());
        // again, each block's threads resumed in a shuffled order every round: a race between barriers changes bytes
        List<String> shuffled = emulate(file, "--shuffle", "1");
        assertThat(shuffled).hasSize(cases.size());
        long tf32Rounded = 0;
        for (int k = 0; k < cases.size(); k++) {
            Case c = cases.get(k);
            TensorValue got = new TensorValue(c.out(), new long[] {c.outputs()}, HexFormat.of().parseHex(lines.get(k).trim())), w = want.get(k);
            assertThat(got.elements()).isEqualTo(c.outputs());
            String what = "case " + k + " " + c.kernel() + " " + c.inputs() + " -> " + c.out().jsonName() + " " + java.util.Arrays.toString(c.ints());
            int at = java.util.Arrays.mismatch(lines.get(k).toCharArray(), shuffled.get(k).toCharArray());
            assertThat(at).as(what + ": its threads in a shuffled order give other bytes from byte " + at / 2).isEqualTo(-1);
            if (c.ulps() == TF32) {
                double[] g = got.doubles(), s = w.doubles(), bound = bounds.get(k);
                for (int i = 0; i < g.length; i++) {
                    assertThat(Math.abs(g[i] - s[i])).as(what + " (tf32) element " + i + ": emulated " + g[i] + " sim " + s[i]).isLessThanOrEqualTo(bound[i]);
                    if (g[i] != s[i]) tf32Rounded++;
                }
                continue;
            }
            if (c.ulps() == 0) {
                int i = got.firstDifference(w);
                assertThat(i).as(what + (i >= 0 ? " element " + i + ": emulated " + got.format(i) + " sim " + w.format(i) : "")).isEqualTo(-1);
                continue;
            }
            double[] g = got.doubles(), s = w.doubles();
            for (int i = 0; i < g.length; i++) {
                if (Double.compare(g[i], s[i]) == 0 || (Double.isNaN(g[i]) && Double.isNaN(s[i]))) continue;
                assertThat(Math.abs(g[i] - s[i])).as(what + " element " + i + ": emulated " + g[i] + " sim " + s[i])
                        .isLessThanOrEqualTo(c.ulps() * ulp(c.out(), s[i]));
            }
        }
        if (cases.stream().anyMatch(c -> c.ulps() == TF32)) assertThat(tf32Rounded).as("outputs of the TF32 kernels that differ from FP32 (their inputs were rounded)").isPositive();
    }

    /** One unit in the last place of {@code v} in type {@code t} (f64, f32, f16 or bf16). */
    private static double ulp(DType t, double v) {
        if (t == DType.F64) return Math.ulp(Math.max(Math.abs(v), Double.MIN_NORMAL));
        int e = Math.getExponent((float) Math.max(Math.abs(v), Float.MIN_NORMAL));
        return switch (t) {
            case F16 -> Math.scalb(1.0, Math.max(e, -14) - 10);
            case BF16 -> Math.scalb(1.0, e - 7);
            default -> Math.ulp((float) Math.max(Math.abs(v), Float.MIN_NORMAL));
        };
    }

    /** The simulator's result for the call over {@code args} (inputs, then the output, which starts as zeros like the emulator's). */
    private static byte[] onSimulator(SimDevice sim, Case c, byte[][] data) {
        List<DeviceBuffer> buffers = new ArrayList<>();
        try (DeviceStream s = sim.createStream("emulation")) {
            List<KernelArg> args = new ArrayList<>();
            int out = c.comparedArg();
            for (int i = 0; i < data.length; i++) {
                String name = i != out ? "in" + i : "out";
                DeviceBuffer b = sim.allocate(Math.max(1, data[i].length), name);
                buffers.add(b);
                sim.copyToDevice(s, data[i], b.base(), name);
                args.add(i != out ? KernelArg.read(b.base(), data[i].length, name) : KernelArg.write(b.base(), data[i].length, name));
            }
            sim.launch(s, new KernelCall(c.kernel(), args, c.ints(), c.floats(), "emulation"));
            byte[] result = new byte[data[out].length];
            sim.copyToHost(s, args.get(out), result);
            return result;
        } finally {
            buffers.forEach(DeviceBuffer::close);
        }
    }

    /** Feeds the cases from a file (a pipe both ways could fill up and block both processes); {@code args}: the emulator's (--shuffle SEED). */
    private static List<String> emulate(Path cases, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(EMULATOR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectInput(cases.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("emulator exit status").isZero();
        return out.lines().toList();
    }
}
