package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * The simulator's typed kernels beyond f32 ({@link Kernels#typeInt} says which kernels carry a
 * type and how each type computes): the f64 forms of {@link Kernels#GEMM} and
 * {@link Kernels#SOFTMAX}, which read, sum and write doubles, and the decoding of int8 and uint8
 * for {@link Kernels#POOL} max (values exact in f32, stored back clamped to the type's range, so
 * an empty window gives its lowest value). The f16 forms need none of this: they are the
 * f32 kernels on widened operands ({@code SimKernels.onFloats}), rounded once on store.
 */
final class WideKernels {
    private WideKernels() { }

    /** Every argument read as f64 values, the body, then every written argument stored. */
    static Runnable onDoubles(KernelCall c, Consumer<double[][]> body) {
        for (int k = 0; k < c.pointers().size(); k++) SimKernels.count(c, k, DType.F64);
        return () -> {
            double[][] d = new double[c.pointers().size()][];
            for (int k = 0; k < d.length; k++) {
                d[k] = new double[SimKernels.count(c, k, DType.F64)];
                if (c.pointer(k).access() != KernelArg.Access.WRITE) SimKernels.in(c, k).asDoubleBuffer().get(d[k]);
            }
            body.accept(d);
            for (int k = 0; k < d.length; k++) {
                if (c.pointer(k).access() != KernelArg.Access.WRITE) continue;
                ByteBuffer b = SimKernels.out(c, k);
                b.asDoubleBuffer().put(d[k]);
                SimKernels.store(c, k, b);
            }
        };
    }

    /** As {@code SimKernels.onFloats} for int8 and uint8: exact in f32; stored rounded and clamped to the type's range. */
    static Runnable onBytes(KernelCall c, DType t, Consumer<SimKernels.F[]> body) {
        for (int k = 0; k < c.pointers().size(); k++) SimKernels.count(c, k, t);
        return () -> {
            SimKernels.F[] f = new SimKernels.F[c.pointers().size()];
            for (int k = 0; k < f.length; k++) {
                int n = SimKernels.count(c, k, t);
                f[k] = new SimKernels.F(c.pointer(k).access() == KernelArg.Access.WRITE ? new float[n] : decode(t, SimKernels.in(c, k), n), 0);
            }
            body.accept(f);
            long lo = t == DType.U8 ? 0 : -128, hi = t == DType.U8 ? 255 : 127;
            for (int k = 0; k < f.length; k++) {
                if (c.pointer(k).access() != KernelArg.Access.WRITE) continue;
                ByteBuffer b = SimKernels.out(c, k);
                float[] v = f[k].a();
                for (int e = 0; e < v.length; e++) {
                    double r = Double.isNaN(v[e]) ? 0 : Math.rint(v[e]);
                    b.put(e, (byte) (long) Math.max(lo, Math.min(hi, r)));
                }
                SimKernels.store(c, k, b);
            }
        };
    }

    /** {@code n} elements of type {@code t} (f32, f16, bf16, uint8 or int8) widened to f32, exactly. */
    static float[] decode(DType t, ByteBuffer b, int n) {
        float[] v = new float[n];
        if (t == DType.F32) b.asFloatBuffer().get(v);
        else if (t == DType.U8) for (int e = 0; e < n; e++) v[e] = b.get(e) & 0xFF;
        else if (t == DType.I8) for (int e = 0; e < n; e++) v[e] = b.get(e);
        else for (int e = 0; e < n; e++) v[e] = t.getFloat(b, e);
        return v;
    }

    /**
     * {@link Kernels#GEMM} in f64: as the f32 kernel ({@code SimKernels.gemm}: alpha * AB, then + beta * C when present), every sum and
     * product in double, k ascending in one running sum (not blocked: {@link Kernels#SUM_BLOCK} is for f32 sums).
     */
    static void gemm(KernelCall c, double[][] f) {
        int batch = SimKernels.i(c, 0), m = SimKernels.i(c, 1), n = SimKernels.i(c, 2), kk = SimKernels.i(c, 3);
        boolean ta = c.intArg(4) == 1, tb = c.intArg(5) == 1;
        int bsa = SimKernels.i(c, 6), bsb = SimKernels.i(c, 7);
        boolean hasC = c.intArg(8) == 1;
        int cb = SimKernels.i(c, 9), cr = SimKernels.i(c, 10), cc = SimKernels.i(c, 11);
        if (c.ints().length > 12 && c.intArg(12) != Kernels.ACTIVATION_NONE)
            throw new DeviceException("'" + c.label() + "': gemm has its epilogue activation in f32 only");
        double alpha = c.floatArg(0), beta = c.floatArg(1);
        double[] a = f[0], b = f[1], y = f[f.length - 1], cm = hasC ? f[2] : null;
        double[] acc = new double[n];
        for (int bt = 0; bt < batch; bt++) {
            int a0 = bt * bsa, b0 = bt * bsb, y0 = bt * m * n;
            for (int r = 0; r < m; r++) {
                java.util.Arrays.fill(acc, 0);
                for (int k = 0; k < kk; k++) {
                    double av = ta ? a[a0 + k * m + r] : a[a0 + r * kk + k];
                    for (int j = 0; j < n; j++) acc[j] += av * (tb ? b[b0 + j * kk + k] : b[b0 + k * n + j]);
                }
                for (int j = 0; j < n; j++) y[y0 + r * n + j] = hasC ? alpha * acc[j] + beta * cm[bt * cb + r * cr + j * cc] : alpha * acc[j];
            }
        }
    }

    /** {@link Kernels#SOFTMAX} in f64: each lane's first m values as the f32 kernel walks them (a NaN wins the max; hardmax the first maximum), in double; the lane's others 0. */
    static void softmax(KernelCall c, double[] x, double[] y, int m) {
        int outer = SimKernels.i(c, 0), n = SimKernels.i(c, 1), inner = SimKernels.i(c, 2), mode = SimKernels.i(c, 3);
        for (int o = 0; o < outer; o++) {
            for (int in = 0; in < inner; in++) {
                int base = o * n * inner + in;
                double max = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < m; k++) {
                    double v = x[base + k * inner];
                    if (v > max || v != v) max = v;   // a NaN wins, as in f32
                }
                if (mode == Kernels.HARDMAX_MODE) {
                    int arg = 0;
                    for (int k = 1; k < m; k++) if (x[base + k * inner] > x[base + arg * inner]) arg = k;
                    for (int k = 0; k < m; k++) y[base + k * inner] = k == arg ? 1 : 0;
                    for (int k = m; k < n; k++) y[base + k * inner] = 0;
                    continue;
                }
                double sum = 0;
                for (int k = 0; k < m; k++) sum += Math.exp(x[base + k * inner] - max);
                if (mode == Kernels.LOG_SOFTMAX_MODE) {
                    double log = Math.log(sum);
                    for (int k = 0; k < m; k++) y[base + k * inner] = x[base + k * inner] - max - log;
                } else {
                    for (int k = 0; k < m; k++) y[base + k * inner] = Math.exp(x[base + k * inner] - max) / sum;
                }
                for (int k = m; k < n; k++) y[base + k * inner] = 0;
            }
        }
    }
}
