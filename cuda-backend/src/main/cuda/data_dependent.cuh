// Kernels of data-dependent outputs (ir.OpSpec.BoundedRule): nonzero, compress. Argument layouts:
// org.arenaplan.device.Kernels; the simulator's twins are org.arenaplan.sim.DataDependentKernels.
// Each writes the actual count into its extent (int64 [1]) and the actual row-major tensor into the
// leading elements of its upper-bound output, zeros after. Serial (one thread), so the order is the
// simulator's and no scan is needed; exact (indices and moved elements).
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// Whether element i of x (ONNX code) is not zero: integers and bool by value, f64 as a double,
// f32/f16/bf16 widened to f32 (a NaN is not zero, -0.0 is).
__device__ __forceinline__ bool element_nonzero(const void* x, long long i, int code) {
    if (is_integral(code)) return load_int(x, i, code) != 0;
    if (code == DT_DOUBLE) return ((const double*) x)[i] != 0.0;
    return load_float(x, i, code) != 0.0f;
}

// ints: n, rank, shape[rank], dtype.
extern "C" __global__ void nonzero(const void* x, long long* extent, long long* y, Ints ints, Floats) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    long long n = ints.v[0];
    int rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[rank];
    long long count = 0;
    for (long long k = 0; k < n; k++) count += element_nonzero(x, k, code);
    long long j = 0;
    for (long long k = 0; k < n; k++) {
        if (!element_nonzero(x, k, code)) continue;
        long long rest = k;
        for (int d = rank - 1; d >= 0; d--) {
            y[d * count + j] = rest % shape[d];
            rest /= shape[d];
        }
        j++;
    }
    for (long long k = rank * count; k < rank * n; k++) y[k] = 0;
    extent[0] = count;
}

// ints: outer, n, inner, m, es.
extern "C" __global__ void compress(const void* x, const unsigned char* condition, long long* extent, void* y, Ints ints, Floats) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2], m = ints.v[3];
    int es = (int) ints.v[4];
    long long count = 0;
    for (long long s = 0; s < m; s++) count += condition[s] != 0;
    long long j = 0;
    for (long long s = 0; s < m; s++) {
        if (condition[s] == 0) continue;
        for (long long o = 0; o < outer; o++)
            for (long long i = 0; i < inner; i++) move_element(x, (o * n + s) * inner + i, y, (o * count + j) * inner + i, es);
        j++;
    }
    for (long long b = outer * count * inner * es; b < outer * m * inner * es; b++) ((unsigned char*) y)[b] = 0;
    extent[0] = count;
}
