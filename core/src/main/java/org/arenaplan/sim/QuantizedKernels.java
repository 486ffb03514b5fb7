package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's integer and quantized linear algebra, {@link Kernels#QMATMUL} and
 * {@link Kernels#QCONV}, and DynamicQuantizeLinear's {@link Kernels#QUANTIZE_RANGE} (layouts and
 * arithmetic documented there), which CUDA's quantized.cuh follows step for step: 64-bit integer
 * sums, then the requantization in double.
 */
final class QuantizedKernels {
    private QuantizedKernels() { }

    /** The computation of {@code c}, or null when it is not one of these kernels. */
    static Runnable bind(KernelCall c) {
        switch (c.name()) {
            case Kernels.QMATMUL: {
                Quantization q = quantization(c, 6);
                SimKernels.need(c, q.requantize ? 9 : 5, 15);
                return () -> qmatmul(c, q);
            }
            case Kernels.QCONV: {
                Quantization q = quantization(c, 0);
                int rank = i(c, 9);
                if (rank < 1 || rank > 3 || c.intArg(15) != 0) throw new DeviceException("'" + c.label() + "': qconv takes 1 to 3 spatial axes, not transposed");
                SimKernels.need(c, (q.requantize ? 9 : 5) + (int) c.intArg(14), 16 + 6 * rank);
                return () -> qconv(c, q, rank);
            }
            case Kernels.QUANTIZE_RANGE: {
                SimKernels.need(c, 3, 1);
                if (SimKernels.count(c, 0, DType.F32) != c.intArg(0) || SimKernels.count(c, 1, DType.F32) != 1 || SimKernels.count(c, 2, DType.U8) != 1)
                    throw new DeviceException("'" + c.label() + "': quantize_range takes " + c.intArg(0) + " f32 values to one f32 scale and one uint8 zero point");
                return () -> quantizeRange(c);
            }
            default:
                return null;
        }
    }

    /** The smaller (min) or larger of a and b; a NaN in either wins. */
    private static float pick(float a, float b, boolean min) {
        return (min ? b < a : b > a) || b != b ? b : a;
    }

    static void quantizeRange(KernelCall c) {
        float[] x = new float[i(c, 0)];
        SimKernels.in(c, 0).asFloatBuffer().get(x);
        float lo = 0, hi = 0;
        for (float v : x) {
            lo = pick(lo, v, true);
            hi = pick(hi, v, false);
        }
        float scale = (hi == lo ? 1f : hi - lo) / 255f;
        float zp = 0f - lo / scale;
        if (!(zp >= 0f)) zp = 0f;
        if (zp > 255f) zp = 255f;
        ByteBuffer s = SimKernels.out(c, 1), z = SimKernels.out(c, 2);
        s.putFloat(0, scale);
        z.put(0, (byte) Math.rint(zp));
        SimKernels.store(c, 1, s);
        SimKernels.store(c, 2, z);
    }

    /** The 9 quantization ints from {@code at}. */
    private record Quantization(DType a, DType b, DType y, boolean requantize, boolean aPerRow, boolean bPerColumn,
                                boolean aScalePerRow, boolean bScalePerColumn, DType scale) { }

    private static Quantization quantization(KernelCall c, int at) {
        if (c.ints().length < at + 9) throw new DeviceException("'" + c.label() + "': kernel " + c.name() + " takes " + (at + 9) + " ints or more");
        Quantization q = new Quantization(SimKernels.dtype(c, at), SimKernels.dtype(c, at + 1), SimKernels.dtype(c, at + 2), c.intArg(at + 3) == 1,
                c.intArg(at + 4) == 1, c.intArg(at + 5) == 1, c.intArg(at + 6) == 1, c.intArg(at + 7) == 1, SimKernels.dtype(c, at + 8));
        boolean ok = (q.a == DType.U8 || q.a == DType.I8) && (q.b == DType.U8 || q.b == DType.I8)
                && (q.requantize ? (q.y == DType.U8 || q.y == DType.I8) && (q.scale == DType.F32 || q.scale == DType.F16 || q.scale == DType.BF16) : q.y == DType.I32);
        if (!ok) throw new DeviceException("'" + c.label() + "': " + c.name() + " does not compute " + q.a.jsonName() + " x " + q.b.jsonName() + " -> " + q.y.jsonName());
        return q;
    }

    /** The operands' bytes: a, b, aZp, bZp, then with requantize aScale, bScale, yScale, yZp. */
    private static ByteBuffer[] inputs(KernelCall c, Quantization q) {
        ByteBuffer[] in = new ByteBuffer[q.requantize ? 8 : 4];
        for (int k = 0; k < in.length; k++) in[k] = SimKernels.in(c, k);
        return in;
    }

    static void qmatmul(KernelCall c, Quantization q) {
        int batch = i(c, 0), m = i(c, 1), k = i(c, 2), n = i(c, 3);
        boolean aBatched = c.intArg(4) == 1, bBatched = c.intArg(5) == 1;
        ByteBuffer[] in = inputs(c, q);
        int yk = c.pointers().size() - 1;
        ByteBuffer y = SimKernels.out(c, yk);
        for (int p = 0; p < batch; p++)
            for (int r = 0; r < m; r++)
                for (int col = 0; col < n; col++) {
                    long az = q.a.getLong(in[2], q.aPerRow ? r : 0), bz = q.b.getLong(in[3], q.bPerColumn ? col : 0);
                    long acc = 0;
                    for (int j = 0; j < k; j++) {
                        long av = q.a.getLong(in[0], (aBatched ? p * m * k : 0) + r * k + j);
                        long bv = q.b.getLong(in[1], (bBatched ? p * k * n : 0) + j * n + col);
                        acc += (av - az) * (bv - bz);
                    }
                    store(y, (p * m + r) * n + col, acc, q, in, r, col);
                }
        SimKernels.store(c, yk, y);
    }

    static void qconv(KernelCall c, Quantization q, int rank) {
        int g0 = 9;
        long n = c.intArg(g0 + 1), ch = c.intArg(g0 + 2), mOut = c.intArg(g0 + 3), group = c.intArg(g0 + 4);
        boolean bias = c.intArg(g0 + 5) == 1;
        long[] in = new long[rank], out = new long[rank], kk = new long[rank], st = new long[rank], pad = new long[rank], dil = new long[rank];
        long inSize = 1, outSize = 1, kSize = 1;
        for (int d = 0; d < rank; d++) {
            int a = g0 + 7 + 6 * d;
            in[d] = c.intArg(a); out[d] = c.intArg(a + 1); kk[d] = c.intArg(a + 2); st[d] = c.intArg(a + 3); pad[d] = c.intArg(a + 4); dil[d] = c.intArg(a + 5);
            inSize *= in[d]; outSize *= out[d]; kSize *= kk[d];
        }
        ByteBuffer[] buf = inputs(c, q);
        ByteBuffer b = bias ? SimKernels.in(c, buf.length) : null;
        int yk = c.pointers().size() - 1;
        ByteBuffer y = SimKernels.out(c, yk);
        long cg = ch / group, mg = mOut / group;
        long xz = q.a.getLong(buf[2], 0);
        long[] o = new long[rank];
        for (long e = 0; e < n * mOut * outSize; e++) {
            long pos = e % outSize, m = (e / outSize) % mOut, img = e / (outSize * mOut);
            long rest = pos;
            for (int d = rank - 1; d >= 0; d--) { o[d] = rest % out[d]; rest /= out[d]; }
            long wz = q.b.getLong(buf[3], q.bPerColumn ? (int) m : 0);
            long g = m / mg, acc = 0;
            for (long ci = 0; ci < cg; ci++) {
                long xBase = (img * ch + g * cg + ci) * inSize, wBase = (m * cg + ci) * kSize;
                for (long t = 0; t < kSize; t++) {
                    long r = t, at = 0, stride = 1;
                    boolean inside = true;
                    for (int d = rank - 1; d >= 0; d--) {
                        long p = o[d] * st[d] - pad[d] + (r % kk[d]) * dil[d];
                        r /= kk[d];
                        if (p < 0 || p >= in[d]) { inside = false; break; }
                        at += p * stride;
                        stride *= in[d];
                    }
                    if (inside) acc += (q.a.getLong(buf[0], (int) (xBase + at)) - xz) * (q.b.getLong(buf[1], (int) (wBase + t)) - wz);
                }
            }
            if (bias) acc += DType.I32.getLong(b, (int) m);
            store(y, (int) e, acc, q, buf, 0, (int) m);
        }
        SimKernels.store(c, yk, y);
    }

    /** Element i of y from the sum {@code acc}: as int32, or requantized with row r's and column col's scales. */
    private static void store(ByteBuffer y, int i, long acc, Quantization q, ByteBuffer[] in, int r, int col) {
        if (!q.requantize) {
            DType.I32.putLong(y, i, acc);
            return;
        }
        double s = SimKernels.rounded(q.scale, q.scale.getDouble(in[4], q.aScalePerRow ? r : 0) * q.scale.getDouble(in[5], q.bScalePerColumn ? col : 0));
        s = SimKernels.rounded(q.scale, s / q.scale.getDouble(in[6], 0));
        double v = Math.rint((double) acc * s + q.y.getLong(in[7], 0));
        double lo = q.y == DType.U8 ? 0 : -128, hi = q.y == DType.U8 ? 255 : 127;
        q.y.putLong(y, i, (long) Math.max(lo, Math.min(hi, v)));
    }

}
