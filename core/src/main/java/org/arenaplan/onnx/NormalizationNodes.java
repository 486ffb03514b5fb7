package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ONNX normalisations, CumSum, TopK and the losses, opsets 9..21, lowered to the kinds of
 * {@code ir.NormalizationOps}, with each version difference (ONNX Changelog.md):
 * LayerNormalization exists from 17 (stash_type 1 only: statistics are computed in double and
 * stored as f32); GroupNormalization's scale and bias are per group at 18..20 and per channel
 * from 21 (which adds stash_type); TopK takes K as an attribute at 1..9 and as a constant input
 * from 10, with largest/sorted and a negative axis from 11; CumSum's axis is a constant input;
 * MeanVarianceNormalization's axes default to [0, 2, 3]. Constant operands must be known at
 * import (initializers, Constants, or inputs given by {@link OnnxImporter.Options#withInputValues}).
 */
final class NormalizationNodes {
    static final Set<String> SUPPORTED = Set.of("LayerNormalization", "InstanceNormalization", "GroupNormalization", "MeanVarianceNormalization",
            "LpNormalization", "CumSum", "TopK", "SoftmaxCrossEntropyLoss", "NegativeLogLikelihoodLoss");
    static final Map<String, Set<String>> ONNX_ONLY_ATTRS = Map.of("LayerNormalization", Set.of("stash_type"),
            "GroupNormalization", Set.of("stash_type"));

    private NormalizationNodes() { }

    static Lowered lower(NodeContext n) {
        return switch (n.opType()) {
            case "LayerNormalization" -> layerNorm(n);
            case "InstanceNormalization" -> groupNorm(n, OpKinds.INSTANCE_NORM);
            case "GroupNormalization" -> groupNorm(n, OpKinds.GROUP_NORM);
            case "MeanVarianceNormalization" -> mvn(n);
            case "LpNormalization" -> lpNorm(n);
            case "CumSum" -> cumsum(n);
            case "TopK" -> topK(n);
            case "SoftmaxCrossEntropyLoss" -> loss(n, OpKinds.SOFTMAX_CROSS_ENTROPY_LOSS);
            case "NegativeLogLikelihoodLoss" -> loss(n, OpKinds.NLL_LOSS);
            default -> throw new IllegalStateException(n.opType());
        };
    }

    private static void requireF32(NodeContext n, Value v) {
        n.require(v.dtype() == DType.F32, "input " + v + " is " + v.dtype().jsonName() + "; " + n.opType() + " computes f32 only");
    }

    /** Output k's name, or a name of its own for an omitted output the kernel still writes. */
    private static String outputName(NodeContext n, int k) {
        List<String> out = n.node().outputs();
        return k < out.size() && !out.get(k).isEmpty() ? out.get(k) : n.opName() + "#unused_output_" + k;
    }

    private static boolean hasOutput(NodeContext n, int k) {
        List<String> out = n.node().outputs();
        return k < out.size() && !out.get(k).isEmpty();
    }

    private static List<String> inputs(NodeContext n, int count) {
        List<String> in = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (n.hasInput(i)) {
                requireF32(n, n.input(i));
                in.add(n.input(i).name());
            }
        }
        return in;
    }

    private static Lowered lowered(NodeContext n, String kind, List<String> inputs, List<Value> outputs, Map<String, Object> attrs) {
        n.require(hasOutput(n, 0), "has no output");
        return new Lowered(kind, inputs, outputs, attrs, false, List.of());
    }

    private static void requireStashFloat(NodeContext n) {
        long stash = n.integer("stash_type", 1);
        n.require(stash == 1, "stash_type " + stash + " is not supported (only 1, float; statistics are computed in double)");
    }

    private static Lowered layerNorm(NodeContext n) {
        NodeLowering.requireInputs(n, 2, 3);
        Value x = n.input(0);
        requireStashFloat(n);
        int axis = n.axis(n.integer("axis", -1), x.rank(), "axis");
        long[] normalized = Arrays.copyOfRange(x.shape(), axis, x.rank());
        for (int j = 1; j < 3; j++) {
            if (!n.hasInput(j)) continue;
            long[] s = n.input(j).shape();
            n.require(s.length <= normalized.length && Arrays.equals(NodeLowering.broadcast(n, normalized, s), normalized),
                    (j == 1 ? "scale " : "bias ") + n.input(j) + " does not broadcast to the normalised axes " + Arrays.toString(normalized));
        }
        List<Value> outs = new ArrayList<>(List.of(new Value(outputName(n, 0), x.dtype(), x.shape())));
        long[] stats = x.shape();
        Arrays.fill(stats, axis, stats.length, 1);
        int last = hasOutput(n, 2) ? 2 : hasOutput(n, 1) ? 1 : 0;
        for (int k = 1; k <= last; k++) outs.add(new Value(outputName(n, k), DType.F32, stats));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("epsilon", n.real("epsilon", 1e-5));
        return lowered(n, OpKinds.LAYER_NORM, inputs(n, 3), outs, attrs);
    }

    private static Lowered groupNorm(NodeContext n, String kind) {
        NodeLowering.requireInputs(n, 3, 3);
        Value x = n.input(0);
        n.require(x.rank() >= 3, "input " + x + " must be N x C x spatial axes");
        long c = x.dim(1);
        Map<String, Object> attrs = new LinkedHashMap<>();
        long per = c;
        if (kind.equals(OpKinds.GROUP_NORM)) {
            n.require(n.hasAttr("num_groups"), "attribute 'num_groups' is required");
            requireStashFloat(n);
            long g = n.integer("num_groups", 0);
            n.require(g >= 1 && c % g == 0, "num_groups " + g + " must divide the " + c + " channels of " + x);
            attrs.put("num_groups", g);
            per = n.opset() >= 21 ? c : g;        // GroupNormalization-18: scale and bias per group; -21: per channel
        }
        for (int j = 1; j < 3; j++)
            n.require(n.input(j).rank() == 1 && n.input(j).dim(0) == per, "input " + n.input(j) + " must be [" + per + "]"
                    + (kind.equals(OpKinds.GROUP_NORM) ? (n.opset() >= 21 ? " (per channel from opset 21)" : " (per group before opset 21)") : ""));
        attrs.put("epsilon", n.real("epsilon", 1e-5));
        return lowered(n, kind, inputs(n, 3), List.of(new Value(outputName(n, 0), x.dtype(), x.shape())), attrs);
    }

    private static Lowered mvn(NodeContext n) {
        NodeLowering.requireInputs(n, 1, 1);
        Value x = n.input(0);
        long[] axes = n.ints("axes", new long[]{0, 2, 3});
        long[] resolved = new long[axes.length];
        boolean[] seen = new boolean[x.rank()];
        for (int i = 0; i < axes.length; i++) {
            int a = n.axis(axes[i], x.rank(), "axis");
            n.require(!seen[a], "axes " + Arrays.toString(axes) + " name axis " + a + " twice");
            seen[a] = true;
            resolved[i] = a;
        }
        return lowered(n, OpKinds.MEAN_VARIANCE_NORM, inputs(n, 1), List.of(new Value(outputName(n, 0), x.dtype(), x.shape())), Map.of("axes", resolved));
    }

    private static Lowered lpNorm(NodeContext n) {
        NodeLowering.requireInputs(n, 1, 1);
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        int axis = n.axis(n.integer("axis", -1), x.rank(), "axis");
        long p = n.integer("p", 2);
        n.require(p == 1 || p == 2, "p = " + p + " must be 1 or 2");
        return lowered(n, OpKinds.LP_NORM, inputs(n, 1), List.of(new Value(outputName(n, 0), x.dtype(), x.shape())), Map.of("axis", (long) axis, "p", p));
    }

    private static Lowered cumsum(NodeContext n) {
        NodeLowering.requireInputs(n, 2, 2);
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        DType t = x.dtype();
        n.require(t.isFloat32Compute() || t == DType.F64 || (t.isIntegral() && t != DType.BOOL),
                "input " + x + " is " + t.jsonName() + "; CumSum computes f32, f16, bf16, f64 and integer types");
        long[] a = n.constantInts(1, "axis");
        n.require(a.length == 1, "axis (input #1) must hold one value, has " + a.length);
        int axis = n.axis(a[0], x.rank(), "axis");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("exclusive", n.integer("exclusive", 0) != 0 ? 1L : 0L);
        attrs.put("reverse", n.integer("reverse", 0) != 0 ? 1L : 0L);
        return lowered(n, OpKinds.CUMSUM, List.of(x.name()), List.of(new Value(outputName(n, 0), t, x.shape())), attrs);
    }

    private static Lowered topK(NodeContext n) {
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        DType t = x.dtype();
        n.require(t == DType.F32 || t == DType.F16 || t == DType.BF16 || (t.isIntegral() && t != DType.BOOL),
                "input " + x + " is " + t.jsonName() + "; TopK computes f32, f16, bf16 and integer types");
        long k;
        if (n.opset() >= 10) {
            NodeLowering.requireInputs(n, 2, 2);
            n.require(!n.hasAttr("k"), "attribute 'k' is input #1 from opset 10");
            long[] kv = n.constantInts(1, "K");
            n.require(kv.length == 1, "K (input #1) must hold one value, has " + kv.length);
            k = kv[0];
        } else {
            NodeLowering.requireInputs(n, 1, 1);
            n.require(n.hasAttr("k"), "attribute 'k' is required");
            k = n.integer("k", 0);
        }
        n.require(n.opset() >= 11 || (!n.hasAttr("largest") && !n.hasAttr("sorted")), "attributes 'largest' and 'sorted' need opset 11");
        int axis = n.axis(n.integer("axis", -1), x.rank(), "axis");
        n.require(k >= 0 && k <= x.dim(axis), "K = " + k + " must be in [0, " + x.dim(axis) + "] (the extent of axis " + axis + " of " + x + ")");
        long[] shape = x.shape();
        shape[axis] = k;
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("k", k);
        attrs.put("largest", n.integer("largest", 1) != 0 ? 1L : 0L);
        attrs.put("sorted", n.integer("sorted", 1) != 0 ? 1L : 0L);
        return lowered(n, OpKinds.TOP_K, List.of(x.name()),
                List.of(new Value(outputName(n, 0), t, shape), new Value(outputName(n, 1), DType.I64, shape)), attrs);
    }

    private static Lowered loss(NodeContext n, String kind) {
        NodeLowering.requireInputs(n, 2, 3);
        Value x = n.input(0), target = n.input(1);
        requireF32(n, x);
        n.require(x.rank() >= 2, "input " + x + " must be N x C x d...");
        n.require(target.dtype() == DType.I64 || target.dtype() == DType.I32, "target " + target + " is " + target.dtype().jsonName() + ", not int64 or int32");
        long[] want = new long[x.rank() - 1];
        want[0] = x.dim(0);
        System.arraycopy(x.shape(), 2, want, 1, x.rank() - 2);
        n.require(Arrays.equals(target.shape(), want), "target " + target + " must be " + Arrays.toString(want) + " for input " + x);
        List<String> ins = new ArrayList<>(List.of(x.name(), target.name()));
        if (n.hasInput(2)) {
            Value w = n.input(2);
            requireF32(n, w);
            n.require(w.rank() == 1 && w.dim(0) == x.dim(1), "weight " + w + " must be [" + x.dim(1) + "]");
            ins.add(w.name());
        }
        String reduction = n.string("reduction", "mean");
        n.require(List.of("none", "sum", "mean").contains(reduction), "reduction '" + reduction + "' must be none, sum or mean");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("reduction", reduction);
        if (n.hasAttr("ignore_index")) attrs.put("ignore_index", n.integer("ignore_index", 0));
        List<Value> outs = new ArrayList<>(List.of(new Value(outputName(n, 0), x.dtype(), reduction.equals("none") ? want : new long[0])));
        if (kind.equals(OpKinds.SOFTMAX_CROSS_ENTROPY_LOSS) && hasOutput(n, 1)) outs.add(new Value(outputName(n, 1), x.dtype(), x.shape()));
        n.require(kind.equals(OpKinds.SOFTMAX_CROSS_ENTROPY_LOSS) || !hasOutput(n, 1), "has one output");
        return lowered(n, kind, ins, outs, attrs);
    }
}
