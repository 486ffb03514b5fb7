// unary, binary_broadcast, compare, copy: one thread per output element, so in-place calls are
// safe. Element types as dtypes.cuh: f16/bf16 computed in f32, integers in 64 bits.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

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

// ints: n, op, dtype. Integers: relu and identity only (OpLowering checks).
extern "C" __global__ void unary(const void* x, void* y, Ints ints, Floats) {
    long long n = ints.v[0];
    int op = (int) ints.v[1], code = (int) ints.v[2];
    if (is_integral(code)) {
        FOR_EACH_ITEM(i, n) {
            long long v = load_int(x, i, code);
            store_int(y, i, code, op == 0 && v < 0 ? 0 : v);
        }
    } else {
        FOR_EACH_ITEM(i, n) store_float(y, i, code, apply_unary(op, load_float(x, i, code)));
    }
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

// Wrapping 64-bit add, sub, mul; div truncates toward zero, traps on a zero divisor.
__device__ __forceinline__ long long apply_binary_int(int op, long long a, long long b) {
    unsigned long long ua = (unsigned long long) a, ub = (unsigned long long) b;
    switch (op) {
        case 0: return (long long) (ua + ub);
        case 1: return (long long) (ua - ub);
        case 2: return (long long) (ua * ub);
        default:
            if (b == 0) __trap();
            if (b == -1) return (long long) (0ULL - ua);                          // no overflow trap on INT64_MIN / -1
            return a / b;
    }
}

// ints: op, rank, shape[rank] (of y), aStride[rank], bStride[rank], dtype; a stride of 0 broadcasts.
extern "C" __global__ void binary_broadcast(const void* a, const void* b, void* y, Ints ints, Floats) {
    int op = (int) ints.v[0], rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[3 * rank];
    long long n = element_count(shape, rank);
    FOR_EACH_ITEM(i, n) {
        long long at[2];
        broadcast_indices(i, rank, shape, 2, at);
        if (is_integral(code)) store_int(y, i, code, apply_binary_int(op, load_int(a, at[0], code), load_int(b, at[1], code)));
        else store_float(y, i, code, apply_binary(op, load_float(a, at[0], code), load_float(b, at[1], code)));
    }
}

// ints: op (0 equal), rank, shape[rank] (of y), aStride[rank], bStride[rank], dtype; y is bool.
extern "C" __global__ void compare(const void* a, const void* b, unsigned char* y, Ints ints, Floats) {
    int rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[3 * rank];
    long long n = element_count(shape, rank);
    FOR_EACH_ITEM(i, n) {
        long long at[2];
        broadcast_indices(i, rank, shape, 2, at);
        bool eq;
        if (is_integral(code)) eq = load_int(a, at[0], code) == load_int(b, at[1], code);
        else if (code == DT_DOUBLE) eq = ((const double*) a)[at[0]] == ((const double*) b)[at[1]];
        else eq = load_float(a, at[0], code) == load_float(b, at[1], code);
        y[i] = eq ? 1 : 0;
    }
}

// ints: n, es.
extern "C" __global__ void copy(const void* x, void* y, Ints ints, Floats) {
    long long n = ints.v[0];
    int es = (int) ints.v[1];
    FOR_EACH_ITEM(i, n) move_element(x, i, y, i, es);
}
