package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.sim.SimDevice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every kernel of the convention gives the simulator's result on the GPU: bit-identical where
 * the kernel uses only +, -, *, /, sqrt and comparisons in the simulator's order; within 2 ulp
 * where it calls exp, tanh or pow (CUDA's double versions may differ from Java's in the last
 * double bit). With cuBLAS in use gemm is compared within 1e-5 relative instead.
 */
@GpuTest
class KernelEquivalenceGpuTest {
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

    private static void same(List<float[]> inputs, int outputs, Function<List<KernelArg>, KernelCall> call, int ulps) {
        float[] want = KernelRun.run(sim, inputs, outputs, call);
        float[] got = KernelRun.run(cuda, inputs, outputs, call);
        String name = call.apply(List.of()).name();
        for (int i = 0; i < want.length; i++) {
            if (ulps == 0) {
                assertThat(Float.floatToIntBits(got[i])).as(name + " element " + i + ": cuda " + got[i] + " sim " + want[i])
                        .isEqualTo(Float.floatToIntBits(want[i]));
            } else {
                assertThat(Math.abs(got[i] - want[i])).as(name + " element " + i + ": cuda " + got[i] + " sim " + want[i])
                        .isLessThanOrEqualTo(ulps * Math.ulp(Math.max(Math.abs(want[i]), Float.MIN_NORMAL)));
            }
        }
    }

    private static Function<List<KernelArg>, KernelCall> call(String name, long[] ints, double... floats) {
        return args -> new KernelCall(name, args, ints, floats, "test-" + name);
    }

    @Test
    void unary() {
        for (int op : new int[] {Kernels.RELU, Kernels.SIGMOID, Kernels.TANH, Kernels.GELU, Kernels.IDENTITY}) {
            boolean exact = op == Kernels.RELU || op == Kernels.IDENTITY;
            same(List.of(KernelRun.random(op, 1000)), 1000, call(Kernels.UNARY, new long[] {1000, op, 1}), exact ? 0 : 2);
        }
    }

    @Test
    void binaryWithBroadcast() {
        // y [4, 5, 6]; a full, b [5, 1] broadcast over the first and last axes.
        for (int op : new int[] {Kernels.ADD, Kernels.SUB, Kernels.MUL, Kernels.DIV, Kernels.RELU_GRAD}) {
            same(List.of(KernelRun.random(1, 120), KernelRun.positive(2, 5)), 120,
                    call(Kernels.BINARY, new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, 1}), 0);
        }
    }

    @Test
    void gemmEveryTransposeWithBroadcastC() {
        int batch = 2, m = 17, n = 19, k = 23;
        int ulps = Cuda.cublasEnabled() ? 64 : 0;
        for (int ta = 0; ta <= 1; ta++) {
            for (int tb = 0; tb <= 1; tb++) {
                same(List.of(KernelRun.random(3, batch * m * k), KernelRun.random(4, batch * k * n), KernelRun.random(5, n)), batch * m * n,
                        call(Kernels.GEMM, new long[] {batch, m, n, k, ta, tb, m * k, k * n, 1, 0, 0, 1}, 0.5, 2.0), ulps);
                same(List.of(KernelRun.random(3, batch * m * k), KernelRun.random(4, batch * k * n)), batch * m * n,
                        call(Kernels.GEMM, new long[] {batch, m, n, k, ta, tb, m * k, k * n, 0, 0, 0, 0}, 1.0, 0.0), ulps);
            }
        }
    }

    @Test
    void softmaxLayernormBatchnormLrn() {
        for (int mode = Kernels.SOFTMAX_MODE; mode <= Kernels.HARDMAX_MODE; mode++) {
            same(List.of(KernelRun.random(6, 7 * 33)), 7 * 33, call(Kernels.SOFTMAX, new long[] {7, 33, 1, mode}), 2);
            same(List.of(KernelRun.random(6, 3 * 11 * 7)), 3 * 11 * 7, call(Kernels.SOFTMAX, new long[] {3, 11, 7, mode}), 2);
        }
        // layer normalisation over the last axis of [5, 64]: normalize mode 0 with scale and bias per column
        same(List.of(KernelRun.random(7, 5 * 64), KernelRun.random(8, 64), KernelRun.random(9, 64)), 5 * 64,
                call(Kernels.NORMALIZE, new long[] {Kernels.N_STANDARDIZE, 1, 1, 0, 0, 1, 1, 5, 64, 0, 0, 64, 1, 1, 1}, 1e-5), 0);
        same(List.of(KernelRun.random(10, 60), KernelRun.random(11, 3), KernelRun.random(12, 3), KernelRun.random(13, 3), KernelRun.positive(14, 3)), 60,
                call(Kernels.BATCHNORM, new long[] {2, 3, 10}, 1e-5), 0);
        same(List.of(KernelRun.random(15, 35)), 35, call(Kernels.LRN, new long[] {1, 7, 5, 5}, 1e-4, 0.75, 1.0), 2);
    }

    @Test
    void convGroupedStridedPaddedWithAndWithoutBias() {
        // x 1x4x9x9, w 6x2x3x3 (group 2), stride 2, pad 1, dilation 1 -> y 1x6x5x5.
        long[] ints = {1, 4, 9, 9, 6, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1};
        same(List.of(KernelRun.random(16, 324), KernelRun.random(17, 108), KernelRun.random(18, 6)), 150, call(Kernels.CONV2D, ints), 0);
        long[] noBias = ints.clone();
        noBias[16] = 0;
        same(List.of(KernelRun.random(16, 324), KernelRun.random(17, 108)), 150, call(Kernels.CONV2D, noBias), 0);
    }

    @Test
    void poolMaxAverageLpDilatedPadded3d() {
        // 2 planes of 4x5x6, window 2x2x3, strides 1,2,2, pads (1,0,1) and (0,1,1), dilations 1,2,1 -> 4x2x3.
        for (int mode : new int[] {Kernels.MAX, Kernels.AVERAGE, Kernels.LP}) {
            for (int include = 0; include <= 1; include++) {
                same(List.of(KernelRun.random(19, 240)), 48, call(Kernels.POOL, new long[] {3, 2, mode, include, 3,
                    4, 4, 2, 1, 1, 0, 1, 5, 2, 2, 2, 0, 1, 2, 6, 3, 3, 2, 1, 1, 1}), mode == Kernels.LP ? 2 : 0);
            }
        }
    }

    @Test
    void convNd3dAndTransposed() {
        // a 3-D Conv, x 1x4x5x6x7, w 6x2x3x3x3 (group 2) -> y 1x6x3x2x4; a 2-D ConvTranspose x 1x4x3x3, w 4x3x3x3 -> y 1x6x6x6.
        same(List.of(KernelRun.random(16, 840), KernelRun.random(17, 324), KernelRun.random(18, 6)), 144,
                call(Kernels.CONV_ND, new long[] {3, 1, 4, 6, 2, 1, 0, 5, 3, 3, 2, 1, 1, 6, 2, 3, 1, 0, 2, 7, 4, 3, 2, 1, 1}), 0);
        same(List.of(KernelRun.random(16, 36), KernelRun.random(17, 108)), 216,
                call(Kernels.CONV_ND, new long[] {2, 1, 4, 6, 2, 0, 1, 3, 6, 3, 2, 1, 1, 3, 6, 3, 2, 1, 1}), 0);
    }

    @Test
    void col2imAndAffineGrid() {
        // col2im: N 1, C 2, image 5x6, blocks 2x3, strides 1,2, pads 1 at the start, dilations 2,1 -> 3x3 blocks.
        same(List.of(KernelRun.random(41, 108)), 60, call(Kernels.COL2IM, new long[] {2, 1, 2, 5, 3, 2, 1, 1, 2, 6, 3, 3, 2, 1, 1}), 0);
        for (int align = 0; align <= 1; align++) {
            same(List.of(KernelRun.random(42, 12)), 48, call(Kernels.AFFINE_GRID, new long[] {2, 2, 3, 4, align}), 0);
            same(List.of(KernelRun.random(43, 12)), 18, call(Kernels.AFFINE_GRID, new long[] {1, 3, 2, 3, 1, align}), 0);
        }
    }

    @Test
    void resizeCubicAntialiasedAndCropped() {
        // x [2, 4, 5] -> [2, 3, 2] cubic with antialias; -> [2, 7, 3] linear tf_crop_and_resize, extrapolation 10.
        long[][] variants = {{2, 0, 0, 0, 1}, {1, 6, 0, 0, 0}};
        for (long[] v : variants) {
            long[] in = {2, 4, 5}, out = v[4] == 1 ? new long[] {2, 3, 2} : new long[] {2, 7, 3};
            double[] roi = {0, 0.2, -0.1, 1, 0.9, 1.2};
            long[] ints = new long[21];
            ints[0] = 3;
            System.arraycopy(v, 0, ints, 1, 5);
            for (int d = 0; d < 3; d++) {
                long[] a = {in[d], out[d], Double.doubleToRawLongBits((double) out[d] / in[d]), Double.doubleToRawLongBits(roi[d]),
                    Double.doubleToRawLongBits(roi[3 + d])};
                System.arraycopy(a, 0, ints, 6 + 5 * d, 5);
            }
            same(List.of(KernelRun.random(40, 40)), (int) (out[0] * out[1] * out[2]), call(Kernels.RESIZE, ints, -0.5, 10.0), 0);
        }
    }

    @Test
    void transposeCopyConcatSlice() {
        // x [2, 3, 4] -> y [4, 2, 3] (perm 2, 0, 1): strides into x are 1, 12, 4.
        same(List.of(KernelRun.random(20, 24)), 24, call(Kernels.TRANSPOSE, new long[] {3, 4, 2, 3, 1, 12, 4, 4}), 0);
        same(List.of(KernelRun.random(21, 50)), 50, call(Kernels.COPY, new long[] {50, 4}), 0);
        // x [2, 3] into the columns 4..6 of y [2, 8]: only those columns are compared meaningfully, the rest is as allocated.
        float[] simY = KernelRun.run(sim, List.of(KernelRun.random(22, 6)), 16, call(Kernels.CONCAT_SLICE, new long[] {2, 3, 8, 4, 4}));
        float[] cudaY = KernelRun.run(cuda, List.of(KernelRun.random(22, 6)), 16, call(Kernels.CONCAT_SLICE, new long[] {2, 3, 8, 4, 4}));
        for (int o = 0; o < 2; o++) for (int i = 4; i < 7; i++) assertThat(cudaY[o * 8 + i]).isEqualTo(simY[o * 8 + i]);
    }

    /** Inputs as device bytes, output of {@code out} x n: bit for bit equal on the GPU and the simulator. */
    private static void sameBits(List<TensorValue> inputs, DType out, int n, Function<List<KernelArg>, KernelCall> call) {
        List<byte[]> in = inputs.stream().map(TensorValue::bytes).toList();
        TensorValue want = new TensorValue(out, null, KernelRun.runBytes(sim, in, n * out.bytes(), call));
        TensorValue got = new TensorValue(out, null, KernelRun.runBytes(cuda, in, n * out.bytes(), call));
        int i = got.firstDifference(want);
        assertThat(i).as(call.apply(List.of()) + " -> " + out.jsonName() + (i >= 0 ? " element " + i + ": cuda " + got.format(i) + " sim " + want.format(i) : "")).isEqualTo(-1);
    }

    /** {@code values} as elements of {@code t} (rounded to nearest even for f16). */
    private static TensorValue typed(DType t, float[] values) {
        double[] d = new double[values.length];
        for (int i = 0; i < d.length; i++) d[i] = t.isIntegral() ? Math.max(t == DType.U8 ? 0 : -128, Math.min(t == DType.U8 ? 255 : 127, Math.rint(values[i] * 40))) : values[i];
        return TensorValue.ofDoubles(t, null, d);
    }

    /**
     * The typed forms (typed.cuh: gemm_f16, gemm_f64, conv2d_igemm_f16, conv2d_f16, conv_nd_f16,
     * pool_f16/_u8/_i8, softmax_f16, softmax_f64 hardmax, normalize_f16) give the simulator's bits:
     * only +, -, *, /, sqrt and comparisons enter, each result rounded once to its type.
     */
    @Test
    void typedFormsGiveTheSimulatorsBits() {
        long f16 = DType.F16.onnxCode(), f64 = DType.F64.onnxCode();
        int m = 33, n = 70, k = 19;
        for (DType t : new DType[] {DType.F16, DType.F64}) {
            sameBits(List.of(typed(t, KernelRun.random(3, 2 * m * k)), typed(t, KernelRun.random(4, 2 * k * n)), typed(t, KernelRun.random(5, n))), t, 2 * m * n,
                    call(Kernels.GEMM, Kernels.withType(Kernels.GEMM, new long[] {2, m, n, k, 0, 1, m * k, k * n, 1, 0, 0, 1}, t.onnxCode()), 0.5, 2.0));
        }
        long[] conv = {2, 3, 17, 21, 70, 9, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1};   // group 1: conv2d_igemm_f16
        sameBits(List.of(typed(DType.F16, KernelRun.random(16, 2 * 3 * 17 * 21)), typed(DType.F16, KernelRun.random(17, 70 * 27)), typed(DType.F16, KernelRun.random(18, 70))),
                DType.F16, 2 * 70 * 99, call(Kernels.CONV2D, Kernels.withType(Kernels.CONV2D, conv, f16)));
        long[] grouped = {1, 4, 9, 9, 6, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1};
        sameBits(List.of(typed(DType.F16, KernelRun.random(16, 324)), typed(DType.F16, KernelRun.random(17, 108)), typed(DType.F16, KernelRun.random(18, 6))),
                DType.F16, 150, call(Kernels.CONV2D, Kernels.withType(Kernels.CONV2D, grouped, f16)));
        sameBits(List.of(typed(DType.F16, KernelRun.random(16, 840)), typed(DType.F16, KernelRun.random(17, 324)), typed(DType.F16, KernelRun.random(18, 6))), DType.F16, 144,
                call(Kernels.CONV_ND, Kernels.withType(Kernels.CONV_ND, new long[] {3, 1, 4, 6, 2, 1, 0, 5, 3, 3, 2, 1, 1, 6, 2, 3, 1, 0, 2, 7, 4, 3, 2, 1, 1}, f16)));
        long[] pool = {3, 2, Kernels.MAX, 0, 3, 4, 4, 2, 1, 1, 0, 1, 5, 2, 2, 2, 0, 1, 2, 6, 3, 3, 2, 1, 1, 1};
        for (DType t : new DType[] {DType.F16, DType.U8, DType.I8})
            sameBits(List.of(typed(t, KernelRun.random(19, 240))), t, 48, call(Kernels.POOL, Kernels.withType(Kernels.POOL, pool, t.onnxCode())));
        long[] average = pool.clone();
        average[2] = Kernels.AVERAGE;
        sameBits(List.of(typed(DType.F16, KernelRun.random(19, 240))), DType.F16, 48, call(Kernels.POOL, Kernels.withType(Kernels.POOL, average, f16)));
        sameBits(List.of(typed(DType.F64, KernelRun.random(6, 3 * 11 * 7))), DType.F64, 3 * 11 * 7,
                call(Kernels.SOFTMAX, Kernels.withType(Kernels.SOFTMAX, new long[] {3, 11, 7, Kernels.HARDMAX_MODE}, f64)));
        sameBits(List.of(typed(DType.F16, KernelRun.random(7, 5 * 63)), typed(DType.F16, KernelRun.random(8, 63)), typed(DType.F16, KernelRun.random(9, 63))), DType.F16, 5 * 63,
                call(Kernels.NORMALIZE, Kernels.withType(Kernels.NORMALIZE, new long[] {Kernels.N_STANDARDIZE, 1, 1, 0, 0, 1, 1, 5, 63, 0, 0, 63, 1, 1, 1}, f16), 1e-5));
    }

    private static final DType[] TYPES = {DType.F32, DType.F16, DType.BF16, DType.F64, DType.I64, DType.I32, DType.I16, DType.I8, DType.U8, DType.BOOL};

    /**
     * The reduction family's kernels on the GPU and the simulator: every reduce op over axes 0 and
     * 2 of [4, 5, 6] (exact where only sums, extrema and products are involved, 2 ulp with log,
     * exp, sqrt), argmax with ties, integer sums, normalize (layer norm with InvStdDev), cumsum,
     * topk's indices, einsum (a batched matmul) and nll_loss (softmax cross-entropy, mean).
     */
    @Test
    void reductionNormalizationAndLossKernels() {
        long[] geometry = {1, 2, 5, 6, 4, 6, 30, 1};
        for (int op = Kernels.R_SUM; op <= Kernels.R_SUM_SQUARE; op++) {
            long[] ints = new long[3 + geometry.length];
            ints[0] = op;
            ints[1] = DType.F32.onnxCode();
            System.arraycopy(geometry, 0, ints, 3, geometry.length);
            boolean exact = op == Kernels.R_SUM || op == Kernels.R_MEAN || op == Kernels.R_MAX || op == Kernels.R_MIN || op == Kernels.R_PROD
                    || op == Kernels.R_L1 || op == Kernels.R_SUM_SQUARE;
            same(List.of(op == Kernels.R_LOG_SUM ? KernelRun.positive(op, 120) : KernelRun.random(op, 120)), 5, call(Kernels.REDUCE, ints), exact ? 0 : 2);
        }
        TensorValue ties = TensorValue.ofDoubles(DType.F32, null, 1, 2, 3, 3, 2, 1, 1, 1, 1, 0, 5, 5, 3, 5, 0, -1, 5, 0);
        sameBits(List.of(ties), DType.I64, 3, call(Kernels.REDUCE, new long[] {Kernels.R_ARGMAX, DType.F32.onnxCode(), 1, 1, 1, 3, 1, 6, 3}));
        TensorValue ints = TensorValue.ofLongs(DType.I64, null, java.util.stream.LongStream.range(0, 120).map(i -> i * 7919 % 1000 - 500).toArray());
        sameBits(List.of(ints), DType.I64, 5, call(Kernels.REDUCE, new long[] {Kernels.R_SUM, DType.I64.onnxCode(), 0, 1, 2, 5, 6, 4, 6, 30, 1}));
        same(List.of(KernelRun.random(7, 5 * 64), KernelRun.random(8, 64), KernelRun.random(9, 64), new float[5 * 64], new float[5]), 5,
                call(Kernels.NORMALIZE, new long[] {Kernels.N_STANDARDIZE, 1, 1, 1, 1, 1, 1, 5, 64, 0, 0, 64, 1, 1, 1}, 1e-5), 0);
        same(List.of(KernelRun.random(12, 60)), 60, call(Kernels.CUMSUM, new long[] {3, 5, 4, 1, 1, DType.F32.onnxCode(), 0}), 0);
        same(List.of(KernelRun.random(12, 60)), 60, call(Kernels.CUMSUM, new long[] {3, 5, 4, 0, 1, DType.F32.onnxCode(), 1}), 0);
        sameBits(List.of(ties, TensorValue.ofDoubles(DType.F32, null, new double[6])), DType.I64, 6,
                call(Kernels.TOPK, new long[] {1, 18, 1, 6, 1, DType.F32.onnxCode(), 4}));
        same(List.of(KernelRun.random(15, 24), KernelRun.random(16, 40)), 30,
                call(Kernels.EINSUM, new long[] {2, DType.F32.onnxCode(), 4, 3, 2, 3, 5, 4, 12, 4, 0, 1, 20, 0, 1, 5}), 0);
        sameBits(List.of(TensorValue.ofFloats(null, KernelRun.random(13, 24)), TensorValue.ofLongs(DType.I64, null, 0, 3, -1, 2, 1, 1),
                TensorValue.ofFloats(null, KernelRun.positive(14, 4))), DType.F32, 1,
                call(Kernels.NLL_LOSS, new long[] {1, 2, 4, 3, Kernels.LOSS_MEAN, 1, -1, 1, 0, DType.I64.onnxCode()}));
    }

    @Test
    void castBetweenEveryPairOfTypes() {
        double[] special = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.5, -1.5, 2.5, 65504, 65520, 1e-8, 300.7, -129.9,
            3e9, -3e9, 1e20, 9.3e18, 1 + 0x1p-9};
        long[] specialLongs = {0, -1, 128, 255, -129, 65536, 2147483648L, (1L << 53) + 1, Long.MAX_VALUE, Long.MIN_VALUE, 16777217};
        for (DType from : TYPES) {
            TensorValue x = from.isIntegral() ? TensorValue.ofLongs(from, null, specialLongs) : TensorValue.ofDoubles(from, null, special);
            for (DType to : TYPES) sameBits(List.of(x), to, x.elements(), call(Kernels.CAST, new long[] {x.elements(), from.onnxCode(), to.onnxCode()}));
        }
    }

    @Test
    void gatherWhereCompareAndIntegerArithmetic() {
        TensorValue data = TensorValue.ofDoubles(DType.F16, null, java.util.stream.IntStream.range(0, 30).mapToDouble(i -> i * 0.37 - 4).toArray());
        for (DType it : new DType[] {DType.I64, DType.I32}) {
            sameBits(List.of(data, TensorValue.ofLongs(it, null, 4, -1, 0, -5, 2)), DType.F16, 30, call(Kernels.GATHER, new long[] {2, 5, 3, 5, 2, it.onnxCode()}));
        }
        TensorValue x = TensorValue.ofLongs(DType.I64, null, 1, -2, 3, Long.MIN_VALUE), y = TensorValue.ofLongs(DType.I64, null, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        sameBits(List.of(TensorValue.ofLongs(DType.BOOL, null, 1, 0, 1), x, y), DType.I64, 12, call(Kernels.WHERE, new long[] {2, 3, 4, 1, 0, 0, 1, 4, 1, 8}));
        TensorValue a = TensorValue.ofDoubles(DType.F32, null, 1, 2, 3, -0.0, 2, Double.NaN, 1, 1, 1, Double.NaN, 2, 3.0001);
        sameBits(List.of(a, TensorValue.ofDoubles(DType.F32, null, 0.0, 2, Double.NaN)), DType.BOOL, 12,
                call(Kernels.COMPARE, new long[] {Kernels.EQUAL, 2, 4, 3, 3, 1, 0, 1, DType.F32.onnxCode()}));
        for (int op : new int[] {Kernels.ADD, Kernels.SUB, Kernels.MUL, Kernels.DIV}) {
            TensorValue p = TensorValue.ofLongs(DType.I32, null, java.util.stream.LongStream.range(0, 120).map(i -> i * 40_000_003L - 2_000_000_000L).toArray());
            sameBits(List.of(p, TensorValue.ofLongs(DType.I32, null, 7, -1, 3, -100, 1)), DType.I32, 120,
                    call(Kernels.BINARY, new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, DType.I32.onnxCode()}));
            TensorValue h = TensorValue.ofDoubles(DType.BF16, null, java.util.stream.IntStream.range(0, 120).mapToDouble(i -> Math.sin(i) * 30).toArray());
            sameBits(List.of(h, TensorValue.ofDoubles(DType.BF16, null, 0.7, -1.3, 3, 2e-3, 9)), DType.BF16, 120,
                    call(Kernels.BINARY, new long[] {op, 3, 4, 5, 6, 30, 6, 1, 0, 1, 0, DType.BF16.onnxCode()}));
        }
    }

    /**
     * The call over buffers (outputs from firstOutput on, starting as zeros) on both devices: every
     * output's bytes equal. For the kernels of data-dependent outputs (data_dependent.cuh: one block of
     * 1024 threads, scans and bitonic sorts), on inputs far larger than the emulation test's, under the
     * GPU's own thread scheduling and memory model.
     */
    private static void sameOutputs(String what, String kernel, long[] ints, List<byte[]> buffers, int firstOutput) {
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
    void dataDependentNonzeroAndCompressOnAMillionElements() {
        Random r = new Random(1);
        double[] x = new double[1000 * 1000];
        for (int i = 0; i < x.length; i++) {
            double u = r.nextDouble();
            x[i] = u < 0.5 ? 0 : u < 0.52 ? -0.0 : u < 0.54 ? Double.NaN : r.nextGaussian();
        }
        sameOutputs("nonzero [1000, 1000] f32", Kernels.NONZERO, new long[] {x.length, 2, 1000, 1000, DType.F32.onnxCode()},
                List.of(TensorValue.ofDoubles(DType.F32, null, x).bytes(), zeros(8), zeros(16L * x.length)), 1);
        // [4, 100000, 3] along axis 1, half the slices (more than the threads); [2, 10, 100000] int16, 3 of 10 (fewer)
        long[] half = new long[100_000];
        for (int i = 0; i < half.length; i++) half[i] = r.nextBoolean() ? 1 : 0;
        byte[] wide = TensorValue.ofDoubles(DType.F32, null, x).bytes();
        sameOutputs("compress [4, 100000, 3] f32", Kernels.COMPRESS, new long[] {4, 100_000, 3, half.length, 4},
                List.of(java.util.Arrays.copyOf(wide, 4 * 4 * 100_000 * 3), TensorValue.ofLongs(DType.BOOL, null, half).bytes(), zeros(8), zeros(4L * 4 * 100_000 * 3)), 2);
        sameOutputs("compress [2, 10, 100000] int16", Kernels.COMPRESS, new long[] {2, 10, 100_000, 10, 2},
                List.of(java.util.Arrays.copyOf(wide, 2 * 2 * 10 * 100_000), TensorValue.ofLongs(DType.BOOL, null, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0).bytes(), zeros(8),
                        zeros(2L * 2 * 10 * 100_000)), 2);
    }

    @Test
    void dataDependentUniqueOver200000ElementsSortedAndNot() {
        Random r = new Random(2);
        double[] pool = new double[5000];
        for (int i = 0; i < pool.length; i++) pool[i] = Math.round(r.nextGaussian() * 1000) / 16.0;
        pool[0] = Double.NaN;
        pool[1] = -0.0;
        double[] x = new double[200_000];
        for (int i = 0; i < x.length; i++) x[i] = pool[r.nextInt(pool.length)];
        byte[] bytes = TensorValue.ofDoubles(DType.F32, null, x).bytes();
        for (int sorted = 0; sorted <= 1; sorted++) {
            sameOutputs("unique 200000 f32, sorted " + sorted, Kernels.UNIQUE, new long[] {1, x.length, 1, sorted, DType.F32.onnxCode(), 4},
                    List.of(bytes, zeros(8), zeros(4L * x.length), zeros(8L * x.length), zeros(8L * x.length), zeros(8L * x.length)), 1);
        }
    }

    @Test
    void dataDependentNonMaxSuppressionSortedAndByArgMax() {
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
                sameOutputs("non_max_suppression " + java.util.Arrays.toString(shape) + " center " + center, Kernels.NMS,
                        new long[] {batches, n, classes, center, 0, max}, buffers, 5);
            }
        }
    }
}
