// dft: the simulator's SignalKernels.dft step for step (org.arenaplan.device.Kernels#DFT): one
// thread per output element, a direct sum in double with the angle from (k t) mod L, rounded once.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"
#include "reduce.cuh"

#define DFT_INVERSE 1
#define DFT_IRFFT 2

// ptrs: x, (window), y; ints: outer, n, inner, inC, L, bins, mode, frames, frameStep, frameLength, hasWindow, dtype.
extern "C" __global__ void dft(const void* x, const void* w, void* y, Ints ints, Floats) {
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2], inC = ints.v[3], L = ints.v[4], bins = ints.v[5];
    int mode = (int) ints.v[6];
    long long frames = ints.v[7], step = ints.v[8], frameLength = ints.v[9];
    bool windowed = ints.v[10] == 1;
    int code = (int) ints.v[11];
    int outC = mode == DFT_IRFFT ? 1 : 2;
    const double twoPi = 6.283185307179586;
    FOR_EACH_ITEM(e, outer * frames * bins * inner) {
        long long q = e % inner, k = (e / inner) % bins, f = (e / (inner * bins)) % frames, o = e / (inner * bins * frames);
        double re = 0.0, im = 0.0;
        if (mode == DFT_IRFFT) {
            long long top = n < L / 2 + 1 ? n : L / 2 + 1;
            for (long long j = 0; j < top; j++) {
                long long at = ((o * n + j) * inner + q) * inC;
                double xr = load_real(x, at, code), xi = inC == 2 ? load_real(x, at + 1, code) : 0.0;
                double theta = twoPi * (double) (j * k % L) / (double) L;
                double weight = (j == 0 || 2 * j == L) ? 1.0 : 2.0;
                re = re + weight * (xr * cos(theta) - xi * sin(theta));
            }
            re = re / (double) L;
        } else {
            double sign = mode == DFT_INVERSE ? 1.0 : -1.0;
            for (long long s = 0; s < L; s++) {
                long long sample = f * step + s;
                if (s >= frameLength || sample >= n) continue;
                long long at = ((o * n + sample) * inner + q) * inC;
                double wt = windowed ? load_real(w, s, code) : 1.0;
                double xr = wt * load_real(x, at, code), xi = inC == 2 ? wt * load_real(x, at + 1, code) : 0.0;
                double theta = twoPi * (double) (k * s % L) / (double) L;
                double c = cos(theta), sn = sign * sin(theta);
                re = re + (xr * c - xi * sn);
                im = im + (xi * c + xr * sn);
            }
            if (mode == DFT_INVERSE) {
                re = re / (double) L;
                im = im / (double) L;
            }
        }
        long long out = e * outC;
        store_real(y, out, code, re);
        if (outC == 2) store_real(y, out + 1, code, im);
    }
}

// ptrs: x, lens (int64), y; ints: d0, d1, inner, timeAxis, es, lensDtype (Kernels#REVERSE_SEQUENCE).
// One thread per element; a length outside [0, steps] traps.
extern "C" __global__ void reverse_sequence(const void* x, const long long* lens, void* y, Ints ints, Floats) {
    long long d0 = ints.v[0], d1 = ints.v[1], inner = ints.v[2];
    int time = (int) ints.v[3], es = (int) ints.v[4];
    long long steps = time == 0 ? d0 : d1;
    FOR_EACH_ITEM(e, d0 * d1 * inner) {
        long long q = e % inner, i1 = (e / inner) % d1, i0 = e / (inner * d1);
        long long t = time == 0 ? i0 : i1, b = time == 0 ? i1 : i0;
        long long len = lens[b];
        if (len < 0 || len > steps) __trap();
        long long src = t < len ? len - 1 - t : t;
        move_element(x, (time == 0 ? src * d1 + b : b * d1 + src) * inner + q, y, e, es);
    }
}

// ptrs: x (int64 or int32 tokens), y (f32); ints: rows, C, dtype, outSize, mode, maxSkip, hasWeights, G, then per
// n-gram: size, index, items...; floats: weights (Kernels#TFIDF). One thread per output element.
extern "C" __global__ void tfidf(const void* x, float* y, Ints ints, Floats floats) {
    long long rows = ints.v[0], cols = ints.v[1], outSize = ints.v[3], maxSkip = ints.v[5], grams = ints.v[7];
    int code = (int) ints.v[2], mode = (int) ints.v[4];
    bool weighted = ints.v[6] == 1;
    FOR_EACH_ITEM(e, rows * outSize) {
        long long o = e % outSize, r = e / outSize;
        long long count = 0;
        for (long long g = 0, at = 8; g < grams; g++, at += 2 + ints.v[at]) {
            long long size = ints.v[at];
            if (ints.v[at + 1] != o) continue;
            for (long long d = 1; d <= (size == 1 ? 1 : maxSkip + 1); d++)
                for (long long s = 0; s + (size - 1) * d < cols; s++) {
                    bool match = true;
                    for (long long j = 0; j < size && match; j++) match = load_int(x, r * cols + s + j * d, code) == ints.v[at + 2 + j];
                    if (match) count++;
                }
        }
        double w = weighted ? floats.v[o] : 1.0;
        double v = mode == 0 ? (double) count : mode == 1 ? (count > 0 ? w : 0.0) : w * (double) count;
        y[e] = (float) v;
    }
}
