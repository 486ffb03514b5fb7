// rotary and attention: the simulator's TransformerKernels step for step
// (org.arenaplan.device.Kernels#ROTARY, #ATTENTION): f32 arithmetic where it is f32 there, sums in double.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// ptrs: x, cos, sin, positions (when hasPositions), y.
// ints: B, S, H, D, rd, interleaved, hasPositions, strideB, strideH, strideS, cacheRows.
// A call without positions leaves slot 3 out (CudaKernelTable's optional slot): positions is null then.
extern "C" __global__ void rotary(const float* x, const float* cos_cache, const float* sin_cache, const long long* positions, float* y,
                                  Ints ints, Floats) {
    long long B = ints.v[0], S = ints.v[1], H = ints.v[2], D = ints.v[3], rd = ints.v[4];
    bool interleaved = ints.v[5] == 1, hasPos = ints.v[6] == 1;
    long long sb = ints.v[7], sh = ints.v[8], ss = ints.v[9], rows = ints.v[10];
    long long half = rd / 2;
    FOR_EACH_ITEM(item, B * S * H * D) {
        long long e = item % D, h = (item / D) % H, s = (item / (D * H)) % S, b = item / (D * H * S);
        long long base = b * sb + h * sh + s * ss, at = base + e;
        if (e >= rd) {
            y[at] = x[at];
            continue;
        }
        long long row = b * S + s;
        if (hasPos) {
            long long p = positions[row];
            row = p < 0 ? p + rows : p;
            if (row < 0 || row >= rows) __trap();
        }
        long long i = interleaved ? e / 2 : e % half;
        bool first = interleaved ? e % 2 == 0 : e < half;
        float x1 = x[base + (interleaved ? 2 * i : i)], x2 = x[base + (interleaved ? 2 * i + 1 : i + half)];
        float c = cos_cache[row * half + i], sn = sin_cache[row * half + i];
        y[at] = first ? c * x1 - sn * x2 : sn * x1 + c * x2;
    }
}

// Element offset in [B, H, S, W] (threeD: [B, S, H*W]).
__device__ __forceinline__ long long attn_at(bool threeD, long long b, long long h, long long s, long long e, long long heads, long long seq, long long width) {
    return threeD ? ((b * seq + s) * heads + h) * width + e : ((b * heads + h) * seq + s) * width + e;
}

// Key (or value) element e of key j for key head kh: from past below P, else from K (V).
__device__ __forceinline__ float attn_kv(const float* past, const float* cur, bool threeD, long long b, long long kh, long long j, long long e,
                                         long long Hkv, long long P, long long Skv, long long W) {
    return j < P ? past[attn_at(false, b, kh, j, e, Hkv, P, W)] : cur[attn_at(threeD, b, kh, j - P, e, Hkv, Skv, W)];
}

// ptrs: Q, K, V, mask, pastK, pastV, nonpad, Y, presentK, presentV, qk (the present ones, by the has* flags).
// ints: B, Hq, Hkv, Sq, Skv, P, D, Dv, threeD, hasMask, maskBool, maskStrideB, maskStrideH, maskStrideQ, Tm, causal,
//       hasPast, hasNonpad, hasPresentK, hasPresentV, hasQk, qkMode, leftWindow, rightWindow; floats: scale, softcap.
// One thread per query row (b, h, i), three passes over the keys; the present copies in grid-stride loops of their own.
extern "C" __global__ void attention(const float* Q, const float* K, const float* V, const void* mask, const float* pastK, const float* pastV,
                                     const long long* nonpad, float* Y, float* presentK, float* presentV, float* qk, Ints ints, Floats floats) {
    long long B = ints.v[0], Hq = ints.v[1], Hkv = ints.v[2], Sq = ints.v[3], Skv = ints.v[4], P = ints.v[5], D = ints.v[6], Dv = ints.v[7];
    bool threeD = ints.v[8] == 1, hasMask = ints.v[9] == 1, maskBool = ints.v[10] == 1;
    long long mb = ints.v[11], mh = ints.v[12], mq = ints.v[13], Tm = ints.v[14];
    bool causal = ints.v[15] == 1, hasPast = ints.v[16] == 1, hasNonpad = ints.v[17] == 1;
    bool hasPresentK = ints.v[18] == 1, hasPresentV = ints.v[19] == 1, hasQk = ints.v[20] == 1;
    int mode = (int) ints.v[21];
    long long left = ints.v[22], right = ints.v[23];
    float scale = (float) floats.v[0], softcap = (float) floats.v[1];
    long long T = P + Skv, group = Hq / Hkv;
    const float NEG_INF = -INFINITY;
    if (hasPresentK) {
        FOR_EACH_ITEM(item, B * Hkv * T * D) {
            long long e = item % D, j = (item / D) % T, h = (item / (D * T)) % Hkv, b = item / (D * T * Hkv);
            presentK[item] = attn_kv(pastK, K, threeD, b, h, j, e, Hkv, P, Skv, D);
        }
    }
    if (hasPresentV) {
        FOR_EACH_ITEM(item, B * Hkv * T * Dv) {
            long long e = item % Dv, j = (item / Dv) % T, h = (item / (Dv * T)) % Hkv, b = item / (Dv * T * Hkv);
            presentV[item] = attn_kv(pastV, V, threeD, b, h, j, e, Hkv, P, Skv, Dv);
        }
    }
    FOR_EACH_ITEM(row, B * Hq * Sq) {
        long long i = row % Sq, h = (row / Sq) % Hq, b = row / (Sq * Hq), kh = h / group;
        long long offset = hasPast ? P : hasNonpad ? nonpad[b] - Sq : 0;
        float* qkRow = hasQk ? qk + row * T : nullptr;
        // pass 1: the row's max, whether every key is masked; qk modes 0..2
        bool allMasked = true;
        float mx = NEG_INF;
        for (long long j = 0; j < T; j++) {
            float bias = 0.0f;
            if (hasMask) {
                long long at = b * mb + h * mh + i * mq + j;
                bias = j >= Tm ? NEG_INF : maskBool ? (((const unsigned char*) mask)[at] != 0 ? 0.0f : NEG_INF) : ((const float*) mask)[at];
            }
            bias = bias + (causal && j > i + offset ? NEG_INF : 0.0f);
            bias = bias + ((left >= 0 && i + offset - j > left) || (right >= 0 && j - i - offset > right) ? NEG_INF : 0.0f);
            bias = bias + (hasNonpad && j >= nonpad[b] ? NEG_INF : 0.0f);
            double dot = 0.0;
            for (long long e = 0; e < D; e++)
                dot += (double) Q[attn_at(threeD, b, h, i, e, Hq, Sq, D)] * (double) attn_kv(pastK, K, threeD, b, kh, j, e, Hkv, P, Skv, D);
            float raw = (float) (dot * (double) scale);
            float capped = softcap > 0.0f ? (float) ((double) softcap * tanh((double) (raw / softcap))) : raw;
            float x = capped + bias;
            if (bias != NEG_INF) allMasked = false;
            if (x > mx) mx = x;
            if (hasQk && mode < 3) qkRow[j] = mode == 0 ? raw : mode == 1 ? capped : x;
        }
        bool zero = allMasked || mx == NEG_INF;
        // pass 2: the sum; pass 3: the weights and the weighted values. The scores recomputed as in pass 1.
        double sum = 0.0;
        for (long long e = 0; e < Dv; e++) Y[attn_at(threeD, b, h, i, e, Hq, Sq, Dv)] = 0.0f;
        for (int pass = 2; pass <= 3; pass++) {
            for (long long j = 0; j < T; j++) {
                float bias = 0.0f;
                if (hasMask) {
                    long long at = b * mb + h * mh + i * mq + j;
                    bias = j >= Tm ? NEG_INF : maskBool ? (((const unsigned char*) mask)[at] != 0 ? 0.0f : NEG_INF) : ((const float*) mask)[at];
                }
                bias = bias + (causal && j > i + offset ? NEG_INF : 0.0f);
                bias = bias + ((left >= 0 && i + offset - j > left) || (right >= 0 && j - i - offset > right) ? NEG_INF : 0.0f);
                bias = bias + (hasNonpad && j >= nonpad[b] ? NEG_INF : 0.0f);
                double dot = 0.0;
                for (long long e = 0; e < D; e++)
                    dot += (double) Q[attn_at(threeD, b, h, i, e, Hq, Sq, D)] * (double) attn_kv(pastK, K, threeD, b, kh, j, e, Hkv, P, Skv, D);
                float raw = (float) (dot * (double) scale);
                float capped = softcap > 0.0f ? (float) ((double) softcap * tanh((double) (raw / softcap))) : raw;
                float x = capped + bias;
                if (pass == 2) {
                    sum += exp((double) x - (double) mx);
                    continue;
                }
                float p = zero ? 0.0f : (float) (exp((double) x - (double) mx) / sum);
                if (hasQk && mode == 3) qkRow[j] = p;
                for (long long e = 0; e < Dv; e++) {
                    long long at = attn_at(threeD, b, h, i, e, Hq, Sq, Dv);
                    Y[at] = Y[at] + p * attn_kv(pastV, V, threeD, b, kh, j, e, Hkv, P, Skv, Dv);
                }
            }
        }
    }
}
