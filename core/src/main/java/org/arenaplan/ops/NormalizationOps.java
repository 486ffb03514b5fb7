package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
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
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * Softmax, LayerNormalization, BatchNormalization (inference) and LRN (f32). ONNX version
 * differences: Softmax normalises one axis from opset 13 (default -1; before, all axes from
 * {@code axis} on, default 1); BatchNormalization gains {@code training_mode} at 14 (only 0 is
 * supported); {@code spatial} and {@code momentum} are accepted and ignored at inference.
 * Not handled: Softmax over one inner axis at opset 13 (the kind normalises over all axes from
 * {@code axis} on).
 */
final class NormalizationOps implements OpFamily {
    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.SOFTMAX, 1, 1).attrs(AttrSpec.axis("axis", -1)).shape(ShapeRules::overAxis).inPlace(0).kernels(Kernels.SOFTMAX)
                        .doc("normalises over the axes from axis to the end, taken together")
                        .lowerF32((op, l) -> List.of(softmax(op, l))).onnx(NormalizationOps::importSoftmax).build(),
                OpDefinition.op(OpKinds.LAYER_NORM, 3, 3).attrs(AttrSpec.axis("axis", -1), AttrSpec.real("epsilon", 1e-5)).shape(ShapeRules::overAxis)
                        .kernels(Kernels.LAYERNORM).doc("inputs X, scale, bias; over the axes from axis on")
                        .lowerF32((op, l) -> List.of(layerNorm(op, l))).build(),
                OpDefinition.op(OpKinds.BATCH_NORM, 5, 5).attrs(AttrSpec.real("epsilon", 1e-5)).shape(ShapeRules::batchNorm).inPlace(0).kernels(Kernels.BATCHNORM)
                        .doc("inference: inputs X, scale, B, mean, var")
                        .lowerF32((op, l) -> List.of(batchNorm(op, l))).onnx(NormalizationOps::importBatchNorm, "momentum", "spatial", "training_mode").build(),
                OpDefinition.op(OpKinds.LRN, 1, 1).attrs(AttrSpec.requiredInteger("size", 1, MAX_INT32), AttrSpec.real("alpha", 1e-4), AttrSpec.real("beta", 0.75),
                        AttrSpec.real("bias", 1.0)).shape(ShapeRules::sameAsFirst).kernels(Kernels.LRN).doc("across channels")
                        .lowerF32((op, l) -> List.of(lrn(op, l))).onnx(NormalizationOps::importLrn).build());
    }

    // ---- lowering ----

    private static KernelCall softmax(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] rc = l.rowsCols(op, l.shape(op, x), OpAttrs.of(op).integer("axis"));
        return l.call(op, Kernels.SOFTMAX, List.of(l.read(x), l.write(out(op))), rc);
    }

    private static KernelCall layerNorm(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] rc = l.rowsCols(op, l.shape(op, x), OpAttrs.of(op).integer("axis"));
        for (int j = 1; j < 3; j++) {
            if (l.elements(op.inputs().get(j)) != rc[1]) throw fail(op, "'" + op.inputs().get(j) + "' must have " + rc[1] + " values");
        }
        return l.call(op, Kernels.LAYERNORM, List.of(l.read(x), l.read(op.inputs().get(1)), l.read(op.inputs().get(2)), l.write(out(op))),
                rc, new double[]{OpAttrs.of(op).real("epsilon")});
    }

    private static KernelCall batchNorm(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] s = l.shape(op, x);
        if (s.length < 2) throw fail(op, "BatchNormalization needs rank 2 or more, got " + Arrays.toString(s));
        List<KernelArg> args = new ArrayList<>();
        for (String t : op.inputs()) args.add(l.read(t));
        args.add(l.write(out(op)));
        if (args.size() != 6) throw fail(op, "BatchNormalization takes X, scale, B, mean, var");
        return l.call(op, Kernels.BATCHNORM, args, new long[]{s[0], s[1], product(Arrays.copyOfRange(s, 2, s.length))},
                new double[]{OpAttrs.of(op).real("epsilon")});
    }

    private static KernelCall lrn(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] s = l.shape(op, x);
        return l.call(op, Kernels.LRN, List.of(l.read(x), l.write(out(op))),
                new long[]{s[0], s[1], product(Arrays.copyOfRange(s, 2, s.length)), OpAttrs.of(op).integer("size")},
                new double[]{OpAttrs.of(op).real("alpha"), OpAttrs.of(op).real("beta"), OpAttrs.of(op).real("bias")});
    }

    // ---- ONNX ----

    /** Before opset 13 Softmax normalises over all axes from {@code axis} on (default 1); from 13 over one axis (default -1). */
    private static Lowered importSoftmax(NodeContext n) {
        Value x = n.input(0);
        boolean v13 = n.opset() >= 13;
        int axis = n.axis(n.integer("axis", v13 ? -1 : 1), x.rank(), "axis");
        if (v13) {
            long inner = 1;
            for (int i = axis + 1; i < x.rank(); i++) inner *= x.dim(i);
            n.require(inner == 1, "Softmax over axis " + axis + " alone of " + x + " is not supported (opset 13 normalises one axis; only the last, or one followed by 1s, maps to the shared kind)");
        }
        return op(n, OpKinds.SOFTMAX, List.of(x.name()), x.shape(), Map.of("axis", (long) axis));
    }

    private static Lowered importLrn(NodeContext n) {
        n.require(n.hasAttr("size"), "attribute 'size' is required");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("size", n.integer("size", 0));
        attrs.put("alpha", n.real("alpha"));
        attrs.put("beta", n.real("beta"));
        attrs.put("bias", n.real("bias"));
        return op(n, OpKinds.LRN, List.of(n.input(0).name()), n.input(0).shape(), attrs);
    }

    private static Lowered importBatchNorm(NodeContext n) {
        Value x = n.input(0);
        n.require(x.rank() >= 2, "input " + x + " must have a channel axis");
        n.require(n.integer("training_mode", 0) == 0, "training_mode=1 (batch statistics) is not supported; only inference BatchNormalization");
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Value p = n.input(i);
            if (i > 0) n.require(p.rank() == 1 && p.dim(0) == x.dim(1), "input #" + i + " " + p + " must be [" + x.dim(1) + "]");
            inputs.add(p.name());
        }
        return op(n, OpKinds.BATCH_NORM, inputs, x.shape(), Map.of("epsilon", n.real("epsilon")));
    }
}
