package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.train.Backward;
import org.arenaplan.train.GradientRule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The elementwise family, on the {@link Kernels#UNARY}, {@link Kernels#BINARY} and
 * {@link Kernels#COMPARE} kernels with one op code per kind: Add, Sub, Mul, Div, Pow, Mod, PRelu,
 * the n-ary Sum, Max, Min, Mean (numpy broadcasting), the unary math and activations (attributes
 * and defaults ONNX's), IsNaN/IsInf, Clip, the orderings, the logical and bitwise ops, and
 * CastLike (imported as Cast), QuantizeLinear and DequantizeLinear ({@link Kernels#QUANTIZE}). Formulas and the element types each op code takes:
 * {@code device.ElementwiseMath}; the kernel calls: {@link ElementwiseLowering}; the ONNX import:
 * {@link ElementwiseImport}.
 *
 * <p>ONNX version differences in opsets 9..28 (Changelog.md): Clip's min/max move from attributes
 * to optional inputs at 11; Pow's exponent may have its own type from 12; the op types that
 * appear in the range are refused in older models (Round, BitShift 11; Mod, IsInf,
 * ThresholdedRelu 10; Celu, LessOrEqual, GreaterOrEqual 12; HardSwish 14; CastLike 15; Mish,
 * BitwiseNot/And/Or/Xor 18; Gelu 20; Swish 24; SwiGLU 28). The other versions only widen the type constraints (22:
 * bfloat16 for the trigonometric and hyperbolic ops, Elu, Selu, HardSigmoid, HardSwish, Mish,
 * Round, Softplus, Softsign, ThresholdedRelu; 28: bfloat16, float16 and double for Celu, which
 * computes every float type already). QuantizeLinear and DequantizeLinear: see
 * {@link ElementwiseImport#quantize}; CastLike: {@link TypeAndIndexOps}.
 */
final class ElementwiseOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String IS_INF = "IsInf", CLIP = "Clip", POW = "Pow", MOD = "Mod", MAX = "Max", MIN = "Min", BIT_SHIFT = "BitShift", PRELU = "PRelu";

    private static final String FLOATS = "floats (f64, f32, f16, bf16)";
    static final String QUANTIZE_LINEAR = "QuantizeLinear", DEQUANTIZE_LINEAR = "DequantizeLinear", SWIGLU = "SwiGLU";

    @Override
    public List<OpDefinition> definitions() {
        List<OpDefinition> d = new ArrayList<>();
        for (Object[] b : new Object[][] {{OpKinds.ADD, Kernels.ADD, (GradientRule) ElementwiseOps::addGradient},
                {OpKinds.SUB, Kernels.SUB, (GradientRule) ElementwiseOps::subGradient}, {OpKinds.MUL, Kernels.MUL, (GradientRule) ElementwiseOps::mulGradient},
                {"Div", Kernels.DIV, null}}) {
            int code = (Integer) b[1];
            d.add(elementwise((String) b[0]).doc("floats and integers (integer Div truncates toward zero)")
                    .lower((op, l) -> ElementwiseLowering.binary(op, l, code)).gradient((GradientRule) b[2]).onnx(ElementwiseImport::lower).build());
        }
        d.add(nary("Sum", Kernels.ADD, false, "n-ary add", 9));
        d.add(unary(OpKinds.RELU, Kernels.RELU, 9).doc("max(x, 0); floats and integers")
                .gradient((op, dy, b) -> b.accumulate(op.inputs().get(0), b.inPlaceOverDy(OpKinds.RELU_GRAD, op, dy, op.outputs().get(0)))).build());
        d.add(unary(OpKinds.SIGMOID, Kernels.SIGMOID, 9).doc(FLOATS).build());
        d.add(unary(OpKinds.TANH, Kernels.TANH, 9).doc(FLOATS).build());
        d.add(OpDefinition.op(OpKinds.GELU, 1, 1).attrs(new AttrSpec("approximate", AttrSpec.Type.STRING, false, "none", 0, 0, 0, 0))
                .shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.UNARY)
                .doc("approximate none: exact (erf based); tanh: Gelu-20's tanh formula; " + FLOATS)
                .lower((op, l) -> List.of(ElementwiseLowering.gelu(op, l)))
                .gradient((op, dy, b) -> b.accumulate(op.inputs().get(0), b.inPlaceOverDy(TrainingOps.GELU_GRAD, op, dy, op.inputs().get(0))))
                .onnx(OpKinds.GELU, 20, ElementwiseImport::lower).build());
        for (Object[] u : new Object[][] {
                {"Exp", Kernels.EXP, "e^x", 9}, {"Log", Kernels.LOG, "natural log", 9}, {"Sqrt", Kernels.SQRT, "square root", 9},
                {"Reciprocal", Kernels.RECIPROCAL, "1/x", 9}, {"Floor", Kernels.FLOOR, "floor", 9}, {"Ceil", Kernels.CEIL, "ceiling", 9},
                {"Round", Kernels.ROUND, "round half to even", 11}, {"Erf", Kernels.ERF, "erf (Abramowitz-Stegun 7.1.26, |error| < 1.5e-7)", 9},
                {"Sin", Kernels.SIN, "sine", 9}, {"Cos", Kernels.COS, "cosine", 9}, {"Tan", Kernels.TAN, "tangent", 9},
                {"Asin", Kernels.ASIN, "arcsine", 9}, {"Acos", Kernels.ACOS, "arccosine", 9}, {"Atan", Kernels.ATAN, "arctangent", 9},
                {"Sinh", Kernels.SINH, "hyperbolic sine", 9}, {"Cosh", Kernels.COSH, "hyperbolic cosine", 9},
                {"Asinh", Kernels.ASINH, "inverse hyperbolic sine", 9}, {"Acosh", Kernels.ACOSH, "inverse hyperbolic cosine", 9},
                {"Atanh", Kernels.ATANH, "inverse hyperbolic tangent", 9}, {"Softplus", Kernels.SOFTPLUS, "log(1 + e^x)", 9},
                {"Softsign", Kernels.SOFTSIGN, "x / (1 + |x|)", 9}, {"HardSwish", Kernels.HARD_SWISH, "x * max(0, min(1, x/6 + 1/2))", 14},
                {"Mish", Kernels.MISH, "x * tanh(softplus(x))", 18}}) {
            d.add(unary((String) u[0], (Integer) u[1], (Integer) u[3]).doc(u[2] + "; " + FLOATS).build());
        }
        d.add(unary("Abs", Kernels.ABS, 9).doc("|x|; floats and integers").build());
        d.add(unary("Neg", Kernels.NEG, 9).doc("-x; floats and signed integers (wrapping)").build());
        d.add(unary("Sign", Kernels.SIGN, 9).doc("-1, 0 or 1 (NaN stays); floats and integers").build());
        d.add(unary("Not", Kernels.NOT, 9).doc("logical not; bool").build());
        d.add(unary("BitwiseNot", Kernels.BITWISE_NOT, 18).doc("~x; integers").build());
        d.add(unary("HardSigmoid", Kernels.HARD_SIGMOID, 9, "alpha", "beta").attrs(AttrSpec.real("alpha", 0.2), AttrSpec.real("beta", 0.5))
                .doc("max(0, min(1, alpha*x + beta)); " + FLOATS).build());
        d.add(unary("LeakyRelu", Kernels.LEAKY_RELU, 9, "alpha").attrs(AttrSpec.real("alpha", 0.01)).doc("x < 0 ? alpha*x : x; " + FLOATS).build());
        d.add(unary("Elu", Kernels.ELU, 9, "alpha").attrs(AttrSpec.real("alpha", 1.0)).doc("x < 0 ? alpha*(e^x - 1) : x; " + FLOATS).build());
        d.add(unary("Selu", Kernels.SELU, 9, "alpha", "gamma").attrs(AttrSpec.real("alpha", 1.6732632423543772), AttrSpec.real("gamma", 1.0507009873554805))
                .doc("gamma * (x <= 0 ? alpha*e^x - alpha : x); " + FLOATS).build());
        d.add(unary("Swish", Kernels.SWISH, 24, "alpha").attrs(AttrSpec.real("alpha", 1.0)).doc("x * sigmoid(alpha * x); " + FLOATS).build());
        d.add(OpDefinition.op(SWIGLU, 2, 2).attrs(AttrSpec.real("alpha", 1.0)).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.UNARY, Kernels.BINARY)
                .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]))
                .doc("Swish(A) * B (A, B of one shape, no broadcasting): Swish into the output, then times B; " + FLOATS)
                .lower(ElementwiseLowering::swiglu).onnx(SWIGLU, 28, ElementwiseImport::swiglu).build());
        d.add(unary("Celu", Kernels.CELU, 12, "alpha").attrs(AttrSpec.real("alpha", 1.0)).doc("max(0, x) + min(0, alpha*(e^(x/alpha) - 1)); " + FLOATS).build());
        d.add(unary("ThresholdedRelu", Kernels.THRESHOLDED_RELU, 10, "alpha").attrs(AttrSpec.real("alpha", 1.0)).doc("x > alpha ? x : 0; " + FLOATS).build());
        d.add(unary("Shrink", Kernels.SHRINK, 9, "bias", "lambd").attrs(AttrSpec.real("bias", 0.0), AttrSpec.real("lambd", 0.5))
                .doc("x < -lambd ? x + bias : x > lambd ? x - bias : 0; " + FLOATS).build());
        d.add(OpDefinition.op("IsNaN", 1, 1).shape(ShapeRules::sameAsFirst).kernels(Kernels.UNARY).carries(BoundedFlows::elementwise).doc("bool: x is NaN; " + FLOATS)
                .lower((op, l) -> List.of(ElementwiseLowering.unary(op, l, Kernels.IS_NAN))).onnx(ElementwiseImport::lower).build());
        d.add(OpDefinition.op(IS_INF, 1, 1).attrs(AttrSpec.integer("detect_negative", 1, 0, 1), AttrSpec.integer("detect_positive", 1, 0, 1))
                .shape(ShapeRules::sameAsFirst).kernels(Kernels.UNARY).carries(BoundedFlows::elementwise).doc("bool: x is an infinity of a detected sign; " + FLOATS)
                .lower((op, l) -> List.of(ElementwiseLowering.unary(op, l, Kernels.IS_INF, "detect_negative", "detect_positive")))
                .onnx(IS_INF, 10, ElementwiseImport::lower).build());
        d.add(OpDefinition.op(CLIP, 1, 3).attrs(unbounded("min"), unbounded("max"))
                .shape(ElementwiseOps::clipShape).inPlace(0).kernels(Kernels.UNARY, Kernels.BINARY).carries(BoundedFlows::elementwise)
                .doc("min(max(x, min), max) (so max wins when min > max); bounds from the attributes (one kernel, floats; absent: none), "
                        + "or from scalar inputs 1 and 2 (two binary calls, floats and integers)")
                .lower(ElementwiseLowering::clip).onnx(ElementwiseImport::clip).build());
        d.add(OpDefinition.op(POW, 2, 2).shape(ShapeRules::broadcast).inPlace(0).kernels(Kernels.BINARY).carries(BoundedFlows::elementwise)
                .doc("x^y, broadcasting; x float, int32 or int64 and y any number type (ONNX Pow-12); an integer result truncates; "
                        + "in place only over an input of the output's shape")
                .lower((op, l) -> ElementwiseLowering.binary(op, l, Kernels.POW)).onnx(ElementwiseImport::pow).build());
        d.add(elementwise(MOD).attrs(AttrSpec.flag("fmod"))
                .doc("fmod 0: remainder with the divisor's sign (integers); 1: with the dividend's (floats and integers)")
                .lower((op, l) -> ElementwiseLowering.binary(op, l, OpAttrs.of(op).integer("fmod") == 1 ? Kernels.FMOD : Kernels.MOD))
                .onnx(MOD, 10, ElementwiseImport::lower).build());
        d.add(nary(MAX, Kernels.MAXIMUM, false, "element-wise maximum (NaN propagates)", 9));
        d.add(nary(MIN, Kernels.MINIMUM, false, "element-wise minimum (NaN propagates)", 9));
        d.add(nary("Mean", Kernels.ADD, true, "sum, then divided by the input count; floats", 9));
        for (Object[] c : new Object[][] {{"Less", Kernels.LESS, 9}, {"Greater", Kernels.GREATER, 9},
                {"LessOrEqual", Kernels.LESS_OR_EQUAL, 12}, {"GreaterOrEqual", Kernels.GREATER_OR_EQUAL, 12}}) {
            int code = (Integer) c[1];
            d.add(OpDefinition.op((String) c[0], 2, 2).shape(ShapeRules::broadcast).kernels(Kernels.COMPARE).carries(BoundedFlows::elementwise)
                    .doc("bool, broadcasting; floats and integers (NaN compares false)")
                    .lower((op, l) -> List.of(ElementwiseLowering.compare(op, l, code))).onnx((String) c[0], (Integer) c[2], ElementwiseImport::lower).build());
        }
        for (Object[] b : new Object[][] {{"And", Kernels.AND, "bool", 9}, {"Or", Kernels.OR, "bool", 9}, {"Xor", Kernels.XOR, "bool", 9},
                {"BitwiseAnd", Kernels.BITWISE_AND, "integers", 18}, {"BitwiseOr", Kernels.BITWISE_OR, "integers", 18},
                {"BitwiseXor", Kernels.BITWISE_XOR, "integers", 18}}) {
            int code = (Integer) b[1];
            d.add(elementwise((String) b[0]).doc((String) b[2]).lower((op, l) -> ElementwiseLowering.binary(op, l, code))
                    .onnx((String) b[0], (Integer) b[3], ElementwiseImport::lower).build());
        }
        d.add(elementwise(BIT_SHIFT).attrs(new AttrSpec("direction", AttrSpec.Type.STRING, true, null, 0, 0, 0, 0))
                .doc("direction LEFT or RIGHT; unsigned integers")
                .lower((op, l) -> ElementwiseLowering.binary(op, l, "LEFT".equals(OpAttrs.of(op).string("direction")) ? Kernels.SHIFT_LEFT : Kernels.SHIFT_RIGHT))
                .onnx(BIT_SHIFT, 11, ElementwiseImport::lower).build());
        d.add(OpDefinition.op(PRELU, 2, 2).shape(ElementwiseOps::preluShape).inPlace(0, 1).kernels(Kernels.BINARY)
                .doc("x < 0 ? slope*x : x, slope broadcast to x's shape; floats and integers")
                .lower((op, l) -> ElementwiseLowering.binary(op, l, Kernels.PRELU)).onnx(ElementwiseImport::prelu).build());
        for (String k : List.of(QUANTIZE_LINEAR, DEQUANTIZE_LINEAR)) {
            boolean q = k.equals(QUANTIZE_LINEAR);
            d.add(OpDefinition.op(k, 2, 3).attrs(q ? new AttrSpec[] {AttrSpec.axis("axis", 1), AttrSpec.integer("saturate", 1, 0, 1), AttrSpec.integer("block_size", 0, 0, Integer.MAX_VALUE)}
                            : new AttrSpec[] {AttrSpec.axis("axis", 1), AttrSpec.integer("block_size", 0, 0, Integer.MAX_VALUE)})
                    .shape(ElementwiseOps::quantizeShape).kernels(Kernels.QUANTIZE)
                    .doc(q ? "saturate(rint(x / scale) + zero_point) to int8, uint8, int16, uint16, int4, uint4, int2 or uint2 (the zero point's type, uint8 without one); x f32, f16 or bf16; "
                                    + "to float8 or float4e2m1 (the zero point's type): x / scale + zero_point in f32, cast to float8 with saturate (default 1), to float4e2m1 saturating"
                            : "(x - zero_point) * scale as f32; x int8, uint8, int16, uint16, int32, int4, uint4, int2 or uint2; or x float8 or float4e2m1 with an f32, f16 or bf16 scale, y the scale's type"
                            + "; scale and zero point one value, one per index of axis, or (block_size > 0) x's shape with axis extent ceil(D / block_size)")
                    .lower((op, l) -> List.of(ElementwiseLowering.quantize(op, l, q ? 0 : 1)))
                    .onnx(k, 10, ElementwiseImport::quantize, q ? new String[] {"saturate", "block_size", "output_dtype", "precision"} : new String[] {"block_size", "output_dtype"}).build());
        }
        return d;
    }

    /**
     * Quantize's and dequantize's shape: x's. Scale and zero point (ONNX QuantizeLinear-21): one
     * value, a 1-D tensor along axis, or, when attr block_size B > 0 (blocked quantization), x's
     * rank and shape except along axis, where the extent is ceil(D / B) (the spec's accepted
     * range [ceil(D / S), ceil(D / (S - 1)) - 1] for B holds exactly when S = ceil(D / B)).
     */
    static long[] quantizeShape(OpAttrs a, long[][] in) {
        long n = 1;
        for (long e : in[1]) n *= e;
        long block = a.has("block_size") ? a.integer("block_size") : 0;
        if (block > 0) {
            int axis = ShapeRules.axis(a.integer("axis"), in[0].length, "axis");
            long[] want = in[0].clone();
            want[axis] = (want[axis] + block - 1) / block;
            if (!Arrays.equals(in[1], want))
                throw new GraphException("scale " + Arrays.toString(in[1]) + " must be " + Arrays.toString(want) + " for blocked quantization of "
                        + Arrays.toString(in[0]) + " along axis " + axis + " in blocks of " + block + " (x's shape, ceil(" + in[0][axis] + " / " + block + ") along the axis)");
        } else if (n != 1) {
            int axis = ShapeRules.axis(a.integer("axis"), in[0].length, "axis");
            if (in[1].length != 1 || in[1][0] != in[0][axis])
                throw new GraphException("scale " + Arrays.toString(in[1]) + " must be one value or one per index of axis " + axis + " of " + Arrays.toString(in[0]));
        }
        if (in.length > 2 && !Arrays.equals(in[2], in[1]) && !(n == 1 && in[2].length <= 1))
            throw new GraphException("zero point " + Arrays.toString(in[2]) + " must have the scale's shape " + Arrays.toString(in[1]));
        return in[0].clone();
    }

    /** {@link Kernels#BINARY} over two inputs: broadcasting, in place over either. */
    private static OpDefinition.Builder elementwise(String kind) {
        return OpDefinition.op(kind, 2, 2).shape(ShapeRules::broadcast).inPlace(0, 1).kernels(Kernels.BINARY).carries(BoundedFlows::elementwise)
                .doc("numpy broadcasting; in place only over an input of the output's shape");
    }

    /** A unary kind on op code {@code code}, its attributes {@code params} passed as the kernel's floats; ONNX from opset {@code since}. */
    private static OpDefinition.Builder unary(String kind, int code, int since, String... params) {
        return OpDefinition.op(kind, 1, 1).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.UNARY).carries(BoundedFlows::elementwise)
                .lower((op, l) -> List.of(ElementwiseLowering.unary(op, l, code, params))).onnx(kind, since, ElementwiseImport::lower);
    }

    /** An n-ary kind like Sum: y = f(x0, x1), then y = f(y, x2), ... (so only inputs 0 and 1 may be overwritten); {@code mean}: then divided by the count. */
    private static OpDefinition nary(String kind, int code, boolean mean, String what, int since) {
        OpDefinition.Builder b = OpDefinition.op(kind, 1, Integer.MAX_VALUE).shape(ShapeRules::broadcast).inPlace(0, 1).carries(BoundedFlows::elementwise)
                .flops((a, in, out) -> OpSpec.FlopRule.elements(out[0]) * (Math.max(1, in.length - 1) + (mean ? 1 : 0)))
                .doc(what + ", broadcasting; n-ary, pairwise from the left (only inputs 0 and 1 may be overwritten)")
                .lower((op, l) -> ElementwiseLowering.nary(op, l, code, mean)).onnx(kind, since, ElementwiseImport::lower);
        return (mean ? b.kernels(Kernels.BINARY, Kernels.COPY, Kernels.UNARY) : b.kernels(Kernels.BINARY, Kernels.COPY)).build();
    }

    // ---- gradient rules (numpy broadcasting: a contribution is summed over the axes its operand was broadcast along) ----

    /** Add: dY to each operand. */
    private static void addGradient(Op op, String dy, Backward b) {
        for (String x : op.inputs()) b.accumulate(x, b.reduceTo(dy, x));
    }

    /** Sub: dY to A, -dY to B. */
    private static void subGradient(Op op, String dy, Backward b) {
        String a = op.inputs().get(0), c = op.inputs().get(1);
        b.accumulate(a, b.reduceTo(dy, a));
        if (!b.needsGradient(c)) return;
        String neg = b.elementwise(OpKinds.MUL, dy + ".neg", dy, b.constant(-1.0, b.dtype(dy), 1));
        b.accumulate(c, b.reduceTo(neg, c));
    }

    /** Mul: dY times the other operand. */
    private static void mulGradient(Op op, String dy, Backward b) {
        for (int j = 0; j < 2; j++) {
            String x = op.inputs().get(j);
            if (!b.needsGradient(x)) continue;
            b.accumulate(x, b.reduceTo(b.elementwise(OpKinds.MUL, x + ".mul", dy, op.inputs().get(1 - j)), x));
        }
    }

    /** A float attribute whose absence means no bound (Clip's min and max). */
    private static AttrSpec unbounded(String name) {
        return new AttrSpec(name, AttrSpec.Type.FLOAT, false, null, 0, 0, 0, 0);
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
