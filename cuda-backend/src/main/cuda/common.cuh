// Shared by every kernel. The calling convention (org.arenaplan.device.Kernels) passes the
// pointers in order, then all integer scalars as one struct of 64-bit values, then all float
// scalars as one struct of doubles (narrowed to f32 where a kernel computes with them).
// The Java side (CudaKernelTable) fills both structs from a KernelCall, padding with zeros.
#pragma once

#define ARENAPLAN_MAX_INTS 40
#define ARENAPLAN_MAX_FLOATS 16
#define ARENAPLAN_MAX_RANK 8

// The blocked summation of the f32 sums of gemm, conv2d (and conv2d_igemm) and conv_nd (org.arenaplan.device.Kernels.SUM_BLOCK;
// gemm_f64 keeps one running sum):
// each output's terms, k ascending, summed SUM_BLOCK at a time into a partial sum from 0, the partial sums
// added in order into the total from 0. A multiple of the k tile of gemm.cuh and conv_igemm.cuh (16).
// A block without terms adds +0 to a total that is never -0, which changes no bit, so a kernel may skip it.
#define SUM_BLOCK 64

struct Ints { long long v[ARENAPLAN_MAX_INTS]; };
struct Floats { double v[ARENAPLAN_MAX_FLOATS]; };

// Every kernel but gemm covers its work items with a grid-stride loop, so any grid size is correct.
#define FOR_EACH_ITEM(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// Numpy broadcasting: for output element i of a contiguous tensor of the given shape, operand j's
// element index (j < k), from the k stride arrays of rank values that follow shape in the ints
// (a stride of 0 broadcasts).
__device__ __forceinline__ void broadcast_indices(long long i, int rank, const long long* shape, int k, long long* at) {
    const long long* strides = shape + rank;
    for (int j = 0; j < k; j++) at[j] = 0;
    long long rest = i;
    for (int d = rank - 1; d >= 0; d--) {
        long long c = rest % shape[d];
        rest /= shape[d];
        for (int j = 0; j < k; j++) at[j] += c * strides[j * rank + d];
    }
}

__device__ __forceinline__ long long element_count(const long long* shape, int rank) {
    long long n = 1;
    for (int d = 0; d < rank; d++) n *= shape[d];
    return n;
}

// The offset of element j of a walk row-major over shape[0..n), given a stride per dim.
__device__ __forceinline__ long long strided_offset(long long j, int n, const long long* shape, const long long* stride) {
    long long off = 0;
    for (int d = n - 1; d >= 0; d--) {
        off += (j % shape[d]) * stride[d];
        j /= shape[d];
    }
    return off;
}
