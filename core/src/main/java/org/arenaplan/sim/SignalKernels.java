package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's signal and sequence kernels {@link Kernels#DFT}, {@link Kernels#REVERSE_SEQUENCE} and {@link Kernels#TFIDF}
 * (layouts and formulas documented there), which CUDA's signal.cuh follows step for step: the DFT
 * a direct sum per output element in double, the angle from {@code (k t) mod L}, rounded once.
 */
final class SignalKernels {
    private SignalKernels() { }

    /** The computation of {@code c}, or null when it is not one of these kernels. */
    static Runnable bind(KernelCall c) {
        if (c.name().equals(Kernels.REVERSE_SEQUENCE)) {
            SimKernels.need(c, 3, 6);
            SimKernels.elementBytes(c, 4);
            if (SimKernels.dtype(c, 5) != DType.I64) throw new DeviceException("'" + c.label() + "': reverse_sequence lengths must be int64");
            return () -> reverseSequence(c);
        }
        if (c.name().equals(Kernels.TFIDF)) {
            SimKernels.need(c, 2, 8);
            DType t = SimKernels.dtype(c, 2);
            if (t != DType.I64 && t != DType.I32) throw new DeviceException("'" + c.label() + "': tfidf tokens must be int64 or int32");
            return () -> tfidf(c, t);
        }
        if (!c.name().equals(Kernels.DFT)) return null;
        SimKernels.need(c, c.ints().length > 10 && c.intArg(10) == 1 ? 3 : 2, 12);
        DType t = SimKernels.dtype(c, 11);
        int mode = i(c, 6);
        if (!t.isFloat32Compute() && t != DType.F64) throw new DeviceException("'" + c.label() + "': dft does not compute " + t.jsonName());
        if (mode < Kernels.DFT_FORWARD || mode > Kernels.DFT_IRFFT) throw new DeviceException("'" + c.label() + "': unknown dft mode " + mode);
        if (i(c, 3) != 1 && i(c, 3) != 2) throw new DeviceException("'" + c.label() + "': dft input's last dim " + i(c, 3) + " is not 1 or 2");
        return () -> dft(c, t);
    }

    static void dft(KernelCall c, DType t) {
        int outer = i(c, 0), n = i(c, 1), inner = i(c, 2), inC = i(c, 3), length = i(c, 4), bins = i(c, 5), mode = i(c, 6);
        int frames = i(c, 7), step = i(c, 8), frameLength = i(c, 9);
        boolean windowed = c.intArg(10) == 1;
        ByteBuffer x = SimKernels.in(c, 0), w = windowed ? SimKernels.in(c, 1) : null;
        int yk = windowed ? 2 : 1;
        ByteBuffer y = SimKernels.out(c, yk);
        int outC = mode == Kernels.DFT_IRFFT ? 1 : 2;
        for (int o = 0; o < outer; o++)
            for (int f = 0; f < frames; f++)
                for (int k = 0; k < bins; k++)
                    for (int q = 0; q < inner; q++) {
                        double re = 0, im = 0;
                        if (mode == Kernels.DFT_IRFFT) {
                            int top = Math.min(n, length / 2 + 1);
                            for (int j = 0; j < top; j++) {
                                int at = ((o * n + j) * inner + q) * inC;
                                double xr = t.getDouble(x, at), xi = inC == 2 ? t.getDouble(x, at + 1) : 0;
                                double theta = 2 * Math.PI * (double) ((long) j * k % length) / length;
                                double weight = j == 0 || 2 * j == length ? 1 : 2;
                                re += weight * (xr * Math.cos(theta) - xi * Math.sin(theta));
                            }
                            re /= length;
                        } else {
                            double sign = mode == Kernels.DFT_INVERSE ? 1 : -1;
                            for (int s = 0; s < length; s++) {
                                int sample = f * step + s;
                                if (s >= frameLength || sample >= n) continue;
                                int at = ((o * n + sample) * inner + q) * inC;
                                double wt = windowed ? t.getDouble(w, s) : 1;
                                double xr = wt * t.getDouble(x, at), xi = inC == 2 ? wt * t.getDouble(x, at + 1) : 0;
                                double theta = 2 * Math.PI * (double) ((long) k * s % length) / length;
                                double cos = Math.cos(theta), sin = sign * Math.sin(theta);
                                re += xr * cos - xi * sin;
                                im += xi * cos + xr * sin;
                            }
                            if (mode == Kernels.DFT_INVERSE) {
                                re /= length;
                                im /= length;
                            }
                        }
                        int out = (((o * frames + f) * bins + k) * inner + q) * outC;
                        ReductionKernels.putReal(y, t, out, re);
                        if (outC == 2) ReductionKernels.putReal(y, t, out + 1, im);
                    }
        SimKernels.store(c, yk, y);
    }

    static void reverseSequence(KernelCall c) {
        long d0 = c.intArg(0), d1 = c.intArg(1), inner = c.intArg(2);
        int time = i(c, 3), es = i(c, 4);
        ByteBuffer x = SimKernels.in(c, 0), lens = SimKernels.in(c, 1), y = SimKernels.out(c, 2);
        long steps = time == 0 ? d0 : d1, batch = time == 0 ? d1 : d0;
        for (long b = 0; b < batch; b++) {
            long len = DType.I64.getLong(lens, (int) b);
            if (len < 0 || len > steps) throw new DeviceException("'" + c.label() + "': sequence_lens[" + b + "] = " + len + " is outside [0, " + steps + "]");
        }
        for (long e = 0; e < d0 * d1 * inner; e++) {
            long q = e % inner, i1 = (e / inner) % d1, i0 = e / (inner * d1);
            long t = time == 0 ? i0 : i1, b = time == 0 ? i1 : i0;
            long len = DType.I64.getLong(lens, (int) b);
            long src = t < len ? len - 1 - t : t;
            long from = ((time == 0 ? src * d1 + b : b * d1 + src) * inner + q) * es;
            for (int k = 0; k < es; k++) y.put((int) (e * es + k), x.get((int) (from + k)));
        }
        SimKernels.store(c, 2, y);
    }

    static void tfidf(KernelCall c, DType t) {
        int rows = i(c, 0), cols = i(c, 1), outSize = i(c, 3), mode = i(c, 4), maxSkip = i(c, 5), grams = i(c, 7);
        boolean weighted = c.intArg(6) == 1;
        ByteBuffer x = SimKernels.in(c, 0), y = SimKernels.out(c, 1);
        for (int r = 0; r < rows; r++)
            for (int o = 0; o < outSize; o++) {
                long count = 0;
                for (int g = 0, at = 8; g < grams; g++, at += 2 + i(c, at)) {
                    int size = i(c, at);
                    if (c.intArg(at + 1) != o) continue;
                    for (int d = 1; d <= (size == 1 ? 1 : maxSkip + 1); d++)
                        for (int s = 0; s + (size - 1) * d < cols; s++) {
                            boolean match = true;
                            for (int j = 0; j < size && match; j++) match = t.getLong(x, r * cols + s + j * d) == c.intArg(at + 2 + j);
                            if (match) count++;
                        }
                }
                double w = weighted ? c.floats()[o] : 1;
                double v = mode == 0 ? count : mode == 1 ? (count > 0 ? w : 0) : w * count;
                y.putFloat((r * outSize + o) * 4, (float) v);
            }
        SimKernels.store(c, 1, y);
    }
}
