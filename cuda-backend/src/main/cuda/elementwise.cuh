// unary, binary_broadcast, copy: one thread per output element, so in-place calls are safe.
#pragma once
#include "common.cuh"

// erf by Abramowitz and Stegun 7.1.26, exactly as the simulator computes it (SimKernels.erf).
__device__ __forceinline__ double erf_as(double x) {
    double t = 1.0 / (1.0 + 0.3275911 * fabs(x));
    double p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    double r = 1.0 - p * exp(-x * x);
    return x >= 0 ? r : -r;
}

// Same formulas as the simulator: transcendentals in double, rounded once to f32. Only exp/tanh
// may differ from Java's Math in the last double bit, which rarely changes the f32 result.
__device__ __forceinline__ float apply_unary(int op, float v) {
    switch (op) {
        case 0: return v > 0.0f ? v : 0.0f;                                        // relu
        case 1: return (float) (1.0 / (1.0 + exp(-(double) v)));                   // sigmoid
        case 2: return (float) tanh((double) v);                                   // tanh
        case 3: return (float) (0.5 * (double) v * (1.0 + erf_as((double) v / sqrt(2.0)))); // gelu
        default: return v;                                                         // identity
    }
}

extern "C" __global__ void unary(const float* x, float* y, Ints ints, Floats) {
    long long n = ints.v[0];
    int op = (int) ints.v[1];
    FOR_EACH_ITEM(i, n) y[i] = apply_unary(op, x[i]);
}

__device__ __forceinline__ float apply_binary(int op, float a, float b) {
    switch (op) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * b;
        case 3: return a / b;
        default: return b > 0.0f ? a : 0.0f;                                       // relu_grad(dY = a, X = b)
    }
}

// ints: op, rank, shape[rank] (of y), aStride[rank], bStride[rank]; a stride of 0 broadcasts.
extern "C" __global__ void binary_broadcast(const float* a, const float* b, float* y, Ints ints, Floats) {
    int op = (int) ints.v[0];
    int rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    const long long* as = shape + rank;
    const long long* bs = as + rank;
    long long n = 1;
    for (int d = 0; d < rank; d++) n *= shape[d];
    FOR_EACH_ITEM(i, n) {
        long long rest = i, ai = 0, bi = 0;
        for (int d = rank - 1; d >= 0; d--) {
            long long c = rest % shape[d];
            rest /= shape[d];
            ai += c * as[d];
            bi += c * bs[d];
        }
        y[i] = apply_binary(op, a[ai], b[bi]);
    }
}

// ints: n.
extern "C" __global__ void copy(const float* x, float* y, Ints ints, Floats) {
    long long n = ints.v[0];
    FOR_EACH_ITEM(i, n) y[i] = x[i];
}
