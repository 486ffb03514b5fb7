package org.arenaplan.ops;

import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.PackedTypes;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ONNX import of the elementwise family ({@link ElementwiseOps}): each op type maps to the kind
 * of the same name with its attributes copied, except
 * <ul>
 *   <li>Clip: before opset 11 min/max are attributes; from 11 they are optional scalar inputs:
 *       constants (or absent) over a float X become the attributes (one kernel), otherwise the
 *       given inputs stay inputs (a lone bound becomes Max or Min); none at all is an Identity.</li>
 *   <li>CastLike (opset 15): a Cast to input 1's element type; 'saturate' concerns float8 outputs only.</li>
 *   <li>Pow: base and exponent of one type before opset 12, mixed from 12.</li>
 *   <li>Mod: fmod must be 1 for floats (ONNX Mod: "fmod=0 is not supported for floats").</li>
 * </ul>
 * Element types are checked when the graph runs ({@link ElementwiseLowering}); here only what
 * fixes the output's type: comparisons, IsNaN and IsInf write bool, And/Or/Xor/Not take bool.
 */
final class ElementwiseImport {
    /** The largest finite f32: Clip-6's default bounds (numeric_limits<float>::lowest() and max()). */
    static final double FLOAT_MAX = 3.4028234663852886e38;
    private static final Set<String> BOOL_OUT = Set.of("Less", "Greater", "LessOrEqual", "GreaterOrEqual", "IsNaN", "IsInf");
    private static final Set<String> BOOL_IN = Set.of("And", "Or", "Xor", "Not");
    private static final Set<String> NARY = Set.of("Sum", "Max", "Min", "Mean");

    private ElementwiseImport() { }

    /** The op types whose kind has the node's op type as its name and its input 0's element type (bool for comparisons and tests). */
    static Lowered lower(NodeContext n) {
        String t = n.opType();
        if (t.equals("Mod") && n.input(0).dtype().isFloatingPoint())
            n.require(n.flag("fmod", false), "fmod=0 is not defined for floating-point inputs (ONNX Mod); set fmod=1");
        int inputs = NARY.contains(t) ? n.inputCount() : OpRegistry.get(n.kind()).minInputs();
        n.require(n.inputCount() == inputs && inputs >= 1, "takes " + (NARY.contains(t) ? "at least one input" : inputs + " input(s)") + ", got " + n.inputCount());
        if (BOOL_IN.contains(t))
            for (int i = 0; i < inputs; i++) n.require(n.input(i).dtype() == DType.BOOL, "input " + n.input(i) + " is " + n.input(i).dtype().jsonName() + ", not bool");
        if (t.equals("BitShift")) {
            String d = n.string("direction", "");
            n.require(d.equals("LEFT") || d.equals("RIGHT"), "attribute direction='" + d + "' must be LEFT or RIGHT");
        }
        if (t.equals("Gelu")) {
            String a = n.string("approximate", "none");
            n.require(a.equals("none") || a.equals("tanh"), "attribute approximate='" + a + "' must be none or tanh");
        }
        DType out = BOOL_OUT.contains(t) ? DType.BOOL : n.input(0).dtype();
        return NodeLowering.op(n, n.kind(), NodeLowering.names(n, 0, inputs), NodeLowering.broadcastAll(n, 0, inputs), attributes(n, n.kind()), out);
    }

    /** The node's attributes that the kind declares, as given (the kernels read the registry's defaults for the rest). */
    private static Map<String, Object> attributes(NodeContext n, String kind) {
        OpSpec spec = OpRegistry.get(kind);
        Map<String, Object> attrs = new LinkedHashMap<>();
        for (AttrSpec a : spec.attrs()) {
            if (!n.hasAttr(a.name())) continue;
            switch (a.type()) {
                case FLOAT -> attrs.put(a.name(), n.real(a.name(), 0));
                case INT -> attrs.put(a.name(), n.integer(a.name(), 0));
                case STRING -> attrs.put(a.name(), n.string(a.name(), ""));
                default -> throw new IllegalStateException(kind + " declares list attribute " + a.name());
            }
        }
        return attrs;
    }

    static Lowered clip(NodeContext n) {
        Value x = n.input(0);
        if (n.opset() < 11) {
            n.require(n.inputCount() == 1, "takes one input before opset 11 (min and max are attributes)");
            // absent bounds: Clip-6's defaults, -/+ FLT_MAX; Clip-1's, "numeric_limits::lowest() and numeric_limits::max()" of the input's type
            double[] dflt = n.opset() < 6 ? x.dtype().range() : new double[]{-FLOAT_MAX, FLOAT_MAX};
            Map<String, Object> attrs = new LinkedHashMap<>();
            attrs.put("min", n.real("min", dflt[0]));
            attrs.put("max", n.real("max", dflt[1]));
            return NodeLowering.op(n, ElementwiseOps.CLIP, List.of(x.name()), x.shape(), attrs, x.dtype());
        }
        n.require(!n.hasAttr("min") && !n.hasAttr("max"), "attributes min and max were replaced by inputs in opset 11");
        n.require(n.inputCount() <= 3, "takes at most three inputs (input, min, max)");
        boolean hasMin = n.hasInput(1), hasMax = n.hasInput(2);
        for (int i = 1; i <= 2; i++) {
            if (!n.hasInput(i)) continue;
            Value b = n.input(i);
            n.require(b.dtype() == x.dtype(), "bound " + b + " is " + b.dtype().jsonName() + " but the input " + x + " is " + x.dtype().jsonName());
            n.require(b.elements() == 1 && b.rank() <= Math.max(1, x.rank()), "bound " + b + " must be a scalar");
        }
        // an absent bound: "numeric_limits::lowest() and numeric_limits::max()" (Clip-11 on), so an infinity becomes
        // the largest finite float (ONNX Runtime 1.30 too); on integers no bound
        boolean real = x.dtype().isFloatingPoint();
        if (!hasMin && !hasMax && !real) return NodeLowering.view(n, OpKinds.IDENTITY, x.shape());
        double[] range = real ? x.dtype().range() : new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
        double[] lo = hasMin ? n.constantValues(1) : new double[] {range[0]};
        double[] hi = hasMax ? n.constantValues(2) : new double[] {range[1]};
        // constant bounds over floats: one unary kernel; an infinite bound on its own side is no bound
        if (x.dtype().isFloatingPoint() && lo != null && hi != null && (Double.isFinite(lo[0]) || lo[0] == Double.NEGATIVE_INFINITY)
                && (Double.isFinite(hi[0]) || hi[0] == Double.POSITIVE_INFINITY)) {
            Map<String, Object> attrs = new LinkedHashMap<>();
            if (Double.isFinite(lo[0])) attrs.put("min", lo[0]);
            if (Double.isFinite(hi[0])) attrs.put("max", hi[0]);
            return NodeLowering.op(n, ElementwiseOps.CLIP, List.of(x.name()), x.shape(), attrs, x.dtype());
        }
        if (hasMin && hasMax) return NodeLowering.op(n, ElementwiseOps.CLIP, List.of(x.name(), n.input(1).name(), n.input(2).name()), x.shape(), Map.of(), x.dtype());
        // one bound: Max(x, min) or Min(x, max), which keeps x's shape (the bound is a scalar)
        n.require(x.rank() >= 1 || n.input(hasMin ? 1 : 2).rank() == 0, "bound " + n.input(hasMin ? 1 : 2) + " has a higher rank than the input " + x);
        return NodeLowering.op(n, hasMin ? ElementwiseOps.MAX : ElementwiseOps.MIN, List.of(x.name(), n.input(hasMin ? 1 : 2).name()), x.shape(), Map.of(), x.dtype());
    }

    /**
     * QuantizeLinear and DequantizeLinear: axis from opset 13 (before, scale and zero point are one
     * value); block_size (21) below; QuantizeLinear's output is the zero point's type, else
     * output_dtype (21), else uint8; saturate (19, default 1) concerns float8 outputs only (as Cast's). DequantizeLinear's output
     * is the scale's type, or its output_dtype (23), which must then be the scale's type (an output
     * of another type would set the precision of the multiplication: not implemented, refused).
     * QuantizeLinear-23 lets x and y_scale differ in type and adds {@code precision} (the type of
     * the division; default 0, the scale's): arenaplan divides in x's type with a scale of x's
     * type, so a scale of another type, or a precision other than 0 or the scale's type, is
     * refused; and it divides f16 and bf16 in f32, so from 23,
     * where the quotient must be rounded to f16 or bf16 first, such a scale is refused too. Versions 24 and 25 of both add element types only (float8e8m0 scales, int2/uint2).
     * int16 and uint16 (21) and the packed types (21: int4, uint4; 23: float4e2m1; 25: int2, uint2) are taken from the opset that lists them.
     * block_size (21) > 0 is blocked quantization: the scale (and zero point) has x's shape with
     * ceil(D / block_size) along axis, each value serving block_size consecutive indices of that axis.
     */
    static Lowered quantize(NodeContext n) {
        boolean q = n.opType().equals("QuantizeLinear");
        n.require(n.inputCount() >= 2 && n.inputCount() <= 3, "takes x, scale and an optional zero point");
        n.require(n.opset() >= 13 || !n.hasAttr("axis"), "attribute 'axis' needs opset 13");
        n.require(n.opset() >= 19 || !n.hasAttr("saturate"), "attribute 'saturate' needs opset 19");
        n.require(n.opset() >= 21 || (!n.hasAttr("block_size") && !n.hasAttr("output_dtype")), "attributes 'block_size' and 'output_dtype' need opset 21");
        n.require(q || n.opset() >= 23 || !n.hasAttr("output_dtype"), "attribute 'output_dtype' of DequantizeLinear needs opset 23");
        n.require(!q || n.opset() >= 23 || !n.hasAttr("precision"), "attribute 'precision' needs opset 23");
        long block = n.integer("block_size", 0);
        n.require(block >= 0 && block <= Integer.MAX_VALUE, "attribute 'block_size' = " + block + " is negative or too large");
        Value x = n.input(0), s = n.input(1);
        if (block > 0) {
            int axis = n.axis(n.integer("axis", 1), x.rank(), "axis");
            long[] want = x.shape();
            want[axis] = (want[axis] + block - 1) / block;
            n.require(Arrays.equals(s.shape(), want), "scale " + s + " must be " + Arrays.toString(want) + " for blocked quantization (block_size " + block
                    + "): x's shape " + Arrays.toString(x.shape()) + " with ceil(" + x.shape()[axis] + " / " + block + ") along axis " + axis);
            if (n.hasInput(2))
                n.require(Arrays.equals(n.input(2).shape(), s.shape()), "zero point " + n.input(2) + " must have the scale's shape " + Arrays.toString(s.shape()));
        }
        for (Value v : new Value[] {x, n.hasInput(2) ? n.input(2) : null})
            if (v != null && (v.dtype().isPacked() || v.dtype() == DType.I16 || v.dtype() == DType.U16))
                n.require(n.opset() >= sinceOpset(v.dtype()), v + " is " + v.dtype().jsonName() + ", which " + n.opType() + " takes from opset " + sinceOpset(v.dtype()));
        n.require(n.opset() >= 13 || s.elements() == 1, "scale " + s + " must be one value before opset 13");
        List<String> inputs = new java.util.ArrayList<>(List.of(x.name(), s.name()));
        DType out = q ? DType.U8 : s.dtype();
        if (q) {
            n.require(s.dtype() == x.dtype(), "y_scale " + s + " is " + s.dtype().jsonName() + " but x " + x + " is " + x.dtype().jsonName()
                    + "; a scale of another type than x (opset 23) is not supported");
            DType p = n.elementTypeUnlessZero("precision", s.dtype());
            n.require(p == s.dtype(), "attribute 'precision' = " + p.onnxCode() + " (" + p.jsonName() + ") differs from the scale's type " + s.dtype().jsonName()
                    + " (ONNX data_type " + s.dtype().onnxCode() + "); only the scale's precision is supported");
            n.require(n.opset() < 23 || s.dtype() == DType.F32 || s.dtype() == DType.F64,
                    "y_scale " + s + " is " + s.dtype().jsonName() + ": from opset 23 the division x / y_scale is rounded to the precision (the scale's type), "
                    + "which arenaplan does not do for " + s.dtype().jsonName() + " (it divides in f32)");
        }
        if (!q && n.hasAttr("output_dtype")) {
            DType o = n.elementTypeUnlessZero("output_dtype", s.dtype());
            boolean intScaleTaken = x.dtype().isFloat8() || s.dtype() == DType.F32;
            n.require(o == s.dtype(), "attribute 'output_dtype' = " + o.onnxCode() + " (" + o.jsonName() + ") differs from the scale's type " + s.dtype().jsonName()
                    + " (ONNX data_type " + s.dtype().onnxCode() + "); only an output of the scale's type is supported"
                    + (intScaleTaken ? "" : ", and for " + x.dtype().jsonName() + " x only an f32 scale"));
        }
        DType given = q ? n.elementTypeUnlessZero("output_dtype", null) : null;
        if (given != null) {
            boolean sixteen = given == DType.I16 || given == DType.U16;
            n.require(given == DType.U8 || given == DType.I8 || sixteen || given.isFloat8() || given.isPacked(), "attribute 'output_dtype' = " + given.onnxCode() + " (" + given.jsonName()
                    + ") is not int8, uint8, int16, uint16, a float8 type, int4, uint4, float4e2m1, int2 or uint2, the types quantized to here");
            n.require((!given.isPacked() && !sixteen) || n.opset() >= sinceOpset(given), "attribute 'output_dtype' = " + given.onnxCode() + " (" + given.jsonName()
                    + ") needs opset " + sinceOpset(given));
            out = given;
        }
        if (n.hasInput(2)) {
            inputs.add(n.input(2).name());
            n.require(q || n.input(2).dtype() == x.dtype(), "zero point " + n.input(2) + " is " + n.input(2).dtype().jsonName() + " but x " + x + " is "
                    + x.dtype().jsonName() + "; DequantizeLinear takes x and its zero point of one type (T1 in the ONNX spec)");
            if (q) {
                n.require(given == null || n.input(2).dtype() == out, "output_dtype differs from the zero point's type " + n.input(2).dtype().jsonName());
                out = n.input(2).dtype();
            }
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        if (n.hasAttr("axis")) attrs.put("axis", (long) n.axis(n.integer("axis", 1), x.rank(), "axis"));
        if (block > 0) attrs.put("block_size", block);
        if (q && n.hasAttr("saturate")) {
            long sat = n.integer("saturate", 1);
            n.require(sat == 0 || sat == 1, "attribute 'saturate' = " + sat + " is not 0 or 1");
            attrs.put("saturate", sat);
        }
        return NodeLowering.op(n, n.kind(), inputs, x.shape(), attrs, out);
    }

    /** The opset from which QuantizeLinear and DequantizeLinear take {@code t}: int16 and uint16 from 21 (as int4 and uint4), a packed type from the one that lists it. */
    private static long sinceOpset(DType t) {
        return t == DType.I16 || t == DType.U16 ? 21 : PackedTypes.sinceOpset(t);
    }

    /** SwiGLU (28): A and B of one type and one shape (no broadcasting); the output is A's. */
    static Lowered swiglu(NodeContext n) {
        n.require(n.inputCount() == 2, "takes two inputs (A, B)");
        Value a = n.input(0), b = n.input(1);
        n.require(Arrays.equals(a.shape(), b.shape()), "A " + a + " and B " + b + " must have one shape; SwiGLU does not broadcast");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("alpha", n.real("alpha", 1.0));
        return NodeLowering.op(n, ElementwiseOps.SWIGLU, NodeLowering.names(n, 0, 2), a.shape(), attrs, a.dtype());
    }

    /** CastLike(input, target_type): Cast to the element type of input 1. */
    static Lowered castLike(NodeContext n) {
        n.require(n.inputCount() == 2, "takes two inputs (input, target_type)");
        n.require(!n.hasAttr("to"), "takes no attribute 'to' (the target type is input 1's)");
        DType to = n.input(1).dtype();
        TypeAndIndexOps.packedOpset(n, n.input(0).dtype(), to);
        return NodeLowering.op(n, TypeAndIndexOps.CAST, List.of(n.input(0).name()), n.input(0).shape(), TypeAndIndexOps.castAttrs(n, to), to);
    }

    /** Pow(X, Y): output X's type; Y of another number type from opset 12. */
    static Lowered pow(NodeContext n) {
        n.require(n.inputCount() == 2, "takes two inputs");
        Value x = n.input(0), y = n.input(1);
        n.require(n.opset() >= 12 || x.dtype() == y.dtype(), "base " + x + " is " + x.dtype().jsonName() + " but exponent " + y + " is "
                + y.dtype().jsonName() + "; mixed types need opset 12");
        return NodeLowering.op(n, ElementwiseOps.POW, List.of(x.name(), y.name()), NodeLowering.broadcastAll(n, 0, 2), Map.of(), x.dtype());
    }

    /** PRelu(X, slope): slope broadcasts to X (unidirectionally). */
    static Lowered prelu(NodeContext n) {
        n.require(n.inputCount() == 2, "takes two inputs (X, slope)");
        long[] out = NodeLowering.broadcastAll(n, 0, 2);
        n.require(Arrays.equals(out, n.input(0).shape()), "slope " + n.input(1) + " does not broadcast to X " + n.input(0));
        return NodeLowering.op(n, ElementwiseOps.PRELU, NodeLowering.names(n, 0, 2), out, Map.of(), n.input(0).dtype());
    }
}
