// normalize, batchnorm_running and nll_loss: the simulator's NormalizationKernels step for step
// (org.arenaplan.device.Kernels#NORMALIZE, #BATCHNORM_RUNNING, #NLL_LOSS): statistics in double, in index order.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"
#include "typed.cuh"

// ptrs: x, scale, bias, y, mean, invstd (the present ones, by the has* flags).
// ints: mode, hasScale, hasBias, hasMean, hasInvStd, K, R, keptShape[K], keptStride[K], scaleKeptStride[K],
//       biasKeptStride[K], redShape[R], redStride[R], scaleRedStride[R], biasRedStride[R]; floats: epsilon.
// T: the storage type of x, scale, bias and y (typed.cuh); normalize is float, normalize_f16 half_t
// (widened to f32, then as f32: statistics in double, y rounded to f32, then to f16), normalize_f64 double
// (the same double arithmetic, y stored in double); mean and invstd f32.
template <typename T>
__device__ __forceinline__ void normalize_body(const T* x, const T* scale, const T* bias, T* y, float* mean_out,
                                               float* invstd_out, const Ints& ints, const Floats& floats) {
    int mode = (int) ints.v[0];
    bool hasScale = ints.v[1] == 1, hasBias = ints.v[2] == 1, hasMean = ints.v[3] == 1, hasInvStd = ints.v[4] == 1;
    int K = (int) ints.v[5], R = (int) ints.v[6];
    const long long* ks = ints.v + 7;
    const long long* kst = ks + K;
    const long long* ksc = kst + K;
    const long long* kbi = ksc + K;
    const long long* rs = kbi + K;
    const long long* rst = rs + R;
    const long long* rsc = rst + R;
    const long long* rbi = rsc + R;
    double eps = floats.v[0];
    long long outN = element_count(ks, K), redN = element_count(rs, R);
    FOR_EACH_ITEM(o, outN) {
        long long base = strided_offset(o, K, ks, kst), sbase = strided_offset(o, K, ks, ksc), bbase = strided_offset(o, K, ks, kbi);
        double center = 0.0, factor = 1.0;
        if (mode == 0 || mode == 1) {
            double mean = 0.0;
            for (long long j = 0; j < redN; j++) mean += typed_load(x, base + strided_offset(j, R, rs, rst));
            mean /= (double) redN;
            double var = 0.0;
            for (long long j = 0; j < redN; j++) {
                double d = typed_load(x, base + strided_offset(j, R, rs, rst)) - mean;
                var += d * d;
            }
            var /= (double) redN;
            center = mean;
            factor = mode == 0 ? 1.0 / sqrt(var + eps) : 1.0 / (sqrt(var) + eps);
            if (hasMean) mean_out[o] = (float) mean;
            if (hasInvStd) invstd_out[o] = (float) factor;
        } else if (mode == 4) {
            double squares = 0.0;
            for (long long j = 0; j < redN; j++) {
                double v = typed_load(x, base + strided_offset(j, R, rs, rst));
                squares += v * v;
            }
            factor = 1.0 / sqrt(squares / (double) redN + eps);
        } else {
            double norm = 0.0;
            for (long long j = 0; j < redN; j++) {
                double v = typed_load(x, base + strided_offset(j, R, rs, rst));
                norm += mode == 2 ? fabs(v) : v * v;
            }
            factor = norm == 0.0 ? 0.0 : 1.0 / (mode == 2 ? norm : sqrt(norm));   // an all-zero group stays 0
        }
        for (long long j = 0; j < redN; j++) {
            long long at = base + strided_offset(j, R, rs, rst);
            double v = (typed_load(x, at) - center) * factor;
            if (hasScale) v = v * typed_load(scale, sbase + strided_offset(j, R, rs, rsc));
            if (hasBias) v = v + typed_load(bias, bbase + strided_offset(j, R, rs, rbi));
            typed_store(y, at, (typename compute_of<T>::type) v);   // f32 and f16: rounded to f32 first; f64 kept
        }
    }
}

extern "C" __global__ void normalize(const float* x, const float* scale, const float* bias, float* y, float* mean_out,
                                     float* invstd_out, Ints ints, Floats floats) {
    normalize_body(x, scale, bias, y, mean_out, invstd_out, ints, floats);
}

extern "C" __global__ void normalize_f16(const void* x, const void* scale, const void* bias, void* y, float* mean_out,
                                         float* invstd_out, Ints ints, Floats floats) {
    normalize_body((const half_t*) x, (const half_t*) scale, (const half_t*) bias, (half_t*) y, mean_out, invstd_out, ints, floats);
}

extern "C" __global__ void normalize_f64(const void* x, const void* scale, const void* bias, void* y, float* mean_out,
                                         float* invstd_out, Ints ints, Floats floats) {
    normalize_body((const double*) x, (const double*) scale, (const double*) bias, (double*) y, mean_out, invstd_out, ints, floats);
}

// The loss of sample (n, d) of nll_loss and its weight; writes its log-probabilities when asked.
__device__ __forceinline__ void nll_sample(const float* x, const void* target, const float* weight, float* logprob, const long long* p,
                                           long long n, long long d, double* loss, double* w) {
    bool softmax = p[0] == 1;
    long long C = p[2], D = p[3];
    bool hasIgnore = p[5] == 1, hasWeight = p[7] == 1, hasLogProb = p[8] == 1;
    long long ignore = p[6];
    int code = (int) p[9];
    const float* row = x + n * C * D + d;
    double max = -INFINITY, lse = 0.0;
    if (softmax) {
        for (long long c = 0; c < C; c++) {
            double v = row[c * D];
            if (v > max || v != v) max = v;
        }
        double sum = 0.0;
        for (long long c = 0; c < C; c++) sum += exp((double) row[c * D] - max);
        lse = log(sum);
        if (hasLogProb) for (long long c = 0; c < C; c++) logprob[n * C * D + c * D + d] = (float) ((double) row[c * D] - max - lse);
    }
    long long t = load_int(target, n * D + d, code);
    if (hasIgnore && t == ignore) { *loss = 0.0; *w = 0.0; return; }
    if (t < 0 || t >= C) __trap();
    float lp = softmax ? (float) ((double) row[t * D] - max - lse) : row[t * D];
    *w = hasWeight ? (double) weight[t] : 1.0;
    *loss = -(double) lp * *w;
}

// ptrs: x, target, weight, loss, logprob (the present ones, by hasWeight and hasLogProb).
// ints: softmax, N, C, D, reduction (0 none, 1 sum, 2 mean), hasIgnore, ignoreIndex, hasWeight, hasLogProb, targetDtype.
extern "C" __global__ void nll_loss(const float* x, const void* target, const float* weight, float* loss, float* logprob, Ints ints, Floats) {
    const long long* p = ints.v;
    long long N = p[1], D = p[3];
    int reduction = (int) p[4];
    if (reduction == 0) {
        FOR_EACH_ITEM(i, N * D) {
            double l, w;
            nll_sample(x, target, weight, logprob, p, i / D, i % D, &l, &w);
            loss[i] = (float) l;
        }
    } else {
        FOR_EACH_ITEM(i, 1) {
            double total = 0.0, weights = 0.0;
            for (long long n = 0; n < N; n++) {
                for (long long d = 0; d < D; d++) {
                    double l, w;
                    nll_sample(x, target, weight, logprob, p, n, d, &l, &w);
                    total += l;
                    weights += w;
                }
            }
            loss[0] = (float) (reduction == 2 ? total / weights : total);
        }
    }
}

// ptrs: x, mean, var, running_mean, running_var (absent: null); ints: N, C, spatial; floats: momentum.
// One thread per channel, two passes over its N x spatial values in index order (the mean, then the
// squared deviations): the simulator's batchnormRunning. Cost: C threads, 2 N spatial reads each.
extern "C" __global__ void batchnorm_running(const float* x, const float* mean, const float* var, float* running_mean,
                                             float* running_var, Ints ints, Floats floats) {
    long long N = ints.v[0], C = ints.v[1], S = ints.v[2];
    double momentum = floats.v[0], count = (double) N * (double) S;
    FOR_EACH_ITEM(c, C) {
        double m = 0.0;
        for (long long n = 0; n < N; n++) for (long long k = 0; k < S; k++) m += x[(n * C + c) * S + k];
        m /= count;
        double v = 0.0;
        for (long long n = 0; n < N; n++) {
            for (long long k = 0; k < S; k++) {
                double d = x[(n * C + c) * S + k] - m;
                v += d * d;
            }
        }
        v /= count;
        running_mean[c] = (float) (mean[c] * momentum + m * (1.0 - momentum));
        if (running_var != nullptr) running_var[c] = (float) (var[c] * momentum + v * (1.0 - momentum));
    }
}
