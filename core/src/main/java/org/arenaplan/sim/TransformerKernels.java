package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.IndexOutOfRangeException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;

import static org.arenaplan.sim.SimKernels.i;

/**
 * The simulator's {@link Kernels#ROTARY} and {@link Kernels#ATTENTION} (layouts and arithmetic
 * documented there), which transformer.cuh repeats step for step. Optional pointers are absent
 * from the call; each present one is found by the has* flags.
 */
final class TransformerKernels {
    /** Attention's pointer slots in its full signature. */
    private static final int Q = 0, K = 1, V = 2, MASK = 3, PAST_K = 4, PAST_V = 5, NONPAD = 6, Y = 7, PRESENT_K = 8, PRESENT_V = 9, QK = 10, SLOTS = 11;
    /** Attention's ints, in order. */
    private static final int ATTENTION_INTS = 24;

    private TransformerKernels() { }

    /** The computation of {@code c}, or null when it is neither kernel. */
    static Runnable bind(KernelCall c) {
        switch (c.name()) {
            case Kernels.ROTARY: {
                boolean positions = c.intArg(6) == 1;
                SimKernels.need(c, positions ? 5 : 4, 11);
                for (int k = 0; k < c.pointers().size(); k++) SimKernels.count(c, k, positions && k == 3 ? DType.I64 : DType.F32);
                if (i(c, 4) % 2 != 0 || i(c, 4) > i(c, 3)) throw new DeviceException("'" + c.label() + "': rotary dim " + c.intArg(4) + " must be even and at most " + c.intArg(3));
                return () -> rotary(c);
            }
            case Kernels.ATTENTION: {
                int[] slot = attentionSlots(c);
                if (c.floats().length < 2) throw new DeviceException("'" + c.label() + "': kernel attention takes 2 floats, got " + c.floats().length);
                DType type = SimKernels.computeType(c, DType.F32, DType.F16);
                for (int s = 0; s < SLOTS; s++) {
                    if (slot[s] < 0) continue;
                    DType t = s == NONPAD ? DType.I64 : s == MASK && c.intArg(10) == 1 ? DType.BOOL : type;
                    SimKernels.count(c, slot[s], t);
                }
                int hq = i(c, 1), hkv = i(c, 2);
                if (hkv < 1 || hq % hkv != 0) throw new DeviceException("'" + c.label() + "': " + hq + " query heads are not a multiple of " + hkv + " key heads");
                return () -> attention(c, slot, type);
            }
            default:
                return null;
        }
    }

    /** The call pointer of each slot, -1 where absent (Q, K, V and Y always present). */
    private static int[] attentionSlots(KernelCall c) {
        if (c.ints().length < ATTENTION_INTS) throw new DeviceException("'" + c.label() + "': kernel attention takes " + ATTENTION_INTS + " ints, got " + c.ints().length);
        boolean[] present = new boolean[SLOTS];
        present[Q] = present[K] = present[V] = present[Y] = true;
        present[MASK] = c.intArg(9) == 1;
        present[PAST_K] = present[PAST_V] = c.intArg(16) == 1;
        present[NONPAD] = c.intArg(17) == 1;
        present[PRESENT_K] = c.intArg(18) == 1;
        present[PRESENT_V] = c.intArg(19) == 1;
        present[QK] = c.intArg(20) == 1;
        int[] slot = new int[SLOTS];
        int n = 0;
        for (int s = 0; s < SLOTS; s++) slot[s] = present[s] ? n++ : -1;
        if (c.pointers().size() != n) throw new DeviceException("'" + c.label() + "': kernel attention takes " + n + " pointers for its ints, got " + c.pointers().size());
        return slot;
    }


    /** Argument {@code k}, of type {@code t}, widened to f32. */
    private static float[] read(KernelCall c, int k, DType t) {
        return WideKernels.decode(t, SimKernels.in(c, k), SimKernels.count(c, k, t));
    }

    /** {@code v} stored over argument {@code k} in type {@code t}, one rounding per value. */
    private static void store(KernelCall c, int k, DType t, float[] v) {
        if (t == DType.F32) {
            SimKernels.storeFloats(c, k, v);
            return;
        }
        ByteBuffer b = SimKernels.out(c, k);
        for (int e = 0; e < v.length; e++) t.putFloat(b, e, v[e]);
        SimKernels.store(c, k, b);
    }

    private static long[] longs(KernelCall c, int k) {
        LongBuffer b = SimKernels.in(c, k).asLongBuffer();
        long[] v = new long[b.remaining()];
        b.get(v);
        return v;
    }


    static void rotary(KernelCall c) {
        int batch = i(c, 0), seq = i(c, 1), heads = i(c, 2), d = i(c, 3), rd = i(c, 4);
        boolean interleaved = c.intArg(5) == 1, hasPos = c.intArg(6) == 1;
        long sb = c.intArg(7), sh = c.intArg(8), ss = c.intArg(9), rows = c.intArg(10);
        float[] x = SimKernels.inFloats(c, 0), cos = SimKernels.inFloats(c, 1), sin = SimKernels.inFloats(c, 2);
        long[] pos = hasPos ? longs(c, 3) : null;
        float[] y = new float[x.length];
        int half = rd / 2;
        for (int b = 0; b < batch; b++) {
            for (int s = 0; s < seq; s++) {
                long row = b * (long) seq + s;
                if (hasPos) {
                    long p = pos[(int) row];
                    row = p < 0 ? p + rows : p;
                    if (row < 0 || row >= rows)
                        throw new IndexOutOfRangeException("'" + c.label() + "': position " + p + " (batch " + b + ", step " + s + ") is outside a cache of " + rows + " rows");
                }
                for (int h = 0; h < heads; h++) {
                    long base = b * sb + h * sh + s * ss;
                    for (int e = 0; e < d; e++) {
                        int at = (int) (base + e);
                        if (e >= rd) {
                            y[at] = x[at];
                            continue;
                        }
                        int i = interleaved ? e / 2 : e % half;
                        boolean first = interleaved ? e % 2 == 0 : e < half;
                        float x1 = x[(int) (base + (interleaved ? 2 * i : i))], x2 = x[(int) (base + (interleaved ? 2 * i + 1 : i + half))];
                        float cv = cos[(int) (row * half + i)], sv = sin[(int) (row * half + i)];
                        y[at] = first ? cv * x1 - sv * x2 : sv * x1 + cv * x2;
                    }
                }
            }
        }
        SimKernels.storeFloats(c, 4 - (hasPos ? 0 : 1), y);
    }

    /**
     * Attention of element type {@code t}: f32, or f16 widened to f32 on reading, computed as the
     * f32 kernel, each output rounded once to f16 on store ({@code Kernels.typeInt}: ONNX Runtime's
     * CPU rule for float16 nodes).
     */
    static void attention(KernelCall c, int[] slot, DType t) {
        int batch = i(c, 0), hq = i(c, 1), hkv = i(c, 2), sq = i(c, 3), skv = i(c, 4), past = i(c, 5), d = i(c, 6), dv = i(c, 7);
        boolean threeD = c.intArg(8) == 1, hasMask = c.intArg(9) == 1, maskBool = c.intArg(10) == 1;
        long mb = c.intArg(11), mh = c.intArg(12), mq = c.intArg(13);
        int tm = i(c, 14);
        boolean causal = c.intArg(15) == 1, hasNonpad = c.intArg(17) == 1;
        int mode = i(c, 21);
        long left = c.intArg(22), right = c.intArg(23);
        float scale = (float) c.floatArg(0), softcap = (float) c.floatArg(1);
        int total = past + skv, group = hq / hkv;
        float[] q = read(c, slot[Q], t), k = read(c, slot[K], t), v = read(c, slot[V], t);
        float[] pk = slot[PAST_K] >= 0 ? read(c, slot[PAST_K], t) : null, pv = slot[PAST_V] >= 0 ? read(c, slot[PAST_V], t) : null;
        float[] maskF = hasMask && !maskBool ? read(c, slot[MASK], t) : null;
        ByteBuffer maskB = hasMask && maskBool ? SimKernels.in(c, slot[MASK]) : null;
        long[] nonpad = hasNonpad ? longs(c, slot[NONPAD]) : null;
        float[] y = new float[batch * hq * sq * dv];
        float[] qk = slot[QK] >= 0 ? new float[batch * hq * sq * total] : null;
        Layout l = new Layout(threeD, hq, hkv, sq, skv, past, d, dv);
        for (int b = 0; b < batch; b++) {
            long offset = c.intArg(16) == 1 ? past : hasNonpad ? nonpad[b] - sq : 0;
            for (int h = 0; h < hq; h++) {
                int kh = h / group;
                for (int i = 0; i < sq; i++) {
                    // pass 1: bias, scores, the row's max; qk modes 0..2
                    boolean allMasked = true;
                    float max = Float.NEGATIVE_INFINITY;
                    float[] xs = new float[total];
                    for (int j = 0; j < total; j++) {
                        float bias = 0f;
                        if (hasMask) {
                            long at = b * mb + h * mh + i * mq + j;
                            bias = j >= tm ? Float.NEGATIVE_INFINITY : maskBool ? (maskB.get((int) at) != 0 ? 0f : Float.NEGATIVE_INFINITY) : maskF[(int) at];
                        }
                        bias = bias + (causal && j > i + offset ? Float.NEGATIVE_INFINITY : 0f);
                        long diff = i + offset - j;
                        bias = bias + ((left >= 0 && diff > left) || (right >= 0 && -diff > right) ? Float.NEGATIVE_INFINITY : 0f);
                        bias = bias + (hasNonpad && j >= nonpad[b] ? Float.NEGATIVE_INFINITY : 0f);
                        double dot = 0;
                        for (int e = 0; e < d; e++) dot += (double) q[l.q(b, h, i, e)] * (j < past ? pk[l.pastK(b, kh, j, e)] : k[l.k(b, kh, j - past, e)]);
                        float raw = (float) (dot * scale);
                        float capped = softcap > 0 ? (float) (softcap * Math.tanh(raw / softcap)) : raw;
                        float x = capped + bias;
                        if (bias != Float.NEGATIVE_INFINITY) allMasked = false;
                        if (x > max) max = x;
                        xs[j] = x;
                        if (qk != null && mode < 3) qk[((b * hq + h) * sq + i) * total + j] = mode == 0 ? raw : mode == 1 ? capped : x;
                    }
                    boolean zero = allMasked || max == Float.NEGATIVE_INFINITY;
                    double sum = 0;
                    for (int j = 0; j < total; j++) sum += Math.exp((double) xs[j] - max);
                    for (int j = 0; j < total; j++) {
                        float p = zero ? 0f : (float) (Math.exp((double) xs[j] - max) / sum);
                        if (qk != null && mode == 3) qk[((b * hq + h) * sq + i) * total + j] = p;
                        for (int e = 0; e < dv; e++) {
                            int at = l.y(b, h, i, e);
                            y[at] = y[at] + p * (j < past ? pv[l.pastV(b, kh, j, e)] : v[l.v(b, kh, j - past, e)]);
                        }
                    }
                }
            }
        }
        store(c, slot[Y], t, y);
        if (qk != null) store(c, slot[QK], t, qk);
        if (slot[PRESENT_K] >= 0 || slot[PRESENT_V] >= 0) {
            float[] presK = new float[batch * hkv * total * d], presV = new float[batch * hkv * total * dv];
            for (int b = 0; b < batch; b++)
                for (int h = 0; h < hkv; h++)
                    for (int j = 0; j < total; j++) {
                        for (int e = 0; e < d; e++) presK[((b * hkv + h) * total + j) * d + e] = j < past ? pk[l.pastK(b, h, j, e)] : k[l.k(b, h, j - past, e)];
                        for (int e = 0; e < dv; e++) presV[((b * hkv + h) * total + j) * dv + e] = j < past ? pv[l.pastV(b, h, j, e)] : v[l.v(b, h, j - past, e)];
                    }
            if (slot[PRESENT_K] >= 0) store(c, slot[PRESENT_K], t, presK);
            if (slot[PRESENT_V] >= 0) store(c, slot[PRESENT_V], t, presV);
        }
    }

    /** Element offsets of attention's tensors: [B, H, S, D], or [B, S, H*D] when threeD. */
    private record Layout(boolean threeD, int hq, int hkv, int sq, int skv, int past, int d, int dv) {
        private static int at(boolean threeD, int b, int h, int s, int e, int heads, int seq, int width) {
            return threeD ? ((b * seq + s) * heads + h) * width + e : ((b * heads + h) * seq + s) * width + e;
        }

        int q(int b, int h, int s, int e) { return at(threeD, b, h, s, e, hq, sq, d); }
        int k(int b, int h, int s, int e) { return at(threeD, b, h, s, e, hkv, skv, d); }
        int v(int b, int h, int s, int e) { return at(threeD, b, h, s, e, hkv, skv, dv); }
        int y(int b, int h, int s, int e) { return at(threeD, b, h, s, e, hq, sq, dv); }
        int pastK(int b, int h, int s, int e) { return at(false, b, h, s, e, hkv, past, d); }
        int pastV(int b, int h, int s, int e) { return at(false, b, h, s, e, hkv, past, dv); }
    }
}
