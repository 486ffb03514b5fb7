package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.IndexOutOfRangeException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.RoiGrids;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#ROI_ALIGN}, {@link Kernels#DEFORM_CONV} and
 * {@link Kernels#MAX_UNPOOL} (layouts and arithmetic documented there), which detection.cuh
 * repeats step for step, and {@link Kernels#DET} ({@link DeterminantKernel}). f32 tensors, int64
 * indices; sums in double, rounded once.
 */
final class DetectionKernels {
    private DetectionKernels() { }

    /** The computation of {@code c}, or null when it is not this family's kernel. */
    static Runnable bind(KernelCall c) {
        return switch (c.name()) {
            case Kernels.ROI_ALIGN -> roiAlign(c);
            case Kernels.DEFORM_CONV -> deformConv(c);
            case Kernels.MAX_UNPOOL -> maxUnpool(c);
            case Kernels.DET -> DeterminantKernel.bind(c);
            default -> null;
        };
    }

    // ---- roi_align ----

    private static Runnable roiAlign(KernelCall c) {
        SimKernels.need(c, 4, 10);
        int n = i(c, 0), ch = i(c, 1), h = i(c, 2), w = i(c, 3), r = i(c, 4), oh = i(c, 5), ow = i(c, 6);
        check(c, 0, DType.F32, (long) n * ch * h * w);
        check(c, 1, DType.F32, 4L * r);
        check(c, 2, DType.I64, r);
        check(c, 3, DType.F32, (long) r * ch * oh * ow);
        return () -> {
            float[] x = SimKernels.inFloats(c, 0), rois = SimKernels.inFloats(c, 1);
            ByteBuffer b = SimKernels.in(c, 2);
            float[] y = new float[r * ch * oh * ow];
            double[][] geometry = new double[r][];
            for (int roi = 0; roi < r; roi++) geometry[roi] = RoiGrids.geometry(c, rois, roi);
            for (int roi = 0; roi < r; roi++) {
                long batch = b.getLong(8 * roi);
                if (batch < 0 || batch >= n) throw new IndexOutOfRangeException("'" + c.label() + "': roi_align batch index " + batch + " of roi " + roi + " is outside [0, " + n + ")");
                for (int e = 0; e < ch * oh * ow; e++) {
                    int pw = e % ow, ph = e / ow % oh, channel = e / (ow * oh);
                    y[roi * ch * oh * ow + e] = (float) roiAlignAt(c, x, geometry[roi], (int) batch, channel, ph, pw);
                }
            }
            SimKernels.storeFloats(c, 3, y);
        };
    }

    /** One output of roi_align: onnx's op_roi_align.py for bin (ph, pw) of channel {@code channel} of a roi of geometry {@code g} ({@link RoiGrids#geometry}), in double. */
    static double roiAlignAt(KernelCall c, float[] x, double[] g, int batch, int channel, int ph, int pw) {
        long ch = c.intArg(1), h = c.intArg(2), w = c.intArg(3);
        boolean max = c.intArg(8) == 1;
        double startH = g[0], startW = g[1], binH = g[4], binW = g[5];
        long gridH = (long) g[6], gridW = (long) g[7];
        long count = Math.max(gridH * gridW, 1);
        int base = (int) ((batch * ch + channel) * h * w);
        double acc = 0;
        boolean first = true;
        for (long iy = 0; iy < gridH; iy++) {
            double yy = startH + ph * binH + (iy + 0.5) * binH / gridH;
            for (long ix = 0; ix < gridW; ix++) {
                double xx = startW + pw * binW + (ix + 0.5) * binW / gridW;
                double v;
                if (yy < -1.0 || yy > h || xx < -1.0 || xx > w) {
                    v = 0.0;
                } else {
                    double y = yy > 0.0 ? yy : 0.0, xv = xx > 0.0 ? xx : 0.0;
                    long yLow = (long) y, xLow = (long) xv, yHigh, xHigh;
                    if (yLow >= h - 1) { yHigh = yLow = h - 1; y = yLow; } else yHigh = yLow + 1;
                    if (xLow >= w - 1) { xHigh = xLow = w - 1; xv = xLow; } else xHigh = xLow + 1;
                    double ly = y - yLow, lx = xv - xLow, hy = 1.0 - ly, hx = 1.0 - lx;
                    double v1 = hy * hx * x[base + (int) (yLow * w + xLow)], v2 = hy * lx * x[base + (int) (yLow * w + xHigh)];
                    double v3 = ly * hx * x[base + (int) (yHigh * w + xLow)], v4 = ly * lx * x[base + (int) (yHigh * w + xHigh)];
                    v = max ? RoiGrids.larger(RoiGrids.larger(RoiGrids.larger(v1, v2), v3), v4) : v1 + v2 + v3 + v4;
                }
                if (!max) acc += v;
                else if (first || v > acc) acc = v;
                first = false;
            }
        }
        return max ? acc : acc / count;
    }

    // ---- deform_conv ----

    private static Runnable deformConv(KernelCall c) {
        boolean bias = c.intArg(17) == 1, mask = c.intArg(18) == 1;
        int ptrs = 4 + (bias ? 1 : 0) + (mask ? 1 : 0);
        SimKernels.need(c, ptrs, 19);
        int n = i(c, 0), ch = i(c, 1), h = i(c, 2), w = i(c, 3), m = i(c, 4), oh = i(c, 5), ow = i(c, 6), kh = i(c, 7), kw = i(c, 8);
        int group = i(c, 15), og = i(c, 16);
        if (group < 1 || og < 1 || ch % group != 0 || m % group != 0 || ch % og != 0)
            throw new DeviceException("'" + c.label() + "': deform_conv group " + group + " or offset group " + og + " does not divide the channels");
        int maskAt = bias ? 4 : 3;
        check(c, 0, DType.F32, (long) n * ch * h * w);
        check(c, 1, DType.F32, (long) m * (ch / group) * kh * kw);
        check(c, 2, DType.F32, (long) n * og * kh * kw * 2 * oh * ow);
        if (bias) check(c, 3, DType.F32, m);
        if (mask) check(c, maskAt, DType.F32, (long) n * og * kh * kw * oh * ow);
        check(c, ptrs - 1, DType.F32, (long) n * m * oh * ow);
        return () -> {
            float[] x = SimKernels.inFloats(c, 0), wt = SimKernels.inFloats(c, 1), off = SimKernels.inFloats(c, 2);
            float[] b = bias ? SimKernels.inFloats(c, 3) : null, mk = mask ? SimKernels.inFloats(c, maskAt) : null;
            float[] y = new float[n * m * oh * ow];
            for (int e = 0; e < y.length; e++) y[e] = (float) deformConvAt(c, x, wt, off, b, mk, e);
            SimKernels.storeFloats(c, ptrs - 1, y);
        };
    }

    /** Output element {@code e} of deform_conv, in double. */
    static double deformConvAt(KernelCall c, float[] x, float[] wt, float[] off, float[] b, float[] mk, int e) {
        long ch = c.intArg(1), h = c.intArg(2), w = c.intArg(3), m = c.intArg(4), oh = c.intArg(5), ow = c.intArg(6), kh = c.intArg(7), kw = c.intArg(8);
        long sh = c.intArg(9), sw = c.intArg(10), pt = c.intArg(11), pl = c.intArg(12), dh = c.intArg(13), dw = c.intArg(14), group = c.intArg(15), og = c.intArg(16);
        long ox = e % ow, oy = e / ow % oh, out = e / (ow * oh) % m, batch = e / (ow * oh * m);
        long cPerGroup = ch / group, c0 = out / (m / group) * cPerGroup, cPerOffset = ch / og, taps = kh * kw;
        double acc = b != null ? b[(int) out] : 0.0;
        for (long ci = 0; ci < cPerGroup; ci++) {
            long cin = c0 + ci, g = cin / cPerOffset;
            for (long i = 0; i < kh; i++) {
                for (long j = 0; j < kw; j++) {
                    long tap = g * taps + i * kw + j;
                    double dy = off[(int) (((batch * og * taps * 2 + tap * 2) * oh + oy) * ow + ox)];
                    double dx = off[(int) (((batch * og * taps * 2 + tap * 2 + 1) * oh + oy) * ow + ox)];
                    double py = oy * sh - pt + i * dh + dy, px = ox * sw - pl + j * dw + dx;
                    double v = bilinear(x, (batch * ch + cin) * h * w, h, w, py, px);
                    double weight = wt[(int) (((out * cPerGroup + ci) * kh + i) * kw + j)];
                    if (mk != null) v *= mk[(int) (((batch * og * taps + tap) * oh + oy) * ow + ox)];
                    acc += weight * v;
                }
            }
        }
        return acc;
    }

    /** X's plane at {@code base} sampled at (y, x): bilinear, each corner outside the plane read as 0. */
    static double bilinear(float[] x, long base, long h, long w, double y, double xv) {
        if (!(y > -1.0 && y < h && xv > -1.0 && xv < w)) return 0.0;
        double y0 = Math.floor(y), x0 = Math.floor(xv);
        long yl = (long) y0, xl = (long) x0;
        double ly = y - y0, lx = xv - x0, hy = 1.0 - ly, hx = 1.0 - lx;
        double v = 0.0;
        if (yl >= 0 && xl >= 0) v += hy * hx * x[(int) (base + yl * w + xl)];
        if (yl >= 0 && xl + 1 < w) v += hy * lx * x[(int) (base + yl * w + xl + 1)];
        if (yl + 1 < h && xl >= 0) v += ly * hx * x[(int) (base + (yl + 1) * w + xl)];
        if (yl + 1 < h && xl + 1 < w) v += ly * lx * x[(int) (base + (yl + 1) * w + xl + 1)];
        return v;
    }

    // ---- max_unpool ----

    private static Runnable maxUnpool(KernelCall c) {
        boolean scatter = c.intArg(0) == 1;
        int rank = c.ints().length > 3 ? i(c, 3) : 0;
        SimKernels.need(c, scatter ? 3 : 1, 4 + 2 * rank);
        if (rank < 3 || rank > 5) throw new DeviceException("'" + c.label() + "': max_unpool rank " + rank + " is not 3 to 5");
        long xs = c.intArg(1), ys = c.intArg(2);
        int y = scatter ? 2 : 0;
        check(c, y, DType.F32, ys);
        if (!scatter) return () -> SimKernels.storeFloats(c, 0, new float[(int) ys]);
        check(c, 0, DType.F32, xs);
        check(c, 1, DType.I64, xs);
        return () -> {   // the whole of Y: phase 0's zeros, then the scatter
            float[] x = SimKernels.inFloats(c, 0), out = new float[(int) ys];
            ByteBuffer idx = SimKernels.in(c, 1);
            for (int e = 0; e < xs; e++) {
                long at = unpoolTarget(c, idx.getLong(8 * e));
                out[(int) at] = x[e];
            }
            SimKernels.storeFloats(c, 2, out);
        };
    }

    /** Where flat index {@code f} of the inferred shape lands in Y; outside the inferred shape refused. */
    private static long unpoolTarget(KernelCall c, long f) {
        int rank = i(c, 3);
        long total = 1;
        for (int d = 0; d < rank; d++) total *= c.intArg(4 + d);
        if (f < 0 || f >= total) throw new IndexOutOfRangeException("'" + c.label() + "': max_unpool index " + f + " is outside [0, " + total + ") (the inferred output shape)");
        long at = 0, stride = 1;
        for (int d = rank - 1; d >= 0; d--) {
            long inferred = c.intArg(4 + d);
            at += f % inferred * stride;
            f /= inferred;
            stride *= c.intArg(4 + rank + d);
        }
        return at;
    }

    static void check(KernelCall c, int k, DType t, long elements) {
        if (SimKernels.count(c, k, t) != elements)
            throw new DeviceException("'" + c.label() + "': " + c.name() + " argument " + c.pointer(k).tensor() + " holds " + SimKernels.count(c, k, t) + " "
                    + t.jsonName() + " elements, not " + elements);
    }
}
