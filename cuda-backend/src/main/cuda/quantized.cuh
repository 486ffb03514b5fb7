// qmatmul and qconv: the simulator's QuantizedKernels step for step (org.arenaplan.device.Kernels#QMATMUL,
// #QCONV): one thread per output element, the integer sum in 64 bits, then int32 (wrapping) or the
// requantization in double: sum * (aScale * bScale / yScale, each step rounded to the scales' type)
// + yZp, rounded half to even (rint), saturated to uint8 or int8.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

#define QCONV_MAX_SPATIAL 3

// v rounded to f32, then to f16 or bf16 (numpy computes those types in f32 and rounds).
__device__ __forceinline__ double quant_round(double v, int code) {
    float f = (float) v;
    if (code == DT_FLOAT16) return (double) half_to_float(float_to_half(f));
    if (code == DT_BFLOAT16) return (double) bits_f32((unsigned int) float_to_bf16(f) << 16);
    return (double) f;
}

// q: the 9 quantization ints (aType, bType, yType, requantize, aZpPerRow, bZpPerColumn, aScalePerRow, bScalePerColumn, scaleType).
__device__ __forceinline__ void quant_store(void* y, long long i, long long acc, const long long* q, const void* as, const void* bs,
                                            const void* ys, const void* yz, long long r, long long col) {
    if (q[3] == 0) { ((int*) y)[i] = (int) acc; return; }
    int sc = (int) q[8], yt = (int) q[2];
    double s = quant_round((double) load_float(as, q[6] ? r : 0, sc) * (double) load_float(bs, q[7] ? col : 0, sc), sc);
    s = quant_round(s / (double) load_float(ys, 0, sc), sc);
    double v = rint((double) acc * s + (double) load_int(yz, 0, yt));
    double lo = yt == DT_UINT8 ? 0.0 : -128.0, hi = yt == DT_UINT8 ? 255.0 : 127.0;
    store_int(y, i, yt, (long long) fmax(lo, fmin(hi, v)));
}

// ptrs: a, b, aZp, bZp, (aScale, bScale, yScale, yZp), y; ints: batch, M, K, N, aBatched, bBatched, then the 9 quantization ints.
extern "C" __global__ void qmatmul(const void* a, const void* b, const void* az, const void* bz, const void* as, const void* bs,
                                   const void* ys, const void* yz, void* y, Ints ints, Floats) {
    long long batch = ints.v[0], M = ints.v[1], K = ints.v[2], N = ints.v[3];
    bool aBatched = ints.v[4] == 1, bBatched = ints.v[5] == 1;
    const long long* q = ints.v + 6;
    int at = (int) q[0], bt = (int) q[1];
    FOR_EACH_ITEM(e, batch * M * N) {
        long long col = e % N, r = (e / N) % M, p = e / (M * N);
        long long za = load_int(az, q[4] ? r : 0, at), zb = load_int(bz, q[5] ? col : 0, bt);
        long long aBase = (aBatched ? p * M * K : 0) + r * K, bBase = (bBatched ? p * K * N : 0) + col;
        long long acc = 0;
        for (long long j = 0; j < K; j++) acc += (load_int(a, aBase + j, at) - za) * (load_int(b, bBase + j * N, bt) - zb);
        quant_store(y, e, acc, q, as, bs, ys, yz, r, col);
    }
}

// ptrs: x, w, xZp, wZp, (xScale, wScale, yScale, yZp), (bias), y; ints: the 9 quantization ints, then conv_nd's
// (rank, N, C, M, group, hasBias, transposed = 0, per spatial axis: in, out, k, stride, padBegin, dilation).
extern "C" __global__ void qconv(const void* x, const void* w, const void* xz, const void* wz, const void* xs, const void* ws,
                                 const void* ys, const void* yz, const int* bias, void* y, Ints ints, Floats) {
    const long long* q = ints.v;
    const long long* g = ints.v + 9;
    int rank = (int) g[0];
    long long N = g[1], C = g[2], M = g[3], group = g[4];
    bool hasBias = g[5] == 1;
    int xt = (int) q[0], wt = (int) q[1];
    long long in[QCONV_MAX_SPATIAL], out[QCONV_MAX_SPATIAL], k[QCONV_MAX_SPATIAL], st[QCONV_MAX_SPATIAL], pad[QCONV_MAX_SPATIAL], dil[QCONV_MAX_SPATIAL];
    long long inSize = 1, outSize = 1, kSize = 1;
    for (int d = 0; d < rank; d++) {
        const long long* v = g + 7 + 6 * d;
        in[d] = v[0]; out[d] = v[1]; k[d] = v[2]; st[d] = v[3]; pad[d] = v[4]; dil[d] = v[5];
        inSize *= in[d]; outSize *= out[d]; kSize *= k[d];
    }
    long long cg = C / group, mg = M / group;
    long long zx = load_int(xz, 0, xt);
    FOR_EACH_ITEM(e, N * M * outSize) {
        long long pos = e % outSize, m = (e / outSize) % M, img = e / (outSize * M);
        long long o[QCONV_MAX_SPATIAL];
        long long rest = pos;
        for (int d = rank - 1; d >= 0; d--) { o[d] = rest % out[d]; rest /= out[d]; }
        long long zw = load_int(wz, q[5] ? m : 0, wt);
        long long grp = m / mg, acc = 0;
        for (long long ci = 0; ci < cg; ci++) {
            long long xBase = (img * C + grp * cg + ci) * inSize, wBase = (m * cg + ci) * kSize;
            for (long long t = 0; t < kSize; t++) {
                long long r = t, at = 0, stride = 1;
                bool inside = true;
                for (int d = rank - 1; d >= 0; d--) {
                    long long p = o[d] * st[d] - pad[d] + (r % k[d]) * dil[d];
                    r /= k[d];
                    if (p < 0 || p >= in[d]) { inside = false; break; }
                    at += p * stride;
                    stride *= in[d];
                }
                if (inside) acc += (load_int(x, xBase + at, xt) - zx) * (load_int(w, wBase + t, wt) - zw);
            }
        }
        if (hasBias) acc += bias[m];
        quant_store(y, e, acc, q, xs, ws, ys, yz, 0, m);
    }
}

// The smaller (lo) or larger of a and b; a NaN in either wins (the simulator's QuantizedKernels.pick).
__device__ __forceinline__ float range_pick(float a, float b, bool lo) {
    return ((lo ? b < a : b > a) || b != b) ? b : a;
}

#define QUANTIZE_RANGE_THREADS 256

// ptrs: x (n f32), y_scale (one f32), y_zero_point (one uint8); ints: n. DynamicQuantizeLinear's
// whole-tensor min and max (0 included), in ONE block (the table launches 256 items): 256 slots each
// fold a strided share of x, then a tree in shared memory; min and
// max are exact, so the result does not depend on the order. Cost: n / 256 loads per thread on one
// SM, a single pass over x; then y_scale and y_zero_point as the simulator's quantizeRange.
extern "C" __global__ void quantize_range(const float* x, float* y_scale, unsigned char* y_zero_point, Ints ints, Floats) {
    __shared__ float lo[QUANTIZE_RANGE_THREADS], hi[QUANTIZE_RANGE_THREADS];
    if (blockIdx.x != 0 || blockIdx.y != 0 || blockIdx.z != 0) return;
    long long n = ints.v[0];
    int t = threadIdx.x;
    // slot k folds x[k], x[k + 256], ...; a block of any size fills every slot
    for (int k = t; k < QUANTIZE_RANGE_THREADS; k += blockDim.x) {
        float l = 0.0f, h = 0.0f;
        for (long long i = k; i < n; i += QUANTIZE_RANGE_THREADS) {
            l = range_pick(l, x[i], true);
            h = range_pick(h, x[i], false);
        }
        lo[k] = l;
        hi[k] = h;
    }
    __syncthreads();
    for (int width = QUANTIZE_RANGE_THREADS / 2; width > 0; width /= 2) {
        for (int k = t; k < width; k += blockDim.x) {
            lo[k] = range_pick(lo[k], lo[k + width], true);
            hi[k] = range_pick(hi[k], hi[k + width], false);
        }
        __syncthreads();
    }
    if (t == 0) {
        float scale = (hi[0] == lo[0] ? 1.0f : hi[0] - lo[0]) / 255.0f;
        float zp = 0.0f - lo[0] / scale;
        if (!(zp >= 0.0f)) zp = 0.0f;
        if (zp > 255.0f) zp = 255.0f;
        y_scale[0] = scale;
        y_zero_point[0] = (unsigned char) rintf(zp);
    }
}
