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
import org.arenaplan.ir.OpSpec;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * The training optimizers of the ONNX domain ai.onnx.preview.training, version 1 (Operators.md
 * there, and onnx/reference/ops/aionnx_preview_training/op_adagrad.py, op_adam.py,
 * op_momentum.py): Adagrad, Adam and Momentum (mode standard or nesterov). Inputs R (the learning
 * rate, an f32 scalar) and T (the update count, an int64 scalar), then n tensors X1..Xn, their
 * gradients G1..Gn and their state (Adagrad H1..Hn; Adam V1..Vn, H1..Hn; Momentum V1..Vn), all
 * f32, each G and state of its X's shape; outputs the updated X1..Xn, then the updated state in
 * the inputs' order. One {@link Kernels#OPTIMIZER} call per X (formulas there). Each output may
 * overwrite the input it updates ({@link OpSpec.InPlaceGroups}): the kernel reads every input
 * element before it writes the outputs' elements at that index. Refused in one line naming the
 * node: f64 (T1, T3 double; arenaplan computes f32), inputs that do not make whole groups, a state
 * or gradient of another shape than its X, R or T not a scalar of its type, Momentum without its
 * required attributes or with a mode other than standard and nesterov.
 */
final class OptimizerOps implements OpFamily {
    static final String ADAGRAD = "Adagrad", ADAM = "Adam", MOMENTUM = "Momentum";
    /** The ONNX domain of the three and the version whose meaning is implemented. */
    static final String DOMAIN = "ai.onnx.preview.training";
    /** Momentum's mode, kept as the kernel's mode: standard or nesterov. */
    private static final List<String> MODES = List.of("standard", "nesterov");

    private static AttrSpec required(String name) {
        return new AttrSpec(name, AttrSpec.Type.FLOAT, true, null, 0, 0, 0, 0);
    }

    /** The spec's default epsilon. */
    private static final double EPSILON = 1e-6;

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                optimizer(ADAGRAD, List.of("X", "G", "H"), List.of("X", "H"), 9, Kernels.OPTIMIZER_ADAGRAD)
                        .attrs(AttrSpec.real("norm_coefficient", 0.0), AttrSpec.real("decay_factor", 0.0), AttrSpec.real("epsilon", EPSILON))
                        .doc("Adagrad: H' = H + Gr², X' = X - R / (1 + T decay_factor) Gr / (√H' + epsilon), Gr = norm_coefficient X + G")
                        .build(),
                optimizer(ADAM, List.of("X", "G", "V", "H"), List.of("X", "V", "H"), 18, Kernels.OPTIMIZER_ADAM)
                        .attrs(AttrSpec.real("alpha", 0.9), AttrSpec.real("beta", 0.999), AttrSpec.real("epsilon", EPSILON),
                                AttrSpec.real("norm_coefficient", 0.0), AttrSpec.real("norm_coefficient_post", 0.0))
                        .doc("Adam: V' = αV + (1-α)Gr, H' = βH + (1-β)Gr², X' = (1 - norm_coefficient_post)(X - R' V' / (√H' + epsilon)), "
                                + "R' = R √(1-β^T) / (1-α^T) when T > 0")
                        .build(),
                optimizer(MOMENTUM, List.of("X", "G", "V"), List.of("X", "V"), 9, Kernels.OPTIMIZER_MOMENTUM)
                        .attrs(required("alpha"), required("beta"), new AttrSpec("mode", AttrSpec.Type.STRING, true, null, 0, 0, 0, 0), required("norm_coefficient"))
                        .doc("Momentum: V' = αV + b Gr (b = β when T > 0, else 1), X' = X - R V' (standard) or X - R (Gr + αV') (nesterov)")
                        .build());
    }

    /**
     * The parts the three share: inputs R, T and the groups, the outputs, shapes, in-place facts,
     * kernel, FLOPs ({@code flopsPerElement} per element of each X: the update's operations, a
     * multiply-add counted 2, the scalar step size once per element as the kernel computes it
     * not counted), lowering ({@code mode}: the kernel's; Momentum's becomes nesterov by its attribute) and import.
     */
    private static OpDefinition.Builder optimizer(String kind, List<String> inputs, List<String> outputs, long flopsPerElement, int mode) {
        int groups = inputs.size(), outGroups = outputs.size();
        return OpDefinition.op(kind, 2 + groups, Integer.MAX_VALUE).outputs(outGroups, Integer.MAX_VALUE)
                .shapes((a, in, count) -> shapes(in, count, groups, outGroups))
                .inPlaceGroups(new OpSpec.InPlaceGroups(2, inputs, outputs))
                .kernels(Kernels.OPTIMIZER)
                .flops((a, in, out) -> {
                    long sum = 0;
                    for (int k = 0; k < out.length / outGroups; k++) sum += flopsPerElement * OpSpec.FlopRule.elements(out[k]);
                    return sum;
                })
                .lower((op, l) -> lower(op, l, mode, groups))
                .onnx(kind, 1, n -> importOptimizer(n, groups, outGroups));
    }

    /**
     * The outputs' shapes: entry k of every output group has X_k's shape.
     *
     * @throws GraphException when the inputs do not make whole groups, the outputs are not as many
     *         groups, R or T is not a scalar, or a gradient or state differs in shape from its X
     */
    static long[][] shapes(long[][] in, int outputs, int groups, int outGroups) {
        if ((in.length - 2) % groups != 0 || in.length < 2 + groups)
            throw new GraphException("takes R, T and " + groups + " groups of as many tensors each, got " + in.length + " inputs");
        int n = (in.length - 2) / groups;
        if (outputs != outGroups * n) throw new GraphException("updates " + n + " tensor" + (n == 1 ? "" : "s") + " into " + outGroups * n + " outputs, got " + outputs);
        for (int j = 0; j < 2; j++)
            if (in[j].length != 0)
                throw new GraphException((j == 0 ? "R " : "T ") + Arrays.toString(in[j]) + " must be a scalar");
        long[][] out = new long[outputs][];
        for (int k = 0; k < n; k++) {
            long[] x = in[2 + k];
            for (int gi = 1; gi < groups; gi++)
                if (!Arrays.equals(in[2 + gi * n + k], x))
                    throw new GraphException("input #" + (2 + gi * n + k) + " " + Arrays.toString(in[2 + gi * n + k]) + " must have the shape of X #" + (2 + k) + " " + Arrays.toString(x));
            for (int o = 0; o < outGroups; o++) out[o * n + k] = x.clone();
        }
        return out;
    }

    /** One {@link Kernels#OPTIMIZER} call per X: r, t, x, g, the states, x', the states'. */
    private static List<KernelCall> lower(Op op, OpLowering l, int declared, int groups) {
        List<String> in = op.inputs(), out = op.outputs();
        int n = (in.size() - 2) / groups, states = groups - 2;
        if (l.dtype(in.get(0)) != DType.F32 || l.dtype(in.get(1)) != DType.I64) throw fail(op, "R must be f32 and T int64");
        OpAttrs a = OpAttrs.of(op);
        double[] floats = {a.real("norm_coefficient"), has(op, "alpha") ? a.real("alpha") : 0, has(op, "beta") ? a.real("beta") : 0,
                has(op, "epsilon") ? a.real("epsilon") : 0, has(op, "decay_factor") ? a.real("decay_factor") : 0,
                has(op, "norm_coefficient_post") ? a.real("norm_coefficient_post") : 0};
        int mode = declared;
        if (declared == Kernels.OPTIMIZER_MOMENTUM) {
            String m = OpAttrs.of(op).string("mode");
            if (!MODES.contains(m)) throw fail(op, "mode '" + m + "' is neither standard nor nesterov");
            if (m.equals(MODES.get(1))) mode = Kernels.OPTIMIZER_NESTEROV;
        }
        List<KernelCall> calls = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            List<KernelArg> args = new ArrayList<>(List.of(l.read(in.get(0)), l.read(in.get(1))));
            for (int gi = 0; gi < groups; gi++) {
                l.requireF32(op, in.get(2 + gi * n + k));
                args.add(l.read(in.get(2 + gi * n + k)));
            }
            for (int o = 0; o <= states; o++) {
                l.requireF32(op, out.get(o * n + k));
                args.add(l.write(out.get(o * n + k)));
            }
            calls.add(l.call(op, Kernels.OPTIMIZER, args, new long[]{l.elements(in.get(2 + k)), mode}, floats));
        }
        return calls;
    }

    private static boolean has(Op op, String attr) {
        return org.arenaplan.ir.OpRegistry.get(op.kind()).attr(attr) != null;
    }

    /** A node of the ai.onnx.preview.training domain: types, groups and shapes checked, attributes resolved. */
    private static Lowered importOptimizer(NodeContext n, int groups, int outGroups) {
        n.require(n.node().domain().equals(DOMAIN), n.opType() + " is an operator of the " + DOMAIN + " domain, not of '" + n.node().domain() + "'");
        int count = n.inputCount();
        n.require(count >= 2 + groups && (count - 2) % groups == 0, "has " + count + " inputs; " + n.opType() + " takes R, T and "
                + groups + " groups of as many tensors each");
        int tensors = (count - 2) / groups;
        List<String> outs = n.node().outputs();
        n.require(outs.size() == outGroups * tensors && outs.stream().noneMatch(String::isEmpty),
                "has " + outs.size() + " outputs; " + n.opType() + " of " + tensors + " tensor" + (tensors == 1 ? "" : "s") + " writes " + outGroups * tensors);
        Value r = n.input(0), t = n.input(1);
        n.require(r.dtype() == DType.F32, "R " + r + " is " + r.dtype().jsonName() + "; arenaplan computes " + n.opType() + " in f32 only");
        n.require(t.dtype() == DType.I64, "T " + t + " is " + t.dtype().jsonName() + "; it must be int64");
        List<String> inputs = new ArrayList<>();
        long[][] shapes = new long[count][];
        for (int j = 0; j < count; j++) {
            Value v = n.input(j);
            if (j >= 2) n.require(v.dtype() == DType.F32, "input #" + j + " " + v + " is " + v.dtype().jsonName() + "; arenaplan computes " + n.opType() + " in f32 only");
            inputs.add(v.name());
            shapes[j] = v.shape();
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        for (AttrSpec a : org.arenaplan.ir.OpRegistry.get(n.kind()).attrs()) {
            if (a.required()) n.require(n.hasAttr(a.name()), "attribute '" + a.name() + "' is required (" + DOMAIN + " " + n.opType() + ")");
            if (a.type() == AttrSpec.Type.STRING) {
                String mode = n.string(a.name(), null);
                n.require(MODES.contains(mode), "attribute 'mode' is '" + mode + "'; Momentum takes standard or nesterov");
                attrs.put(a.name(), mode);
            } else {
                attrs.put(a.name(), a.required() ? n.real(a.name(), 0) : n.real(a.name()));
            }
        }
        long[][] out;
        try {
            out = shapes(shapes, outs.size(), groups, outGroups);
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        List<Value> values = new ArrayList<>();
        for (int o = 0; o < out.length; o++) values.add(new Value(outs.get(o), DType.F32, out[o]));
        return new Lowered(n.kind(), inputs, values, attrs, false, List.of());
    }
}
