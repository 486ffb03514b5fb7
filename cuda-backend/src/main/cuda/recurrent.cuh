// recurrent: ONNX LSTM, GRU and RNN (org.arenaplan.device.Kernels#RECURRENT), the simulator's
// formulas (sim/RecurrentKernels) in the same order and precision. One block per (direction,
// batch row) runs that sequence's steps in order; its threads share the units of the hidden
// state, which lives in shared memory (so the op needs no device workspace), with a barrier
// between steps. Pre-activations are summed in f32 in index order; activations in double.
#pragma once
#include "common.cuh"

// Largest hidden_size the on-chip state holds (3 arrays of floats in 36 KiB of shared memory);
// CudaKernelTable refuses a larger one before launch.
#define RECURRENT_MAX_HIDDEN 3072

// ONNX's activation functions by code (org.arenaplan.ops.RecurrentOps#ACTIVATIONS).
__device__ __forceinline__ float recurrent_activate(long long code, float alpha, float beta, float v) {
    double x = v;
    switch (code) {
        case 0: return (float) (x < 0.0 ? 0.0 : x);
        case 1: return (float) tanh(x);
        case 2: return (float) (1.0 / (1.0 + exp(-x)));
        case 3: return alpha * v + beta;
        case 4: return x >= 0.0 ? v : alpha * v;
        case 5: return x >= (double) alpha ? v : 0.0f;
        case 6: return (float) (alpha * tanh((double) (beta * v)));
        case 7: { double a = (double) (alpha * v + beta); return (float) (a < 0.0 ? 0.0 : a > 1.0 ? 1.0 : a); }
        case 8: return (float) (x >= 0.0 ? x : alpha * (exp(x) - 1.0));
        case 9: return (float) (x / (1.0 + fabs(x)));
        case 10: return (float) log1p(exp(x));
        default: __trap(); return 0.0f;
    }
}

__device__ __forceinline__ float recurrent_dot(const float* u, const float* w, long long n) {
    float s = 0.0f;
    for (long long k = 0; k < n; k++) s = s + u[k] * w[k];
    return s;
}

__device__ __forceinline__ float recurrent_clip(bool on, float bound, float v) {
    return on ? fmaxf(-bound, fminf(bound, v)) : v;
}

// Gate `gate`'s pre-activation of unit j: x.W row, then h.R row, then Wb, then Rb.
__device__ __forceinline__ float recurrent_pre(const float* x, const float* W, const float* R, const float* h, const float* B,
                                               long long input, long long H, long long gh, long long gate, long long j) {
    long long row = gate * H + j;
    float a = recurrent_dot(x, W + row * input, input);
    a = a + recurrent_dot(h, R + row * H, H);
    if (B) {
        a = a + B[row];
        a = a + B[gh + row];
    }
    return a;
}

// ints: cell, seq, batch, input, H, dirs, reverse, layout, linearBeforeReset, inputForget, hasClip,
// act[6], present[8]; floats: clip, alpha[6], beta[6]. Absent pointers are null.
extern "C" __global__ void recurrent(const float* X, const float* W, const float* R, const float* B, const int* lens,
                                     const float* h0, const float* c0, const float* P, float* Y, float* Yh, float* Yc,
                                     Ints ints, Floats floats) {
    const long long* v = ints.v;
    long long cell = v[0], seq = v[1], batch = v[2], input = v[3], H = v[4], dirs = v[5];
    bool reverse = v[6] == 1, batchFirst = v[7] == 1, lbr = v[8] == 1, inputForget = v[9] == 1, clip = v[10] == 1;
    float bound = (float) floats.v[0];
    long long gates = cell == 2 ? 4 : cell == 1 ? 3 : 1, acts = cell == 2 ? 3 : cell == 1 ? 2 : 1;
    long long gh = gates * H;
    __shared__ float h[RECURRENT_MAX_HIDDEN], nx[RECURRENT_MAX_HIDDEN], aux[RECURRENT_MAX_HIDDEN];
    for (long long sq = blockIdx.x; sq < dirs * batch; sq += gridDim.x) {
        long long d = sq / batch, b = sq % batch;
        bool back = d == 1 || reverse;
        long long act[3];
        float alpha[3], beta[3];
        for (long long k = 0; k < acts; k++) {
            act[k] = v[11 + d * acts + k];
            alpha[k] = (float) floats.v[1 + d * acts + k];
            beta[k] = (float) floats.v[7 + d * acts + k];
        }
        const float* Wd = W + d * gh * input;
        const float* Rd = R + d * gh * H;
        const float* Bd = B ? B + d * 2 * gh : nullptr;
        const float* Pd = P ? P + d * 3 * H : nullptr;
        long long state = (batchFirst ? b * dirs + d : d * batch + b) * H;
        for (long long j = threadIdx.x; j < H; j += blockDim.x) {
            h[j] = h0 ? h0[state + j] : 0.0f;
            aux[j] = (cell == 2 && c0) ? c0[state + j] : 0.0f;
        }
        long long len = lens ? lens[b] : seq;
        if (len < 0 || len > seq) __trap();
        __syncthreads();
        for (long long s = 0; s < len; s++) {
            long long t = back ? len - 1 - s : s;
            const float* x = X + (batchFirst ? (b * seq + t) * input : (t * batch + b) * input);
            if (cell == 1) {
                for (long long j = threadIdx.x; j < H; j += blockDim.x) {
                    float z = recurrent_activate(act[0], alpha[0], beta[0], recurrent_clip(clip, bound, recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 0, j)));
                    float r = recurrent_activate(act[0], alpha[0], beta[0], recurrent_clip(clip, bound, recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 1, j)));
                    nx[j] = z;
                    aux[j] = lbr ? r : r * h[j];
                }
                __syncthreads();
                for (long long j = threadIdx.x; j < H; j += blockDim.x) {
                    long long row = 2 * H + j;
                    float a = recurrent_dot(x, Wd + row * input, input);
                    if (lbr) {
                        float rec = recurrent_dot(h, Rd + row * H, H);
                        if (Bd) rec = rec + Bd[gh + row];
                        a = a + aux[j] * rec;
                        if (Bd) a = a + Bd[row];
                    } else {
                        a = a + recurrent_dot(aux, Rd + row * H, H);
                        if (Bd) {
                            a = a + Bd[row];
                            a = a + Bd[gh + row];
                        }
                    }
                    float ht = recurrent_activate(act[1], alpha[1], beta[1], recurrent_clip(clip, bound, a));
                    float z = nx[j];
                    nx[j] = (1.0f - z) * ht + z * h[j];
                }
            } else if (cell == 2) {
                for (long long j = threadIdx.x; j < H; j += blockDim.x) {
                    float ai = recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 0, j);
                    float ao = recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 1, j);
                    float af = recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 2, j);
                    float ac = recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 3, j);
                    float c = aux[j];
                    if (Pd) {
                        ai = ai + Pd[j] * c;
                        af = af + Pd[2 * H + j] * c;
                    }
                    float gi = recurrent_activate(act[0], alpha[0], beta[0], recurrent_clip(clip, bound, ai));
                    float gf = inputForget ? 1.0f - gi : recurrent_activate(act[0], alpha[0], beta[0], recurrent_clip(clip, bound, af));
                    float gc = recurrent_activate(act[1], alpha[1], beta[1], recurrent_clip(clip, bound, ac));
                    float cn = gf * c + gi * gc;
                    if (Pd) ao = ao + Pd[H + j] * cn;
                    float go = recurrent_activate(act[0], alpha[0], beta[0], recurrent_clip(clip, bound, ao));
                    aux[j] = cn;
                    nx[j] = go * recurrent_activate(act[2], alpha[2], beta[2], cn);
                }
            } else {
                for (long long j = threadIdx.x; j < H; j += blockDim.x)
                    nx[j] = recurrent_activate(act[0], alpha[0], beta[0], recurrent_clip(clip, bound, recurrent_pre(x, Wd, Rd, h, Bd, input, H, gh, 0, j)));
            }
            __syncthreads();
            float* y = Y ? Y + (batchFirst ? (b * seq + t) * dirs + d : (t * dirs + d) * batch + b) * H : nullptr;
            for (long long j = threadIdx.x; j < H; j += blockDim.x) {
                h[j] = nx[j];
                if (y) y[j] = nx[j];
            }
            __syncthreads();
        }
        for (long long j = threadIdx.x; j < H; j += blockDim.x) {
            if (Yh) Yh[state + j] = h[j];
            if (Yc) Yc[state + j] = aux[j];
            for (long long t = len; Y && t < seq; t++) Y[(batchFirst ? (b * seq + t) * dirs + d : (t * dirs + d) * batch + b) * H + j] = 0.0f;
        }
        __syncthreads();
    }
}
