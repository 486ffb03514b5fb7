package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.sim.SimKernels.F;

/**
 * The simulator's N-d image kernels: {@link Kernels#CONV_ND} (Conv and ConvTranspose),
 * {@link Kernels#POOL} (max, average and Lp pooling, global or windowed, dilated) and
 * {@link Kernels#RESIZE} (ONNX Resize), {@link Kernels#COL2IM} and {@link Kernels#AFFINE_GRID}, with
 * the argument layouts documented in {@link Kernels}.
 * One output element at a time, in the documented summation order, so the CUDA kernels
 * (image_nd.cuh, one thread per output element) give the same bits.
 */
final class ImageKernels {
    /** Most spatial axes of conv_nd and pool; most axes of resize. */
    static final int MAX_SPATIAL = 3, MAX_RESIZE_RANK = 6;

    private ImageKernels() { }

    /** Checks a call's layout at issue: rank, pointer count and int count. */
    static void check(KernelCall c) {
        int rank = (int) c.intArg(0);
        switch (c.name()) {
            case Kernels.CONV_ND -> {
                need(c, rank >= 1 && rank <= MAX_SPATIAL, "rank " + rank + " is not 1 to " + MAX_SPATIAL);
                need(c, c.ints().length >= 7 + 6 * rank, "takes " + (7 + 6 * rank) + " ints");
                need(c, c.pointers().size() == (c.intArg(5) == 1 ? 4 : 3), "takes " + (c.intArg(5) == 1 ? 4 : 3) + " pointers");
                need(c, c.intArg(4) >= 1 && c.intArg(2) % c.intArg(4) == 0 && c.intArg(3) % c.intArg(4) == 0, "group " + c.intArg(4) + " does not divide the channels");
            }
            case Kernels.POOL, Kernels.POOL_INDICES -> {
                need(c, rank >= 1 && rank <= MAX_SPATIAL, "rank " + rank + " is not 1 to " + MAX_SPATIAL);
                int ints = 5 + 7 * rank + (c.name().equals(Kernels.POOL) ? 0 : 1);
                need(c, c.ints().length >= ints && c.pointers().size() == 2, "takes 2 pointers and " + ints + " ints");
                need(c, c.intArg(2) >= Kernels.MAX && c.intArg(2) <= Kernels.LP, "mode " + c.intArg(2) + " is not 0, 1 or 2");
            }
            case Kernels.RESIZE -> {
                need(c, rank >= 1 && rank <= MAX_RESIZE_RANK, "rank " + rank + " is not 1 to " + MAX_RESIZE_RANK);
                need(c, c.ints().length >= 6 + 5 * rank && c.pointers().size() == 2 && c.floats().length >= 2, "takes 2 pointers, "
                        + (6 + 5 * rank) + " ints and 2 floats");
                need(c, c.intArg(1) >= 0 && c.intArg(1) <= 2 && c.intArg(2) >= 0 && c.intArg(2) <= 6 && c.intArg(3) >= 0 && c.intArg(3) <= 3,
                        "mode, coordinate mode or nearest mode out of range");
            }
            case Kernels.COL2IM -> {
                need(c, rank >= 1 && rank <= MAX_SPATIAL, "rank " + rank + " is not 1 to " + MAX_SPATIAL);
                need(c, c.ints().length >= 3 + 6 * rank && c.pointers().size() == 2, "takes 2 pointers and " + (3 + 6 * rank) + " ints");
            }
            case Kernels.GRID_SAMPLE -> {
                need(c, rank == 2 || rank == 3, "rank " + rank + " is not 2 or 3");
                need(c, c.ints().length >= 6 + 2 * rank && c.pointers().size() == 3, "takes 3 pointers and " + (6 + 2 * rank) + " ints");
            }
            case Kernels.AFFINE_GRID -> {
                int r = (int) c.intArg(1);
                need(c, r == 2 || r == 3, "rank " + r + " is not 2 or 3");
                need(c, c.ints().length >= 3 + r && c.pointers().size() == 2, "takes 2 pointers and " + (3 + r) + " ints");
            }
            default -> throw new IllegalArgumentException(c.name());
        }
        for (int k = 0; k < c.ints().length; k++) {
            if (c.name().equals(Kernels.RESIZE) && k >= 6 && (k - 6) % 5 >= 2) continue;   // double bits
            need(c, c.intArg(k) >= 0 && c.intArg(k) <= Integer.MAX_VALUE, "int #" + k + " = " + c.intArg(k) + " is not in [0, 2^31)");
        }
    }

    private static void need(KernelCall c, boolean ok, String why) {
        if (!ok) throw new DeviceException("'" + c.label() + "': kernel " + c.name() + ": " + why);
    }

    // ---- conv_nd ----

    static void convNd(KernelCall c, F[] f) {
        int rank = i(c, 0), n = i(c, 1), ch = i(c, 2), m = i(c, 3), group = i(c, 4);
        boolean hasBias = c.intArg(5) == 1, transposed = c.intArg(6) == 1;
        int[] in = axis(c, 7, 6, 0, rank), out = axis(c, 7, 6, 1, rank), k = axis(c, 7, 6, 2, rank);
        int[] st = axis(c, 7, 6, 3, rank), pad = axis(c, 7, 6, 4, rank), dil = axis(c, 7, 6, 5, rank);
        float[] x = f[0].a(), w = f[1].a(), y = f[hasBias ? 3 : 2].a();
        float[] b = hasBias ? f[2].a() : null;
        int cg = ch / group, mg = m / group;
        int inSize = product(in), outSize = product(out), kSize = product(k);
        int[] o = new int[rank], kk = new int[rank], pos = new int[rank];
        for (int img = 0; img < n; img++) {
            for (int mo = 0; mo < m; mo++) {
                int g = mo / mg;
                for (int e = 0; e < outSize; e++) {
                    unravel(e, out, o);
                    float acc = 0f, part = 0f;
                    for (int ci = 0; ci < cg; ci++) {
                        int cIn = g * cg + ci;
                        int xPlane = (img * ch + cIn) * inSize;
                        int wBase = transposed ? (cIn * mg + mo % mg) * kSize : (mo * cg + ci) * kSize;
                        for (int q = 0; q < kSize; q++) {
                            if ((ci * kSize + q) % Kernels.SUM_BLOCK == 0) {   // a block of the blocked sum begins
                                acc += part;
                                part = 0f;
                            }
                            unravel(q, k, kk);
                            if (!source(o, kk, in, st, pad, dil, transposed, pos)) continue;
                            part += x[xPlane + ravel(pos, in)] * w[wBase + q];
                        }
                    }
                    acc += part;
                    y[(img * m + mo) * outSize + e] = hasBias ? acc + b[mo] : acc;
                }
            }
        }
    }

    /** The input position that kernel position {@code kk} reads for output {@code o}; false when there is none. */
    private static boolean source(int[] o, int[] kk, int[] in, int[] st, int[] pad, int[] dil, boolean transposed, int[] pos) {
        for (int d = 0; d < o.length; d++) {
            long p;
            if (transposed) {
                long t = (long) o[d] + pad[d] - (long) kk[d] * dil[d];
                if (t < 0 || t % st[d] != 0) return false;
                p = t / st[d];
            } else {
                p = (long) o[d] * st[d] - pad[d] + (long) kk[d] * dil[d];
            }
            if (p < 0 || p >= in[d]) return false;
            pos[d] = (int) p;
        }
        return true;
    }

    // ---- pool ----

    static void pool(KernelCall c, F xs, F ys) {
        Pool p = new Pool(c);
        for (int plane = 0; plane < p.planes; plane++)
            for (int e = 0; e < p.outSize; e++) ys.a()[plane * p.outSize + e] = p.at(xs.a(), plane, e, null);
    }

    /** {@link Kernels#POOL_INDICES}: the flat index into x of each window's maximum (the first one, in window order). */
    static void poolIndices(KernelCall c, float[] x, java.nio.LongBuffer y) {
        Pool p = new Pool(c);
        long[] arg = new long[1];
        for (int plane = 0; plane < p.planes; plane++) {
            for (int e = 0; e < p.outSize; e++) {
                p.at(x, plane, e, arg);
                y.put(plane * p.outSize + e, (long) plane * p.inSize + arg[0]);
            }
        }
    }

    /** One pool call's geometry (ints as {@link Kernels#POOL}; {@link Kernels#POOL_INDICES} adds storageOrder). */
    private static final class Pool {
        final int rank, planes, mode, p, inSize, outSize, kSize;
        final boolean includePad, columnMajor;
        final int[] in, out, k, st, pb, pe, dil, o, kk;

        Pool(KernelCall c) {
            rank = i(c, 0);
            planes = i(c, 1);
            mode = i(c, 2);
            includePad = c.intArg(3) == 1;
            p = i(c, 4);
            in = axis(c, 5, 7, 0, rank);
            out = axis(c, 5, 7, 1, rank);
            k = axis(c, 5, 7, 2, rank);
            st = axis(c, 5, 7, 3, rank);
            pb = axis(c, 5, 7, 4, rank);
            pe = axis(c, 5, 7, 5, rank);
            dil = axis(c, 5, 7, 6, rank);
            columnMajor = c.name().equals(Kernels.POOL_INDICES) && c.intArg(5 + 7 * rank) == 1;
            inSize = product(in);
            outSize = product(out);
            kSize = product(k);
            o = new int[rank];
            kk = new int[rank];
        }

        /** Output {@code e} of {@code plane}; with {@code arg}, the maximum's index within the plane (storage order) goes to arg[0]. */
        float at(float[] x, int plane, int e, long[] arg) {
            unravel(e, out, o);
            float acc = mode == Kernels.MAX ? Float.NEGATIVE_INFINITY : 0f;
            long inside = 0, padded = 0, best = -1;
            for (int q = 0; q < kSize; q++) {
                unravel(q, k, kk);
                int at = 0, atColumn = 0, stride = 1;
                boolean in1 = true, inPad = true;
                for (int d = 0; d < rank; d++) {
                    long pos = (long) o[d] * st[d] - pb[d] + (long) kk[d] * dil[d];
                    if (pos < -pb[d] || pos >= (long) in[d] + pe[d]) inPad = false;
                    if (pos < 0 || pos >= in[d]) {
                        in1 = false;
                    } else {
                        at = at * in[d] + (int) pos;
                        atColumn += (int) pos * stride;
                        stride *= in[d];
                    }
                }
                if (inPad) padded++;
                if (!in1) continue;
                inside++;
                float v = x[plane * inSize + at];
                if (mode == Kernels.MAX) {
                    if (v > acc || best < 0) best = columnMajor ? atColumn : at;   // as CUDA's: a NaN does not win
                    acc = v > acc ? v : acc;
                } else if (mode == Kernels.AVERAGE) {
                    acc += v;
                } else {
                    acc += (float) Math.pow(Math.abs(v), p);   // pow in f64, rounded, as CUDA's
                }
            }
            if (arg != null) arg[0] = best;
            if (mode == Kernels.AVERAGE) acc /= includePad ? padded : inside;
            else if (mode == Kernels.LP) acc = (float) Math.pow(acc, 1.0 / p);
            return acc;
        }
    }

    // ---- col2im, affine_grid ----

    static void col2im(KernelCall c, F xs, F ys) {
        int rank = i(c, 0), n = i(c, 1), ch = i(c, 2);
        int[] image = axis(c, 3, 6, 0, rank), blocks = axis(c, 3, 6, 1, rank), k = axis(c, 3, 6, 2, rank);
        int[] st = axis(c, 3, 6, 3, rank), pad = axis(c, 3, 6, 4, rank), dil = axis(c, 3, 6, 5, rank);
        float[] x = xs.a(), y = ys.a();
        int outSize = product(image), kSize = product(k), l = product(blocks);
        int[] o = new int[rank], kk = new int[rank], pos = new int[rank];
        for (int plane = 0; plane < n * ch; plane++) {
            for (int e = 0; e < outSize; e++) {
                unravel(e, image, o);
                float acc = 0f;
                for (int q = 0; q < kSize; q++) {
                    unravel(q, k, kk);
                    if (!source(o, kk, blocks, st, pad, dil, true, pos)) continue;
                    acc += x[(plane * kSize + q) * l + ravel(pos, blocks)];
                }
                y[plane * outSize + e] = acc;
            }
        }
    }

    static void affineGrid(KernelCall c, F thetas, F grids) {
        int n = i(c, 0), r = i(c, 1);
        int[] ext = axis(c, 2, 1, 0, r);
        boolean align = c.intArg(2 + r) == 1;
        float[] theta = thetas.a(), grid = grids.a();
        int positions = product(ext);
        int[] at = new int[r];
        double[] base = new double[r];
        for (int img = 0; img < n; img++) {
            for (int e = 0; e < positions; e++) {
                unravel(e, ext, at);
                for (int j = 0; j < r; j++) {   // base j runs over width, height[, depth]: the axes from the last
                    int d = r - 1 - j;
                    base[j] = align ? (ext[d] == 1 ? 0 : -1 + 2.0 * at[d] / (ext[d] - 1)) : -1 + (2.0 * at[d] + 1) / ext[d];
                }
                for (int q = 0; q < r; q++) {
                    int t = (img * r + q) * (r + 1);
                    double v = 0;
                    for (int j = 0; j < r; j++) v += theta[t + j] * base[j];
                    grid[(img * positions + e) * r + q] = (float) (v + theta[t + r]);
                }
            }
        }
    }

    // ---- grid_sample ----

    static void gridSample(KernelCall c, F xs, F gs, F ys) {
        int r = i(c, 0), n = i(c, 1), ch = i(c, 2);
        int[] in = axis(c, 3, 1, 0, r), out = axis(c, 3 + r, 1, 0, r);
        int mode = i(c, 3 + 2 * r), padding = i(c, 4 + 2 * r);
        boolean align = c.intArg(5 + 2 * r) == 1;
        float[] x = xs.a(), grid = gs.a(), y = ys.a();
        int inSize = product(in), outSize = product(out);
        Taps[] taps = new Taps[r];
        for (int d = 0; d < r; d++) taps[d] = new Taps();
        int[] t = new int[r];
        for (int img = 0; img < n; img++) {
            for (int e = 0; e < outSize; e++) {
                for (int d = 0; d < r; d++) gridTaps(grid[(img * outSize + e) * r + (r - 1 - d)], in[d], mode, padding, align, taps[d]);
                for (int q = 0; q < ch; q++) {
                    int plane = (img * ch + q) * inSize;
                    double acc = 0;
                    java.util.Arrays.fill(t, 0);
                    while (true) {
                        double wgt = 1;
                        int at = 0;
                        boolean zero = false;
                        for (int d = 0; d < r; d++) {
                            wgt *= taps[d].weight[t[d]];
                            int idx = taps[d].index[t[d]];
                            if (idx < 0) zero = true;
                            at = at * in[d] + Math.max(idx, 0);
                        }
                        if (!zero) acc += wgt * x[plane + at];
                        int d = r - 1;
                        while (d >= 0 && ++t[d] == taps[d].count) t[d--] = 0;
                        if (d < 0) break;
                    }
                    y[(img * ch + q) * outSize + e] = (float) acc;
                }
            }
        }
    }

    /** The taps of normalised grid coordinate {@code g} on an axis of {@code len}: indices after padding (-1: a zero), weights. */
    static void gridTaps(double g, int len, int mode, int padding, boolean align, Taps taps) {
        double lo = align ? 0 : -0.5, hi = align ? len - 1 : len - 0.5;
        double v = align ? (g + 1) / 2.0 * (len - 1) : ((g + 1) * len - 1) / 2.0;
        if (mode == 0) v = Math.rint(v);   // half to even, as the node tests' outputs (2-D and 3-D)
        // cubic pads each of its four taps only, never the coordinate (PyTorch's grid_sampler bicubic, ONNX Runtime's GridSample):
        // a border coordinate clamped to len - 1 first would weigh the taps past it differently
        if (mode != 2 && (v < lo || v > hi)) {
            if (padding == 1) v = Math.max(0, Math.min(len - 1, v));
            else if (padding == 2) v = reflect(v, lo, hi);
        }
        if (mode == 0) {
            taps.count = 1;
            taps.index[0] = gridIndex((long) v, len, padding, lo, hi);
            taps.weight[0] = 1;
            return;
        }
        long x0 = (long) Math.floor(v);
        double f = v - x0;
        if (mode == 1) {
            taps.count = 2;
            taps.weight[0] = 1 - f;
            taps.weight[1] = f;
            for (int j = 0; j < 2; j++) taps.index[j] = gridIndex(x0 + j, len, padding, lo, hi);
            return;
        }
        double a = -0.75, q = 1 - f;
        taps.count = 4;
        taps.weight[0] = ((a * (f + 1) - 5 * a) * (f + 1) + 8 * a) * (f + 1) - 4 * a;
        taps.weight[1] = ((a + 2) * f - (a + 3)) * f * f + 1;
        taps.weight[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
        taps.weight[3] = ((a * (2 - f) - 5 * a) * (2 - f) + 8 * a) * (2 - f) - 4 * a;
        for (int j = 0; j < 4; j++) taps.index[j] = gridIndex(x0 - 1 + j, len, padding, lo, hi);
    }

    /** Index {@code i} under the padding mode: inside, -1 (zeros), clamped (border) or reflected (reflection). */
    private static int gridIndex(long i, int len, int padding, double lo, double hi) {
        if (padding == 0) return i >= 0 && i < len ? (int) i : -1;
        if (padding == 1) return (int) Math.max(0, Math.min(len - 1, i));
        return (int) Math.max(0, Math.min(len - 1, (long) reflect(i, lo, hi)));
    }

    /** Reflects {@code x} by the nearer border until it lies within [lo, hi] (onnx's reference _gs_reflect). */
    private static double reflect(double x, double lo, double hi) {
        double range = hi - lo;
        if (x < lo) {
            double dx = lo - x;
            long k = (long) (dx / range);
            double rest = dx - k * range;
            return k % 2 == 0 ? lo + rest : hi - rest;
        }
        if (x > hi) {
            double dx = x - hi;
            long k = (long) (dx / range);
            double rest = dx - k * range;
            return k % 2 == 0 ? hi - rest : lo + rest;
        }
        return x;
    }

    // ---- resize ----

    /** The taps of one output coordinate on one axis: input indices (clamped) and weights; count 0 means extrapolate. */
    static final class Taps {
        final int[] index = new int[64];
        final double[] weight = new double[64];
        int count;
    }

    static void resize(KernelCall c, F xs, F ys) {
        int rank = i(c, 0);
        int[] in = axis(c, 6, 5, 0, rank), out = axis(c, 6, 5, 1, rank);
        float[] x = xs.a(), y = ys.a();
        Taps[] taps = new Taps[rank];
        for (int d = 0; d < rank; d++) taps[d] = new Taps();
        int[] o = new int[rank], t = new int[rank];
        double extrapolation = c.floatArg(1);
        int outSize = product(out);
        for (int e = 0; e < outSize; e++) {
            unravel(e, out, o);
            boolean outside = false;
            for (int d = 0; d < rank; d++) {
                axisTaps(c, d, o[d], taps[d]);
                if (taps[d].count == 0) outside = true;
            }
            if (outside) {
                y[e] = (float) extrapolation;
                continue;
            }
            double acc = 0;
            java.util.Arrays.fill(t, 0);
            while (true) {
                double wgt = 1;
                int at = 0;
                for (int d = 0; d < rank; d++) {
                    wgt *= taps[d].weight[t[d]];
                    at = at * in[d] + taps[d].index[t[d]];
                }
                acc += wgt * x[at];
                int d = rank - 1;
                while (d >= 0 && ++t[d] == taps[d].count) t[d--] = 0;
                if (d < 0) break;
            }
            y[e] = (float) acc;
        }
    }

    /** The taps of output coordinate {@code xr} on axis {@code d} (onnx reference op_resize.py, _interpolate_1d_with_x). */
    static void axisTaps(KernelCall c, int d, int xr, Taps taps) {
        int mode = i(c, 1), coord = i(c, 2), nearest = i(c, 3);
        boolean exclude = c.intArg(4) == 1, antialias = c.intArg(5) == 1;
        int base = 6 + 5 * d;
        long inW = c.intArg(base), outW = c.intArg(base + 1);
        double scale = Double.longBitsToDouble(c.intArg(base + 2));
        double r0 = Double.longBitsToDouble(c.intArg(base + 3)), r1 = Double.longBitsToDouble(c.intArg(base + 4));
        double a = c.floatArg(0);
        double width = scale * inW;   // the real output width; outW is its integer
        double xo;
        switch (coord) {
            case 0 -> xo = (xr + 0.5) / scale - 0.5;
            case 1 -> {
                double adjustment = outW / width, center = inW / 2.0;
                xo = center * (1 - adjustment) + (xr + 0.5) / scale - 0.5;
            }
            case 2 -> xo = width == 1 ? -0.5 : (xr + 0.5) / scale - 0.5;
            case 3 -> xo = width == 1 ? 0 : xr * (double) (inW - 1) / (width - 1);
            case 4 -> xo = xr / scale;
            case 5 -> xo = (xr + 0.5) / scale;
            default -> {
                xo = width == 1 ? (r1 - r0) * (inW - 1) / 2 : xr * (r1 - r0) * (inW - 1) / (width - 1);
                xo += r0 * (inW - 1);
                if (xo < 0 || xo > inW - 1) {
                    taps.count = 0;
                    return;
                }
            }
        }
        double fl = Math.floor(xo);
        boolean whole = xo == fl;
        double ratio = whole ? 1 : xo - fl;
        long left = whole ? (long) fl - 1 : (long) fl;   // the tap left of xo, preferred on a whole coordinate
        int n;
        long first;
        if (mode == 0) {
            boolean right = whole || switch (nearest) {
                case 0 -> ratio > 0.5;
                case 1 -> ratio >= 0.5;
                case 2 -> false;
                default -> true;
            };
            taps.count = 1;
            taps.index[0] = clamp(left + (right ? 1 : 0), inW);
            taps.weight[0] = 1;
            return;
        }
        double s = antialias ? Math.min(scale, 1.0) : 1.0;
        if (mode == 1) {
            long start = antialias ? (long) Math.floor(-1 / s) + 1 : 0;
            n = (int) (2 - 2 * start);
            first = start;
            for (int j = 0; j < n; j++) {
                taps.weight[j] = antialias ? Math.min(1, Math.max(0, 1 - Math.abs((first + j - ratio) * s))) : (j == 0 ? 1 - ratio : ratio);
            }
        } else {
            if (antialias) {
                long start = (long) Math.floor(-2 / s) + 1;
                n = (int) (2 - 2 * start);
                first = start;
                for (int j = 0; j < n; j++) taps.weight[j] = cubic(Math.abs(s * (first + j - ratio)), a);
            } else {
                n = 4;
                first = -1;
                double r = ratio, q = 1 - ratio;
                taps.weight[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
                taps.weight[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
                taps.weight[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
                taps.weight[3] = ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a;
            }
        }
        if (n > taps.index.length) throw new DeviceException("'" + c.label() + "': resize filter of " + n + " taps (downscale " + scale + ") exceeds " + taps.index.length);
        double sum = 0;
        for (int j = 0; j < n; j++) {
            long idx = left + first + j;
            if (exclude && (idx < 0 || idx >= inW)) taps.weight[j] = 0;
            sum += taps.weight[j];
            taps.index[j] = clamp(idx, inW);
        }
        if (antialias || exclude) for (int j = 0; j < n; j++) taps.weight[j] /= sum;
        taps.count = n;
    }

    /** The cubic convolution kernel at distance {@code x} (Keys, with coefficient a). */
    private static double cubic(double x, double a) {
        if (x <= 1) return (a + 2) * x * x * x - (a + 3) * x * x + 1;
        if (x < 2) return a * x * x * x - 5 * a * x * x + 8 * a * x - 4 * a;
        return 0;
    }

    private static int clamp(long idx, long extent) {
        return (int) Math.max(0, Math.min(extent - 1, idx));
    }

    // ---- index helpers ----

    private static int i(KernelCall c, int k) {
        return SimKernels.i(c, k);
    }

    /** Field {@code field} of each of {@code rank} per-axis groups of {@code width} ints starting at int {@code from}. */
    private static int[] axis(KernelCall c, int from, int width, int field, int rank) {
        int[] v = new int[rank];
        for (int d = 0; d < rank; d++) v[d] = i(c, from + d * width + field);
        return v;
    }

    private static int product(int[] s) {
        int p = 1;
        for (int v : s) p = Math.multiplyExact(p, v);
        return p;
    }

    /** Row-major multi-index of flat index {@code e} in {@code shape}. */
    private static void unravel(int e, int[] shape, int[] idx) {
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = e % shape[d];
            e /= shape[d];
        }
    }

    private static int ravel(int[] idx, int[] shape) {
        int at = 0;
        for (int d = 0; d < shape.length; d++) at = at * shape[d] + idx[d];
        return at;
    }
}
