// gemm_tf32 and conv2d_igemm_tf32: gemm and conv2d (group 1) on the tensor cores in TF32, launched
// instead of gemm / conv2d_igemm only when the device was opened with the tf32 option (CLI --tf32;
// CudaKernelTable.entry). Same pointers, ints and floats as the FP32 kernels.
//
// Numerics (NVIDIA, "TensorFloat-32 in the A100 GPU", and the PTX ISA's mma .tf32): every A/W and
// B/X value is rounded to TF32 (cvt.rna.tf32.f32: round to nearest, ties away from zero, to a
// 10-bit mantissa; FP32's 8-bit exponent kept), each product of two TF32 values is exact in FP32,
// and the products are summed in FP32 in an order the hardware chooses, 8 values of k per mma.
// The result is therefore NOT the FP32 kernels' or the simulator's bit for bit: the relative error
// of each product is up to about 2^-10, so |y_tf32 - y_fp32| is bounded by about
// 2^-10 * sum_k |a_k b_k| (KernelEmulationTest checks 2^-9 * sum |a b| + 2^-20). A tap in the
// padding is a product with 0 here (an infinite weight behind the padding gives NaN, where the
// FP32 kernels leave the tap out). Bias / beta * C and the activation are applied in FP32 as in
// the FP32 kernels.
//
// Tiling: a block of 4 warps (128 threads) computes a 64 x 64 tile of Y (rows: M or output
// channels; columns: N or output pixels), each warp 32 x 32 as 2 x 2 accumulator fragments of
// 16 x 16; A and B are staged, rounded to TF32, through shared memory 16 values of k at a time
// (two m16n16k8 steps); the accumulators pass through shared memory for the FP32 epilogue.
// Grid: x over column tiles of 64, y over row tiles of 64, z strides over the batch (gemm).
#pragma once
#include "common.cuh"
#include "epilogue.cuh"
#include "gemm.cuh"
#ifdef __CUDACC__
#include <mma.h>
#endif

#define TF32_OUT 64              // outputs per block side
#define TF32_K 16                // k per shared-memory step
#define TF32_THREADS 128         // 4 warps
#define TF32_LDA (TF32_K + 4)    // padded leading dimensions (multiples of 4 floats, as wmma needs)
#define TF32_LDB (TF32_OUT + 4)

// The block's shared tiles: A [row][k], B [k][column], the accumulators [row][column].
struct Tf32Tiles {
    float a[TF32_OUT * TF32_LDA];
    float b[TF32_K * TF32_LDB];
    float c[TF32_OUT * TF32_LDB];
};

// Multiplies the staged 64 x 16 A tile by the 16 x 64 B tile into this warp's 32 x 32 accumulators.
__device__ __forceinline__ void tf32_step(const Tf32Tiles& t, int warpRow, int warpCol,
        nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 8, float> (&acc)[2][2]) {
    using namespace nvcuda;
    for (int kk = 0; kk < TF32_K; kk += 8) {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[2];
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
        for (int i = 0; i < 2; i++) wmma::load_matrix_sync(a[i], t.a + (warpRow * 32 + i * 16) * TF32_LDA + kk, TF32_LDA);
        for (int j = 0; j < 2; j++) wmma::load_matrix_sync(b[j], t.b + kk * TF32_LDB + warpCol * 32 + j * 16, TF32_LDB);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
}

// One 64 x 64 tile of the block: for each step of 16 values of k, stage(k0) fills t.a (rows x k)
// and t.b (k x columns) with TF32 values, zero beyond the edges; the warps multiply them; then
// the accumulators pass through t.c and epilogue(row, column, sum) writes each output (FP32).
template <typename Stage, typename Epilogue>
__device__ __forceinline__ void tf32_tile(Tf32Tiles& t, long long K, Stage stage, Epilogue epilogue) {
    using namespace nvcuda;
    int tid = threadIdx.x, warp = tid / 32, warpRow = warp / 2, warpCol = warp % 2;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (long long k0 = 0; k0 < K; k0 += TF32_K) {
        stage(k0);
        __syncthreads();
        tf32_step(t, warpRow, warpCol, acc);
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(t.c + (warpRow * 32 + i * 16) * TF32_LDB + warpCol * 32 + j * 16, acc[i][j], TF32_LDB, wmma::mem_row_major);
    __syncthreads();
    for (int idx = tid; idx < TF32_OUT * TF32_OUT; idx += TF32_THREADS) epilogue(idx / TF32_OUT, idx % TF32_OUT, t.c[(idx / TF32_OUT) * TF32_LDB + idx % TF32_OUT]);
    __syncthreads();
}

// ints and floats: gemm's (gemm.cuh), activation included.
extern "C" __global__ void gemm_tf32(const float* A, const float* B, const float* C, float* Y, Ints ints, Floats floats) {
    long long batch = ints.v[0], M = ints.v[1], N = ints.v[2], K = ints.v[3];
    int transA = (int) ints.v[4], transB = (int) ints.v[5];
    long long strideA = ints.v[6], strideB = ints.v[7];
    int hasC = (int) ints.v[8], activation = (int) ints.v[12];
    long long cb = ints.v[9], cr = ints.v[10], cc = ints.v[11];
    float alpha = (float) floats.v[0], beta = (float) floats.v[1];
    __shared__ __align__(32) Tf32Tiles t;
    long long row0 = blockIdx.y * (long long) TF32_OUT, col0 = blockIdx.x * (long long) TF32_OUT;
    for (long long bt = blockIdx.z; bt < batch; bt += gridDim.z) {
        const float* a = A + bt * strideA;
        const float* bm = B + bt * strideB;
        tf32_tile(t, K, [&](long long k0) {
            for (int idx = threadIdx.x; idx < TF32_OUT * TF32_K; idx += TF32_THREADS) {
                int ar = idx / TF32_K, ak = idx % TF32_K, bk = idx / TF32_OUT, bc = idx % TF32_OUT;
                long long i = row0 + ar, ka = k0 + ak, kb = k0 + bk, j = col0 + bc;
                t.a[ar * TF32_LDA + ak] = nvcuda::wmma::__float_to_tf32((i < M && ka < K) ? a[transA ? ka * M + i : i * K + ka] : 0.0f);
                t.b[bk * TF32_LDB + bc] = nvcuda::wmma::__float_to_tf32((kb < K && j < N) ? bm[transB ? j * K + kb : kb * N + j] : 0.0f);
            }
        }, [&](int r, int c, float sum) {
            long long i = row0 + r, j = col0 + c;
            if (i >= M || j >= N) return;
            float v = alpha * sum;
            if (hasC) v = v + beta * C[bt * cb + i * cr + j * cc];
            Y[bt * M * N + i * N + j] = apply_activation(v, activation);
        });
    }
}

// ints: conv2d's (image.cuh), group 1, activation included. The GEMM view of conv_igemm.cuh.
extern "C" __global__ void conv2d_igemm_tf32(const float* x, const float* w, const float* b, float* y, Ints ints, Floats) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], M = ints.v[4];
    long long OH = ints.v[5], OW = ints.v[6], KH = ints.v[7], KW = ints.v[8];
    long long sh = ints.v[9], sw = ints.v[10], pt = ints.v[11], pl = ints.v[12], dh = ints.v[13], dw = ints.v[14];
    int hasBias = (int) ints.v[16], activation = (int) ints.v[17];
    long long taps = KH * KW, K = C * taps, OHW = OH * OW, P = N * OHW;
    __shared__ __align__(32) Tf32Tiles t;
    long long m0 = blockIdx.y * (long long) TF32_OUT, p0 = blockIdx.x * (long long) TF32_OUT;
    tf32_tile(t, K, [&](long long k0) {
        for (int idx = threadIdx.x; idx < TF32_OUT * TF32_K; idx += TF32_THREADS) {
            int wr = idx / TF32_K, wk = idx % TF32_K, xk = idx / TF32_OUT, xc = idx % TF32_OUT;
            long long m = m0 + wr, kw_ = k0 + wk, k = k0 + xk, p = p0 + xc;
            t.a[wr * TF32_LDA + wk] = nvcuda::wmma::__float_to_tf32((m < M && kw_ < K) ? w[m * K + kw_] : 0.0f);
            float v = 0.0f;
            if (p < P && k < K) {
                long long pn = p / OHW, prest = p % OHW, c = k / taps, tap = k % taps;
                long long ih = (prest / OW) * sh - pt + (tap / KW) * dh, iw = (prest % OW) * sw - pl + (tap % KW) * dw;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W) v = x[((pn * C + c) * H + ih) * W + iw];
            }
            t.b[xk * TF32_LDB + xc] = nvcuda::wmma::__float_to_tf32(v);
        }
    }, [&](int r, int c, float sum) {
        long long m = m0 + r, q = p0 + c;
        if (m >= M || q >= P) return;
        float v = sum;
        if (hasBias) v = v + b[m];
        y[((q / OHW) * M + m) * OHW + q % OHW] = apply_activation(v, activation);
    });
}
