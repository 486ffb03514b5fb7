// Kernels of data-dependent outputs (ir.OpSpec.BoundedRule): nonzero, compress, unique, non_max_suppression. Argument layouts:
// org.arenaplan.device.Kernels; the simulator's twins are org.arenaplan.sim.DataDependentKernels.
// Each writes the actual count into its extent (int64 [1]) and the actual row-major tensor into the
// leading elements of its upper-bound output, zeros after. Serial (one thread), so the order is the
// simulator's and no scan is needed; exact (indices and moved elements).
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// Whether element i of x (ONNX code) is not zero: integers and bool by value, f64 as a double,
// f32/f16/bf16 widened to f32 (a NaN is not zero, -0.0 is).
__device__ __forceinline__ bool element_nonzero(const void* x, long long i, int code) {
    if (is_integral(code)) return load_int(x, i, code) != 0;
    if (code == DT_DOUBLE) return ((const double*) x)[i] != 0.0;
    return load_float(x, i, code) != 0.0f;
}

// ints: n, rank, shape[rank], dtype.
extern "C" __global__ void nonzero(const void* x, long long* extent, long long* y, Ints ints, Floats) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    long long n = ints.v[0];
    int rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[rank];
    long long count = 0;
    for (long long k = 0; k < n; k++) count += element_nonzero(x, k, code);
    long long j = 0;
    for (long long k = 0; k < n; k++) {
        if (!element_nonzero(x, k, code)) continue;
        long long rest = k;
        for (int d = rank - 1; d >= 0; d--) {
            y[d * count + j] = rest % shape[d];
            rest /= shape[d];
        }
        j++;
    }
    for (long long k = rank * count; k < rank * n; k++) y[k] = 0;
    extent[0] = count;
}

// ints: outer, n, inner, m, es.
extern "C" __global__ void compress(const void* x, const unsigned char* condition, long long* extent, void* y, Ints ints, Floats) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2], m = ints.v[3];
    int es = (int) ints.v[4];
    long long count = 0;
    for (long long s = 0; s < m; s++) count += condition[s] != 0;
    long long j = 0;
    for (long long s = 0; s < m; s++) {
        if (condition[s] == 0) continue;
        for (long long o = 0; o < outer; o++)
            for (long long i = 0; i < inner; i++) move_element(x, (o * n + s) * inner + i, y, (o * count + j) * inner + i, es);
        j++;
    }
    for (long long b = outer * count * inner * es; b < outer * m * inner * es; b++) ((unsigned char*) y)[b] = 0;
    extent[0] = count;
}

// Elements ia and ib of x (ONNX code) compared: integers by value (uint64 unsigned), floats by
// value with -0.0 equal to 0.0 and a NaN equal to a NaN and above every number. -1, 0 or 1.
__device__ __forceinline__ int compare_elements(const void* x, long long ia, long long ib, int code) {
    if (is_integral(code)) return compare_int(load_int(x, ia, code), load_int(x, ib, code), code);
    double a = code == DT_DOUBLE ? ((const double*) x)[ia] : (double) load_float(x, ia, code);
    double b = code == DT_DOUBLE ? ((const double*) x)[ib] : (double) load_float(x, ib, code);
    bool na = a != a, nb = b != b;
    if (na || nb) return na == nb ? 0 : na ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
}

// Slices a and b of x [outer, n, inner], element by element in row-major order of (o, i).
__device__ int compare_slices(const void* x, long long outer, long long n, long long inner, long long a, long long b, int code) {
    for (long long o = 0; o < outer; o++)
        for (long long i = 0; i < inner; i++) {
            int r = compare_elements(x, (o * n + a) * inner + i, (o * n + b) * inner + i, code);
            if (r != 0) return r;
        }
    return 0;
}

// ints: outer, n, inner, sorted, dtype, es. O(n * c) slice comparisons (c distinct slices), no
// scratch memory: inverse_indices first holds each slice's first occurrence, counts each first
// occurrence's index in Y, then both get their final values (the simulator's passes, in order).
extern "C" __global__ void unique(const void* x, long long* extent, void* y, long long* indices, long long* inverse, long long* counts, Ints ints, Floats) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2];
    int sorted = (int) ints.v[3], code = (int) ints.v[4], es = (int) ints.v[5];
    long long count = 0;
    for (long long s = 0; s < n; s++) {   // inverse[s]: the first slice equal to s (s itself for a first occurrence)
        long long f = s;
        for (long long r = 0; r < s && f == s; r++) if (inverse[r] == r && compare_slices(x, outer, n, inner, r, s, code) == 0) f = r;
        inverse[s] = f;
        count += f == s;
    }
    for (long long s = 0; s < n; s++) {   // counts[s]: first occurrence s's index in Y
        if (inverse[s] != s) continue;
        long long p = 0;
        for (long long r = 0; r < n; r++)
            if (inverse[r] == r && (sorted ? compare_slices(x, outer, n, inner, r, s, code) < 0 : r < s)) p++;
        counts[s] = p;
    }
    for (long long s = 0; s < n; s++) inverse[s] = counts[inverse[s]];
    for (long long j = 0; j < n; j++) { indices[j] = 0; counts[j] = 0; }
    for (long long s = 0; s < n; s++) {   // in order of s, so indices[j] is the first occurrence
        long long j = inverse[s];
        if (counts[j] == 0) indices[j] = s;
        counts[j]++;
    }
    for (long long j = 0; j < count; j++)
        for (long long o = 0; o < outer; o++)
            for (long long i = 0; i < inner; i++) move_element(x, (o * n + indices[j]) * inner + i, y, (o * count + j) * inner + i, es);
    for (long long b = outer * count * inner * es; b < outer * n * inner * es; b++) ((unsigned char*) y)[b] = 0;
    extent[0] = count;
}

// Python's min(a, b), max(a, b) and the reference's max_min, whose NaN and signed-zero choices they keep.
__device__ __forceinline__ float py_min(float a, float b) { return b < a ? b : a; }
__device__ __forceinline__ float py_max(float a, float b) { return b > a ? b : a; }
__device__ __forceinline__ float lower(float lhs, float rhs) { return lhs >= rhs ? rhs : lhs; }
__device__ __forceinline__ float upper(float lhs, float rhs) { return lhs >= rhs ? lhs : rhs; }

// Whether candidate box p overlaps kept box q with an IoU above threshold: f32 step for step as
// onnx's reference suppress_by_iou (DataDependentKernels.suppressed).
__device__ bool nms_suppressed(const float* box, long long p, long long q, int center, float threshold) {
    float x1Min, x1Max, x2Min, x2Max, y1Min, y1Max, y2Min, y2Max;
    if (center == 0) {
        x1Min = lower(box[p + 1], box[p + 3]); x1Max = upper(box[p + 1], box[p + 3]);
        x2Min = lower(box[q + 1], box[q + 3]); x2Max = upper(box[q + 1], box[q + 3]);
        y1Min = lower(box[p], box[p + 2]); y1Max = upper(box[p], box[p + 2]);
        y2Min = lower(box[q], box[q + 2]); y2Max = upper(box[q], box[q + 2]);
    } else {
        float w1 = box[p + 2] / 2, h1 = box[p + 3] / 2, w2 = box[q + 2] / 2, h2 = box[q + 3] / 2;
        x1Min = box[p] - w1; x1Max = box[p] + w1; x2Min = box[q] - w2; x2Max = box[q] + w2;
        y1Min = box[p + 1] - h1; y1Max = box[p + 1] + h1; y2Min = box[q + 1] - h2; y2Max = box[q + 1] + h2;
    }
    float ixMin = py_max(x1Min, x2Min), ixMax = py_min(x1Max, x2Max);
    if (ixMax <= ixMin) return false;
    float iyMin = py_max(y1Min, y2Min), iyMax = py_min(y1Max, y2Max);
    if (iyMax <= iyMin) return false;
    float inter = (ixMax - ixMin) * (iyMax - iyMin);
    if (inter <= 0) return false;
    float area1 = (x1Max - x1Min) * (y1Max - y1Min), area2 = (x2Max - x2Min) * (y2Max - y2Min);
    float uni = area1 + area2 - inter;
    if (area1 <= 0 || area2 <= 0 || uni <= 0) return false;
    return inter / uni > threshold;
}

// ints: B, N, C, center_point_box, hasScoreThreshold, perClass.
extern "C" __global__ void non_max_suppression(const float* boxes, const float* scores, const long long* max_output, const float* iou_threshold,
                                               const float* score_threshold, long long* extent, long long* y, Ints ints, Floats) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    long long batches = ints.v[0], n = ints.v[1], classes = ints.v[2], per = ints.v[5];
    int center = (int) ints.v[3], has_score = (int) ints.v[4];
    long long limit = max_output[0] < 0 ? 0 : max_output[0] < n ? max_output[0] : n;
    if (limit > per) __trap();   // above what the plan reserved: the simulator throws
    float iou = iou_threshold[0], threshold = score_threshold[0];
    long long count = 0;
    for (long long b = 0; b < batches; b++) {
        for (long long c = 0; c < classes; c++) {
            long long start = count, prev = -1, at = (b * classes + c) * n;
            while (count - start < limit) {
                long long best = -1;
                for (long long k = 0; k < n; k++) {
                    float s = scores[at + k];
                    if (has_score == 1 && !(s > threshold)) continue;
                    if (prev >= 0 && !(s < scores[at + prev] || (s == scores[at + prev] && k > prev))) continue;
                    if (best < 0 || s > scores[at + best] || (s == scores[at + best] && k < best)) best = k;
                }
                if (best < 0) break;
                prev = best;
                bool keep = true;
                for (long long r = start; r < count && keep; r++) keep = !nms_suppressed(boxes, (b * n + best) * 4, (b * n + y[3 * r + 2]) * 4, center, iou);
                if (keep) {
                    y[3 * count] = b;
                    y[3 * count + 1] = c;
                    y[3 * count + 2] = best;
                    count++;
                }
            }
        }
    }
    for (long long k = 3 * count; k < 3 * batches * classes * per; k++) y[k] = 0;
    extent[0] = count;
}
