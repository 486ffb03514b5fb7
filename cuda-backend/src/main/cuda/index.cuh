// Shape and index kernels: strided_copy, pad, trilu, gather_elements, scatter_elements,
// gather_nd, scatter_nd, onehot. Argument layouts: org.arenaplan.device.Kernels; the simulator's
// twins are org.arenaplan.sim.IndexKernels. Data movement is bit-exact. The scatters apply their
// updates serially in the listed order (one thread), so duplicate indices and float reductions
// give the simulator's bits; an index out of range traps.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

#define INDEX_MAX_RANK 16

// ints: rank, shape[rank] (of y), stride[rank] (into x, may be negative or 0), offset, es.
extern "C" __global__ void strided_copy(const void* x, void* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* shape = ints.v + 1;
    const long long* stride = shape + rank;
    long long offset = stride[rank];
    int es = (int) stride[rank + 1];
    long long n = element_count(shape, rank);
    FOR_EACH_ITEM(i, n) {
        long long rest = i, xi = offset;
        for (int d = rank - 1; d >= 0; d--) {
            xi += (rest % shape[d]) * stride[d];
            rest /= shape[d];
        }
        move_element(x, xi, y, i, es);
    }
}

// The source index of padded position s on an axis of n elements, or -1 for the constant
// (mode 0 constant, 1 reflect, 2 edge, 3 wrap); IndexKernels.padSource.
__device__ __forceinline__ long long pad_source(long long s, long long n, int mode) {
    if (s >= 0 && s < n) return s;
    if (n == 0) return -1;
    if (mode == 1) {
        if (n == 1) return 0;
        long long period = 2 * (n - 1);
        long long m = ((s % period) + period) % period;
        return m < n ? m : period - m;
    }
    if (mode == 2) return s < 0 ? 0 : n - 1;
    if (mode == 3) return ((s % n) + n) % n;
    return -1;
}

// ints: rank, yShape[rank], xShape[rank], begin[rank], mode, es. value (optional): one element.
extern "C" __global__ void pad(const void* x, const void* value, void* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* ys = ints.v + 1;
    const long long* xs = ys + rank;
    const long long* begin = xs + rank;
    int mode = (int) begin[rank], es = (int) begin[rank + 1];
    long long n = element_count(ys, rank);
    FOR_EACH_ITEM(i, n) {
        long long rest = i, src = 0, xStride = 1;
        for (int d = rank - 1; d >= 0 && src >= 0; d--) {
            long long s = pad_source(rest % ys[d] - begin[d], xs[d], mode);
            rest /= ys[d];
            src = s < 0 ? -1 : src + s * xStride;
            xStride *= xs[d];
        }
        if (src >= 0) move_element(x, src, y, i, es);
        else if (value != 0) move_element(value, 0, y, i, es);
        else move_element("\0\0\0\0\0\0\0\0", 0, y, i, es);
    }
}

// ints: batch, rows, cols, k, upper, es.
extern "C" __global__ void trilu(const void* x, void* y, Ints ints, Floats) {
    long long batch = ints.v[0], rows = ints.v[1], cols = ints.v[2], k = ints.v[3];
    bool upper = ints.v[4] != 0;
    int es = (int) ints.v[5];
    FOR_EACH_ITEM(i, batch * rows * cols) {
        long long col = i % cols, row = (i / cols) % rows;
        bool keep = upper ? col - row >= k : col - row <= k;
        if (keep) move_element(x, i, y, i, es);
        else move_element("\0\0\0\0\0\0\0\0", 0, y, i, es);
    }
}

// An index made non-negative against extent; traps when out of range.
__device__ __forceinline__ long long checked_index(const void* idx, long long j, int code, long long extent) {
    long long v = load_int(idx, j, code);
    if (v < 0) v += extent;
    if (v < 0 || v >= extent) __trap();
    return v;
}

// The data offset of element i of a tensor of iShape with axis' coordinate replaced by indices[i].
__device__ __forceinline__ long long element_target(long long i, int rank, const long long* is, const long long* ds, int axis,
                                                    const void* idx, int code) {
    long long rest = i, at = 0, stride = 1;
    for (int d = rank - 1; d >= 0; d--) {
        long long c = rest % is[d];
        rest /= is[d];
        if (d == axis) c = checked_index(idx, i, code, ds[axis]);
        at += c * stride;
        stride *= ds[d];
    }
    return at;
}

// ints: rank, iShape[rank], dShape[rank], axis, es, indexDtype.
extern "C" __global__ void gather_elements(const void* data, const void* indices, void* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* is = ints.v + 1;
    const long long* ds = is + rank;
    int axis = (int) ds[rank], es = (int) ds[rank + 1], code = (int) ds[rank + 2];
    FOR_EACH_ITEM(i, element_count(is, rank)) {
        move_element(data, element_target(i, rank, is, ds, axis, indices, code), y, i, es);
    }
}

// y[dst] = y[dst] (reduction) u[src]: IndexKernels.combine.
__device__ __forceinline__ void combine(int code, int es, int red, void* y, long long dst, const void* u, long long src) {
    if (red == 0) { move_element(u, src, y, dst, es); return; }
    if (is_integral(code)) {
        long long a = load_int(y, dst, code), b = load_int(u, src, code);
        long long r = red == 1 ? (long long) ((unsigned long long) a + (unsigned long long) b)
                    : red == 2 ? (long long) ((unsigned long long) a * (unsigned long long) b)
                    : red == 3 ? (compare_int(a, b, code) >= 0 ? a : b) : (compare_int(a, b, code) <= 0 ? a : b);
        store_int(y, dst, code, r);
    } else if (code == DT_DOUBLE) {
        double a = ((double*) y)[dst], b = ((const double*) u)[src];
        ((double*) y)[dst] = red == 1 ? a + b : red == 2 ? a * b
                : red == 3 ? (a != a ? a : b != b ? b : a >= b ? a : b) : (a != a ? a : b != b ? b : a <= b ? a : b);
    } else {
        float a = load_float(y, dst, code), b = load_float(u, src, code);
        store_float(y, dst, code, red == 1 ? a + b : red == 2 ? a * b
                : red == 3 ? (a != a ? a : b != b ? b : a >= b ? a : b) : (a != a ? a : b != b ? b : a <= b ? a : b));
    }
}

// ints: rank, iShape[rank], dShape[rank], axis, reduction, es, dtype, indexDtype, (per). yIn is y. extent (may be
// null): the runtime extent of indices and updates bounded along an axis, per elements a row; only their leading
// min(extent, numel / per) * per elements are applied.
extern "C" __global__ void scatter_elements(const void* yIn, const void* indices, const void* updates, const long long* extent, void* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* is = ints.v + 1;
    const long long* ds = is + rank;
    int axis = (int) ds[rank], red = (int) ds[rank + 1], es = (int) ds[rank + 2], code = (int) ds[rank + 3], icode = (int) ds[rank + 4];
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    if (yIn != y) for (long long i = 0, m = element_count(ds, rank); i < m; i++) move_element(yIn, i, y, i, es);   // the same pointer when lowered
    long long n = element_count(is, rank);
    if (extent != nullptr) n = actual_elements(*extent, ds[rank + 5], n);
    for (long long i = 0; i < n; i++) combine(code, es, red, y, element_target(i, rank, is, ds, axis, indices, icode), updates, i);
}

// ints: batch, n, k, slice, dShape[k], es, indexDtype, (per). extent (may be null): the runtime extent of data
// bounded along axis 0, against which the first index of each tuple is wrapped and checked. indicesExtent (may
// be null; per >= 1 tuples to a step of the indices' bounded axis): only the first actual_elements tuples are
// real, the slices of the rest (padding) written as zeros without reading data.
extern "C" __global__ void gather_nd(const void* data, const void* indices, const long long* extent, const long long* indicesExtent, void* y,
                                     Ints ints, Floats) {
    long long batch = ints.v[0], n = ints.v[1], slice = ints.v[3];
    int k = (int) ints.v[2];
    const long long* ds = ints.v + 4;
    int es = (int) ds[k], code = (int) ds[k + 1];
    long long cells = element_count(ds, k);
    long long first = extent == nullptr ? ds[0] : actual_extent(*extent, ds[0]);
    long long real = indicesExtent == nullptr ? batch * n : actual_elements(*indicesExtent, ds[k + 2], batch * n);
    FOR_EACH_ITEM(i, batch * n * slice) {
        long long s = i % slice, bj = i / slice, b = bj / n;
        if (bj >= real) {
            zero_element(y, i, es);
            continue;
        }
        long long cell = 0;
        for (int d = 0; d < k; d++) cell = cell * ds[d] + checked_index(indices, bj * k + d, code, d == 0 ? first : ds[d]);
        move_element(data, (b * cells + cell) * slice + s, y, i, es);
    }
}

// ints: n, k, slice, dShape[k], reduction, es, dtype, indexDtype, (per). yIn is y. extent (may be null): the runtime
// extent of indices and updates bounded along one axis; then only their first min(extent, n / per) * per tuples.
extern "C" __global__ void scatter_nd(const void* yIn, const void* indices, const void* updates, const long long* extent, void* y, Ints ints, Floats) {
    long long n = ints.v[0], slice = ints.v[2];
    int k = (int) ints.v[1];
    const long long* ds = ints.v + 3;
    int red = (int) ds[k], es = (int) ds[k + 1], code = (int) ds[k + 2], icode = (int) ds[k + 3];
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    if (yIn != y) for (long long i = 0, m = element_count(ds, k) * slice; i < m; i++) move_element(yIn, i, y, i, es);   // the same pointer when lowered
    if (extent != nullptr) n = actual_elements(*extent, ds[k + 4], n);
    for (long long j = 0; j < n; j++) {
        long long cell = 0;
        for (int d = 0; d < k; d++) cell = cell * ds[d] + checked_index(indices, j * k + d, icode, ds[d]);
        for (long long s = 0; s < slice; s++) combine(code, es, red, y, cell * slice + s, updates, j * slice + s);
    }
}

// ints: outer, depth, inner, indexDtype (any numeric type; floats truncate), es.
extern "C" __global__ void onehot(const void* indices, const void* values, void* y, Ints ints, Floats) {
    long long outer = ints.v[0], depth = ints.v[1], inner = ints.v[2];
    int code = (int) ints.v[3], es = (int) ints.v[4];
    FOR_EACH_ITEM(i, outer * depth * inner) {
        long long k = i % inner, d = (i / inner) % depth, o = i / (inner * depth);
        long long at = o * inner + k;
        long long v = is_integral(code) ? load_int(indices, at, code)
                    : code == DT_DOUBLE ? to_int64(((const double*) indices)[at]) : to_int64((double) load_float(indices, at, code));
        if (v < 0) v += depth;
        move_element(values, d == v ? 1 : 0, y, i, es);
    }
}

// ints: batch, pre, max, seq, inner, circular, es, hasIndices, indexDtype (IndexKernels.tensorScatter). One thread
// per (batch, pre, inner) lane writes its seq updates in order (a circular wrap may write one place twice: the
// last wins, as the reference's loop); a linear write index outside [0, max) traps.
extern "C" __global__ void tensor_scatter(const void* yIn, const void* update, const void* indices, void* y, Ints ints, Floats) {
    long long batch = ints.v[0], pre = ints.v[1], max = ints.v[2], seq = ints.v[3], inner = ints.v[4];
    bool circular = ints.v[5] == 1, has = ints.v[7] == 1;
    int es = (int) ints.v[6], icode = (int) ints.v[8];
    FOR_EACH_ITEM(lane, batch * pre * inner) {
        long long i = lane % inner, bp = lane / inner;
        if (yIn != y) for (long long w = 0; w < max; w++) move_element(yIn, (bp * max + w) * inner + i, y, (bp * max + w) * inner + i, es);
        long long start = has ? load_int(indices, bp / pre, icode) : 0;
        for (long long s = 0; s < seq; s++) {
            long long w = start + s;
            if (circular) { w %= max; if (w < 0) w += max; }
            else if (w < 0 || w >= max) __trap();
            move_element(update, (bp * seq + s) * inner + i, y, (bp * max + w) * inner + i, es);
        }
    }
}
