// Kernels of ops that carry a bounded tensor (ir.OpSpec.BoundedFlow): zero_tail, transpose_bounded, check_extent,
// split_bounded, slice_bounded, concat_bounded, reshape_extent. Argument layouts:
// org.arenaplan.device.Kernels; the simulator's twins are org.arenaplan.sim.BoundedKernels.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// ints: per, total, es. Elements n * per .. total of y (es bytes each) set to zero, n = extent[0]
// clamped to [0, total / per]; one thread per element of the whole tensor (grid-stride), the head left as it is.
extern "C" __global__ void zero_tail(const long long* extent, void* y, Ints ints, Floats) {
    long long per = ints.v[0], total = ints.v[1];
    int es = (int) ints.v[2];
    long long n = extent[0];
    long long start = n < 0 ? 0 : per == 0 ? total : n > total / per ? total : n * per;
    FOR_EACH_ITEM(i, total) {
        if (i >= start) zero_element(y, i, es);
    }
}

// ints: rank, axis, es, shape[rank] (x's upper bound), perm[rank]. x holds its actual tensor compactly, of
// shape s = the bound with s[axis] = extent[0] clamped to [0, shape[axis]]; y's first numel(s) elements are
// it transposed (y axis d is x axis perm[d]), row-major, the rest zero. One thread per element of the bound.
extern "C" __global__ void transpose_bounded(const long long* extent, const void* x, void* y, Ints ints, Floats) {
    int rank = (int) ints.v[0], axis = (int) ints.v[1], es = (int) ints.v[2];
    const long long* shape = ints.v + 3;
    const long long* perm = ints.v + 3 + rank;
    long long n = extent[0];
    long long s[ARENAPLAN_MAX_RANK * 2], stride[ARENAPLAN_MAX_RANK * 2];
    long long total = 1, m = 1;
    for (int d = 0; d < rank; d++) { s[d] = shape[d]; total *= shape[d]; }
    s[axis] = n < 0 ? 0 : n > shape[axis] ? shape[axis] : n;
    for (int d = rank - 1; d >= 0; d--) { stride[d] = m; m *= s[d]; }
    FOR_EACH_ITEM(i, total) {
        if (i >= m) {
            zero_element(y, i, es);
            continue;
        }
        long long rest = i, at = 0;
        for (int d = rank - 1; d >= 0; d--) {
            long long e = s[perm[d]];
            at += rest % e * stride[perm[d]];
            rest /= e;
        }
        move_element(x, at, y, i, es);
    }
}

// ints: sum. Traps unless the runtime extent is sum (Kernels#CHECK_EXTENT: a Split of a bounded tensor along its
// bounded axis into fixed parts; the host refuses it first, exec.LaunchChecks). Writes nothing.
extern "C" __global__ void check_extent(const long long* extent, Ints ints, Floats) {
    if (blockIdx.x == 0 && threadIdx.x == 0 && *extent != ints.v[0]) __trap();
}

// ints: part, parts, mode, per, rows, bound, es (Kernels#SPLIT_BOUNDED). x holds n = extent[0] clamped to [0, bound]
// rows of per elements compactly; part `part` of the parts ONNX Split derives from n without 'split' (mode 0: n / parts
// each; mode 1, num_outputs: ceil(n / parts) each, the rest last) goes to y's leading rows (y holds `rows` rows at its
// bound), the rest zero, and its row count to part_extent[0]. Traps where the parts do not take n (the host refuses it
// first, exec.LaunchChecks; org.arenaplan.device.ExtentCheck#parts). One thread per element of y's bound.
extern "C" __global__ void split_bounded(const long long* extent, const void* x, void* y, long long* part_extent, Ints ints, Floats) {
    long long part = ints.v[0], parts = ints.v[1], mode = ints.v[2], per = ints.v[3], rows = ints.v[4], bound = ints.v[5];
    int es = (int) ints.v[6];
    long long n = extent[0];
    n = n < 0 ? 0 : n > bound ? bound : n;
    long long each = mode == 0 ? n / parts : (n + parts - 1) / parts, last = n - (parts - 1) * each;
    if (mode == 0 ? n % parts != 0 : n < parts || last <= 0) __trap();
    long long m = part == parts - 1 ? last : each;
    if (m > rows) m = rows;
    long long start = part * each * per;
    if (blockIdx.x == 0 && threadIdx.x == 0) *part_extent = m;
    FOR_EACH_ITEM(i, rows * per) {
        if (i < m * per) move_element(x, start + i, y, i, es);
        else zero_element(y, i, es);
    }
}

// floor((a n + b) / d) e + f of the terms t = (a, b, d, e, f) (org.arenaplan.ir.CountedSlice#value: d positive and
// a n + b not negative, checked at import, so that plain division is the floor).
__device__ __forceinline__ long long counted_value(const long long* t, long long n) {
    return (t[0] * n + t[1]) / t[2] * t[3] + t[4];
}

// ints: start terms (5), end terms (5), step, rows, bound, per, es (Kernels#SLICE_BOUNDED). x holds n = extent[0] clamped
// to [0, bound] rows of per elements compactly; the start and end computed from n (counted_value), clamped as ONNX Slice
// clamps them (org.arenaplan.ir.CountedSlice#range), select rows start, start + step, ..., at most `rows` of them, which
// go to y's leading rows, the rest zero; their count to y_extent[0]. One thread per element of y's bound.
extern "C" __global__ void slice_bounded(const long long* extent, const void* x, void* y, long long* y_extent, Ints ints, Floats) {
    long long step = ints.v[10], rows = ints.v[11], bound = ints.v[12], per = ints.v[13];
    int es = (int) ints.v[14];
    long long n = extent[0];
    n = n < 0 ? 0 : n > bound ? bound : n;
    long long start = counted_value(ints.v, n), end = counted_value(ints.v + 5, n), count;
    if (start < 0) start += n;
    if (end < 0) end += n;
    if (step > 0) {
        start = start < 0 ? 0 : start > n ? n : start;
        end = end < 0 ? 0 : end > n ? n : end;
        count = end <= start ? 0 : (end - start - 1) / step + 1;
    } else {
        start = start < 0 ? 0 : start > n - 1 ? n - 1 : start;
        end = end < -1 ? -1 : end > n - 1 ? n - 1 : end;
        count = n == 0 || start <= end ? 0 : (start - end - 1) / -step + 1;
    }
    if (count > rows) count = rows;
    if (blockIdx.x == 0 && threadIdx.x == 0) *y_extent = count;
    FOR_EACH_ITEM(i, rows * per) {
        long long r = i / per;
        if (r < count) move_element(x, (start + r * step) * per + i % per, y, i, es);
        else zero_element(y, i, es);
    }
}

// ints: rows, per, yRows, es, hasBefore, hasExtent (Kernels#CONCAT_BOUNDED). One input of a Concat along the bounded
// axis: x's c = extent[0] clamped to [0, rows] actual rows of per elements (all rows without extent) go to y's rows
// o .. o + c - 1, o = before[0] clamped to [0, yRows] (0 without before), c cut to yRows - o; y's rows from o + c on
// are zeroed, those before o left as the earlier inputs' calls wrote them; after[0] = o + c. One thread per element
// of y's bound.
extern "C" __global__ void concat_bounded(const long long* before, const long long* extent, const void* x, void* y, long long* after, Ints ints, Floats) {
    long long rows = ints.v[0], per = ints.v[1], y_rows = ints.v[2];
    int es = (int) ints.v[3];
    long long o = before == nullptr ? 0 : before[0];
    o = o < 0 ? 0 : o > y_rows ? y_rows : o;
    long long c = extent == nullptr ? rows : extent[0];
    c = c < 0 ? 0 : c > rows ? rows : c;
    if (c > y_rows - o) c = y_rows - o;
    if (blockIdx.x == 0 && threadIdx.x == 0) *after = o + c;
    FOR_EACH_ITEM(i, y_rows * per) {
        if (i < o * per) continue;
        if (i < (o + c) * per) move_element(x, i - o * per, y, i, es);
        else zero_element(y, i, es);
    }
}

// ints: mul, div, bound (Kernels#RESHAPE_EXTENT). A Reshape merging or splitting the bounded axis: n = extent[0] clamped
// to [0, bound] rows of mul elements are n * mul / div rows of div elements, written to y_extent[0]. Traps where div does
// not divide n * mul (the host refuses it first, exec.LaunchChecks; org.arenaplan.device.ExtentCheck#reshaped). One thread.
extern "C" __global__ void reshape_extent(const long long* extent, long long* y_extent, Ints ints, Floats) {
    long long mul = ints.v[0], div = ints.v[1], bound = ints.v[2];
    long long n = extent[0];
    n = n < 0 ? 0 : n > bound ? bound : n;
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    if (n * mul % div != 0) __trap();
    *y_extent = n * mul / div;
}
