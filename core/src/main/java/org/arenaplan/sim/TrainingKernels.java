package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's training kernels ({@link Kernels#TRAINING}, and {@link Kernels#OPTIMIZER}; layouts documented there). Every sum
 * runs in the documented order in f32, so results are the same bits whatever the addresses.
 */
final class TrainingKernels {
    private TrainingKernels() { }

    static void geluGrad(KernelCall c, SimKernels.F[] f) {
        int n = i(c, 0);
        SimKernels.F dy = f[0], x = f[1], dx = f[2];
        for (int k = 0; k < n; k++) {
            double v = x.a()[x.i() + k];
            double cdf = 0.5 * (1.0 + org.arenaplan.device.ElementwiseMath.erf(v / Math.sqrt(2.0)));
            double pdf = Math.exp(-0.5 * v * v) / Math.sqrt(2 * Math.PI);
            dx.a()[dx.i() + k] = (float) (dy.a()[dy.i() + k] * (cdf + v * pdf));
        }
    }

    static void softmaxGrad(KernelCall c, SimKernels.F[] f) {
        int rows = i(c, 0), cols = i(c, 1);
        SimKernels.F dy = f[0], y = f[1], dx = f[2];
        for (int r = 0; r < rows; r++) {
            int o = r * cols;
            float dot = 0f;
            for (int k = 0; k < cols; k++) dot += dy.a()[dy.i() + o + k] * y.a()[y.i() + o + k];
            for (int k = 0; k < cols; k++) dx.a()[dx.i() + o + k] = y.a()[y.i() + o + k] * (dy.a()[dy.i() + o + k] - dot);
        }
    }

    static void layerNormGrad(KernelCall c, SimKernels.F[] f) {
        int rows = i(c, 0), cols = i(c, 1);
        double eps = c.floats()[0];
        SimKernels.F dy = f[0], x = f[1], scale = f[2], dx = f[3];
        float[] xhat = new float[cols], g = new float[cols];
        for (int r = 0; r < rows; r++) {
            int o = r * cols;
            float mean = 0f;
            for (int k = 0; k < cols; k++) mean += x.a()[x.i() + o + k];
            mean /= cols;
            float var = 0f;
            for (int k = 0; k < cols; k++) {
                float d = x.a()[x.i() + o + k] - mean;
                var += d * d;
            }
            var /= cols;
            float inv = (float) (1.0 / Math.sqrt(var + eps));
            float meanG = 0f, meanGx = 0f;
            for (int k = 0; k < cols; k++) {
                xhat[k] = (x.a()[x.i() + o + k] - mean) * inv;
                g[k] = dy.a()[dy.i() + o + k] * scale.a()[scale.i() + k];
                meanG += g[k];
                meanGx += g[k] * xhat[k];
            }
            meanG /= cols;
            meanGx /= cols;
            for (int k = 0; k < cols; k++) dx.a()[dx.i() + o + k] = (g[k] - meanG - xhat[k] * meanGx) * inv;
        }
    }

    /** The conv2d geometry shared by both backward kernels (ints 0..15 of {@link Kernels#CONV2D}). */
    private record Geometry(int n, int ch, int h, int w, int m, int oh, int ow, int kh, int kw, int sh, int sw, int pt, int pl, int dh, int dw) {
        static Geometry of(KernelCall c) {
            if (i(c, 15) != 1) throw new DeviceException("'" + c.label() + "': " + c.name() + " supports group 1 only, got group " + i(c, 15));
            return new Geometry(i(c, 0), i(c, 1), i(c, 2), i(c, 3), i(c, 4), i(c, 5), i(c, 6), i(c, 7), i(c, 8),
                    i(c, 9), i(c, 10), i(c, 11), i(c, 12), i(c, 13), i(c, 14));
        }
    }

    static void convBackwardData(KernelCall c, SimKernels.F[] f) {
        Geometry g = Geometry.of(c);
        SimKernels.F dy = f[0], wt = f[1], dx = f[2];
        float[] acc = new float[g.ch * g.h * g.w];
        for (int img = 0; img < g.n; img++) {
            java.util.Arrays.fill(acc, 0f);
            for (int mo = 0; mo < g.m; mo++)
                for (int a = 0; a < g.kh; a++)
                    for (int b = 0; b < g.kw; b++)
                        for (int y = 0; y < g.oh; y++) {
                            int hy = y * g.sh - g.pt + a * g.dh;
                            if (hy < 0 || hy >= g.h) continue;
                            for (int xo = 0; xo < g.ow; xo++) {
                                int wx = xo * g.sw - g.pl + b * g.dw;
                                if (wx < 0 || wx >= g.w) continue;
                                float d = dy.a()[dy.i() + ((img * g.m + mo) * g.oh + y) * g.ow + xo];
                                for (int ci = 0; ci < g.ch; ci++)
                                    acc[(ci * g.h + hy) * g.w + wx] += d * wt.a()[wt.i() + ((mo * g.ch + ci) * g.kh + a) * g.kw + b];
                            }
                        }
            System.arraycopy(acc, 0, dx.a(), dx.i() + img * acc.length, acc.length);
        }
    }

    static void convBackwardFilter(KernelCall c, SimKernels.F[] f) {
        Geometry g = Geometry.of(c);
        SimKernels.F x = f[0], dy = f[1], dw = f[2];
        float[] acc = new float[g.m * g.ch * g.kh * g.kw];
        for (int img = 0; img < g.n; img++)
            for (int mo = 0; mo < g.m; mo++)
                for (int y = 0; y < g.oh; y++)
                    for (int xo = 0; xo < g.ow; xo++) {
                        float d = dy.a()[dy.i() + ((img * g.m + mo) * g.oh + y) * g.ow + xo];
                        for (int ci = 0; ci < g.ch; ci++)
                            for (int a = 0; a < g.kh; a++) {
                                int hy = y * g.sh - g.pt + a * g.dh;
                                if (hy < 0 || hy >= g.h) continue;
                                for (int b = 0; b < g.kw; b++) {
                                    int wx = xo * g.sw - g.pl + b * g.dw;
                                    if (wx < 0 || wx >= g.w) continue;
                                    acc[((mo * g.ch + ci) * g.kh + a) * g.kw + b] += d * x.a()[x.i() + ((img * g.ch + ci) * g.h + hy) * g.w + wx];
                                }
                            }
                    }
        System.arraycopy(acc, 0, dw.a(), dw.i(), acc.length);
    }

    /**
     * {@link Kernels#OPTIMIZER}: the update of one tensor by Adagrad, Adam or Momentum, element by
     * element in double, each output rounded once to f32 (formulas in {@link Kernels}).
     */
    static Runnable optimizer(KernelCall c) {
        int mode = c.ints().length < 2 ? -1 : i(c, 1);
        if (mode < Kernels.OPTIMIZER_ADAGRAD || mode > Kernels.OPTIMIZER_NESTEROV)
            throw new DeviceException("'" + c.label() + "': optimizer takes ints [n, mode] with mode 0..3, got " + java.util.Arrays.toString(c.ints()));
        int states = mode == Kernels.OPTIMIZER_ADAM ? 2 : 1;
        SimKernels.need(c, 5 + 2 * states, 2);   // r, t, x, g, the states, x', the states'
        if (c.floats().length < 6) throw new DeviceException("'" + c.label() + "': optimizer takes 6 floats, got " + c.floats().length);
        int n = i(c, 0);
        if (SimKernels.count(c, 0, org.arenaplan.ir.DType.F32) != 1 || SimKernels.count(c, 1, org.arenaplan.ir.DType.I64) != 1)
            throw new DeviceException("'" + c.label() + "': optimizer's r (f32) and t (int64) are scalars");
        for (int k = 2; k < 5 + 2 * states; k++)
            if (SimKernels.count(c, k, org.arenaplan.ir.DType.F32) != n)
                throw new DeviceException("'" + c.label() + "': optimizer argument " + c.pointer(k).tensor() + " does not hold n = " + n + " f32 elements");
        return () -> {
            float r = SimKernels.inFloats(c, 0)[0];
            long t = SimKernels.in(c, 1).getLong(0);
            float[] x = SimKernels.inFloats(c, 2), g = SimKernels.inFloats(c, 3), s1 = SimKernels.inFloats(c, 4);
            float[] s2 = states == 2 ? SimKernels.inFloats(c, 5) : null;
            float[] xNew = new float[n], s1New = new float[n], s2New = states == 2 ? new float[n] : null;
            double[] f = c.floats();
            double norm = f[0], alpha = f[1], beta = f[2], eps = f[3], decay = f[4], post = f[5];
            for (int k = 0; k < n; k++) {
                double xv = x[k], gr = norm * xv + g[k];
                switch (mode) {
                    case Kernels.OPTIMIZER_ADAGRAD -> {
                        double h = s1[k] + gr * gr;
                        s1New[k] = (float) h;
                        xNew[k] = (float) (xv - r / (1 + t * decay) * gr / (Math.sqrt(h) + eps));
                    }
                    case Kernels.OPTIMIZER_ADAM -> {
                        double v = alpha * s1[k] + (1 - alpha) * gr, h = beta * s2[k] + (1 - beta) * gr * gr;
                        double rt = t > 0 ? r * Math.sqrt(1 - Math.pow(beta, t)) / (1 - Math.pow(alpha, t)) : r;
                        s1New[k] = (float) v;
                        s2New[k] = (float) h;
                        xNew[k] = (float) ((1 - post) * (xv - rt * (v / (Math.sqrt(h) + eps))));
                    }
                    default -> {
                        double v = alpha * s1[k] + (t > 0 ? beta : 1) * gr;
                        s1New[k] = (float) v;
                        xNew[k] = (float) (mode == Kernels.OPTIMIZER_MOMENTUM ? xv - r * v : xv - r * (gr + alpha * v));
                    }
                }
            }
            int out = 4 + states;
            SimKernels.storeFloats(c, out, xNew);
            SimKernels.storeFloats(c, out + 1, s1New);
            if (states == 2) SimKernels.storeFloats(c, out + 2, s2New);
        };
    }
}
