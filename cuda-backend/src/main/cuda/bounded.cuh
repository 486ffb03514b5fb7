// Kernels of ops that carry a bounded tensor (ir.OpSpec.BoundedFlow): zero_tail, transpose_bounded. Argument layouts:
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
