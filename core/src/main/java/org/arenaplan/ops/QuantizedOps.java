package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.OptionalOutputs;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * The integer and quantized linear algebra of ONNX opset 10: MatMulInteger and QLinearMatMul on
 * {@link Kernels#QMATMUL}, ConvInteger and QLinearConv on {@link Kernels#QCONV} (layouts there).
 * Operands uint8 or int8; the products of (operand - zero point) summed in 64 bits.
 * <ul>
 * <li>MatMulInteger, ConvInteger: the sum, stored as int32 (wrapping).</li>
 * <li>QLinearMatMul, QLinearConv (plus QLinearConv's int32 bias B, added to the sum): as the ONNX
 *     reference (op_qlinear_matmul.py, op_qlinear_conv.py), the sum times
 *     {@code a_scale * b_scale / y_scale} (each step rounded to the scales' type), plus y's zero
 *     point, rounded half to even and saturated to y's type (y_zero_point's: uint8 or int8).</li>
 * </ul>
 * Zero points and scales are tensors read at run time: a's per tensor or per row ([M]), b's per
 * tensor or per column ([N]); the conv weight's per tensor or per output channel ([M]); x's and
 * y's per tensor. A zero point left out is a constant 0 of its operand's type. MatMul operands are
 * [..., M, K] and [..., K, N] of rank 2 or more, their batch dims equal or one side without any
 * (numpy's broadcasting of a 2-D operand); the conv ops take Conv's attributes and 1 to 3 spatial
 * axes. Version differences: QLinearMatMul-21 adds float16 and bfloat16 scales (f32 only before).
 *
 * <p>DynamicQuantizeLinear (opset 11; x f32): {@link Kernels#QUANTIZE_RANGE} finds y_scale and
 * y_zero_point from the whole tensor's min and max (0 included; as onnx/reference/ops/
 * op_dynamic_quantize_linear.py, an all-zero x gets y_scale 1/255 rather than 0), then
 * {@link Kernels#QUANTIZE} writes y = saturate(rint(x / y_scale) + y_zero_point) as uint8, reading
 * the two outputs the first call wrote: two passes over x.
 */
final class QuantizedOps implements OpFamily {
    static final String MATMUL_INTEGER = "MatMulInteger", QLINEAR_MATMUL = "QLinearMatMul";
    static final String CONV_INTEGER = "ConvInteger", QLINEAR_CONV = "QLinearConv";
    static final String DYNAMIC_QUANTIZE_LINEAR = "DynamicQuantizeLinear";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(MATMUL_INTEGER, 4, 4).shape(QuantizedOps::matmulShape).kernels(Kernels.QMATMUL)
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]) * in[0][in[0].length - 1])
                        .doc("inputs A, B (uint8/int8), a_zero_point, b_zero_point; int32 (A - a_zp) x (B - b_zp), batch dims as MatMul")
                        .lower((op, l) -> List.of(matmul(op, l, false))).onnx(MATMUL_INTEGER, 10, QuantizedOps::importMatMulInteger).build(),
                OpDefinition.op(QLINEAR_MATMUL, 8, 8).shape((a, in) -> matmulShape(a, new long[][] {in[0], in[3]})).kernels(Kernels.QMATMUL)
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]) * in[0][in[0].length - 1])
                        .doc("inputs a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp; the integer product requantized to y_zp's type "
                                + "(rounded half to even, saturated)")
                        .lower((op, l) -> List.of(matmul(op, l, true))).onnx(QLINEAR_MATMUL, 10, QuantizedOps::importQLinearMatMul).build(),
                OpDefinition.op(CONV_INTEGER, 4, 4).attrs(ImageOps.convAttrs()).shape(QuantizedOps::convShape).kernels(Kernels.QCONV)
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]) * ImageOps.perOutput(in[1]))
                        .doc("inputs x, w (uint8/int8), x_zero_point, w_zero_point; int32 Conv of (x - x_zp) by (w - w_zp); 1-D to 3-D images")
                        .lower((op, l) -> List.of(conv(op, l, false))).onnx(CONV_INTEGER, 10, QuantizedOps::importConvInteger, "auto_pad").build(),
                OpDefinition.op(QLINEAR_CONV, 8, 9).attrs(ImageOps.convAttrs()).shape((a, in) -> convShape(a, new long[][] {in[0], in[3]}))
                        .kernels(Kernels.QCONV).flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]) * ImageOps.perOutput(in[3]))
                        .doc("inputs x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, optional int32 B; the integer Conv requantized to y_zp's type")
                        .lower((op, l) -> List.of(conv(op, l, true))).onnx(QLINEAR_CONV, 10, QuantizedOps::importQLinearConv, "auto_pad").build(),
                OpDefinition.op(DYNAMIC_QUANTIZE_LINEAR, 1, 1).outputs(3, 3).shapes((a, in, k) -> new long[][] {in[0].clone(), {}, {}})
                        .kernels(Kernels.QUANTIZE_RANGE, Kernels.QUANTIZE)
                        .doc("input x (f32); outputs y (uint8, x's shape), y_scale (f32 scalar) = (max(0, max x) - min(0, min x)) / 255, "
                                + "y_zero_point (uint8 scalar) = saturate(rint(-min / y_scale)); y = saturate(rint(x / y_scale) + y_zero_point)")
                        .lower(QuantizedOps::dynamicQuantize).onnx(DYNAMIC_QUANTIZE_LINEAR, 11, QuantizedOps::importDynamicQuantize).build());
    }

    /** {@link Kernels#QUANTIZE_RANGE} into y_scale and y_zero_point, then {@link Kernels#QUANTIZE} of x by them into y. */
    private static List<KernelCall> dynamicQuantize(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = op.outputs().get(0), scale = op.outputs().get(1), zp = op.outputs().get(2);
        l.requireF32(op, x);
        l.requireF32(op, scale);
        if (l.dtype(y) != DType.U8 || l.dtype(zp) != DType.U8)
            throw fail(op, "outputs '" + y + "' and '" + zp + "' must be uint8, are " + l.dtype(y).jsonName() + " and " + l.dtype(zp).jsonName());
        long n = l.elements(x);
        if (l.elements(y) != n || l.elements(scale) != 1 || l.elements(zp) != 1)
            throw fail(op, "y must have x's " + n + " values, y_scale and y_zero_point one each");
        return List.of(l.call(op, Kernels.QUANTIZE_RANGE, List.of(l.read(x), l.write(scale), l.write(zp)), new long[] {n}),
                l.call(op, Kernels.QUANTIZE, List.of(l.read(x), l.read(scale), l.read(zp), l.write(y)),
                        new long[] {1, 1, n, 0, DType.F32.onnxCode(), DType.U8.onnxCode(), 1}));
    }

    private static Lowered importDynamicQuantize(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 1);
        Value x = n.input(0);
        FamilyImports.requireF32(n, x);
        List<Value> outs = OptionalOutputs.of(n, 3, List.of(new OptionalOutputs.Slot(DType.U8, x.shape()),
                new OptionalOutputs.Slot(DType.F32, new long[0]), new OptionalOutputs.Slot(DType.U8, new long[0])));
        n.require(outs.size() == 3, "has " + outs.size() + (outs.size() == 1 ? " output" : " outputs") + "; DynamicQuantizeLinear has y, y_scale and y_zero_point");
        return new Lowered(DYNAMIC_QUANTIZE_LINEAR, List.of(x.name()), outs, Map.of(), false, List.of());
    }

    // ---- shapes ----

    /** [batch..., M, N] of A [..., M, K] by B [..., K, N]. */
    static long[] matmulShape(OpAttrs attrs, long[][] in) {
        long[] a = in[0], b = in[1];
        if (a.length < 2 || b.length < 2) throw new GraphException("operands " + Arrays.toString(a) + " and " + Arrays.toString(b) + " must have rank 2 or more");
        if (a[a.length - 1] != b[b.length - 2]) throw new GraphException("inner dims differ: " + Arrays.toString(a) + " x " + Arrays.toString(b));
        long[] ab = Arrays.copyOf(a, a.length - 2), bb = Arrays.copyOf(b, b.length - 2);
        long[] batch;
        if (OpLowering.product(ab) == 1 && ab.length <= bb.length) batch = bb;
        else if (OpLowering.product(bb) == 1 && bb.length <= ab.length) batch = ab;
        else if (Arrays.equals(ab, bb)) batch = ab;
        else throw new GraphException("batch dims " + Arrays.toString(ab) + " and " + Arrays.toString(bb) + " must be equal or one side without any");
        long[] y = Arrays.copyOf(batch, batch.length + 2);
        y[batch.length] = a[a.length - 2];
        y[batch.length + 1] = b[b.length - 1];
        return y;
    }

    static long[] convShape(OpAttrs attrs, long[][] in) {
        return org.arenaplan.ir.ShapeRules.conv(attrs, new long[][] {in[0], in[1]});
    }

    // ---- lowering ----

    /** Input positions of a, b and their zero points, then (quantized) a_scale, b_scale, y_scale, y_zp. */
    private static final int[] INTEGER_ORDER = {0, 1, 2, 3}, QLINEAR_ORDER = {0, 3, 2, 5, 1, 4, 6, 7};

    private static KernelCall matmul(Op op, OpLowering l, boolean qlinear) {
        List<String> in = ordered(op, qlinear);
        String a = in.get(0), b = in.get(1), y = OpLowering.out(op);
        long[] as = l.shape(op, a), bs = l.shape(op, b), ys = l.shape(op, y);
        long m = as[as.length - 2], k = as[as.length - 1], n = bs[bs.length - 1];
        long batch = OpLowering.product(ys) / (m * n);
        long[] ints = new long[QMATMUL_INTS];
        long[] head = {batch, m, k, n, OpLowering.product(as) == m * k ? 0 : 1, OpLowering.product(bs) == k * n ? 0 : 1};
        System.arraycopy(head, 0, ints, 0, head.length);
        quantization(op, l, in, qlinear, m, n, ints, head.length);
        return l.call(op, Kernels.QMATMUL, args(l, in, y), ints);
    }

    private static KernelCall conv(Op op, OpLowering l, boolean qlinear) {
        List<String> in = ordered(op, qlinear);
        String x = in.get(0), w = in.get(1), y = OpLowering.out(op);
        boolean bias = qlinear && op.inputs().size() > 8;
        long[] geometry = ImageCalls.convGeometry(op, l, x, w, y, bias, false);
        long channels = l.shape(op, w)[0];
        long[] ints = new long[QCONV_INTS + geometry.length];
        quantization(op, l, in, qlinear, 1, channels, ints, 0);
        System.arraycopy(geometry, 0, ints, QCONV_INTS, geometry.length);
        if (bias) {
            String b = op.inputs().get(8);
            if (l.dtype(b) != DType.I32 || l.elements(b) != channels) throw fail(op, "bias " + b + " must be int32 [" + channels + "]");
            in.add(b);
        }
        return l.call(op, Kernels.QCONV, args(l, in, y), ints);
    }

    /** {@link Kernels#QMATMUL} takes 6 shape ints then these 9; {@link Kernels#QCONV} these 9 then conv_nd's geometry. */
    static final int QUANT_INTS = 9, QMATMUL_INTS = 6 + QUANT_INTS, QCONV_INTS = QUANT_INTS;

    /**
     * Writes [aType, bType, yType, requantize, aPerRow, bPerColumn, aScalePerRow, bScalePerColumn, scaleType]
     * at {@code at}, checking the types and the zero points' and scales' sizes (rows: 1 or {@code rows}, columns 1 or {@code cols}).
     */
    private static void quantization(Op op, OpLowering l, List<String> in, boolean qlinear, long rows, long cols, long[] ints, int at) {
        String a = in.get(0), b = in.get(1), y = OpLowering.out(op);
        DType at8 = quantized(op, l, a), bt8 = quantized(op, l, b);
        if (l.dtype(in.get(2)) != at8 || l.dtype(in.get(3)) != bt8) throw fail(op, "zero points " + in.get(2) + ", " + in.get(3) + " must have their operands' types");
        long aPer = perSlice(op, l, in.get(2), rows), bPer = perSlice(op, l, in.get(3), cols);
        DType yt = l.dtype(y);
        long aScalePer = 0, bScalePer = 0;
        DType scale = DType.F32;
        if (qlinear) {
            scale = l.dtype(in.get(4));
            if (scale != DType.F32 && scale != DType.F16 && scale != DType.BF16) throw fail(op, "scale " + in.get(4) + " is " + scale.jsonName() + "; scales are f32, f16 or bf16");
            l.sameType(op, in.get(4), in.get(5), in.get(6));
            aScalePer = perSlice(op, l, in.get(4), rows);
            bScalePer = perSlice(op, l, in.get(5), cols);
            if (perSlice(op, l, in.get(6), 1) != 0 || perSlice(op, l, in.get(7), 1) != 0) throw fail(op, "y's scale and zero point must have one element each");
            if (l.dtype(in.get(7)) != yt || (yt != DType.U8 && yt != DType.I8)) throw fail(op, "output " + y + " must have y_zero_point's type, uint8 or int8");
        } else if (yt != DType.I32) {
            throw fail(op, "output " + y + " must be int32");
        }
        long[] q = {at8.onnxCode(), bt8.onnxCode(), yt.onnxCode(), qlinear ? 1 : 0, aPer, bPer, aScalePer, bScalePer, scale.onnxCode()};
        System.arraycopy(q, 0, ints, at, q.length);
    }

    private static DType quantized(Op op, OpLowering l, String t) {
        DType d = l.dtype(t);
        if (d != DType.U8 && d != DType.I8) throw fail(op, "operand " + t + " is " + d.jsonName() + "; " + op.kind() + " takes uint8 or int8");
        return d;
    }

    /** 0 when {@code t} has one element, 1 when it has one per slice ({@code slices} of them). */
    private static long perSlice(Op op, OpLowering l, String t, long slices) {
        long e = l.elements(t);
        if (e == 1) return 0;
        if (e == slices && l.shape(op, t).length == 1) return 1;
        throw fail(op, t + " " + Arrays.toString(l.shape(op, t)) + " must have 1 element or " + slices);
    }

    /** a, b, a_zp, b_zp, then (quantized) a_scale, b_scale, y_scale, y_zp. */
    private static List<String> ordered(Op op, boolean qlinear) {
        List<String> in = new ArrayList<>();
        for (int i : qlinear ? QLINEAR_ORDER : INTEGER_ORDER) in.add(op.inputs().get(i));
        return in;
    }

    private static List<KernelArg> args(OpLowering l, List<String> in, String y) {
        List<KernelArg> args = new ArrayList<>();
        for (String t : in) args.add(l.read(t));
        args.add(l.write(y));
        return args;
    }

    // ---- ONNX import ----

    private static Lowered importMatMulInteger(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 4);
        Value a = operand(n, 0), b = operand(n, 1);
        long[] y = FamilyImports.shape(n, () -> matmulShape(null, new long[][] {a.shape(), b.shape()}));
        Map<Value, Double> constants = new LinkedHashMap<>();
        List<String> ins = List.of(a.name(), b.name(), zeroPoint(n, 2, a, constants), zeroPoint(n, 3, b, constants));
        return new Lowered(MATMUL_INTEGER, ins, List.of(NodeLowering.output(n, y, DType.I32)), Map.of(), false, List.of(), constants);
    }

    private static Lowered importQLinearMatMul(NodeContext n) {
        FamilyImports.requireInputs(n, 8, 8);
        Value a = operand(n, 0), b = operand(n, 3);
        scales(n, 1, 4, 6);
        long[] y = FamilyImports.shape(n, () -> matmulShape(null, new long[][] {a.shape(), b.shape()}));
        Map<Value, Double> constants = new LinkedHashMap<>();
        List<String> ins = List.of(a.name(), n.input(1).name(), zeroPoint(n, 2, a, constants), b.name(), n.input(4).name(),
                zeroPoint(n, 5, b, constants), n.input(6).name(), zeroPoint(n, 7, a, constants));
        DType yt = n.hasInput(7) ? n.input(7).dtype() : a.dtype();
        return new Lowered(QLINEAR_MATMUL, ins, List.of(NodeLowering.output(n, y, yt)), Map.of(), false, List.of(), constants);
    }

    private static Lowered importConvInteger(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 4);
        Value x = operand(n, 0), w = operand(n, 1);
        ImageOps.ConvWindows c = ImageOps.convWindows(n, x, w);
        Map<Value, Double> constants = new LinkedHashMap<>();
        List<String> ins = List.of(x.name(), w.name(), zeroPoint(n, 2, x, constants), zeroPoint(n, 3, w, constants));
        return new Lowered(CONV_INTEGER, ins, List.of(NodeLowering.output(n, c.out(), DType.I32)), c.attrs(), false, List.of(), constants);
    }

    private static Lowered importQLinearConv(NodeContext n) {
        FamilyImports.requireInputs(n, 8, 9);
        Value x = operand(n, 0), w = operand(n, 3);
        scales(n, 1, 4, 6);
        ImageOps.ConvWindows c = ImageOps.convWindows(n, x, w);
        Map<Value, Double> constants = new LinkedHashMap<>();
        List<String> ins = new ArrayList<>(List.of(x.name(), n.input(1).name(), zeroPoint(n, 2, x, constants), w.name(), n.input(4).name(),
                zeroPoint(n, 5, w, constants), n.input(6).name(), zeroPoint(n, 7, x, constants)));
        if (n.hasInput(8)) {
            Value bias = n.input(8);
            n.require(bias.dtype() == DType.I32 && bias.rank() == 1 && bias.dim(0) == w.dim(0), "bias " + bias + " must be int32 [" + w.dim(0) + "]");
            ins.add(bias.name());
        }
        DType yt = n.hasInput(7) ? n.input(7).dtype() : x.dtype();
        return new Lowered(QLINEAR_CONV, ins, List.of(NodeLowering.output(n, c.out(), yt)), c.attrs(), false, List.of(), constants);
    }

    private static Value operand(NodeContext n, int i) {
        Value v = n.input(i);
        n.require(v.dtype() == DType.U8 || v.dtype() == DType.I8, "input " + v + " is " + v.dtype().jsonName() + "; " + n.opType() + " takes uint8 or int8");
        return v;
    }

    /** Input i, a zero point of {@code of}'s type, or a constant 0 of that type when left out. */
    private static String zeroPoint(NodeContext n, int i, Value of, Map<Value, Double> constants) {
        if (n.hasInput(i)) {
            Value z = n.input(i);
            n.require(z.dtype() == of.dtype() || i == 7, "zero point " + z + " must have the type of " + of);
            n.require(z.dtype() == DType.U8 || z.dtype() == DType.I8, "zero point " + z + " must be uint8 or int8");
            return z.name();
        }
        Value zero = new Value(n.opName() + "#zero_point" + i, of.dtype(), new long[0]);
        constants.put(zero, 0.0);
        return zero.name();
    }

    private static void scales(NodeContext n, int... inputs) {
        DType t = n.input(inputs[0]).dtype();
        for (int i : inputs) {
            Value s = n.input(i);
            n.require(s.dtype() == t, "scales " + n.input(inputs[0]) + " and " + s + " must have one type");
        }
        n.require(t == DType.F32 || n.opset() >= 21 && (t == DType.F16 || t == DType.BF16),
                "scale " + n.input(inputs[0]) + " is " + t.jsonName() + "; " + n.opType() + " takes f32 scales (f16 and bf16 from opset 21)");
    }
}
