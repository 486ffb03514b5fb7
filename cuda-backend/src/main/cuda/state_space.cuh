// causal_conv: the simulator's StateSpaceKernels step for step
// (org.arenaplan.device.Kernels#CAUSAL_CONV): sums in double, rounded to f32, then to the type.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// Element j of row's padded sequence: past (or 0) below pad, then x.
__device__ __forceinline__ double causal_seq(const void* x, const void* past, long long row, long long j, long long pad, long long len, int code) {
    if (j >= pad) return (double) load_float(x, row * len + j - pad, code);
    return past == nullptr ? 0.0 : (double) load_float(past, row * pad + j, code);
}

// v rounded to f32, then to the type (DType's f64 to f16/bf16 conversion).
__device__ __forceinline__ float causal_round(double v, int code) {
    float f = (float) v;
    if (code == DT_FLOAT) return f;
    unsigned short h = code == DT_FLOAT16 ? float_to_half(f) : float_to_bf16(f);
    return load_float(&h, 0, code);
}

// ptrs: x, w, bias, past, y, present (bias, past and present null where the has* ints say absent).
// ints: B, C, L, K, hasBias, hasPast, activation (0 none, 1 silu), hasPresent, dtype.
// Items: every y element (B*C*L), then every present element (B*C*(K-1)).
extern "C" __global__ void causal_conv(const void* x, const void* w, const void* bias, const void* past, void* y, void* present,
                                       Ints ints, Floats) {
    long long B = ints.v[0], C = ints.v[1], L = ints.v[2], K = ints.v[3];
    bool hasBias = ints.v[4] == 1, silu = ints.v[6] == 1, hasPresent = ints.v[7] == 1;
    int code = (int) ints.v[8];
    const void* pastOrNull = ints.v[5] == 1 ? past : nullptr;
    long long pad = K - 1, outputs = B * C * L;
    FOR_EACH_ITEM(item, outputs + (hasPresent ? B * C * pad : 0)) {
        if (item >= outputs) {
            long long s = (item - outputs) % pad, row = (item - outputs) / pad;
            store_float(present, row * pad + s, code, (float) causal_seq(x, pastOrNull, row, L + s, pad, L, code));
            continue;
        }
        long long step = item % L, row = item / L, channel = row % C;
        double acc = 0.0;
        for (long long j = 0; j < K; j++) acc += (double) load_float(w, channel * K + j, code) * causal_seq(x, pastOrNull, row, step + j, pad, L, code);
        if (hasBias) acc += (double) load_float(bias, channel, code);
        float v = causal_round(acc, code);
        if (silu) v = causal_round((double) v * (1.0 / (1.0 + exp(-(double) v))), code);
        store_float(y, row * L + step, code, v);
    }
}
