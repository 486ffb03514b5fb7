package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

/**
 * The simulator's kernels, one Java method per name of {@link Kernels}, with the argument layout
 * documented there. Deterministic: every reduction runs in the documented order, so the same
 * inputs give the same bits whatever the addresses. Transcendentals are computed in double and
 * rounded to f32 (CUDA's may differ in the last bits).
 */
final class SimKernels {
    private SimKernels() { }

    /** A pointer argument resolved to the backing array and an element index. */
    record F(float[] a, int i) { }

    /** Checks the call's shape now (at issue) and returns the computation to run later. */
    static Runnable bind(KernelCall c) {
        int ptrs = c.pointers().size();
        switch (c.name()) {
            case Kernels.UNARY: need(c, 2, 2); return () -> unary(c, f(c, 0), f(c, 1));
            case Kernels.BINARY: need(c, 3, 2 + 3 * (int) c.intArg(1)); return () -> binary(c, f(c, 0), f(c, 1), f(c, 2));
            case Kernels.GEMM: need(c, c.intArg(8) == 1 ? 4 : 3, 12); return () -> gemm(c, ptrs);
            case Kernels.SOFTMAX: need(c, 2, 2); return () -> softmax(c, f(c, 0), f(c, 1));
            case Kernels.LAYERNORM: need(c, 4, 2); return () -> layernorm(c);
            case Kernels.BATCHNORM: need(c, 6, 3); return () -> batchnorm(c);
            case Kernels.CONV2D: need(c, c.intArg(16) == 1 ? 4 : 3, 17); return () -> conv2d(c);
            case Kernels.POOL2D: need(c, 2, 16); return () -> pool2d(c, f(c, 0), f(c, 1));
            case Kernels.LRN: need(c, 2, 4); return () -> lrn(c, f(c, 0), f(c, 1));
            case Kernels.TRANSPOSE: need(c, 2, 1 + 2 * (int) c.intArg(0)); return () -> transpose(c, f(c, 0), f(c, 1));
            case Kernels.COPY: need(c, 2, 1); return () -> copy(c, f(c, 0), f(c, 1));
            case Kernels.CONCAT_SLICE: need(c, 2, 4); return () -> concatSlice(c, f(c, 0), f(c, 1));
            case Kernels.REDUCE_SUM: need(c, 2, 3); return () -> TrainingKernels.reduceSum(c);
            case Kernels.GELU_GRAD: need(c, 3, 1); return () -> TrainingKernels.geluGrad(c);
            case Kernels.SOFTMAX_GRAD: need(c, 3, 2); return () -> TrainingKernels.softmaxGrad(c);
            case Kernels.LAYERNORM_GRAD: need(c, 4, 2); return () -> TrainingKernels.layerNormGrad(c);
            case Kernels.CONV2D_BACKWARD_DATA: need(c, 3, 16); return () -> TrainingKernels.convBackwardData(c);
            case Kernels.CONV2D_BACKWARD_FILTER: need(c, 3, 16); return () -> TrainingKernels.convBackwardFilter(c);
            default: throw new DeviceException("'" + c.label() + "': unknown kernel '" + c.name() + "'; known: " + Kernels.ALL + ", " + Kernels.TRAINING);
        }
    }

    private static void need(KernelCall c, int pointers, int ints) {
        if (c.pointers().size() != pointers || c.ints().length < ints)
            throw new DeviceException("'" + c.label() + "': kernel " + c.name() + " takes " + pointers + " pointers and " + ints
                    + " ints, got " + c.pointers().size() + " and " + c.ints().length);
    }

    static F f(KernelCall c, int k) {
        KernelArg a = c.pointer(k);
        return new F(SimDevice.words(a.pointer()), SimDevice.index(a.pointer()));
    }

    static int i(KernelCall c, int k) {
        return Math.toIntExact(c.intArg(k));
    }

    static void unary(KernelCall c, F x, F y) {
        int n = i(c, 0);
        int op = i(c, 1);
        float[] xa = x.a, ya = y.a;
        for (int k = 0; k < n; k++) {
            float v = xa[x.i + k];
            float r;
            switch (op) {
                case Kernels.RELU: r = v > 0 ? v : 0f; break;
                case Kernels.SIGMOID: r = (float) (1.0 / (1.0 + Math.exp(-v))); break;
                case Kernels.TANH: r = (float) Math.tanh(v); break;
                case Kernels.GELU: r = (float) (0.5 * v * (1.0 + erf(v / Math.sqrt(2.0)))); break;
                case Kernels.IDENTITY: r = v; break;
                default: throw new DeviceException("'" + c.label() + "': unknown unary op " + op);
            }
            ya[y.i + k] = r;
        }
    }

    /** erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
    static double erf(double x) {
        double t = 1.0 / (1.0 + 0.3275911 * Math.abs(x));
        double p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        double r = 1.0 - p * Math.exp(-x * x);
        return x >= 0 ? r : -r;
    }

    static void binary(KernelCall c, F a, F b, F y) {
        int op = i(c, 0);
        int rank = i(c, 1);
        int[] shape = new int[rank], sa = new int[rank], sb = new int[rank];
        long n = 1;
        for (int d = 0; d < rank; d++) {
            shape[d] = i(c, 2 + d);
            sa[d] = i(c, 2 + rank + d);
            sb[d] = i(c, 2 + 2 * rank + d);
            n *= shape[d];
        }
        if (n == 0) return;
        if (rank == 0) {
            y.a[y.i] = apply(c, op, a.a[a.i], b.a[b.i]);
            return;
        }
        int inner = shape[rank - 1], ia = sa[rank - 1], ib = sb[rank - 1];
        int[] idx = new int[rank];
        int out = y.i;
        for (long done = 0; done < n; done += inner) {
            int pa = a.i, pb = b.i;
            for (int d = 0; d < rank - 1; d++) { pa += idx[d] * sa[d]; pb += idx[d] * sb[d]; }
            for (int k = 0; k < inner; k++) y.a[out++] = apply(c, op, a.a[pa + k * ia], b.a[pb + k * ib]);
            for (int d = rank - 2; d >= 0; d--) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
    }

    private static float apply(KernelCall c, int op, float x, float z) {
        switch (op) {
            case Kernels.ADD: return x + z;
            case Kernels.SUB: return x - z;
            case Kernels.MUL: return x * z;
            case Kernels.DIV: return x / z;
            case Kernels.RELU_GRAD: return z > 0 ? x : 0f;
            default: throw new DeviceException("'" + c.label() + "': unknown binary op " + op);
        }
    }

    static void gemm(KernelCall c, int ptrs) {
        int batch = i(c, 0), m = i(c, 1), n = i(c, 2), kk = i(c, 3);
        boolean ta = c.intArg(4) == 1, tb = c.intArg(5) == 1;
        int bsa = i(c, 6), bsb = i(c, 7);
        boolean hasC = c.intArg(8) == 1;
        int cb = i(c, 9), cr = i(c, 10), cc = i(c, 11);
        float alpha = (float) c.floatArg(0), beta = (float) c.floatArg(1);
        F a = f(c, 0), b = f(c, 1), y = f(c, ptrs - 1);
        F cm = hasC ? f(c, 2) : null;
        float[] acc = new float[n];
        for (int bt = 0; bt < batch; bt++) {
            int a0 = a.i + bt * bsa, b0 = b.i + bt * bsb, y0 = y.i + bt * m * n;
            for (int r = 0; r < m; r++) {
                java.util.Arrays.fill(acc, 0f);
                for (int k = 0; k < kk; k++) {
                    float av = ta ? a.a[a0 + k * m + r] : a.a[a0 + r * kk + k];
                    if (tb) {
                        for (int j = 0; j < n; j++) acc[j] += av * b.a[b0 + j * kk + k];
                    } else {
                        int row = b0 + k * n;
                        for (int j = 0; j < n; j++) acc[j] += av * b.a[row + j];
                    }
                }
                for (int j = 0; j < n; j++) {
                    float v = alpha * acc[j];
                    if (hasC) v += beta * cm.a[cm.i + bt * cb + r * cr + j * cc];
                    y.a[y0 + r * n + j] = v;
                }
            }
        }
    }

    static void softmax(KernelCall c, F x, F y) {
        int rows = i(c, 0), cols = i(c, 1);
        for (int r = 0; r < rows; r++) {
            int xo = x.i + r * cols, yo = y.i + r * cols;
            float max = Float.NEGATIVE_INFINITY;
            for (int k = 0; k < cols; k++) max = Math.max(max, x.a[xo + k]);
            float sum = 0f;
            for (int k = 0; k < cols; k++) {
                float e = (float) Math.exp(x.a[xo + k] - max);
                y.a[yo + k] = e;
                sum += e;
            }
            for (int k = 0; k < cols; k++) y.a[yo + k] /= sum;
        }
    }

    static void layernorm(KernelCall c) {
        F x = f(c, 0), s = f(c, 1), b = f(c, 2), y = f(c, 3);
        int rows = i(c, 0), cols = i(c, 1);
        double eps = c.floatArg(0);
        for (int r = 0; r < rows; r++) {
            int xo = x.i + r * cols, yo = y.i + r * cols;
            double mean = 0;
            for (int k = 0; k < cols; k++) mean += x.a[xo + k];
            mean /= cols;
            double var = 0;
            for (int k = 0; k < cols; k++) { double d = x.a[xo + k] - mean; var += d * d; }
            var /= cols;
            double inv = 1.0 / Math.sqrt(var + eps);
            for (int k = 0; k < cols; k++) y.a[yo + k] = (float) ((x.a[xo + k] - mean) * inv * s.a[s.i + k] + b.a[b.i + k]);
        }
    }

    static void batchnorm(KernelCall c) {
        F x = f(c, 0), s = f(c, 1), b = f(c, 2), mean = f(c, 3), var = f(c, 4), y = f(c, 5);
        int n = i(c, 0), ch = i(c, 1), sp = i(c, 2);
        double eps = c.floatArg(0);
        for (int q = 0; q < ch; q++) {
            double inv = 1.0 / Math.sqrt(var.a[var.i + q] + eps);
            double mu = mean.a[mean.i + q], sc = s.a[s.i + q], bi = b.a[b.i + q];
            for (int img = 0; img < n; img++) {
                int o = (img * ch + q) * sp;
                for (int k = 0; k < sp; k++) y.a[y.i + o + k] = (float) ((x.a[x.i + o + k] - mu) * inv * sc + bi);
            }
        }
    }

    static void conv2d(KernelCall c) {
        int n = i(c, 0), ch = i(c, 1), h = i(c, 2), w = i(c, 3), m = i(c, 4), oh = i(c, 5), ow = i(c, 6);
        int kh = i(c, 7), kw = i(c, 8), sh = i(c, 9), sw = i(c, 10), pt = i(c, 11), pl = i(c, 12);
        int dh = i(c, 13), dw = i(c, 14), group = i(c, 15);
        boolean hasBias = c.intArg(16) == 1;
        F x = f(c, 0), wt = f(c, 1), y = f(c, hasBias ? 3 : 2);
        F bias = hasBias ? f(c, 2) : null;
        int cg = ch / group, mg = m / group;
        float[] acc = new float[oh * ow];
        float[] xa = x.a, wa = wt.a;
        for (int img = 0; img < n; img++) {
            for (int g = 0; g < group; g++) {
                for (int mo = g * mg; mo < (g + 1) * mg; mo++) {
                    java.util.Arrays.fill(acc, 0f);
                    for (int ci = 0; ci < cg; ci++) {
                        int xPlane = x.i + ((img * ch) + g * cg + ci) * h * w;
                        int wBase = wt.i + ((mo * cg) + ci) * kh * kw;
                        for (int a = 0; a < kh; a++) {
                            for (int bb = 0; bb < kw; bb++) {
                                float wv = wa[wBase + a * kw + bb];
                                int colOff = bb * dw - pl;
                                int lo = Math.max(0, ceilDiv(-colOff, sw));
                                int hi = Math.min(ow, floorDiv(w - 1 - colOff, sw) + 1);
                                for (int r = 0; r < oh; r++) {
                                    int ih = r * sh - pt + a * dh;
                                    if (ih < 0 || ih >= h) continue;
                                    int xr = xPlane + ih * w + colOff;
                                    int ar = r * ow;
                                    if (sw == 1) {
                                        for (int q = lo; q < hi; q++) acc[ar + q] += wv * xa[xr + q];
                                    } else {
                                        for (int q = lo; q < hi; q++) acc[ar + q] += wv * xa[xr + q * sw];
                                    }
                                }
                            }
                        }
                    }
                    int yo = y.i + (img * m + mo) * oh * ow;
                    float bv = hasBias ? bias.a[bias.i + mo] : 0f;
                    for (int k = 0; k < acc.length; k++) y.a[yo + k] = hasBias ? acc[k] + bv : acc[k];
                }
            }
        }
    }

    private static int ceilDiv(int a, int b) {
        return -Math.floorDiv(-a, b);
    }

    private static int floorDiv(int a, int b) {
        return Math.floorDiv(a, b);
    }

    static void pool2d(KernelCall c, F x, F y) {
        int n = i(c, 0), ch = i(c, 1), h = i(c, 2), w = i(c, 3), oh = i(c, 4), ow = i(c, 5);
        int kh = i(c, 6), kw = i(c, 7), sh = i(c, 8), sw = i(c, 9), pt = i(c, 10), pl = i(c, 11), pb = i(c, 12), pr = i(c, 13);
        boolean max = c.intArg(14) == Kernels.MAX;
        boolean includePad = c.intArg(15) == 1;
        for (int plane = 0; plane < n * ch; plane++) {
            int xo = x.i + plane * h * w, yo = y.i + plane * oh * ow;
            for (int r = 0; r < oh; r++) {
                for (int q = 0; q < ow; q++) {
                    int h0 = r * sh - pt, w0 = q * sw - pl;
                    int h1 = Math.min(h0 + kh, h + pb), w1 = Math.min(w0 + kw, w + pr);
                    int padCount = (h1 - h0) * (w1 - w0);
                    int hs = Math.max(h0, 0), ws = Math.max(w0, 0), he = Math.min(h1, h), we = Math.min(w1, w);
                    float v = max ? Float.NEGATIVE_INFINITY : 0f;
                    for (int a = hs; a < he; a++) {
                        for (int b = ws; b < we; b++) {
                            float e = x.a[xo + a * w + b];
                            v = max ? Math.max(v, e) : v + e;
                        }
                    }
                    if (!max) v /= includePad ? padCount : (he - hs) * (we - ws);
                    y.a[yo + r * ow + q] = v;
                }
            }
        }
    }

    static void lrn(KernelCall c, F x, F y) {
        int n = i(c, 0), ch = i(c, 1), sp = i(c, 2), size = i(c, 3);
        double alpha = c.floatArg(0), beta = c.floatArg(1), bias = c.floatArg(2);
        int before = (size - 1) / 2, after = size - 1 - before;
        for (int img = 0; img < n; img++) {
            for (int q = 0; q < ch; q++) {
                int lo = Math.max(0, q - before), hi = Math.min(ch - 1, q + after);
                for (int k = 0; k < sp; k++) {
                    double sq = 0;
                    for (int d = lo; d <= hi; d++) {
                        double v = x.a[x.i + (img * ch + d) * sp + k];
                        sq += v * v;
                    }
                    int at = (img * ch + q) * sp + k;
                    y.a[y.i + at] = (float) (x.a[x.i + at] / Math.pow(bias + alpha / size * sq, beta));
                }
            }
        }
    }

    static void transpose(KernelCall c, F x, F y) {
        int rank = i(c, 0);
        int[] shape = new int[rank], stride = new int[rank];
        long total = 1;
        for (int d = 0; d < rank; d++) {
            shape[d] = i(c, 1 + d);
            stride[d] = i(c, 1 + rank + d);
            total *= shape[d];
        }
        int[] idx = new int[rank];
        for (long o = 0; o < total; o++) {
            int src = x.i;
            for (int d = 0; d < rank; d++) src += idx[d] * stride[d];
            y.a[y.i + (int) o] = x.a[src];
            for (int d = rank - 1; d >= 0; d--) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
    }

    static void copy(KernelCall c, F x, F y) {
        System.arraycopy(x.a, x.i, y.a, y.i, i(c, 0));
    }

    static void concatSlice(KernelCall c, F x, F y) {
        int outer = i(c, 0), xi = i(c, 1), yi = i(c, 2), off = i(c, 3);
        for (int o = 0; o < outer; o++) System.arraycopy(x.a, x.i + o * xi, y.a, y.i + o * yi + off, xi);
    }
}
