// gemm: Y[b] = alpha * op(A[b]) op(B[b]) + beta * C[b], tiled through shared memory.
// Each thread owns one Y element and adds the products for k = 0..K-1 in ascending order, one
// f32 rounding per multiply and per add (the build passes --fmad=false), so the result does not
// depend on the tiling and equals a plain sequential loop.
#pragma once
#include "common.cuh"

#define GEMM_TILE 16

__device__ __forceinline__ float gemm_a(const float* A, int transA, long long M, long long K, long long i, long long k) {
    return transA ? A[k * M + i] : A[i * K + k];
}

__device__ __forceinline__ float gemm_b(const float* B, int transB, long long N, long long K, long long k, long long j) {
    return transB ? B[j * K + k] : B[k * N + j];
}

// Grid: x over column tiles, y over row tiles, z strides over the batch. Block: 16 x 16.
// ints: batch, M, N, K, transA, transB, batchStrideA, batchStrideB, hasC, cBatchStride, cRowStride, cColStride.
extern "C" __global__ void gemm(const float* A, const float* B, const float* C, float* Y, Ints ints, Floats floats) {
    long long batch = ints.v[0], M = ints.v[1], N = ints.v[2], K = ints.v[3];
    int transA = (int) ints.v[4], transB = (int) ints.v[5];
    long long strideA = ints.v[6], strideB = ints.v[7];
    int hasC = (int) ints.v[8];
    long long cb = ints.v[9], cr = ints.v[10], cc = ints.v[11];
    float alpha = (float) floats.v[0], beta = (float) floats.v[1];
    __shared__ float As[GEMM_TILE][GEMM_TILE];
    __shared__ float Bs[GEMM_TILE][GEMM_TILE];
    long long i = blockIdx.y * (long long) GEMM_TILE + threadIdx.y;
    long long j = blockIdx.x * (long long) GEMM_TILE + threadIdx.x;
    for (long long b = blockIdx.z; b < batch; b += gridDim.z) {
        const float* a = A + b * strideA;
        const float* bm = B + b * strideB;
        float acc = 0.0f;
        for (long long k0 = 0; k0 < K; k0 += GEMM_TILE) {
            long long ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
            As[threadIdx.y][threadIdx.x] = (i < M && ka < K) ? gemm_a(a, transA, M, K, i, ka) : 0.0f;
            Bs[threadIdx.y][threadIdx.x] = (kb < K && j < N) ? gemm_b(bm, transB, N, K, kb, j) : 0.0f;
            __syncthreads();
            long long kEnd = K - k0 < GEMM_TILE ? K - k0 : GEMM_TILE;   // padding never enters the sum
            for (int kk = 0; kk < kEnd; kk++) acc = acc + As[threadIdx.y][kk] * Bs[kk][threadIdx.x];
            __syncthreads();
        }
        if (i < M && j < N) {
            float r = alpha * acc;
            if (hasC) r = r + beta * C[b * cb + i * cr + j * cc];
            Y[b * M * N + i * N + j] = r;
        }
    }
}
