package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.product;

/**
 * SoftmaxCrossEntropyLoss and NegativeLogLikelihoodLoss (ONNX 12 and 13; 13 only widens types),
 * f32, on {@link Kernels#NLL_LOSS}: input [N, C, d...], targets [N, d...] (int64 or int32),
 * optional weights [C]; reduction none, sum or mean (over the summed weights of the counted
 * samples); a target equal to ignore_index counts with weight 0. SoftmaxCrossEntropyLoss takes
 * the log-softmax of its scores over C (optional output log_prob) first.
 */
final class LossOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String SOFTMAX_CROSS_ENTROPY_LOSS = "SoftmaxCrossEntropyLoss", NLL_LOSS = "NegativeLogLikelihoodLoss";

    /** The loss reductions ONNX defines. */
    static final List<String> REDUCTIONS = List.of("none", "sum", "mean");

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                loss(SOFTMAX_CROSS_ENTROPY_LOSS, true).doc("inputs scores [N, C, d...], labels [N, d...] (int64/int32), optional weights [C]; "
                        + "outputs loss and optional log_prob (log-softmax of scores over C): loss = -log_prob[label] * weight[label]")
                        .onnx("SoftmaxCrossEntropyLoss", 12, n -> importLoss(n, SOFTMAX_CROSS_ENTROPY_LOSS, true)).build(),
                loss(NLL_LOSS, false).doc("inputs log-probabilities [N, C, d...], target [N, d...] (int64/int32), optional weight [C]: "
                        + "loss = -input[target] * weight[target]").onnx("NegativeLogLikelihoodLoss", 12, n -> importLoss(n, NLL_LOSS, false)).build());
    }

    /** A loss kind; {@code softmax}: the scores go through log-softmax first, which is output 1 (SoftmaxCrossEntropyLoss). */
    private static OpDefinition.Builder loss(String kind, boolean softmax) {
        return OpDefinition.op(kind, 2, 3).outputs(1, softmax ? 2 : 1)
                .attrs(new AttrSpec("reduction", AttrSpec.Type.STRING, false, "mean", 0, 0, 0, 0),
                        new AttrSpec("ignore_index", AttrSpec.Type.INT, false, null, Long.MIN_VALUE, Long.MAX_VALUE, 0, 0))
                .shapes(LossOps::lossShapes).kernels(Kernels.NLL_LOSS)
                .doc("reduction none ([N, d...]), sum or mean (over the summed weights); a label equal to ignore_index counts with weight 0; f32")
                .lower((op, l) -> lower(op, l, softmax));
    }

    static long[][] lossShapes(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0], t = in[1];
        Object r = attrs.op().attrs().getOrDefault("reduction", "mean");
        if (!REDUCTIONS.contains(r)) throw new GraphException("attribute 'reduction' = " + r + " must be one of " + REDUCTIONS);
        if (x.length < 2) throw new GraphException("input " + Arrays.toString(x) + " must be N x C x d...");
        long[] want = targetShape(x);
        if (!Arrays.equals(t, want)) throw new GraphException("target " + Arrays.toString(t) + " must be " + Arrays.toString(want) + " for input " + Arrays.toString(x));
        if (in.length > 2 && (in[2].length != 1 || in[2][0] != x[1]))
            throw new GraphException("weight " + Arrays.toString(in[2]) + " must be [" + x[1] + "]");
        long[][] out = new long[outputs][];
        out[0] = r.equals("none") ? want : new long[0];
        if (outputs > 1) out[1] = x.clone();
        return out;
    }

    /** [N, d...] of an input [N, C, d...]. */
    private static long[] targetShape(long[] x) {
        long[] want = new long[x.length - 1];
        want[0] = x[0];
        System.arraycopy(x, 2, want, 1, x.length - 2);
        return want;
    }

    private static List<KernelCall> lower(Op op, OpLowering l, boolean softmax) {
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
        if (l.elements(target) != xs[0] * d) throw fail(op, "target '" + target + "' must have " + xs[0] * d + " values");
        List<KernelArg> args = new ArrayList<>(List.of(l.read(x), l.read(target)));
        if (weight) args.add(l.read(op.inputs().get(2)));
        args.add(l.write(op.outputs().get(0)));
        if (logProb) args.add(l.write(op.outputs().get(1)));
        long[] ints = {softmax ? 1 : 0, xs[0], xs[1], d, reduction, ignore != null ? 1 : 0, ignore instanceof Number n ? n.longValue() : 0,
            weight ? 1 : 0, logProb ? 1 : 0, tt.onnxCode()};
        return List.of(l.call(op, Kernels.NLL_LOSS, args, ints));
    }

    private static Lowered importLoss(NodeContext n, String kind, boolean sce) {
        FamilyImports.requireInputs(n, 2, 3);
        Value x = n.input(0), target = n.input(1);
        FamilyImports.requireF32(n, x);
        n.require(x.rank() >= 2, "input " + x + " must be N x C x d...");
        n.require(target.dtype() == DType.I64 || target.dtype() == DType.I32, "target " + target + " is " + target.dtype().jsonName() + ", not int64 or int32");
        long[] want = targetShape(x.shape());
        n.require(Arrays.equals(target.shape(), want), "target " + target + " must be " + Arrays.toString(want) + " for input " + x);
        List<String> ins = new ArrayList<>(List.of(x.name(), target.name()));
        if (n.hasInput(2)) {
            Value w = n.input(2);
            FamilyImports.requireF32(n, w);
            n.require(w.rank() == 1 && w.dim(0) == x.dim(1), "weight " + w + " must be [" + x.dim(1) + "]");
            ins.add(w.name());
        }
        String reduction = n.string("reduction", "mean");
        n.require(REDUCTIONS.contains(reduction), "reduction '" + reduction + "' must be none, sum or mean");
        n.require(FamilyImports.hasOutput(n, 0), "has no output");
        n.require(sce || !FamilyImports.hasOutput(n, 1), "has one output");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("reduction", reduction);
        if (n.hasAttr("ignore_index")) attrs.put("ignore_index", n.integer("ignore_index", 0));
        List<Value> outs = new ArrayList<>(List.of(new Value(FamilyImports.outputName(n, 0), x.dtype(), reduction.equals("none") ? want : new long[0])));
        if (sce && FamilyImports.hasOutput(n, 1)) outs.add(new Value(FamilyImports.outputName(n, 1), x.dtype(), x.shape()));
        return new Lowered(kind, ins, outs, attrs, false, List.of());
    }
}
