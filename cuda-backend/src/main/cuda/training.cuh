// The training kernels (org.arenaplan.device.Kernels#TRAINING): the simulator's TrainingKernels
// step for step, f32 sums in the same order, so the results are the simulator's bits (gelu_grad's
// exp and erf in double may differ from Java's by an ulp of a double, so within 1 ulp of f32).
// One thread per output element or per row: every sum is one thread's loop, never split.
#pragma once
#include "common.cuh"
#include "elementwise_math.cuh"

// ptrs: dy, x, dx; ints: n. dx = dy * (Phi(x) + x * phi(x)) in double, rounded once (in place allowed: dx = dy).
extern "C" __global__ void gelu_grad(const float* dy, const float* x, float* dx, Ints ints, Floats) {
    FOR_EACH_ITEM(i, ints.v[0]) {
        double v = x[i];
        double cdf = 0.5 * (1.0 + erf_as(v / sqrt(2.0)));
        double pdf = exp(-0.5 * v * v) / sqrt(2 * 3.141592653589793);
        dx[i] = (float) ((double) dy[i] * (cdf + v * pdf));
    }
}

// ptrs: dy, y, dx; ints: rows, cols. One thread per row: dot = sum(dy * y) in f32, column order; then
// dx = y * (dy - dot). The row is read whole before it is written, so dx = dy (in place) is safe.
extern "C" __global__ void softmax_grad(const float* dy, const float* y, float* dx, Ints ints, Floats) {
    long long cols = ints.v[1];
    FOR_EACH_ITEM(r, ints.v[0]) {
        long long o = r * cols;
        float dot = 0.0f;
        for (long long k = 0; k < cols; k++) dot = dot + dy[o + k] * y[o + k];
        for (long long k = 0; k < cols; k++) dx[o + k] = y[o + k] * (dy[o + k] - dot);
    }
}

// ptrs: dy, x, scale, dx; ints: rows, cols; floats: epsilon. One thread per row, in f32 as the simulator:
// mean, biased variance (two passes), inv = 1 / sqrt(var + eps) in double rounded to f32; xhat and
// g = dy * scale, their means; dx = (g - mean(g) - xhat * mean(g xhat)) * inv. xhat and g are
// recomputed in the last pass (the same operations on the same values, so the same bits).
extern "C" __global__ void layernorm_grad(const float* dy, const float* x, const float* scale, float* dx, Ints ints, Floats floats) {
    long long cols = ints.v[1];
    double eps = floats.v[0];
    float n = (float) cols;
    FOR_EACH_ITEM(r, ints.v[0]) {
        long long o = r * cols;
        float mean = 0.0f;
        for (long long k = 0; k < cols; k++) mean = mean + x[o + k];
        mean = mean / n;
        float var = 0.0f;
        for (long long k = 0; k < cols; k++) {
            float d = x[o + k] - mean;
            var = var + d * d;
        }
        var = var / n;
        float inv = (float) (1.0 / sqrt((double) var + eps));
        float meanG = 0.0f, meanGx = 0.0f;
        for (long long k = 0; k < cols; k++) {
            float xhat = (x[o + k] - mean) * inv, g = dy[o + k] * scale[k];
            meanG = meanG + g;
            meanGx = meanGx + g * xhat;
        }
        meanG = meanG / n;
        meanGx = meanGx / n;
        for (long long k = 0; k < cols; k++) {
            float xhat = (x[o + k] - mean) * inv, g = dy[o + k] * scale[k];
            dx[o + k] = (g - meanG - xhat * meanGx) * inv;
        }
    }
}

// The forward conv2d geometry both gradients take (ints 0..15 of conv2d; group must be 1:
// CudaKernelTable refuses another before launch, the kernel traps).
struct ConvGrad {
    long long N, C, H, W, M, OH, OW, KH, KW, sh, sw, pt, pl, dh, dw;
    __device__ explicit ConvGrad(const Ints& i)
        : N(i.v[0]), C(i.v[1]), H(i.v[2]), W(i.v[3]), M(i.v[4]), OH(i.v[5]), OW(i.v[6]), KH(i.v[7]), KW(i.v[8]),
          sh(i.v[9]), sw(i.v[10]), pt(i.v[11]), pl(i.v[12]), dh(i.v[13]), dw(i.v[14]) {
        if (i.v[15] != 1) __trap();
    }
};

// ptrs: dy, w, dx. One thread per dx element (n, c, ih, iw): the sum over m, then kh, then kw of
// dy[n, m, oh, ow] * w[m, c, kh, kw] for the one (oh, ow) each tap maps to ih, iw (when it exists),
// in f32 from 0: the order in which the simulator's scatter adds into that element.
extern "C" __global__ void conv2d_backward_data(const float* dy, const float* w, float* dx, Ints ints, Floats) {
    const ConvGrad g(ints);
    FOR_EACH_ITEM(i, g.N * g.C * g.H * g.W) {
        long long iw = i % g.W, ih = (i / g.W) % g.H, c = (i / (g.W * g.H)) % g.C, n = i / (g.W * g.H * g.C);
        float acc = 0.0f;
        for (long long m = 0; m < g.M; m++) {
            for (long long kh = 0; kh < g.KH; kh++) {
                long long th = ih + g.pt - kh * g.dh;
                if (th < 0 || th % g.sh != 0 || th / g.sh >= g.OH) continue;
                const float* dyRow = dy + ((n * g.M + m) * g.OH + th / g.sh) * g.OW;
                const float* wRow = w + ((m * g.C + c) * g.KH + kh) * g.KW;
                for (long long kw = 0; kw < g.KW; kw++) {
                    long long tw = iw + g.pl - kw * g.dw;
                    if (tw < 0 || tw % g.sw != 0 || tw / g.sw >= g.OW) continue;
                    acc = acc + dyRow[tw / g.sw] * wRow[kw];
                }
            }
        }
        dx[i] = acc;
    }
}

// ptrs: x, dy, dw. One thread per dw element (m, c, kh, kw): the sum over n, then oh, then ow of
// dy[n, m, oh, ow] * x[n, c, ih, iw] where the tap lies inside x, in f32 from 0 (the simulator's order).
extern "C" __global__ void conv2d_backward_filter(const float* x, const float* dy, float* dw, Ints ints, Floats) {
    const ConvGrad g(ints);
    FOR_EACH_ITEM(i, g.M * g.C * g.KH * g.KW) {
        long long kw = i % g.KW, kh = (i / g.KW) % g.KH, c = (i / (g.KW * g.KH)) % g.C, m = i / (g.KW * g.KH * g.C);
        float acc = 0.0f;
        for (long long n = 0; n < g.N; n++) {
            for (long long oh = 0; oh < g.OH; oh++) {
                long long ih = oh * g.sh - g.pt + kh * g.dh;
                if (ih < 0 || ih >= g.H) continue;
                const float* dyRow = dy + ((n * g.M + m) * g.OH + oh) * g.OW;
                const float* xRow = x + ((n * g.C + c) * g.H + ih) * g.W;
                for (long long ow = 0; ow < g.OW; ow++) {
                    long long iw = ow * g.sw - g.pl + kw * g.dw;
                    if (iw < 0 || iw >= g.W) continue;
                    acc = acc + dyRow[ow] * xRow[iw];
                }
            }
        }
        dw[i] = acc;
    }
}

// ptrs: r, t, x, g, s1, (s2), x_new, s1_new, (s2_new); ints: n, mode (0 adagrad, 1 adam: s2 and s2_new
// present, 2 momentum, 3 nesterov); floats: norm_coefficient, alpha, beta, epsilon, decay_factor,
// norm_coefficient_post. The ONNX ai.onnx.preview.training optimizers (org.arenaplan.device.Kernels#OPTIMIZER),
// TrainingKernels.optimizer step for step: one thread per element, in double, each output rounded once to
// f32. A thread reads element i of every input before it writes element i of the outputs, and no other
// element, so an output may be its own input (in place).
extern "C" __global__ void optimizer(const float* rp, const long long* tp, const float* x, const float* g, const float* s1,
                                     const float* s2, float* x_new, float* s1_new, float* s2_new, Ints ints, Floats floats) {
    long long mode = ints.v[1];
    double norm = floats.v[0], alpha = floats.v[1], beta = floats.v[2], eps = floats.v[3], decay = floats.v[4], post = floats.v[5];
    double r = rp[0];
    long long t = tp[0];
    FOR_EACH_ITEM(i, ints.v[0]) {
        double xv = x[i], gr = norm * xv + (double) g[i], a = s1[i];
        if (mode == 0) {
            double h = a + gr * gr;
            s1_new[i] = (float) h;
            x_new[i] = (float) (xv - r / (1 + (double) t * decay) * gr / (sqrt(h) + eps));
        } else if (mode == 1) {
            double b = s2[i];
            double v = alpha * a + (1 - alpha) * gr, h = beta * b + (1 - beta) * gr * gr;
            double rt = t > 0 ? r * sqrt(1 - pow(beta, (double) t)) / (1 - pow(alpha, (double) t)) : r;
            s1_new[i] = (float) v;
            s2_new[i] = (float) h;
            x_new[i] = (float) ((1 - post) * (xv - rt * (v / (sqrt(h) + eps))));
        } else {
            double v = alpha * a + (t > 0 ? beta : 1.0) * gr;
            s1_new[i] = (float) v;
            x_new[i] = (float) (mode == 2 ? xv - r * v : xv - r * (gr + alpha * v));
        }
    }
}
