package org.arenaplan.exec;

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

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.product;

/**
 * The lowering of the reductions and the softmax family ({@code ir.ReductionOps}) to
 * {@link Kernels#REDUCE} and {@link Kernels#SOFTMAX} calls, for {@link OpLowering}. Element
 * types are checked here, so a device never sees one its kernel does not take.
 */
final class ReductionLowering {
    /** The {@link Kernels#REDUCE} op code of each reduce kind. */
    private static final Map<String, Integer> REDUCE_CODES = Map.ofEntries(
            Map.entry(OpKinds.REDUCE_SUM, Kernels.R_SUM), Map.entry(OpKinds.REDUCE_MEAN, Kernels.R_MEAN),
            Map.entry(OpKinds.REDUCE_MAX, Kernels.R_MAX), Map.entry(OpKinds.REDUCE_MIN, Kernels.R_MIN),
            Map.entry(OpKinds.REDUCE_PROD, Kernels.R_PROD), Map.entry(OpKinds.REDUCE_L1, Kernels.R_L1),
            Map.entry(OpKinds.REDUCE_L2, Kernels.R_L2), Map.entry(OpKinds.REDUCE_LOG_SUM, Kernels.R_LOG_SUM),
            Map.entry(OpKinds.REDUCE_LOG_SUM_EXP, Kernels.R_LOG_SUM_EXP), Map.entry(OpKinds.REDUCE_SUM_SQUARE, Kernels.R_SUM_SQUARE),
            Map.entry(OpKinds.ARG_MAX, Kernels.R_ARGMAX), Map.entry(OpKinds.ARG_MIN, Kernels.R_ARGMIN));
    private static final Map<String, Integer> SOFTMAX_MODES = Map.of(OpKinds.SOFTMAX, Kernels.SOFTMAX_MODE,
            OpKinds.LOG_SOFTMAX, Kernels.LOG_SOFTMAX_MODE, OpKinds.HARDMAX, Kernels.HARDMAX_MODE);
    /** The most dims (kept plus reduced, after merging) a reduce call may carry: CUDA takes 40 ints. */
    static final int MAX_REDUCE_DIMS = 17;

    private ReductionLowering() { }

    /** The kernel calls of {@code op}, or null when its kind is not one of this family. */
    static List<KernelCall> lower(OpLowering l, Op op) {
        Integer code = REDUCE_CODES.get(op.kind());
        if (code != null) return List.of(reduce(l, op, code));
        Integer mode = SOFTMAX_MODES.get(op.kind());
        if (mode != null) return List.of(softmax(l, op, mode));
        return NormalizationLowering.lower(l, op);
    }

    private static KernelCall reduce(OpLowering l, Op op, int code) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        long[] xs = l.shape(op, x);
        DType t = l.dtype(x);
        boolean arg = code == Kernels.R_ARGMAX || code == Kernels.R_ARGMIN;
        OpAttrs at = OpAttrs.of(op);
        boolean[] reduced = new boolean[xs.length];
        if (arg) {
            long a = at.integer("axis");
            int d = (int) (a < 0 ? a + xs.length : a);
            if (d < 0 || d >= xs.length) throw fail(op, "axis " + a + " is out of range for " + Arrays.toString(xs));
            reduced[d] = true;
        } else {
            long[] axes = at.intsOrNull("axes");
            if (axes == null || axes.length == 0) Arrays.fill(reduced, true);
            else for (long a : axes) {
                int d = (int) (a < 0 ? a + xs.length : a);
                if (d < 0 || d >= xs.length) throw fail(op, "axis " + a + " is out of range for " + Arrays.toString(xs));
                reduced[d] = true;
            }
        }
        boolean integral = t.isIntegral();
        boolean integralOp = code == Kernels.R_SUM || code == Kernels.R_MAX || code == Kernels.R_MIN || code == Kernels.R_PROD || arg;
        if (integral && !integralOp)
            throw fail(op, "'" + x + "' is " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16, f64" + (integralOp ? " or an integer type" : ""));
        if (arg && l.dtype(y) != DType.I64) throw fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not int64");
        if (!arg) l.sameType(op, x, y);
        StridedWalk walk = new StridedWalk(xs, reduced, StridedWalk.contiguous(xs));
        int k = walk.keptDims(), r = walk.reducedDims();
        if (k + r > MAX_REDUCE_DIMS) throw fail(op, "input " + Arrays.toString(xs) + " has " + (k + r) + " dims to walk after merging; the reduce kernel takes at most " + MAX_REDUCE_DIMS);
        if (l.elements(y) != walk.keptCount()) throw fail(op, "output '" + y + "' must have " + walk.keptCount() + " elements, has " + l.elements(y));
        List<Long> ints = new ArrayList<>(List.of((long) code, (long) t.onnxCode(), arg ? at.integer("select_last_index") : 0L, (long) k, (long) r));
        walk.appendKept(ints);
        walk.appendReduced(ints);
        return l.call(op, Kernels.REDUCE, List.of(l.read(x), l.write(y)), longs(ints));
    }

    static long[] longs(List<Long> v) {
        return v.stream().mapToLong(Long::longValue).toArray();
    }

    private static KernelCall softmax(OpLowering l, Op op, int mode) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        l.requireF32(op, x);
        l.requireF32(op, y);
        long[] s = l.shape(op, x);
        OpAttrs at = OpAttrs.of(op);
        long axis = at.integer("axis");
        int a = (int) (axis < 0 ? axis + s.length : axis);
        if (a < 0 || a >= s.length) throw fail(op, "axis " + axis + " is out of range for shape " + Arrays.toString(s));
        long outer = product(Arrays.copyOf(s, a));
        boolean single = at.integer("single_axis") == 1;
        long n = single ? s[a] : product(Arrays.copyOfRange(s, a, s.length));
        long inner = single ? product(Arrays.copyOfRange(s, a + 1, s.length)) : 1;
        if (l.elements(y) != outer * n * inner) throw fail(op, "output '" + y + "' must have " + outer * n * inner + " elements");
        return l.call(op, Kernels.SOFTMAX, List.of(l.read(x), l.write(y)), new long[]{outer, n, inner, mode});
    }
}
