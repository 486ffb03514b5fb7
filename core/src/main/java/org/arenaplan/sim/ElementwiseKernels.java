package org.arenaplan.sim;

import org.arenaplan.device.DataException;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.ElementwiseMath;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;

import java.nio.ByteBuffer;

/**
 * The simulator's {@link Kernels#UNARY}, {@link Kernels#BINARY} and {@link Kernels#COMPARE}:
 * each element is decoded by its {@link DType} (floats to double, integers and bool to long),
 * computed by {@link ElementwiseMath} and encoded back, so every type the op takes runs the one
 * formula. Checks the call at bind (argument sizes, op code against the types) and runs later.
 */
final class ElementwiseKernels {
    private ElementwiseKernels() { }

    static Runnable unary(KernelCall c) {
        need(c, 2, 3);
        int n = SimKernels.i(c, 0), op = SimKernels.i(c, 1);
        DType t = SimKernels.dtype(c, 2);
        DType yt = c.ints().length > 3 && c.intArg(3) != 0 ? SimKernels.dtype(c, 3) : t;
        if (!ElementwiseMath.unaryTakes(op, t) || (ElementwiseMath.unaryYieldsBool(op) ? yt != DType.BOOL : yt != t))
            throw new DeviceException("'" + c.label() + "': unary op " + op + " does not take " + t.jsonName() + " to " + yt.jsonName());
        elements(c, 0, t, n);
        elements(c, 1, yt, n);
        double alpha = c.floats().length > 0 ? c.floatArg(0) : 0, beta = c.floats().length > 1 ? c.floatArg(1) : 0;
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), y = SimKernels.out(c, 1);
            for (int k = 0; k < n; k++) {
                if (t.isIntegral()) yt.putLong(y, k, ElementwiseMath.unary(op, t.getLong(x, k), t.isUnsigned(), alpha));
                else if (yt == DType.BOOL) yt.putLong(y, k, ElementwiseMath.unaryTest(op, getDouble(t, x, k), alpha, beta) ? 1 : 0);
                else putDouble(yt, y, k, ElementwiseMath.unary(op, getDouble(t, x, k), alpha, beta));
            }
            SimKernels.store(c, 1, y);
        };
    }

    static Runnable binary(KernelCall c) {
        int rank = SimKernels.i(c, 1);
        need(c, 3, 3 + 3 * rank);
        int op = SimKernels.i(c, 0);
        DType t = SimKernels.dtype(c, 2 + 3 * rank);
        DType bt = c.ints().length > 3 + 3 * rank && c.intArg(3 + 3 * rank) != 0 ? SimKernels.dtype(c, 3 + 3 * rank) : t;
        if (!ElementwiseMath.binaryTakes(op, t, bt))
            throw new DeviceException("'" + c.label() + "': binary op " + op + " does not take " + t.jsonName() + " and " + bt.jsonName());
        return broadcast(c, rank, t, (a, b, y, out, ia, ib) -> {
            try {
                if (t.isFloatingPoint()) putDouble(t, y, out, ElementwiseMath.binary(op, getDouble(t, a, ia), getDouble(bt, b, ib)));
                else if (bt.isFloatingPoint()) t.putLong(y, out, ElementwiseMath.powIntFloat(t.getLong(a, ia), getDouble(bt, b, ib)));
                else t.putLong(y, out, ElementwiseMath.binary(op, t.getLong(a, ia), bt.getLong(b, ib), t.isUnsigned()));
            } catch (ArithmeticException e) {
                throw new DataException("'" + c.label() + "': " + e.getMessage() + " (element " + out + ")");
            }
        });
    }

    static Runnable compare(KernelCall c) {
        int rank = SimKernels.i(c, 1);
        need(c, 3, 3 + 3 * rank);
        int op = SimKernels.i(c, 0);
        DType t = SimKernels.dtype(c, 2 + 3 * rank);
        if (!ElementwiseMath.compareTakes(op, t)) throw new DeviceException("'" + c.label() + "': compare op " + op + " does not take " + t.jsonName());
        return broadcast(c, rank, DType.BOOL, (a, b, y, out, ia, ib) -> y.put(out, (byte) ((t.isIntegral()
                ? ElementwiseMath.compare(op, t.getLong(a, ia), t.getLong(b, ib), t.isUnsigned())
                : ElementwiseMath.compare(op, getDouble(t, a, ia), getDouble(t, b, ib))) ? 1 : 0)));
    }

    /**
     * {@link Kernels#QUANTIZE}: QuantizeLinear (mode 0) and DequantizeLinear (mode 1), per tensor,
     * per axis or blocked (9th int block > 0: scale entry (o, a / block, i) of
     * [outer, ceil(axis / block), inner]).
     */
    static Runnable quantize(KernelCall c) {
        boolean hasZp = c.ints().length > 6 && c.intArg(6) == 1;
        need(c, hasZp ? 4 : 3, 7);
        int outer = SimKernels.i(c, 0), axis = SimKernels.i(c, 1), inner = SimKernels.i(c, 2), mode = SimKernels.i(c, 3);
        DType xt = SimKernels.dtype(c, 4), yt = SimKernels.dtype(c, 5);
        DType st = mode == 0 ? xt : yt, zt = mode == 0 ? yt : xt;
        boolean saturate = c.ints().length > 7 && c.intArg(7) != 0;   // absent reads as 0, as the CUDA kernel's zero-padded ints do
        int block = c.ints().length > 8 ? SimKernels.i(c, 8) : 0;
        if (mode == 0 ? !ElementwiseMath.quantizeTakes(xt, yt) : !ElementwiseMath.dequantizeTakes(xt, yt))
            throw new DeviceException("'" + c.label() + "': quantize mode " + mode + " does not take " + xt.jsonName() + " to " + yt.jsonName());
        int y = c.pointers().size() - 1;
        long n = (long) outer * axis * inner;
        long blocks = block > 0 ? (axis + (long) block - 1) / block : 0, scales = block > 0 ? outer * blocks * inner : axis;
        elements(c, 0, xt, n);
        elements(c, 1, st, scales);
        if (hasZp) elements(c, 2, zt, scales);
        elements(c, y, yt, n);
        boolean floatZ = zt.isFloat8() || zt == DType.F4E2M1;
        long[] range = quantizeRange(zt);
        return () -> {
            ByteBuffer x = SimKernels.in(c, 0), s = SimKernels.in(c, 1), z = hasZp ? SimKernels.in(c, 2) : null, out = SimKernels.out(c, y);
            for (int o = 0, k = 0; o < outer; o++) {
                for (int a = 0; a < axis; a++) {
                    for (int i = 0; i < inner; i++, k++) {
                        int e = block > 0 ? (int) ((o * blocks + a / block) * inner + i) : a;
                        float scale = st.getFloat(s, e);
                        if (floatZ) {                                   // x / scale + zp, or (x - zp) * scale, in f32
                            float zf = hasZp ? zt.getFloat(z, e) : 0;
                            if (mode == 1) yt.putFloat(out, k, (xt.getFloat(x, k) - zf) * scale);
                            else if (yt.isFloat8()) yt.putFloat8(out, k, xt.getFloat(x, k) / scale + zf, saturate);
                            else yt.putFloat(out, k, xt.getFloat(x, k) / scale + zf);
                            continue;
                        }
                        long zp = hasZp ? zt.getLong(z, e) : 0;
                        if (mode == 0) yt.putLong(out, k, ElementwiseMath.quantize(xt.getFloat(x, k), scale, zp, range[0], range[1]));
                        else yt.putFloat(out, k, ElementwiseMath.dequantize(xt.getLong(x, k), scale, zp));
                    }
                }
            }
            SimKernels.store(c, y, out);
        };
    }

    /** The saturation range of QuantizeLinear to integer type {@code t} (ONNX reference _QUANT_INTEGER_RANGES). */
    static long[] quantizeRange(DType t) {
        double[] r = t.range();   // the integer types' ranges; a float8 or float4 zero point never reads it
        return new long[] {(long) r[0], (long) r[1]};
    }

    /** One output element from element ia of a and ib of b. */
    private interface Element {
        void compute(ByteBuffer a, ByteBuffer b, ByteBuffer y, int out, int ia, int ib);
    }

    /** A two-operand broadcast call (ints from 2: shape[rank], aStride[rank], bStride[rank]) writing y of type {@code yt}. */
    private static Runnable broadcast(KernelCall c, int rank, DType yt, Element e) {
        int[] shape = new int[rank];
        int[][] s = SimKernels.shapeAndStrides(c, 2, rank, 2, shape);
        elements(c, 2, yt, product(shape));
        return () -> {
            ByteBuffer a = SimKernels.in(c, 0), b = SimKernels.in(c, 1), y = SimKernels.out(c, 2);
            SimKernels.forEachRow(shape, s, (out, at, inner, st) -> {
                for (int k = 0; k < inner; k++) e.compute(a, b, y, out + k, at[0] + k * st[0], at[1] + k * st[1]);
            });
            SimKernels.store(c, 2, y);
        };
    }

    private static void need(KernelCall c, int pointers, int ints) {
        if (c.pointers().size() != pointers || c.ints().length < ints)
            throw new DeviceException("'" + c.label() + "': kernel " + c.name() + " takes " + pointers + " pointers and " + ints
                    + " ints, got " + c.pointers().size() + " and " + c.ints().length);
    }

    /** Argument {@code k} must hold at least {@code n} elements of {@code t}. */
    private static void elements(KernelCall c, int k, DType t, long n) {
        long bytes = c.pointer(k).bytes();
        if (t.isPacked()) {
            if (bytes < t.byteSize(n))
                throw new DeviceException("'" + c.label() + "': argument " + c.pointer(k).tensor() + " (" + bytes + " B) holds fewer than " + n + " " + t.jsonName() + " elements (" + t.byteSize(n) + " B)");
            return;
        }
        if (bytes % t.bytes() != 0 || bytes / t.bytes() < n)
            throw new DeviceException("'" + c.label() + "': argument " + c.pointer(k).tensor() + " (" + bytes + " B) does not hold " + n + " " + t.jsonName() + " elements");
    }

    private static long product(int[] shape) {
        long p = 1;
        for (int d : shape) p *= d;
        return p;
    }

    /** A float element exactly, or an integer one as the nearest double (pow's exponent; uint64 unsigned). */
    private static double getDouble(DType t, ByteBuffer b, int i) {
        return t.getDouble(b, i);
    }

    /** Stores {@code v} rounded once to {@code t} (f16/bf16 through f32, as {@link DType#cast} does). */
    private static void putDouble(DType t, ByteBuffer b, int i, double v) {
        if (t == DType.F64) b.putDouble(i * 8, v);
        else t.putFloat(b, i, (float) v);
    }
}
