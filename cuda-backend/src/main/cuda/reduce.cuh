// reduce: the simulator's ReductionKernels.reduce step for step (org.arenaplan.device.Kernels#REDUCE):
// one thread per output element, the reduced elements visited in row-major order of the reduced
// shape, floats accumulated in double and rounded once, integers in 64 bits (wrapping).
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

#define R_SUM 0
#define R_MEAN 1
#define R_MAX 2
#define R_MIN 3
#define R_PROD 4
#define R_L1 5
#define R_L2 6
#define R_LOG_SUM 7
#define R_LOG_SUM_EXP 8
#define R_SUM_SQUARE 9
#define R_ARGMAX 10
#define R_ARGMIN 11

// The offset from an output's base of reduced element j (row-major over redShape).
__device__ __forceinline__ long long reduced_offset(long long j, int R, const long long* shape, const long long* stride) {
    long long off = 0;
    for (int d = R - 1; d >= 0; d--) {
        off += (j % shape[d]) * stride[d];
        j /= shape[d];
    }
    return off;
}

// ints: op, dtype, selectLast, K, R, keptShape[K], keptStride[K], redShape[R], redStride[R].
extern "C" __global__ void reduce(const void* x, void* y, Ints ints, Floats) {
    int op = (int) ints.v[0], code = (int) ints.v[1];
    bool last = ints.v[2] == 1;
    int K = (int) ints.v[3], R = (int) ints.v[4];
    const long long* ks = ints.v + 5;
    const long long* kst = ks + K;
    const long long* rs = kst + K;
    const long long* rst = rs + R;
    long long outN = element_count(ks, K), redN = element_count(rs, R);
    bool integral = is_integral(code);
    FOR_EACH_ITEM(o, outN) {
        long long base = 0, rest = o;
        for (int d = K - 1; d >= 0; d--) {
            base += (rest % ks[d]) * kst[d];
            rest /= ks[d];
        }
        if (op == R_ARGMAX || op == R_ARGMIN) {
            long long best = 0;
            for (long long j = 1; j < redN; j++) {
                long long a = base + reduced_offset(j, R, rs, rst), b = base + reduced_offset(best, R, rs, rst);
                int cmp;
                bool unordered = false;
                if (integral) {
                    long long va = load_int(x, a, code), vb = load_int(x, b, code);
                    cmp = va > vb ? 1 : va < vb ? -1 : 0;
                } else {
                    float va = load_float(x, a, code), vb = load_float(x, b, code);
                    cmp = va > vb ? 1 : va < vb ? -1 : 0;
                    unordered = va != va || vb != vb;
                }
                if (op == R_ARGMIN) cmp = -cmp;
                if (cmp > 0 || (last && cmp == 0 && !unordered)) best = j;
            }
            ((long long*) y)[o] = best;
        } else if (integral) {
            long long acc = op == R_PROD ? 1 : op == R_MAX ? (long long) 0x8000000000000000ULL : op == R_MIN ? 0x7FFFFFFFFFFFFFFFLL : 0;
            for (long long j = 0; j < redN; j++) {
                long long v = load_int(x, base + reduced_offset(j, R, rs, rst), code);
                if (op == R_MAX) acc = v > acc ? v : acc;
                else if (op == R_MIN) acc = v < acc ? v : acc;
                else if (op == R_PROD) acc = (long long) ((unsigned long long) acc * (unsigned long long) v);
                else acc = (long long) ((unsigned long long) acc + (unsigned long long) v);
            }
            store_int(y, o, code, acc);
        } else {
            double acc = op == R_PROD ? 1.0 : op == R_MAX ? -INFINITY : op == R_MIN ? INFINITY : 0.0;
            double max = -INFINITY;
            bool done = false;
            if (op == R_LOG_SUM_EXP) {
                for (long long j = 0; j < redN; j++) {
                    double v = load_float(x, base + reduced_offset(j, R, rs, rst), code);
                    if (v > max || v != v) max = v;
                }
                if (max == INFINITY || max == -INFINITY || max != max) { acc = max; done = true; }
            }
            if (!done) {
                for (long long j = 0; j < redN; j++) {
                    double v = load_float(x, base + reduced_offset(j, R, rs, rst), code);
                    switch (op) {
                        case R_MAX: if (v > acc || v != v) acc = v; break;
                        case R_MIN: if (v < acc || v != v) acc = v; break;
                        case R_PROD: acc = acc * v; break;
                        case R_L1: acc = acc + fabs(v); break;
                        case R_L2: case R_SUM_SQUARE: acc = acc + v * v; break;
                        case R_LOG_SUM_EXP: acc = acc + exp(v - max); break;
                        default: acc = acc + v; break;
                    }
                }
                if (op == R_MEAN) acc = acc / (double) redN;
                else if (op == R_L2) acc = sqrt(acc);
                else if (op == R_LOG_SUM) acc = log(acc);
                else if (op == R_LOG_SUM_EXP) acc = max + log(acc);
            }
            store_float(y, o, code, (float) acc);
        }
    }
}
