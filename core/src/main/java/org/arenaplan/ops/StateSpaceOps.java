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
import org.arenaplan.onnx.OptionalOutputs;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * The state-space sequence ops: CausalConvWithState (opset 27; the preprocessing convolution of
 * Mamba and Gated DeltaNet), after its ONNX operator specification, whose function body is
 * Concat(past_state or zeros, input) along the sequence, a depthwise Conv (group = channels) with
 * the bias, the optional SiLU, and Slice of the last K-1 positions as present_state. It lowers to
 * one kernel ({@link Kernels#CAUSAL_CONV}) that reads the padded sequence in place, so the planner
 * sees no Concat buffer.
 *
 * <p>Shapes: input [B, C, L], weight [C, 1, K], bias [C], past_state [B, C, K-1]; output
 * [B, C, L], present_state [B, C, K-1] (empty when K = 1). Every tensor f32, f16 or bf16, one
 * type (the spec's T); sums in double, rounded once. {@code activation} is {@code none},
 * {@code silu} or its alias {@code swish} (x * sigmoid(x)); another value is refused naming the
 * node. No version differences up to opset 28.
 */
final class StateSpaceOps implements OpFamily {
    static final String CAUSAL_CONV = "CausalConvWithState";
    /** The flags saying which optional inputs the op lists after input and weight. */
    private static final String HAS_BIAS = "has_bias", HAS_PAST = "has_past";
    /** ONNX input positions of the optional inputs. */
    private static final int BIAS = 2, PAST = 3;

    @Override
    public List<OpDefinition> definitions() {
        return List.of(OpDefinition.op(CAUSAL_CONV, 2, 4).outputs(1, 2)
                .attrs(AttrSpec.string("activation", "none"), AttrSpec.flag(HAS_BIAS), AttrSpec.flag(HAS_PAST))
                .shapes(StateSpaceOps::shapes).kernels(Kernels.CAUSAL_CONV)
                .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(out[0]) * in[1][2])
                .doc("inputs input [B, C, L], weight [C, 1, K], then bias [C] and past_state [B, C, K-1] where has_bias, has_past say; "
                        + "outputs output [B, C, L] (causal depthwise conv over past_state then input, + bias, optional silu), "
                        + "optional present_state [B, C, K-1] (the last K-1 positions); f32, f16 or bf16")
                .lower((op, l) -> List.of(lower(op, l))).onnx(CAUSAL_CONV, 27, StateSpaceOps::importCausalConv).build());
    }

    /** The activation code of the kernel: 0 none, 1 silu (swish is its alias). */
    static int activation(String name) {
        return switch (name) {
            case "none" -> 0;
            case "silu", "swish" -> 1;
            default -> throw new GraphException("activation '" + name + "' is not 'none', 'silu' or 'swish'");
        };
    }

    /** Output and present_state from input, weight and the flagged optional inputs; checks every shape. */
    static long[][] shapes(OpAttrs a, long[][] in, int outputs) {
        activation(a.string("activation"));
        long[] x = in[0], w = in[1];
        if (x.length != 3) throw new GraphException("input " + Arrays.toString(x) + " must be [batch, channels, length]");
        if (w.length != 3 || w[0] != x[1] || w[1] != 1 || w[2] < 1)
            throw new GraphException("weight " + Arrays.toString(w) + " must be [" + x[1] + ", 1, k] with k >= 1 (channels of input " + Arrays.toString(x) + ")");
        long[] state = {x[0], x[1], w[2] - 1};
        int j = 2;
        if (a.integer(HAS_BIAS) == 1) {
            if (in.length <= j || !Arrays.equals(in[j], new long[]{x[1]})) throw new GraphException("bias " + (in.length > j ? Arrays.toString(in[j]) : "(missing)") + " must be [" + x[1] + "]");
            j++;
        }
        if (a.integer(HAS_PAST) == 1) {
            if (in.length <= j || !Arrays.equals(in[j], state))
                throw new GraphException("past_state " + (in.length > j ? Arrays.toString(in[j]) : "(missing)") + " must be " + Arrays.toString(state));
            j++;
        }
        if (in.length != j)
            throw new GraphException("takes " + j + " inputs with " + HAS_BIAS + "=" + a.integer(HAS_BIAS) + " and " + HAS_PAST + "=" + a.integer(HAS_PAST)
                    + ", got " + in.length + (in.length > j && j < 4 ? " (set " + (a.integer(HAS_BIAS) == 1 ? HAS_PAST + ": 1 for past_state" : HAS_BIAS + ": 1 for bias, "
                    + HAS_PAST + ": 1 for past_state") + ")" : ""));
        return Arrays.copyOf(new long[][]{x.clone(), state}, Math.max(1, Math.min(2, outputs)));
    }

    private static KernelCall lower(Op op, OpLowering l) {
        List<String> in = op.inputs();
        OpAttrs a = OpAttrs.of(op);
        long[][] shapes = new long[in.size()][];
        for (int j = 0; j < in.size(); j++) shapes[j] = l.shape(op, in.get(j));
        int act;
        try {
            shapes(a, shapes, op.outputs().size());
            act = activation(a.string("activation"));
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        DType t = l.dtype(in.get(0));
        if (t != DType.F32 && t != DType.F16 && t != DType.BF16)
            throw fail(op, "input '" + in.get(0) + "' is " + t.jsonName() + "; CausalConvWithState takes f32, f16 or bf16");
        List<String> all = new ArrayList<>(in);
        all.addAll(op.outputs());
        for (String s : all)
            if (l.dtype(s) != t) throw fail(op, "'" + s + "' is " + l.dtype(s).jsonName() + " but input '" + in.get(0) + "' is " + t.jsonName() + "; every tensor has one type");
        List<KernelArg> args = new ArrayList<>();
        for (String s : in) args.add(l.read(s));
        args.add(l.write(op.outputs().get(0)));
        boolean present = op.outputs().size() > 1;
        if (present) args.add(l.write(op.outputs().get(1)));
        long[] x = shapes[0];
        return l.call(op, Kernels.CAUSAL_CONV, args, new long[]{x[0], x[1], x[2], shapes[1][2], a.integer(HAS_BIAS), a.integer(HAS_PAST), act,
                present ? 1 : 0, t.onnxCode()});
    }

    private static Lowered importCausalConv(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 4);
        Value x = n.input(0);
        n.require(x.dtype() == DType.F32 || x.dtype() == DType.F16 || x.dtype() == DType.BF16,
                "input " + x + " is " + x.dtype().jsonName() + "; CausalConvWithState takes f32, f16 or bf16");
        List<Value> present = new ArrayList<>(List.of(x, n.input(1)));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("activation", n.string("activation", "none"));
        attrs.put(HAS_BIAS, n.hasInput(BIAS) ? 1L : 0L);
        attrs.put(HAS_PAST, n.hasInput(PAST) ? 1L : 0L);
        if (n.hasInput(BIAS)) present.add(n.input(BIAS));
        if (n.hasInput(PAST)) present.add(n.input(PAST));
        for (Value v : present) n.require(v.dtype() == x.dtype(), v + " is " + v.dtype().jsonName() + " but input " + x + " is " + x.dtype().jsonName() + "; every tensor has one type (T)");
        long[][] shapes = new long[present.size()][];
        for (int j = 0; j < shapes.length; j++) shapes[j] = present.get(j).shape();
        long[][] outs;
        try {
            outs = shapes(FamilyImports.attrsOf(CAUSAL_CONV, attrs), shapes, 2);
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        List<OptionalOutputs.Slot> slots = List.of(new OptionalOutputs.Slot(x.dtype(), outs[0]), new OptionalOutputs.Slot(x.dtype(), outs[1]));
        return new Lowered(CAUSAL_CONV, present.stream().map(Value::name).toList(), OptionalOutputs.of(n, 1, slots), attrs, false, List.of());
    }
}
