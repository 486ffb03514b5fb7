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

// A floating element (f32, f16, bf16 widened exactly; f64 as is) and its store (rounded once, or as is in f64).
// Integer elements convert to double (uint64 unsigned), and back truncated toward zero (DType.toIntegral).
__device__ __forceinline__ double load_real(const void* p, long long i, int code) {
    if (is_integral(code)) return int_to_double(load_int(p, i, code), code);
    return code == DT_DOUBLE ? ((const double*) p)[i] : (double) load_float(p, i, code);
}

__device__ __forceinline__ void store_real(void* p, long long i, int code, double v) {
    if (is_integral(code)) store_int(p, i, code, to_integral(v, code));
    else if (code == DT_DOUBLE) ((double*) p)[i] = v;
    else store_float(p, i, code, (float) v);
}

// The empty value of an integer max and min (ReductionKernels.lowest, highest): the type's lowest and highest
// value, bool and int64 those of 64 bits, uint64 0 and all ones.
__device__ __forceinline__ long long int_lowest(int code) {
    switch (code) {
        case DT_INT8: return -128;
        case DT_INT16: return -32768;
        case DT_INT32: return -2147483648LL;
        case DT_UINT8: case DT_UINT16: case DT_UINT32: case DT_UINT64: return 0;
        default: return (long long) 0x8000000000000000ULL;
    }
}

__device__ __forceinline__ long long int_highest(int code) {
    switch (code) {
        case DT_INT8: return 127;
        case DT_INT16: return 32767;
        case DT_INT32: return 2147483647LL;
        case DT_UINT8: return 255;
        case DT_UINT16: return 65535;
        case DT_UINT32: return 4294967295LL;
        case DT_UINT64: return -1LL;
        default: return 0x7FFFFFFFFFFFFFFFLL;
    }
}

// 1, 0 or -1 as a wins over b in argmax (max) or argmin, ties with it or loses: the larger (smaller), a NaN over every
// number, tying with a NaN (the simulator's ReductionKernels.argOrder: numpy's first NaN).
__device__ __forceinline__ int arg_order(double a, double b, bool max) {
    bool an = a != a, bn = b != b;
    if (an || bn) return an == bn ? 0 : an ? 1 : -1;
    int c = a > b ? 1 : a < b ? -1 : 0;
    return max ? c : -c;
}

// ptrs: x, (extent), y; ints: op, dtype, selectLast, K, R, keptShape[K], keptStride[K], redShape[R], redStride[R],
// (per, spans). extent (may be null): the runtime extent of x, bounded and held compactly (per elements to a step
// of its bounded axis): only its first actual_elements(extent, per, numel) elements take part, a prefix of each
// output's walk (row-major, so increasing offsets); the mean divides by their count (0 over none). spans 1: the
// bounded axis is reduced, and argmax/argmin over no actual element trap (ReduceExtent; the simulator throws).
extern "C" __global__ void reduce(const void* x, const long long* extent, void* y, Ints ints, Floats) {
    int op = (int) ints.v[0], code = (int) ints.v[1];
    bool last = ints.v[2] == 1;
    int K = (int) ints.v[3], R = (int) ints.v[4];
    const long long* ks = ints.v + 5;
    const long long* kst = ks + K;
    const long long* rs = kst + K;
    const long long* rst = rs + R;
    long long outN = element_count(ks, K), redN = element_count(rs, R);
    long long actual = 0x7FFFFFFFFFFFFFFFLL;
    if (extent != nullptr) {
        actual = actual_elements(*extent, rst[R], outN * redN);
        if (actual == 0 && rst[R + 1] == 1 && (op == R_ARGMAX || op == R_ARGMIN)) __trap();
    }
    bool integral = is_integral(code);
    FOR_EACH_ITEM(o, outN) {
        long long base = strided_offset(o, K, ks, kst);
        long long n = redN;   // the reduced elements taken: all of them, or with extent a prefix of the walk
        if (extent != nullptr) {   // only then: an unbounded x pays no second walk
            n = 0;
            while (n < redN && base + strided_offset(n, R, rs, rst) < actual) n++;
        }
        if (op == R_ARGMAX || op == R_ARGMIN) {
            long long best = 0;
            for (long long j = 1; j < n; j++) {
                long long a = base + strided_offset(j, R, rs, rst), b = base + strided_offset(best, R, rs, rst);
                int cmp;
                if (integral) {
                    cmp = compare_int(load_int(x, a, code), load_int(x, b, code), code);
                    if (op == R_ARGMIN) cmp = -cmp;
                } else {
                    cmp = arg_order(load_real(x, a, code), load_real(x, b, code), op == R_ARGMAX);
                }
                if (cmp > 0 || (last && cmp == 0)) best = j;
            }
            ((long long*) y)[o] = best;
        } else if (integral && (op == R_SUM || op == R_MAX || op == R_MIN || op == R_PROD)) {
            long long acc = op == R_PROD ? 1 : op == R_MAX ? int_lowest(code) : op == R_MIN ? int_highest(code) : 0;
            for (long long j = 0; j < n; j++) {
                long long v = load_int(x, base + strided_offset(j, R, rs, rst), code);
                if (op == R_MAX) acc = compare_int(v, acc, code) > 0 ? v : acc;
                else if (op == R_MIN) acc = compare_int(v, acc, code) < 0 ? v : acc;
                else if (op == R_PROD) acc = (long long) ((unsigned long long) acc * (unsigned long long) v);
                else acc = (long long) ((unsigned long long) acc + (unsigned long long) v);
            }
            store_int(y, o, code, acc);
        } else {
            double acc = op == R_PROD ? 1.0 : op == R_MAX ? -INFINITY : op == R_MIN ? INFINITY : 0.0;
            double max = -INFINITY;
            bool done = false;
            if (op == R_LOG_SUM_EXP) {
                for (long long j = 0; j < n; j++) {
                    double v = load_real(x, base + strided_offset(j, R, rs, rst), code);
                    if (v > max || v != v) max = v;
                }
                if (max == INFINITY || max == -INFINITY || max != max) { acc = max; done = true; }
            }
            if (!done) {
                for (long long j = 0; j < n; j++) {
                    double v = load_real(x, base + strided_offset(j, R, rs, rst), code);
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
                if (op == R_MEAN) acc = n == 0 ? 0.0 : acc / (double) n;
                else if (op == R_L2) acc = sqrt(acc);
                else if (op == R_LOG_SUM) acc = log(acc);
                else if (op == R_LOG_SUM_EXP) acc = max + log(acc);
            }
            if (integral && (acc == INFINITY || acc == -INFINITY)) store_int(y, o, code, acc > 0 ? int_highest(code) : int_lowest(code));
            else store_real(y, o, code, acc);   // an infinity in an integer type: its highest or lowest (ReductionKernels.toIntegral)
        }
    }
}

// ints: outer, n, inner, exclusive, reverse, dtype, product: one thread per lane of n values (stride inner);
// a running sum, or product when product is 1; floats accumulate in double (each output rounded once),
// integers in 64 bits (wrapping).
__device__ __forceinline__ long long cum_int(long long a, long long v, bool product) {
    return (long long) (product ? (unsigned long long) a * (unsigned long long) v : (unsigned long long) a + (unsigned long long) v);
}

extern "C" __global__ void cumsum(const void* x, void* y, Ints ints, Floats) {
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2];
    bool exclusive = ints.v[3] == 1, reverse = ints.v[4] == 1, product = ints.v[6] == 1;
    int code = (int) ints.v[5];
    bool integral = is_integral(code);
    FOR_EACH_ITEM(lane, outer * inner) {
        long long base = (lane / inner) * n * inner + lane % inner;
        double acc = product ? 1.0 : 0.0;
        long long iacc = product ? 1 : 0;
        for (long long s = 0; s < n; s++) {
            long long at = base + (reverse ? n - 1 - s : s) * inner;
            if (integral) {
                long long v = load_int(x, at, code);
                if (!exclusive) iacc = cum_int(iacc, v, product);
                store_int(y, at, code, iacc);
                if (exclusive) iacc = cum_int(iacc, v, product);
            } else {
                double v = load_real(x, at, code);
                if (!exclusive) acc = product ? acc * v : acc + v;
                store_real(y, at, code, acc);
                if (exclusive) acc = product ? acc * v : acc + v;
            }
        }
    }
}

// Whether element i of the lane at base (stride inner) comes before element j in TopK's order: the larger (or,
// for smallest, smaller) value first, then the lower index; integers exactly (compare_int), a NaN larger than every
// number and equal to a NaN (numpy's order; the simulator's ReductionKernels.before).
__device__ __forceinline__ bool topk_before(const void* x, int code, long long base, long long inner, long long i, long long j, bool largest) {
    int cmp = 0;
    if (is_integral(code)) {
        cmp = compare_int(load_int(x, base + i * inner, code), load_int(x, base + j * inner, code), code);
    } else {
        float v = load_float(x, base + i * inner, code), w = load_float(x, base + j * inner, code);
        bool vn = v != v, wn = w != w;
        if (vn != wn) return largest == vn;
        if (v != w && !vn) return largest ? v > w : v < w;
    }
    if (cmp != 0) return largest ? cmp > 0 : cmp < 0;
    return i < j;
}

// ptrs: x, (extent), values, indices; ints: outer, n, inner, k, largest, dtype, es, (clamp). Per lane, the k first elements in
// TopK's order (sorted), each found as the first element after the previous one: O(n * k), no scratch memory.
// extent (may be null): the runtime extent of x bounded along the axis; only the first min(extent, n) values
// are ranked, and k above them traps (the simulator throws), but with clamp 1 the first min(k, them) are written
// (the outputs bounded by the extent; zero_tail clears the rest).
extern "C" __global__ void topk(const void* x, const long long* extent, void* values, long long* indices, Ints ints, Floats) {
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2], k = ints.v[3];
    bool largest = ints.v[4] == 1;
    int code = (int) ints.v[5], es = (int) ints.v[6];
    if (extent != nullptr) {
        n = *extent < 0 ? 0 : *extent < n ? *extent : n;
        if (k > n && ints.v[7] != 1) __trap();
    }
    long long ranked = k < n ? k : n;
    FOR_EACH_ITEM(lane, outer * inner) {
        long long o = lane / inner, q = lane % inner;
        long long base = o * n * inner + q;
        long long prev = -1;
        for (long long s = 0; s < ranked; s++) {
            long long best = -1;
            for (long long i = 0; i < n; i++) {
                if (prev >= 0 && !topk_before(x, code, base, inner, prev, i, largest)) continue;
                if (best < 0 || topk_before(x, code, base, inner, i, best, largest)) best = i;
            }
            long long out = (o * k + s) * inner + q;
            indices[out] = best;
            move_element(x, base + best * inner, values, out, es);
            prev = best;
        }
    }
}

// ptrs: a, (b), y; ints: operands, dtype, L, O, extents[L], aStride[L], bStride[L] (Kernels#EINSUM).
// One thread per output element; the summed letters walked row-major; in double from 0, rounded once.
extern "C" __global__ void einsum(const void* a, const void* b, void* y, Ints ints, Floats) {
    int ops = (int) ints.v[0], code = (int) ints.v[1], L = (int) ints.v[2], O = (int) ints.v[3];
    const long long* ext = ints.v + 4;
    const long long* sa = ext + L;
    const long long* sb = sa + L;
    long long outN = element_count(ext, O), sumN = element_count(ext + O, L - O);
    FOR_EACH_ITEM(o, outN) {
        long long baseA = strided_offset(o, O, ext, sa), baseB = strided_offset(o, O, ext, sb);
        double acc = 0.0;
        for (long long j = 0; j < sumN; j++) {
            double p = load_real(a, baseA + strided_offset(j, L - O, ext + O, sa + O), code);
            if (ops == 2) p = p * load_real(b, baseB + strided_offset(j, L - O, ext + O, sb + O), code);
            acc = acc + p;
        }
        store_real(y, o, code, acc);
    }
}
