package org.arenaplan.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.arenaplan.ir.AttrSpec.MAX_INT32;
import static org.arenaplan.ir.AttrSpec.MAX_RANK;

/**
 * The {@link OpRegistry} entries of the normalisations, CumSum, TopK and the losses, with their
 * shape rules, after the ONNX operator specifications (https://onnx.ai/onnx/operators/:
 * LayerNormalization-17, InstanceNormalization-6, GroupNormalization-18/21,
 * MeanVarianceNormalization-13, LpNormalization-1, CumSum-14, TopK-11,
 * SoftmaxCrossEntropyLoss-13, NegativeLogLikelihoodLoss-13). Inputs the ONNX ops take as
 * constant tensors (CumSum's axis, TopK's K) are attributes here; the importer reads them.
 */
final class NormalizationOps {
    static final String NORMALIZE = "normalize", CUMSUM = "cumsum", TOPK = "topk", NLL_LOSS = "nll_loss";
    /** The loss reductions ONNX defines. */
    static final List<String> REDUCTIONS = List.of("none", "sum", "mean");

    private NormalizationOps() { }

    static List<OpRegistry.E> entries() {
        List<OpRegistry.E> e = new ArrayList<>();
        e.add(OpRegistry.op(OpKinds.LAYER_NORM, 2, 3).outputs(3).attrs(AttrSpec.axis("axis", -1), AttrSpec.real("epsilon", 1e-5))
                .shapes(NormalizationOps::layerNorm).kernels(NORMALIZE)
                .doc("inputs X, scale, optional bias (each broadcast to X's axes from axis on); outputs Y, optional Mean and InvStdDev "
                        + "(X's shape with 1s from axis on); y = (x - mean) / sqrt(var + epsilon) * scale + bias over the axes from axis on; f32"));
        e.add(OpRegistry.op(OpKinds.INSTANCE_NORM, 3, 3).attrs(AttrSpec.real("epsilon", 1e-5)).shape(NormalizationOps::instanceNorm).kernels(NORMALIZE)
                .doc("inputs X [N, C, spatial...], scale [C], B [C]: each (n, c) normalised over its spatial axes; f32"));
        e.add(OpRegistry.op(OpKinds.GROUP_NORM, 3, 3).attrs(AttrSpec.requiredInteger("num_groups", 1, MAX_INT32), AttrSpec.real("epsilon", 1e-5))
                .shape(NormalizationOps::groupNorm).kernels(NORMALIZE)
                .doc("inputs X [N, C, spatial...], scale, bias: [C] (per channel, ONNX 21) or [num_groups] (per group, ONNX 18); "
                        + "each (n, group) normalised over its C/num_groups channels and the spatial axes; f32"));
        e.add(OpRegistry.op(OpKinds.MEAN_VARIANCE_NORM, 1, 1).attrs(AttrSpec.ints("axes", -MAX_RANK, MAX_RANK - 1, "[0, 2, 3]"))
                .shape(NormalizationOps::sameShape).kernels(NORMALIZE)
                .doc("(x - mean) / (sqrt(var) + 1e-9) over axes; f32"));
        e.add(OpRegistry.op(OpKinds.LP_NORM, 1, 1).attrs(AttrSpec.axis("axis", -1), AttrSpec.integer("p", 2, 1, 2))
                .shape(NormalizationOps::sameShape).kernels(NORMALIZE).doc("x / (L1 or L2 norm along axis); f32"));
        e.add(OpRegistry.op(OpKinds.CUMSUM, 1, 1).attrs(AttrSpec.requiredAxis("axis"), AttrSpec.flag("exclusive"), AttrSpec.flag("reverse"))
                .shape(NormalizationOps::sameShape).kernels(CUMSUM)
                .doc("running sum along axis (exclusive: without the element itself; reverse: from the end); f32, f16, bf16 and integer types"));
        e.add(OpRegistry.op(OpKinds.TOP_K, 1, 1).outputs(2).attrs(AttrSpec.axis("axis", -1), AttrSpec.requiredInteger("k", 0, Long.MAX_VALUE),
                        AttrSpec.integer("largest", 1, 0, 1), AttrSpec.integer("sorted", 1, 0, 1))
                .shapes(NormalizationOps::topK).kernels(TOPK)
                .doc("outputs Values and Indices (int64): the k largest (or smallest) along axis, sorted, equal values by lower index; "
                        + "f32, f16, bf16 and integer types"));
        e.add(loss(OpKinds.SOFTMAX_CROSS_ENTROPY_LOSS, 2).doc("inputs scores [N, C, d...], labels [N, d...] (int64/int32), optional weights [C]; "
                + "outputs loss and optional log_prob (log-softmax of scores over C): loss = -log_prob[label] * weight[label]; f32"));
        e.add(loss(OpKinds.NLL_LOSS, 1).doc("inputs log-probabilities [N, C, d...], target [N, d...] (int64/int32), optional weight [C]: "
                + "loss = -input[target] * weight[target]; f32"));
        return e;
    }

    private static OpRegistry.E loss(String kind, int outputs) {
        return OpRegistry.op(kind, 2, 3).outputs(outputs)
                .attrs(new AttrSpec("reduction", AttrSpec.Type.STRING, false, "mean", 0, 0, 0, 0),
                        new AttrSpec("ignore_index", AttrSpec.Type.INT, false, null, Long.MIN_VALUE, Long.MAX_VALUE, 0, 0))
                .shapes(NormalizationOps::loss).kernels(NLL_LOSS)
                .doc("reduction none ([N, d...]), sum or mean (over the summed weights); a label equal to ignore_index counts with weight 0");
    }

    static long[][] layerNorm(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0];
        int axis = ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        long[] normalized = Arrays.copyOfRange(x, axis, x.length);
        for (int j = 1; j < in.length; j++) {
            if (in[j].length > normalized.length || !Arrays.equals(ShapeRules.broadcast(normalized, in[j]), normalized))
                throw new GraphException((j == 1 ? "scale " : "bias ") + Arrays.toString(in[j]) + " does not broadcast to the normalised axes "
                        + Arrays.toString(normalized));
        }
        long[] stats = x.clone();
        Arrays.fill(stats, axis, stats.length, 1);
        long[][] out = new long[outputs][];
        out[0] = x.clone();
        for (int k = 1; k < outputs; k++) out[k] = stats.clone();
        return out;
    }

    /** X [N, C, spatial...] (rank 3 or more). */
    private static void image(long[] x) {
        if (x.length < 3) throw new GraphException("input " + Arrays.toString(x) + " must be N x C x spatial axes");
    }

    static long[] instanceNorm(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        image(x);
        for (int j = 1; j < 3; j++)
            if (in[j].length != 1 || in[j][0] != x[1]) throw new GraphException("input #" + j + " " + Arrays.toString(in[j]) + " must be [" + x[1] + "]");
        return x.clone();
    }

    static long[] groupNorm(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        image(x);
        long g = attrs.integer("num_groups");
        if (x[1] % g != 0) throw new GraphException("num_groups " + g + " does not divide the " + x[1] + " channels of " + Arrays.toString(x));
        for (int j = 1; j < 3; j++)
            if (in[j].length != 1 || (in[j][0] != x[1] && in[j][0] != g))
                throw new GraphException("input #" + j + " " + Arrays.toString(in[j]) + " must be [" + x[1] + "] (per channel) or [" + g + "] (per group)");
        if (in[1][0] != in[2][0]) throw new GraphException("scale " + Arrays.toString(in[1]) + " and bias " + Arrays.toString(in[2]) + " must have one shape");
        return x.clone();
    }

    static long[] sameShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        if (attrs.op().attrs().containsKey("axis")) {
            if (x.length == 0) throw new GraphException("input must have rank 1 or more");
            ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        }
        long[] axes = attrs.intsOrNull("axes");
        if (axes != null) ReductionOps.reducedAxes(axes, x.length);
        return x.clone();
    }

    static long[][] topK(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0];
        if (x.length == 0) throw new GraphException("input must have rank 1 or more");
        int axis = ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        long k = attrs.integer("k");
        if (k > x[axis]) throw new GraphException("k = " + k + " is more than the " + x[axis] + " elements along axis " + axis + " of " + Arrays.toString(x));
        long[] y = x.clone();
        y[axis] = k;
        long[][] out = new long[outputs][];
        for (int j = 0; j < outputs; j++) out[j] = y.clone();
        return out;
    }

    static long[][] loss(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0], t = in[1];
        Object r = attrs.op().attrs().getOrDefault("reduction", "mean");
        if (!REDUCTIONS.contains(r)) throw new GraphException("attribute 'reduction' = " + r + " must be one of " + REDUCTIONS);
        if (x.length < 2) throw new GraphException("input " + Arrays.toString(x) + " must be N x C x d...");
        long[] want = new long[x.length - 1];
        want[0] = x[0];
        System.arraycopy(x, 2, want, 1, x.length - 2);
        if (!Arrays.equals(t, want)) throw new GraphException("target " + Arrays.toString(t) + " must be " + Arrays.toString(want) + " for input " + Arrays.toString(x));
        if (in.length > 2 && (in[2].length != 1 || in[2][0] != x[1]))
            throw new GraphException("weight " + Arrays.toString(in[2]) + " must be [" + x[1] + "]");
        long[][] out = new long[outputs][];
        out[0] = r.equals("none") ? want : new long[0];
        if (outputs > 1) out[1] = x.clone();
        return out;
    }
}
