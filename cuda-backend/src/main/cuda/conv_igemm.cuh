// conv2d_igemm: conv2d for group = 1 as an implicit GEMM (no im2col buffer), chosen over the
// one-thread-per-output conv2d by CudaKernelTable.entry() from the call's ints; same ints, same
// result bit for bit.
//
// The GEMM view: Y[m][p] = sum over k of W[m][k] * X[k][p], with m an output channel,
// p = (n, oh, ow) an output pixel, k = (c, kh, kw) in that order (W's own row-major layout), and
// X[k][p] = x[n, c, oh*strideH - padTop + kh*dilationH, ow*strideW - padLeft + kw*dilationW], a
// tap that falls in the padding being no term at all (not a product with 0, which would turn an
// infinite weight into NaN). k ascending is the simulator's order (channel, then kh, then kw),
// blocked as gemm.cuh (SUM_BLOCK: a partial sum per 64 values of k, added into the total, both
// from 0, after the block's last tile), the bias added last, so the result equals conv2d's and
// the simulator's for any stride, padding and dilation.
//
// Tiling as gemm.cuh: a block of 16 x 16 threads computes 64 channels x 64 pixels, each thread a
// 4 x 4 micro-tile in registers (channels ty + 16 r, pixels tx + 16 c: stores stay coalesced
// along ow); W and the gathered X pass through shared memory 16 values of k at a time, with a
// byte per X value saying whether the tap is inside the image. Each thread stages one pixel
// column of X (tid % 64) for k rows tid / 64 + 4 l, so it decodes its pixel once.
// Grid: x over pixel tiles of 64 (N * OH * OW pixels), y over channel tiles of 64.
// ints: as conv2d (group must be 1), then activation (epilogue.cuh). T: the storage type (typed.cuh);
// conv2d_igemm is float, conv2d_igemm_f16 half_t (staged in shared memory as f32, the sums in f32).
#pragma once
#include "common.cuh"
#include "epilogue.cuh"
#include "typed.cuh"

#define CONV_TILE 16   // threads per block side, and k per shared-memory step
#define CONV_REG 4     // outputs per thread per side
#define CONV_OUT 64    // outputs per block side
static_assert(SUM_BLOCK % CONV_TILE == 0, "a block of the blocked sum ends at a k tile's end");

template <typename T>
__device__ __forceinline__ void conv2d_igemm_body(const T* x, const T* w, const T* b, T* y, const Ints& ints) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], M = ints.v[4];
    long long OH = ints.v[5], OW = ints.v[6], KH = ints.v[7], KW = ints.v[8];
    long long sh = ints.v[9], sw = ints.v[10], pt = ints.v[11], pl = ints.v[12], dh = ints.v[13], dw = ints.v[14];
    int hasBias = (int) ints.v[16], activation = (int) ints.v[17];
    long long taps = KH * KW, K = C * taps, OHW = OH * OW, P = N * OHW;
    __shared__ float Ws[CONV_TILE][CONV_OUT];            // [k][channel]
    __shared__ float Xs[CONV_TILE][CONV_OUT];            // [k][pixel]
    __shared__ unsigned char Xin[CONV_TILE][CONV_OUT];   // 1: the tap is inside the image
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * CONV_TILE + tx;
    long long m0 = blockIdx.y * (long long) CONV_OUT, p0 = blockIdx.x * (long long) CONV_OUT;
    // The pixel column this thread stages: its image plane and the top-left input position.
    int xc = tid % CONV_OUT;
    long long p = p0 + xc;
    bool pixel = p < P;
    long long pn = pixel ? p / OHW : 0, prest = pixel ? p % OHW : 0;
    long long ih0 = (prest / OW) * sh - pt, iw0 = (prest % OW) * sw - pl;
    const T* xImage = x + pn * C * H * W;
    float acc[CONV_REG][CONV_REG], part[CONV_REG][CONV_REG];
    for (int r = 0; r < CONV_REG; r++)
        for (int c = 0; c < CONV_REG; c++) acc[r][c] = part[r][c] = 0.0f;
    for (long long k0 = 0; k0 < K; k0 += CONV_TILE) {
        for (int l = 0; l < CONV_REG; l++) {
            int idx = tid + l * CONV_TILE * CONV_TILE;   // 0 .. 1023
            int wr = idx / CONV_TILE, wk = idx % CONV_TILE;
            long long m = m0 + wr, kw_ = k0 + wk;
            Ws[wk][wr] = (m < M && kw_ < K) ? typed_load(w, m * K + kw_) : 0.0f;
            int xk = idx / CONV_OUT;                     // tid / 64 + 4 l; the column is xc
            long long k = k0 + xk;
            bool inside = false;
            float v = 0.0f;
            if (pixel && k < K) {
                long long c = k / taps, t = k % taps;
                long long ih = ih0 + (t / KW) * dh, iw = iw0 + (t % KW) * dw;
                inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
                if (inside) v = typed_load(xImage, (c * H + ih) * W + iw);
            }
            Xs[xk][xc] = v;
            Xin[xk][xc] = inside ? 1 : 0;
        }
        __syncthreads();
        long long kEnd = K - k0 < CONV_TILE ? K - k0 : CONV_TILE;
        for (int kk = 0; kk < kEnd; kk++) {
            float wv[CONV_REG], xv[CONV_REG];
            bool in[CONV_REG];
            for (int r = 0; r < CONV_REG; r++) wv[r] = Ws[kk][ty + CONV_TILE * r];
            for (int c = 0; c < CONV_REG; c++) {
                xv[c] = Xs[kk][tx + CONV_TILE * c];
                in[c] = Xin[kk][tx + CONV_TILE * c] != 0;
            }
            for (int r = 0; r < CONV_REG; r++)
                for (int c = 0; c < CONV_REG; c++)
                    if (in[c]) part[r][c] = part[r][c] + xv[c] * wv[r];
        }
        if ((k0 + CONV_TILE) % SUM_BLOCK == 0 || k0 + CONV_TILE >= K) {   // the block (or k) ends: fold
            for (int r = 0; r < CONV_REG; r++)
                for (int c = 0; c < CONV_REG; c++) {
                    acc[r][c] = acc[r][c] + part[r][c];
                    part[r][c] = 0.0f;
                }
        }
        __syncthreads();
    }
#pragma unroll   // constant indices into acc: without it the f16 form's store loop stays rolled and acc goes to a 64-byte stack frame
    for (int c = 0; c < CONV_REG; c++) {
        long long q = p0 + tx + CONV_TILE * c;
        if (q >= P) continue;
        long long qn = q / OHW, qrest = q % OHW;
#pragma unroll
        for (int r = 0; r < CONV_REG; r++) {
            long long m = m0 + ty + CONV_TILE * r;
            if (m >= M) continue;
            float v = acc[r][c];
            if (hasBias) v = v + typed_load(b, m);
            typed_store(y, (qn * M + m) * OHW + qrest, apply_activation(v, activation));
        }
    }
}

extern "C" __global__ void conv2d_igemm(const float* x, const float* w, const float* b, float* y, Ints ints, Floats) {
    conv2d_igemm_body(x, w, b, y, ints);
}

extern "C" __global__ void conv2d_igemm_f16(const void* x, const void* w, const void* b, void* y, Ints ints, Floats) {
    conv2d_igemm_body((const half_t*) x, (const half_t*) w, (const half_t*) b, (half_t*) y, ints);
}
