package org.arenaplan.exec;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.IndexShapeRules;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.exec.OpLowering.product;

/**
 * The lowering of the shape and index kinds (Slice with starts, Expand, Tile, DepthToSpace,
 * SpaceToDepth, Pad, Trilu, GatherElements, ScatterElements, GatherND, ScatterND, OneHot) to the
 * kernels of {@link Kernels#INDEX}; part of {@link OpLowering}, whose tensor helpers it uses.
 * Slice, Expand, Tile and the two block rearrangements are one {@link Kernels#STRIDED_COPY}
 * each: a view of the input with computed strides (0 where broadcast, negative for negative
 * steps) copied into the contiguous output. Every kind moves elements of any type.
 */
final class IndexLowering {
    /** The kinds lowered here. */
    static final Set<String> KINDS = Set.of(OpKinds.EXPAND, OpKinds.TILE, OpKinds.PAD, OpKinds.TRILU, OpKinds.GATHER_ELEMENTS,
            OpKinds.SCATTER_ELEMENTS, OpKinds.GATHER_ND, OpKinds.SCATTER_ND, OpKinds.ONE_HOT, OpKinds.DEPTH_TO_SPACE, OpKinds.SPACE_TO_DEPTH);

    private static final int MAX_STRIDED_RANK = 16, MAX_RANK = 8;

    private final OpLowering lo;

    IndexLowering(OpLowering lo) {
        this.lo = lo;
    }

    /** Whether {@code op} is lowered here: one of {@link #KINDS}, or a Slice with starts (a Slice without is a declared view). */
    static boolean handles(Op op) {
        return KINDS.contains(op.kind()) || (op.kind().equals(OpKinds.SLICE) && op.attrs().containsKey("starts"));
    }

    List<KernelCall> lower(Op op) {
        try {
            return switch (op.kind()) {
                case OpKinds.SLICE -> List.of(slice(op));
                case OpKinds.EXPAND -> List.of(expand(op));
                case OpKinds.TILE -> List.of(tile(op));
                case OpKinds.DEPTH_TO_SPACE -> List.of(depthToSpace(op));
                case OpKinds.SPACE_TO_DEPTH -> List.of(spaceToDepth(op));
                case OpKinds.PAD -> List.of(pad(op));
                case OpKinds.TRILU -> List.of(trilu(op));
                case OpKinds.GATHER_ELEMENTS -> List.of(gatherElements(op));
                case OpKinds.SCATTER_ELEMENTS -> scatterElements(op);
                case OpKinds.GATHER_ND -> List.of(gatherNd(op));
                case OpKinds.SCATTER_ND -> scatterNd(op);
                case OpKinds.ONE_HOT -> List.of(oneHot(op));
                default -> throw fail(op, "not a shape or index kind");
            };
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
    }

    /** y (contiguous, {@code shape}) = x[offset + sum i_d * stride_d]. */
    private KernelCall strided(Op op, long[] shape, long[] stride, long offset) {
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

    private KernelCall slice(Op op) {
        long[] xs = lo.shape(op, op.inputs().get(0)), xst = strides(xs);
        IndexShapeRules.Range[] r = IndexShapeRules.slice(OpAttrs.of(op), xs);
        long[] shape = new long[xs.length], stride = new long[xs.length];
        long offset = 0;
        for (int d = 0; d < xs.length; d++) {
            shape[d] = r[d].count();
            stride[d] = r[d].step() * xst[d];
            offset += r[d].start() * xst[d];
        }
        return strided(op, shape, stride, product(shape) == 0 ? 0 : offset);
    }

    private KernelCall expand(Op op) {
        long[] xs = lo.shape(op, op.inputs().get(0)), ys = lo.shape(op, out(op)), xst = strides(xs);
        long[] stride = new long[ys.length];
        for (int d = ys.length - 1, e = xs.length - 1; d >= 0; d--, e--) {
            if (e < 0) continue;
            if (xs[e] != ys[d] && xs[e] != 1) throw fail(op, Arrays.toString(xs) + " does not broadcast to " + Arrays.toString(ys));
            stride[d] = xs[e] == 1 ? 0 : xst[e];
        }
        return strided(op, ys, stride, 0);
    }

    /** Tile as [r0, x0, r1, x1, ...] with stride 0 on the repeats: row-major, that is the tiled output. */
    private KernelCall tile(Op op) {
        long[] xs = lo.shape(op, op.inputs().get(0)), xst = strides(xs), rep = OpAttrs.of(op).intsOrNull("repeats");
        if (rep == null || rep.length != xs.length) throw fail(op, "attribute 'repeats' must have one value per axis");
        long[] shape = new long[2 * xs.length], stride = new long[2 * xs.length];
        for (int d = 0; d < xs.length; d++) {
            shape[2 * d] = rep[d];
            shape[2 * d + 1] = xs[d];
            stride[2 * d + 1] = xst[d];
        }
        return strided(op, shape, stride, 0);
    }

    /** ONNX DepthToSpace: DCR reads channel (i b + j) C' + c, CRD reads c b^2 + i b + j, for y[n, c, h b + i, w b + j]. */
    private KernelCall depthToSpace(Op op) {
        long[] xs = lo.shape(op, op.inputs().get(0));
        long b = OpAttrs.of(op).integer("blocksize"), n = xs[0], c = xs[1] / (b * b), h = xs[2], w = xs[3], hw = h * w;
        boolean crd = IndexShapeRules.string(OpAttrs.of(op), "mode", "DCR").equals("CRD");
        long[] shape = {n, c, h, b, w, b};
        long[] stride = crd ? new long[]{xs[1] * hw, b * b * hw, w, b * hw, 1, hw} : new long[]{xs[1] * hw, hw, w, b * c * hw, 1, c * hw};
        return strided(op, shape, stride, 0);
    }

    /** ONNX SpaceToDepth: y[n, (i b + j) C + c, h', w'] = x[n, c, h' b + i, w' b + j]. */
    private KernelCall spaceToDepth(Op op) {
        long[] xs = lo.shape(op, op.inputs().get(0));
        long b = OpAttrs.of(op).integer("blocksize"), n = xs[0], c = xs[1], h = xs[2], w = xs[3];
        return strided(op, new long[]{n, b, b, c, h / b, w / b}, new long[]{c * h * w, w, 1, h * w, b * w, b}, 0);
    }

    private KernelCall pad(Op op) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = lo.shape(op, x), ys = lo.shape(op, y), pads = OpAttrs.of(op).intsOrNull("pads");
        int rank = xs.length;
        if (rank > MAX_RANK) throw fail(op, "rank " + rank + " exceeds the pad kernel's " + MAX_RANK);
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

    private KernelCall trilu(Op op) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = lo.shape(op, x);
        long rows = xs[xs.length - 2], cols = xs[xs.length - 1];
        OpAttrs a = OpAttrs.of(op);
        return lo.call(op, Kernels.TRILU, List.of(lo.read(x), lo.write(y)),
                new long[]{product(xs) / Math.max(1, rows * cols), rows, cols, a.integer("k"), a.integer("upper"), lo.sameType(op, x, y).bytes()});
    }

    private DType indexType(Op op, String idx) {
        DType t = lo.dtype(idx);
        if (t != DType.I64 && t != DType.I32) throw fail(op, "indices '" + idx + "' are " + t.jsonName() + "; " + op.kind() + " takes int64 or int32");
        return t;
    }

    /** [rank, iShape, dShape, axis] of GatherElements and ScatterElements. */
    private long[] elementsGeometry(Op op, String data, String idx, int extra) {
        long[] ds = lo.shape(op, data), is = lo.shape(op, idx);
        int rank = ds.length;
        if (rank > MAX_RANK) throw fail(op, "rank " + rank + " exceeds the kernel's " + MAX_RANK);
        long axis = OpAttrs.of(op).integer("axis");
        long[] ints = new long[2 + 2 * rank + extra];
        ints[0] = rank;
        System.arraycopy(is, 0, ints, 1, rank);
        System.arraycopy(ds, 0, ints, 1 + rank, rank);
        ints[1 + 2 * rank] = axis < 0 ? axis + rank : axis;
        return ints;
    }

    private KernelCall gatherElements(Op op) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        long[] ints = elementsGeometry(op, d, idx, 2);
        ints[ints.length - 2] = lo.sameType(op, d, y).bytes();
        ints[ints.length - 1] = indexType(op, idx).onnxCode();
        return lo.call(op, Kernels.GATHER_ELEMENTS, List.of(lo.read(d), lo.read(idx), lo.write(y)), ints);
    }

    private List<KernelCall> scatterElements(Op op) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), u = op.inputs().get(2), y = out(op);
        long[] ints = elementsGeometry(op, d, idx, 4);
        DType t = lo.sameType(op, d, u, y);
        ints[ints.length - 4] = IndexShapeRules.reduction(OpAttrs.of(op));
        ints[ints.length - 3] = t.bytes();
        ints[ints.length - 2] = t.onnxCode();
        ints[ints.length - 1] = indexType(op, idx).onnxCode();
        return List.of(lo.copy(op, d), lo.call(op, Kernels.SCATTER_ELEMENTS, List.of(lo.read(y), lo.read(idx), lo.read(u), lo.write(y)), ints));
    }

    private KernelCall gatherNd(Op op) {
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
        ints[5 + k] = indexType(op, idx).onnxCode();
        return lo.call(op, Kernels.GATHER_ND, List.of(lo.read(d), lo.read(idx), lo.write(y)), ints);
    }

    private List<KernelCall> scatterNd(Op op) {
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
        ints[6 + k] = indexType(op, idx).onnxCode();
        return List.of(lo.copy(op, d), lo.call(op, Kernels.SCATTER_ND, List.of(lo.read(y), lo.read(idx), lo.read(u), lo.write(y)), ints));
    }

    private KernelCall oneHot(Op op) {
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
}
