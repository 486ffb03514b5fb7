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

/**
 * FlexAttention (ONNX domain ai.onnx.preview, version 1), after its operator specification and
 * onnx/reference/ops/aionnx_preview/op_flex_attention.py: scores = (Q Kᵀ) · scale, then the
 * score_mod subgraph, softmax along the last axis, the prob_mod subgraph, and Y = P V, each KV
 * head shared by Hq/Hkv query heads. Without modifiers it is one kernel call
 * ({@link Kernels#FLEX_ATTENTION} from Q, K to Y); with them the importer ({@code onnx.ControlFlow})
 * splits it into stages, each an op of this kind whose {@code from_stage}/{@code to_stage} say where
 * it starts and ends (0 = Q and K, 1 = scores, 2 = probabilities, 3 = Y), with the modifier's nodes
 * imported between two stages as ordinary nodes; the scores and probabilities are then tensors
 * [B, Hq, L, S] the plan holds.
 *
 * <p>Shapes: Q [B, Hq, L, E], K [B, Hkv, S, E], V [B, Hkv, S, Ev], Y [B, Hq, L, Ev]; Q, K, V and Y
 * one type T (f32, f16, bf16 or f64); scores and probabilities of softmax_precision C (f32, f16,
 * bf16 or f64; by default f64 for f64 inputs, else f32). Every refusal names the node and the
 * input or attribute.
 */
final class FlexAttentionOps implements OpFamily {
    static final String FLEX_ATTENTION = "FlexAttention";
    /** The ONNX domain of the operator, and the one the importer's stage nodes carry (never read from a file). */
    static final String PREVIEW = "ai.onnx.preview", STAGES = "arenaplan";
    static final String FROM = "from_stage", TO = "to_stage", PRECISION = "softmax_precision";
    private static final List<String> POINTS = List.of("Q and K", "scores", "probabilities", "Y");

    @Override
    public List<OpDefinition> definitions() {
        return List.of(OpDefinition.op(FLEX_ATTENTION, 1, 3)
                .attrs(AttrSpec.real("scale", 0.0), AttrSpec.integer(PRECISION, 0, 0, 16),
                        AttrSpec.integer(FROM, 0, 0, 2), AttrSpec.integer(TO, 3, 1, 3)).internal(FROM, TO)
                .shapes((a, in, outputs) -> new long[][]{Geometry.of(a, in).output()}).kernels(Kernels.FLEX_ATTENTION)
                .flops((a, in, out) -> Geometry.of(a, in).flops())
                .doc("from_stage 0: inputs Q [B, Hq, L, E], K [B, Hkv, S, E]; else scores or probabilities [B, Hq, L, S]; then V "
                        + "[B, Hkv, S, Ev] when to_stage is 3; output Y [B, Hq, L, Ev] (to_stage 3) or scores / probabilities [B, Hq, L, S]; "
                        + "T f32, f16, bf16 or f64, softmax_precision (0 = f64 for f64, else f32)")
                .lower((op, l) -> List.of(lower(op, l))).onnx(FLEX_ATTENTION, 1, FlexAttentionOps::importFlexAttention, "score_mod", "prob_mod")
                .build());
    }

    /** The op's extents, checked against each other; {@code hkv} is hq when no input gives it. */
    record Geometry(long b, long hq, long hkv, long len, long s, long e, long ev, int from, int to) {
        /** @throws GraphException naming the input whose shape contradicts the others */
        static Geometry of(OpAttrs a, long[][] in) {
            int from = (int) a.integer(FROM), to = (int) a.integer(TO);
            if (to <= from) throw new GraphException(TO + " " + to + " must come after " + FROM + " " + from);
            int want = (from == 0 ? 2 : 1) + (to == 3 ? 1 : 0);
            if (in.length != want) throw new GraphException("takes " + want + " inputs from " + POINTS.get(from) + " to " + POINTS.get(to) + ", got " + in.length);
            for (int j = 0; j < in.length; j++)
                if (in[j].length != 4) throw new GraphException(name(from, j) + " " + Arrays.toString(in[j]) + " must have rank 4");
            long b = in[0][0], hq = in[0][1], len = in[0][2], hkv = hq, s, e = 0, ev = 0;
            if (from == 0) {
                long[] k = in[1];
                e = in[0][3];
                hkv = k[1];
                s = k[2];
                if (k[0] != b || k[3] != e) throw new GraphException("K " + Arrays.toString(k) + " must be [" + b + ", kv_num_heads, kv_sequence_length, " + e + "] (Q's batch and head size)");
            } else {
                s = in[0][3];
            }
            if (to == 3) {
                long[] v = in[in.length - 1];
                if (v[0] != b || v[2] != s || (from == 0 && v[1] != hkv))
                    throw new GraphException("V " + Arrays.toString(v) + " must be [" + b + ", " + (from == 0 ? "" + hkv : "kv_num_heads") + ", " + s + ", v_head_size]");
                hkv = v[1];
                ev = v[3];
            }
            if (hkv < 1 || hq % hkv != 0) throw new GraphException("q_num_heads " + hq + " is not a multiple of kv_num_heads " + hkv);
            return new Geometry(b, hq, hkv, len, s, e, ev, from, to);
        }

        private static String name(int from, int j) {
            return from == 0 ? List.of("Q", "K", "V").get(j) : j == 0 ? POINTS.get(from) : "V";
        }

        long[] output() {
            return new long[]{b, hq, len, to == 3 ? ev : s};
        }

        /** Per score: 2E for Q Kᵀ (from Q and K), about 5 for the softmax, 2Ev for P V (to Y). */
        long flops() {
            long per = (from == 0 ? 2 * e : 0) + (from <= 1 && to >= 2 ? 5 : 0) + (to == 3 ? 2 * ev : 0);
            return b * hq * len * s * per;
        }
    }

    static boolean floating(DType t) {
        return t == DType.F32 || t == DType.F16 || t == DType.BF16 || t == DType.F64;
    }

    /** softmax_precision's type: the attribute's ONNX code, or by default f64 for f64 inputs, else f32. */
    static DType precision(long code, DType t) {
        if (code == 0) return t == DType.F64 ? DType.F64 : DType.F32;
        DType c = DType.ofOnnx(code);
        return c != null && floating(c) ? c : null;
    }

    /**
     * The factor Q and K are each multiplied by, as the reference rounds it: sqrt of the f32 scale
     * in f32, then in T ({@code scale} 0: 1/sqrt(E)).
     */
    static double sqrtScale(double scale, long e, DType t) {
        float f = (float) Math.sqrt((float) (scale == 0 ? 1 / Math.sqrt(e) : scale));
        return switch (t) {
            case F16 -> DType.halfToFloat(DType.floatToHalf(f));
            case BF16 -> Float.intBitsToFloat(DType.floatToBfloat16(f) << 16);
            default -> f;
        };
    }

    private static KernelCall lower(Op op, OpLowering l) {
        List<String> in = op.inputs();
        long[][] shapes = new long[in.size()][];
        for (int j = 0; j < in.size(); j++) shapes[j] = l.shape(op, in.get(j));
        OpAttrs a = OpAttrs.of(op);
        Geometry g;
        try {
            g = Geometry.of(a, shapes);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        String out = op.outputs().get(0);
        DType t = g.from == 0 ? l.dtype(in.get(0)) : g.to == 3 ? l.dtype(in.get(in.size() - 1)) : l.dtype(out);
        if (!floating(t)) throw fail(op, "'" + in.get(0) + "' is " + t.jsonName() + "; FlexAttention takes f32, f16, bf16 or f64");
        DType c = precision(a.integer(PRECISION), t);
        if (c == null) throw fail(op, PRECISION + " " + a.integer(PRECISION) + " is not the ONNX code of f32 (1), f16 (10), bf16 (16) or f64 (11)");
        for (int j = 0; j < in.size(); j++) {
            DType want = g.from > 0 && j == 0 ? c : t, got = l.dtype(in.get(j));
            if (got != want) throw fail(op, "'" + in.get(j) + "' is " + got.jsonName() + ", not " + want.jsonName());
        }
        DType outType = g.to == 3 ? t : c;
        if (l.dtype(out) != outType) throw fail(op, "output '" + out + "' is " + l.dtype(out).jsonName() + ", not " + outType.jsonName());
        List<KernelArg> args = new ArrayList<>();
        for (String x : in) args.add(l.read(x));
        args.add(l.write(out));
        long[] ints = {g.b, g.hq, g.hkv, g.len, g.s, g.e, g.ev, g.from, g.to, t.onnxCode(), c.onnxCode()};
        return l.call(op, Kernels.FLEX_ATTENTION, args, ints, new double[]{g.from == 0 ? sqrtScale(a.real("scale"), g.e, t) : 1});
    }

    /**
     * A FlexAttention node of the ai.onnx.preview domain without modifiers (Q, K, V to Y), or one
     * stage of one with them (domain {@value #STAGES}, made by the importer, never read from a file).
     */
    private static Lowered importFlexAttention(NodeContext n) {
        String domain = n.node().domain();
        boolean stage = domain.equals(STAGES);
        n.require(stage || domain.equals(PREVIEW), "FlexAttention is an operator of the " + PREVIEW + " domain, not of '" + domain + "'");
        for (String m : List.of("score_mod", "prob_mod"))
            n.require(stage || n.graph(m) == null, "attribute '" + m + "' was not inlined before import (an importer error)");
        if (!stage)
            for (String own : List.of(FROM, TO))
                n.require(!n.hasAttr(own), "attribute '" + own + "' is arenaplan's own (the stages it splits FlexAttention into); FlexAttention takes "
                        + "scale, softmax_precision, score_mod, prob_mod");
        int from = (int) n.integer(FROM, 0), to = (int) n.integer(TO, 3);
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put(FROM, (long) from);
        attrs.put(TO, (long) to);
        int count = (from == 0 ? 2 : 1) + (to == 3 ? 1 : 0);
        FamilyImports.requireInputs(n, count, count);
        n.require(n.node().outputs().size() == 1 && !n.node().outputs().get(0).isEmpty(), "has " + n.node().outputs().size() + " outputs; FlexAttention has one (Y)");
        List<Value> ins = new ArrayList<>();
        for (int j = 0; j < count; j++) ins.add(n.input(j));
        Value first = ins.get(0), last = ins.get(count - 1);
        DType t = from == 0 ? first.dtype() : to == 3 ? last.dtype() : null;
        n.require(t == null || floating(t), (from == 0 ? "Q " + first : "V " + last) + " is " + (t == null ? "" : t.jsonName()) + "; FlexAttention takes f32, f16, bf16 or f64");
        long code = n.integer(PRECISION, 0);
        DType c = precision(code, t == null ? first.dtype() : t);
        n.require(c != null, PRECISION + " " + code + " is not the ONNX code of f32 (1), f16 (10), bf16 (16) or f64 (11)");
        attrs.put(PRECISION, (long) c.onnxCode());
        for (int j = 0; j < count; j++) {
            Value v = ins.get(j);
            DType want = from > 0 && j == 0 ? c : t;
            String what = from > 0 && j == 0 ? (from == 1 ? "score_mod's output " : "prob_mod's output ") : List.of("Q ", "K ", "V ").get(from == 0 ? j : 2);
            n.require(v.dtype() == want, what + v + " is " + v.dtype().jsonName() + ", not " + want.jsonName()
                    + (from > 0 && j == 0 ? " (softmax_precision's type: a modifier keeps its input's type)" : " (Q, K and V have one type)"));
        }
        long[][] shapes = new long[count][];
        for (int j = 0; j < count; j++) shapes[j] = ins.get(j).shape();
        Geometry g;
        try {
            g = Geometry.of(FamilyImports.attrsOf(FLEX_ATTENTION, attrs), shapes);
        } catch (GraphException e) {
            throw n.error(e.getMessage());   // a modifier's output shape is checked where it is inlined (ControlFlow)
        }
        double scale = n.real("scale", 0.0);
        n.require(!n.hasAttr("scale") || (Double.isFinite(scale) && scale != 0), "scale " + scale + " must be finite and not 0 (arenaplan reads scale 0 as not given: 1/sqrt(head_size))");
        attrs.put("scale", scale);
        return new Lowered(FLEX_ATTENTION, ins.stream().map(Value::name).toList(),
                List.of(new Value(n.node().outputs().get(0), to == 3 ? t : c, g.output())), attrs, false, List.of());
    }
}
