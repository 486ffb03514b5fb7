package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.util.List;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#NONZERO}, {@link Kernels#COMPRESS} and {@link Kernels#UNIQUE} (layouts there), the
 * kernels of data-dependent outputs ({@code ir.OpSpec.BoundedRule}): each writes the actual count
 * into its extent argument and the actual row-major tensor into the leading elements of its
 * upper-bound output, zeros after. data_dependent.cuh repeats them step for step.
 */
final class DataDependentKernels {
    private DataDependentKernels() { }

    /** The computation of {@code c}, or null when it is not one of these kernels. */
    static Runnable bind(KernelCall c) {
        return switch (c.name()) {
            case Kernels.NONZERO -> nonZero(c);
            case Kernels.COMPRESS -> compress(c);
            case Kernels.UNIQUE -> unique(c);
            default -> null;
        };
    }

    private static Runnable nonZero(KernelCall c) {
        if (c.ints().length < 2) throw fail(c, "takes ints [n, rank, shape[rank], dtype]");
        int rank = i(c, 1);
        if (rank < 1 || rank > 16) throw fail(c, "rank " + rank + " is outside 1..16");
        SimKernels.need(c, 3, 3 + rank);
        int n = i(c, 0);
        DType t = SimKernels.dtype(c, 2 + rank);
        if (!t.isIntegral() && !t.isFloatingPoint()) throw fail(c, "takes bool, integers, f16, bf16, f32 and f64, not " + t.jsonName());
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) shape[d] = c.intArg(2 + d);
        size(c, 0, (long) n * t.bytes());
        size(c, 1, 8);
        size(c, 2, 8L * rank * n);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), e = SimKernels.out(c, 1), y = SimKernels.out(c, 2);
            int count = 0;
            for (int k = 0; k < n; k++) if (nonZero(t, x, k)) count++;
            int j = 0;
            for (int k = 0; k < n; k++) {
                if (!nonZero(t, x, k)) continue;
                long rest = k;
                for (int d = rank - 1; d >= 0; d--) {
                    y.putLong(8 * (d * count + j), rest % shape[d]);
                    rest /= shape[d];
                }
                j++;
            }
            e.putLong(0, count);
            SimKernels.store(c, 1, e);
            SimKernels.store(c, 2, y);
        };
    }

    /** Whether element {@code k} of {@code x} is not zero (a NaN is not zero; -0.0 is). */
    private static boolean nonZero(DType t, ByteBuffer x, int k) {
        return t.isIntegral() ? t.getLong(x, k) != 0 : t.getDouble(x, k) != 0;
    }

    private static Runnable compress(KernelCall c) {
        SimKernels.need(c, 4, 5);
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), m = i(c, 3), es = SimKernels.elementBytes(c, 4);
        if (m > n) throw fail(c, "condition of " + m + " values is longer than the axis of " + n);
        size(c, 0, (long) outer * n * inner * es);
        size(c, 1, m);
        size(c, 2, 8);
        size(c, 3, (long) outer * m * inner * es);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), cond = SimKernels.in(c, 1), e = SimKernels.out(c, 2), y = SimKernels.out(c, 3);
            int count = 0;
            for (int s = 0; s < m; s++) if (cond.get(s) != 0) count++;
            int j = 0;
            for (int s = 0; s < m; s++) {
                if (cond.get(s) == 0) continue;
                for (int o = 0; o < outer; o++)
                    for (int k = 0; k < inner; k++) SimKernels.move(x, (o * n + s) * inner + k, y, (o * count + j) * inner + k, es);
                j++;
            }
            e.putLong(0, count);
            SimKernels.store(c, 2, e);
            SimKernels.store(c, 3, y);
        };
    }

    private static Runnable unique(KernelCall c) {
        SimKernels.need(c, 6, 6);
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), sorted = i(c, 3);
        DType t = SimKernels.dtype(c, 4);
        if (!t.isIntegral() && !t.isFloatingPoint()) throw fail(c, "takes bool, integers, f16, bf16, f32 and f64, not " + t.jsonName());
        int es = SimKernels.elementBytes(c, 5);
        if (es != t.bytes()) throw fail(c, "element size " + es + " is not " + t.jsonName() + "'s");
        size(c, 0, (long) outer * n * inner * es);
        size(c, 1, 8);
        size(c, 2, (long) outer * n * inner * es);
        for (int k = 3; k < 6; k++) size(c, k, 8L * n);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), e = SimKernels.out(c, 1), y = SimKernels.out(c, 2);
            ByteBuffer indices = SimKernels.out(c, 3), inverse = SimKernels.out(c, 4), counts = SimKernels.out(c, 5);
            boolean[] first = new boolean[n];
            int count = 0;
            for (int s = 0; s < n; s++) {
                first[s] = true;
                for (int r = 0; r < s && first[s]; r++) if (compareSlices(t, x, outer, n, inner, r, s) == 0) first[s] = false;
                if (first[s]) count++;
            }
            int[] position = new int[n];   // of each first occurrence in Y
            for (int s = 0; s < n; s++) {
                if (!first[s]) continue;
                int p = 0;
                for (int r = 0; r < n; r++) if (first[r] && (sorted == 1 ? compareSlices(t, x, outer, n, inner, r, s) < 0 : r < s)) p++;
                position[s] = p;
                long equal = 0;
                for (int r = 0; r < n; r++) if (compareSlices(t, x, outer, n, inner, r, s) == 0) equal++;
                for (int o = 0; o < outer; o++)
                    for (int k = 0; k < inner; k++) SimKernels.move(x, (o * n + s) * inner + k, y, (o * count + p) * inner + k, es);
                indices.putLong(8 * p, s);
                counts.putLong(8 * p, equal);
            }
            for (int s = 0; s < n; s++) {
                int f = 0;
                while (compareSlices(t, x, outer, n, inner, f, s) != 0) f++;
                inverse.putLong(8 * s, position[f]);
            }
            e.putLong(0, count);
            for (int k = 1; k < 6; k++) SimKernels.store(c, k, List.of(e, y, indices, inverse, counts).get(k - 1));
        };
    }

    /** Slices a and b of x [outer, n, inner] compared element by element in row-major order of (o, i): -1, 0 or 1. */
    private static int compareSlices(DType t, ByteBuffer x, int outer, int n, int inner, int a, int b) {
        for (int o = 0; o < outer; o++) {
            for (int k = 0; k < inner; k++) {
                int ia = (o * n + a) * inner + k, ib = (o * n + b) * inner + k;
                int r = t.isIntegral() ? (t == DType.U64 ? Long.compareUnsigned(t.getLong(x, ia), t.getLong(x, ib)) : Long.compare(t.getLong(x, ia), t.getLong(x, ib)))
                        : compareValues(t.getDouble(x, ia), t.getDouble(x, ib));
                if (r != 0) return r;
            }
        }
        return 0;
    }

    /** Floats by value: -0.0 equals 0.0; a NaN equals a NaN and is above every number (numpy.unique's equal_nan). */
    private static int compareValues(double a, double b) {
        boolean na = Double.isNaN(a), nb = Double.isNaN(b);
        if (na || nb) return na == nb ? 0 : na ? 1 : -1;
        return a < b ? -1 : a > b ? 1 : 0;
    }

    private static void size(KernelCall c, int k, long bytes) {
        if (c.pointer(k).bytes() != bytes) throw fail(c, "argument " + k + " (" + c.pointer(k).tensor() + ") has " + c.pointer(k).bytes() + " B, the layout needs " + bytes);
    }

    private static DeviceException fail(KernelCall c, String why) {
        return new DeviceException("'" + c.label() + "': kernel " + c.name() + ": " + why);
    }
}
