package org.arenaplan.ops;

import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Float8E8M0;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.onnx.NodeLowering.broadcastAll;
import static org.arenaplan.onnx.NodeLowering.names;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * Element types and indexing: Cast, BitCast, Where, Equal and Gather, on the {@link Kernels#CAST}, {@link Kernels#COPY},
 * {@link Kernels#WHERE}, {@link Kernels#COMPARE} and {@link Kernels#GATHER} kernels; any element
 * type. CastLike (opset 15) imports as a Cast to input 1's type. ONNX version differences: Cast gains {@code saturate} at 19 (0 or 1, default 1;
 * it matters for float8 outputs only, {@link org.arenaplan.ir.DType#cast}); Gather takes a negative axis from 11.
 * Cast-23/CastLike-23 add float4e2m1, 24 float8e8m0, 25 int2/uint2, none of which arenaplan
 * takes (a model using one is refused: {@code to} out of the registry range, or a tensor of an
 * unsupported element type); Cast-24's table for the saturation of infinities to the FNUZ float8
 * types (+-max, where Cast-19's said NaN) is followed at every opset, as the ONNX reference
 * implementation (op_cast.py) does. Cast-24/CastLike-24 add {@code round_mode} ("up", "down", "nearest"; default "up"), which
 * applies to casts to float8e8m0 only and so has no effect on the types taken here: it is
 * accepted from opset 24 with one of its three values, refused before 24 or with another value.
 * Cast-25's and CastLike-25's differences are types only. BitCast (opset 26) reinterprets the
 * bytes as {@code to}, a type of the input's width: a {@link Kernels#COPY}.
 */
final class TypeAndIndexOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String CAST = "Cast", BIT_CAST = "BitCast", WHERE = "Where", EQUAL = "Equal", GATHER = "Gather";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(CAST, 1, 1).attrs(AttrSpec.requiredInteger("to", 1, 26), AttrSpec.integer("saturate", 1, 0, 1), AttrSpec.integer("round_mode", 0, 0, 2)).shape(ShapeRules::sameAsFirst).kernels(Kernels.CAST).carries(BoundedFlows::elementwise)
                        .doc("to: the output's ONNX TensorProto.DataType; any type to any type by DType.cast; saturate (default 1): "
                                + "a float8 output clamps out-of-range values and infinities to +-max, else gives infinity (float8e5m2) or NaN; "
                                + "to int4, uint4, int2 or uint2: floats round to nearest even, then the low bits are kept; to float4e2m1: nearest even, saturating to +-6; "
                                + "round_mode (default 0): a float8e8m0 output's rounding, 0 up, 1 down, 2 nearest (ir.Float8E8M0)")
                        .lower((op, l) -> List.of(cast(op, l))).onnx(TypeAndIndexOps::importCast, "saturate", "round_mode")
                        .onnx("CastLike", 15, ElementwiseImport::castLike, "saturate", "round_mode").build(),
                OpDefinition.op(BIT_CAST, 1, 1).attrs(AttrSpec.requiredInteger("to", 1, 20)).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.COPY)
                        .doc("to: the output's ONNX TensorProto.DataType, of the input's width; the bytes copied unchanged (little endian), no conversion")
                        .lower((op, l) -> List.of(bitCast(op, l))).onnx(BIT_CAST, 26, TypeAndIndexOps::importBitCast).build(),
                OpDefinition.op(WHERE, 3, 3).shape(ShapeRules::broadcast).kernels(Kernels.WHERE).carries(BoundedFlows::elementwise)
                        .doc("condition (bool) ? X : Y, broadcast over all three; X, Y of any one type")
                        .lower((op, l) -> List.of(where(op, l))).onnx(TypeAndIndexOps::importWhere).build(),
                OpDefinition.op(EQUAL, 2, 2).shape(ShapeRules::broadcast).kernels(Kernels.COMPARE).carries(BoundedFlows::elementwise).doc("A == B as bool, broadcasting; any one type")
                        .lower((op, l) -> List.of(ElementwiseLowering.compare(op, l, Kernels.EQUAL))).onnx(TypeAndIndexOps::importEqual).build(),
                OpDefinition.op(GATHER, 2, 2).attrs(AttrSpec.axis("axis", 0)).shape(ShapeRules::gather).kernels(Kernels.GATHER).carries(org.arenaplan.ir.OpSpec.BoundedFlow.ofExtent(1, BoundedFlows::gather))
                        .doc("data[:axis] + indices + data[axis+1:]; int64 or int32 indices, negative ones from the end")
                        .lower((op, l) -> List.of(gather(op, l))).onnx(TypeAndIndexOps::importGather).build());
    }

    // ---- lowering ----

    /** ONNX Cast: attr to, an ONNX element type code that must be the output's type. */
    private static KernelCall cast(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = out(op);
        DType from = l.dtype(x), to = l.dtype(y);
        long code = OpAttrs.of(op).integer("to");
        if (code != to.onnxCode()) throw fail(op, "attribute to=" + code + " differs from the type of '" + y + "' (" + to.jsonName() + ")");
        if (l.elements(x) != l.elements(y)) throw fail(op, "'" + x + "' has " + l.elements(x) + " elements, '" + y + "' " + l.elements(y));
        long saturate = OpAttrs.of(op).integer("saturate"), roundMode = OpAttrs.of(op).integer("round_mode");
        return l.call(op, Kernels.CAST, List.of(l.read(x), l.write(y)), new long[]{l.elements(y), from.onnxCode(), to.onnxCode(), saturate, roundMode});
    }

    /** ONNX BitCast (opset 26): a {@link Kernels#COPY} of the input's bytes into an output of another type of the same width. */
    private static KernelCall bitCast(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = out(op);
        DType from = l.dtype(x), to = l.dtype(y);
        long code = OpAttrs.of(op).integer("to");
        if (code != to.onnxCode()) throw fail(op, "attribute to=" + code + " differs from the type of '" + y + "' (" + to.jsonName() + ")");
        if (from.bytes() != to.bytes() || l.elements(x) != l.elements(y))
            throw fail(op, "'" + x + "' is " + l.elements(x) + " " + from.jsonName() + ", '" + y + "' " + l.elements(y) + " " + to.jsonName() + "; BitCast keeps the element count and width");
        return l.call(op, Kernels.COPY, List.of(l.read(x), l.write(y)), new long[]{l.elements(y), to.bytes()});
    }

    /** ONNX Where(condition, X, Y), broadcasting. */
    private static KernelCall where(Op op, OpLowering l) {
        if (op.inputs().size() != 3) throw fail(op, "Where takes condition, X and Y");
        String c = op.inputs().get(0), x = op.inputs().get(1), y = op.inputs().get(2), o = out(op);
        if (l.dtype(c) != DType.BOOL) throw fail(op, "condition '" + c + "' is " + l.dtype(c).jsonName() + ", not bool");
        DType t = l.sameType(op, x, y, o);
        long[] ints = l.broadcast(op, l.shape(op, o), c, x, y);
        ints = Arrays.copyOf(ints, ints.length + 1);
        ints[ints.length - 1] = t.bytes();
        return l.call(op, Kernels.WHERE, List.of(l.read(c), l.read(x), l.read(y), l.write(o)), ints);
    }

    /** ONNX Gather(data, indices) along attr axis (negative counts from the end). */
    private static KernelCall gather(Op op, OpLowering l) {
        return gather(op, l, OpAttrs.of(op).integer("axis"));
    }

    /**
     * One {@link Kernels#GATHER} call: output 0 = input 0's slices along {@code axis} (negative
     * counts from the end) at the indices input 1 holds (int64 or int32, any shape, in row-major
     * order; a negative index counts from the end, one out of range is an error of the device).
     */
    static KernelCall gather(Op op, OpLowering l, long axis) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        DType t = l.sameType(op, d, y), it = l.dtype(idx);
        if (it != DType.I64 && it != DType.I32) throw fail(op, "indices '" + idx + "' are " + it.jsonName() + "; " + op.kind() + " takes int64 or int32");
        long[] ds = l.shape(op, d);
        int a = (int) (axis < 0 ? axis + ds.length : axis);
        if (a < 0 || a >= ds.length) throw fail(op, "axis " + axis + " out of range for shape " + Arrays.toString(ds));
        long outer = product(Arrays.copyOf(ds, a)), inner = product(Arrays.copyOfRange(ds, a + 1, ds.length));
        long n = l.elements(idx);
        if (l.elements(y) != outer * n * inner) throw fail(op, "output '" + y + "' must have " + outer * n * inner + " elements, has " + l.elements(y));
        long[] ints = {outer, ds[a], inner, n, t.bytes(), it.onnxCode()};
        org.arenaplan.ir.Graph.Bounded bd = l.bounded(d);   // data bounded along the gathered axis (ir.BoundedFlows.gather): its actual extent read too
        if (bd == null || bd.axis() != a) return l.call(op, Kernels.GATHER, List.of(l.read(d), l.read(idx), l.write(y)), ints);
        return boundedGather(op, l, Kernels.GATHER, bd, ints, 1);
    }

    /**
     * A {@link Kernels#GATHER} or {@link Kernels#GATHER_ND} call (op's inputs data and indices, its
     * output) over data bounded along the gathered axis ({@code bd}): pointers data, indices, data's
     * runtime extent, the indices' own where they are bounded (their leading indices real, the tail's
     * zeros padding), the output; {@code ints} with per appended, the indices (GatherND: the tuples of
     * {@code tuple} indices) to one step of their bounded axis, 0 for indices known before the run.
     */
    static KernelCall boundedGather(Op op, OpLowering l, String kernel, org.arenaplan.ir.Graph.Bounded bd, long[] ints, long tuple) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        org.arenaplan.ir.Graph.Bounded bi = l.bounded(idx);
        long[] is = l.shape(op, idx);
        long per = bi == null || is[bi.axis()] == 0 ? 0 : product(is) / is[bi.axis()] / tuple;
        long[] with = Arrays.copyOf(ints, ints.length + 1);
        with[ints.length] = per;
        return l.call(op, kernel, per == 0 ? List.of(l.read(d), l.read(idx), l.read(bd.extent()), l.write(y))
                : List.of(l.read(d), l.read(idx), l.read(bd.extent()), l.read(bi.extent()), l.write(y)), with);
    }

    // ---- ONNX ----

    /** ONNX Cast: attribute 'to' (a TensorProto.DataType) is the output's type; 'saturate' (opset 19) concerns float8 outputs only. */
    private static Lowered importCast(NodeContext n) {
        n.require(n.hasAttr("to"), "attribute 'to' is required");
        DType t = n.elementType("to", null);
        packedOpset(n, n.input(0).dtype(), t);
        return op(n, CAST, List.of(n.input(0).name()), n.input(0).shape(), castAttrs(n, t), t);
    }

    /** Cast and CastLike list the packed types from opset 21 (int4, uint4), 23 (float4e2m1) and 25 (int2, uint2), and float8e8m0 from 24. */
    static void packedOpset(NodeContext n, DType from, DType to) {
        for (DType t : new DType[] {from, to}) {
            n.require(!t.isPacked() || n.opset() >= org.arenaplan.ir.PackedTypes.sinceOpset(t),
                    t.jsonName() + " is an element type " + n.opType() + " takes from opset " + org.arenaplan.ir.PackedTypes.sinceOpset(t));
            n.require(t != DType.F8E8M0 || n.opset() >= 24, t.jsonName() + " is an element type " + n.opType() + " takes from opset 24");
        }
    }

    /**
     * The Cast op's attributes: {@code to}; {@code saturate} when the node sets it (opset 19; 0 or
     * 1, default 1); {@code round_mode} (below) when the node sets it to down or nearest.
     */
    static Map<String, Object> castAttrs(NodeContext n, DType to) {
        Map<String, Object> attrs = new java.util.LinkedHashMap<>();
        attrs.put("to", (long) to.onnxCode());
        if (n.hasAttr("saturate")) {
            n.require(n.opset() >= 19, "attribute 'saturate' needs opset 19");
            long s = n.integer("saturate", 1);
            n.require(s == 0 || s == 1, "attribute 'saturate' = " + s + " is not 0 or 1");
            attrs.put("saturate", s);
        }
        Float8E8M0.RoundMode mode = roundMode(n);
        if (mode != Float8E8M0.RoundMode.UP) attrs.put("round_mode", (long) mode.code());
        return attrs;
    }

    /**
     * Cast-24's and CastLike-24's {@code round_mode}: "up" (default), "down" or "nearest", the
     * rounding of a cast to float8e8m0 only (ONNX Changelog, Cast-24; the rules in
     * {@link Float8E8M0}); before opset 24 the attribute does not exist.
     */
    private static Float8E8M0.RoundMode roundMode(NodeContext n) {
        if (!n.hasAttr("round_mode")) return Float8E8M0.RoundMode.UP;
        n.require(n.opset() >= 24, "attribute 'round_mode' needs opset 24");
        String m = n.string("round_mode", "up");
        Float8E8M0.RoundMode mode = Float8E8M0.RoundMode.parse(m);
        n.require(mode != null, "attribute 'round_mode' = '" + m + "' is not up, down or nearest");
        return mode;
    }

    /** ONNX BitCast (26): the input's shape, type {@code to}, which must have the input's bit width (bool is 8 bits here, as ONNX stores it). */
    private static Lowered importBitCast(NodeContext n) {
        n.require(n.inputCount() == 1, "takes one input");
        n.require(n.hasAttr("to"), "attribute 'to' is required");
        DType t = n.elementType("to", null);
        Value x = n.input(0);
        n.require(t.bits() == x.dtype().bits(), "input " + x + " is " + x.dtype().jsonName() + " (" + x.dtype().bits() + " bits) but to=" + t.onnxCode() + " is "
                + t.jsonName() + " (" + t.bits() + " bits); BitCast needs one bit width");
        return op(n, BIT_CAST, List.of(x.name()), x.shape(), Map.of("to", (long) t.onnxCode()), t);
    }

    /** ONNX Where(condition: bool, X, Y): broadcast over all three; X's type. */
    private static Lowered importWhere(NodeContext n) {
        n.require(n.inputCount() == 3, "needs three inputs (condition, X, Y)");
        n.require(n.input(0).dtype() == DType.BOOL, "condition " + n.input(0) + " is " + n.input(0).dtype().jsonName() + ", not bool");
        List<String> inputs = new ArrayList<>(List.of(n.input(0).name()));
        inputs.addAll(names(n, 1, 3));
        return op(n, WHERE, inputs, broadcastAll(n, 0, 3), Map.of(), n.input(1).dtype());
    }

    /** ONNX Equal(A, B) to bool, broadcasting. */
    private static Lowered importEqual(NodeContext n) {
        n.require(n.inputCount() == 2, "needs two inputs");
        return op(n, EQUAL, names(n, 0, 2), broadcastAll(n, 0, 2), Map.of(), DType.BOOL);
    }

    /** ONNX Gather: output data.shape[:axis] + indices.shape + data.shape[axis+1:]; axis may be negative from opset 11. */
    private static Lowered importGather(NodeContext n) {
        Value data = n.input(0), idx = n.input(1);
        n.require(data.rank() >= 1, "data " + data + " must have rank 1 or more");
        n.require(idx.dtype() == DType.I64 || idx.dtype() == DType.I32, "indices " + idx + " are " + idx.dtype().jsonName() + ", not int64 or int32");
        int axis = n.axis(n.integer("axis", 0), data.rank(), "axis");
        long[] ds = data.shape(), is = idx.shape();
        long[] out = new long[ds.length - 1 + is.length];
        System.arraycopy(ds, 0, out, 0, axis);
        System.arraycopy(is, 0, out, axis, is.length);
        System.arraycopy(ds, axis + 1, out, axis + is.length, ds.length - axis - 1);
        return op(n, GATHER, List.of(data.name(), idx.name()), out, Map.of("axis", (long) axis));
    }
}
