// conv2d over NCHW images (1-D as H = 1), one thread per output element.
#pragma once
#include "common.cuh"
#include "epilogue.cuh"
#include "typed.cuh"

// ints: N, C, H, W, M, OH, OW, KH, KW, strideH, strideW, padTop, padLeft, dilationH, dilationW, group, hasBias,
// activation (epilogue.cuh). The sum runs over input channel, then kh, then kw, from 0 in f32, blocked
// (SUM_BLOCK, common.cuh; k = (c, kh, kw) row-major; a block without taps is skipped); the bias is
// added last, then the activation. For group 1 CudaKernelTable launches conv2d_igemm (conv_igemm.cuh) instead.
// T: the storage type (typed.cuh); conv2d is float, conv2d_f16 half_t (x, w, b and y f16, the sums in f32).
template <typename T>
__device__ __forceinline__ void conv2d_body(const T* x, const T* w, const T* b, T* y, const Ints& ints) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], M = ints.v[4];
    long long OH = ints.v[5], OW = ints.v[6], KH = ints.v[7], KW = ints.v[8];
    long long sh = ints.v[9], sw = ints.v[10], pt = ints.v[11], pl = ints.v[12], dh = ints.v[13], dw = ints.v[14];
    long long group = ints.v[15];
    int hasBias = (int) ints.v[16], activation = (int) ints.v[17];
    long long cPerGroup = C / group, mPerGroup = M / group;
    FOR_EACH_ITEM(i, N * M * OH * OW) {
        long long ow = i % OW, oh = (i / OW) % OH, m = (i / (OW * OH)) % M, n = i / (OW * OH * M);
        long long c0 = (m / mPerGroup) * cPerGroup;
        float acc = 0.0f, part = 0.0f;
        int blockEnd = SUM_BLOCK;   // k past the current block (k < C * KH * KW, the weights of one filter)
        for (long long c = 0; c < cPerGroup; c++) {
            for (long long kh = 0; kh < KH; kh++) {
                long long ih = oh * sh - pt + kh * dh;
                if (ih < 0 || ih >= H) continue;
                for (long long kw = 0; kw < KW; kw++) {
                    long long iw = ow * sw - pl + kw * dw;
                    if (iw < 0 || iw >= W) continue;
                    int k = (int) ((c * KH + kh) * KW + kw);
                    if (k >= blockEnd) {   // the term opens a later block: fold the partial sum
                        acc = acc + part;
                        part = 0.0f;
                        blockEnd = (k / SUM_BLOCK + 1) * SUM_BLOCK;
                    }
                    part = part + typed_load(x, ((n * C + c0 + c) * H + ih) * W + iw) * typed_load(w, ((m * cPerGroup + c) * KH + kh) * KW + kw);
                }
            }
        }
        acc = acc + part;
        if (hasBias) acc = acc + typed_load(b, m);
        typed_store(y, i, apply_activation(acc, activation));
    }
}

// 256 threads a block (CudaKernelTable.BLOCK), 4 blocks an SM: ptxas keeps it to 58 registers (sm_90, no spills);
// without the bound the blocked sum took it to 72, 3 blocks an SM (CUDA C++ Programming Guide, "Launch Bounds").
extern "C" __global__ void __launch_bounds__(256, 4) conv2d(const float* x, const float* w, const float* b, float* y, Ints ints, Floats) {
    conv2d_body(x, w, b, y, ints);
}

extern "C" __global__ void conv2d_f16(const void* x, const void* w, const void* b, void* y, Ints ints, Floats) {
    conv2d_body((const half_t*) x, (const half_t*) w, (const half_t*) b, (half_t*) y, ints);
}
