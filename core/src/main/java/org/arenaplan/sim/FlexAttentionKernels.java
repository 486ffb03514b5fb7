package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#FLEX_ATTENTION} (layout and arithmetic documented there): one
 * query row (b, h, l) at a time, from the call's first point (Q and K, scores, or probabilities)
 * to its last (scores, probabilities, or Y), each value rounded to its type where the onnx
 * reference (numpy and ml_dtypes) rounds it. Cost: B * Hq * L * S * (E + Ev) multiply-adds for the whole operator.
 */
final class FlexAttentionKernels {
    private FlexAttentionKernels() { }

    /** The computation of {@code c}, or null when it is not this family's kernel. */
    static Runnable bind(KernelCall c) {
        if (!c.name().equals(Kernels.FLEX_ATTENTION)) return null;
        if (c.ints().length < 11) throw new DeviceException("'" + c.label() + "': flex_attention takes 11 ints, got " + c.ints().length);
        int b = i(c, 0), hq = i(c, 1), hkv = i(c, 2), len = i(c, 3), s = i(c, 4), e = i(c, 5), ev = i(c, 6), from = i(c, 7), to = i(c, 8);
        if (from < 0 || from > 2 || to <= from || to > 3)
            throw new DeviceException("'" + c.label() + "': flex_attention runs from point " + from + " to " + to + "; 0 <= from < to <= 3");
        if (hkv < 1 || hq % hkv != 0) throw new DeviceException("'" + c.label() + "': flex_attention heads " + hq + "/" + hkv + ": q heads must be a multiple of kv heads");
        SimKernels.need(c, (from == 0 ? 2 : 1) + (to == 3 ? 1 : 0) + 1, 11);
        DType t = SimKernels.dtype(c, 9), cd = SimKernels.dtype(c, 10);
        for (DType x : new DType[]{t, cd})
            if (x != DType.F32 && x != DType.F16 && x != DType.BF16 && x != DType.F64)
                throw new DeviceException("'" + c.label() + "': flex_attention takes f32, f16, bf16 or f64, not " + x.jsonName());
        long rows = (long) b * hq * len;
        int slot = 0;
        if (from == 0) {
            check(c, slot++, t, (long) b * hq * len * e);
            check(c, slot++, t, (long) b * hkv * s * e);
        } else {
            check(c, slot++, cd, rows * s);
        }
        int vAt = to == 3 ? slot++ : -1, outAt = slot;
        if (to == 3) {
            check(c, vAt, t, (long) b * hkv * s * ev);
            check(c, outAt, t, rows * ev);
        } else {
            check(c, outAt, cd, rows * s);
        }
        double f = c.floatArg(0);
        int group = hq / hkv;
        return () -> {
            ByteBuffer q = from == 0 ? SimKernels.in(c, 0) : null, k = from == 0 ? SimKernels.in(c, 1) : null,
                    x = from > 0 ? SimKernels.in(c, 0) : null, v = to == 3 ? SimKernels.in(c, vAt) : null;
            ByteBuffer out = SimKernels.out(c, outAt);
            double[] row = new double[s];
            for (int r = 0; r < rows; r++) {
                int head = (int) (r / len % hq), batch = (int) (r / ((long) len * hq)), kvRow = (batch * hkv + head / group) * s;
                if (from == 0) {
                    for (int j = 0; j < s; j++) {
                        double acc = 0;
                        for (int d = 0; d < e; d++)
                            acc += round(t, get(t, q, r * e + d) * f) * round(t, get(t, k, (kvRow + j) * e + d) * f);
                        row[j] = cast(t, cd, round(t, acc));
                    }
                } else {
                    for (int j = 0; j < s; j++) row[j] = get(cd, x, r * s + j);
                }
                if (from <= 1 && to >= 2) softmax(cd, row);
                if (to < 3) {
                    for (int j = 0; j < s; j++) put(cd, out, r * s + j, row[j]);
                    continue;
                }
                for (int m = 0; m < ev; m++) {
                    double acc = 0;
                    for (int j = 0; j < s; j++) {
                        acc += row[j] * cast(t, cd, get(t, v, (kvRow + j) * ev + m));
                        if (cd == DType.BF16) acc = (float) acc;   // ml_dtypes' bf16 matmul: a float32 sum, returned as float32
                    }
                    put(t, out, r * ev + m, cd == DType.BF16 ? acc : round(cd, acc));
                }
            }
            SimKernels.store(c, outAt, out);
        };
    }

    /**
     * The row's softmax in type {@code cd}: m = max, p = C(exp(C(s - m))), p = C(p / C(sum p)); the
     * sum in double, but for bf16 rounded to bf16 at every step, j ascending (ml_dtypes' add
     * reduction, which numpy's sum runs on bf16).
     */
    static void softmax(DType cd, double[] row) {
        double max = Double.NEGATIVE_INFINITY;
        for (double x : row) max = Math.max(max, x);
        double sum = 0;
        for (int j = 0; j < row.length; j++) {
            row[j] = round(cd, Math.exp(round(cd, row[j] - max)));
            sum = cd == DType.BF16 ? round(cd, sum + row[j]) : sum + row[j];
        }
        double total = round(cd, sum);
        for (int j = 0; j < row.length; j++) row[j] = round(cd, row[j] / total);
    }

    /**
     * {@code v}, a value of type {@code t}, cast to {@code cd} as numpy's astype casts it: an f64
     * to f16 rounded once (numpy's double-to-half), every other cast as {@link #round} (ml_dtypes
     * casts an f64 to bf16 through f32).
     */
    static double cast(DType t, DType cd, double v) {
        return t == DType.F64 && cd == DType.F16 ? DType.halfToFloat(halfOfDouble(v)) : round(cd, v);
    }

    /**
     * {@code v} rounded once to f16, to nearest even: rounded to f32 to odd (of the two f32 values
     * around v, the one with an odd last bit), which f32's 13 more bits make exact for the second
     * rounding (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved
     * algorithms using rounding to odd", IEEE TC 2008).
     */
    static short halfOfDouble(double v) {
        float f = (float) v;
        if ((double) f != v && !Float.isInfinite(f) && (Float.floatToRawIntBits(f) & 1) == 0)
            f = Math.nextAfter(f, v);
        return DType.floatToHalf(f);
    }

    /** {@code v} rounded to {@code t} (f64: unchanged). */
    static double round(DType t, double v) {
        return t == DType.F64 ? v : SimKernels.rounded(t, v);
    }

    private static double get(DType t, ByteBuffer b, long i) {
        return t == DType.F64 ? b.getDouble(Math.toIntExact(i) * 8) : t.getFloat(b, Math.toIntExact(i));
    }

    private static void put(DType t, ByteBuffer b, long i, double v) {
        if (t == DType.F64) b.putDouble(Math.toIntExact(i) * 8, v);
        else t.putFloat(b, Math.toIntExact(i), (float) v);
    }

    private static void check(KernelCall c, int k, DType t, long elements) {
        if (SimKernels.count(c, k, t) != elements)
            throw new DeviceException("'" + c.label() + "': flex_attention argument " + c.pointer(k).tensor() + " holds " + SimKernels.count(c, k, t) + " elements, not " + elements);
    }
}
