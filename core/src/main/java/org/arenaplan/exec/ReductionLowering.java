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
        return null;
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
        if (t == DType.F64 || (integral && !integralOp))
            throw fail(op, "'" + x + "' is " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16" + (integralOp ? " or an integer type" : ""));
        if (arg && l.dtype(y) != DType.I64) throw fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not int64");
        if (!arg) l.sameType(op, x, y);
        // dims of extent 1 are dropped; neighbours of one kind whose strides chain are merged
        List<long[]> kept = new ArrayList<>(), red = new ArrayList<>();   // {extent, stride}
        long stride = 1;
        long[] strides = new long[xs.length];
        for (int d = xs.length - 1; d >= 0; d--) { strides[d] = stride; stride *= xs[d]; }
        Boolean prev = null;
        for (int d = 0; d < xs.length; d++) {
            if (xs[d] == 1) continue;
            List<long[]> into = reduced[d] ? red : kept;
            long[] last = into.isEmpty() ? null : into.get(into.size() - 1);
            if (!arg && prev != null && prev == reduced[d] && last != null && last[1] == xs[d] * strides[d]) {
                last[0] *= xs[d];
                last[1] = strides[d];
            } else {
                into.add(new long[]{xs[d], strides[d]});
            }
            prev = reduced[d];
        }
        int k = kept.size(), r = red.size();
        if (k + r > MAX_REDUCE_DIMS) throw fail(op, "input " + Arrays.toString(xs) + " has " + (k + r) + " dims to walk after merging; the reduce kernel takes at most " + MAX_REDUCE_DIMS);
        long outN = 1;
        for (long[] e : kept) outN *= e[0];
        if (l.elements(y) != outN) throw fail(op, "output '" + y + "' must have " + outN + " elements, has " + l.elements(y));
        long[] ints = new long[5 + 2 * (k + r)];
        ints[0] = code;
        ints[1] = t.onnxCode();
        ints[2] = arg ? at.integer("select_last_index") : 0;
        ints[3] = k;
        ints[4] = r;
        for (int d = 0; d < k; d++) { ints[5 + d] = kept.get(d)[0]; ints[5 + k + d] = kept.get(d)[1]; }
        for (int d = 0; d < r; d++) { ints[5 + 2 * k + d] = red.get(d)[0]; ints[5 + 2 * k + r + d] = red.get(d)[1]; }
        return l.call(op, Kernels.REDUCE, List.of(l.read(x), l.write(y)), ints);
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
