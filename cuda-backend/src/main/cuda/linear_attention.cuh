// linear_attention: the simulator's LinearAttentionKernels step for step
// (org.arenaplan.device.Kernels#LINEAR_ATTENTION): one thread per state column (b, h, m), the
// column f32 in registers through every step, sums in double.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// Largest key size dk: the column a thread keeps (CudaKernelTable.LINEAR_ATTENTION_MAX_DK).
#define LINEAR_ATTENTION_MAX_DK 256

// ptrs: q, k, v, past, decay, beta, out, present (past, decay, beta and present null where the has* ints say absent).
// ints: B, T, Hq, Hkv, dk, dv, hasPast, hasDecay, decayPerKey, hasBeta, betaPerHead, hasPresent, tCode, sCode; floats: scale.
extern "C" __global__ void linear_attention(const void* q, const void* k, const void* v, const void* past, const void* decay,
                                            const void* beta, void* out, void* present, Ints ints, Floats floats) {
    long long B = ints.v[0], T = ints.v[1], Hq = ints.v[2], Hkv = ints.v[3], dk = ints.v[4], dv = ints.v[5];
    bool hasPast = ints.v[6] == 1, hasDecay = ints.v[7] == 1, perKey = ints.v[8] == 1, hasBeta = ints.v[9] == 1, perHead = ints.v[10] == 1,
         hasPresent = ints.v[11] == 1;
    int t = (int) ints.v[12], s = (int) ints.v[13];
    double scale = floats.v[0];
    long long group = Hq / Hkv;
    if (dk > LINEAR_ATTENTION_MAX_DK) __trap();
    FOR_EACH_ITEM(item, B * Hkv * dv) {
        long long m = item % dv, bh = item / dv, n = bh / Hkv, h = bh % Hkv;
        float col[LINEAR_ATTENTION_MAX_DK];
        for (long long d = 0; d < dk; d++) col[d] = hasPast ? load_float(past, (bh * dk + d) * dv + m, s) : 0.0f;
        for (long long step = 0; step < T; step++) {
            long long row = n * T + step, keys = (row * Hkv + h) * dk;
            if (hasDecay)
                for (long long d = 0; d < dk; d++)
                    col[d] = (float) ((double) col[d] * exp((double) load_float(decay, perKey ? keys + d : row * Hkv + h, t)));
            double u = (double) load_float(v, (row * Hkv + h) * dv + m, t);
            if (hasBeta) {
                double r = 0.0;
                for (long long d = 0; d < dk; d++) r += (double) col[d] * (double) load_float(k, keys + d, t);
                u = (double) (float) ((double) load_float(beta, perHead ? row * Hkv + h : row, t) * (u - r));
            }
            for (long long d = 0; d < dk; d++) col[d] = (float) ((double) col[d] + (double) load_float(k, keys + d, t) * u);
            for (long long j = 0; j < group; j++) {
                long long head = h * group + j, queries = (row * Hq + head) * dk;
                double acc = 0.0;
                for (long long d = 0; d < dk; d++) acc += (double) load_float(q, queries + d, t) * (double) col[d];
                store_float(out, (row * Hq + head) * dv + m, t, (float) (scale * acc));
            }
        }
        if (hasPresent)
            for (long long d = 0; d < dk; d++) store_float(present, (bh * dk + d) * dv + m, s, col[d]);
    }
}
