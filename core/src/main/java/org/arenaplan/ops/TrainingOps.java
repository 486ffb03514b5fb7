package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;

import java.util.ArrayList;
import java.util.List;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;

/**
 * The kinds of training graphs ({@code org.arenaplan.train.Gradients}): ReluGrad and
 * the gradient kernels (ReduceSum, which they also use, is ReductionOps'), f32. Their kernels ({@link Kernels#TRAINING}, except ReluGrad's) run on
 * the simulator ({@code sim.TrainingKernels}) and on CUDA ({@code training.cuh}) in the same summation order. No ONNX import.
 */
final class TrainingOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String GELU_GRAD = "GeluGrad", SOFTMAX_GRAD = "SoftmaxGrad", LAYER_NORM_GRAD = "LayerNormalizationGrad",
            CONV_BACKWARD_DATA = "ConvBackwardData", CONV_BACKWARD_FILTER = "ConvBackwardFilter";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.RELU_GRAD, 2, 2).shape(ShapeRules::sameShapes).inPlace(0, 1).kernels(Kernels.BINARY)
                        .doc("inputs dY, X: dX = dY where X > 0, else 0")
                        .lowerF32((op, l) -> List.of(ElementwiseLowering.binary(op, l, Kernels.RELU_GRAD, op.inputs().get(0), op.inputs().get(1), out(op)))).build(),
                OpDefinition.op(GELU_GRAD, 2, 2).shape(ShapeRules::sameShapes).inPlace(0, 1).kernels(Kernels.GELU_GRAD)
                        .doc("inputs dY, X: dX = dY * Gelu'(X); training kernel")
                        .lowerF32((op, l) -> List.of(l.call(op, Kernels.GELU_GRAD, List.of(l.read(op.inputs().get(0)), l.read(op.inputs().get(1)), l.write(out(op))),
                                new long[]{l.elements(out(op))}))).build(),
                OpDefinition.op(SOFTMAX_GRAD, 2, 2).attrs(AttrSpec.axis("axis", -1)).shape(ShapeRules::sameShapes).inPlace(0, 1).kernels(Kernels.SOFTMAX_GRAD)
                        .flops((a, in, out) -> 3 * OpSpec.FlopRule.elements(out[0]))
                        .doc("inputs dY, Y (Softmax's output): dX = Y * (dY - sum(dY * Y)) over the axes from axis on; training kernel")
                        .lowerF32((op, l) -> {
                            long[] rc = l.rowsCols(op, l.shape(op, op.inputs().get(0)), OpAttrs.of(op).integer("axis"));
                            return List.of(l.call(op, Kernels.SOFTMAX_GRAD, List.of(l.read(op.inputs().get(0)), l.read(op.inputs().get(1)), l.write(out(op))), rc));
                        }).build(),
                OpDefinition.op(LAYER_NORM_GRAD, 3, 3).attrs(AttrSpec.axis("axis", -1), AttrSpec.real("epsilon", 1e-5)).shape(ShapeRules::sameAsFirst)
                        .kernels(Kernels.LAYERNORM_GRAD).flops((a, in, out) -> 8 * OpSpec.FlopRule.elements(out[0])).doc("inputs dY, X, scale: the gradient of LayerNormalization's X; training kernel")
                        .lowerF32((op, l) -> {
                            long[] rc = l.rowsCols(op, l.shape(op, op.inputs().get(1)), OpAttrs.of(op).integer("axis"));
                            return List.of(l.call(op, Kernels.LAYERNORM_GRAD, List.of(l.read(op.inputs().get(0)), l.read(op.inputs().get(1)), l.read(op.inputs().get(2)),
                                    l.write(out(op))), rc, new double[]{OpAttrs.of(op).real("epsilon")}));
                        }).build(),
                OpDefinition.op(CONV_BACKWARD_DATA, 2, 2).attrs(ImageOps.convAttrs(AttrSpec.ints("input_shape", 1, Long.MAX_VALUE, "required: the forward X's shape")))
                        .shape(ShapeRules::convBackwardData).kernels(Kernels.CONV2D_BACKWARD_DATA)
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(in[0]) * ImageOps.perOutput(in[1]))   // dY, W: the forward's multiply-adds
                        .doc("inputs dY, W: the gradient of Conv's X (group 1 runs); training kernel")
                        .lowerF32((op, l) -> List.of(convBackward(op, l, Kernels.CONV2D_BACKWARD_DATA, out(op), op.inputs().get(1), op.inputs().get(0)))).build(),
                OpDefinition.op(CONV_BACKWARD_FILTER, 2, 2).attrs(ImageOps.convAttrs())
                        .shape(ShapeRules::convBackwardFilter).kernels(Kernels.CONV2D_BACKWARD_FILTER)
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(in[1]) * ImageOps.perOutput(out[0]))   // X, dY -> dW
                        .doc("inputs X, dY: the gradient of Conv's W (kernel_shape required; group 1 runs); training kernel")
                        .lowerF32((op, l) -> List.of(convBackward(op, l, Kernels.CONV2D_BACKWARD_FILTER, op.inputs().get(0), out(op), op.inputs().get(1)))).build());
    }

    /** Either conv2d gradient: the geometry of the forward Conv of x (N x C x H x W) by w giving dy. */
    private static KernelCall convBackward(Op op, OpLowering l, String kernel, String x, String w, String dy) {
        long[] ints = ImageOps.convGeometry(op, l, x, w, dy);
        if (ints[15] != 1) throw fail(op, "convolution gradients support group 1 only");
        List<KernelArg> args = new ArrayList<>();
        for (String t : op.inputs()) args.add(l.read(t));
        args.add(l.write(out(op)));
        return l.call(op, kernel, args, ints);
    }

}
