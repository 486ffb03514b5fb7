// transpose and concat_slice: pure data movement, bit-exact.
#pragma once
#include "common.cuh"

// ints: rank, shape[rank] (of y, contiguous), stride[rank] (into x).
extern "C" __global__ void transpose(const float* x, float* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* shape = ints.v + 1;
    const long long* stride = shape + rank;
    long long n = 1;
    for (int d = 0; d < rank; d++) n *= shape[d];
    FOR_EACH_ITEM(i, n) {
        long long rest = i, xi = 0;
        for (int d = rank - 1; d >= 0; d--) {
            xi += (rest % shape[d]) * stride[d];
            rest /= shape[d];
        }
        y[i] = x[xi];
    }
}

// ints: outer, xInner, yInner, yOffset.
extern "C" __global__ void concat_slice(const float* x, float* y, Ints ints, Floats) {
    long long outer = ints.v[0], xInner = ints.v[1], yInner = ints.v[2], yOffset = ints.v[3];
    FOR_EACH_ITEM(i, outer * xInner) {
        long long o = i / xInner, k = i % xInner;
        y[o * yInner + yOffset + k] = x[i];
    }
}

// Test kernel for the multi-stream hazard check (not lowered from any op): waits about
// ints[1] clock cycles, then copies n = ints[0] values, so a concurrent writer on another stream
// overtakes it unless an event orders the two.
extern "C" __global__ void slow_copy(const float* x, float* y, Ints ints, Floats) {
    long long n = ints.v[0], cycles = ints.v[1];
    long long start = clock64();
    while (clock64() - start < cycles) { }
    FOR_EACH_ITEM(i, n) y[i] = x[i];
}
