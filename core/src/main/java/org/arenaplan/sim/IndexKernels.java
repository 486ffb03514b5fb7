package org.arenaplan.sim;

import org.arenaplan.device.BoundedIndices;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.IndexOutOfRangeException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.dtype;
import static org.arenaplan.sim.SimKernels.elementBytes;
import static org.arenaplan.sim.SimKernels.i;
import static org.arenaplan.sim.SimKernels.in;
import static org.arenaplan.sim.SimKernels.move;
import static org.arenaplan.sim.SimKernels.need;
import static org.arenaplan.sim.SimKernels.out;
import static org.arenaplan.sim.SimKernels.store;

/**
 * The simulator's shape and index kernels (strided_copy, pad, trilu, gather_elements,
 * gather_nd, scatter_elements, scatter_nd, onehot), with the argument layouts of
 * {@link Kernels}. Pure data movement is bit-exact; the scatter reductions compute as
 * {@link #combine} says, in the order the updates are listed (the CUDA kernels run them
 * serially in the same order). An index out of range is an error naming the op.
 */
final class IndexKernels {
    private IndexKernels() { }

    /** Whether {@code name} is one of these kernels. */
    static boolean handles(String name) {
        return Kernels.INDEX.contains(name);
    }

    /** Checks the call's arguments now and returns the computation. */
    static Runnable bind(KernelCall c) {
        switch (c.name()) {
            case Kernels.STRIDED_COPY: {
                int rank = rank(c, 0, 16);
                need(c, 2, 3 + 2 * rank);
                int es = elementBytes(c, 2 + 2 * rank);
                long lo = c.intArg(1 + 2 * rank), hi = lo, n = 1;
                for (int d = 0; d < rank; d++) {
                    long extent = c.intArg(1 + d), stride = c.intArg(1 + rank + d);
                    n = Math.multiplyExact(n, extent);
                    if (extent > 0) {
                        lo += Math.min(0, (extent - 1) * stride);
                        hi += Math.max(0, (extent - 1) * stride);
                    }
                }
                if (n > 0 && (lo < 0 || (hi + 1) * es > c.pointer(0).bytes()))
                    throw fail(c, "reads elements " + lo + ".." + hi + " of an input of " + c.pointer(0).bytes() / es);
                if (n * es != c.pointer(1).bytes()) throw fail(c, "writes " + n + " elements into " + c.pointer(1).bytes() + " B");
                return () -> stridedCopy(c);
            }
            case Kernels.PAD: {
                int rank = rank(c, 0, 8);
                need(c, c.pointers().size() == 3 ? 3 : 2, 3 + 3 * rank);
                elementBytes(c, 2 + 3 * rank);
                if (c.intArg(1 + 3 * rank) < 0 || c.intArg(1 + 3 * rank) > 3) throw fail(c, "unknown pad mode " + c.intArg(1 + 3 * rank));
                return () -> pad(c);
            }
            case Kernels.TRILU: need(c, 2, 6); elementBytes(c, 5); return () -> trilu(c);
            case Kernels.GATHER_ELEMENTS: {
                int rank = rank(c, 0, 8);
                need(c, 3, 4 + 2 * rank);
                elementBytes(c, 2 + 2 * rank);
                indexType(c, 3 + 2 * rank);
                return () -> gatherElements(c);
            }
            case Kernels.SCATTER_ELEMENTS: {
                int rank = rank(c, 0, 8);
                boolean bounded = c.pointers().size() == 5;   // with the runtime extent of bounded indices and updates, and per
                need(c, bounded ? 5 : 4, 6 + 2 * rank + (bounded ? 1 : 0));
                elementBytes(c, 3 + 2 * rank);
                dtype(c, 4 + 2 * rank);
                indexType(c, 5 + 2 * rank);
                return () -> scatterElements(c);
            }
            case Kernels.GATHER_ND: {
                int k = rank(c, 2, 8);
                need(c, c.pointers().size() >= 4 ? c.pointers().size() : 3, c.pointers().size() >= 4 ? 7 + k : 6 + k);   // data's extent with per, then the indices' extent
                elementBytes(c, 4 + k);
                indexType(c, 5 + k);
                return () -> gatherNd(c);
            }
            case Kernels.SCATTER_ND: {
                int k = rank(c, 1, 8);
                boolean bounded = c.pointers().size() == 5;   // with the runtime extent of bounded indices and updates, and per
                need(c, bounded ? 5 : 4, 7 + k + (bounded ? 1 : 0));
                elementBytes(c, 4 + k);
                dtype(c, 5 + k);
                indexType(c, 6 + k);
                return () -> scatterNd(c);
            }
            case Kernels.ONEHOT: need(c, 3, 5); dtype(c, 3); elementBytes(c, 4); return () -> oneHot(c);
            case Kernels.TENSOR_SCATTER: {
                need(c, c.pointers().size() == 4 ? 4 : 3, 9);
                if ((c.intArg(7) == 1) != (c.pointers().size() == 4)) throw fail(c, "hasIndices " + c.intArg(7) + " but " + c.pointers().size() + " pointers");
                elementBytes(c, 6);
                if (c.intArg(7) == 1 && dtype(c, 8) != DType.I64) throw fail(c, "write indices must be int64, not " + dtype(c, 8).jsonName());
                return () -> tensorScatter(c);
            }
            default: throw fail(c, "not an index kernel");
        }
    }

    private static int rank(KernelCall c, int k, int max) {
        long r = c.intArg(k);
        if (r < 0 || r > max) throw fail(c, "rank " + r + " is outside 0.." + max);
        return (int) r;
    }

    private static DType indexType(KernelCall c, int k) {
        DType t = dtype(c, k);
        if (t != DType.I64 && t != DType.I32) throw fail(c, "indices must be int64 or int32, not " + t.jsonName());
        return t;
    }

    private static DeviceException fail(KernelCall c, String why) {
        return new DeviceException("'" + c.label() + "': kernel " + c.name() + ": " + why);
    }

    /** The row-major strides of {@code shape}. */
    private static long[] strides(long[] shape) {
        long[] s = new long[shape.length];
        long p = 1;
        for (int d = shape.length - 1; d >= 0; d--) { s[d] = p; p *= shape[d]; }
        return s;
    }

    private static long[] ints(KernelCall c, int from, int count) {
        long[] a = new long[count];
        for (int d = 0; d < count; d++) a[d] = c.intArg(from + d);
        return a;
    }

    private static long product(long[] s) {
        long p = 1;
        for (long d : s) p *= d;
        return p;
    }

    /** The next row-major index of {@code shape} after {@code idx} (in place). */
    private static void next(long[] idx, long[] shape) {
        for (int d = shape.length - 1; d >= 0; d--) {
            if (++idx[d] < shape[d]) return;
            idx[d] = 0;
        }
    }

    /** ints [rank, shape[rank], stride[rank], offset, es]: y[i] = x[offset + sum idx_d * stride_d]. */
    static void stridedCopy(KernelCall c) {
        int rank = i(c, 0);
        long[] shape = ints(c, 1, rank), stride = ints(c, 1 + rank, rank);
        long offset = c.intArg(1 + 2 * rank);
        int es = elementBytes(c, 2 + 2 * rank);
        ByteBuffer x = in(c, 0), y = out(c, 1);
        long n = product(shape);
        long[] idx = new long[rank];
        for (long o = 0; o < n; o++) {
            long src = offset;
            for (int d = 0; d < rank; d++) src += idx[d] * stride[d];
            move(x, (int) src, y, (int) o, es);
            next(idx, shape);
        }
        store(c, 1, y);
    }

    /** The source index of padded position {@code s} on an axis of {@code n} elements, or -1 for the constant. */
    static long padSource(long s, long n, int mode) {
        if (s >= 0 && s < n) return s;
        if (n == 0) return -1;
        switch (mode) {
            case 1: {                                 // reflect (numpy 'reflect'): period 2(n - 1), the edge not repeated
                if (n == 1) return 0;
                long period = 2 * (n - 1);
                long m = Math.floorMod(s, period);
                return m < n ? m : period - m;
            }
            case 2: return Math.max(0, Math.min(n - 1, s));   // edge
            case 3: return Math.floorMod(s, n);                 // wrap
            default: return -1;                                 // constant
        }
    }

    /** ints [rank, yShape[rank], xShape[rank], begin[rank], mode, es]; ptrs [x, (value), y]. */
    static void pad(KernelCall c) {
        int rank = i(c, 0);
        long[] ys = ints(c, 1, rank), xs = ints(c, 1 + rank, rank), begin = ints(c, 1 + 2 * rank, rank);
        int mode = i(c, 1 + 3 * rank), es = elementBytes(c, 2 + 3 * rank);
        boolean hasValue = c.pointers().size() == 3;
        ByteBuffer x = in(c, 0), value = hasValue ? in(c, 1) : null, y = out(c, hasValue ? 2 : 1);
        long[] xStride = strides(xs);
        long n = product(ys);
        long[] idx = new long[rank];
        for (long o = 0; o < n; o++) {
            long src = 0;
            for (int d = 0; d < rank && src >= 0; d++) {
                long s = padSource(idx[d] - begin[d], xs[d], mode);
                src = s < 0 ? -1 : src + s * xStride[d];
            }
            if (src >= 0) move(x, (int) src, y, (int) o, es);
            else if (hasValue) move(value, 0, y, (int) o, es);
            next(idx, ys);
        }
        store(c, hasValue ? 2 : 1, y);
    }

    /** ints [batch, rows, cols, k, upper, es]: y = x where (upper ? j - i >= k : j - i <= k), else 0. */
    static void trilu(KernelCall c) {
        long batch = c.intArg(0), rows = c.intArg(1), cols = c.intArg(2), k = c.intArg(3);
        boolean upper = c.intArg(4) != 0;
        int es = elementBytes(c, 5);
        ByteBuffer x = in(c, 0), y = out(c, 1);
        for (long b = 0; b < batch; b++)
            for (long r = 0; r < rows; r++)
                for (long col = 0; col < cols; col++) {
                    long at = (b * rows + r) * cols + col;
                    if (upper ? col - r >= k : col - r <= k) move(x, (int) at, y, (int) at, es);
                }
        store(c, 1, y);
    }

    /** An index read from {@code idx} made non-negative against {@code extent}; out of range is an error. */
    private static long index(KernelCall c, DType it, ByteBuffer idx, long j, long extent) {
        long v = it.getLong(idx, (int) j);
        long at = v < 0 ? v + extent : v;
        if (at < 0 || at >= extent)
            throw new IndexOutOfRangeException("'" + c.label() + "': kernel " + c.name() + ": index " + v + " (element " + j + ") is out of range for an axis of " + extent);
        return at;
    }

    /** ints [rank, iShape[rank], dShape[rank], axis, es, indexDtype]: y[c] = data[c with c_axis = indices[c]]. */
    static void gatherElements(KernelCall c) {
        int rank = i(c, 0);
        long[] is = ints(c, 1, rank), ds = ints(c, 1 + rank, rank);
        int axis = i(c, 1 + 2 * rank), es = elementBytes(c, 2 + 2 * rank);
        DType it = dtype(c, 3 + 2 * rank);
        ByteBuffer data = in(c, 0), idx = in(c, 1), y = out(c, 2);
        long[] dStride = strides(ds);
        long n = product(is);
        long[] at = new long[rank];
        for (long o = 0; o < n; o++) {
            long src = 0;
            for (int d = 0; d < rank; d++) src += (d == axis ? index(c, it, idx, o, ds[axis]) : at[d]) * dStride[d];
            move(data, (int) src, y, (int) o, es);
            next(at, is);
        }
        store(c, 2, y);
    }

    /** ints [rank, iShape[rank], dShape[rank], axis, reduction, es, dtype, indexDtype]; ptrs [y (read), indices, updates, y]. */
    static void scatterElements(KernelCall c) {
        int rank = i(c, 0);
        long[] is = ints(c, 1, rank), ds = ints(c, 1 + rank, rank);
        int axis = i(c, 1 + 2 * rank), red = i(c, 2 + 2 * rank), es = elementBytes(c, 3 + 2 * rank);
        DType t = dtype(c, 4 + 2 * rank), it = dtype(c, 5 + 2 * rank);
        ByteBuffer y = in(c, 0), idx = in(c, 1), upd = in(c, 2);
        long[] dStride = strides(ds);
        long n = product(is);
        int yArg = c.pointers().size() - 1;
        if (yArg == 4) n = BoundedIndices.actualElements(in(c, 3).getLong(0), c.intArg(6 + 2 * rank), n);   // bounded indices and updates: their leading min(extent, bound) * per elements
        long[] at = new long[rank];
        for (long o = 0; o < n; o++) {
            long dst = 0;
            for (int d = 0; d < rank; d++) dst += (d == axis ? index(c, it, idx, o, ds[axis]) : at[d]) * dStride[d];
            combine(t, es, red, y, (int) dst, upd, (int) o);
            next(at, is);
        }
        store(c, yArg, y);
    }

    /**
     * y[dst] = y[dst] (op) u[src], op by reduction: 0 none (u), 1 add, 2 mul, 3 max, 4 min; f32,
     * f16 and bf16 in f32, f64 in f64, integers in 64 bits (wrapping; max/min uint64 unsigned). max/min: a NaN operand wins.
     */
    static void combine(DType t, int es, int red, ByteBuffer y, int dst, ByteBuffer u, int src) {
        if (red == 0) { move(u, src, y, dst, es); return; }
        if (t.isIntegral()) {
            long a = t.getLong(y, dst), b = t.getLong(u, src);
            t.putLong(y, dst, switch (red) { case 1 -> a + b; case 2 -> a * b; case 3 -> t.compareIntegral(a, b) >= 0 ? a : b; default -> t.compareIntegral(a, b) <= 0 ? a : b; });
        } else if (t == DType.F64) {
            double a = y.getDouble(dst * 8), b = u.getDouble(src * 8);
            y.putDouble(dst * 8, switch (red) { case 1 -> a + b; case 2 -> a * b; case 3 -> a != a ? a : b != b ? b : a >= b ? a : b; default -> a != a ? a : b != b ? b : a <= b ? a : b; });
        } else {
            float a = t.getFloat(y, dst), b = t.getFloat(u, src);
            t.putFloat(y, dst, switch (red) { case 1 -> a + b; case 2 -> a * b; case 3 -> a != a ? a : b != b ? b : a >= b ? a : b; default -> a != a ? a : b != b ? b : a <= b ? a : b; });
        }
    }

    /**
     * ints [batch, n, k, slice, dShape[k], es, indexDtype, (per)]: data [batch, dShape..., slice], indices [batch, n, k], y [batch, n, slice];
     * with data's runtime extent the first index against its actual extent, and with the indices' too, their padding tuples as zeros.
     */
    static void gatherNd(KernelCall c) {
        long batch = c.intArg(0), n = c.intArg(1), slice = c.intArg(3);
        int k = i(c, 2);
        long[] ds = ints(c, 4, k);
        int es = elementBytes(c, 4 + k);
        DType it = dtype(c, 5 + k);
        int yArg = c.pointers().size() - 1;
        ByteBuffer data = in(c, 0), idx = in(c, 1), y = out(c, yArg);
        long cells = product(ds);
        long[] stride = strides(ds);
        long[] range = ds.clone();   // data bounded along axis 0: its first index against the actual extent
        if (yArg >= 3) range[0] = BoundedIndices.actualExtent(in(c, 2).getLong(0), ds[0]);
        long real = BoundedIndices.real(c, yArg == 4 ? in(c, 3).getLong(0) : 0);
        for (long b = 0; b < batch; b++)
            for (long j = 0; j < n; j++) {
                if (b * n + j >= real) continue;   // padding: stays zero (out is zeroed)
                long cell = 0;
                for (int d = 0; d < k; d++) cell += index(c, it, idx, (b * n + j) * k + d, range[d]) * stride[d];
                for (long s = 0; s < slice; s++) move(data, (int) ((b * cells + cell) * slice + s), y, (int) ((b * n + j) * slice + s), es);
            }
        store(c, yArg, y);
    }

    /** ints [n, k, slice, dShape[k], reduction, es, dtype, indexDtype, (per)]; ptrs [y (read), indices [n, k], updates [n, slice], (extent), y]. */
    static void scatterNd(KernelCall c) {
        long n = c.intArg(0), slice = c.intArg(2);
        int k = i(c, 1);
        long[] ds = ints(c, 3, k);
        int red = i(c, 3 + k), es = elementBytes(c, 4 + k);
        DType t = dtype(c, 5 + k), it = dtype(c, 6 + k);
        ByteBuffer y = in(c, 0), idx = in(c, 1), upd = in(c, 2);
        int yArg = c.pointers().size() - 1;
        if (yArg == 4) n = BoundedIndices.actualElements(in(c, 3).getLong(0), c.intArg(7 + k), n);   // bounded indices and updates: their leading min(extent, bound) * per tuples
        long[] stride = strides(ds);
        for (long j = 0; j < n; j++) {
            long cell = 0;
            for (int d = 0; d < k; d++) cell += index(c, it, idx, j * k + d, ds[d]) * stride[d];
            for (long s = 0; s < slice; s++) combine(t, es, red, y, (int) (cell * slice + s), upd, (int) (j * slice + s));
        }
        store(c, yArg, y);
    }

    /** ints [batch, pre, max, seq, inner, circular, es, hasIndices, indexDtype]; ptrs [y (read), update, (writeIndices), y]. */
    static void tensorScatter(KernelCall c) {
        long batch = c.intArg(0), pre = c.intArg(1), max = c.intArg(2), seq = c.intArg(3), inner = c.intArg(4);
        boolean circular = c.intArg(5) == 1, has = c.intArg(7) == 1;
        int es = elementBytes(c, 6);
        ByteBuffer y = in(c, 0), upd = in(c, 1), idx = has ? in(c, 2) : null;
        for (long bp = 0; bp < batch * pre; bp++) {
            long start = has ? DType.I64.getLong(idx, (int) (bp / pre)) : 0;
            for (long s = 0; s < seq; s++) {
                long w = start + s;
                if (circular) w = Math.floorMod(w, max);
                else if (w < 0 || w >= max)
                    throw new IndexOutOfRangeException("'" + c.label() + "': kernel " + c.name() + ": write index " + start + " + " + s + " is outside 0.." + (max - 1)
                            + " (linear mode: write_indices + sequence_length must not pass max_sequence_length)");
                for (long i = 0; i < inner; i++) move(upd, (int) ((bp * seq + s) * inner + i), y, (int) ((bp * max + w) * inner + i), es);
            }
        }
        store(c, has ? 3 : 2, y);
    }

    /** ints [outer, depth, inner, indexDtype (any numeric type), es]; ptrs [indices [outer, inner], values [off, on], y [outer, depth, inner]]. */
    static void oneHot(KernelCall c) {
        long outer = c.intArg(0), depth = c.intArg(1), inner = c.intArg(2);
        DType it = dtype(c, 3);
        int es = elementBytes(c, 4);
        ByteBuffer idx = in(c, 0), values = in(c, 1), y = out(c, 2);
        for (long o = 0; o < outer; o++)
            for (long k = 0; k < inner; k++) {
                int at = (int) (o * inner + k);
                long v = it.isIntegral() ? it.getLong(idx, at) : (long) it.getDouble(idx, at);   // float indices truncate (ONNX casts to int64)
                long hot = v < 0 ? v + depth : v;
                for (long d = 0; d < depth; d++) move(values, d == hot ? 1 : 0, y, (int) ((o * depth + d) * inner + k), es);
            }
        store(c, 2, y);
    }
}
