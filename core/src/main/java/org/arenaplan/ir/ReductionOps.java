package org.arenaplan.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.arenaplan.ir.AttrSpec.MAX_RANK;

/**
 * The {@link OpRegistry} entries of the reductions and the softmax family, with their shape
 * rules, after the ONNX operator specifications (https://onnx.ai/onnx/operators/: ReduceSum ...
 * ReduceSumSquare, ArgMax, ArgMin, Softmax, LogSoftmax, Hardmax). The importer resolves each
 * ONNX version into these attributes (axes always an attribute here; noop_with_empty_axes
 * becomes an Identity), so the kinds have one meaning whatever the opset.
 */
final class ReductionOps {
    /** Kernel names of {@code org.arenaplan.device.Kernels}. */
    static final String REDUCE = "reduce";

    private ReductionOps() { }

    static List<OpRegistry.E> entries() {
        List<OpRegistry.E> e = new ArrayList<>();
        e.add(reduce(OpKinds.REDUCE_SUM, "sum; the gradient of a broadcast in training graphs"));
        e.add(reduce(OpKinds.REDUCE_MEAN, "mean (NaN over an empty set)"));
        e.add(reduce(OpKinds.REDUCE_MAX, "maximum (-inf over an empty set; NaN wins)"));
        e.add(reduce(OpKinds.REDUCE_MIN, "minimum (+inf over an empty set; NaN wins)"));
        e.add(reduce(OpKinds.REDUCE_PROD, "product"));
        e.add(reduce(OpKinds.REDUCE_L1, "sum of |x|"));
        e.add(reduce(OpKinds.REDUCE_L2, "sqrt of the sum of x^2"));
        e.add(reduce(OpKinds.REDUCE_LOG_SUM, "log of the sum"));
        e.add(reduce(OpKinds.REDUCE_LOG_SUM_EXP, "log of the sum of exp(x), computed as max + log(sum(exp(x - max)))"));
        e.add(reduce(OpKinds.REDUCE_SUM_SQUARE, "sum of x^2"));
        e.add(arg(OpKinds.ARG_MAX, "largest"));
        e.add(arg(OpKinds.ARG_MIN, "smallest"));
        e.add(softmax(OpKinds.SOFTMAX, "exp(x - max) / sum(exp(x - max))"));
        e.add(softmax(OpKinds.LOG_SOFTMAX, "x - max - log(sum(exp(x - max)))"));
        e.add(softmax(OpKinds.HARDMAX, "1 at the first largest element, 0 elsewhere"));
        e.addAll(NormalizationOps.entries());
        return e;
    }

    private static OpRegistry.E reduce(String kind, String what) {
        return OpRegistry.op(kind, 1, 1).attrs(axesAttr(), AttrSpec.integer("keepdims", 1, 0, 1))
                .shape(ReductionOps::reduceShape).kernels(REDUCE)
                .doc(what + " over axes (all when absent), each kept as 1 with keepdims; f32, f16, bf16"
                        + (kind.equals(OpKinds.REDUCE_SUM) || kind.equals(OpKinds.REDUCE_MAX) || kind.equals(OpKinds.REDUCE_MIN)
                        || kind.equals(OpKinds.REDUCE_PROD) ? " and integer types" : ""));
    }

    private static OpRegistry.E arg(String kind, String what) {
        return OpRegistry.op(kind, 1, 1).attrs(AttrSpec.axis("axis", 0), AttrSpec.integer("keepdims", 1, 0, 1), AttrSpec.flag("select_last_index"))
                .shape(ReductionOps::argShape).kernels(REDUCE)
                .doc("int64 index of the " + what + " element along axis (the first, or the last with select_last_index); any numeric type");
    }

    private static OpRegistry.E softmax(String kind, String what) {
        return OpRegistry.op(kind, 1, 1).attrs(AttrSpec.axis("axis", -1), AttrSpec.flag("single_axis"))
                .shape(ReductionOps::softmaxShape).inPlace(0).kernels(OpRegistry.SOFTMAX)
                .doc(what + " over the axes from axis to the end taken together (ONNX before opset 13), or over axis alone with single_axis = 1 (from 13)");
    }

    private static AttrSpec axesAttr() {
        return AttrSpec.ints("axes", -MAX_RANK, MAX_RANK - 1, "every axis");
    }

    /** The reduced axes of a rank-{@code rank} input: those listed (each once), or every axis when none are. */
    static boolean[] reducedAxes(long[] axes, int rank) {
        boolean[] reduced = new boolean[rank];
        if (axes == null || axes.length == 0) Arrays.fill(reduced, true);
        else for (long a : axes) {
            int d = ShapeRules.axis(a, rank, "axis");
            if (reduced[d]) throw new GraphException("axes " + Arrays.toString(axes) + " name axis " + d + " twice");
            reduced[d] = true;
        }
        return reduced;
    }

    /** The input's shape without the reduced axes, or with each as 1 when {@code keep}. */
    static long[] reducedShape(long[] x, boolean[] reduced, boolean keep) {
        long[] out = new long[x.length];
        int n = 0;
        for (int d = 0; d < x.length; d++) {
            if (!reduced[d]) out[n++] = x[d];
            else if (keep) out[n++] = 1;
        }
        return Arrays.copyOf(out, n);
    }

    static long[] reduceShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        return reducedShape(x, reducedAxes(attrs.intsOrNull("axes"), x.length), attrs.integer("keepdims") == 1);
    }

    static long[] argShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        if (x.length == 0) throw new GraphException("input must have rank 1 or more");
        int a = ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        if (x[a] == 0) throw new GraphException("axis " + a + " of " + Arrays.toString(x) + " is empty: no element to take the index of");
        boolean[] reduced = new boolean[x.length];
        reduced[a] = true;
        return reducedShape(x, reduced, attrs.integer("keepdims") == 1);
    }

    static long[] softmaxShape(OpAttrs attrs, long[][] in) {
        if (in[0].length == 0) throw new GraphException("input must have rank 1 or more");
        ShapeRules.axis(attrs.integer("axis"), in[0].length, "axis");
        return in[0].clone();
    }
}
