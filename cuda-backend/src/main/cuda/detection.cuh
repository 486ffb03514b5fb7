// roi_align, deform_conv, max_unpool and det: the simulator's DetectionKernels and
// DeterminantKernel step for step (org.arenaplan.device.Kernels#ROI_ALIGN, DEFORM_CONV,
// MAX_UNPOOL, DET): f32 tensors, int64 indices, arithmetic in double in the same order, rounded once.
#pragma once
#include "common.cuh"

// b if it is above a, else a: Python's max(a, b), as the reference and the simulator take it.
__device__ __forceinline__ double detection_larger(double a, double b) { return b > a ? b : a; }

// ptrs: X [N, C, H, W], rois [R, 4], batch_indices [R] (int64), Y [R, C, OH, OW].
// ints: N, C, H, W, R, OH, OW, samplingRatio, mode (0 avg, 1 max), halfPixel; floats: spatialScale.
// One thread per output element.
extern "C" __global__ void roi_align(const float* x, const float* rois, const long long* batch, float* y, Ints ints, Floats floats) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], R = ints.v[4], OH = ints.v[5], OW = ints.v[6], ratio = ints.v[7];
    bool max = ints.v[8] == 1, half = ints.v[9] == 1;
    double scale = floats.v[0], shift = half ? 0.5 : 0.0;
    FOR_EACH_ITEM(item, R * C * OH * OW) {
        long long pw = item % OW, ph = item / OW % OH, channel = item / (OW * OH) % C, roi = item / (OW * OH * C);
        long long b = batch[roi];
        if (b < 0 || b >= N) __trap();
        double startW = (double) rois[4 * roi] * scale - shift, startH = (double) rois[4 * roi + 1] * scale - shift;
        double endW = (double) rois[4 * roi + 2] * scale - shift, endH = (double) rois[4 * roi + 3] * scale - shift;
        double roiW = endW - startW, roiH = endH - startH;
        if (!half) {
            roiW = detection_larger(roiW, 1.0);
            roiH = detection_larger(roiH, 1.0);
        }
        double binH = roiH / (double) OH, binW = roiW / (double) OW;
        double gH = ratio > 0 ? (double) ratio : ceil(roiH / (double) OH), gW = ratio > 0 ? (double) ratio : ceil(roiW / (double) OW);
        // The executor refuses non-finite rois and grids over 2^36 samples before launch (exec.LaunchChecks,
        // device.RoiGrids); a replayed CUDA Graph is not re-checked, so such a roi traps here instead of
        // looping ~2^63 times (NaN fails the comparison too).
        if (!(gH * gW <= 0x1p36)) __trap();
        long long gridH = (long long) gH, gridW = (long long) gW;
        long long count = gridH * gridW > 1 ? gridH * gridW : 1;
        const float* plane = x + (b * C + channel) * H * W;
        double acc = 0.0;
        bool first = true;
        for (long long iy = 0; iy < gridH; iy++) {
            double yy = startH + (double) ph * binH + ((double) iy + 0.5) * binH / (double) gridH;
            for (long long ix = 0; ix < gridW; ix++) {
                double xx = startW + (double) pw * binW + ((double) ix + 0.5) * binW / (double) gridW;
                double v;
                if (yy < -1.0 || yy > (double) H || xx < -1.0 || xx > (double) W) {
                    v = 0.0;
                } else {
                    double yv = yy > 0.0 ? yy : 0.0, xv = xx > 0.0 ? xx : 0.0;
                    long long yLow = (long long) yv, xLow = (long long) xv, yHigh, xHigh;
                    if (yLow >= H - 1) { yHigh = yLow = H - 1; yv = (double) yLow; } else yHigh = yLow + 1;
                    if (xLow >= W - 1) { xHigh = xLow = W - 1; xv = (double) xLow; } else xHigh = xLow + 1;
                    double ly = yv - (double) yLow, lx = xv - (double) xLow, hy = 1.0 - ly, hx = 1.0 - lx;
                    double v1 = hy * hx * (double) plane[yLow * W + xLow], v2 = hy * lx * (double) plane[yLow * W + xHigh];
                    double v3 = ly * hx * (double) plane[yHigh * W + xLow], v4 = ly * lx * (double) plane[yHigh * W + xHigh];
                    v = max ? detection_larger(detection_larger(detection_larger(v1, v2), v3), v4) : v1 + v2 + v3 + v4;
                }
                if (!max) acc += v;
                else if (first || v > acc) acc = v;
                first = false;
            }
        }
        y[item] = (float) (max ? acc : acc / (double) count);
    }
}

// X's plane sampled at (py, px): bilinear, each corner outside the plane read as 0.
__device__ __forceinline__ double deform_bilinear(const float* plane, long long H, long long W, double py, double px) {
    if (!(py > -1.0 && py < (double) H && px > -1.0 && px < (double) W)) return 0.0;
    double y0 = floor(py), x0 = floor(px);
    long long yl = (long long) y0, xl = (long long) x0;
    double ly = py - y0, lx = px - x0, hy = 1.0 - ly, hx = 1.0 - lx;
    double v = 0.0;
    if (yl >= 0 && xl >= 0) v += hy * hx * (double) plane[yl * W + xl];
    if (yl >= 0 && xl + 1 < W) v += hy * lx * (double) plane[yl * W + xl + 1];
    if (yl + 1 < H && xl >= 0) v += ly * hx * (double) plane[(yl + 1) * W + xl];
    if (yl + 1 < H && xl + 1 < W) v += ly * lx * (double) plane[(yl + 1) * W + xl + 1];
    return v;
}

// ptrs: X, W, offset, B, mask, Y (B and mask null where hasBias, hasMask say absent).
// ints: N, C, H, W, M, OH, OW, KH, KW, strideH, strideW, padTop, padLeft, dilationH, dilationW, group, offsetGroup, hasBias, hasMask.
// One thread per output element.
extern "C" __global__ void deform_conv(const float* x, const float* wt, const float* off, const float* bias, const float* mask, float* y,
                                       Ints ints, Floats) {
    long long N = ints.v[0], C = ints.v[1], H = ints.v[2], W = ints.v[3], M = ints.v[4], OH = ints.v[5], OW = ints.v[6], KH = ints.v[7], KW = ints.v[8];
    long long sh = ints.v[9], sw = ints.v[10], pt = ints.v[11], pl = ints.v[12], dh = ints.v[13], dw = ints.v[14], group = ints.v[15], og = ints.v[16];
    bool hasBias = ints.v[17] == 1, hasMask = ints.v[18] == 1;
    long long cPerGroup = C / group, cPerOffset = C / og, taps = KH * KW;
    FOR_EACH_ITEM(e, N * M * OH * OW) {
        long long ox = e % OW, oy = e / OW % OH, out = e / (OW * OH) % M, batch = e / (OW * OH * M);
        long long c0 = out / (M / group) * cPerGroup;
        double acc = hasBias ? (double) bias[out] : 0.0;
        for (long long ci = 0; ci < cPerGroup; ci++) {
            long long cin = c0 + ci, g = cin / cPerOffset;
            const float* plane = x + (batch * C + cin) * H * W;
            for (long long i = 0; i < KH; i++) {
                for (long long j = 0; j < KW; j++) {
                    long long tap = g * taps + i * KW + j;
                    double dy = (double) off[((batch * og * taps * 2 + tap * 2) * OH + oy) * OW + ox];
                    double dx = (double) off[((batch * og * taps * 2 + tap * 2 + 1) * OH + oy) * OW + ox];
                    double py = (double) (oy * sh - pt + i * dh) + dy, px = (double) (ox * sw - pl + j * dw) + dx;
                    double v = deform_bilinear(plane, H, W, py, px);
                    double weight = (double) wt[((out * cPerGroup + ci) * KH + i) * KW + j];
                    if (hasMask) v *= (double) mask[((batch * og * taps + tap) * OH + oy) * OW + ox];
                    acc += weight * v;
                }
            }
        }
        y[e] = (float) acc;
    }
}

// Phase 0: ptrs y: every element 0. Phase 1: ptrs x, idx (int64), y: each element of x to its
// index, split over the inferred shape and joined over Y's (the rest keeps phase 0's zeros).
// ints: phase, xElements, yElements, rank, inferred[rank], out[rank].
extern "C" __global__ void max_unpool(const float* x, const long long* idx, float* y, Ints ints, Floats) {
    long long phase = ints.v[0], xs = ints.v[1], ys = ints.v[2];
    int rank = (int) ints.v[3];
    const long long* inferred = ints.v + 4;
    const long long* outShape = ints.v + 4 + rank;
    if (phase == 0) {
        FOR_EACH_ITEM(i, ys) y[i] = 0.0f;
        return;
    }
    long long total = element_count(inferred, rank);
    FOR_EACH_ITEM(e, xs) {
        long long f = idx[e];
        if (f < 0 || f >= total) __trap();
        long long at = 0, stride = 1;
        for (int d = rank - 1; d >= 0; d--) {
            at += f % inferred[d] * stride;
            f /= inferred[d];
            stride *= outShape[d];
        }
        y[at] = x[e];
    }
}

// Largest M of det: a thread eliminates its matrix in a local array (CudaKernelTable refuses larger ones).
#define DET_MAX_M 32

// ptrs: X [batch, M, M], Y [batch]; ints: batch, M. One thread per matrix: Gaussian elimination with
// partial pivoting in double (the first largest |a| at or below the diagonal), the product of the pivots.
extern "C" __global__ void det(const float* x, float* y, Ints ints, Floats) {
    long long batch = ints.v[0];
    int m = (int) ints.v[1];
    if (m > DET_MAX_M) __trap();
    double a[DET_MAX_M * DET_MAX_M];
    FOR_EACH_ITEM(b, batch) {
        for (int e = 0; e < m * m; e++) a[e] = (double) x[b * m * m + e];
        double d = 1.0;
        for (int k = 0; k < m; k++) {
            int p = k;
            for (int r = k + 1; r < m; r++) if (fabs(a[r * m + k]) > fabs(a[p * m + k])) p = r;
            double pivot = a[p * m + k];
            if (pivot == 0.0) { d = 0.0; break; }
            if (p != k) {
                for (int j = k; j < m; j++) {
                    double t = a[k * m + j];
                    a[k * m + j] = a[p * m + j];
                    a[p * m + j] = t;
                }
                d = -d;
            }
            d *= pivot;
            for (int r = k + 1; r < m; r++) {
                double f = a[r * m + k] / pivot;
                for (int j = k + 1; j < m; j++) a[r * m + j] -= f * a[k * m + j];
            }
        }
        y[b] = (float) d;
    }
}
