// N-d image kernels: conv_nd (Conv on any of 1 to 3 spatial axes, and ConvTranspose), pool (max,
// average and Lp pooling, windowed or global, dilated) and resize (ONNX Resize), one thread per
// output element. Argument layouts: org.arenaplan.device.Kernels; the simulator's ImageKernels
// computes the same values in the same order.
#pragma once
#include "common.cuh"
#include "typed.cuh"

#define IMAGE_MAX_SPATIAL 3
#define RESIZE_MAX_RANK 6
#define RESIZE_MAX_TAPS 64

// ints: rank, N, C, M, group, hasBias, transposed, then per spatial axis: in, out, k, stride, padBegin, dilation.
// The sum runs over the group's input channels, then the kernel positions (row-major), from 0 in f32, blocked
// (SUM_BLOCK, common.cuh; k = (ci, position) row-major; a block without terms is skipped); bias last.
// T: the storage type (typed.cuh); conv_nd is float, conv_nd_f16 half_t (the sums in f32).
template <typename T>
__device__ __forceinline__ void conv_nd_body(const T* x, const T* w, const T* b, T* y, const Ints& ints) {
    int rank = (int) ints.v[0];
    long long N = ints.v[1], C = ints.v[2], M = ints.v[3], group = ints.v[4];
    int hasBias = (int) ints.v[5], transposed = (int) ints.v[6];
    long long in[IMAGE_MAX_SPATIAL], out[IMAGE_MAX_SPATIAL], k[IMAGE_MAX_SPATIAL], st[IMAGE_MAX_SPATIAL], pad[IMAGE_MAX_SPATIAL], dil[IMAGE_MAX_SPATIAL];
    long long inSize = 1, outSize = 1, kSize = 1;
    for (int d = 0; d < rank; d++) {
        const long long* a = ints.v + 7 + 6 * d;
        in[d] = a[0]; out[d] = a[1]; k[d] = a[2]; st[d] = a[3]; pad[d] = a[4]; dil[d] = a[5];
        inSize *= in[d]; outSize *= out[d]; kSize *= k[d];
    }
    long long cg = C / group, mg = M / group;
    FOR_EACH_ITEM(i, N * M * outSize) {
        long long e = i % outSize, m = (i / outSize) % M, n = i / (outSize * M);
        long long o[IMAGE_MAX_SPATIAL];
        long long rest = e;
        for (int d = rank - 1; d >= 0; d--) { o[d] = rest % out[d]; rest /= out[d]; }
        long long g = m / mg;
        float acc = 0.0f, part = 0.0f;
        long long blockEnd = SUM_BLOCK;   // k past the current block
        for (long long ci = 0; ci < cg; ci++) {
            long long cIn = g * cg + ci;
            const T* xp = x + (n * C + cIn) * inSize;
            const T* wp = w + (transposed ? (cIn * mg + m % mg) : (m * cg + ci)) * kSize;
            for (long long q = 0; q < kSize; q++) {
                long long r = q, at = 0, stride = 1;
                bool ok = true;
                for (int d = rank - 1; d >= 0 && ok; d--) {
                    long long kk = r % k[d];
                    r /= k[d];
                    long long p;
                    if (transposed) {
                        long long t = o[d] + pad[d] - kk * dil[d];
                        if (t < 0 || t % st[d] != 0) { ok = false; break; }
                        p = t / st[d];
                    } else {
                        p = o[d] * st[d] - pad[d] + kk * dil[d];
                    }
                    if (p < 0 || p >= in[d]) { ok = false; break; }
                    at += p * stride;
                    stride *= in[d];
                }
                if (!ok) continue;
                long long kIndex = ci * kSize + q;
                if (kIndex >= blockEnd) {   // the term opens a later block: fold the partial sum
                    acc = acc + part;
                    part = 0.0f;
                    blockEnd = (kIndex / SUM_BLOCK + 1) * SUM_BLOCK;
                }
                part = part + typed_load(xp, at) * typed_load(wp, q);
            }
        }
        acc = acc + part;
        if (hasBias) acc = acc + typed_load(b, m);
        typed_store(y, i, acc);
    }
}

extern "C" __global__ void conv_nd(const float* x, const float* w, const float* b, float* y, Ints ints, Floats) {
    conv_nd_body(x, w, b, y, ints);
}

extern "C" __global__ void conv_nd_f16(const void* x, const void* w, const void* b, void* y, Ints ints, Floats) {
    conv_nd_body((const half_t*) x, (const half_t*) w, (const half_t*) b, (half_t*) y, ints);
}

// ints: rank, planes, mode (0 max, 1 average, 2 Lp), countIncludePad, p, then per spatial axis:
// in, out, k, stride, padBegin, padEnd, dilation. Output e of plane; the window is visited in
// row-major order. With arg, the first maximum's index within the plane goes there (column-major
// when columnMajor). Mirrors ImageKernels.Pool.at. T: the storage type of x (typed.cuh), widened to f32.
template <typename T>
__device__ float pool_at(const T* x, const Ints& ints, long long plane, long long e, int columnMajor, long long* arg) {
    int rank = (int) ints.v[0];
    int mode = (int) ints.v[2], includePad = (int) ints.v[3];
    long long p = ints.v[4];
    long long in[IMAGE_MAX_SPATIAL], out[IMAGE_MAX_SPATIAL], k[IMAGE_MAX_SPATIAL], st[IMAGE_MAX_SPATIAL];
    long long pb[IMAGE_MAX_SPATIAL], pe[IMAGE_MAX_SPATIAL], dil[IMAGE_MAX_SPATIAL];
    long long inSize = 1, kSize = 1;
    for (int d = 0; d < rank; d++) {
        const long long* a = ints.v + 5 + 7 * d;
        in[d] = a[0]; out[d] = a[1]; k[d] = a[2]; st[d] = a[3]; pb[d] = a[4]; pe[d] = a[5]; dil[d] = a[6];
        inSize *= in[d]; kSize *= k[d];
    }
    long long o[IMAGE_MAX_SPATIAL];
    long long rest = e;
    for (int d = rank - 1; d >= 0; d--) { o[d] = rest % out[d]; rest /= out[d]; }
    float acc = mode == 0 ? -INFINITY : 0.0f;
    long long inside = 0, padded = 0, best = -1;
    for (long long q = 0; q < kSize; q++) {
        long long r = q, at = 0, stride = 1;
        long long pos[IMAGE_MAX_SPATIAL];
        bool in1 = true, inPad = true;
        for (int d = rank - 1; d >= 0; d--) {
            long long kk = r % k[d];
            r /= k[d];
            pos[d] = o[d] * st[d] - pb[d] + kk * dil[d];
            if (pos[d] < -pb[d] || pos[d] >= in[d] + pe[d]) inPad = false;
            if (pos[d] < 0 || pos[d] >= in[d]) in1 = false;
            else at += pos[d] * stride;
            stride *= in[d];
        }
        if (inPad) padded++;
        if (!in1) continue;
        inside++;
        float v = typed_load(x, plane * inSize + at);
        if (mode == 0) {
            if (v > acc || best < 0) {
                if (columnMajor) {
                    long long c = 0, s2 = 1;
                    for (int d = 0; d < rank; d++) { c += pos[d] * s2; s2 *= in[d]; }
                    best = c;
                } else {
                    best = at;
                }
            }
            acc = v > acc ? v : acc;
        } else if (mode == 1) {
            acc = acc + v;
        } else {
            acc = acc + (float) pow((double) fabsf(v), (double) p);
        }
    }
    if (arg) *arg = best;
    if (mode == 1) acc = acc / (float) (includePad ? padded : inside);
    else if (mode == 2) acc = (float) pow((double) acc, 1.0 / (double) p);
    return acc;
}

__device__ __forceinline__ long long pool_out_size(const Ints& ints) {
    long long n = 1;
    for (int d = 0; d < (int) ints.v[0]; d++) n *= ints.v[5 + 7 * d + 1];
    return n;
}

// T: the storage type (typed.cuh); pool is float, pool_f16 half_t, pool_u8 u8_t and pool_i8 i8_t (max
// only: exact, an empty window's -inf stored as the type's lowest value).
template <typename T>
__device__ __forceinline__ void pool_body(const T* x, T* y, const Ints& ints) {
    long long outSize = pool_out_size(ints);
    FOR_EACH_ITEM(i, ints.v[1] * outSize) typed_store(y, i, pool_at(x, ints, i / outSize, i % outSize, 0, nullptr));
}

extern "C" __global__ void pool(const float* x, float* y, Ints ints, Floats) { pool_body(x, y, ints); }
extern "C" __global__ void pool_f16(const void* x, void* y, Ints ints, Floats) { pool_body((const half_t*) x, (half_t*) y, ints); }
extern "C" __global__ void pool_u8(const void* x, void* y, Ints ints, Floats) { pool_body((const u8_t*) x, (u8_t*) y, ints); }
extern "C" __global__ void pool_i8(const void* x, void* y, Ints ints, Floats) { pool_body((const i8_t*) x, (i8_t*) y, ints); }

// ints: as pool's (mode 0), then storageOrder (1: column-major). ONNX MaxPool's Indices: the flat
// index into x of each window's first maximum. T: the storage type of x (typed.cuh).
template <typename T>
__device__ __forceinline__ void pool_indices_body(const T* x, long long* indices, const Ints& ints) {
    int rank = (int) ints.v[0];
    long long outSize = pool_out_size(ints), inSize = 1;
    for (int d = 0; d < rank; d++) inSize *= ints.v[5 + 7 * d];
    int columnMajor = (int) ints.v[5 + 7 * rank];
    FOR_EACH_ITEM(i, ints.v[1] * outSize) {
        long long plane = i / outSize, arg;
        pool_at(x, ints, plane, i % outSize, columnMajor, &arg);
        indices[i] = plane * inSize + arg;
    }
}

extern "C" __global__ void pool_indices(const float* x, long long* indices, Ints ints, Floats) { pool_indices_body(x, indices, ints); }
extern "C" __global__ void pool_indices_f16(const void* x, long long* indices, Ints ints, Floats) { pool_indices_body((const half_t*) x, indices, ints); }
extern "C" __global__ void pool_indices_u8(const void* x, long long* indices, Ints ints, Floats) { pool_indices_body((const u8_t*) x, indices, ints); }
extern "C" __global__ void pool_indices_i8(const void* x, long long* indices, Ints ints, Floats) { pool_indices_body((const i8_t*) x, indices, ints); }

__device__ __forceinline__ double resize_cubic(double x, double a) {
    if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
    if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
    return 0;
}

// The taps of output coordinate xr on axis d: clamped input indices and weights; returns their
// count, 0 when the coordinate falls outside the roi's image (extrapolate). As onnx's reference
// op_resize.py (_interpolate_1d_with_x); every step mirrors ImageKernels.axisTaps.
__device__ int resize_taps(const Ints& ints, const Floats& floats, int d, long long xr, long long* index, double* weight) {
    int mode = (int) ints.v[1], coord = (int) ints.v[2], nearest = (int) ints.v[3];
    int exclude = (int) ints.v[4], antialias = (int) ints.v[5];
    const long long* a5 = ints.v + 6 + 5 * d;
    long long inW = a5[0], outW = a5[1];
    double scale = __longlong_as_double(a5[2]), r0 = __longlong_as_double(a5[3]), r1 = __longlong_as_double(a5[4]);
    double a = floats.v[0];
    double width = scale * inW;
    double xo;
    switch (coord) {
        case 0: xo = (xr + 0.5) / scale - 0.5; break;
        case 1: {
            double adjustment = outW / width, center = inW / 2.0;
            xo = center * (1 - adjustment) + (xr + 0.5) / scale - 0.5;
            break;
        }
        case 2: xo = width == 1 ? -0.5 : (xr + 0.5) / scale - 0.5; break;
        case 3: xo = width == 1 ? 0 : xr * (double) (inW - 1) / (width - 1); break;
        case 4: xo = xr / scale; break;
        case 5: xo = (xr + 0.5) / scale; break;
        default:
            xo = width == 1 ? (r1 - r0) * (inW - 1) / 2 : xr * (r1 - r0) * (inW - 1) / (width - 1);
            xo += r0 * (inW - 1);
            if (xo < 0 || xo > inW - 1) return 0;
    }
    double fl = floor(xo);
    bool whole = xo == fl;
    double ratio = whole ? 1 : xo - fl;
    long long left = whole ? (long long) fl - 1 : (long long) fl;
    if (mode == 0) {
        bool right = whole || (nearest == 0 ? ratio > 0.5 : nearest == 1 ? ratio >= 0.5 : nearest == 2 ? false : true);
        long long idx = left + (right ? 1 : 0);
        index[0] = idx < 0 ? 0 : idx > inW - 1 ? inW - 1 : idx;
        weight[0] = 1;
        return 1;
    }
    double s = antialias ? (scale < 1.0 ? scale : 1.0) : 1.0;
    int n;
    long long first;
    if (mode == 1) {
        long long start = antialias ? (long long) floor(-1.0 / s) + 1 : 0;
        n = (int) (2 - 2 * start);
        first = start;
        if (n > RESIZE_MAX_TAPS) __trap();
        for (int j = 0; j < n; j++) {
            weight[j] = antialias ? fmin(1.0, fmax(0.0, 1 - fabs((first + j - ratio) * s))) : (j == 0 ? 1 - ratio : ratio);
        }
    } else if (antialias) {
        long long start = (long long) floor(-2.0 / s) + 1;
        n = (int) (2 - 2 * start);
        first = start;
        if (n > RESIZE_MAX_TAPS) __trap();
        for (int j = 0; j < n; j++) weight[j] = resize_cubic(fabs(s * (first + j - ratio)), a);
    } else {
        n = 4;
        first = -1;
        double r = ratio, q = 1 - ratio;
        weight[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
        weight[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
        weight[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
        weight[3] = ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a;
    }
    double sum = 0;
    for (int j = 0; j < n; j++) {
        long long idx = left + first + j;
        if (exclude && (idx < 0 || idx >= inW)) weight[j] = 0;
        sum += weight[j];
        index[j] = idx < 0 ? 0 : idx > inW - 1 ? inW - 1 : idx;
    }
    if (antialias || exclude) for (int j = 0; j < n; j++) weight[j] /= sum;
    return n;
}

// ints: rank, mode, coordinateMode, nearestMode, excludeOutside, antialias, then per axis: in, out,
// scale, roiStart, roiEnd (doubles' bits); floats: cubicCoeffA, extrapolationValue.
// y = sum over the taps' product (last axis fastest) of weight * x, in f64, rounded to f32 (then to T
// on store, typed.cuh). T: the storage type; resize is float, resize_f16 half_t (the type int after the axes).
template <typename T>
__device__ void resize_body(const T* x, T* y, const Ints& ints, const Floats& floats) {
    int rank = (int) ints.v[0];
    long long in[RESIZE_MAX_RANK], out[RESIZE_MAX_RANK];
    long long outSize = 1;
    for (int d = 0; d < rank; d++) {
        in[d] = ints.v[6 + 5 * d];
        out[d] = ints.v[7 + 5 * d];
        outSize *= out[d];
    }
    FOR_EACH_ITEM(i, outSize) {
        long long index[RESIZE_MAX_RANK][RESIZE_MAX_TAPS];
        double weight[RESIZE_MAX_RANK][RESIZE_MAX_TAPS];
        int count[RESIZE_MAX_RANK], t[RESIZE_MAX_RANK];
        long long rest = i;
        bool outside = false;
        for (int d = rank - 1; d >= 0; d--) {
            count[d] = resize_taps(ints, floats, d, rest % out[d], index[d], weight[d]);
            rest /= out[d];
            if (count[d] == 0) outside = true;
            t[d] = 0;
        }
        if (outside) {
            typed_store(y, i, (float) floats.v[1]);
            continue;
        }
        double acc = 0;
        while (true) {
            double wgt = 1;
            long long at = 0;
            for (int d = 0; d < rank; d++) {
                wgt *= weight[d][t[d]];
                at = at * in[d] + index[d][t[d]];
            }
            acc += wgt * typed_load(x, at);
            int d = rank - 1;
            while (d >= 0 && ++t[d] == count[d]) t[d--] = 0;
            if (d < 0) break;
        }
        typed_store(y, i, (float) acc);
    }
}

extern "C" __global__ void resize(const float* x, float* y, Ints ints, Floats floats) { resize_body(x, y, ints, floats); }
extern "C" __global__ void resize_f16(const void* x, void* y, Ints ints, Floats floats) { resize_body((const half_t*) x, (half_t*) y, ints, floats); }

// ints: rank, N, C, then per spatial axis: image, blocks, k, stride, padBegin, dilation (ONNX Col2Im).
// The sum runs over the block positions, row-major, from 0 in f32.
extern "C" __global__ void col2im(const float* x, float* y, Ints ints, Floats) {
    int rank = (int) ints.v[0];
    long long N = ints.v[1], C = ints.v[2];
    long long image[IMAGE_MAX_SPATIAL], blocks[IMAGE_MAX_SPATIAL], k[IMAGE_MAX_SPATIAL], st[IMAGE_MAX_SPATIAL], pad[IMAGE_MAX_SPATIAL], dil[IMAGE_MAX_SPATIAL];
    long long outSize = 1, kSize = 1, L = 1;
    for (int d = 0; d < rank; d++) {
        const long long* a = ints.v + 3 + 6 * d;
        image[d] = a[0]; blocks[d] = a[1]; k[d] = a[2]; st[d] = a[3]; pad[d] = a[4]; dil[d] = a[5];
        outSize *= image[d]; kSize *= k[d]; L *= blocks[d];
    }
    FOR_EACH_ITEM(i, N * C * outSize) {
        long long e = i % outSize, plane = i / outSize;
        long long o[IMAGE_MAX_SPATIAL];
        long long rest = e;
        for (int d = rank - 1; d >= 0; d--) { o[d] = rest % image[d]; rest /= image[d]; }
        float acc = 0.0f;
        for (long long q = 0; q < kSize; q++) {
            long long r = q, at = 0, stride = 1;
            bool ok = true;
            for (int d = rank - 1; d >= 0; d--) {
                long long kk = r % k[d];
                r /= k[d];
                long long t = o[d] + pad[d] - kk * dil[d];
                if (t < 0 || t % st[d] != 0 || t / st[d] >= blocks[d]) { ok = false; break; }
                at += (t / st[d]) * stride;
                stride *= blocks[d];
            }
            if (ok) acc = acc + x[(plane * kSize + q) * L + at];
        }
        y[i] = acc;
    }
}

// ints: N, rank (2 or 3), the spatial extents (H, W or D, H, W), alignCorners (ONNX AffineGrid).
extern "C" __global__ void affine_grid(const float* theta, float* grid, Ints ints, Floats) {
    long long N = ints.v[0];
    int r = (int) ints.v[1];
    long long ext[3];
    long long positions = 1;
    for (int d = 0; d < r; d++) { ext[d] = ints.v[2 + d]; positions *= ext[d]; }
    int align = (int) ints.v[2 + r];
    FOR_EACH_ITEM(i, N * positions * r) {
        long long q = i % r, e = (i / r) % positions, img = i / (r * positions);
        long long at[3];
        long long rest = e;
        for (int d = r - 1; d >= 0; d--) { at[d] = rest % ext[d]; rest /= ext[d]; }
        const float* t = theta + (img * r + q) * (r + 1);
        double v = 0;
        for (int j = 0; j < r; j++) {
            int d = r - 1 - j;
            double base = align ? (ext[d] == 1 ? 0 : -1 + 2.0 * at[d] / (ext[d] - 1)) : -1 + (2.0 * at[d] + 1) / ext[d];
            v += t[j] * base;
        }
        grid[i] = (float) (v + t[r]);
    }
}

// Reflects x by the nearer border until it lies within [lo, hi] (onnx's reference _gs_reflect).
__device__ double grid_reflect(double x, double lo, double hi) {
    double range = hi - lo;
    if (x < lo) {
        double dx = lo - x;
        long long k = (long long) (dx / range);
        double rest = dx - k * range;
        return k % 2 == 0 ? lo + rest : hi - rest;
    }
    if (x > hi) {
        double dx = x - hi;
        long long k = (long long) (dx / range);
        double rest = dx - k * range;
        return k % 2 == 0 ? hi - rest : lo + rest;
    }
    return x;
}

// Index i under the padding mode: inside, -1 (zeros), clamped (border) or reflected (reflection).
__device__ long long grid_index(long long i, long long len, int padding, double lo, double hi) {
    if (padding == 0) return i >= 0 && i < len ? i : -1;
    if (padding == 1) return i < 0 ? 0 : i > len - 1 ? len - 1 : i;
    long long r = (long long) grid_reflect((double) i, lo, hi);
    return r < 0 ? 0 : r > len - 1 ? len - 1 : r;
}

// The taps of normalised grid coordinate g on an axis of len; mirrors ImageKernels.gridTaps.
__device__ int grid_taps(double g, long long len, int mode, int padding, int align, long long* index, double* weight) {
    double lo = align ? 0 : -0.5, hi = align ? len - 1 : len - 0.5;
    double v = align ? (g + 1) / 2.0 * (len - 1) : ((g + 1) * len - 1) / 2.0;
    if (mode == 0) v = rint(v);   // half to even
    if (mode != 2 && (v < lo || v > hi)) {   // cubic pads its taps only, never the coordinate
        if (padding == 1) v = fmax(0.0, fmin((double) (len - 1), v));
        else if (padding == 2) v = grid_reflect(v, lo, hi);
    }
    if (mode == 0) {
        index[0] = grid_index((long long) v, len, padding, lo, hi);
        weight[0] = 1;
        return 1;
    }
    long long x0 = (long long) floor(v);
    double f = v - x0;
    if (mode == 1) {
        weight[0] = 1 - f;
        weight[1] = f;
        for (int j = 0; j < 2; j++) index[j] = grid_index(x0 + j, len, padding, lo, hi);
        return 2;
    }
    double a = -0.75, q = 1 - f;
    weight[0] = ((a * (f + 1) - 5 * a) * (f + 1) + 8 * a) * (f + 1) - 4 * a;
    weight[1] = ((a + 2) * f - (a + 3)) * f * f + 1;
    weight[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
    weight[3] = ((a * (2 - f) - 5 * a) * (2 - f) + 8 * a) * (2 - f) - 4 * a;
    for (int j = 0; j < 4; j++) index[j] = grid_index(x0 - 1 + j, len, padding, lo, hi);
    return 4;
}

// ints: rank (2 or 3), N, C, in (rank), out (rank), mode (0 nearest, 1 linear, 2 cubic),
// padding (0 zeros, 1 border, 2 reflection), alignCorners (ONNX GridSample-20).
extern "C" __global__ void grid_sample(const float* x, const float* grid, float* y, Ints ints, Floats) {
    int r = (int) ints.v[0];
    long long N = ints.v[1], C = ints.v[2];
    long long in[3], out[3], inSize = 1, outSize = 1;
    for (int d = 0; d < r; d++) { in[d] = ints.v[3 + d]; out[d] = ints.v[3 + r + d]; inSize *= in[d]; outSize *= out[d]; }
    int mode = (int) ints.v[3 + 2 * r], padding = (int) ints.v[4 + 2 * r], align = (int) ints.v[5 + 2 * r];
    FOR_EACH_ITEM(i, N * C * outSize) {
        long long e = i % outSize, q = (i / outSize) % C, img = i / (outSize * C);
        long long index[3][4];
        double weight[3][4];
        int count[3], t[3];
        for (int d = 0; d < r; d++) {
            count[d] = grid_taps(grid[(img * outSize + e) * r + (r - 1 - d)], in[d], mode, padding, align, index[d], weight[d]);
            t[d] = 0;
        }
        const float* plane = x + (img * C + q) * inSize;
        double acc = 0;
        while (true) {
            double wgt = 1;
            long long at = 0;
            bool zero = false;
            for (int d = 0; d < r; d++) {
                wgt *= weight[d][t[d]];
                long long idx = index[d][t[d]];
                if (idx < 0) zero = true;
                at = at * in[d] + (idx < 0 ? 0 : idx);
            }
            if (!zero) acc += wgt * plane[at];
            int d = r - 1;
            while (d >= 0 && ++t[d] == count[d]) t[d--] = 0;
            if (d < 0) break;
        }
        y[i] = (float) acc;
    }
}
