// gemm: Y[b] = alpha * op(A[b]) op(B[b]) + beta * C[b], register-tiled (below).
// Each thread owns one Y element and adds the products for k = 0..K-1 in ascending order, blocked
// (SUM_BLOCK, common.cuh: a partial sum per 64 values of k, added into the total at the block's
// end), one f32 rounding per multiply and per add (the build passes --fmad=false), so the result
// does not depend on the tiling and equals the simulator's loop (SimKernels.gemm).
// Element types (int 13, Kernels.typeInt; absent: f32): one entry function per type (typed.cuh).
#pragma once
#include "common.cuh"
#include "typed.cuh"
#include "epilogue.cuh"

#define GEMM_TILE 16   // threads per block side, and k per shared-memory step
#define GEMM_REG 4     // outputs per thread per side
#define GEMM_OUT 64    // outputs per block side: GEMM_TILE * GEMM_REG
static_assert(SUM_BLOCK % GEMM_TILE == 0, "a block of the blocked sum ends at a k tile's end");

// Register tiling: a block of 16 x 16 threads computes a 64 x 64 tile of Y, each thread a 4 x 4
// micro-tile (rows ty + 16 r, columns tx + 16 c, so that loads and stores stay coalesced) held in
// registers; A and B pass through shared memory 16 values of k at a time. Every Y element keeps
// a partial sum over the current block of SUM_BLOCK values of k (SUM_BLOCK / 16 tiles) and the
// total; the partial sum is added into the total after the block's last tile (or after the last
// tile of k), so the result is the simulator's blocked loop bit for bit.
// Grid: x over column tiles of 64, y over row tiles of 64, z strides over the batch.
// ints: batch, M, N, K, transA, transB, batchStrideA, batchStrideB, hasC, cBatchStride, cRowStride, cColStride,
// activation (epilogue.cuh: applied to alpha * AB + beta * C), element type (ONNX code; absent or 1: f32).
// T is the storage type (typed.cuh): gemm is float, gemm_f16 half_t (sums in f32), gemm_f64 double
// (sums, alpha and beta in f64, as the simulator's WideKernels.gemm).
template <typename T>
__device__ __forceinline__ void gemm_body(const T* A, const T* B, const T* C, T* Y, const Ints& ints, const Floats& floats) {
    typedef typename compute_of<T>::type F;
    // f32 sums (gemm, gemm_f16) are blocked; f64 sums (gemm_f64) keep one running sum: their rounding is 2^-29
    // of f32's, and a second set of 16 f64 accumulators would cost registers (164 instead of 128 per thread on sm_90).
    const bool blocked = sizeof(F) == sizeof(float);
    long long batch = ints.v[0], M = ints.v[1], N = ints.v[2], K = ints.v[3];
    int transA = (int) ints.v[4], transB = (int) ints.v[5];
    long long strideA = ints.v[6], strideB = ints.v[7];
    int hasC = (int) ints.v[8];
    long long cb = ints.v[9], cr = ints.v[10], cc = ints.v[11];
    int activation = (int) ints.v[12];
    F alpha = (F) floats.v[0], beta = (F) floats.v[1];
    __shared__ F As[GEMM_TILE][GEMM_OUT];   // [k][row]
    __shared__ F Bs[GEMM_TILE][GEMM_OUT];   // [k][column]
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * GEMM_TILE + tx;
    long long row0 = blockIdx.y * (long long) GEMM_OUT, col0 = blockIdx.x * (long long) GEMM_OUT;
    for (long long b = blockIdx.z; b < batch; b += gridDim.z) {
        const T* a = A + b * strideA;
        const T* bm = B + b * strideB;
        F acc[GEMM_REG][GEMM_REG], part[GEMM_REG][GEMM_REG];
        for (int r = 0; r < GEMM_REG; r++)
            for (int c = 0; c < GEMM_REG; c++) acc[r][c] = part[r][c] = 0.0f;
        for (long long k0 = 0; k0 < K; k0 += GEMM_TILE) {
            for (int l = 0; l < GEMM_REG; l++) {
                int idx = tid + l * GEMM_TILE * GEMM_TILE;   // 0 .. 1023
                int ar = idx / GEMM_TILE, ak = idx % GEMM_TILE;
                long long i = row0 + ar, ka = k0 + ak;
                As[ak][ar] = (i < M && ka < K) ? typed_load(a, transA ? ka * M + i : i * K + ka) : (F) 0.0f;
                int bk = idx / GEMM_OUT, bc = idx % GEMM_OUT;
                long long kb = k0 + bk, j = col0 + bc;
                Bs[bk][bc] = (kb < K && j < N) ? typed_load(bm, transB ? j * K + kb : kb * N + j) : (F) 0.0f;
            }
            __syncthreads();
            long long kEnd = K - k0 < GEMM_TILE ? K - k0 : GEMM_TILE;   // padding never enters the sum
            for (int kk = 0; kk < kEnd; kk++) {
                F av[GEMM_REG], bv[GEMM_REG];
                for (int r = 0; r < GEMM_REG; r++) av[r] = As[kk][ty + GEMM_TILE * r];
                for (int c = 0; c < GEMM_REG; c++) bv[c] = Bs[kk][tx + GEMM_TILE * c];
                for (int r = 0; r < GEMM_REG; r++)
                    for (int c = 0; c < GEMM_REG; c++) {
                        if (blocked) part[r][c] = part[r][c] + av[r] * bv[c];
                        else acc[r][c] = acc[r][c] + av[r] * bv[c];
                    }
            }
            if (blocked && ((k0 + GEMM_TILE) % SUM_BLOCK == 0 || k0 + GEMM_TILE >= K)) {   // the block (or k) ends: fold
                for (int r = 0; r < GEMM_REG; r++)
                    for (int c = 0; c < GEMM_REG; c++) {
                        acc[r][c] = acc[r][c] + part[r][c];
                        part[r][c] = 0.0f;
                    }
            }
            __syncthreads();
        }
        for (int r = 0; r < GEMM_REG; r++) {
            long long i = row0 + ty + GEMM_TILE * r;
            if (i >= M) continue;
            for (int c = 0; c < GEMM_REG; c++) {
                long long j = col0 + tx + GEMM_TILE * c;
                if (j >= N) continue;
                F v = alpha * acc[r][c];
                if (hasC) v = v + beta * typed_load(C, b * cb + i * cr + j * cc);
                typed_store(Y, b * M * N + i * N + j, apply_activation(v, activation));
            }
        }
    }
}

extern "C" __global__ void gemm(const float* A, const float* B, const float* C, float* Y, Ints ints, Floats floats) {
    gemm_body(A, B, C, Y, ints, floats);
}

extern "C" __global__ void gemm_f16(const void* A, const void* B, const void* C, void* Y, Ints ints, Floats floats) {
    gemm_body((const half_t*) A, (const half_t*) B, (const half_t*) C, (half_t*) Y, ints, floats);
}

extern "C" __global__ void gemm_f64(const void* A, const void* B, const void* C, void* Y, Ints ints, Floats floats) {
    gemm_body((const double*) A, (const double*) B, (const double*) C, (double*) Y, ints, floats);
}
