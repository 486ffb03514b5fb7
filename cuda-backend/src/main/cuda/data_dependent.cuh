// Kernels of data-dependent outputs (ir.OpSpec.BoundedRule): nonzero, compress, unique, non_max_suppression. Argument layouts:
// org.arenaplan.device.Kernels; the simulator's twins are org.arenaplan.sim.DataDependentKernels.
// Each writes the actual count into its extent (int64 [1]) and the actual row-major tensor into the
// leading elements of its upper-bound output, zeros after; exact (indices and moved elements), so
// the outputs are the simulator's bit for bit. Each runs in ONE block (CudaKernelTable launches
// DATA_DEPENDENT_THREADS threads; any block of up to DD_MAX_THREADS threads gives the same bits;
// blocks past the first return): a running count across blocks would need a zeroed word or a
// second launch, and the arena gives neither. Inside the block: contiguous chunks per thread, a
// block-wide exclusive scan in shared memory, bitonic sorts (nvidia "CUDA C++ Programming Guide",
// __syncthreads: global and shared writes before a barrier are visible to the block after it).
#pragma once
#include "common.cuh"
#include "dtypes.cuh"

// The most threads of a block (CUDA's limit): the size of the per-thread shared arrays.
#define DD_MAX_THREADS 1024

// Thread threadIdx.x's contiguous chunk [lo, hi) of n items: ceil(n / blockDim.x) each, in thread order.
__device__ __forceinline__ void thread_chunk(long long n, long long* lo, long long* hi) {
    long long c = (n + blockDim.x - 1) / blockDim.x, l = threadIdx.x * c;
    *lo = l < n ? l : n;
    *hi = l + c < n ? l + c : n;
}

// The sum of v over the threads before this one (Hillis-Steele in shared memory: 2 log2(blockDim.x)
// barriers); *total: the sum over the block. Every thread of the block calls it; it begins with a
// barrier, so the caller's earlier reads of shared memory are done before it returns.
__device__ long long block_exclusive_scan(long long v, long long* total) {
    __shared__ long long s[DD_MAX_THREADS];
    int t = threadIdx.x, T = blockDim.x;
    __syncthreads();
    s[t] = v;
    __syncthreads();
    for (int off = 1; off < T; off <<= 1) {
        long long a = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += a;
        __syncthreads();
    }
    *total = s[T - 1];
    return s[t] - v;
}

// Sorts positions [0, n) by the block: compare_swap(i, p), i < p, puts the earlier of the two
// elements at i. Batcher's bitonic network in the form whose first step of each merge compares
// mirrored positions, so that every comparator orders ascending; padded to P, the next power of
// two, the positions from n would hold elements after all others, which no comparator moves, so
// theirs are skipped. log2(P) (log2(P) + 1) / 2 steps of P / 2 comparators, a barrier after each.
template <typename CompareSwap> __device__ void bitonic_sort(long long n, CompareSwap compare_swap) {
    long long P = 1;
    while (P < n) P <<= 1;
    __syncthreads();
    for (long long k = 2; k <= P; k <<= 1)
        for (long long j = k >> 1; j > 0; j >>= 1) {
            for (long long c = threadIdx.x; c < P / 2; c += blockDim.x) {
                long long i = c / j * 2 * j + c % j, p = j == k >> 1 ? i ^ (k - 1) : i + j;
                if (p < n) compare_swap(i, p);
            }
            __syncthreads();
        }
}

// Whether element i of x (ONNX code) is not zero: integers and bool by value, f64 as a double,
// f32/f16/bf16 widened to f32 (a NaN is not zero, -0.0 is).
__device__ __forceinline__ bool element_nonzero(const void* x, long long i, int code) {
    if (is_integral(code)) return load_int(x, i, code) != 0;
    if (code == DT_DOUBLE) return ((const double*) x)[i] != 0.0;
    return load_float(x, i, code) != 0.0f;
}

// ints: n, rank, shape[rank], dtype. Each thread counts the non-zeros of its chunk, a scan gives
// its first output column, then it writes its chunk's indices in order; the tail zeroed by all.
// O(n / T) element reads per thread (T threads) and 2 log2 T barriers.
extern "C" __global__ void __launch_bounds__(DD_MAX_THREADS) nonzero(const void* x, long long* extent, long long* y, Ints ints, Floats) {
    if (blockIdx.x != 0) return;
    long long n = ints.v[0];
    int rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[rank];
    long long lo, hi, mine = 0, count;
    thread_chunk(n, &lo, &hi);
    for (long long k = lo; k < hi; k++) mine += element_nonzero(x, k, code);
    long long j = block_exclusive_scan(mine, &count);
    for (long long k = lo; k < hi; k++) {
        if (!element_nonzero(x, k, code)) continue;
        long long rest = k;
        for (int d = rank - 1; d >= 0; d--) {
            y[d * count + j] = rest % shape[d];
            rest /= shape[d];
        }
        j++;
    }
    for (long long k = rank * count + threadIdx.x; k < rank * n; k += blockDim.x) y[k] = 0;
    if (threadIdx.x == 0) extent[0] = count;
}

// ints: outer, n, inner, m, es. Each thread counts the true conditions of its chunk of the m, a
// scan numbers the selected slices; up to T selected (T threads), their indices go to shared memory
// and every thread moves a strided share of the output elements (a few long slices stay parallel);
// more, and each thread moves its chunk's slices. O(outer * m * inner / T + outer * inner) element
// moves per thread at most, 2 log2 T + 1 barriers; the tail zeroed by all.
extern "C" __global__ void __launch_bounds__(DD_MAX_THREADS) compress(const void* x, const unsigned char* condition, long long* extent, void* y, Ints ints, Floats) {
    __shared__ long long selected[DD_MAX_THREADS];
    if (blockIdx.x != 0) return;
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2], m = ints.v[3];
    int es = (int) ints.v[4], t = threadIdx.x, T = blockDim.x;
    long long lo, hi, mine = 0, count;
    thread_chunk(m, &lo, &hi);
    for (long long s = lo; s < hi; s++) mine += condition[s] != 0;
    long long j = block_exclusive_scan(mine, &count);
    if (count <= T) {
        for (long long s = lo; s < hi; s++) if (condition[s] != 0) selected[j++] = s;
        __syncthreads();
        long long row = count * inner;
        for (long long e = t; e < outer * row; e += T) {
            long long o = e / row, r = e % row;
            move_element(x, (o * n + selected[r / inner]) * inner + r % inner, y, e, es);
        }
    } else {
        for (long long s = lo; s < hi; s++) {
            if (condition[s] == 0) continue;
            for (long long o = 0; o < outer; o++)
                for (long long i = 0; i < inner; i++) move_element(x, (o * n + s) * inner + i, y, (o * count + j) * inner + i, es);
            j++;
        }
    }
    for (long long b = outer * count * inner * es + t; b < outer * m * inner * es; b += T) ((unsigned char*) y)[b] = 0;
    if (t == 0) extent[0] = count;
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

// Whether slice a of x comes before slice b: lexicographically (compare_slices), equal ones by index.
__device__ __forceinline__ bool slice_before(const void* x, long long outer, long long n, long long inner, long long a, long long b, int code) {
    int r = compare_slices(x, outer, n, inner, a, b, code);
    return r < 0 || (r == 0 && a < b);
}

// The first position in a[0, count) (ascending) holding v or more.
__device__ __forceinline__ long long first_not_below(const long long* a, long long count, long long v) {
    long long lo = 0, hi = count;
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        if (a[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo;
}

// ints: outer, n, inner, sorted, dtype, es. The simulator's algorithm, with the outputs as scratch:
// counts holds the slices sorted by (slice, index) (a bitonic sort), so each run of equal slices
// starts at its first occurrence; a scan of the run starts numbers the distinct slices, indices
// holds where each run starts. sorted = 1: inverse gets each slice's run number, then indices and
// counts their final values in rounds of T runs (each round reads only positions at or past its
// own before a barrier, then writes its own). sorted = 0: inverse gets each slice's first
// occurrence (~run length for a first occurrence itself), a scan in slice order ranks the first
// occurrences into indices and counts, and inverse becomes the rank of its first occurrence (a
// binary search of indices, ascending). Then Y, every thread moving a strided share of its
// elements, and the zero tails. O(n log^2 n / T) slice comparisons per thread (T threads),
// O(log^2 n + log T + count / T) barriers.
extern "C" __global__ void __launch_bounds__(DD_MAX_THREADS) unique(const void* x, long long* extent, void* y, long long* indices, long long* inverse, long long* counts, Ints ints, Floats) {
    if (blockIdx.x != 0) return;
    long long outer = ints.v[0], n = ints.v[1], inner = ints.v[2];
    int sorted = (int) ints.v[3], code = (int) ints.v[4], es = (int) ints.v[5], t = threadIdx.x, T = blockDim.x;
    long long* order = counts;
    long long* head = indices;
    for (long long k = t; k < n; k += T) order[k] = k;
    bitonic_sort(n, [&](long long i, long long p) {
        long long a = order[i], b = order[p];
        if (slice_before(x, outer, n, inner, b, a, code)) { order[i] = b; order[p] = a; }
    });
    long long lo, hi, mine = 0, count;
    thread_chunk(n, &lo, &hi);
    for (long long k = lo; k < hi; k++) mine += k == 0 || compare_slices(x, outer, n, inner, order[k - 1], order[k], code) != 0;
    long long runs_before = block_exclusive_scan(mine, &count);
    for (long long k = lo, g = runs_before; k < hi; k++)
        if (k == 0 || compare_slices(x, outer, n, inner, order[k - 1], order[k], code) != 0) head[g++] = k;
    __syncthreads();
    for (long long k = lo, c = runs_before; k < hi; k++) {   // c: the runs starting before k
        if (c < count && head[c] == k) c++;
        long long s = order[k], first = order[head[c - 1]], size = (c < count ? head[c] : n) - head[c - 1];
        inverse[s] = sorted == 1 ? c - 1 : s == first ? ~size : first;
    }
    __syncthreads();
    if (sorted == 1) {
        for (long long base = 0; base < count; base += T) {
            long long g = base + t, first = 0, size = 0;
            if (g < count) {
                first = order[head[g]];
                size = (g + 1 < count ? head[g + 1] : n) - head[g];
            }
            __syncthreads();
            if (g < count) {
                indices[g] = first;
                counts[g] = size;
            }
            __syncthreads();
        }
    } else {
        mine = 0;
        for (long long s = lo; s < hi; s++) mine += inverse[s] < 0;
        long long total, r = block_exclusive_scan(mine, &total);
        for (long long s = lo; s < hi; s++) {
            if (inverse[s] >= 0) continue;
            indices[r] = s;
            counts[r] = ~inverse[s];
            r++;
        }
        __syncthreads();
        for (long long s = t; s < n; s += T) {
            long long v = inverse[s];
            inverse[s] = first_not_below(indices, count, v < 0 ? s : v);
        }
    }
    __syncthreads();
    for (long long j = count + t; j < n; j += T) { indices[j] = 0; counts[j] = 0; }
    long long row = count * inner;
    for (long long e = t; e < outer * row; e += T) {
        long long o = e / row, r = e % row;
        move_element(x, (o * n + indices[r / inner]) * inner + r % inner, y, e, es);
    }
    for (long long b = outer * count * inner * es + t; b < outer * n * inner * es; b += T) ((unsigned char*) y)[b] = 0;
    if (t == 0) extent[0] = count;
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

// The most candidates of one (batch, class) that non_max_suppression sorts in shared memory (a
// score and a box index each: 32 KiB); with more, each next box is found by a block-wide arg max.
#define NMS_SORTED_MAX 4096

// Whether box (b, ., k) with score s is a candidate: above score_threshold where given.
__device__ __forceinline__ bool nms_candidate(float s, int has_score, float threshold) { return has_score != 1 || s > threshold; }

// Whether (score sa, box ka) comes before (sb, kb): descending score, ties by lower index.
__device__ __forceinline__ bool nms_before(float sa, long long ka, float sb, long long kb) { return sa > sb || (sa == sb && ka < kb); }

// ints: B, N, C, center_point_box, hasScoreThreshold, perClass; boxes_extent null, or (B = C = 1, boxes and
// scores bounded along N) the boxes' runtime extent: only the first min(it, N) boxes are candidates. Per batch then class, in order (the
// count runs on): a scan counts the candidates; up to NMS_SORTED_MAX, they are sorted in shared
// memory (bitonic) and taken in order, each box not yet suppressed kept (thread 0 writes its row)
// and every thread then drops, from a strided share of the candidates after it, those it
// suppresses (nms_suppressed(candidate, kept), as the serial check: the same keep set); more
// candidates, and the next one in order is a block-wide arg max over N, checked against the kept
// rows by all threads. A NaN score that no score_threshold drops is refused before the launch
// (exec.LaunchChecks). Per class: O(K log^2 K / T + kept * K / T) work per thread for K
// candidates (T threads), kept + O(log^2 K) barriers; the fallback O(N / T + log T) per box taken.
extern "C" __global__ void __launch_bounds__(DD_MAX_THREADS) non_max_suppression(const float* boxes, const float* scores, const long long* max_output,
        const float* iou_threshold, const float* score_threshold, const long long* boxes_extent, long long* extent, long long* y, Ints ints, Floats) {
    __shared__ float key[NMS_SORTED_MAX];
    __shared__ int box[NMS_SORTED_MAX];
    __shared__ int hit;
    if (blockIdx.x != 0) return;
    long long batches = ints.v[0], bound = ints.v[1], classes = ints.v[2], per = ints.v[5];
    long long n = boxes_extent == nullptr ? bound : boxes_extent[0] < 0 ? 0 : boxes_extent[0] < bound ? boxes_extent[0] : bound;
    int center = (int) ints.v[3], has_score = (int) ints.v[4], t = threadIdx.x, T = blockDim.x;
    long long limit = max_output[0] < 0 ? 0 : max_output[0] < n ? max_output[0] : n;
    if (limit > per) __trap();   // above what the plan reserved: the simulator throws
    float iou = iou_threshold[0], threshold = score_threshold[0];
    long long count = 0, lo, hi;
    thread_chunk(n, &lo, &hi);
    for (long long b = 0; b < batches; b++) {
        for (long long c = 0; c < classes; c++) {
            const float* score = scores + (b * classes + c) * bound;
            const float* at = boxes + b * bound * 4;
            long long start = count, mine = 0, candidates;
            for (long long k = lo; k < hi; k++) mine += nms_candidate(score[k], has_score, threshold);
            long long j = block_exclusive_scan(mine, &candidates);
            if (limit == 0 || candidates == 0) continue;
            if (candidates <= NMS_SORTED_MAX) {
                for (long long k = lo; k < hi; k++) {
                    if (!nms_candidate(score[k], has_score, threshold)) continue;
                    key[j] = score[k];
                    box[j++] = (int) k;
                }
                bitonic_sort(candidates, [&](long long i, long long p) {
                    if (!nms_before(key[p], box[p], key[i], box[i])) return;
                    float s = key[i]; key[i] = key[p]; key[p] = s;
                    int q = box[i]; box[i] = box[p]; box[p] = q;
                });
                for (long long i = 0; i < candidates; i++) {   // box[i] < 0: suppressed
                    int q = box[i];
                    if (q < 0) continue;
                    if (t == 0) { y[3 * count] = b; y[3 * count + 1] = c; y[3 * count + 2] = q; }
                    if (++count - start == limit) break;
                    for (long long p = i + 1 + t; p < candidates; p += T)
                        if (box[p] >= 0 && nms_suppressed(at, 4LL * box[p], 4LL * q, center, iou)) box[p] = -1;
                    __syncthreads();
                }
                continue;
            }
            long long prev = -1;
            while (count - start < limit) {
                float best_score = 0.0f;
                long long best = -1;
                for (long long k = t; k < n; k += T) {
                    float s = score[k];
                    if (!nms_candidate(s, has_score, threshold)) continue;
                    if (prev >= 0 && !nms_before(score[prev], prev, s, k)) continue;
                    if (best < 0 || nms_before(s, k, best_score, best)) { best = k; best_score = s; }
                }
                key[t] = best_score;
                box[t] = (int) best;
                __syncthreads();
                for (int w = 1; w < T; w <<= 1) {
                    if (t % (2 * w) == 0 && t + w < T && box[t + w] >= 0 && (box[t] < 0 || nms_before(key[t + w], box[t + w], key[t], box[t]))) {
                        key[t] = key[t + w];
                        box[t] = box[t + w];
                    }
                    __syncthreads();
                }
                best = box[0];
                if (best < 0) break;
                prev = best;
                if (t == 0) hit = 0;   // every thread read the last box's hit before this box's first barrier
                __syncthreads();
                for (long long r = start + t; r < count; r += T)
                    if (nms_suppressed(at, 4 * best, 4 * y[3 * r + 2], center, iou)) hit = 1;
                __syncthreads();
                if (hit) continue;
                if (t == 0) { y[3 * count] = b; y[3 * count + 1] = c; y[3 * count + 2] = best; }
                count++;
            }
        }
    }
    __syncthreads();
    for (long long k = 3 * count + t; k < 3 * batches * classes * per; k += T) y[k] = 0;
    if (t == 0) extent[0] = count;
}
