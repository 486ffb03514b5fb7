package org.arenaplan.exec;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.exec.ReductionLowering.longs;

/**
 * The lowering of the normalisations, CumSum, TopK and the losses ({@code ir.NormalizationOps})
 * to {@link Kernels#NORMALIZE}, {@link Kernels#CUMSUM}, {@link Kernels#TOPK} and
 * {@link Kernels#NLL_LOSS} calls, for {@link OpLowering}; element types are checked here.
 */
final class NormalizationLowering {
    /** The most dims (kept plus reduced, after merging) a normalize call may carry: CUDA takes 40 ints. */
    static final int MAX_NORMALIZE_DIMS = 8;

    private NormalizationLowering() { }

    /** The kernel calls of {@code op}, or null when its kind is not one of these. */
    static List<KernelCall> lower(OpLowering l, Op op) {
        return switch (op.kind()) {
            case OpKinds.LAYER_NORM -> List.of(layerNorm(l, op));
            case OpKinds.INSTANCE_NORM, OpKinds.GROUP_NORM -> List.of(groupNorm(l, op));
            case OpKinds.MEAN_VARIANCE_NORM -> List.of(overAxes(l, op, Kernels.N_MVN, axes(l, op), 1e-9));
            case OpKinds.LP_NORM -> {
                long a = OpAttrs.of(op).integer("axis");
                yield List.of(overAxes(l, op, OpAttrs.of(op).integer("p") == 1 ? Kernels.N_L1 : Kernels.N_L2, new long[]{a}, 0));
            }
            case OpKinds.CUMSUM -> List.of(cumsum(l, op));
            case OpKinds.TOP_K -> List.of(topK(l, op));
            case OpKinds.SOFTMAX_CROSS_ENTROPY_LOSS, OpKinds.NLL_LOSS -> List.of(loss(l, op));
            default -> null;
        };
    }

    private static void requireF32(OpLowering l, Op op) {
        for (String t : op.inputs()) l.requireF32(op, t);
        for (String t : op.outputs()) l.requireF32(op, t);
    }

    private static int axis(Op op, long axis, int rank) {
        int a = (int) (axis < 0 ? axis + rank : axis);
        if (a < 0 || a >= rank) throw fail(op, "axis " + axis + " is out of range for rank " + rank);
        return a;
    }

    /** LayerNormalization: the axes from axis on reduced, scale and bias broadcast over them; Mean and InvStdDev where asked. */
    private static KernelCall layerNorm(OpLowering l, Op op) {
        requireF32(l, op);
        String x = op.inputs().get(0);
        long[] xs = l.shape(op, x);
        int a = axis(op, OpAttrs.of(op).integer("axis"), xs.length);
        boolean[] reduce = new boolean[xs.length];
        Arrays.fill(reduce, a, xs.length, true);
        long[] normalized = Arrays.copyOfRange(xs, a, xs.length);
        long[][] strides = {StridedWalk.contiguous(xs), scaleStrides(l, op, 1, normalized, a), scaleStrides(l, op, 2, normalized, a)};
        return normalize(l, op, Kernels.N_STANDARDIZE, new StridedWalk(xs, reduce, strides), op.inputs().size() > 1, op.inputs().size() > 2,
                OpAttrs.of(op).real("epsilon"));
    }

    /** Strides of input j (scale or bias) broadcast over the normalised axes, 0 over the axes before them; zeros when absent. */
    private static long[] scaleStrides(OpLowering l, Op op, int j, long[] normalized, int before) {
        long[] s = new long[before + normalized.length];
        if (op.inputs().size() <= j) return s;
        long[] b = StridedWalk.broadcast(l.shape(op, op.inputs().get(j)), normalized);
        System.arraycopy(b, 0, s, before, b.length);
        return s;
    }

    /**
     * InstanceNormalization (groups of one channel) and GroupNormalization: X [N, C, spatial...]
     * walked as [N, G, C/G, spatial], N and G kept; scale and bias per channel ([C]) or per group ([G]).
     */
    private static KernelCall groupNorm(OpLowering l, Op op) {
        requireF32(l, op);
        String x = op.inputs().get(0);
        long[] xs = l.shape(op, x);
        if (xs.length < 3) throw fail(op, "input '" + x + "' " + Arrays.toString(xs) + " must be N x C x spatial axes");
        long c = xs[1], g = op.kind().equals(OpKinds.GROUP_NORM) ? OpAttrs.of(op).integer("num_groups") : c;
        if (c % g != 0) throw fail(op, "num_groups " + g + " does not divide the " + c + " channels");
        long spatial = product(Arrays.copyOfRange(xs, 2, xs.length));
        long[] shape = {xs[0], g, c / g, spatial};
        long[] xStrides = {c * spatial, c / g * spatial, spatial, 1};
        boolean perChannel = l.elements(op.inputs().get(1)) == c;
        long[] scale = perChannel ? new long[]{0, c / g, 1, 0} : new long[]{0, 1, 0, 0};
        for (int j = 1; j < 3; j++) {
            long n = l.elements(op.inputs().get(j));
            if (n != (perChannel ? c : g)) throw fail(op, "'" + op.inputs().get(j) + "' must have " + (perChannel ? c : g) + " values, has " + n);
        }
        StridedWalk walk = new StridedWalk(shape, new boolean[]{false, false, true, true}, xStrides, scale, scale);
        return normalize(l, op, Kernels.N_STANDARDIZE, walk, true, true, OpAttrs.of(op).real("epsilon"));
    }

    private static long[] axes(OpLowering l, Op op) {
        long[] a = OpAttrs.of(op).intsOrNull("axes");
        return a == null ? new long[]{0, 2, 3} : a;
    }

    /** MeanVarianceNormalization and LpNormalization: the listed axes reduced, no scale or bias. */
    private static KernelCall overAxes(OpLowering l, Op op, int mode, long[] axes, double epsilon) {
        requireF32(l, op);
        long[] xs = l.shape(op, op.inputs().get(0));
        boolean[] reduce = new boolean[xs.length];
        for (long a : axes) reduce[axis(op, a, xs.length)] = true;
        long[] zero = new long[xs.length];
        return normalize(l, op, mode, new StridedWalk(xs, reduce, StridedWalk.contiguous(xs), zero, zero), false, false, epsilon);
    }

    private static KernelCall normalize(OpLowering l, Op op, int mode, StridedWalk walk, boolean scale, boolean bias, double epsilon) {
        int k = walk.keptDims(), r = walk.reducedDims();
        if (k + r > MAX_NORMALIZE_DIMS) throw fail(op, "the input has " + (k + r) + " dims to walk after merging; the normalize kernel takes at most " + MAX_NORMALIZE_DIMS);
        boolean mean = op.outputs().size() > 1, invStd = op.outputs().size() > 2;
        List<Long> ints = new ArrayList<>(List.of((long) mode, scale ? 1L : 0L, bias ? 1L : 0L, mean ? 1L : 0L, invStd ? 1L : 0L, (long) k, (long) r));
        walk.appendKept(ints);
        walk.appendReduced(ints);
        List<KernelArg> args = new ArrayList<>(List.of(l.read(op.inputs().get(0))));
        if (scale) args.add(l.read(op.inputs().get(1)));
        if (bias) args.add(l.read(op.inputs().get(2)));
        args.add(l.write(op.outputs().get(0)));
        for (int j = 1; j < op.outputs().size(); j++) {
            if (l.elements(op.outputs().get(j)) != walk.keptCount()) throw fail(op, "output '" + op.outputs().get(j) + "' must have " + walk.keptCount() + " values");
            args.add(l.write(op.outputs().get(j)));
        }
        return l.call(op, Kernels.NORMALIZE, args, longs(ints), new double[]{epsilon});
    }

    /** [outer, n, inner] around {@code axis} of {@code s}. */
    private static long[] around(long[] s, int axis) {
        return new long[]{product(Arrays.copyOf(s, axis)), s[axis], product(Arrays.copyOfRange(s, axis + 1, s.length))};
    }

    private static DType summable(OpLowering l, Op op, String x, boolean f64) {
        DType t = l.dtype(x);
        if ((t == DType.F64 && !f64) || t == DType.BOOL)
            throw fail(op, "'" + x + "' is " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16" + (f64 ? ", f64" : "") + " or an integer type");
        return t;
    }

    private static KernelCall cumsum(OpLowering l, Op op) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        DType t = summable(l, op, x, true);
        l.sameType(op, x, y);
        long[] xs = l.shape(op, x);
        long[] a = around(xs, axis(op, OpAttrs.of(op).integer("axis"), xs.length));
        OpAttrs at = OpAttrs.of(op);
        return l.call(op, Kernels.CUMSUM, List.of(l.read(x), l.write(y)), new long[]{a[0], a[1], a[2], at.integer("exclusive"), at.integer("reverse"), t.onnxCode()});
    }

    private static KernelCall topK(OpLowering l, Op op) {
        if (op.outputs().size() != 2) throw fail(op, "TopK has two outputs, Values and Indices");
        String x = op.inputs().get(0), v = op.outputs().get(0), i = op.outputs().get(1);
        DType t = summable(l, op, x, false);
        l.sameType(op, x, v);
        if (l.dtype(i) != DType.I64) throw fail(op, "Indices '" + i + "' is " + l.dtype(i).jsonName() + ", not int64");
        long[] xs = l.shape(op, x);
        OpAttrs at = OpAttrs.of(op);
        long[] a = around(xs, axis(op, at.integer("axis"), xs.length));
        long k = at.integer("k");
        if (k > a[1] || l.elements(v) != a[0] * k * a[2]) throw fail(op, "Values '" + v + "' must hold " + a[0] * k * a[2] + " elements for k = " + k);
        return l.call(op, Kernels.TOPK, List.of(l.read(x), l.write(v), l.write(i)), new long[]{a[0], a[1], a[2], k, at.integer("largest"), t.onnxCode(), t.bytes()});
    }

    private static KernelCall loss(OpLowering l, Op op) {
        String x = op.inputs().get(0), target = op.inputs().get(1);
        l.requireF32(op, x);
        for (String o : op.outputs()) l.requireF32(op, o);
        if (op.inputs().size() > 2) l.requireF32(op, op.inputs().get(2));
        DType tt = l.dtype(target);
        if (tt != DType.I64 && tt != DType.I32) throw fail(op, "target '" + target + "' is " + tt.jsonName() + "; it must be int64 or int32");
        long[] xs = l.shape(op, x);
        if (xs.length < 2) throw fail(op, "input '" + x + "' " + Arrays.toString(xs) + " must be N x C x d...");
        long d = product(Arrays.copyOfRange(xs, 2, xs.length));
        Object r = op.attrs().getOrDefault("reduction", "mean");
        long reduction = switch (String.valueOf(r)) {
            case "none" -> Kernels.LOSS_NONE;
            case "sum" -> Kernels.LOSS_SUM;
            case "mean" -> Kernels.LOSS_MEAN;
            default -> throw fail(op, "reduction '" + r + "' is not none, sum or mean");
        };
        Object ignore = op.attrs().get("ignore_index");
        boolean weight = op.inputs().size() > 2, logProb = op.outputs().size() > 1;
        boolean softmax = op.kind().equals(OpKinds.SOFTMAX_CROSS_ENTROPY_LOSS);
        if (logProb && !softmax) throw fail(op, op.kind() + " has one output");
        if (l.elements(target) != xs[0] * d) throw fail(op, "target '" + target + "' must have " + xs[0] * d + " values");
        List<KernelArg> args = new ArrayList<>(List.of(l.read(x), l.read(target)));
        if (weight) args.add(l.read(op.inputs().get(2)));
        args.add(l.write(op.outputs().get(0)));
        if (logProb) args.add(l.write(op.outputs().get(1)));
        long[] ints = {softmax ? 1 : 0, xs[0], xs[1], d, reduction, ignore != null ? 1 : 0, ignore instanceof Number n ? n.longValue() : 0,
            weight ? 1 : 0, logProb ? 1 : 0, tt.onnxCode()};
        return l.call(op, Kernels.NLL_LOSS, args, ints);
    }
}
