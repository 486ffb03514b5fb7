// flex_attention: the simulator's FlexAttentionKernels step for step (org.arenaplan.device.Kernels#FLEX_ATTENTION;
// onnx/reference/ops/aionnx_preview/op_flex_attention.py): one block per query row (b, h, l) (64 threads:
// CudaKernelTable.FLEX_ATTENTION_THREADS; any size is correct), the row's S scores in shared memory as
// doubles, each value rounded to its type where the reference (numpy, ml_dtypes) rounds it. Every sum is one thread's loop in
// the simulator's order (the scores' dot over e, the softmax sum over j, Y's sum over j): the simulator's
// bits, but for exp (libm vs Java's, in the softmax's probabilities).
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// Largest key count S: the row a block keeps in shared memory (CudaKernelTable.FLEX_ATTENTION_MAX_S).
#define FLEX_ATTENTION_MAX_S 4096

// v rounded to type code (f64: unchanged; f32; f16 and bf16 through f32, as SimKernels.rounded).
__device__ __forceinline__ double flex_round(int code, double v) {
    if (code == DT_DOUBLE) return v;
    float f = (float) v;
    if (code == DT_FLOAT16) return (double) half_to_float(float_to_half(f));
    if (code == DT_BFLOAT16) return (double) bits_f32((unsigned int) float_to_bf16(f) << 16);
    return (double) f;
}

// v, of type code t, cast to cd as numpy's astype (FlexAttentionKernels.cast): f64 to f16 rounded once
// (rounded to f32 to odd, then to f16: FlexAttentionKernels.halfOfDouble), every other cast as flex_round.
__device__ __forceinline__ double flex_cast(int t, int cd, double v) {
    if (t != DT_DOUBLE || cd != DT_FLOAT16) return flex_round(cd, v);
    float f = (float) v;
    unsigned int u = f32_bits(f);
    if ((double) f != v && (u & 0x7FFFFFFFu) != 0x7F800000u && (u & 1u) == 0)
        u += ((double) f < v) == ((u >> 31) == 0) ? 1u : 0xFFFFFFFFu;   // one f32 step toward v: away from 0 or toward it
    return (double) half_to_float(float_to_half(bits_f32(u)));
}

__device__ __forceinline__ double flex_load(const void* p, long long i, int code) {
    return code == DT_DOUBLE ? ((const double*) p)[i] : (double) load_float(p, i, code);
}

__device__ __forceinline__ void flex_store(void* p, long long i, int code, double v) {
    if (code == DT_DOUBLE) ((double*) p)[i] = v;
    else store_float(p, i, code, (float) v);
}

// Java's Math.max: NaN wins, +0 above -0.
__device__ __forceinline__ double java_max(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0 && b == 0.0) return 1.0 / a < 0.0 ? b : a;   // a is -0
    return a > b ? a : b;
}

// ptrs: Q (from 0) or X (from 1, 2), K (from 0; else null), V (to 3; else null), out.
// ints: B, Hq, Hkv, L, S, E, Ev, from, to, tCode, cCode; floats: f (the square root of the scale).
// Q/K/V/Y of type tCode, scores and probabilities of type cCode. A block of threads per query row:
// scores j = t, t + blockDim ... per thread; thread 0 takes the max and the sum (serial, j ascending);
// Y's element m per thread, its sum over j ascending.
extern "C" __global__ void flex_attention(const void* a, const void* kp, const void* vp, void* out, Ints ints, Floats floats) {
    __shared__ double row[FLEX_ATTENTION_MAX_S];
    __shared__ double total;
    long long B = ints.v[0], Hq = ints.v[1], Hkv = ints.v[2], L = ints.v[3], S = ints.v[4], E = ints.v[5], Ev = ints.v[6];
    int from = (int) ints.v[7], to = (int) ints.v[8], t = (int) ints.v[9], cd = (int) ints.v[10];
    double f = floats.v[0];
    if (S > FLEX_ATTENTION_MAX_S) __trap();
    long long group = Hq / Hkv, rows = B * Hq * L;
    for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
        long long head = r / L % Hq, batch = r / (L * Hq), kvRow = (batch * Hkv + head / group) * S;
        for (long long j = threadIdx.x; j < S; j += blockDim.x) {
            if (from == 0) {
                double acc = 0.0;
                for (long long d = 0; d < E; d++)
                    acc += flex_round(t, flex_load(a, r * E + d, t) * f) * flex_round(t, flex_load(kp, (kvRow + j) * E + d, t) * f);
                row[j] = flex_cast(t, cd, flex_round(t, acc));
            } else {
                row[j] = flex_load(a, r * S + j, cd);
            }
        }
        __syncthreads();
        if (from <= 1 && to >= 2) {   // the row's softmax in type cd: m = max, p = C(exp(C(s - m))), p = C(p / C(sum p))
            if (threadIdx.x == 0) {
                double mx = -INFINITY;
                for (long long j = 0; j < S; j++) mx = java_max(mx, row[j]);
                total = mx;
            }
            __syncthreads();
            double mx = total;
            for (long long j = threadIdx.x; j < S; j += blockDim.x) row[j] = flex_round(cd, exp(flex_round(cd, row[j] - mx)));
            __syncthreads();
            if (threadIdx.x == 0) {
                double sum = 0.0;
                for (long long j = 0; j < S; j++) sum = cd == DT_BFLOAT16 ? flex_round(cd, sum + row[j]) : sum + row[j];   // bf16: rounded each step (ml_dtypes)
                total = flex_round(cd, sum);
            }
            __syncthreads();
            double sum = total;
            for (long long j = threadIdx.x; j < S; j += blockDim.x) row[j] = flex_round(cd, row[j] / sum);
            __syncthreads();
        }
        if (to < 3) {
            for (long long j = threadIdx.x; j < S; j += blockDim.x) flex_store(out, r * S + j, cd, row[j]);
        } else {
            for (long long m = threadIdx.x; m < Ev; m += blockDim.x) {
                double acc = 0.0;
                for (long long j = 0; j < S; j++) {
                    acc += row[j] * flex_cast(t, cd, flex_load(vp, (kvRow + j) * Ev + m, t));
                    if (cd == DT_BFLOAT16) acc = (double) (float) acc;   // ml_dtypes' bf16 matmul: a float32 sum, returned as float32
                }
                flex_store(out, r * Ev + m, t, cd == DT_BFLOAT16 ? acc : flex_round(cd, acc));
            }
        }
        __syncthreads();   // the next row overwrites row[] and total
    }
}
