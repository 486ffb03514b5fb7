package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#LINEAR_ATTENTION} (layout and arithmetic documented there), which
 * linear_attention.cuh repeats step for step: one state column (b, h, m) at a time, f32, through
 * every step. Optional pointers are absent from the call; each present one is found by the has*
 * ints.
 */
final class LinearAttentionKernels {
    private LinearAttentionKernels() { }

    /** The computation of {@code c}, or null when it is not this family's kernel. */
    static Runnable bind(KernelCall c) {
        if (!c.name().equals(Kernels.LINEAR_ATTENTION)) return null;
        boolean past = c.intArg(6) == 1, decay = c.intArg(7) == 1, perKey = c.intArg(8) == 1, beta = c.intArg(9) == 1,
                perHead = c.intArg(10) == 1, present = c.intArg(11) == 1;
        SimKernels.need(c, 4 + (past ? 1 : 0) + (decay ? 1 : 0) + (beta ? 1 : 0) + (present ? 1 : 0), 14);
        DType t = SimKernels.dtype(c, 12), s = SimKernels.dtype(c, 13);
        for (DType x : new DType[]{t, s})
            if (x != DType.F32 && x != DType.F16 && x != DType.BF16) throw new DeviceException("'" + c.label() + "': linear_attention takes f32, f16 or bf16, not " + x.jsonName());
        int b = i(c, 0), steps = i(c, 1), hq = i(c, 2), hkv = i(c, 3), dk = i(c, 4), dv = i(c, 5);
        if (hkv < 1 || hq % hkv != 0 || dk < 1 || dv < 1) throw new DeviceException("'" + c.label() + "': linear_attention heads " + hq + "/" + hkv + " or sizes " + dk + ", " + dv + " out of range");
        int slot = 3;
        int pastAt = past ? slot++ : -1, decayAt = decay ? slot++ : -1, betaAt = beta ? slot++ : -1, outAt = slot++, presentAt = present ? slot : -1;
        long rows = (long) b * steps, state = (long) b * hkv * dk * dv;
        check(c, 0, t, rows * hq * dk);
        check(c, 1, t, rows * hkv * dk);
        check(c, 2, t, rows * hkv * dv);
        if (past) check(c, pastAt, s, state);
        if (decay) check(c, decayAt, t, rows * hkv * (perKey ? dk : 1));
        if (beta) check(c, betaAt, t, rows * (perHead ? hkv : 1));
        check(c, outAt, t, rows * hq * dv);
        if (present) check(c, presentAt, s, state);
        double scale = c.floatArg(0);
        int group = hq / hkv;
        return () -> {
            ByteBuffer q = SimKernels.in(c, 0), k = SimKernels.in(c, 1), v = SimKernels.in(c, 2), pb = past ? SimKernels.in(c, pastAt) : null,
                    gb = decay ? SimKernels.in(c, decayAt) : null, bb = beta ? SimKernels.in(c, betaAt) : null;
            ByteBuffer out = SimKernels.out(c, outAt), ps = present ? SimKernels.out(c, presentAt) : null;
            float[] col = new float[dk];
            for (int bh = 0; bh < b * hkv; bh++) {
                int n = bh / hkv, h = bh % hkv;
                for (int m = 0; m < dv; m++) {
                    for (int d = 0; d < dk; d++) col[d] = past ? s.getFloat(pb, (bh * dk + d) * dv + m) : 0f;
                    for (int step = 0; step < steps; step++) {
                        int row = n * steps + step, keys = (row * hkv + h) * dk;
                        if (decay)
                            for (int d = 0; d < dk; d++)
                                col[d] = (float) (col[d] * Math.exp(t.getFloat(gb, perKey ? keys + d : row * hkv + h)));
                        double u = t.getFloat(v, (row * hkv + h) * dv + m);
                        if (beta) {
                            double r = 0;
                            for (int d = 0; d < dk; d++) r += (double) col[d] * t.getFloat(k, keys + d);
                            u = (float) (t.getFloat(bb, perHead ? row * hkv + h : row) * (u - r));
                        }
                        for (int d = 0; d < dk; d++) col[d] = (float) (col[d] + t.getFloat(k, keys + d) * u);
                        for (int j = 0; j < group; j++) {
                            int head = h * group + j, queries = (row * hq + head) * dk;
                            double acc = 0;
                            for (int d = 0; d < dk; d++) acc += (double) t.getFloat(q, queries + d) * col[d];
                            t.putFloat(out, (row * hq + head) * dv + m, (float) (scale * acc));
                        }
                    }
                    if (present) for (int d = 0; d < dk; d++) s.putFloat(ps, (bh * dk + d) * dv + m, col[d]);
                }
            }
            SimKernels.store(c, outAt, out);
            if (present) SimKernels.store(c, presentAt, ps);
        };
    }

    private static void check(KernelCall c, int k, DType t, long elements) {
        if (SimKernels.count(c, k, t) != elements)
            throw new DeviceException("'" + c.label() + "': linear_attention argument " + c.pointer(k).tensor() + " holds " + SimKernels.count(c, k, t) + " elements, not " + elements);
    }
}
