package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.device.ReduceExtent;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's reduction and softmax-family kernels ({@link Kernels#REDUCE},
 * {@link Kernels#SOFTMAX}; layouts documented there), in the documented order and precision,
 * which the CUDA kernels (reduce.cuh, normalize.cuh) follow step for step.
 */
final class ReductionKernels {
    private ReductionKernels() { }

    /** The computation of {@code c}, or null when it is not one of these kernels. */
    static Runnable bind(KernelCall c) {
        switch (c.name()) {
            case Kernels.SOFTMAX: {
                int ptrs = c.pointers().size() == 3 ? 3 : 2;   // with x's runtime extent: x bounded along a normalised axis (ints type, per)
                SimKernels.need(c, ptrs, ptrs == 3 ? 6 : 4);
                int mode = i(c, 3);
                if (mode < Kernels.SOFTMAX_MODE || mode > Kernels.HARDMAX_MODE) throw new DeviceException("'" + c.label() + "': unknown softmax mode " + mode);
                DType t = SimKernels.computeType(c, DType.F32, DType.F16, DType.F64);
                if (ptrs == 3 && c.pointer(1).bytes() != 8) throw new DeviceException("'" + c.label() + "': softmax's extent has " + c.pointer(1).bytes() + " B, not 8");
                return t == DType.F64 ? WideKernels.onDoubles(c, d -> WideKernels.softmax(c, d[0], d[ptrs - 1], actual(c)))
                        : SimKernels.onFloats(c, t, f -> softmax(c, f[0].a(), f[ptrs - 1].a(), actual(c)));
            }
            case Kernels.REDUCE: {
                int ptrs = c.pointers().size() == 3 ? 3 : 2;   // with x's runtime extent: x bounded (ints per, spans after the walk)
                SimKernels.need(c, ptrs, 5);
                SimKernels.need(c, ptrs, 5 + 2 * (i(c, 3) + i(c, 4)) + (ptrs == 3 ? 2 : 0));
                int op = i(c, 0);
                DType t = SimKernels.dtype(c, 1);
                if (op < Kernels.R_SUM || op > Kernels.R_ARGMIN) throw new DeviceException("'" + c.label() + "': unknown reduce op " + op);
                return () -> reduce(c, op, t);
            }
            case Kernels.CUMSUM: {
                SimKernels.need(c, 2, 7);
                DType t = SimKernels.dtype(c, 5);
                if (t == DType.BOOL) throw new DeviceException("'" + c.label() + "': cumsum does not compute " + t.jsonName());
                return () -> cumsum(c, t);
            }
            case Kernels.EINSUM: {
                SimKernels.need(c, 1 + i(c, 0), 4);
                SimKernels.need(c, 1 + i(c, 0), 4 + 3 * i(c, 2));
                DType t = SimKernels.dtype(c, 1);
                if (!t.isFloat32Compute() && t != DType.F64) throw new DeviceException("'" + c.label() + "': einsum does not compute " + t.jsonName());
                return () -> einsum(c, t);
            }
            case Kernels.TOPK: {
                SimKernels.need(c, c.pointers().size() == 4 ? 4 : 3, 7);
                DType t = SimKernels.dtype(c, 5);
                if (t == DType.F64 || t.bytes() != c.intArg(6)) throw new DeviceException("'" + c.label() + "': topk does not compute " + t.jsonName());
                return () -> topk(c, t);
            }
            default:
                return null;
        }
    }

    static void cumsum(KernelCall c, DType t) {
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2);
        boolean exclusive = c.intArg(3) == 1, reverse = c.intArg(4) == 1, product = c.intArg(6) == 1;
        ByteBuffer x = SimKernels.in(c, 0), y = SimKernels.out(c, 1);
        for (int o = 0; o < outer; o++) {
            for (int q = 0; q < inner; q++) {
                int base = o * n * inner + q;
                double acc = product ? 1 : 0;
                long iacc = product ? 1 : 0;
                for (int s = 0; s < n; s++) {
                    int at = base + (reverse ? n - 1 - s : s) * inner;
                    if (t.isIntegral()) {
                        long v = t.getLong(x, at);
                        if (!exclusive) iacc = product ? iacc * v : iacc + v;
                        t.putLong(y, at, iacc);
                        if (exclusive) iacc = product ? iacc * v : iacc + v;
                    } else {
                        double v = t.getDouble(x, at);
                        if (!exclusive) acc = product ? acc * v : acc + v;
                        putReal(y, t, at, acc);
                        if (exclusive) acc = product ? acc * v : acc + v;
                    }
                }
            }
        }
        SimKernels.store(c, 1, y);
    }

    static void einsum(KernelCall c, DType t) {
        int ops = i(c, 0), letters = i(c, 2), outs = i(c, 3);
        long[] ext = new long[letters];
        long[][] stride = new long[ops][letters];
        for (int d = 0; d < letters; d++) {
            ext[d] = c.intArg(4 + d);
            for (int k = 0; k < ops; k++) stride[k][d] = c.intArg(4 + letters * (k + 1) + d);
        }
        long outN = 1, sumN = 1;
        for (int d = 0; d < outs; d++) outN *= ext[d];
        for (int d = outs; d < letters; d++) sumN *= ext[d];
        ByteBuffer[] x = new ByteBuffer[ops];
        for (int k = 0; k < ops; k++) x[k] = SimKernels.in(c, k);
        ByteBuffer y = SimKernels.out(c, ops);
        for (long o = 0; o < outN; o++) {
            double acc = 0;
            for (long j = 0; j < sumN; j++) {
                double p = 1;
                for (int k = 0; k < ops; k++) {
                    long at = offset(o, ext, stride[k], 0, outs) + offset(j, ext, stride[k], outs, letters);
                    p *= t.getDouble(x[k], (int) at);
                }
                acc += p;
            }
            putReal(y, t, (int) o, acc);
        }
        SimKernels.store(c, ops, y);
    }

    /** The offset of index j of a row-major walk over the letters from..to-1, with the given strides. */
    private static long offset(long j, long[] ext, long[] stride, int from, int to) {
        long off = 0;
        for (int d = to - 1; d >= from; d--) {
            off += (j % ext[d]) * stride[d];
            j /= ext[d];
        }
        return off;
    }

    /**
     * Whether element i of the lane at base (stride inner) comes before element j in TopK's order:
     * the larger (smallest: smaller) value, then the lower index. Integers compare as
     * {@link DType#compareIntegral} orders them (exactly, uint64 unsigned); a NaN is larger than
     * every number and equal to another NaN (numpy's sort order, which onnx.reference's TopK and
     * torch.topk follow; ONNX Runtime 1.30 places NaNs differently by k and position), so the order
     * is total and every element is ranked once.
     */
    private static boolean before(ByteBuffer x, DType t, int base, int inner, int i, int j, boolean largest) {
        int cmp;
        if (t.isIntegral()) {
            cmp = t.compareIntegral(t.getLong(x, base + i * inner), t.getLong(x, base + j * inner));
        } else {
            float v = t.getFloat(x, base + i * inner), w = t.getFloat(x, base + j * inner);
            boolean vn = v != v, wn = w != w;
            if (vn != wn) return largest == vn;
            if (v != w && !vn) return largest ? v > w : v < w;
            cmp = 0;
        }
        if (cmp != 0) return largest ? cmp > 0 : cmp < 0;
        return i < j;
    }

    static void topk(KernelCall c, DType t) {
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), k = i(c, 3);
        boolean largest = c.intArg(4) == 1;
        int es = t.bytes(), vArg = c.pointers().size() - 2;
        ByteBuffer x = SimKernels.in(c, 0), values = SimKernels.out(c, vArg), indices = SimKernels.out(c, vArg + 1);
        if (vArg == 2) {   // x bounded along the axis: its actual values only
            n = (int) org.arenaplan.device.TopKExtent.check(c, SimKernels.in(c, 1).getLong(0));
        }
        int ranked = Math.min(k, n);   // k but with clamp, where n may be less (TopKExtent#check); the rest stays for zero_tail
        for (int o = 0; o < outer; o++) {
            for (int q = 0; q < inner; q++) {
                int base = o * n * inner + q;
                int prev = -1;
                for (int s = 0; s < ranked; s++) {
                    int best = -1;
                    for (int e = 0; e < n; e++) {
                        if (prev >= 0 && !before(x, t, base, inner, prev, e, largest)) continue;
                        if (best < 0 || before(x, t, base, inner, e, best, largest)) best = e;
                    }
                    int out = (o * k + s) * inner + q;
                    DType.I64.putLong(indices, out, best);
                    for (int b = 0; b < es; b++) values.put(out * es + b, x.get((base + best * inner) * es + b));
                    prev = best;
                }
            }
        }
        SimKernels.store(c, vArg, values);
        SimKernels.store(c, vArg + 1, indices);
    }

    /** Ops the reduce kernel computes in 64-bit integers on integer types (the others in double, truncated). */
    static boolean integral(int op) {
        return op == Kernels.R_SUM || op == Kernels.R_MAX || op == Kernels.R_MIN || op == Kernels.R_PROD || op == Kernels.R_ARGMAX || op == Kernels.R_ARGMIN;
    }

    /**
     * The values of each lane of a {@link Kernels#SOFTMAX} call that are normalised: all n, or with x's runtime
     * extent (3 pointers) the first {@code BoundedIndices#actualElements(extent, per, n)} (read when the call runs).
     */
    static int actual(KernelCall c) {
        int n = i(c, 1);
        return c.pointers().size() == 3 ? (int) org.arenaplan.device.BoundedIndices.actualElements(SimKernels.in(c, 1).getLong(0), c.intArg(5), n) : n;
    }

    /** {@link Kernels#SOFTMAX} in f32 over each lane's first m values; the lane's others 0. */
    static void softmax(KernelCall c, float[] x, float[] y, int m) {
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), mode = i(c, 3);
        for (int o = 0; o < outer; o++) {
            for (int q = 0; q < inner; q++) {
                int base = o * n * inner + q;
                float max = Float.NEGATIVE_INFINITY;
                for (int k = 0; k < m; k++) {
                    float v = x[base + k * inner];
                    if (v > max || v != v) max = v;   // a NaN wins
                }
                if (mode == Kernels.HARDMAX_MODE) {
                    int arg = firstMax(x, base, m, inner);
                    for (int k = 0; k < m; k++) y[base + k * inner] = k == arg ? 1f : 0f;
                } else if (mode == Kernels.LOG_SOFTMAX_MODE) {
                    double sum = 0;
                    for (int k = 0; k < m; k++) sum += Math.exp((double) (x[base + k * inner] - max));
                    double log = Math.log(sum);
                    for (int k = 0; k < m; k++) y[base + k * inner] = (float) ((double) (x[base + k * inner] - max) - log);
                } else {
                    float sum = 0f;
                    for (int k = 0; k < m; k++) {
                        float e = (float) Math.exp(x[base + k * inner] - max);
                        y[base + k * inner] = e;
                        sum += e;
                    }
                    for (int k = 0; k < m; k++) y[base + k * inner] /= sum;
                }
                for (int k = m; k < n; k++) y[base + k * inner] = 0f;
            }
        }
    }

    /** The index of the first largest of the n values at base, base + inner, ...; as the loop of max does with fmaxf. */
    private static int firstMax(float[] x, int base, int n, int inner) {
        int arg = 0;
        for (int k = 1; k < n; k++) if (x[base + k * inner] > x[base + arg * inner]) arg = k;
        return arg;
    }

    static void reduce(KernelCall c, int op, DType t) {
        boolean last = c.intArg(2) == 1;
        int kr = i(c, 3), rr = i(c, 4), yArg = c.pointers().size() - 1;
        int[] ks = new int[kr], kst = new int[kr], rs = new int[rr], rst = new int[rr];
        for (int d = 0; d < kr; d++) { ks[d] = i(c, 5 + d); kst[d] = i(c, 5 + kr + d); }
        for (int d = 0; d < rr; d++) { rs[d] = i(c, 5 + 2 * kr + d); rst[d] = i(c, 5 + 2 * kr + rr + d); }
        long outN = 1, redN = 1;
        for (int v : ks) outN *= v;
        for (int v : rs) redN *= v;
        // x bounded: its leading elements are the actual ones (ReduceExtent); the others take no part
        long actual = yArg == 2 ? ReduceExtent.check(c, SimKernels.in(c, 1).getLong(0)) : Long.MAX_VALUE;
        int[] offsets = offsets(rs, rst, redN);
        ByteBuffer x = SimKernels.in(c, 0), y = SimKernels.out(c, yArg);
        boolean arg = op == Kernels.R_ARGMAX || op == Kernels.R_ARGMIN;
        int[] kidx = new int[kr];
        for (int o = 0; o < outN; o++) {
            int base = 0;
            for (int d = 0; d < kr; d++) base += kidx[d] * kst[d];
            int[] off = actual == Long.MAX_VALUE ? offsets : actualOffsets(offsets, base, actual);
            if (arg) DType.I64.putLong(y, o, argReduce(x, t, base, off, op == Kernels.R_ARGMAX, last));
            else if (t.isIntegral() && integral(op)) t.putLong(y, o, integral(x, t, base, off, op));
            else if (t.isIntegral()) t.putLong(y, o, toIntegral(floating(x, t, base, off, op), t));
            else putReal(y, t, o, floating(x, t, base, off, op));
            for (int d = kr - 1; d >= 0; d--) {
                if (++kidx[d] < ks[d]) break;
                kidx[d] = 0;
            }
        }
        SimKernels.store(c, yArg, y);
    }

    /**
     * The leading {@code offsets} (row-major over the reduced shape, so increasing) whose elements,
     * at {@code base} plus them, lie among x's {@code actual} leading elements.
     */
    private static int[] actualOffsets(int[] offsets, int base, long actual) {
        int n = 0;
        while (n < offsets.length && base + offsets[n] < actual) n++;
        return n == offsets.length ? offsets : Arrays.copyOf(offsets, n);
    }

    /** The offsets of the reduced elements from an output's base, in row-major order of the reduced shape. */
    private static int[] offsets(int[] rs, int[] rst, long redN) {
        int[] off = new int[Math.toIntExact(redN)];
        int[] idx = new int[rs.length];
        for (int j = 0; j < off.length; j++) {
            int p = 0;
            for (int d = 0; d < rs.length; d++) p += idx[d] * rst[d];
            off[j] = p;
            for (int d = rs.length - 1; d >= 0; d--) {
                if (++idx[d] < rs[d]) break;
                idx[d] = 0;
            }
        }
        return off;
    }

    private static double floating(ByteBuffer x, DType t, int base, int[] off, int op) {
        double acc = switch (op) {
            case Kernels.R_PROD -> 1.0;
            case Kernels.R_MAX -> Double.NEGATIVE_INFINITY;
            case Kernels.R_MIN -> Double.POSITIVE_INFINITY;
            default -> 0.0;
        };
        double max = Double.NEGATIVE_INFINITY;
        if (op == Kernels.R_LOG_SUM_EXP) {
            for (int j : off) {
                double v = t.getDouble(x, base + j);
                if (v > max || v != v) max = v;
            }
            if (Double.isInfinite(max) || Double.isNaN(max)) return max;
        }
        for (int j : off) {
            double v = t.getDouble(x, base + j);
            switch (op) {
                case Kernels.R_MAX -> { if (v > acc || v != v) acc = v; }
                case Kernels.R_MIN -> { if (v < acc || v != v) acc = v; }
                case Kernels.R_PROD -> acc *= v;
                case Kernels.R_L1 -> acc += Math.abs(v);
                case Kernels.R_L2, Kernels.R_SUM_SQUARE -> acc += v * v;
                case Kernels.R_LOG_SUM_EXP -> acc += Math.exp(v - max);
                default -> acc += v;
            }
        }
        return switch (op) {
            case Kernels.R_MEAN -> off.length == 0 ? 0.0 : acc / off.length;   // 0 over no element, as ONNX Runtime 1.30
            case Kernels.R_L2 -> Math.sqrt(acc);
            case Kernels.R_LOG_SUM -> Math.log(acc);
            case Kernels.R_LOG_SUM_EXP -> max + Math.log(acc);
            default -> acc;
        };
    }

    /**
     * A floating result stored in integer type t: truncated toward zero ({@link DType#toIntegral}), an infinity as
     * t's lowest or highest value, so ReduceLogSum and ReduceLogSumExp over no element give int32's -2^31 (ONNX
     * Runtime 1.30; the spec: minus infinity where the type has it, else undefined), not -2^63's low 32 bits, 0.
     */
    private static long toIntegral(double v, DType t) {
        return v == Double.NEGATIVE_INFINITY ? lowest(t) : v == Double.POSITIVE_INFINITY ? highest(t) : DType.toIntegral(v, t);
    }

    /** Sum, product (wrapping), max or min in 64 bits; max and min ordered as {@link DType#compareIntegral} (uint64 unsigned). */
    private static long integral(ByteBuffer x, DType t, int base, int[] off, int op) {
        long acc = switch (op) {
            case Kernels.R_PROD -> 1;
            case Kernels.R_MAX -> lowest(t);
            case Kernels.R_MIN -> highest(t);
            default -> 0;
        };
        for (int j : off) {
            long v = t.getLong(x, base + j);
            switch (op) {
                case Kernels.R_MAX -> { if (t.compareIntegral(v, acc) > 0) acc = v; }
                case Kernels.R_MIN -> { if (t.compareIntegral(v, acc) < 0) acc = v; }
                case Kernels.R_PROD -> acc *= v;
                default -> acc += v;
            }
        }
        return acc;
    }

    /** The empty value of an integer max: the type's lowest value (ONNX Runtime 1.30 gives INT32_MIN for int32), bool and int64 that of 64 bits, uint64 0. */
    private static long lowest(DType t) {
        return switch (t) {
            case I8, I16, I32 -> -(1L << (t.bits() - 1));
            case U8, U16, U32, U64 -> 0;
            default -> Long.MIN_VALUE;
        };
    }

    /** The empty value of an integer min: the type's highest value, bool and int64 that of 64 bits, uint64 all ones. */
    private static long highest(DType t) {
        return switch (t) {
            case I8, I16, I32 -> (1L << (t.bits() - 1)) - 1;
            case U8, U16, U32 -> (1L << t.bits()) - 1;
            case U64 -> -1L;
            default -> Long.MAX_VALUE;
        };
    }

    /**
     * The index (in reduction order) of the first (or, with {@code last}, the last) largest or smallest element.
     * A NaN wins over every number, for argmax and argmin alike, as it does in ReduceMax and ReduceMin
     * (numpy's argmax/argmin and onnx.reference's ArgMax/ArgMin: the first NaN, with select_last_index the last;
     * ONNX Runtime 1.30 does so when it reduces a whole 1-D tensor and skips NaNs elsewhere).
     */
    private static long argReduce(ByteBuffer x, DType t, int base, int[] off, boolean max, boolean last) {
        int best = 0;
        for (int j = 1; j < off.length; j++) {
            int cmp = t.isIntegral() ? Integer.signum(t.compareIntegral(t.getLong(x, base + off[j]), t.getLong(x, base + off[best])))
                    : argOrder(t.getDouble(x, base + off[j]), t.getDouble(x, base + off[best]), max);
            if (t.isIntegral() && !max) cmp = -cmp;
            if (cmp > 0 || (last && cmp == 0)) best = j;
        }
        return best;
    }

    /** 1, 0 or -1 as a wins over b, ties with it or loses: the larger (argmin: the smaller), a NaN over every number, tying with a NaN. */
    private static int argOrder(double a, double b, boolean max) {
        boolean an = a != a, bn = b != b;
        if (an || bn) return an == bn ? 0 : an ? 1 : -1;
        int c = a > b ? 1 : a < b ? -1 : 0;
        return max ? c : -c;
    }

    /** Stores {@code v}: as is in f64, rounded once to f32, f16 or bf16. */
    static void putReal(ByteBuffer y, DType t, int i, double v) {
        if (t == DType.F64) y.putDouble(i * 8, v);
        else t.putFloat(y, i, (float) v);
    }
}
