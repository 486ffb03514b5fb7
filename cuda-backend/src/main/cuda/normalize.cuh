// softmax, batchnorm, lrn: the simulator's formulas (SimKernels) in the same order and
// precision. Row reductions run in one thread per row, in index order, so their order is fixed
// (and in-place softmax is safe: a row is read before it is rewritten).
#pragma once
#include "common.cuh"
#include "typed.cuh"

// ints: outer, n, inner, mode (0 softmax, 1 log-softmax, 2 hardmax), (type, per); one thread per lane of n values
// with stride inner. A NaN wins the max. T: the storage type (typed.cuh); softmax is float,
// softmax_f16 half_t (computed in f32; the exponentials recomputed in the second pass instead of
// kept in y, so y is rounded once), softmax_f64 double (computed in f64, as WideKernels.softmax).
// extent (may be null): the runtime extent of x bounded along a normalised axis (per values of a lane to a step
// of it): only each lane's first m = actual_elements(extent, per, n) values are normalised, the others set to 0.
template <typename T>
__device__ __forceinline__ void softmax_body(const T* x, const long long* extent, T* y, const Ints& ints) {
    typedef typename compute_of<T>::type F;
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2];
    int mode = (int) ints.v[3];
    long long m = extent == nullptr ? n : actual_elements(*extent, ints.v[5], n);
    FOR_EACH_ITEM(lane, outer * inner) {
        long long base = (lane / inner) * n * inner + lane % inner;
        F max = -INFINITY;
        for (long long k = 0; k < m; k++) {
            F v = typed_load(x, base + k * inner);
            if (v > max || v != v) max = v;
        }
        if (mode == 2) {
            long long arg = 0;
            for (long long k = 1; k < m; k++) if (typed_load(x, base + k * inner) > typed_load(x, base + arg * inner)) arg = k;
            for (long long k = 0; k < m; k++) typed_store(y, base + k * inner, k == arg ? (F) 1.0f : (F) 0.0f);
        } else if (mode == 1) {
            double sum = 0.0;
            for (long long k = 0; k < m; k++) sum += exp((double) (typed_load(x, base + k * inner) - max));
            double lg = log(sum);
            for (long long k = 0; k < m; k++) typed_store(y, base + k * inner, (F) ((double) (typed_load(x, base + k * inner) - max) - lg));
        } else if (sizeof(T) == sizeof(F)) {   // f32, f64: y holds each exponential until the division
            F sum = 0.0f;
            for (long long k = 0; k < m; k++) {
                F e = (F) exp((double) (typed_load(x, base + k * inner) - max));
                typed_store(y, base + k * inner, e);
                sum = sum + e;
            }
            for (long long k = 0; k < m; k++) typed_store(y, base + k * inner, typed_load(y, base + k * inner) / sum);
        } else {
            F sum = 0.0f;
            for (long long k = 0; k < m; k++) sum = sum + (F) exp((double) (typed_load(x, base + k * inner) - max));
            for (long long k = 0; k < m; k++) typed_store(y, base + k * inner, (F) exp((double) (typed_load(x, base + k * inner) - max)) / sum);
        }
        for (long long k = m; k < n; k++) typed_store(y, base + k * inner, (F) 0.0f);
    }
}

extern "C" __global__ void softmax(const float* x, const long long* extent, float* y, Ints ints, Floats) { softmax_body(x, extent, y, ints); }
extern "C" __global__ void softmax_f16(const void* x, const long long* extent, void* y, Ints ints, Floats) { softmax_body((const half_t*) x, extent, (half_t*) y, ints); }
extern "C" __global__ void softmax_f64(const void* x, const long long* extent, void* y, Ints ints, Floats) { softmax_body((const double*) x, extent, (double*) y, ints); }

// ints: N, C, spatial; floats: epsilon. In double, as the simulator.
extern "C" __global__ void batchnorm(const float* x, const float* scale, const float* bias, const float* mean,
                                     const float* var, float* y, Ints ints, Floats floats) {
    long long N = ints.v[0], C = ints.v[1], S = ints.v[2];
    double eps = floats.v[0];
    FOR_EACH_ITEM(i, N * C * S) {
        long long c = (i / S) % C;
        double inv = 1.0 / sqrt(var[c] + eps);
        y[i] = (float) ((x[i] - (double) mean[c]) * inv * scale[c] + bias[c]);
    }
}

// ints: N, C, spatial, size; floats: alpha, beta, bias. In double, as the simulator.
extern "C" __global__ void lrn(const float* x, float* y, Ints ints, Floats floats) {
    long long N = ints.v[0], C = ints.v[1], S = ints.v[2], size = ints.v[3];
    double alpha = floats.v[0], beta = floats.v[1], bias = floats.v[2];
    long long before = (size - 1) / 2, after = size - 1 - before;
    FOR_EACH_ITEM(i, N * C * S) {
        long long s = i % S, c = (i / S) % C, n = i / (S * C);
        long long lo = c - before < 0 ? 0 : c - before;
        long long hi = c + after > C - 1 ? C - 1 : c + after;
        double sq = 0.0;
        for (long long k = lo; k <= hi; k++) {
            double v = x[(n * C + k) * S + s];
            sq += v * v;
        }
        y[i] = (float) (x[i] / pow(bias + alpha / size * sq, beta));
    }
}
