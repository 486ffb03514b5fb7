package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpKinds;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ONNX reductions and softmax family, opsets 9..21, lowered to the kinds of
 * {@code ir.ReductionOps}, with each version difference (ONNX Changelog.md):
 * <ul>
 *   <li>ReduceSum takes its axes as input #1 from opset 13, the other Reduce ops from 18 (an
 *       attribute before); from the same versions {@code noop_with_empty_axes} = 1 with no or
 *       empty axes makes the op an identity (a view), else no axes reduce every axis;
 *       negative axes from 11.</li>
 *   <li>ArgMax/ArgMin: {@code select_last_index} from 12; negative axis from 11.</li>
 *   <li>Softmax, LogSoftmax, Hardmax: before 13 the input is coerced to 2-D at {@code axis}
 *       (default 1) and each row normalised; from 13 the one axis {@code axis} (default -1).</li>
 * </ul>
 */
final class ReductionNodes {
    private static final Map<String, String> REDUCE_KINDS = Map.ofEntries(
            Map.entry("ReduceSum", OpKinds.REDUCE_SUM), Map.entry("ReduceMean", OpKinds.REDUCE_MEAN),
            Map.entry("ReduceMax", OpKinds.REDUCE_MAX), Map.entry("ReduceMin", OpKinds.REDUCE_MIN),
            Map.entry("ReduceProd", OpKinds.REDUCE_PROD), Map.entry("ReduceL1", OpKinds.REDUCE_L1),
            Map.entry("ReduceL2", OpKinds.REDUCE_L2), Map.entry("ReduceLogSum", OpKinds.REDUCE_LOG_SUM),
            Map.entry("ReduceLogSumExp", OpKinds.REDUCE_LOG_SUM_EXP), Map.entry("ReduceSumSquare", OpKinds.REDUCE_SUM_SQUARE));

    /** The op types lowered here. */
    static final Set<String> SUPPORTED = union(REDUCE_KINDS.keySet(), Set.of("ArgMax", "ArgMin", "Softmax", "LogSoftmax", "Hardmax"));

    /** ONNX attributes consumed at import, beyond those of the registry kinds. */
    static final Map<String, Set<String>> ONNX_ONLY_ATTRS = onnxOnly();

    private ReductionNodes() { }

    static Lowered lower(NodeContext n) {
        String kind = REDUCE_KINDS.get(n.opType());
        if (kind != null) return reduce(n, kind);
        return switch (n.opType()) {
            case "ArgMax" -> arg(n, OpKinds.ARG_MAX);
            case "ArgMin" -> arg(n, OpKinds.ARG_MIN);
            case "Softmax" -> softmax(n, OpKinds.SOFTMAX);
            case "LogSoftmax" -> softmax(n, OpKinds.LOG_SOFTMAX);
            case "Hardmax" -> softmax(n, OpKinds.HARDMAX);
            default -> throw new IllegalStateException(n.opType());
        };
    }

    private static Lowered reduce(NodeContext n, String kind) {
        NodeLowering.requireInputs(n, 1, 2);
        Value x = n.input(0);
        boolean axesInput = n.opset() >= (n.opType().equals("ReduceSum") ? 13 : 18);
        long[] axes;
        if (axesInput) {
            n.require(!n.hasAttr("axes"), "attribute 'axes' is input #1 from opset " + (n.opType().equals("ReduceSum") ? 13 : 18));
            axes = n.hasInput(1) ? n.constantInts(1, "axes") : new long[0];
            if (axes.length == 0 && n.integer("noop_with_empty_axes", 0) != 0) return NodeLowering.identity(n);
        } else {
            n.require(!n.hasInput(1), "takes its axes as an attribute before opset " + (n.opType().equals("ReduceSum") ? 13 : 18) + ", not as input #1");
            n.require(!n.hasAttr("noop_with_empty_axes"), "attribute 'noop_with_empty_axes' needs opset " + (n.opType().equals("ReduceSum") ? 13 : 18));
            axes = n.ints("axes", new long[0]);
        }
        boolean[] reduced = new boolean[x.rank()];
        if (axes.length == 0) Arrays.fill(reduced, true);
        long[] resolved = new long[axes.length];
        for (int i = 0; i < axes.length; i++) {
            int d = n.axis(axes[i], x.rank(), "axis");
            n.require(!reduced[d], "axes " + Arrays.toString(axes) + " name axis " + d + " twice");
            reduced[d] = true;
            resolved[i] = d;
        }
        checkType(n, x, kind);
        boolean keep = n.integer("keepdims", 1) != 0;
        Map<String, Object> attrs = new LinkedHashMap<>();
        if (axes.length > 0) attrs.put("axes", resolved);
        attrs.put("keepdims", keep ? 1L : 0L);
        return NodeLowering.op(n, kind, List.of(x.name()), shape(x.shape(), reduced, keep), attrs, x.dtype());
    }

    private static Lowered arg(NodeContext n, String kind) {
        NodeLowering.requireInputs(n, 1, 1);
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        int axis = n.axis(n.integer("axis", 0), x.rank(), "axis");
        n.require(x.dim(axis) > 0, "axis " + axis + " of " + x + " is empty: there is no index to return");
        n.require(n.opset() >= 12 || !n.hasAttr("select_last_index"), "attribute 'select_last_index' needs opset 12");
        long last = n.integer("select_last_index", 0);
        n.require(last == 0 || last == 1, "select_last_index must be 0 or 1, got " + last);
        checkType(n, x, kind);
        boolean keep = n.integer("keepdims", 1) != 0;
        boolean[] reduced = new boolean[x.rank()];
        reduced[axis] = true;
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("keepdims", keep ? 1L : 0L);
        attrs.put("select_last_index", last);
        return NodeLowering.op(n, kind, List.of(x.name()), shape(x.shape(), reduced, keep), attrs, DType.I64);
    }

    /** Before opset 13 the dims from axis (default 1) on are normalised together; from 13 the one axis (default -1). */
    private static Lowered softmax(NodeContext n, String kind) {
        NodeLowering.requireInputs(n, 1, 1);
        Value x = n.input(0);
        n.require(x.dtype() == DType.F32, "input " + x + " is " + x.dtype().jsonName() + "; " + n.opType() + " computes f32 only");
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        boolean v13 = n.opset() >= 13;
        int axis = n.axis(n.integer("axis", v13 ? -1 : 1), x.rank(), "axis");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("single_axis", v13 ? 1L : 0L);
        return NodeLowering.op(n, kind, List.of(x.name()), x.shape(), attrs, x.dtype());
    }

    /** Floats always; integer types only where the kernel computes them. */
    private static void checkType(NodeContext n, Value x, String kind) {
        DType t = x.dtype();
        boolean integralOk = kind.equals(OpKinds.REDUCE_SUM) || kind.equals(OpKinds.REDUCE_MAX) || kind.equals(OpKinds.REDUCE_MIN)
                || kind.equals(OpKinds.REDUCE_PROD) || kind.equals(OpKinds.ARG_MAX) || kind.equals(OpKinds.ARG_MIN);
        n.require(t.isFloat32Compute() || t == DType.F64 || (t.isIntegral() && integralOk),
                "input " + x + " is " + t.jsonName() + "; " + n.opType() + " computes f32, f16, bf16, f64" + (integralOk ? " and the integer types" : ""));
    }

    private static long[] shape(long[] x, boolean[] reduced, boolean keep) {
        long[] out = new long[x.length];
        int k = 0;
        for (int d = 0; d < x.length; d++) {
            if (!reduced[d]) out[k++] = x[d];
            else if (keep) out[k++] = 1;
        }
        return Arrays.copyOf(out, k);
    }

    private static Map<String, Set<String>> onnxOnly() {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        for (String t : REDUCE_KINDS.keySet()) m.put(t, Set.of("noop_with_empty_axes"));
        return m;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> s = new java.util.HashSet<>(a);
        s.addAll(b);
        return Set.copyOf(s);
    }
}
