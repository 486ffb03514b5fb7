package org.arenaplan.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@link OpRegistry} entries of the elementwise family beyond Add/Sub/Mul/Div/Sum/Relu/
 * Sigmoid/Tanh/Gelu: unary math and activations, Clip, Pow, Mod, the n-ary Max/Min/Mean, the
 * orderings, the logical and bitwise ops and PRelu, after the ONNX operator specifications
 * (https://onnx.ai/onnx/operators/). Attribute names and defaults are ONNX's; the importer
 * resolves each opset's form into them (Clip's min/max inputs from opset 11 stay inputs). Each
 * runs one kernel with an op code ({@code device.Kernels} UNARY, BINARY or COMPARE); the element
 * types each code takes are declared once in {@code device.ElementwiseMath} and summarised here.
 */
final class ElementwiseOps {

    private ElementwiseOps() { }

    static List<OpRegistry.E> entries() {
        List<OpRegistry.E> e = new ArrayList<>();
        String floats = "floats (f64, f32, f16, bf16)";
        for (String[] k : new String[][] {
                {OpKinds.EXP, "e^x"}, {OpKinds.LOG, "natural log"}, {OpKinds.SQRT, "square root"}, {OpKinds.RECIPROCAL, "1/x"},
                {OpKinds.FLOOR, "floor"}, {OpKinds.CEIL, "ceiling"}, {OpKinds.ROUND, "round half to even"},
                {OpKinds.ERF, "erf (Abramowitz-Stegun 7.1.26, |error| < 1.5e-7)"}, {OpKinds.SIN, "sine"}, {OpKinds.COS, "cosine"},
                {OpKinds.TAN, "tangent"}, {OpKinds.ASIN, "arcsine"}, {OpKinds.ACOS, "arccosine"}, {OpKinds.ATAN, "arctangent"},
                {OpKinds.SINH, "hyperbolic sine"}, {OpKinds.COSH, "hyperbolic cosine"}, {OpKinds.ASINH, "inverse hyperbolic sine"},
                {OpKinds.ACOSH, "inverse hyperbolic cosine"}, {OpKinds.ATANH, "inverse hyperbolic tangent"},
                {OpKinds.SOFTPLUS, "log(1 + e^x)"}, {OpKinds.SOFTSIGN, "x / (1 + |x|)"}, {OpKinds.HARD_SWISH, "x * max(0, min(1, x/6 + 1/2))"},
                {OpKinds.MISH, "x * tanh(softplus(x))"}}) {
            e.add(OpRegistry.unary(k[0]).doc(k[1] + "; " + floats));
        }
        e.add(OpRegistry.unary(OpKinds.ABS).doc("|x|; floats and integers"));
        e.add(OpRegistry.unary(OpKinds.NEG).doc("-x; floats and signed integers (wrapping)"));
        e.add(OpRegistry.unary(OpKinds.SIGN).doc("-1, 0 or 1 (NaN stays); floats and integers"));
        e.add(OpRegistry.unary(OpKinds.NOT).doc("logical not; bool"));
        e.add(OpRegistry.unary(OpKinds.BITWISE_NOT).doc("~x; integers"));
        e.add(OpRegistry.unary(OpKinds.HARD_SIGMOID).attrs(AttrSpec.real("alpha", 0.2), AttrSpec.real("beta", 0.5))
                .doc("max(0, min(1, alpha*x + beta)); " + floats));
        e.add(OpRegistry.unary(OpKinds.LEAKY_RELU).attrs(AttrSpec.real("alpha", 0.01)).doc("x < 0 ? alpha*x : x; " + floats));
        e.add(OpRegistry.unary(OpKinds.ELU).attrs(AttrSpec.real("alpha", 1.0)).doc("x < 0 ? alpha*(e^x - 1) : x; " + floats));
        e.add(OpRegistry.unary(OpKinds.SELU).attrs(AttrSpec.real("alpha", 1.6732632423543772), AttrSpec.real("gamma", 1.0507009873554805))
                .doc("gamma * (x <= 0 ? alpha*e^x - alpha : x); " + floats));
        e.add(OpRegistry.unary(OpKinds.CELU).attrs(AttrSpec.real("alpha", 1.0)).doc("max(0, x) + min(0, alpha*(e^(x/alpha) - 1)); " + floats));
        e.add(OpRegistry.unary(OpKinds.THRESHOLDED_RELU).attrs(AttrSpec.real("alpha", 1.0)).doc("x > alpha ? x : 0; " + floats));
        e.add(OpRegistry.unary(OpKinds.SHRINK).attrs(AttrSpec.real("bias", 0.0), AttrSpec.real("lambd", 0.5))
                .doc("x < -lambd ? x + bias : x > lambd ? x - bias : 0; " + floats));
        e.add(OpRegistry.op(OpKinds.IS_NAN, 1, 1).shape(ShapeRules::sameAsFirst).kernels(OpRegistry.UNARY).doc("bool: x is NaN; " + floats));
        e.add(OpRegistry.op(OpKinds.IS_INF, 1, 1).attrs(AttrSpec.integer("detect_negative", 1, 0, 1), AttrSpec.integer("detect_positive", 1, 0, 1))
                .shape(ShapeRules::sameAsFirst).kernels(OpRegistry.UNARY).doc("bool: x is an infinity of a detected sign; " + floats));
        e.add(OpRegistry.op(OpKinds.CLIP, 1, 3).attrs(unbounded("min"), unbounded("max"))
                .shape(ElementwiseOps::clipShape).inPlace(0).kernels(OpRegistry.UNARY, OpRegistry.BINARY, OpRegistry.COPY)
                .doc("min(max(x, min), max) (so max wins when min > max); bounds from the attributes (one kernel, floats), "
                        + "or from scalar inputs 1 and 2 (empty: unbounded; two binary calls, floats and integers)"));
        e.add(OpRegistry.op(OpKinds.POW, 2, 2).shape(ShapeRules::broadcast).inPlace(0).kernels(OpRegistry.BINARY)
                .doc("x^y, broadcasting; x float, int32 or int64 and y any number type (ONNX Pow-12); an integer result truncates; "
                        + "in place only over an input of the output's shape"));
        e.add(OpRegistry.elementwise(OpKinds.MOD).attrs(AttrSpec.flag("fmod"))
                .doc("fmod 0: remainder with the divisor's sign (integers); 1: with the dividend's (floats and integers)"));
        e.add(nary(OpKinds.MAX, "element-wise maximum (NaN propagates)").kernels(OpRegistry.BINARY, OpRegistry.COPY));
        e.add(nary(OpKinds.MIN, "element-wise minimum (NaN propagates)").kernels(OpRegistry.BINARY, OpRegistry.COPY));
        e.add(nary(OpKinds.MEAN, "sum, then divided by the input count; floats").kernels(OpRegistry.BINARY, OpRegistry.COPY, OpRegistry.UNARY));
        for (String k : List.of(OpKinds.LESS, OpKinds.GREATER, OpKinds.LESS_OR_EQUAL, OpKinds.GREATER_OR_EQUAL)) {
            e.add(OpRegistry.op(k, 2, 2).shape(ShapeRules::broadcast).kernels(OpRegistry.COMPARE)
                    .doc("bool, broadcasting; floats and integers (NaN compares false)"));
        }
        for (String k : List.of(OpKinds.AND, OpKinds.OR, OpKinds.XOR)) e.add(OpRegistry.elementwise(k).doc("bool"));
        for (String k : List.of(OpKinds.BITWISE_AND, OpKinds.BITWISE_OR, OpKinds.BITWISE_XOR)) e.add(OpRegistry.elementwise(k).doc("integers"));
        e.add(OpRegistry.elementwise(OpKinds.BIT_SHIFT).attrs(new AttrSpec("direction", AttrSpec.Type.STRING, true, null, 0, 0, 0, 0))
                .doc("direction LEFT or RIGHT; uint8 (ONNX's other unsigned types are not element types here)"));
        e.add(OpRegistry.op(OpKinds.PRELU, 2, 2).shape(ElementwiseOps::preluShape).inPlace(0, 1).kernels(OpRegistry.BINARY)
                .doc("x < 0 ? slope*x : x, slope broadcast to x's shape; floats and integers"));
        return e;
    }

    /** A float attribute whose absence means no bound (Clip's min and max). */
    private static AttrSpec unbounded(String name) {
        return new AttrSpec(name, AttrSpec.Type.FLOAT, false, null, 0, 0, 0, 0);
    }

    /** An n-ary op like Sum: y = f(x0, x1), then y = f(y, x2), ... (so only inputs 0 and 1 may be overwritten). */
    private static OpRegistry.E nary(String kind, String what) {
        return OpRegistry.op(kind, 1, Integer.MAX_VALUE).shape(ShapeRules::broadcast).inPlace(0, 1)
                .doc(what + ", broadcasting; n-ary, pairwise from the left (only inputs 0 and 1 may be overwritten)");
    }

    /** Clip: x's shape; the bounds, when given as inputs, are scalars (ONNX Clip-11: "tensor(T) ... must be a scalar"). */
    static long[] clipShape(OpAttrs a, long[][] in) {
        for (int i = 1; i < in.length; i++) {
            long n = 1;
            for (long d : in[i]) n *= d;
            if (n != 1) throw new GraphException("bound #" + i + " " + Arrays.toString(in[i]) + " must be a scalar (one element)");
        }
        return in[0].clone();
    }

    /** PRelu: slope broadcasts to X (unidirectionally); the output has X's shape. */
    static long[] preluShape(OpAttrs a, long[][] in) {
        long[] out = ShapeRules.broadcast(in[0], in[1]);
        if (!Arrays.equals(out, in[0])) throw new GraphException("slope " + Arrays.toString(in[1]) + " does not broadcast to X " + Arrays.toString(in[0]));
        return out;
    }
}
