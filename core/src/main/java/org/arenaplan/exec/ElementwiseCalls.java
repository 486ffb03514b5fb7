package org.arenaplan.exec;

import org.arenaplan.device.ElementwiseMath;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The lowering of the elementwise kinds to {@link Kernels#UNARY}, {@link Kernels#BINARY},
 * {@link Kernels#COMPARE} and {@link Kernels#COPY} calls: one op code per kind (the tables
 * below), the attributes as the call's floats, element types checked against
 * {@link ElementwiseMath} so a device never sees a type its op code does not take. n-ary kinds
 * (Sum, Max, Min, Mean) run pairwise from the left into the output; Clip with bound inputs runs
 * max then min (so the upper bound wins when the bounds cross, as numpy.clip).
 */
final class ElementwiseCalls {
    /** Unary kinds and their op codes. */
    private static final Map<String, Integer> UNARY = Map.ofEntries(
            Map.entry(OpKinds.RELU, Kernels.RELU), Map.entry(OpKinds.SIGMOID, Kernels.SIGMOID), Map.entry(OpKinds.TANH, Kernels.TANH),
            Map.entry(OpKinds.ABS, Kernels.ABS), Map.entry(OpKinds.NEG, Kernels.NEG), Map.entry(OpKinds.EXP, Kernels.EXP),
            Map.entry(OpKinds.LOG, Kernels.LOG), Map.entry(OpKinds.SQRT, Kernels.SQRT), Map.entry(OpKinds.RECIPROCAL, Kernels.RECIPROCAL),
            Map.entry(OpKinds.FLOOR, Kernels.FLOOR), Map.entry(OpKinds.CEIL, Kernels.CEIL), Map.entry(OpKinds.ROUND, Kernels.ROUND),
            Map.entry(OpKinds.SIGN, Kernels.SIGN), Map.entry(OpKinds.ERF, Kernels.ERF), Map.entry(OpKinds.SIN, Kernels.SIN),
            Map.entry(OpKinds.COS, Kernels.COS), Map.entry(OpKinds.TAN, Kernels.TAN), Map.entry(OpKinds.ASIN, Kernels.ASIN),
            Map.entry(OpKinds.ACOS, Kernels.ACOS), Map.entry(OpKinds.ATAN, Kernels.ATAN), Map.entry(OpKinds.SINH, Kernels.SINH),
            Map.entry(OpKinds.COSH, Kernels.COSH), Map.entry(OpKinds.ASINH, Kernels.ASINH), Map.entry(OpKinds.ACOSH, Kernels.ACOSH),
            Map.entry(OpKinds.ATANH, Kernels.ATANH), Map.entry(OpKinds.SOFTPLUS, Kernels.SOFTPLUS), Map.entry(OpKinds.SOFTSIGN, Kernels.SOFTSIGN),
            Map.entry(OpKinds.HARD_SIGMOID, Kernels.HARD_SIGMOID), Map.entry(OpKinds.HARD_SWISH, Kernels.HARD_SWISH),
            Map.entry(OpKinds.LEAKY_RELU, Kernels.LEAKY_RELU), Map.entry(OpKinds.ELU, Kernels.ELU), Map.entry(OpKinds.SELU, Kernels.SELU),
            Map.entry(OpKinds.CELU, Kernels.CELU), Map.entry(OpKinds.THRESHOLDED_RELU, Kernels.THRESHOLDED_RELU),
            Map.entry(OpKinds.MISH, Kernels.MISH), Map.entry(OpKinds.SHRINK, Kernels.SHRINK), Map.entry(OpKinds.NOT, Kernels.NOT),
            Map.entry(OpKinds.BITWISE_NOT, Kernels.BITWISE_NOT), Map.entry(OpKinds.IS_NAN, Kernels.IS_NAN), Map.entry(OpKinds.IS_INF, Kernels.IS_INF));
    /** The attributes each parameterised unary kind passes as the call's floats [alpha, beta]. */
    private static final Map<String, List<String>> PARAMS = Map.of(
            OpKinds.HARD_SIGMOID, List.of("alpha", "beta"), OpKinds.LEAKY_RELU, List.of("alpha"), OpKinds.ELU, List.of("alpha"),
            OpKinds.SELU, List.of("alpha", "gamma"), OpKinds.CELU, List.of("alpha"), OpKinds.THRESHOLDED_RELU, List.of("alpha"),
            OpKinds.SHRINK, List.of("bias", "lambd"), OpKinds.IS_INF, List.of("detect_negative", "detect_positive"));
    /** Binary kinds (two inputs, or n-ary) and their op codes. */
    private static final Map<String, Integer> BINARY = Map.ofEntries(
            Map.entry(OpKinds.ADD, Kernels.ADD), Map.entry(OpKinds.SUB, Kernels.SUB), Map.entry(OpKinds.MUL, Kernels.MUL),
            Map.entry(OpKinds.DIV, Kernels.DIV), Map.entry(OpKinds.RELU_GRAD, Kernels.RELU_GRAD), Map.entry(OpKinds.POW, Kernels.POW),
            Map.entry(OpKinds.SUM, Kernels.ADD), Map.entry(OpKinds.MEAN, Kernels.ADD), Map.entry(OpKinds.MAX, Kernels.MAXIMUM),
            Map.entry(OpKinds.MIN, Kernels.MINIMUM), Map.entry(OpKinds.PRELU, Kernels.PRELU), Map.entry(OpKinds.AND, Kernels.AND),
            Map.entry(OpKinds.OR, Kernels.OR), Map.entry(OpKinds.XOR, Kernels.XOR), Map.entry(OpKinds.BITWISE_AND, Kernels.BITWISE_AND),
            Map.entry(OpKinds.BITWISE_OR, Kernels.BITWISE_OR), Map.entry(OpKinds.BITWISE_XOR, Kernels.BITWISE_XOR));
    private static final Map<String, Integer> COMPARE = Map.of(OpKinds.EQUAL, Kernels.EQUAL, OpKinds.LESS, Kernels.LESS,
            OpKinds.GREATER, Kernels.GREATER, OpKinds.LESS_OR_EQUAL, Kernels.LESS_OR_EQUAL, OpKinds.GREATER_OR_EQUAL, Kernels.GREATER_OR_EQUAL);

    private final OpLowering l;

    ElementwiseCalls(OpLowering l) {
        this.l = l;
    }

    static boolean handles(String kind) {
        return UNARY.containsKey(kind) || BINARY.containsKey(kind) || COMPARE.containsKey(kind)
                || kind.equals(OpKinds.GELU) || kind.equals(OpKinds.CLIP) || kind.equals(OpKinds.MOD) || kind.equals(OpKinds.BIT_SHIFT);
    }

    List<KernelCall> lower(Op op) {
        String k = op.kind();
        OpAttrs a = OpAttrs.of(op);
        if (k.equals(OpKinds.GELU)) {
            String approx = a.string("approximate");
            if (!approx.equals("none") && !approx.equals("tanh")) throw OpLowering.fail(op, "attribute approximate='" + approx + "' is neither 'none' nor 'tanh'");
            return List.of(unary(op, approx.equals("tanh") ? Kernels.GELU_TANH : Kernels.GELU, new double[0]));
        }
        if (UNARY.containsKey(k)) {
            List<String> names = PARAMS.getOrDefault(k, List.of());
            double[] f = new double[names.size()];
            for (int i = 0; i < f.length; i++) f[i] = a.real(names.get(i));
            if (k.equals(OpKinds.IS_INF)) for (int i = 0; i < f.length; i++) f[i] = a.integer(names.get(i));
            return List.of(unary(op, UNARY.get(k), f));
        }
        if (COMPARE.containsKey(k)) return List.of(compare(op, COMPARE.get(k)));
        if (k.equals(OpKinds.CLIP)) return clip(op, a);
        if (k.equals(OpKinds.MOD)) return List.of(binary(op, a.integer("fmod") == 1 ? Kernels.FMOD : Kernels.MOD, in(op, 0), in(op, 1), out(op)));
        if (k.equals(OpKinds.BIT_SHIFT)) {
            String d = a.string("direction");
            if (!d.equals("LEFT") && !d.equals("RIGHT")) throw OpLowering.fail(op, "attribute direction='" + d + "' is neither 'LEFT' nor 'RIGHT'");
            return List.of(binary(op, d.equals("LEFT") ? Kernels.SHIFT_LEFT : Kernels.SHIFT_RIGHT, in(op, 0), in(op, 1), out(op)));
        }
        int code = BINARY.get(k);
        if (op.inputs().size() == 2 && !k.equals(OpKinds.MEAN)) return List.of(binary(op, code, in(op, 0), in(op, 1), out(op)));
        return nary(op, code);
    }

    /** y = x0 op x1, then y = y op x2, ... (a fixed order); Mean then divides by the count. One input: a copy. */
    private List<KernelCall> nary(Op op, int code) {
        List<String> in = op.inputs();
        String y = out(op);
        List<KernelCall> calls = new ArrayList<>();
        if (in.size() == 1) calls.add(l.copy(op, in.get(0)));
        else calls.add(binary(op, code, in.get(0), in.get(1), y));
        for (int k = 2; k < in.size(); k++) calls.add(binary(op, code, y, in.get(k), y));
        if (op.kind().equals(OpKinds.MEAN)) calls.add(unaryOn(op, Kernels.DIV_BY, y, y, new double[] {in.size()}));
        return calls;
    }

    /** Clip: bounds from the attributes (one unary call), else from inputs 1 and 2 (max then min; absent ones skipped). */
    private List<KernelCall> clip(Op op, OpAttrs a) {
        String x = in(op, 0), y = out(op);
        if (op.inputs().size() == 1) {
            double lo = a.has("min") ? a.real("min") : Double.NEGATIVE_INFINITY, hi = a.has("max") ? a.real("max") : Double.POSITIVE_INFINITY;
            return List.of(unary(op, Kernels.CLIP, new double[] {lo, hi}));
        }
        if (a.has("min") || a.has("max")) throw OpLowering.fail(op, "give the bounds either as attributes or as inputs, not both");
        List<KernelCall> calls = new ArrayList<>();
        calls.add(binary(op, Kernels.MAXIMUM, x, in(op, 1), y));
        if (op.inputs().size() > 2) calls.add(binary(op, Kernels.MINIMUM, y, in(op, 2), y));
        return calls;
    }

    private KernelCall unary(Op op, int code, double[] floats) {
        return unaryOn(op, code, in(op, 0), out(op), floats);
    }

    private KernelCall unaryOn(Op op, int code, String x, String y, double[] floats) {
        DType t = l.dtype(x), yt = l.dtype(y);
        if (!ElementwiseMath.unaryTakes(code, t))
            throw OpLowering.fail(op, "tensor '" + x + "' is " + t.jsonName() + ", which " + op.kind() + " does not take (it takes "
                    + types(d -> ElementwiseMath.unaryTakes(code, d)) + ")");
        DType want = ElementwiseMath.unaryYieldsBool(code) ? DType.BOOL : t;
        if (yt != want) throw OpLowering.fail(op, "output '" + y + "' is " + yt.jsonName() + "; " + op.kind() + " of " + t.jsonName() + " writes " + want.jsonName());
        long n = l.elements(x);
        if (l.elements(y) != n) throw OpLowering.fail(op, "'" + x + "' has " + n + " elements, '" + y + "' " + l.elements(y));
        return l.call(op, Kernels.UNARY, List.of(l.read(x), l.write(y)), new long[] {n, code, t.onnxCode(), yt.onnxCode()}, floats);
    }

    /** y = a op b with numpy broadcasting; b may have another type only for pow. */
    private KernelCall binary(Op op, int code, String a, String b, String y) {
        DType t = l.dtype(a), bt = l.dtype(b);
        if (code != Kernels.POW && bt != t) throw OpLowering.fail(op, "'" + a + "' is " + t.jsonName() + " but '" + b + "' is " + bt.jsonName() + "; they must have one type");
        if (!ElementwiseMath.binaryTakes(code, t, bt))
            throw OpLowering.fail(op, "operands are " + t.jsonName() + (bt == t ? "" : " and " + bt.jsonName()) + ", which " + op.kind()
                    + " does not take (it takes " + types(d -> ElementwiseMath.binaryTakes(code, d, code == Kernels.POW ? bt : d)) + ")");
        if (l.dtype(y) != t) throw OpLowering.fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not " + t.jsonName());
        long[] bc = l.broadcast(op, l.shapeOf(op, y, a, b), a, b);
        long[] ints = Arrays.copyOf(new long[] {code}, 1 + bc.length + 2);
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 2] = t.onnxCode();
        ints[ints.length - 1] = bt.onnxCode();
        return l.call(op, Kernels.BINARY, List.of(l.read(a), l.read(b), l.write(y)), ints, new double[0]);
    }

    /** y (bool) = a op b, broadcasting. */
    private KernelCall compare(Op op, int code) {
        String a = in(op, 0), b = in(op, 1), y = out(op);
        DType t = l.sameType(op, a, b);
        if (!ElementwiseMath.compareTakes(code, t)) throw OpLowering.fail(op, "operands are " + t.jsonName() + ", which " + op.kind() + " does not take (numbers only)");
        if (l.dtype(y) != DType.BOOL) throw OpLowering.fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not bool");
        long[] bc = l.broadcast(op, l.shape(op, y), a, b);
        long[] ints = new long[bc.length + 2];
        ints[0] = code;
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 1] = t.onnxCode();
        return l.call(op, Kernels.COMPARE, List.of(l.read(a), l.read(b), l.write(y)), ints, new double[0]);
    }

    /** The element types {@code takes} accepts, for messages. */
    private static String types(java.util.function.Predicate<DType> takes) {
        List<String> names = new ArrayList<>();
        for (DType d : DType.values()) if (takes.test(d)) names.add(d.jsonName());
        return String.join(", ", names);
    }

    private static String in(Op op, int i) {
        if (i >= op.inputs().size()) throw OpLowering.fail(op, op.kind() + " needs input #" + i);
        return op.inputs().get(i);
    }

    private static String out(Op op) {
        return op.outputs().get(0);
    }
}
