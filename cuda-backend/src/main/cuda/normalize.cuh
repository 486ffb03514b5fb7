// softmax, layernorm, batchnorm, lrn. Row reductions run in one thread per row, in index order,
// so their order is fixed (and in-place softmax is safe: a row is read before it is rewritten).
#pragma once
#include "common.cuh"

// ints: rows, cols.
extern "C" __global__ void softmax(const float* x, float* y, Ints ints, Floats) {
    long long rows = ints.v[0], cols = ints.v[1];
    FOR_EACH_ITEM(r, rows) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float max = xr[0];
        for (long long c = 1; c < cols; c++) max = xr[c] > max ? xr[c] : max;
        float sum = 0.0f;
        for (long long c = 0; c < cols; c++) {
            float e = (float) exp((double) (xr[c] - max));
            yr[c] = e;
            sum = sum + e;
        }
        for (long long c = 0; c < cols; c++) yr[c] = yr[c] / sum;
    }
}

// ints: rows, cols; floats: epsilon. Biased variance.
extern "C" __global__ void layernorm(const float* x, const float* scale, const float* bias, float* y, Ints ints, Floats floats) {
    long long rows = ints.v[0], cols = ints.v[1];
    float eps = (float) floats.v[0];
    FOR_EACH_ITEM(r, rows) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float sum = 0.0f;
        for (long long c = 0; c < cols; c++) sum = sum + xr[c];
        float mean = sum / (float) cols;
        float sq = 0.0f;
        for (long long c = 0; c < cols; c++) {
            float d = xr[c] - mean;
            sq = sq + d * d;
        }
        float inv = 1.0f / sqrtf(sq / (float) cols + eps);
        for (long long c = 0; c < cols; c++) yr[c] = (xr[c] - mean) * inv * scale[c] + bias[c];
    }
}

// ints: N, C, spatial; floats: epsilon.
extern "C" __global__ void batchnorm(const float* x, const float* scale, const float* bias, const float* mean,
                                     const float* var, float* y, Ints ints, Floats floats) {
    long long N = ints.v[0], C = ints.v[1], S = ints.v[2];
    float eps = (float) floats.v[0];
    FOR_EACH_ITEM(i, N * C * S) {
        long long c = (i / S) % C;
        y[i] = (x[i] - mean[c]) / sqrtf(var[c] + eps) * scale[c] + bias[c];
    }
}

// ints: N, C, spatial, size; floats: alpha, beta, bias.
extern "C" __global__ void lrn(const float* x, float* y, Ints ints, Floats floats) {
    long long N = ints.v[0], C = ints.v[1], S = ints.v[2], size = ints.v[3];
    float alpha = (float) floats.v[0], beta = (float) floats.v[1], bias = (float) floats.v[2];
    long long before = (size - 1) / 2, after = size - 1 - before;
    FOR_EACH_ITEM(i, N * C * S) {
        long long s = i % S, c = (i / S) % C, n = i / (S * C);
        long long lo = c - before < 0 ? 0 : c - before;
        long long hi = c + after > C - 1 ? C - 1 : c + after;
        float sq = 0.0f;
        for (long long k = lo; k <= hi; k++) {
            float v = x[(n * C + k) * S + s];
            sq = sq + v * v;
        }
        float base = bias + alpha / (float) size * sq;
        y[i] = x[i] / (float) pow((double) base, (double) beta);
    }
}
