package org.arenaplan.ops;

import org.arenaplan.device.ElementwiseMath;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;

/**
 * The kernel calls of the elementwise family ({@link ElementwiseOps}): {@link Kernels#UNARY},
 * {@link Kernels#BINARY} and {@link Kernels#COMPARE} with an op code, the attributes as the
 * call's floats, element types checked against {@link ElementwiseMath} so a device never sees a
 * type its op code does not take. n-ary kinds (Sum, Max, Min, Mean) run pairwise from the left
 * into the output; Clip with bound inputs runs max then min (so the upper bound wins when the
 * bounds cross, as numpy.clip).
 */
final class ElementwiseLowering {
    private ElementwiseLowering() { }

    /** y = op(x) over input 0 and output 0; {@code params} name the attributes passed as the floats [alpha, beta]. */
    static KernelCall unary(Op op, OpLowering l, int code, String... params) {
        OpAttrs a = OpAttrs.of(op);
        double[] f = new double[params.length];
        for (int i = 0; i < f.length; i++) f[i] = a.real(params[i]);
        return unaryOn(op, l, code, in(op, 0), out(op), f);
    }

    /** Gelu: approximate 'none' (erf) or 'tanh'. */
    static KernelCall gelu(Op op, OpLowering l) {
        String approx = OpAttrs.of(op).string("approximate");
        if (!approx.equals("none") && !approx.equals("tanh")) throw fail(op, "attribute approximate='" + approx + "' is neither 'none' nor 'tanh'");
        return unaryOn(op, l, approx.equals("tanh") ? Kernels.GELU_TANH : Kernels.GELU, in(op, 0), out(op), new double[0]);
    }

    static KernelCall unaryOn(Op op, OpLowering l, int code, String x, String y, double[] floats) {
        DType t = l.dtype(x), yt = l.dtype(y);
        if (!ElementwiseMath.unaryTakes(code, t))
            throw fail(op, "tensor '" + x + "' is " + t.jsonName() + ", which " + op.kind() + " does not take (it takes " + types(d -> ElementwiseMath.unaryTakes(code, d)) + ")");
        DType want = ElementwiseMath.unaryYieldsBool(code) ? DType.BOOL : t;
        if (yt != want) throw fail(op, "output '" + y + "' is " + yt.jsonName() + "; " + op.kind() + " of " + t.jsonName() + " writes " + want.jsonName());
        long n = l.elements(x);
        if (l.elements(y) != n) throw fail(op, "'" + x + "' has " + n + " elements, '" + y + "' " + l.elements(y));
        return l.call(op, Kernels.UNARY, List.of(l.read(x), l.write(y)), new long[] {n, code, t.onnxCode(), yt.onnxCode()}, floats);
    }

    /** y = a op b with numpy broadcasting; b may have another type only for pow. */
    static KernelCall binary(Op op, OpLowering l, int code, String a, String b, String y) {
        DType t = l.dtype(a), bt = l.dtype(b);
        if (code != Kernels.POW && bt != t) throw fail(op, "'" + a + "' is " + t.jsonName() + " but '" + b + "' is " + bt.jsonName() + "; they must have one type");
        if (!ElementwiseMath.binaryTakes(code, t, bt))
            throw fail(op, "operands are " + t.jsonName() + (bt == t ? "" : " and " + bt.jsonName()) + ", which " + op.kind()
                    + " does not take (it takes " + types(d -> ElementwiseMath.binaryTakes(code, d, code == Kernels.POW ? bt : d)) + ")");
        if (l.dtype(y) != t) throw fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not " + t.jsonName());
        long[] bc = l.broadcast(op, l.shapeOf(op, y, a, b), a, b);
        long[] ints = Arrays.copyOf(new long[] {code}, 1 + bc.length + 2);
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 2] = t.onnxCode();
        ints[ints.length - 1] = bt.onnxCode();
        return l.call(op, Kernels.BINARY, List.of(l.read(a), l.read(b), l.write(y)), ints);
    }

    /**
     * SwiGLU (ONNX SwiGLU-28): y = Swish_alpha(A) into the output, then y = y * B; two calls, so the
     * Swish is rounded to the element type before the product (as the ONNX function body, Swish then
     * Mul). In place over A only: over B the first call would overwrite B before it is read.
     */
    static List<KernelCall> swiglu(Op op, OpLowering l) {
        String a = in(op, 0), b = in(op, 1), y = out(op);
        if (!Arrays.equals(l.shape(op, a), l.shape(op, b))) throw fail(op, "A '" + a + "' and B '" + b + "' must have one shape (SwiGLU does not broadcast)");
        return List.of(unaryOn(op, l, Kernels.SWISH, a, y, new double[] {OpAttrs.of(op).real("alpha")}), binary(op, l, Kernels.MUL, y, b, y));
    }

    /** The two-input kinds: y = x0 op x1. */
    static List<KernelCall> binary(Op op, OpLowering l, int code) {
        return List.of(binary(op, l, code, in(op, 0), in(op, 1), out(op)));
    }

    /** y = x0 op x1, then y = y op x2, ... (a fixed order); {@code mean}: then divided by the count. One input: a copy. */
    static List<KernelCall> nary(Op op, OpLowering l, int code, boolean mean) {
        List<String> in = op.inputs();
        String y = out(op);
        List<KernelCall> calls = new ArrayList<>();
        if (in.size() == 1) calls.add(LayoutOps.copy(op, l, in.get(0)));
        else calls.add(binary(op, l, code, in.get(0), in.get(1), y));
        for (int k = 2; k < in.size(); k++) calls.add(binary(op, l, code, y, in.get(k), y));
        if (mean) calls.add(unaryOn(op, l, Kernels.DIV_BY, y, y, new double[] {in.size()}));
        return calls;
    }

    /** Clip: bounds from the attributes (one unary call; an absent one is no bound), else from inputs 1 and 2 (max then min). */
    static List<KernelCall> clip(Op op, OpLowering l) {
        OpAttrs a = OpAttrs.of(op);
        String x = in(op, 0), y = out(op);
        if (op.inputs().size() == 1) {
            double lo = a.has("min") ? a.real("min") : Double.NEGATIVE_INFINITY, hi = a.has("max") ? a.real("max") : Double.POSITIVE_INFINITY;
            return List.of(unaryOn(op, l, Kernels.CLIP, x, y, new double[] {lo, hi}));
        }
        if (a.has("min") || a.has("max")) throw fail(op, "give the bounds either as attributes or as inputs, not both");
        List<KernelCall> calls = new ArrayList<>();
        calls.add(binary(op, l, Kernels.MAXIMUM, x, in(op, 1), y));
        if (op.inputs().size() > 2) calls.add(binary(op, l, Kernels.MINIMUM, y, in(op, 2), y));
        return calls;
    }

    /** y (bool) = a op b, broadcasting. */
    static KernelCall compare(Op op, OpLowering l, int code) {
        String a = in(op, 0), b = in(op, 1), y = out(op);
        DType t = l.sameType(op, a, b);
        if (!ElementwiseMath.compareTakes(code, t)) throw fail(op, "operands are " + t.jsonName() + ", which " + op.kind() + " does not take (numbers only)");
        if (l.dtype(y) != DType.BOOL) throw fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not bool");
        long[] bc = l.broadcast(op, l.shape(op, y), a, b);
        long[] ints = new long[bc.length + 2];
        ints[0] = code;
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 1] = t.onnxCode();
        return l.call(op, Kernels.COMPARE, List.of(l.read(a), l.read(b), l.write(y)), ints);
    }

    /**
     * {@link Kernels#QUANTIZE}: mode 0 QuantizeLinear, 1 DequantizeLinear; per tensor, per index of
     * attr axis, or blocked (attr block_size > 0: the scale has x's shape with ceil(D / block_size)
     * along axis).
     */
    static KernelCall quantize(Op op, OpLowering l, int mode) {
        String x = in(op, 0), s = in(op, 1), z = op.inputs().size() > 2 ? op.inputs().get(2) : null, y = out(op);
        DType xt = l.dtype(x), st = l.dtype(s), yt = l.dtype(y);
        if (mode == 0 && (!ElementwiseMath.quantizeTakes(xt, yt) || st != xt || (z != null && l.dtype(z) != yt)))
            throw fail(op, "quantizes " + xt.jsonName() + " by a " + st.jsonName() + " scale to " + yt.jsonName()
                    + (z != null ? " with a " + l.dtype(z).jsonName() + " zero point" : "") + "; it takes f32, f16 or bf16 x, a scale of x's type, "
                    + "and int8, uint8, int16, uint16, int4, uint4, int2, uint2, float8 or float4e2m1 y and zero point");
        if (mode == 1 && (!ElementwiseMath.dequantizeTakes(xt, yt) || st != yt || (z != null && l.dtype(z) != xt)))
            throw fail(op, "dequantizes " + xt.jsonName() + " by a " + st.jsonName() + " scale to " + yt.jsonName()
                    + (z != null ? " with a " + l.dtype(z).jsonName() + " zero point" : "") + "; it takes int8, uint8, int16, uint16, int32, int4, uint4, int2 or uint2 x (and zero point) with an f32 scale and y, "
                    + "or float8 or float4e2m1 x (and zero point) with an f32, f16 or bf16 scale and y of its type");
        long[] xs = l.shape(op, x);
        long n = l.elements(x), per = l.elements(s), outer = 1, inner = n, axis = per;
        long block = OpAttrs.of(op).has("block_size") ? OpAttrs.of(op).integer("block_size") : 0;
        if (block > 0) {
            int a = axis(op, xs);
            long[] want = xs.clone();
            want[a] = (xs[a] + block - 1) / block;
            if (!Arrays.equals(l.shape(op, s), want))
                throw fail(op, "scale '" + s + "' is " + Arrays.toString(l.shape(op, s)) + ", not " + Arrays.toString(want) + " (blocks of " + block + " along axis " + a + ")");
            outer = OpLowering.product(Arrays.copyOf(xs, a));
            inner = OpLowering.product(Arrays.copyOfRange(xs, a + 1, xs.length));
            axis = xs[a];
        } else if (per != 1) {
            int a = axis(op, xs);
            if (xs[a] != per) throw fail(op, "scale '" + s + "' has " + per + " values, not one per index of axis " + a + " of " + Arrays.toString(xs));
            outer = OpLowering.product(Arrays.copyOf(xs, a));
            inner = OpLowering.product(Arrays.copyOfRange(xs, a + 1, xs.length));
        }
        if (z != null && l.elements(z) != per) throw fail(op, "zero point '" + z + "' has " + l.elements(z) + " values, the scale " + per);
        List<org.arenaplan.device.KernelArg> args = new ArrayList<>(List.of(l.read(x), l.read(s)));
        if (z != null) args.add(l.read(z));
        args.add(l.write(y));
        long saturate = mode == 0 ? OpAttrs.of(op).integer("saturate") : 0;
        return l.call(op, Kernels.QUANTIZE, args, new long[] {outer, axis, inner, mode, xt.onnxCode(), yt.onnxCode(), z != null ? 1 : 0, saturate, block});
    }


    private static int axis(Op op, long[] xs) {
        int a = (int) OpAttrs.of(op).integer("axis");
        if (a < 0) a += xs.length;
        if (a < 0 || a >= xs.length) throw fail(op, "axis " + OpAttrs.of(op).integer("axis") + " is out of range for " + Arrays.toString(xs));
        return a;
    }

    /** The element types {@code takes} accepts, for messages. */
    private static String types(Predicate<DType> takes) {
        List<String> names = new ArrayList<>();
        for (DType d : DType.values()) if (takes.test(d)) names.add(d.jsonName());
        return String.join(", ", names);
    }

    private static String in(Op op, int i) {
        if (i >= op.inputs().size()) throw fail(op, op.kind() + " needs input #" + i);
        return op.inputs().get(i);
    }
}
