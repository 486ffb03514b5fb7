// softmax, layernorm, batchnorm, lrn: the simulator's formulas (SimKernels) in the same order and
// precision. Row reductions run in one thread per row, in index order, so their order is fixed
// (and in-place softmax is safe: a row is read before it is rewritten).
#pragma once
#include "common.cuh"

// ints: rows, cols.
extern "C" __global__ void softmax(const float* x, float* y, Ints ints, Floats) {
    long long rows = ints.v[0], cols = ints.v[1];
    FOR_EACH_ITEM(r, rows) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float max = -INFINITY;
        for (long long c = 0; c < cols; c++) max = fmaxf(max, xr[c]);
        float sum = 0.0f;
        for (long long c = 0; c < cols; c++) {
            float e = (float) exp((double) (xr[c] - max));
            yr[c] = e;
            sum = sum + e;
        }
        for (long long c = 0; c < cols; c++) yr[c] = yr[c] / sum;
    }
}

// ints: rows, cols; floats: epsilon. Biased variance. Statistics and the result in double, as the simulator.
extern "C" __global__ void layernorm(const float* x, const float* scale, const float* bias, float* y, Ints ints, Floats floats) {
    long long rows = ints.v[0], cols = ints.v[1];
    double eps = floats.v[0];
    FOR_EACH_ITEM(r, rows) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        double mean = 0.0;
        for (long long c = 0; c < cols; c++) mean += xr[c];
        mean /= cols;
        double var = 0.0;
        for (long long c = 0; c < cols; c++) {
            double d = xr[c] - mean;
            var += d * d;
        }
        var /= cols;
        double inv = 1.0 / sqrt(var + eps);
        for (long long c = 0; c < cols; c++) yr[c] = (float) ((xr[c] - mean) * inv * scale[c] + bias[c]);
    }
}

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
