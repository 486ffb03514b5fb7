// rotary and attention: the simulator's TransformerKernels step for step
// (org.arenaplan.device.Kernels#ROTARY, #ATTENTION): f32 arithmetic where it is f32 there, sums in double.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"
#include "typed.cuh"

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
template <typename T>
__device__ __forceinline__ float attn_kv(const T* past, const T* cur, bool threeD, long long b, long long kh, long long j, long long e,
                                         long long Hkv, long long P, long long Skv, long long W) {
    return j < P ? typed_load(past, attn_at(false, b, kh, j, e, Hkv, P, W)) : typed_load(cur, attn_at(threeD, b, kh, j - P, e, Hkv, Skv, W));
}

// What a score of the attention kernel reads, unpacked once from its arguments (T: typed.cuh).
template <typename T>
struct AttnScoreArgs {
    const T* Q; const T* K; const T* pastK; const void* mask; const long long* nonpad;
    long long Hq, Hkv, Sq, Skv, P, D, mb, mh, mq, Tm, left, right;
    bool threeD, hasMask, maskBool, causal, hasNonpad;
    float scale, softcap;
};

// The score of query i of (b, h) against key j (kh: h's key head; offset: the query's shift in key positions):
// raw = Q.K x scale (dot in double), capped by softcap, bias from the mask, causality, the window and the padding,
// x = capped + bias. The one definition the three passes of the attention kernel share.
template <typename T>
__device__ __forceinline__ void attn_score(const AttnScoreArgs<T>& a, long long b, long long h, long long kh, long long i, long long j,
                                           long long offset, float& raw, float& capped, float& bias, float& x) {
    const float NEG_INF = -INFINITY;
    bias = 0.0f;
    if (a.hasMask) {
        long long at = b * a.mb + h * a.mh + i * a.mq + j;
        bias = j >= a.Tm ? NEG_INF : a.maskBool ? (((const unsigned char*) a.mask)[at] != 0 ? 0.0f : NEG_INF) : typed_load((const T*) a.mask, at);
    }
    bias = bias + (a.causal && j > i + offset ? NEG_INF : 0.0f);
    bias = bias + ((a.left >= 0 && i + offset - j > a.left) || (a.right >= 0 && j - i - offset > a.right) ? NEG_INF : 0.0f);
    bias = bias + (a.hasNonpad && j >= a.nonpad[b] ? NEG_INF : 0.0f);
    double dot = 0.0;
    for (long long e = 0; e < a.D; e++)
        dot += (double) typed_load(a.Q, attn_at(a.threeD, b, h, i, e, a.Hq, a.Sq, a.D)) * (double) attn_kv(a.pastK, a.K, a.threeD, b, kh, j, e, a.Hkv, a.P, a.Skv, a.D);
    raw = (float) (dot * (double) a.scale);
    capped = a.softcap > 0.0f ? (float) ((double) a.softcap * tanh((double) (raw / a.softcap))) : raw;
    x = capped + bias;
}

// ptrs: Q, K, V, mask, pastK, pastV, nonpad, Y, presentK, presentV, qk (the present ones, by the has* flags).
// ints: B, Hq, Hkv, Sq, Skv, P, D, Dv, threeD, hasMask, maskBool, maskStrideB, maskStrideH, maskStrideQ, Tm, causal,
//       hasPast, hasNonpad, hasPresentK, hasPresentV, hasQk, qkMode, leftWindow, rightWindow; floats: scale, softcap.
// One thread per query row (b, h, i), three passes over the keys; the present copies in grid-stride loops of their own.
// E: the storage type of every tensor but a bool mask and nonpad (typed.cuh); attention is float, attention_f16
// half_t: widened to f32 and computed as f32, each output rounded once. The f32 form accumulates Y in place;
// the f16 form keeps ATTN_CHUNK of a row's Y values in registers and repeats pass 3 per chunk (the scores
// recomputed, each Y value still summed over j ascending from 0 in f32).
#define ATTN_CHUNK 32
template <typename E>
__device__ __forceinline__ void attention_body(const E* Q, const E* K, const E* V, const void* mask, const E* pastK, const E* pastV,
                                               const long long* nonpad, E* Y, E* presentK, E* presentV, E* qk, const Ints& ints, const Floats& floats) {
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
            typed_store(presentK, item, attn_kv(pastK, K, threeD, b, h, j, e, Hkv, P, Skv, D));
        }
    }
    if (hasPresentV) {
        FOR_EACH_ITEM(item, B * Hkv * T * Dv) {
            long long e = item % Dv, j = (item / Dv) % T, h = (item / (Dv * T)) % Hkv, b = item / (Dv * T * Hkv);
            typed_store(presentV, item, attn_kv(pastV, V, threeD, b, h, j, e, Hkv, P, Skv, Dv));
        }
    }
    const AttnScoreArgs<E> sa = {Q, K, pastK, mask, nonpad, Hq, Hkv, Sq, Skv, P, D, mb, mh, mq, Tm, left, right,
                              threeD, hasMask, maskBool, causal, hasNonpad, scale, softcap};
    FOR_EACH_ITEM(row, B * Hq * Sq) {
        long long i = row % Sq, h = (row / Sq) % Hq, b = row / (Sq * Hq), kh = h / group;
        long long offset = hasPast ? P : hasNonpad ? nonpad[b] - Sq : 0;
        E* qkRow = hasQk ? qk + row * T : nullptr;
        // pass 1: the row's max, whether every key is masked; qk modes 0..2
        bool allMasked = true;
        float mx = NEG_INF;
        for (long long j = 0; j < T; j++) {
            float raw, capped, bias, x;
            attn_score(sa, b, h, kh, i, j, offset, raw, capped, bias, x);
            if (bias != NEG_INF) allMasked = false;
            if (x > mx) mx = x;
            if (hasQk && mode < 3) typed_store(qkRow, j, mode == 0 ? raw : mode == 1 ? capped : x);
        }
        bool zero = allMasked || mx == NEG_INF;
        // pass 2: the sum; pass 3: the weights and the weighted values. The scores recomputed as in pass 1.
        double sum = 0.0;
        if (sizeof(E) == sizeof(float)) {
            for (long long e = 0; e < Dv; e++) typed_store(Y, attn_at(threeD, b, h, i, e, Hq, Sq, Dv), 0.0f);
            for (int pass = 2; pass <= 3; pass++) {
                for (long long j = 0; j < T; j++) {
                    float raw, capped, bias, x;
                    attn_score(sa, b, h, kh, i, j, offset, raw, capped, bias, x);
                    if (pass == 2) {
                        sum += exp((double) x - (double) mx);
                        continue;
                    }
                    float p = zero ? 0.0f : (float) (exp((double) x - (double) mx) / sum);
                    if (hasQk && mode == 3) typed_store(qkRow, j, p);
                    for (long long e = 0; e < Dv; e++) {
                        long long at = attn_at(threeD, b, h, i, e, Hq, Sq, Dv);
                        typed_store(Y, at, typed_load(Y, at) + p * attn_kv(pastV, V, threeD, b, kh, j, e, Hkv, P, Skv, Dv));
                    }
                }
            }
        } else {
            for (long long j = 0; j < T; j++) {
                float raw, capped, bias, x;
                attn_score(sa, b, h, kh, i, j, offset, raw, capped, bias, x);
                sum += exp((double) x - (double) mx);
            }
            long long e0 = 0;
            do {   // at least once: qk mode 3 is written in the first chunk, even when Dv is 0
                int width = Dv - e0 < ATTN_CHUNK ? (int) (Dv - e0) : ATTN_CHUNK;
                float acc[ATTN_CHUNK];
#pragma unroll
                for (int c = 0; c < ATTN_CHUNK; c++) acc[c] = 0.0f;
                for (long long j = 0; j < T; j++) {
                    float raw, capped, bias, x;
                    attn_score(sa, b, h, kh, i, j, offset, raw, capped, bias, x);
                    float p = zero ? 0.0f : (float) (exp((double) x - (double) mx) / sum);
                    if (hasQk && mode == 3 && e0 == 0) typed_store(qkRow, j, p);
#pragma unroll
                    for (int c = 0; c < ATTN_CHUNK; c++)   // a constant bound keeps acc in registers
                        if (c < width) acc[c] = acc[c] + p * attn_kv(pastV, V, threeD, b, kh, j, e0 + c, Hkv, P, Skv, Dv);
                }
#pragma unroll
                for (int c = 0; c < ATTN_CHUNK; c++)
                    if (c < width) typed_store(Y, attn_at(threeD, b, h, i, e0 + c, Hq, Sq, Dv), acc[c]);
                e0 += ATTN_CHUNK;
            } while (e0 < Dv);
        }
    }
}

extern "C" __global__ void attention(const float* Q, const float* K, const float* V, const void* mask, const float* pastK, const float* pastV,
                                     const long long* nonpad, float* Y, float* presentK, float* presentV, float* qk, Ints ints, Floats floats) {
    attention_body(Q, K, V, mask, pastK, pastV, nonpad, Y, presentK, presentV, qk, ints, floats);
}

extern "C" __global__ void attention_f16(const void* Q, const void* K, const void* V, const void* mask, const void* pastK, const void* pastV,
                                         const long long* nonpad, void* Y, void* presentK, void* presentV, void* qk, Ints ints, Floats floats) {
    attention_body((const half_t*) Q, (const half_t*) K, (const half_t*) V, mask, (const half_t*) pastK, (const half_t*) pastV,
                   nonpad, (half_t*) Y, (half_t*) presentK, (half_t*) presentV, (half_t*) qk, ints, floats);
}
