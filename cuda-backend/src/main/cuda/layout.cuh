// transpose, concat_slice, gather, where: pure data movement of es-byte elements, bit-exact.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// ints: rank, shape[rank] (of y, contiguous), stride[rank] (into x), es.
extern "C" __global__ void transpose(const void* x, void* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* shape = ints.v + 1;
    const long long* stride = shape + rank;
    int es = (int) stride[rank];
    long long n = 1;
    for (int d = 0; d < rank; d++) n *= shape[d];
    FOR_EACH_ITEM(i, n) {
        long long rest = i, xi = 0;
        for (int d = rank - 1; d >= 0; d--) {
            xi += (rest % shape[d]) * stride[d];
            rest /= shape[d];
        }
        move_element(x, xi, y, i, es);
    }
}

// ints: outer, xInner, yInner, yOffset, es.
extern "C" __global__ void concat_slice(const void* x, void* y, Ints ints, Floats) {
    long long outer = ints.v[0], xInner = ints.v[1], yInner = ints.v[2], yOffset = ints.v[3];
    int es = (int) ints.v[4];
    FOR_EACH_ITEM(i, outer * xInner) {
        long long o = i / xInner, k = i % xInner;
        move_element(x, i, y, o * yInner + yOffset + k, es);
    }
}

// ints: outer, axis, inner, n, es, indexDtype (int64 or int32), (per). y[o, j, k] = data[o, idx, k],
// idx = indices[j] (+ axis when negative); an index outside [-axis, axis) traps.
// extent (may be null): the runtime extent of data bounded along the axis; indices are then wrapped and
// checked against actual_extent (0 where nothing is kept). indicesExtent (may be null; per >= 1 of the
// indices to a step of their bounded axis): only the first actual_elements indices are real, the rows of
// the rest (padding) written as zeros without reading data (Kernels#GATHER).
extern "C" __global__ void gather(const void* data, const void* indices, const long long* extent, const long long* indicesExtent, void* y,
                                  Ints ints, Floats) {
    long long outer = ints.v[0], axis = ints.v[1], inner = ints.v[2], n = ints.v[3];
    int es = (int) ints.v[4], code = (int) ints.v[5];
    long long range = extent == nullptr ? axis : actual_extent(*extent, axis);
    long long real = indicesExtent == nullptr ? n : actual_elements(*indicesExtent, ints.v[6], n);
    FOR_EACH_ITEM(i, outer * n * inner) {
        long long k = i % inner, j = (i / inner) % n, o = i / (inner * n);
        if (j >= real) {
            zero_element(y, i, es);
            continue;
        }
        long long idx = load_int(indices, j, code);
        if (idx < 0) idx += range;
        if (idx < 0 || idx >= range) __trap();
        move_element(data, (o * axis + idx) * inner + k, y, i, es);
    }
}

// ints: rank, shape[rank] (of out), condStride[rank], xStride[rank], yStride[rank], es.
// out = cond != 0 ? x : y (cond is bool); a stride of 0 broadcasts.
extern "C" __global__ void where(const unsigned char* cond, const void* x, const void* y, void* out, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    const long long* shape = ints.v + 1;
    int es = (int) shape[4 * rank];
    long long n = element_count(shape, rank);
    FOR_EACH_ITEM(i, n) {
        long long at[3];
        broadcast_indices(i, rank, shape, 3, at);
        if (cond[at[0]] != 0) move_element(x, at[1], out, i, es);
        else move_element(y, at[2], out, i, es);
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
