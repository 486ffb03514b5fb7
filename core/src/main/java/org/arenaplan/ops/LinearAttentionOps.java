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
import static org.arenaplan.ir.AttrSpec.MAX_INT32;

/**
 * LinearAttention (opset 27; linear attention, GLA/RWKV-6 gating, DeltaNet and Gated DeltaNet),
 * after its ONNX operator specification and onnx/reference/ops/op_linear_attention.py: a
 * recurrent state S [B, Hkv, dk, dv] updated per token by {@code update_rule} ({@code linear}
 * S += k ⊗ v; {@code gated} S = exp(g) S + k ⊗ v; {@code delta} S += β k ⊗ (v − Sᵀk);
 * {@code gated_delta} both) and read by the query, o = scale · qᵀS, each KV head shared by
 * Hq/Hkv query heads. It lowers to one kernel ({@link Kernels#LINEAR_ATTENTION}, one item per
 * state column), so the plan holds no per-token state.
 *
 * <p>Shapes: query [B, T, Hq*dk], key [B, T, Hkv*dk], value [B, T, Hkv*dv], past_state
 * [B, Hkv, dk, dv], decay [B, T, Hkv*dk] or [B, T, Hkv], beta [B, T, Hkv] or [B, T, 1]; output
 * [B, T, Hq*dv], present_state [B, Hkv, dk, dv]. query, key, value, decay, beta and output share
 * one type T; past_state and present_state one type S (present_state is T without past_state);
 * each f32, f16 or bf16. decay is required by the gated rules and refused by the others, beta
 * likewise by the delta rules (the reference's checks); {@code chunk_size} is a tuning hint read
 * and ignored. Every refusal names the node and the input or attribute.
 */
final class LinearAttentionOps implements OpFamily {
    static final String LINEAR_ATTENTION = "LinearAttention";
    /** The flags saying which optional inputs the op lists after query, key and value. */
    private static final String HAS_PAST = "has_past", HAS_DECAY = "has_decay", HAS_BETA = "has_beta";
    /** ONNX input positions of the optional inputs. */
    private static final int PAST = 3, DECAY = 4, BETA = 5;
    private static final List<String> RULES = List.of("linear", "gated", "delta", "gated_delta");

    @Override
    public List<OpDefinition> definitions() {
        return List.of(OpDefinition.op(LINEAR_ATTENTION, 3, 6).outputs(1, 2)
                .attrs(AttrSpec.requiredInteger("q_num_heads", 1, MAX_INT32), AttrSpec.requiredInteger("kv_num_heads", 1, MAX_INT32),
                        AttrSpec.real("scale", 0.0), AttrSpec.string("update_rule", "gated_delta"),
                        AttrSpec.flag(HAS_PAST), AttrSpec.flag(HAS_DECAY), AttrSpec.flag(HAS_BETA))
                .shapes((a, in, outputs) -> Geometry.of(a, in).shapes(outputs)).kernels(Kernels.LINEAR_ATTENTION)
                .flops((a, in, out) -> Geometry.of(a, in).flops())
                .doc("inputs query [B, T, Hq*dk], key [B, T, Hkv*dk], value [B, T, Hkv*dv], then past_state [B, Hkv, dk, dv], decay "
                        + "[B, T, Hkv*dk or Hkv] and beta [B, T, Hkv or 1] where has_past, has_decay, has_beta say; outputs output "
                        + "[B, T, Hq*dv], optional present_state [B, Hkv, dk, dv]; f32, f16 or bf16")
                .lower((op, l) -> List.of(lower(op, l))).onnx(LINEAR_ATTENTION, 27, LinearAttentionOps::importLinearAttention, "chunk_size")
                .build());
    }

    /**
     * The op's extents, checked against the attributes: dk from query and q_num_heads, dv from
     * value and kv_num_heads; the positions of the flagged optional inputs.
     */
    record Geometry(long batch, long steps, long hq, long hkv, long dk, long dv, int past, int decay, int beta, boolean decayPerKey,
                    boolean betaPerHead, double scale) {
        /** @throws GraphException naming the input or attribute whose shape or value contradicts the others */
        static Geometry of(OpAttrs a, long[][] in) {
            String rule = a.string("update_rule");
            int code = RULES.indexOf(rule);
            if (code < 0) throw new GraphException("update_rule '" + rule + "' is not 'linear', 'gated', 'delta' or 'gated_delta'");
            boolean gated = code == 1 || code == 3, delta = code >= 2;
            long hq = a.integer("q_num_heads"), hkv = a.integer("kv_num_heads");
            if (hq % hkv != 0) throw new GraphException("q_num_heads " + hq + " is not a multiple of kv_num_heads " + hkv);
            long[] q = in[0], k = in[1], v = in[2];
            for (int j = 0; j < 3; j++)
                if (in[j].length != 3) throw new GraphException(List.of("query", "key", "value").get(j) + " " + Arrays.toString(in[j]) + " must be [batch, steps, heads * size]");
            if (q[2] % hq != 0 || q[2] == 0) throw new GraphException("query " + Arrays.toString(q) + ": its last extent is not a positive multiple of q_num_heads " + hq);
            if (v[2] % hkv != 0 || v[2] == 0) throw new GraphException("value " + Arrays.toString(v) + ": its last extent is not a positive multiple of kv_num_heads " + hkv);
            long b = q[0], t = q[1], dk = q[2] / hq, dv = v[2] / hkv;
            if (!Arrays.equals(k, new long[]{b, t, hkv * dk})) throw new GraphException("key " + Arrays.toString(k) + " must be [" + b + ", " + t + ", " + hkv * dk + "] (kv_num_heads * dk)");
            if (v[0] != b || v[1] != t) throw new GraphException("value " + Arrays.toString(v) + " must be [" + b + ", " + t + ", kv_num_heads * dv]");
            int j = 3, past = -1, decay = -1, beta = -1;
            boolean perKey = false, perHead = false;
            if (a.integer(HAS_PAST) == 1) {
                long[] want = {b, hkv, dk, dv};
                if (in.length <= j || !Arrays.equals(in[j], want)) throw new GraphException("past_state " + given(in, j) + " must be " + Arrays.toString(want));
                past = j++;
            }
            if (a.integer(HAS_DECAY) != (gated ? 1 : 0))
                throw new GraphException("update_rule '" + rule + "' " + (gated ? "requires" : "takes no") + " decay input");
            if (gated) {
                if (in.length <= j || in[j].length != 3 || in[j][0] != b || in[j][1] != t || (in[j][2] != hkv * dk && in[j][2] != hkv))
                    throw new GraphException("decay " + given(in, j) + " must be [" + b + ", " + t + ", " + hkv * dk + "] (per key) or [" + b + ", " + t + ", " + hkv + "] (per head)");
                perKey = in[j][2] == hkv * dk;
                decay = j++;
            }
            if (a.integer(HAS_BETA) != (delta ? 1 : 0))
                throw new GraphException("update_rule '" + rule + "' " + (delta ? "requires" : "takes no") + " beta input");
            if (delta) {
                if (in.length <= j || in[j].length != 3 || in[j][0] != b || in[j][1] != t || (in[j][2] != hkv && in[j][2] != 1))
                    throw new GraphException("beta " + given(in, j) + " must be [" + b + ", " + t + ", " + hkv + "] or [" + b + ", " + t + ", 1]");
                perHead = in[j][2] == hkv;
                beta = j++;
            }
            if (in.length != j) throw new GraphException("takes " + j + " inputs for has_past, has_decay and has_beta, got " + in.length);
            double scale = a.real("scale");
            return new Geometry(b, t, hq, hkv, dk, dv, past, decay, beta, perKey, perHead, scale == 0 ? 1 / Math.sqrt(dk) : scale);
        }

        private static String given(long[][] in, int j) {
            return in.length > j ? Arrays.toString(in[j]) : "(missing)";
        }

        long[][] shapes(int outputs) {
            return Arrays.copyOf(new long[][]{{batch, steps, hq * dv}, {batch, hkv, dk, dv}}, Math.max(1, Math.min(2, outputs)));
        }

        /** Per step and state element: the update (about 4 with the delta read) and the query heads' reads (2 each). */
        long flops() {
            return batch * steps * hkv * dk * dv * (4 + 2 * (hq / hkv));
        }
    }

    static boolean floating(DType t) {
        return t == DType.F32 || t == DType.F16 || t == DType.BF16;
    }

    private static KernelCall lower(Op op, OpLowering l) {
        List<String> in = op.inputs();
        long[][] shapes = new long[in.size()][];
        for (int j = 0; j < in.size(); j++) shapes[j] = l.shape(op, in.get(j));
        Geometry g;
        try {
            g = Geometry.of(OpAttrs.of(op), shapes);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        DType t = l.dtype(in.get(0));
        if (!floating(t)) throw fail(op, "query '" + in.get(0) + "' is " + t.jsonName() + "; LinearAttention takes f32, f16 or bf16");
        DType s = g.past >= 0 ? l.dtype(in.get(g.past)) : t;
        if (!floating(s)) throw fail(op, "past_state '" + in.get(g.past) + "' is " + s.jsonName() + "; LinearAttention takes f32, f16 or bf16");
        boolean present = op.outputs().size() > 1;
        List<String> typed = new ArrayList<>(in);
        typed.add(op.outputs().get(0));
        for (int j = 0; j < typed.size(); j++) {
            if (j == g.past) continue;
            if (l.dtype(typed.get(j)) != t) throw fail(op, "'" + typed.get(j) + "' is " + l.dtype(typed.get(j)).jsonName() + " but query '" + in.get(0) + "' is " + t.jsonName() + "; query, key, value, decay, beta and output have one type");
        }
        if (present && l.dtype(op.outputs().get(1)) != s)
            throw fail(op, "present_state '" + op.outputs().get(1) + "' is " + l.dtype(op.outputs().get(1)).jsonName() + ", not " + s.jsonName() + " (past_state's type, or query's without it)");
        List<KernelArg> args = new ArrayList<>();
        for (String x : in) args.add(l.read(x));
        args.add(l.write(op.outputs().get(0)));
        if (present) args.add(l.write(op.outputs().get(1)));
        long[] ints = {g.batch, g.steps, g.hq, g.hkv, g.dk, g.dv, g.past >= 0 ? 1 : 0, g.decay >= 0 ? 1 : 0, g.decayPerKey ? 1 : 0,
                g.beta >= 0 ? 1 : 0, g.betaPerHead ? 1 : 0, present ? 1 : 0, t.onnxCode(), s.onnxCode()};
        return l.call(op, Kernels.LINEAR_ATTENTION, args, ints, new double[]{g.scale});
    }

    private static Lowered importLinearAttention(NodeContext n) {
        FamilyImports.requireInputs(n, 3, 6);
        Value q = n.input(0);
        n.require(floating(q.dtype()), "query " + q + " is " + q.dtype().jsonName() + "; LinearAttention takes f32, f16 or bf16");
        Map<String, Object> attrs = new LinkedHashMap<>();
        n.require(n.hasAttr("q_num_heads") && n.hasAttr("kv_num_heads"), "attributes q_num_heads and kv_num_heads are required");
        attrs.put("q_num_heads", n.integer("q_num_heads", 0));
        attrs.put("kv_num_heads", n.integer("kv_num_heads", 0));
        attrs.put("scale", n.real("scale", 0.0));
        attrs.put("update_rule", n.string("update_rule", "gated_delta"));
        attrs.put(HAS_PAST, n.hasInput(PAST) ? 1L : 0L);
        attrs.put(HAS_DECAY, n.hasInput(DECAY) ? 1L : 0L);
        attrs.put(HAS_BETA, n.hasInput(BETA) ? 1L : 0L);
        long chunk = n.integer("chunk_size", 64);
        n.require(chunk >= 1, "chunk_size " + chunk + " must be positive");
        List<Value> present = new ArrayList<>(List.of(q, n.input(1), n.input(2)));
        for (int j : new int[]{PAST, DECAY, BETA}) if (n.hasInput(j)) present.add(n.input(j));
        Value past = n.hasInput(PAST) ? n.input(PAST) : null;
        DType s = past != null ? past.dtype() : q.dtype();
        n.require(floating(s), "past_state " + past + " is " + s.jsonName() + "; LinearAttention takes f32, f16 or bf16 (S)");
        for (Value v : present)
            n.require(v == past || v.dtype() == q.dtype(),
                    v + " is " + v.dtype().jsonName() + " but query " + q + " is " + q.dtype().jsonName() + "; query, key, value, decay and beta have one type (T)");
        long[][] shapes = new long[present.size()][];
        for (int j = 0; j < shapes.length; j++) shapes[j] = present.get(j).shape();
        long[][] outs;
        try {
            outs = Geometry.of(FamilyImports.attrsOf(LINEAR_ATTENTION, attrs), shapes).shapes(2);
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        List<OptionalOutputs.Slot> slots = List.of(new OptionalOutputs.Slot(q.dtype(), outs[0]), new OptionalOutputs.Slot(s, outs[1]));
        return new Lowered(LINEAR_ATTENTION, present.stream().map(Value::name).toList(), OptionalOutputs.of(n, 1, slots), attrs, false, List.of());
    }
}
