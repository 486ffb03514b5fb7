package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#RECURRENT} (ONNX LSTM, GRU, RNN), layout documented there: per
 * direction and batch row, the steps in order, each gate's pre-activation summed in the documented
 * order in f32, activations computed in double and rounded to f32.
 */
final class RecurrentKernels {
    /** Pointer slots in the kernel's full signature. */
    private static final int X = 0, W = 1, R = 2, B = 3, LENS = 4, H0 = 5, C0 = 6, P = 7, Y = 8, YH = 9, YC = 10, SLOTS = 11;

    private RecurrentKernels() { }

    /** The call's shape checked now, the computation to run later. */
    static Runnable bind(KernelCall c) {
        if (c.ints().length < 25 || c.floats().length < 13)
            throw new DeviceException("'" + c.label() + "': kernel recurrent takes 25 ints and 13 floats, got " + c.ints().length + " and " + c.floats().length);
        int[] slot = new int[SLOTS];
        int n = 3;
        for (int s = 0; s < SLOTS; s++) slot[s] = s < 3 ? s : c.intArg(17 + s - 3) == 1 ? n++ : -1;
        if (c.pointers().size() != n)
            throw new DeviceException("'" + c.label() + "': kernel recurrent's presence flags name " + n + " pointers, the call has " + c.pointers().size());
        return () -> run(c, slot);
    }

    private static float[] floats(KernelCall c, int k) {
        return k < 0 ? null : SimKernels.inFloats(c, k);
    }

    private static void run(KernelCall c, int[] slot) {
        int cell = i(c, 0), seq = i(c, 1), batch = i(c, 2), input = i(c, 3), hidden = i(c, 4), dirs = i(c, 5);
        boolean reverse = c.intArg(6) == 1, batchFirst = c.intArg(7) == 1, lbr = c.intArg(8) == 1, inputForget = c.intArg(9) == 1;
        boolean clip = c.intArg(10) == 1;
        float bound = (float) c.floatArg(0);
        int gates = cell == Kernels.CELL_LSTM ? 4 : cell == Kernels.CELL_GRU ? 3 : 1;
        int acts = cell == Kernels.CELL_LSTM ? 3 : cell == Kernels.CELL_GRU ? 2 : 1;
        float[] x = floats(c, slot[X]), w = floats(c, slot[W]), r = floats(c, slot[R]), bias = floats(c, slot[B]);
        float[] h0 = floats(c, slot[H0]), c0 = floats(c, slot[C0]), peep = floats(c, slot[P]);
        int[] lens = new int[batch];
        if (slot[LENS] >= 0) {
            ByteBuffer b = SimKernels.in(c, slot[LENS]);
            for (int k = 0; k < batch; k++) {
                lens[k] = b.getInt(4 * k);
                if (lens[k] < 0 || lens[k] > seq)
                    throw new DeviceException("'" + c.label() + "': sequence_lens[" + k + "] = " + lens[k] + " is outside [0, " + seq + "]");
            }
        } else {
            java.util.Arrays.fill(lens, seq);
        }
        float[] y = slot[Y] >= 0 ? new float[seq * dirs * batch * hidden] : null;
        float[] yh = slot[YH] >= 0 ? new float[dirs * batch * hidden] : null;
        float[] yc = slot[YC] >= 0 ? new float[dirs * batch * hidden] : null;
        int gh = gates * hidden;
        float[] h = new float[hidden], next = new float[hidden], cs = new float[hidden], rh = new float[hidden];
        for (int d = 0; d < dirs; d++) {
            boolean back = d == 1 || reverse;
            int[] act = new int[acts];
            float[] alpha = new float[acts], beta = new float[acts];
            for (int k = 0; k < acts; k++) {
                act[k] = i(c, 11 + d * acts + k);
                alpha[k] = (float) c.floatArg(1 + d * acts + k);
                beta[k] = (float) c.floatArg(7 + d * acts + k);
            }
            int wd = d * gh * input, rd = d * gh * hidden, bd = d * 2 * gh, pd = d * 3 * hidden;
            for (int b = 0; b < batch; b++) {
                int state = stateIndex(batchFirst, d, b, dirs, batch, hidden);
                for (int j = 0; j < hidden; j++) {
                    h[j] = h0 == null ? 0f : h0[state + j];
                    cs[j] = c0 == null ? 0f : c0[state + j];
                }
                int len = lens[b];
                for (int s = 0; s < len; s++) {
                    int t = back ? len - 1 - s : s;
                    int xo = batchFirst ? (b * seq + t) * input : (t * batch + b) * input;
                    if (cell == Kernels.CELL_GRU) {
                        for (int j = 0; j < hidden; j++) {          // phase 1: z (kept in next), r * h
                            float z = activate(act[0], alpha[0], beta[0], clip(clip, bound, pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 0, j)));
                            float rr = activate(act[0], alpha[0], beta[0], clip(clip, bound, pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 1, j)));
                            next[j] = z;
                            rh[j] = lbr ? rr : rr * h[j];
                        }
                        for (int j = 0; j < hidden; j++) {          // phase 2: h~ and the new h
                            int row = 2 * hidden + j;
                            float a = dot(x, xo, w, wd + row * input, input);
                            if (lbr) {
                                float rec = dot(h, 0, r, rd + row * hidden, hidden);
                                if (bias != null) rec += bias[bd + gh + row];
                                a += rh[j] * rec;
                                if (bias != null) a += bias[bd + row];
                            } else {
                                a += dot(rh, 0, r, rd + row * hidden, hidden);
                                if (bias != null) {
                                    a += bias[bd + row];
                                    a += bias[bd + gh + row];
                                }
                            }
                            float ht = activate(act[1], alpha[1], beta[1], clip(clip, bound, a));
                            float z = next[j];
                            next[j] = (1f - z) * ht + z * h[j];
                        }
                    } else if (cell == Kernels.CELL_LSTM) {
                        for (int j = 0; j < hidden; j++) {
                            float ai = pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 0, j);
                            float ao = pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 1, j);
                            float af = pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 2, j);
                            float ac = pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 3, j);
                            if (peep != null) {
                                ai += peep[pd + j] * cs[j];
                                af += peep[pd + 2 * hidden + j] * cs[j];
                            }
                            float gi = activate(act[0], alpha[0], beta[0], clip(clip, bound, ai));
                            float gf = inputForget ? 1f - gi : activate(act[0], alpha[0], beta[0], clip(clip, bound, af));
                            float gc = activate(act[1], alpha[1], beta[1], clip(clip, bound, ac));
                            float cn = gf * cs[j] + gi * gc;
                            if (peep != null) ao += peep[pd + hidden + j] * cn;
                            float go = activate(act[0], alpha[0], beta[0], clip(clip, bound, ao));
                            cs[j] = cn;
                            next[j] = go * activate(act[2], alpha[2], beta[2], cn);
                        }
                    } else {
                        for (int j = 0; j < hidden; j++)
                            next[j] = activate(act[0], alpha[0], beta[0], clip(clip, bound, pre(x, xo, w, wd, r, rd, h, bias, bd, input, hidden, gh, 0, j)));
                    }
                    float[] swap = h;
                    h = next;
                    next = swap;
                    if (y != null) System.arraycopy(h, 0, y, yIndex(batchFirst, t, d, b, seq, dirs, batch, hidden), hidden);
                }
                if (yh != null) System.arraycopy(h, 0, yh, state, hidden);
                if (yc != null) System.arraycopy(cs, 0, yc, state, hidden);
            }
        }
        store(c, slot[Y], y);
        store(c, slot[YH], yh);
        store(c, slot[YC], yc);
    }

    private static int stateIndex(boolean batchFirst, int d, int b, int dirs, int batch, int hidden) {
        return (batchFirst ? b * dirs + d : d * batch + b) * hidden;
    }

    private static int yIndex(boolean batchFirst, int t, int d, int b, int seq, int dirs, int batch, int hidden) {
        return (batchFirst ? (b * seq + t) * dirs + d : (t * dirs + d) * batch + b) * hidden;
    }

    /** Gate {@code gate}'s pre-activation of unit j: x.W row, then h.R row, then Wb, then Rb. */
    private static float pre(float[] x, int xo, float[] w, int wd, float[] r, int rd, float[] h, float[] bias, int bd,
                             int input, int hidden, int gh, int gate, int j) {
        int row = gate * hidden + j;
        float a = dot(x, xo, w, wd + row * input, input);
        a += dot(h, 0, r, rd + row * hidden, hidden);
        if (bias != null) {
            a += bias[bd + row];
            a += bias[bd + gh + row];
        }
        return a;
    }

    private static float dot(float[] u, int uo, float[] v, int vo, int n) {
        float s = 0f;
        for (int k = 0; k < n; k++) s += u[uo + k] * v[vo + k];
        return s;
    }

    private static float clip(boolean on, float bound, float v) {
        return on ? Math.max(-bound, Math.min(bound, v)) : v;
    }

    /** ONNX's activation {@code code} ({@code ops.RecurrentOps#ACTIVATIONS}), in double, rounded to f32. */
    static float activate(int code, float alpha, float beta, float v) {
        double x = v;
        return (float) switch (code) {
            case 0 -> x < 0.0 ? 0.0 : x;
            case 1 -> Math.tanh(x);
            case 2 -> 1.0 / (1.0 + Math.exp(-x));
            case 3 -> (double) (alpha * v + beta);
            case 4 -> x >= 0 ? x : (double) (alpha * v);
            case 5 -> x >= alpha ? x : 0.0;
            case 6 -> alpha * Math.tanh((double) (beta * v));
            case 7 -> {
                double a = alpha * v + beta;
                yield a < 0.0 ? 0.0 : a > 1.0 ? 1.0 : a;
            }
            case 8 -> x >= 0 ? x : alpha * (Math.exp(x) - 1.0);
            case 9 -> x / (1.0 + Math.abs(x));
            case 10 -> Math.log1p(Math.exp(x));
            default -> throw new DeviceException("recurrent: unknown activation code " + code);
        };
    }

    private static void store(KernelCall c, int k, float[] v) {
        if (k < 0) return;
        KernelArg a = c.pointer(k);
        if (a.bytes() != 4L * v.length)
            throw new DeviceException("'" + c.label() + "': output " + a.tensor() + " has " + a.bytes() + " B, the kernel computes " + 4L * v.length);
        SimKernels.storeFloats(c, k, v);
    }
}
