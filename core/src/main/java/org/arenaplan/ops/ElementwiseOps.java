package org.arenaplan.ops;

import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.onnx.NodeLowering.broadcastAll;
import static org.arenaplan.onnx.NodeLowering.names;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * Elementwise ops on the {@link Kernels#UNARY} and {@link Kernels#BINARY} kernels: Add, Sub, Mul,
 * Div, Sum (numpy broadcasting; f32, f16, bf16 and the integer types) and Relu (also integers),
 * Sigmoid, Tanh, Gelu (f32, f16, bf16). No ONNX version difference in opsets 9..21 changes
 * what these compute (later versions only widen the types).
 */
final class ElementwiseOps implements OpFamily {
    @Override
    public List<OpDefinition> definitions() {
        return List.of(binary(OpKinds.ADD, Kernels.ADD), binary(OpKinds.SUB, Kernels.SUB), binary(OpKinds.MUL, Kernels.MUL), binary(OpKinds.DIV, Kernels.DIV),
                OpDefinition.op(OpKinds.SUM, 1, Integer.MAX_VALUE).shape(ShapeRules::broadcast).inPlace(0, 1).kernels(Kernels.BINARY, Kernels.COPY)
                        .doc("n-ary add, broadcasting; y = x0 + x1, then y += x2, ... (so only inputs 0 and 1 may be overwritten)")
                        .lower(ElementwiseOps::sum).onnx(ElementwiseOps::importBroadcast).build(),
                unary(OpKinds.RELU, Kernels.RELU, true).onnx(ElementwiseOps::importUnary).build(),
                unary(OpKinds.SIGMOID, Kernels.SIGMOID, false).onnx(ElementwiseOps::importUnary).build(),
                unary(OpKinds.TANH, Kernels.TANH, false).onnx(ElementwiseOps::importUnary).build(),
                unary(OpKinds.GELU, Kernels.GELU, false).doc("exact (erf based)").build());
    }

    private static OpDefinition binary(String kind, int code) {
        return OpDefinition.op(kind, 2, 2).shape(ShapeRules::broadcast).inPlace(0, 1).kernels(Kernels.BINARY)
                .doc("numpy broadcasting; in place only over an input of the output's shape")
                .lower((op, l) -> List.of(binary(op, l, code, op.inputs().get(0), op.inputs().get(1), out(op))))
                .onnx(ElementwiseOps::importBroadcast).build();
    }

    /** Integers allowed for {@code integers} kinds; f32, f16, bf16 always. */
    private static OpDefinition.Builder unary(String kind, int code, boolean integers) {
        return OpDefinition.op(kind, 1, 1).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.UNARY)
                .lower((op, l) -> List.of(unary(op, l, code, integers)));
    }

    // ---- lowering ----

    private static KernelCall unary(Op op, OpLowering l, int code, boolean integers) {
        String x = op.inputs().get(0);
        DType t = l.sameType(op, x, out(op));
        if (!t.isFloat32Compute() && !(integers && t.isIntegral() && t != DType.BOOL))
            throw fail(op, "tensor '" + x + "' is " + t.jsonName() + "; " + op.kind() + " takes f32, f16 or bf16" + (integers ? " or an integer type" : ""));
        return l.call(op, Kernels.UNARY, List.of(l.read(x), l.write(out(op))), new long[]{l.elements(x), code, t.onnxCode()});
    }

    /** {@link Kernels#BINARY} with op code {@code code}: y = a (op) b, broadcasting; integers except for {@link Kernels#RELU_GRAD}. */
    static KernelCall binary(Op op, OpLowering l, int code, String a, String b, String y) {
        DType t = l.sameType(op, a, b, y);
        if (!t.isFloat32Compute() && !(t.isIntegral() && t != DType.BOOL && code != Kernels.RELU_GRAD))
            throw fail(op, "operands are " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16" + (code == Kernels.RELU_GRAD ? "" : " or an integer type"));
        long[] ys = l.shapeOf(op, y, a, b);
        long[] bc = l.broadcast(op, ys, a, b);
        long[] ints = Arrays.copyOf(new long[]{code}, 1 + bc.length + 1);
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 1] = t.onnxCode();
        return l.call(op, Kernels.BINARY, List.of(l.read(a), l.read(b), l.write(y)), ints);
    }

    /** Sum of n inputs: y = x0 + x1, then y = y + x2, ... (a fixed order). */
    private static List<KernelCall> sum(Op op, OpLowering l) {
        List<String> in = op.inputs();
        if (in.size() == 1) return List.of(LayoutOps.copy(op, l, in.get(0)));
        List<KernelCall> calls = new ArrayList<>();
        calls.add(binary(op, l, Kernels.ADD, in.get(0), in.get(1), out(op)));
        for (int k = 2; k < in.size(); k++) calls.add(binary(op, l, Kernels.ADD, out(op), in.get(k), out(op)));
        return calls;
    }

    // ---- ONNX ----

    private static Lowered importUnary(NodeContext n) {
        return op(n, n.opType(), List.of(n.input(0).name()), n.input(0).shape(), Map.of());
    }

    private static Lowered importBroadcast(NodeContext n) {
        n.require(n.inputCount() >= (n.opType().equals("Sum") ? 1 : 2), "needs " + (n.opType().equals("Sum") ? "at least one input" : "two inputs"));
        return op(n, n.opType(), names(n, 0, n.inputCount()), broadcastAll(n, 0, n.inputCount()), Map.of());
    }
}
