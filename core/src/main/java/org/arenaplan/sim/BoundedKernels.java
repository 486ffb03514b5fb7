package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.CountedSlice;
import org.arenaplan.ir.IndexShapeRules;

import java.nio.ByteBuffer;

/**
 * The simulator's kernels of ops that carry a bounded tensor ({@code ir.OpSpec.BoundedFlow};
 * layouts in {@link Kernels}): {@link Kernels#ZERO_TAIL} zeroes a bounded tensor's tail past the
 * n * per elements its runtime extent n covers; {@link Kernels#TRANSPOSE_BOUNDED} transposes the
 * actual tensor a bounded one holds compactly; {@link Kernels#CHECK_EXTENT} stops a run whose extent is
 * not the one a Split's fixed parts need; {@link Kernels#SPLIT_BOUNDED} copies one of the parts ONNX derives
 * from the actual extent and writes its row count; {@link Kernels#SLICE_BOUNDED} copies the rows a Slice takes of the
 * actual extent and writes their count; {@link Kernels#CONCAT_BOUNDED} moves one input's actual rows of a Concat along the
 * bounded axis after the rows of the inputs before it and writes the rows written so far.
 * {@link Kernels#RESHAPE_EXTENT} writes the rows of a Reshape that merges or splits the
 * bounded axis. CUDA's twins are in bounded.cuh.
 */
final class BoundedKernels {
    private BoundedKernels() { }

    /** The computation of {@code c}, or null when it is not one of these kernels. */
    static Runnable bind(KernelCall c) {
        return switch (c.name()) {
            case Kernels.ZERO_TAIL -> zeroTail(c);
            case Kernels.TRANSPOSE_BOUNDED -> transposeBounded(c);
            case Kernels.CHECK_EXTENT -> checkExtent(c);
            case Kernels.SPLIT_BOUNDED -> splitBounded(c);
            case Kernels.SLICE_BOUNDED -> sliceBounded(c);
            case Kernels.CONCAT_BOUNDED -> concatBounded(c);
            case Kernels.RESHAPE_EXTENT -> reshapeExtent(c);
            default -> null;
        };
    }

    private static Runnable zeroTail(KernelCall c) {
        SimKernels.need(c, 2, 3);
        long per = c.intArg(0), total = c.intArg(1);
        int es = SimKernels.elementBytes(c, 2);
        if (per < 0 || total < 0) throw fail(c, "per " + per + " and total " + total + " must not be negative");
        size(c, 0, 8);
        size(c, 1, total * es);
        return () -> {
            long n = SimKernels.in(c, 0).getLong(0);
            long start = n < 0 ? 0 : per == 0 ? total : Math.min(total, n > total / per ? total : n * per);
            if (start >= total) return;
            KernelArg y = c.pointer(1);
            int bytes = Math.toIntExact((total - start) * es);
            SimDevice.block(y.pointer()).write(y.pointer().offset() + start * es, new byte[bytes], 0, bytes);
        };
    }

    private static Runnable checkExtent(KernelCall c) {
        SimKernels.need(c, 1, 1);
        size(c, 0, 8);
        return () -> org.arenaplan.device.ExtentCheck.check(c, SimKernels.in(c, 0).getLong(0));
    }

    private static Runnable splitBounded(KernelCall c) {
        SimKernels.need(c, 4, 7);
        long parts = c.intArg(1), mode = c.intArg(2), per = c.intArg(3), rows = c.intArg(4), bound = c.intArg(5);
        int es = SimKernels.elementBytes(c, 6);
        if (parts < 1 || c.intArg(0) < 0 || c.intArg(0) >= parts || (mode != 0 && mode != 1) || per < 0 || rows < 0 || bound < 0)
            throw fail(c, "part " + c.intArg(0) + " of " + parts + ", mode " + mode + ", per " + per + ", rows " + rows + " and bound " + bound + " out of range");
        size(c, 0, 8);
        size(c, 1, bound * per * es);
        size(c, 2, rows * per * es);
        size(c, 3, 8);
        return () -> {
            long[] p = org.arenaplan.device.ExtentCheck.parts(c, SimKernels.in(c, 0).getLong(0));
            long m = Math.min(p[1], rows);
            ByteBuffer x = SimKernels.in(c, 1), y = SimKernels.out(c, 2);
            for (long i = 0; i < m * per * es; i++) y.put((int) i, x.get((int) (p[0] * per * es + i)));
            SimKernels.store(c, 2, y);
            ByteBuffer n = SimKernels.out(c, 3);
            n.putLong(0, m);
            SimKernels.store(c, 3, n);
        };
    }

    private static Runnable sliceBounded(KernelCall c) {
        SimKernels.need(c, 4, 15);
        long[] terms = new long[2 * CountedSlice.TERMS];
        for (int k = 0; k < terms.length; k++) terms[k] = c.intArg(k);
        long step = c.intArg(10), rows = c.intArg(11), bound = c.intArg(12), per = c.intArg(13);
        int es = SimKernels.elementBytes(c, 14);
        if (step == 0 || terms[2] <= 0 || terms[7] <= 0 || rows < 0 || bound < 0 || per < 0)
            throw fail(c, "step " + step + ", divisors " + terms[2] + " and " + terms[7] + ", rows " + rows + ", bound " + bound + " and per " + per + " out of range");
        size(c, 0, 8);
        size(c, 1, bound * per * es);
        size(c, 2, rows * per * es);
        size(c, 3, 8);
        return () -> {
            IndexShapeRules.Range r = CountedSlice.rows(terms, 0, step, Math.max(0, Math.min(SimKernels.in(c, 0).getLong(0), bound)));
            long m = Math.min(r.count(), rows);
            ByteBuffer x = SimKernels.in(c, 1), y = SimKernels.out(c, 2);
            for (long i = 0; i < m; i++)
                for (long j = 0; j < per * es; j++) y.put((int) (i * per * es + j), x.get((int) ((r.start() + i * step) * per * es + j)));
            SimKernels.store(c, 2, y);
            ByteBuffer n = SimKernels.out(c, 3);
            n.putLong(0, m);
            SimKernels.store(c, 3, n);
        };
    }

    private static Runnable concatBounded(KernelCall c) {
        if (c.ints().length < 6) throw fail(c, "takes 6 ints, got " + c.ints().length);
        long rows = c.intArg(0), per = c.intArg(1), yRows = c.intArg(2);
        int es = SimKernels.elementBytes(c, 3);
        boolean before = c.intArg(4) == 1, extent = c.intArg(5) == 1;
        int x = (before ? 1 : 0) + (extent ? 1 : 0);
        SimKernels.need(c, x + 3, 6);
        if (rows < 0 || per < 0 || yRows < 0) throw fail(c, "rows " + rows + ", per " + per + " and yRows " + yRows + " must not be negative");
        if (before) size(c, 0, 8);
        if (extent) size(c, x - 1, 8);
        size(c, x, rows * per * es);
        size(c, x + 1, yRows * per * es);
        size(c, x + 2, 8);
        return () -> {
            long o = before ? Math.max(0, Math.min(SimKernels.in(c, 0).getLong(0), yRows)) : 0;
            long n = extent ? Math.max(0, Math.min(SimKernels.in(c, x - 1).getLong(0), rows)) : rows;
            long m = Math.min(n, yRows - o);
            byte[] head = java.util.Arrays.copyOf(SimKernels.in(c, x).array(), Math.toIntExact(m * per * es));
            byte[] rest = new byte[Math.toIntExact((yRows - o) * per * es)];   // its rows, then zeros up to the bound; the rows before o stay
            System.arraycopy(head, 0, rest, 0, head.length);
            KernelArg y = c.pointer(x + 1);
            SimDevice.block(y.pointer()).write(y.pointer().offset() + o * per * es, rest, 0, rest.length);
            ByteBuffer after = SimKernels.out(c, x + 2);
            after.putLong(0, o + m);
            SimKernels.store(c, x + 2, after);
        };
    }

    private static Runnable reshapeExtent(KernelCall c) {
        SimKernels.need(c, 2, 3);
        if (c.intArg(0) < 0 || c.intArg(1) < 1 || c.intArg(2) < 0)
            throw fail(c, "mul " + c.intArg(0) + ", div " + c.intArg(1) + " and bound " + c.intArg(2) + " out of range");
        size(c, 0, 8);
        size(c, 1, 8);
        return () -> {
            ByteBuffer m = SimKernels.out(c, 1);
            m.putLong(0, org.arenaplan.device.ExtentCheck.reshaped(c, SimKernels.in(c, 0).getLong(0)));
            SimKernels.store(c, 1, m);
        };
    }

    private static Runnable transposeBounded(KernelCall c) {
        SimKernels.need(c, 3, 3);
        int rank = SimKernels.i(c, 0), axis = SimKernels.i(c, 1), es = SimKernels.elementBytes(c, 2);
        if (rank < 1 || rank > Kernels.NONZERO_MAX_RANK || axis < 0 || axis >= rank) throw fail(c, "rank " + rank + " and axis " + axis + " out of range");
        SimKernels.need(c, 3, 3 + 2 * rank);
        long[] bound = new long[rank];
        int[] perm = new int[rank];
        long total = 1;
        for (int d = 0; d < rank; d++) {
            bound[d] = c.intArg(3 + d);
            perm[d] = SimKernels.i(c, 3 + rank + d);
            if (perm[d] < 0 || perm[d] >= rank) throw fail(c, "perm[" + d + "] = " + perm[d] + " is outside [0, " + rank + ")");
            total *= bound[d];
        }
        size(c, 0, 8);
        size(c, 1, total * es);
        size(c, 2, total * es);
        return () -> {
            long n = SimKernels.in(c, 0).getLong(0);
            long[] s = bound.clone();
            s[axis] = Math.max(0, Math.min(n, bound[axis]));
            long[] stride = new long[rank];
            long m = 1;
            for (int d = rank - 1; d >= 0; d--) { stride[d] = m; m *= s[d]; }
            ByteBuffer x = SimKernels.in(c, 1), y = SimKernels.out(c, 2);
            for (long i = 0; i < m; i++) {
                long rest = i, at = 0;
                for (int d = rank - 1; d >= 0; d--) {
                    long e = s[perm[d]];
                    at += rest % e * stride[perm[d]];
                    rest /= e;
                }
                for (int b = 0; b < es; b++) y.put((int) (i * es + b), x.get((int) (at * es + b)));
            }
            SimKernels.store(c, 2, y);
        };
    }

    private static void size(KernelCall c, int k, long bytes) {
        if (c.pointer(k).bytes() != bytes) throw fail(c, "argument " + k + " (" + c.pointer(k).tensor() + ") has " + c.pointer(k).bytes() + " B, the layout needs " + bytes);
    }

    private static DeviceException fail(KernelCall c, String why) {
        return new DeviceException("'" + c.label() + "': kernel " + c.name() + ": " + why);
    }
}
