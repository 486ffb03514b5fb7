package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#CAUSAL_CONV} (layout and arithmetic documented there), which
 * state_space.cuh repeats step for step. Optional pointers are absent from the call; each present
 * one is found by the has* ints.
 */
final class StateSpaceKernels {
    private StateSpaceKernels() { }

    /** The computation of {@code c}, or null when it is not this family's kernel. */
    static Runnable bind(KernelCall c) {
        if (!c.name().equals(Kernels.CAUSAL_CONV)) return null;
        boolean bias = c.intArg(4) == 1, past = c.intArg(5) == 1, present = c.intArg(7) == 1;
        SimKernels.need(c, 3 + (bias ? 1 : 0) + (past ? 1 : 0) + (present ? 1 : 0), 9);
        DType t = SimKernels.dtype(c, 8);
        if (t != DType.F32 && t != DType.F16 && t != DType.BF16) throw new DeviceException("'" + c.label() + "': causal_conv takes f32, f16 or bf16, not " + t.jsonName());
        int b = i(c, 0), ch = i(c, 1), len = i(c, 2), k = i(c, 3);
        if (k < 1 || c.intArg(6) < 0 || c.intArg(6) > 1) throw new DeviceException("'" + c.label() + "': causal_conv kernel size " + k + " or activation " + c.intArg(6) + " out of range");
        int slot = 2;
        int biasAt = bias ? slot++ : -1, pastAt = past ? slot++ : -1, y = slot++, presentAt = present ? slot : -1;
        long[] want = {(long) b * ch * len, (long) ch * k, ch, (long) b * ch * (k - 1)};
        check(c, 0, t, want[0]);
        check(c, 1, t, want[1]);
        if (bias) check(c, biasAt, t, want[2]);
        if (past) check(c, pastAt, t, want[3]);
        check(c, y, t, want[0]);
        if (present) check(c, presentAt, t, want[3]);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), w = SimKernels.in(c, 1), bb = bias ? SimKernels.in(c, biasAt) : null, pb = past ? SimKernels.in(c, pastAt) : null;
            ByteBuffer out = SimKernels.out(c, y), state = present ? SimKernels.out(c, presentAt) : null;
            int pad = k - 1;
            for (int row = 0; row < b * ch; row++) {
                int channel = row % ch;
                for (int step = 0; step < len; step++) {
                    double acc = 0;
                    for (int j = 0; j < k; j++) acc += (double) t.getFloat(w, channel * k + j) * seq(t, x, pb, row, step + j, pad, len);
                    if (bias) acc += t.getFloat(bb, channel);
                    float v = SimKernels.rounded(t, acc);
                    if (c.intArg(6) == 1) v = SimKernels.rounded(t, v * (1.0 / (1.0 + Math.exp(-(double) v))));
                    t.putFloat(out, row * len + step, v);
                }
                if (present) for (int s = 0; s < pad; s++) t.putFloat(state, row * pad + s, (float) seq(t, x, pb, row, len + s, pad, len));
            }
            SimKernels.store(c, y, out);
            if (present) SimKernels.store(c, presentAt, state);
        };
    }

    /** Element j of row's padded sequence: past (or 0) below pad, then x. */
    private static double seq(DType t, ByteBuffer x, ByteBuffer past, int row, int j, int pad, int len) {
        if (j >= pad) return t.getFloat(x, row * len + j - pad);
        return past == null ? 0 : t.getFloat(past, row * pad + j);
    }


    private static void check(KernelCall c, int k, DType t, long elements) {
        if (SimKernels.count(c, k, t) != elements)
            throw new DeviceException("'" + c.label() + "': causal_conv argument " + c.pointer(k).tensor() + " holds " + SimKernels.count(c, k, t) + " elements, not " + elements);
    }
}
