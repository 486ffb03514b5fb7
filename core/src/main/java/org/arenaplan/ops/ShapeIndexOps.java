package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.IndexShapeRules;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Shapes;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.ir.AttrSpec.MAX_INT32;
import static org.arenaplan.ir.AttrSpec.MAX_RANK;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * Shape and index ops: Slice, Expand, Tile, Pad (and CenterCropPad onto it), Trilu,
 * GatherElements, ScatterElements (and Scatter), GatherND, ScatterND, OneHot, DepthToSpace,
 * SpaceToDepth, on the kernels of {@link Kernels#INDEX} ({@code sim.IndexKernels}, CUDA
 * {@code index.cuh}); any element type; shape rules in {@link IndexShapeRules}. Slice, Expand,
 * Tile and the two block rearrangements are one {@link Kernels#STRIDED_COPY} each: a view of the
 * input with computed strides (0 where broadcast, negative for negative steps) copied into the
 * contiguous output; a Slice of whole leading rows with step 1 is a view (no kernel).
 *
 * <p>Import: shape operands (Slice's starts/ends/axes/steps, Expand's shape, Tile's repeats,
 * Pad's pads and axes, Trilu's k, OneHot's depth, CenterCropPad's shape) must be constants at
 * import (after folding, {@code onnx.ImportFolding}) and become attributes; data operands stay
 * op inputs. ONNX version differences (Changelog.md): Slice takes starts/ends/axes as attributes
 * before 10 and as inputs (with steps) from 10, negative axes from 11; Pad takes pads and a
 * float 'value' as attributes before 11, pads and constant_value as inputs from 11, axes from
 * 18, mode 'wrap' from 19 (read from 11, below); DepthToSpace gains mode (CRD) at 11; GatherND gains batch_dims at 12;
 * ScatterElements (11; Scatter before, the same op) and ScatterND gain reduction add/mul at 16,
 * max/min at 18 (read from 16, below). Two values are read before the version that lists them, with the
 * meaning they have there, because torch.onnx writes them so and ONNX Runtime (1.30) runs them (its
 * kernels for the earlier versions take them; onnx 1.23.1's checker does not look at attribute values):
 * reduction 'max'/'min' at 16 and 17 (TorchScript's scatter_reduce(..., "amax")), Pad mode 'wrap' from 11
 * (the dynamo exporter's circular F.pad at opset 18); Trilu is 14, CenterCropPad 18, TensorScatter 24 (its own kernel,
 * {@link Kernels#TENSOR_SCATTER}: write_indices are data read at run time). The other versions in 9..28 widen types only
 * (Pad-23, 24, 25: float4e2m1, float8e8m0, int2/uint2, none of which arenaplan takes).
 * Not handled: Pad's float 'value' other than 0 before opset 11 (refused by name).
 */
final class ShapeIndexOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String EXPAND = "Expand", TILE = "Tile", PAD = "Pad", TRILU = "Trilu", GATHER_ELEMENTS = "GatherElements",
            SCATTER_ELEMENTS = "ScatterElements", GATHER_ND = "GatherND", SCATTER_ND = "ScatterND", ONE_HOT = "OneHot",
            DEPTH_TO_SPACE = "DepthToSpace", SPACE_TO_DEPTH = "SpaceToDepth", TENSOR_SCATTER = "TensorScatter";

    private static final int MAX_STRIDED_RANK = 16, MAX_KERNEL_RANK = 8;

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.SLICE, 1, 1).attrs(AttrSpec.ints("starts", Long.MIN_VALUE, Long.MAX_VALUE, "none: a declared view"),
                                AttrSpec.ints("ends", Long.MIN_VALUE, Long.MAX_VALUE, "none: a declared view"), AttrSpec.ints("axes", -MAX_RANK, MAX_RANK - 1, "0, 1, ..."),
                                AttrSpec.ints("steps", Long.MIN_VALUE, Long.MAX_VALUE, "1 per axis"),
                                AttrSpec.flag("extents"),   // 1: output 1 is output 0's runtime extent (int64 [1]) where it slices the bounded axis (ir.BoundedFlows#SLICE)
                                AttrSpec.ints("counted", Long.MIN_VALUE, Long.MAX_VALUE, "none"))   // per entry the start's and end's terms of the actual extent (ir.CountedSlice)
                        .outputs(1, 2).shapes(ShapeIndexOps::sliceShapes).view(OpSpec.ViewRule.LEADING_SLICE)
                        .kernels(Kernels.COPY, Kernels.STRIDED_COPY, Kernels.SLICE_BOUNDED).carries(BoundedFlows.SLICE)
                        .doc("ONNX Slice (negative steps, clamping) as a strided copy; whole rows along the leading axis may be a view, which issues no work; "
                                + "along a bounded axis by the actual extent (extents) slice_bounded, which reads the count and writes its own")
                        .lower((op, l) -> !op.attrs().containsKey("starts") ? LayoutOps.viewAsCopy(op, l) : List.of(slicesBounded(op, l) ? sliceBounded(op, l) : slice(op, l)))
                        .onnx(ShapeIndexOps::importSlice).build(),
                OpDefinition.op(EXPAND, 1, 1).attrs(AttrSpec.ints("shape", 0, Long.MAX_VALUE, "required")).shape(IndexShapeRules::expand)
                        .kernels(Kernels.STRIDED_COPY).carries(BoundedFlows::expand).doc("numpy broadcast of the input with shape")
                        .lower((op, l) -> List.of(expand(op, l))).onnx("Expand", 8, n -> simple(n, EXPAND, Map.of("shape", n.constantInts(1, "the shape")))).build(),
                OpDefinition.op(OpKinds.EXPAND_AS, 2, 2).attrs(AttrSpec.ints("shape", 0, Long.MAX_VALUE, "Y's shape"), AttrSpec.integer("axis", -1, -1, MAX_RANK - 1),
                                AttrSpec.integer("y_axis", -1, -1, MAX_RANK - 1)).shape(ShapeIndexOps::expandAsShape).kernels(Kernels.COPY, Kernels.STRIDED_COPY).flops(OpSpec.NO_ARITHMETIC)
                        .carries(BoundedFlows::expandAs)
                        .doc("X broadcast to Y's shape, both bounded by one runtime extent (ONNX Expand(X, Shape(Y)) as torch exports an index broadcast; "
                                + "the importer writes it where Y is bounded): a copy of X where the shapes agree; or, with shape, axis and y_axis, X broadcast to shape "
                                + "whose axis is as long as Y's axis y_axis in each run (ONNX Expand(v, [ReduceSum(mask)]), the count of NonZero(mask)'s Y)")
                        .lower((op, l) -> List.of(Arrays.equals(l.shape(op, op.inputs().get(0)), l.shape(op, out(op))) ? LayoutOps.copy(op, l, op.inputs().get(0)) : expand(op, l))).build(),
                OpDefinition.op(TILE, 1, 1).attrs(AttrSpec.ints("repeats", 0, Long.MAX_VALUE, "required")).shape(IndexShapeRules::tile)
                        .kernels(Kernels.STRIDED_COPY).doc("the input repeated repeats[d] times along axis d")
                        .lower((op, l) -> List.of(tile(op, l))).onnx(n -> simple(n, TILE, Map.of("repeats", tileRepeats(n)))).build(),
                OpDefinition.op(PAD, 1, 2).attrs(AttrSpec.ints("pads", Long.MIN_VALUE, Long.MAX_VALUE, "required: begins, then ends"), AttrSpec.string("mode", "constant"))
                        .shape(IndexShapeRules::pad).kernels(Kernels.PAD)
                        .doc("modes constant (optional input 1, one element; else zeros), reflect, edge, wrap; negative pads crop")
                        .lower((op, l) -> List.of(pad(op, l))).onnx(ShapeIndexOps::importPad, "value")
                        .onnx("CenterCropPad", 18, ShapeIndexOps::importCenterCropPad, "axes").build(),
                OpDefinition.op(TRILU, 1, 1).attrs(AttrSpec.integer("upper", 1, 0, 1), AttrSpec.integer("k", 0, Long.MIN_VALUE, Long.MAX_VALUE))
                        .shape(IndexShapeRules::trilu).kernels(Kernels.TRILU).doc("upper or lower triangle of the last two axes from diagonal k, zeros elsewhere")
                        .lower((op, l) -> List.of(trilu(op, l))).onnx("Trilu", 14, n -> simple(n, TRILU, Map.of("upper", n.flag("upper", true) ? 1L : 0L,
                                "k", n.hasInput(1) ? scalar(n, 1, "k") : 0L))).build(),
                OpDefinition.op(GATHER_ELEMENTS, 2, 2).attrs(AttrSpec.axis("axis", 0)).shape(IndexShapeRules::gatherElements).kernels(Kernels.GATHER_ELEMENTS)
                        .doc("inputs data, indices (int64 or int32, negative from the end) of one rank; output indices' shape")
                        .lower((op, l) -> List.of(gatherElements(op, l)))
                        .onnx("GatherElements", 11, n -> indexed(n, GATHER_ELEMENTS, 2, Map.of("axis", (long) n.axis(n.integer("axis", 0), n.input(0).rank(), "axis")))).build(),
                OpDefinition.op(SCATTER_ELEMENTS, 3, 3).attrs(AttrSpec.axis("axis", 0), AttrSpec.string("reduction", "none"))
                        .shape(IndexShapeRules::scatterElements).inPlace(0).kernels(Kernels.COPY, Kernels.SCATTER_ELEMENTS).carries(BoundedFlows::scatterElements)
                        .doc("inputs data, indices, updates; reduction none, add, mul, max, min; updates applied in order")
                        .lower(ShapeIndexOps::scatterElements).onnx("ScatterElements", 11, ShapeIndexOps::importScatterElements)
                        .onnx("Scatter", 9, ShapeIndexOps::importScatterElements).build(),
                OpDefinition.op(GATHER_ND, 2, 2).attrs(AttrSpec.integer("batch_dims", 0, 0, MAX_RANK)).shape(IndexShapeRules::gatherNd).kernels(Kernels.GATHER_ND).carries(OpSpec.BoundedFlow.ofExtent(1, BoundedFlows::gatherNd))
                        .doc("inputs data, indices (int64 or int32) whose last axis indexes the leading axes of data after batch_dims")
                        .lower((op, l) -> List.of(gatherNd(op, l))).onnx("GatherND", 11, n -> indexed(n, GATHER_ND, 2, Map.of("batch_dims", n.integer("batch_dims", 0)))).build(),
                OpDefinition.op(TENSOR_SCATTER, 2, 3).attrs(AttrSpec.integer("axis", -2, -MAX_RANK, MAX_RANK - 1), AttrSpec.string("mode", "linear"))
                        .shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.COPY, Kernels.TENSOR_SCATTER)
                        .flops((a, in, out) -> OpSpec.FlopRule.elements(in[1]))
                        .doc("past_cache with update written along axis (not 0) from write_indices[batch] (int64, default 0); mode linear or circular (modulo the axis' extent); any element type")
                        .lower(ShapeIndexOps::tensorScatter).onnx(TENSOR_SCATTER, 24, ShapeIndexOps::importTensorScatter).build(),
                OpDefinition.op(SCATTER_ND, 3, 3).attrs(AttrSpec.string("reduction", "none")).shape(IndexShapeRules::scatterNd).inPlace(0)
                        .kernels(Kernels.COPY, Kernels.SCATTER_ND).carries(BoundedFlows::scatterNd).doc("inputs data, indices, updates; reduction none, add, mul, max, min; updates applied in order")
                        .lower(ShapeIndexOps::scatterNd).onnx("ScatterND", 11, n -> indexed(n, SCATTER_ND, 3, Map.of("reduction", reduction(n)))).build(),
                OpDefinition.op(ONE_HOT, 2, 2).attrs(AttrSpec.axis("axis", -1), AttrSpec.requiredInteger("depth", 1, MAX_INT32))
                        .shape(IndexShapeRules::oneHot).kernels(Kernels.ONEHOT).doc("inputs indices (any numeric type), values [off, on]; depth inserted at axis")
                        .lower((op, l) -> List.of(oneHot(op, l))).onnx(ShapeIndexOps::importOneHot).build(),
                OpDefinition.op(DEPTH_TO_SPACE, 1, 1).attrs(AttrSpec.requiredInteger("blocksize", 1, MAX_INT32), AttrSpec.string("mode", "DCR"))
                        .shape(IndexShapeRules::depthToSpace).kernels(Kernels.STRIDED_COPY).doc("N x C x H x W; mode DCR or CRD")
                        .lower((op, l) -> List.of(depthToSpace(op, l)))
                        .onnx(n -> simple(n, DEPTH_TO_SPACE, Map.of("blocksize", blocksize(n), "mode", n.string("mode", "DCR")))).build(),
                OpDefinition.op(SPACE_TO_DEPTH, 1, 1).attrs(AttrSpec.requiredInteger("blocksize", 1, MAX_INT32))
                        .shape(IndexShapeRules::spaceToDepth).kernels(Kernels.STRIDED_COPY).doc("N x C x H x W")
                        .lower((op, l) -> List.of(spaceToDepth(op, l))).onnx(n -> simple(n, SPACE_TO_DEPTH, Map.of("blocksize", blocksize(n)))).build());
    }

    // ---- lowering ----

    /** y (contiguous, {@code shape}) = x[offset + sum i_d * stride_d]. */
    private static KernelCall strided(Op op, OpLowering lo, long[] shape, long[] stride, long offset) {
        String x = op.inputs().get(0), y = out(op);
        int rank = shape.length;
        if (rank > MAX_STRIDED_RANK) throw fail(op, "rank " + rank + " exceeds the strided copy's " + MAX_STRIDED_RANK);
        if (product(shape) != lo.elements(y)) throw fail(op, "output '" + y + "' must have " + product(shape) + " elements, has " + lo.elements(y));
        long[] ints = new long[3 + 2 * rank];
        ints[0] = rank;
        System.arraycopy(shape, 0, ints, 1, rank);
        System.arraycopy(stride, 0, ints, 1 + rank, rank);
        ints[1 + 2 * rank] = offset;
        ints[2 + 2 * rank] = lo.sameType(op, x, y).bytes();
        return lo.call(op, Kernels.STRIDED_COPY, List.of(lo.read(x), lo.write(y)), ints);
    }

    private static long[] strides(long[] s) {
        long[] st = new long[s.length];
        long p = 1;
        for (int d = s.length - 1; d >= 0; d--) { st[d] = p; p *= s[d]; }
        return st;
    }

    private static KernelCall slice(Op op, OpLowering lo) {
        long[] xs = lo.shape(op, op.inputs().get(0)), xst = strides(xs);
        IndexShapeRules.Range[] r = IndexShapeRules.slice(OpAttrs.of(op), xs);
        long[] shape = new long[xs.length], stride = new long[xs.length];
        long offset = 0;
        for (int d = 0; d < xs.length; d++) {
            shape[d] = r[d].count();
            stride[d] = r[d].step() * xst[d];
            offset += r[d].start() * xst[d];
        }
        return strided(op, lo, shape, stride, product(shape) == 0 ? 0 : offset);
    }

    /** Slice's output shape ({@link IndexShapeRules#sliceShape}; null for a declared view), then [1] for its runtime extent where {@code extents} is 1. */
    private static long[][] sliceShapes(OpAttrs a, long[][] in, int outputs) {
        long[] y = IndexShapeRules.sliceShape(a, in);
        if (y == null) return null;
        if (outputs != (a.integer("extents") == 1 ? 2 : 1)) throw new GraphException("Slice has " + outputs + " outputs; it has 2 with extents 1, else 1");
        return outputs == 1 ? new long[][]{y} : new long[][]{y, {1}};
    }

    /** Whether a Slice takes its input's bounded axis by the actual extent ({@code ir.BoundedFlows#SLICE}). */
    private static boolean slicesBounded(Op op, OpLowering lo) {
        org.arenaplan.ir.Graph.Bounded b = lo.bounded(op.inputs().get(0));
        return b != null && BoundedFlows.countedEntry(OpAttrs.of(op), lo.shape(op, op.inputs().get(0)).length, b.axis()) >= 0;
    }

    /** {@link Kernels#SLICE_BOUNDED}: the rows of the bounded axis ONNX Slice takes of the actual extent, and their count (output 1). */
    private static KernelCall sliceBounded(Op op, OpLowering lo) {
        String x = op.inputs().get(0), y = out(op);
        org.arenaplan.ir.Graph.Bounded b = lo.bounded(x);
        long[] xs = lo.shape(op, x);
        OpAttrs a = OpAttrs.of(op);
        int i = BoundedFlows.countedEntry(a, xs.length, b.axis()), t = 2 * org.arenaplan.ir.CountedSlice.TERMS;
        long[] steps = a.intsOrNull("steps"), ints = Arrays.copyOfRange(a.intsOrNull("counted"), t * i, t * i + t + 5);
        ints[t] = steps == null ? 1 : steps[i];
        ints[t + 1] = lo.shape(op, y)[b.axis()];
        ints[t + 2] = xs[b.axis()];
        ints[t + 3] = product(Arrays.copyOfRange(xs, b.axis() + 1, xs.length));
        ints[t + 4] = lo.sameType(op, x, y).bytes();
        return lo.call(op, Kernels.SLICE_BOUNDED, List.of(lo.read(b.extent()), lo.read(x), lo.write(y), lo.write(op.outputs().get(1))), ints);
    }

    /** ExpandAs: X broadcast to Y's shape (each at its upper bound), or to attribute shape where given. */
    static long[] expandAsShape(OpAttrs a, long[][] in) {
        long[] x = in[0], y = a.has("shape") ? a.intsOrNull("shape") : in[1];
        if (!ShapeRules.broadcastsTo(x, y)) throw new GraphException("X " + Arrays.toString(x) + " does not broadcast to Y's shape " + Arrays.toString(y));
        return y.clone();
    }

    private static KernelCall expand(Op op, OpLowering lo) {
        long[] xs = lo.shape(op, op.inputs().get(0)), ys = lo.shape(op, out(op)), xst = strides(xs);
        long[] stride = new long[ys.length];
        for (int d = ys.length - 1, e = xs.length - 1; d >= 0; d--, e--) {
            if (e < 0) continue;
            if (xs[e] != ys[d] && xs[e] != 1) throw fail(op, Arrays.toString(xs) + " does not broadcast to " + Arrays.toString(ys));
            stride[d] = xs[e] == 1 ? 0 : xst[e];
        }
        return strided(op, lo, ys, stride, 0);
    }

    /**
     * Tile's {@code repeats}, an int64 input since Tile-6 (the ONNX operator spec: "1D int64 tensor
     * of the same length as input's dimension number"), read at import: one count per axis of the
     * input, none negative. Checked here so the refusal names the input; the registry's rule
     * ({@link IndexShapeRules#tile}) words it as the graph JSON's attribute.
     *
     * @throws org.arenaplan.onnx.OnnxException naming the node and the input for another length or a negative count
     */
    private static long[] tileRepeats(NodeContext n) {
        long[] r = n.constantInts(1, "repeats");
        String what = "input 'repeats' (input #1 '" + n.input(1).name() + "') ";
        int rank = n.input(0).rank();
        n.require(r.length == rank, what + "has " + r.length + (r.length == 1 ? " value" : " values") + "; Tile needs one per axis of its input, rank " + rank);
        for (long x : r) if (x < 0) throw n.error(what + Arrays.toString(r) + " holds " + x + "; a repeat count is 0 or more");
        return r;
    }

    /** Tile as [r0, x0, r1, x1, ...] with stride 0 on the repeats: row-major, that is the tiled output. */
    private static KernelCall tile(Op op, OpLowering lo) {
        long[] xs = lo.shape(op, op.inputs().get(0)), xst = strides(xs), rep = OpAttrs.of(op).intsOrNull("repeats");
        if (rep == null || rep.length != xs.length) throw fail(op, "attribute 'repeats' must have one value per axis");
        long[] shape = new long[2 * xs.length], stride = new long[2 * xs.length];
        for (int d = 0; d < xs.length; d++) {
            shape[2 * d] = rep[d];
            shape[2 * d + 1] = xs[d];
            stride[2 * d + 1] = xst[d];
        }
        return strided(op, lo, shape, stride, 0);
    }

    /** ONNX DepthToSpace: DCR reads channel (i b + j) C' + c, CRD reads c b^2 + i b + j, for y[n, c, h b + i, w b + j]. */
    private static KernelCall depthToSpace(Op op, OpLowering lo) {
        long[] xs = lo.shape(op, op.inputs().get(0));
        long b = OpAttrs.of(op).integer("blocksize"), n = xs[0], c = xs[1] / (b * b), h = xs[2], w = xs[3], hw = h * w;
        boolean crd = IndexShapeRules.string(OpAttrs.of(op), "mode", "DCR").equals("CRD");
        long[] shape = {n, c, h, b, w, b};
        long[] stride = crd ? new long[]{xs[1] * hw, b * b * hw, w, b * hw, 1, hw} : new long[]{xs[1] * hw, hw, w, b * c * hw, 1, c * hw};
        return strided(op, lo, shape, stride, 0);
    }

    /** ONNX SpaceToDepth: y[n, (i b + j) C + c, h', w'] = x[n, c, h' b + i, w' b + j]. */
    private static KernelCall spaceToDepth(Op op, OpLowering lo) {
        long[] xs = lo.shape(op, op.inputs().get(0));
        long b = OpAttrs.of(op).integer("blocksize"), n = xs[0], c = xs[1], h = xs[2], w = xs[3];
        return strided(op, lo, new long[]{n, b, b, c, h / b, w / b}, new long[]{c * h * w, w, 1, h * w, b * w, b}, 0);
    }

    private static KernelCall pad(Op op, OpLowering lo) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = lo.shape(op, x), ys = lo.shape(op, y), pads = OpAttrs.of(op).intsOrNull("pads");
        int rank = xs.length;
        if (rank > MAX_KERNEL_RANK) throw fail(op, "rank " + rank + " exceeds the pad kernel's " + MAX_KERNEL_RANK);
        long[] ints = new long[3 + 3 * rank];
        ints[0] = rank;
        System.arraycopy(ys, 0, ints, 1, rank);
        System.arraycopy(xs, 0, ints, 1 + rank, rank);
        System.arraycopy(pads, 0, ints, 1 + 2 * rank, rank);
        ints[1 + 3 * rank] = IndexShapeRules.padMode(IndexShapeRules.string(OpAttrs.of(op), "mode", "constant"));
        List<KernelArg> args = new ArrayList<>(List.of(lo.read(x)));
        if (op.inputs().size() > 1) {
            lo.sameType(op, x, op.inputs().get(1));
            args.add(lo.read(op.inputs().get(1)));
        }
        args.add(lo.write(y));
        ints[2 + 3 * rank] = lo.sameType(op, x, y).bytes();
        return lo.call(op, Kernels.PAD, args, ints);
    }

    private static KernelCall trilu(Op op, OpLowering lo) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = lo.shape(op, x);
        long rows = xs[xs.length - 2], cols = xs[xs.length - 1];
        OpAttrs a = OpAttrs.of(op);
        return lo.call(op, Kernels.TRILU, List.of(lo.read(x), lo.write(y)),
                new long[]{product(xs) / Math.max(1, rows * cols), rows, cols, a.integer("k"), a.integer("upper"), lo.sameType(op, x, y).bytes()});
    }

    private static DType indexType(Op op, OpLowering lo, String idx) {
        DType t = lo.dtype(idx);
        if (t != DType.I64 && t != DType.I32) throw fail(op, "indices '" + idx + "' are " + t.jsonName() + "; " + op.kind() + " takes int64 or int32");
        return t;
    }

    /** [rank, iShape, dShape, axis] of GatherElements and ScatterElements. */
    private static long[] elementsGeometry(Op op, OpLowering lo, String data, String idx, int extra) {
        long[] ds = lo.shape(op, data), is = lo.shape(op, idx);
        int rank = ds.length;
        if (rank > MAX_KERNEL_RANK) throw fail(op, "rank " + rank + " exceeds the kernel's " + MAX_KERNEL_RANK);
        long axis = OpAttrs.of(op).integer("axis");
        long[] ints = new long[2 + 2 * rank + extra];
        ints[0] = rank;
        System.arraycopy(is, 0, ints, 1, rank);
        System.arraycopy(ds, 0, ints, 1 + rank, rank);
        ints[1 + 2 * rank] = axis < 0 ? axis + rank : axis;
        return ints;
    }

    private static KernelCall gatherElements(Op op, OpLowering lo) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        long[] ints = elementsGeometry(op, lo, d, idx, 2);
        ints[ints.length - 2] = lo.sameType(op, d, y).bytes();
        ints[ints.length - 1] = indexType(op, lo, idx).onnxCode();
        return lo.call(op, Kernels.GATHER_ELEMENTS, List.of(lo.read(d), lo.read(idx), lo.write(y)), ints);
    }

    private static List<KernelCall> scatterElements(Op op, OpLowering lo) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), u = op.inputs().get(2), y = out(op);
        long[] ints = elementsGeometry(op, lo, d, idx, 4);
        DType t = lo.sameType(op, d, u, y);
        ints[ints.length - 4] = IndexShapeRules.reduction(OpAttrs.of(op));
        ints[ints.length - 3] = t.bytes();
        ints[ints.length - 2] = t.onnxCode();
        ints[ints.length - 1] = indexType(op, lo, idx).onnxCode();
        return scatter(op, lo, Kernels.SCATTER_ELEMENTS, ints, 0);
    }

    /**
     * A scatter's calls (op's inputs data, indices, updates; its output y): a copy of data into y, then
     * {@code kernel} over y with {@code ints}. Where indices and updates are bounded
     * ({@code ir.BoundedFlows#scatterElements}, {@code #scatterNd}) the call also reads their runtime
     * extent, and ints gain per, the indices' elements to one step of their bounded axis, the last
     * {@code tuple} axes left out (ScatterND's index tuples: 1), so that the kernel applies only the
     * leading n * per, not the tail's zero indices, which would overwrite data's first element.
     */
    private static List<KernelCall> scatter(Op op, OpLowering lo, String kernel, long[] ints, int tuple) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), u = op.inputs().get(2), y = out(op);
        org.arenaplan.ir.Graph.Bounded b = lo.bounded(idx);
        if (b == null) return List.of(LayoutOps.copy(op, lo, d), lo.call(op, kernel, List.of(lo.read(y), lo.read(idx), lo.read(u), lo.write(y)), ints));
        long[] is = lo.shape(op, idx), withPer = Arrays.copyOf(ints, ints.length + 1);
        withPer[ints.length] = product(Arrays.copyOfRange(is, b.axis() + 1, is.length - tuple));
        return List.of(LayoutOps.copy(op, lo, d), lo.call(op, kernel, List.of(lo.read(y), lo.read(idx), lo.read(u), lo.read(b.extent()), lo.write(y)), withPer));
    }

    private static KernelCall gatherNd(Op op, OpLowering lo) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        long[] ds = lo.shape(op, d), is = lo.shape(op, idx);
        int b = (int) OpAttrs.of(op).integer("batch_dims");
        int k = IndexShapeRules.ndDepth(ds, is, b);
        long[] ints = new long[6 + k];
        ints[0] = product(Arrays.copyOf(ds, b));
        ints[1] = product(Arrays.copyOfRange(is, b, is.length - 1));
        ints[2] = k;
        ints[3] = product(Arrays.copyOfRange(ds, b + k, ds.length));
        System.arraycopy(ds, b, ints, 4, k);
        ints[4 + k] = lo.sameType(op, d, y).bytes();
        ints[5 + k] = indexType(op, lo, idx).onnxCode();
        org.arenaplan.ir.Graph.Bounded bd = lo.bounded(d);   // data bounded along axis 0 (ir.BoundedFlows.gatherNd): its actual extent read too
        if (bd == null) return lo.call(op, Kernels.GATHER_ND, List.of(lo.read(d), lo.read(idx), lo.write(y)), ints);
        return TypeAndIndexOps.boundedGather(op, lo, Kernels.GATHER_ND, bd, ints, k);
    }

    private static List<KernelCall> scatterNd(Op op, OpLowering lo) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), u = op.inputs().get(2), y = out(op);
        long[] ds = lo.shape(op, d), is = lo.shape(op, idx);
        int k = IndexShapeRules.ndDepth(ds, is, 0);
        DType t = lo.sameType(op, d, u, y);
        long[] ints = new long[7 + k];
        ints[0] = product(Arrays.copyOf(is, is.length - 1));
        ints[1] = k;
        ints[2] = product(Arrays.copyOfRange(ds, k, ds.length));
        System.arraycopy(ds, 0, ints, 3, k);
        ints[3 + k] = IndexShapeRules.reduction(OpAttrs.of(op));
        ints[4 + k] = t.bytes();
        ints[5 + k] = t.onnxCode();
        ints[6 + k] = indexType(op, lo, idx).onnxCode();
        return scatter(op, lo, Kernels.SCATTER_ND, ints, 1);
    }

    /** TensorScatter: a copy of past_cache into the output (nothing when in place), then {@link Kernels#TENSOR_SCATTER} over it. */
    private static List<KernelCall> tensorScatter(Op op, OpLowering lo) {
        String past = op.inputs().get(0), u = op.inputs().get(1), y = out(op);
        String idx = op.inputs().size() > 2 ? op.inputs().get(2) : null;
        DType t = lo.sameType(op, past, u, y);
        long[] ps = lo.shape(op, past), us = lo.shape(op, u);
        OpAttrs a = OpAttrs.of(op);
        int r = ps.length, axis = (int) a.integer("axis");
        if (axis < 0) axis += r;
        if (axis < 1 || axis >= r || us.length != r) throw fail(op, "axis " + a.integer("axis") + " must name an axis other than 0 of " + Arrays.toString(ps) + ", and update " + Arrays.toString(us) + " must have its rank");
        for (int d = 0; d < r; d++)
            if (d == axis ? us[d] > ps[d] : us[d] != ps[d]) throw fail(op, "update " + Arrays.toString(us) + " does not fit past_cache " + Arrays.toString(ps) + " along axis " + axis);
        String mode = a.string("mode");
        if (!mode.equals("linear") && !mode.equals("circular")) throw fail(op, "mode '" + mode + "' is neither linear nor circular");
        if (idx != null && (lo.dtype(idx) != DType.I64 || lo.elements(idx) != ps[0]))
            throw fail(op, "write_indices '" + idx + "' must be " + ps[0] + " int64 values, is " + lo.elements(idx) + " " + lo.dtype(idx).jsonName());
        long[] ints = {ps[0], product(Arrays.copyOfRange(ps, 1, axis)), ps[axis], us[axis], product(Arrays.copyOfRange(ps, axis + 1, r)),
                mode.equals("circular") ? 1 : 0, t.bytes(), idx != null ? 1 : 0, DType.I64.onnxCode()};
        List<KernelArg> args = new ArrayList<>(List.of(lo.read(y), lo.read(u)));
        if (idx != null) args.add(lo.read(idx));
        args.add(lo.write(y));
        return List.of(LayoutOps.copy(op, lo, past), lo.call(op, Kernels.TENSOR_SCATTER, args, ints));
    }

    private static KernelCall oneHot(Op op, OpLowering lo) {
        String idx = op.inputs().get(0), values = op.inputs().get(1), y = out(op);
        long[] is = lo.shape(op, idx);
        OpAttrs a = OpAttrs.of(op);
        long axis = a.integer("axis");
        int at = (int) (axis < 0 ? axis + is.length + 1 : axis);
        DType it = lo.dtype(idx);
        if (it == DType.BOOL) throw fail(op, "indices '" + idx + "' are bool; OneHot takes a numeric type");
        long[] ints = {product(Arrays.copyOf(is, at)), a.integer("depth"), product(Arrays.copyOfRange(is, at, is.length)), it.onnxCode(),
                lo.sameType(op, values, y).bytes()};
        return lo.call(op, Kernels.ONEHOT, List.of(lo.read(idx), lo.read(values), lo.write(y)), ints);
    }

    // ---- ONNX import ----

    private static Lowered importScatterElements(NodeContext n) {
        return indexed(n, SCATTER_ELEMENTS, 3, Map.of("axis", (long) n.axis(n.integer("axis", 0), n.input(0).rank(), "axis"), "reduction", reduction(n)));
    }

    /** The registry kind of {@code kind} computes the output shape from input 0 and {@code attrs}. */
    private static Lowered simple(NodeContext n, String kind, Map<String, Object> attrs) {
        return op(n, kind, List.of(n.input(0).name()), Shapes.infer(n, kind, attrs, n.input(0)), attrs);
    }

    private static Lowered indexed(NodeContext n, String kind, int inputs, Map<String, Object> attrs) {
        List<String> names = new ArrayList<>();
        Value[] in = new Value[inputs];
        for (int i = 0; i < inputs; i++) {
            in[i] = n.input(i);
            names.add(in[i].name());
        }
        return op(n, kind, names, Shapes.infer(n, kind, attrs, in), attrs, kind.equals(ONE_HOT) ? n.input(1).dtype() : n.input(0).dtype());
    }

    private static long blocksize(NodeContext n) {
        n.require(n.hasAttr("blocksize"), "attribute 'blocksize' is required");
        return n.integer("blocksize", 0);
    }

    /** ScatterElements/ScatterND 'reduction': add and mul from opset 16, max and min listed from 18 and read from 16 (torch.onnx writes them there; ONNX Runtime runs them). */
    private static String reduction(NodeContext n) {
        String r = n.string("reduction", "none");
        n.require(r.equals("none") || n.opset() >= 16, "attribute 'reduction' needs opset 16");
        return r;
    }

    /** The one integer of constant input {@code i} (a scalar or a one-element tensor). */
    private static long scalar(NodeContext n, int i, String what) {
        long[] v = n.constantInts(i, what);
        n.require(v.length == 1, what + " must hold one value, got " + Arrays.toString(v));
        return v[0];
    }

    /** Slice: attributes starts, ends, axes before opset 10; constant inputs starts, ends, axes, steps from 10. */
    private static Lowered importSlice(NodeContext n) {
        Value x = n.input(0);
        long[] starts, ends, axes, steps;
        if (n.opset() < 10) {
            n.require(n.hasAttr("starts") && n.hasAttr("ends"), "attributes 'starts' and 'ends' are required before opset 10");
            starts = n.ints("starts", null);
            ends = n.ints("ends", null);
            axes = n.ints("axes", null);
            steps = null;
        } else {
            n.require(!n.hasAttr("starts") && !n.hasAttr("ends") && !n.hasAttr("axes"), "starts, ends and axes are inputs from opset 10, not attributes");
            starts = n.constantInts(1, "starts");
            ends = n.constantInts(2, "ends");
            axes = n.hasInput(3) ? n.constantInts(3, "axes") : null;
            steps = n.hasInput(4) ? n.constantInts(4, "steps") : null;
        }
        n.require(starts.length == ends.length, "starts " + Arrays.toString(starts) + " and ends " + Arrays.toString(ends) + " differ in length");
        if (axes == null) {
            axes = new long[starts.length];
            for (int i = 0; i < axes.length; i++) axes[i] = i;
        }
        for (int i = 0; i < axes.length; i++) axes[i] = n.axis(axes[i], x.rank(), "axis");
        if (steps == null) {
            steps = new long[starts.length];
            Arrays.fill(steps, 1);
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("starts", starts);
        attrs.put("ends", ends);
        attrs.put("axes", axes);
        attrs.put("steps", steps);
        long[] shape = Shapes.infer(n, OpKinds.SLICE, attrs, x);
        Lowered l = op(n, OpKinds.SLICE, List.of(x.name()), shape, attrs);
        if (!leadingRows(x.shape(), starts, ends, axes, steps, shape)) return l;
        return new Lowered(l.kind(), l.inputs(), l.outputs(), l.attrs(), true, l.dropped());
    }

    /** Whether a Slice takes whole rows along axis 0 with step 1 (every other axis whole): a view of its input. */
    private static boolean leadingRows(long[] x, long[] starts, long[] ends, long[] axes, long[] steps, long[] out) {
        if (x.length == 0 || out[0] == 0) return false;
        for (int d = 1; d < x.length; d++) if (out[d] != x[d]) return false;
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] != 0 && !(steps[i] == 1 && clampedStart(starts[i], x[(int) axes[i]]) == 0)) return false;
            if (axes[i] == 0 && steps[i] != 1 && out[0] > 1) return false;
        }
        return true;
    }

    private static long clampedStart(long s, long n) {
        return Math.max(0, Math.min(n, s < 0 ? s + n : s));
    }

    /**
     * Pad: before opset 11 attributes pads, mode, value (a float, made the constant_value Pad-11 reads); from 11
     * input pads (constant), optional input constant_value (a one-element tensor, read at run
     * time), from 18 optional input axes (constant); mode constant, reflect, edge, and wrap (Pad-19;
     * read from 11, as ONNX Runtime does and the dynamo exporter writes it at 18).
     */
    private static Lowered importPad(NodeContext n) {
        Value x = n.input(0);
        int r = x.rank();
        long[] pads;
        List<String> inputs = new ArrayList<>(List.of(x.name()));
        Map<Value, Double> constants = new LinkedHashMap<>();
        if (n.opset() < 11) {
            n.require(n.hasAttr("pads"), "attribute 'pads' is required before opset 11");
            pads = n.ints("pads", null);
            if (n.real("value", 0) != 0 && n.string("mode", "constant").equals("constant")) {   // Pad-11's constant_value input, made a constant of X's type
                n.require(x.dtype().isFloatingPoint(), "attribute 'value' = " + (float) n.real("value", 0) + " pads X " + x + " of "
                        + x.dtype().jsonName() + ": Pad before opset 11 takes float tensors only (T: float16, float, double), so the value would be cut to an integer; use Pad-11's constant_value input");
                Value value = new Value(n.opName() + "#value", x.dtype(), new long[0]);
                constants.put(value, n.real("value", 0));
                inputs.add(value.name());
            }
        } else {
            n.require(!n.hasAttr("pads") && !n.hasAttr("value"), "pads and value are inputs from opset 11, not attributes");
            pads = n.constantInts(1, "pads");
            if (n.hasInput(2)) {
                n.require(n.input(2).elements() == 1 && n.input(2).dtype() == x.dtype(), "constant_value " + n.input(2) + " must be one " + x.dtype().jsonName() + " element");
                inputs.add(n.input(2).name());
            }
            if (n.hasInput(3)) {
                n.require(n.opset() >= 18, "input 'axes' needs opset 18");
                long[] axes = n.constantInts(3, "axes");
                n.require(pads.length == 2 * axes.length, "pads " + Arrays.toString(pads) + " must have 2 x " + axes.length + " values for axes " + Arrays.toString(axes));
                long[] full = new long[2 * r];
                for (int i = 0; i < axes.length; i++) {
                    int a = n.axis(axes[i], r, "axis");
                    full[a] = pads[i];
                    full[a + r] = pads[i + axes.length];
                }
                pads = full;
            }
        }
        String mode = n.string("mode", "constant");
        n.require(!mode.equals("wrap") || n.opset() >= 11, "mode 'wrap' needs opset 11 (Pad-19 lists it; ONNX Runtime takes it from 11)");
        n.require(pads.length == 2 * r, "pads " + Arrays.toString(pads) + " must have 2 x " + r + " values");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("pads", pads);
        attrs.put("mode", mode);
        Value[] in = inputs.size() == 1 ? new Value[]{x} : constants.isEmpty() ? new Value[]{x, n.input(2)} : new Value[]{x, constants.keySet().iterator().next()};
        Lowered l = op(n, PAD, inputs, Shapes.infer(n, PAD, attrs, in), attrs);
        return new Lowered(l.kind(), l.inputs(), l.outputs(), l.attrs(), l.view(), l.dropped(), constants);
    }

    /** CenterCropPad (18): per listed axis, crop or zero-pad to the target extent, centred (the extra element at the end); a Pad with negative pads where it crops. */
    private static Lowered importCenterCropPad(NodeContext n) {
        Value x = n.input(0);
        int r = x.rank();
        long[] shape = n.constantInts(1, "the shape");
        long[] axes = n.ints("axes", null);
        if (axes == null) {
            axes = new long[r];
            for (int i = 0; i < r; i++) axes[i] = i;
        }
        n.require(axes.length == shape.length, "shape " + Arrays.toString(shape) + " must have one extent per axis " + Arrays.toString(axes));
        long[] pads = new long[2 * r];
        for (int i = 0; i < axes.length; i++) {
            int a = n.axis(axes[i], r, "axis");
            n.require(shape[i] >= 0, "shape " + Arrays.toString(shape) + " has a negative extent");
            long d = shape[i] - x.dim(a), half = Math.floorDiv(Math.abs(d), 2);
            pads[a] = d >= 0 ? half : -half;
            pads[a + r] = d >= 0 ? d - half : -(-d - half);
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("pads", pads);
        attrs.put("mode", "constant");
        return op(n, PAD, List.of(x.name()), Shapes.infer(n, PAD, attrs, x), attrs);
    }

    /** OneHot: inputs indices, depth (constant, any numeric type), values [off, on]; attr axis (default -1). */
    /**
     * TensorScatter (24): past_cache, update (past_cache's shape but at most as long along axis),
     * optional write_indices (int64 [batch], read at run time); axis (default -2, not the batch
     * axis 0), mode linear or circular. The output is past_cache's shape and type.
     */
    private static Lowered importTensorScatter(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 3);
        Value past = n.input(0), u = n.input(1);
        int r = past.rank();
        n.require(r >= 2, "past_cache " + past + " must have rank 2 or more");
        int axis = n.axis(n.integer("axis", -2), r, "axis");
        n.require(axis != 0, "axis " + n.integer("axis", -2) + " is the batch axis 0");
        n.require(u.rank() == r && u.dtype() == past.dtype(), "update " + u + " (" + u.dtype().jsonName() + ") must have past_cache " + past + "'s rank and type");
        for (int d = 0; d < r; d++)
            n.require(d == axis ? u.dim(d) <= past.dim(d) : u.dim(d) == past.dim(d), "update " + u + " does not fit past_cache " + past + " along axis " + axis);
        String mode = n.string("mode", "linear");
        n.require(mode.equals("linear") || mode.equals("circular"), "mode '" + mode + "' is neither linear nor circular");
        List<String> inputs = new ArrayList<>(List.of(past.name(), u.name()));
        if (n.hasInput(2)) {
            Value w = n.input(2);
            n.require(w.dtype() == DType.I64 && w.rank() == 1 && w.dim(0) == past.dim(0), "write_indices " + w + " must be int64 [" + past.dim(0) + "] (one per batch entry)");
            inputs.add(w.name());
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("mode", mode);
        return op(n, TENSOR_SCATTER, inputs, past.shape(), attrs, past.dtype());
    }

    private static Lowered importOneHot(NodeContext n) {
        double[] depth = n.constantReals(1, "depth");
        n.require(depth.length == 1 && depth[0] >= 1, "depth must be one value of at least 1, got " + Arrays.toString(depth));
        Value idx = n.input(0);
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) n.axis(n.integer("axis", -1), idx.rank() + 1, "axis"));
        attrs.put("depth", (long) depth[0]);
        Value values = n.input(2);
        Lowered l = op(n, ONE_HOT, List.of(idx.name(), values.name()), Shapes.infer(n, ONE_HOT, attrs, idx, values), attrs, values.dtype());
        return l;
    }
}
