package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.IndexOutOfRangeException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#NORMALIZE}, {@link Kernels#BATCHNORM_RUNNING} and {@link Kernels#NLL_LOSS} (layouts documented
 * there), which normalization.cuh repeats step for step: statistics in double, in index order.
 * Optional pointers are absent from the call; each present one is found by the has* flags.
 */
final class NormalizationKernels {
    private NormalizationKernels() { }

    /** The computation of {@code c}, or null when it is neither kernel. */
    static Runnable bind(KernelCall c) {
        switch (c.name()) {
            case Kernels.NORMALIZE: {
                SimKernels.need(c, present(c, 1, 2, 3, 4) + 2, 7);
                SimKernels.need(c, c.pointers().size(), 7 + 4 * (i(c, 5) + i(c, 6)));
                int mode = i(c, 0);
                if (mode < Kernels.N_STANDARDIZE || mode > Kernels.N_RMS) throw new DeviceException("'" + c.label() + "': unknown normalize mode " + mode);
                DType t = SimKernels.computeType(c, DType.F32, DType.F16, DType.F64);
                int typed = 2 + present(c, 1, 2);   // x, scale, bias, y; then mean and invstd in f32
                for (int k = 0; k < c.pointers().size(); k++) SimKernels.count(c, k, k < typed ? t : DType.F32);
                return () -> normalize(c, t);
            }
            case Kernels.BATCHNORM_RUNNING: {
                SimKernels.need(c, c.pointers().size() == 4 ? 4 : 5, 3);
                int n = i(c, 0), ch = i(c, 1), sp = i(c, 2);
                for (int k = 0; k < c.pointers().size(); k++)
                    if (SimKernels.count(c, k, DType.F32) != (k == 0 ? (long) n * ch * sp : ch))
                        throw new DeviceException("'" + c.label() + "': batchnorm_running argument " + k + " must hold " + (k == 0 ? (long) n * ch * sp : ch) + " f32 values");
                return () -> batchnormRunning(c);
            }
            case Kernels.NLL_LOSS: {
                SimKernels.need(c, 3 + present(c, 7, 8), 10);
                DType t = SimKernels.dtype(c, 9);
                if (t != DType.I64 && t != DType.I32) throw new DeviceException("'" + c.label() + "': nll_loss targets must be int64 or int32, not " + t.jsonName());
                return () -> nllLoss(c);
            }
            default:
                return null;
        }
    }

    /** How many of the 0/1 flags at ints {@code k...} are set. */
    private static int present(KernelCall c, int... k) {
        int n = 0;
        for (int j : k) n += c.intArg(j) == 1 ? 1 : 0;
        return n;
    }



    /** The offset of element j (row-major over shape) given per-dim strides. */
    private static long offset(long j, long[] shape, long[] stride) {
        long off = 0;
        for (int d = shape.length - 1; d >= 0; d--) {
            off += (j % shape[d]) * stride[d];
            j /= shape[d];
        }
        return off;
    }

    private static long[] ints(KernelCall c, int from, int n) {
        long[] v = new long[n];
        for (int d = 0; d < n; d++) v[d] = c.intArg(from + d);
        return v;
    }

    /**
     * {@link Kernels#NORMALIZE} with x, scale, bias and y of type {@code t}: f32; f16 widened exactly, y rounded to f32, then
     * to f16; f64 (every value read and y stored in double, the statistics' double arithmetic the same). Statistics f32.
     */
    static void normalize(KernelCall c, DType t) {
        int mode = i(c, 0);
        boolean hasScale = c.intArg(1) == 1, hasBias = c.intArg(2) == 1, hasMean = c.intArg(3) == 1, hasInvStd = c.intArg(4) == 1;
        int kr = i(c, 5), rr = i(c, 6);
        long[] ks = ints(c, 7, kr), kst = ints(c, 7 + kr, kr), ksc = ints(c, 7 + 2 * kr, kr), kbi = ints(c, 7 + 3 * kr, kr);
        int r0 = 7 + 4 * kr;
        long[] rs = ints(c, r0, rr), rst = ints(c, r0 + rr, rr), rsc = ints(c, r0 + 2 * rr, rr), rbi = ints(c, r0 + 3 * rr, rr);
        double eps = c.floatArg(0);
        int p = 0;
        double[] x = read(c, p++, t);
        double[] scale = hasScale ? read(c, p++, t) : null, bias = hasBias ? read(c, p++, t) : null;
        int yArg = p++, meanArg = hasMean ? p++ : -1, invArg = hasInvStd ? p : -1;
        double[] y = new double[x.length];
        long outN = 1, redN = 1;
        for (long v : ks) outN *= v;
        for (long v : rs) redN *= v;
        float[] means = new float[(int) outN], invs = new float[(int) outN];
        for (long o = 0; o < outN; o++) {
            long base = offset(o, ks, kst), sbase = offset(o, ks, ksc), bbase = offset(o, ks, kbi);
            double center = 0, factor;
            if (mode == Kernels.N_STANDARDIZE || mode == Kernels.N_MVN) {
                double mean = 0;
                for (long j = 0; j < redN; j++) mean += x[(int) (base + offset(j, rs, rst))];
                mean /= redN;
                double var = 0;
                for (long j = 0; j < redN; j++) {
                    double d = x[(int) (base + offset(j, rs, rst))] - mean;
                    var += d * d;
                }
                var /= redN;
                center = mean;
                factor = mode == Kernels.N_STANDARDIZE ? 1.0 / Math.sqrt(var + eps) : 1.0 / (Math.sqrt(var) + eps);
                means[(int) o] = (float) mean;
                invs[(int) o] = (float) factor;
            } else if (mode == Kernels.N_RMS) {
                double squares = 0;
                for (long j = 0; j < redN; j++) {
                    double v = x[(int) (base + offset(j, rs, rst))];
                    squares += v * v;
                }
                factor = 1.0 / Math.sqrt(squares / redN + eps);
            } else {
                double norm = 0;
                for (long j = 0; j < redN; j++) {
                    double v = x[(int) (base + offset(j, rs, rst))];
                    norm += mode == Kernels.N_L1 ? Math.abs(v) : v * v;
                }
                factor = norm == 0 ? 0.0 : 1.0 / (mode == Kernels.N_L1 ? norm : Math.sqrt(norm));   // an all-zero group stays 0
            }
            for (long j = 0; j < redN; j++) {
                int at = (int) (base + offset(j, rs, rst));
                double v = (x[at] - center) * factor;
                if (hasScale) v = v * scale[(int) (sbase + offset(j, rs, rsc))];
                if (hasBias) v = v + bias[(int) (bbase + offset(j, rs, rbi))];
                y[at] = t == DType.F64 ? v : (float) v;   // f32 and f16: rounded to f32 first
            }
        }
        java.nio.ByteBuffer b = SimKernels.out(c, yArg);
        for (int e = 0; e < y.length; e++) {
            if (t == DType.F64) b.putDouble(e * 8, y[e]);
            else t.putFloat(b, e, (float) y[e]);
        }
        SimKernels.store(c, yArg, b);
        if (meanArg >= 0) SimKernels.storeFloats(c, meanArg, means);
        if (invArg >= 0) SimKernels.storeFloats(c, invArg, invs);
    }

    /** Argument {@code k} of type {@code t} in double: exact for f32, f16 and f64. */
    private static double[] read(KernelCall c, int k, DType t) {
        int n = SimKernels.count(c, k, t);
        ByteBuffer b = SimKernels.in(c, k);
        double[] v = new double[n];
        if (t == DType.F64) b.asDoubleBuffer().get(v);
        else {
            float[] f = WideKernels.decode(t, b, n);
            for (int e = 0; e < n; e++) v[e] = f[e];
        }
        return v;
    }

    static void batchnormRunning(KernelCall c) {
        int n = i(c, 0), ch = i(c, 1), sp = i(c, 2);
        double momentum = c.floatArg(0);
        float[] x = SimKernels.inFloats(c, 0), mean = SimKernels.inFloats(c, 1), var = SimKernels.inFloats(c, 2);
        boolean hasVar = c.pointers().size() == 5;
        float[] runMean = new float[ch], runVar = new float[ch];
        double count = (double) n * sp;
        for (int q = 0; q < ch; q++) {
            double m = 0;
            for (int img = 0; img < n; img++) for (int k = 0; k < sp; k++) m += x[(img * ch + q) * sp + k];
            m /= count;
            double v = 0;
            for (int img = 0; img < n; img++) {
                for (int k = 0; k < sp; k++) {
                    double d = x[(img * ch + q) * sp + k] - m;
                    v += d * d;
                }
            }
            v /= count;
            runMean[q] = (float) (mean[q] * momentum + m * (1 - momentum));
            runVar[q] = (float) (var[q] * momentum + v * (1 - momentum));
        }
        SimKernels.storeFloats(c, 3, runMean);
        if (hasVar) SimKernels.storeFloats(c, 4, runVar);
    }

    static void nllLoss(KernelCall c) {
        boolean softmax = c.intArg(0) == 1;
        int n = i(c, 1), classes = i(c, 2), d = i(c, 3), reduction = i(c, 4);
        boolean hasIgnore = c.intArg(5) == 1, hasWeight = c.intArg(7) == 1, hasLogProb = c.intArg(8) == 1;
        long ignore = c.intArg(6);
        DType tt = SimKernels.dtype(c, 9);
        int p = 0;
        float[] x = SimKernels.inFloats(c, p++);
        ByteBuffer target = SimKernels.in(c, p++);
        float[] weight = hasWeight ? SimKernels.inFloats(c, p++) : null;
        int lossArg = p++, logArg = hasLogProb ? p : -1;
        float[] logprob = new float[x.length];
        float[] loss = new float[reduction == Kernels.LOSS_NONE ? n * d : 1];
        double total = 0, weights = 0;
        for (int s = 0; s < n; s++) {
            for (int q = 0; q < d; q++) {
                int row = s * classes * d + q;
                double max = Double.NEGATIVE_INFINITY, lse = 0;
                if (softmax) {
                    for (int k = 0; k < classes; k++) {
                        double v = x[row + k * d];
                        if (v > max || v != v) max = v;
                    }
                    double sum = 0;
                    for (int k = 0; k < classes; k++) sum += Math.exp((double) x[row + k * d] - max);
                    lse = Math.log(sum);
                    for (int k = 0; k < classes; k++) logprob[row + k * d] = (float) ((double) x[row + k * d] - max - lse);
                }
                long t = tt.getLong(target, s * d + q);
                double l, w;
                if (hasIgnore && t == ignore) {
                    l = 0;
                    w = 0;
                } else {
                    if (t < 0 || t >= classes)
                        throw new IndexOutOfRangeException("'" + c.label() + "': target " + t + " (sample " + s + ", position " + q + ") is outside [0, " + classes + ")");
                    float lp = softmax ? (float) ((double) x[row + (int) t * d] - max - lse) : x[row + (int) t * d];
                    w = hasWeight ? weight[(int) t] : 1.0;
                    l = -(double) lp * w;
                }
                if (reduction == Kernels.LOSS_NONE) loss[s * d + q] = (float) l;
                total += l;
                weights += w;
            }
        }
        if (reduction != Kernels.LOSS_NONE) loss[0] = (float) (reduction == Kernels.LOSS_MEAN ? total / weights : total);
        SimKernels.storeFloats(c, lossArg, loss);
        if (logArg >= 0) SimKernels.storeFloats(c, logArg, logprob);
    }
}
