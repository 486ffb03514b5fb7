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
import org.arenaplan.onnx.NodeLowering;
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
 * The transformer ops of ONNX opset 23: RotaryEmbedding and Attention (RMSNormalization is in
 * {@link NormalizationOps}), after the ONNX operator specifications and onnx/reference/ops/
 * op_rotary_embedding.py and op_attention.py. Each lowers to one fused kernel
 * ({@link Kernels#ROTARY}, {@link Kernels#ATTENTION}) that needs no device bytes beyond its inputs
 * and the outputs it lists: Attention recomputes each query row's scores in three passes
 * (max, sum, weighted values) instead of materialising the [B, H, Sq, T] score matrix, so the
 * planner sees every buffer the op touches.
 *
 * <p>ONNX version differences (Changelog.md; no later versions of either op up to opset 28):
 * both exist from 23; Attention-24 adds input 6 {@code nonpad_kv_seqlen} (int64 [B]: keys at or
 * past it are masked, and the causal frontier is offset by nonpad_kv_seqlen - q_sequence_length);
 * Attention-25 adds {@code left_window_size} and {@code right_window_size} (-1 unbounded: a query
 * at absolute position p = offset + i attends keys j with p - left &lt;= j &lt;= p + right) and
 * forbids q_num_heads and kv_num_heads with 4D inputs; the errata of 23 and 24 (a fully-masked
 * row gives a zero row of Y and of the mode-3 qk_matmul_output, not NaN) are what the kernel
 * does. Refused at import, each with one line naming the node and the attribute or input: any
 * element type but f32 (masks: f32 or bool), {@code softmax_precision} other than 1 (float),
 * qk_matmul_output_mode 0 with a softcap and qk_matmul_output listed (the spec says the raw QK
 * product, the reference implementation returns it softcapped), q_num_heads not a multiple of
 * kv_num_heads, past_key without past_value (or the reverse), and nonpad_kv_seqlen with past_key.
 */
final class TransformerOps implements OpFamily {
    static final String ROTARY = "RotaryEmbedding", ATTENTION = "Attention";
    /** Attention's optional inputs after Q, K, V, in ONNX order, with the flag attribute saying which the op lists. */
    private static final String HAS_MASK = "has_mask", HAS_PAST = "has_past", HAS_NONPAD = "has_nonpad";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(ROTARY, 3, 4).attrs(AttrSpec.flag("interleaved"), AttrSpec.integer("rotary_embedding_dim", 0, 0, MAX_INT32),
                                AttrSpec.integer("num_heads", 0, 0, MAX_INT32))
                        .shape(TransformerOps::rotaryShape).kernels(Kernels.ROTARY).flops((a, in, out) -> 3 * OpSpec.FlopRule.elements(out[0]))
                        .doc("inputs X [B, H, S, D] (or [B, S, H*D] with num_heads), cos_cache and sin_cache ([max_position, rd/2] with "
                                + "position_ids [B, S] int64, else [B, S, rd/2]); the first rd = rotary_embedding_dim (0: D) of each head "
                                + "rotated in halves or interleaved pairs; f32")
                        .lower((op, l) -> List.of(rotary(op, l))).onnx(ROTARY, 23, TransformerOps::importRotary).build(),
                OpDefinition.op(ATTENTION, 3, 7).outputs(1, 4)
                        .attrs(AttrSpec.requiredInteger("q_num_heads", 1, MAX_INT32), AttrSpec.requiredInteger("kv_num_heads", 1, MAX_INT32),
                                AttrSpec.flag("is_causal"), AttrSpec.optionalReal("scale", "1/sqrt(head_size)"), AttrSpec.real("softcap", 0.0),
                                AttrSpec.integer("qk_matmul_output_mode", 0, 0, 3), AttrSpec.integer("left_window_size", -1, -1, MAX_INT32),
                                AttrSpec.integer("right_window_size", -1, -1, MAX_INT32), AttrSpec.flag(HAS_MASK), AttrSpec.flag(HAS_PAST),
                                AttrSpec.flag(HAS_NONPAD))
                        .shapes(TransformerOps::attentionShapes).kernels(Kernels.ATTENTION)
                        // per query row and key: the QK dot product (2D), softcap, bias, exp and the weighted sum of values (2Dv)
                        .flops((a, in, out) -> attentionFlops(a, in))
                        .doc("inputs Q, K, V (all [B, H, S, D] or all [B, S, H*D]), then attn_mask, past_key and past_value, nonpad_kv_seqlen "
                                + "where has_mask, has_past, has_nonpad say; outputs Y, optional present_key, present_value, qk_matmul_output; "
                                + "masks of Q's type or bool; one kernel, no workspace")
                        .computes(DType.F32, DType.F16).lower((op, l) -> List.of(attention(op, l))).onnx(ATTENTION, 23, TransformerOps::importAttention, "softmax_precision").build());
    }

    // ---- RotaryEmbedding ----

    /** The rotary geometry: batch, sequence, heads, head size, rotated dims, and X's strides of b, h, s. */
    private record Rotary(long batch, long seq, long heads, long d, long rd, long sb, long sh, long ss) { }

    private static Rotary rotaryGeometry(OpAttrs a, long[] x) {
        long heads, d, seq, sb, sh, ss;
        if (x.length == 4) {
            heads = x[1];
            seq = x[2];
            d = x[3];
            sb = heads * seq * d;
            sh = seq * d;
            ss = d;
        } else if (x.length == 3) {
            heads = a.integer("num_heads");
            if (heads < 1 || x[2] % heads != 0) throw new GraphException("num_heads " + heads + " must be given and divide the hidden size " + x[2] + " of a 3D input");
            seq = x[1];
            d = x[2] / heads;
            sb = seq * x[2];
            sh = d;
            ss = x[2];
        } else {
            throw new GraphException("input " + Arrays.toString(x) + " must be [B, H, S, D] or [B, S, hidden]");
        }
        long rd = a.integer("rotary_embedding_dim") == 0 ? d : a.integer("rotary_embedding_dim");
        if (rd % 2 != 0 || rd > d) throw new GraphException("rotary_embedding_dim " + rd + " must be even and at most the head size " + d);
        return new Rotary(x[0], seq, heads, d, rd, sb, sh, ss);
    }

    static long[] rotaryShape(OpAttrs a, long[][] in) {
        Rotary r = rotaryGeometry(a, in[0]);
        long[] cache = in.length > 3 ? new long[]{in[1].length == 2 ? in[1][0] : -1, r.rd / 2} : new long[]{r.batch, r.seq, r.rd / 2};
        for (int j = 1; j < 3; j++) {
            boolean ok = in.length > 3 ? in[j].length == 2 && in[j][1] == r.rd / 2 : Arrays.equals(in[j], cache);
            if (!ok) throw new GraphException((j == 1 ? "cos_cache " : "sin_cache ") + Arrays.toString(in[j]) + " must be "
                    + (in.length > 3 ? "[max_position, " + r.rd / 2 + "] with position_ids" : Arrays.toString(cache) + " without position_ids"));
        }
        if (!Arrays.equals(in[1], in[2])) throw new GraphException("cos_cache " + Arrays.toString(in[1]) + " and sin_cache " + Arrays.toString(in[2]) + " differ");
        if (in.length > 3 && !Arrays.equals(in[3], new long[]{r.batch, r.seq}))
            throw new GraphException("position_ids " + Arrays.toString(in[3]) + " must be [" + r.batch + ", " + r.seq + "]");
        return in[0].clone();
    }

    private static KernelCall rotary(Op op, OpLowering l) {
        List<String> in = op.inputs();
        for (int j = 0; j < 3; j++) l.requireF32(op, in.get(j));
        l.requireF32(op, OpLowering.out(op));
        boolean positions = in.size() > 3;
        if (positions && l.dtype(in.get(3)) != DType.I64)
            throw fail(op, "position_ids '" + in.get(3) + "' is " + l.dtype(in.get(3)).jsonName() + "; RotaryEmbedding takes int64");
        Rotary r;
        long[][] shapes = new long[in.size()][];
        for (int j = 0; j < in.size(); j++) shapes[j] = l.shape(op, in.get(j));
        try {
            rotaryShape(OpAttrs.of(op), shapes);
            r = rotaryGeometry(OpAttrs.of(op), shapes[0]);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        List<KernelArg> args = new ArrayList<>();
        for (String t : in) args.add(l.read(t));
        args.add(l.write(OpLowering.out(op)));
        long rows = positions ? shapes[1][0] : r.batch * r.seq;
        return l.call(op, Kernels.ROTARY, args, new long[]{r.batch, r.seq, r.heads, r.d, r.rd, OpAttrs.of(op).integer("interleaved"),
                positions ? 1 : 0, r.sb, r.sh, r.ss, rows});
    }

    private static Lowered importRotary(NodeContext n) {
        FamilyImports.requireInputs(n, 3, 4);
        for (int j = 0; j < 3; j++) FamilyImports.requireF32(n, n.input(j));
        List<String> inputs = new ArrayList<>(List.of(n.input(0).name(), n.input(1).name(), n.input(2).name()));
        if (n.hasInput(3)) {
            n.require(n.input(3).dtype() == DType.I64, "position_ids " + n.input(3) + " is " + n.input(3).dtype().jsonName() + ", not i64");
            inputs.add(n.input(3).name());
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("interleaved", n.flag("interleaved", false) ? 1L : 0L);
        attrs.put("rotary_embedding_dim", n.integer("rotary_embedding_dim", 0));
        attrs.put("num_heads", n.integer("num_heads", 0));
        long[][] shapes = new long[inputs.size()][];
        for (int j = 0; j < shapes.length; j++) shapes[j] = n.input(j).shape();
        long[] y = FamilyImports.shape(n, () -> rotaryShape(FamilyImports.attrsOf(ROTARY, attrs), shapes));
        return NodeLowering.op(n, ROTARY, inputs, y, attrs, DType.F32);
    }

    // ---- Attention ----

    /**
     * The attention geometry from Q, K, V (and past_key): batch, heads, sequences, head sizes, and
     * whether the inputs are 3D.
     */
    record Geometry(long batch, long hq, long hkv, long sq, long skv, long past, long d, long dv, boolean threeD) {
        long total() { return past + skv; }
    }

    /** The positions of the optional inputs in the op's input list (-1 when absent). */
    private record Slots(int mask, int pastKey, int pastValue, int nonpad) {
        static Slots of(OpAttrs a) {
            int next = 3;
            int mask = a.integer(HAS_MASK) == 1 ? next++ : -1;
            int pk = a.integer(HAS_PAST) == 1 ? next++ : -1;
            int pv = pk >= 0 ? next++ : -1;
            int nonpad = a.integer(HAS_NONPAD) == 1 ? next++ : -1;
            return new Slots(mask, pk, pv, nonpad);
        }

        int count() { return 3 + (mask >= 0 ? 1 : 0) + (pastKey >= 0 ? 2 : 0) + (nonpad >= 0 ? 1 : 0); }
    }

    static Geometry geometry(OpAttrs a, long[][] in) {
        Slots s = Slots.of(a);
        if (in.length != s.count()) throw new GraphException("has " + in.length + " inputs; its has_* attributes say " + s.count());
        long[] q = in[0], k = in[1], v = in[2];
        if (q.length != k.length || q.length != v.length || (q.length != 3 && q.length != 4))
            throw new GraphException("Q " + Arrays.toString(q) + ", K " + Arrays.toString(k) + " and V " + Arrays.toString(v) + " must all be 3D or all 4D");
        long hq = a.integer("q_num_heads"), hkv = a.integer("kv_num_heads");
        boolean threeD = q.length == 3;
        long d, dv;
        if (threeD) {
            if (q[2] % hq != 0) throw new GraphException("q_num_heads " + hq + " does not divide Q's hidden size " + q[2]);
            if (v[2] % hkv != 0) throw new GraphException("kv_num_heads " + hkv + " does not divide V's hidden size " + v[2]);
            d = q[2] / hq;
            dv = v[2] / hkv;
            if (k[2] != hkv * d) throw new GraphException("K " + Arrays.toString(k) + " must have kv_num_heads * head_size = " + hkv * d + " columns");
        } else {
            if (q[1] != hq || k[1] != hkv || v[1] != hkv)
                throw new GraphException("Q " + Arrays.toString(q) + ", K " + Arrays.toString(k) + ", V " + Arrays.toString(v) + " do not have "
                        + hq + " query and " + hkv + " key/value heads");
            d = q[3];
            dv = v[3];
            if (k[3] != d) throw new GraphException("K " + Arrays.toString(k) + " must have Q's head size " + d);
        }
        if (hq % hkv != 0) throw new GraphException("q_num_heads " + hq + " is not a multiple of kv_num_heads " + hkv);
        long skv = threeD ? k[1] : k[2];
        if (k[0] != q[0] || v[0] != q[0] || (threeD ? v[1] : v[2]) != skv)
            throw new GraphException("K " + Arrays.toString(k) + " and V " + Arrays.toString(v) + " must share Q's batch and one sequence length");
        long past = 0;
        if (s.pastKey >= 0) {
            long[] pk = in[s.pastKey], pv = in[s.pastValue];
            past = pk.length == 4 ? pk[2] : -1;
            if (!Arrays.equals(pk, new long[]{q[0], hkv, past, d}) || !Arrays.equals(pv, new long[]{q[0], hkv, past, dv}))
                throw new GraphException("past_key " + Arrays.toString(pk) + " and past_value " + Arrays.toString(pv) + " must be [" + q[0] + ", " + hkv
                        + ", past, " + d + "] and [" + q[0] + ", " + hkv + ", past, " + dv + "]");
        }
        Geometry g = new Geometry(q[0], hq, hkv, threeD ? q[1] : q[2], skv, past, d, dv, threeD);
        if (s.mask >= 0) maskStrides(in[s.mask], g);
        if (s.nonpad >= 0 && !Arrays.equals(in[s.nonpad], new long[]{g.batch}))
            throw new GraphException("nonpad_kv_seqlen " + Arrays.toString(in[s.nonpad]) + " must be [" + g.batch + "]");
        return g;
    }

    /**
     * The mask's element strides over (b, h, i) (0 where it broadcasts) and its last extent: the
     * mask broadcasts to [B, Hq, Sq, Tm] right-aligned, its last axis never broadcast but padded
     * with -inf to T (Attention-24's text; onnx's reference pads at 23 too).
     */
    static long[] maskStrides(long[] m, Geometry g) {
        if (m.length < 1 || m.length > 4) throw new GraphException("attn_mask " + Arrays.toString(m) + " must have rank 1 to 4");
        long tm = m[m.length - 1];
        if (tm < 1 || tm > g.total()) throw new GraphException("attn_mask " + Arrays.toString(m) + ": its last extent must be 1.." + g.total() + " (the keys)");
        long[] want = {g.batch, g.hq, g.sq};
        long[] strides = new long[3];
        long stride = tm;
        for (int k = 2, d = m.length - 2; k >= 0; k--, d--) {
            long extent = d >= 0 ? m[d] : 1;
            if (extent != 1 && extent != want[k])
                throw new GraphException("attn_mask " + Arrays.toString(m) + " does not broadcast to [" + g.batch + ", " + g.hq + ", " + g.sq + ", " + g.total() + "]");
            strides[k] = extent == 1 ? 0 : stride;
            stride *= extent;
        }
        return new long[]{strides[0], strides[1], strides[2], tm};
    }

    static long[][] attentionShapes(OpAttrs a, long[][] in, int outputs) {
        Geometry g = geometry(a, in);
        long[][] out = new long[Math.max(1, outputs)][];
        out[0] = g.threeD ? new long[]{g.batch, g.sq, g.hq * g.dv} : new long[]{g.batch, g.hq, g.sq, g.dv};
        if (out.length > 1) out[1] = new long[]{g.batch, g.hkv, g.total(), g.d};
        if (out.length > 2) out[2] = new long[]{g.batch, g.hkv, g.total(), g.dv};
        if (out.length > 3) out[3] = new long[]{g.batch, g.hq, g.sq, g.total()};
        return out;
    }

    private static long attentionFlops(OpAttrs a, long[][] in) {
        Geometry g = geometry(a, in);
        return g.batch * g.hq * g.sq * g.total() * (2 * g.d + 2 * g.dv + 5);
    }

    private static KernelCall attention(Op op, OpLowering l) {
        OpAttrs a = OpAttrs.of(op);
        List<String> in = op.inputs();
        Slots s = Slots.of(a);
        long[][] shapes = new long[in.size()][];
        for (int j = 0; j < in.size(); j++) shapes[j] = l.shape(op, in.get(j));
        Geometry g;
        long[] mask = null;
        try {
            g = geometry(a, shapes);
            if (s.mask >= 0) mask = maskStrides(shapes[s.mask], g);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        DType type = l.computeType(op);
        for (int j = 0; j < in.size(); j++) {
            if (j != s.nonpad && j != s.mask) l.requireComputed(op, in.get(j));
            DType t = l.dtype(in.get(j));
            boolean ok = j == s.nonpad ? t == DType.I64 : j != s.mask || t == type || t == DType.BOOL;
            if (!ok) throw fail(op, "input '" + in.get(j) + "' is " + t.jsonName() + "; Attention's masks are of Q's type (" + type.jsonName() + ") or bool, nonpad_kv_seqlen int64");
        }
        for (String t : op.outputs()) l.requireComputed(op, t);
        int outs = op.outputs().size();
        long[] ints = {g.batch, g.hq, g.hkv, g.sq, g.skv, g.past, g.d, g.dv, g.threeD ? 1 : 0,
                s.mask >= 0 ? 1 : 0, s.mask >= 0 && l.dtype(in.get(s.mask)) == DType.BOOL ? 1 : 0,
                mask == null ? 0 : mask[0], mask == null ? 0 : mask[1], mask == null ? 0 : mask[2], mask == null ? 0 : mask[3],
                a.integer("is_causal"), s.pastKey >= 0 ? 1 : 0, s.nonpad >= 0 ? 1 : 0, outs > 1 ? 1 : 0, outs > 2 ? 1 : 0, outs > 3 ? 1 : 0,
                a.integer("qk_matmul_output_mode"), a.integer("left_window_size"), a.integer("right_window_size")};
        double scale = a.has("scale") ? a.real("scale") : 1 / Math.sqrt(g.d);
        List<KernelArg> args = new ArrayList<>();
        for (String t : in) args.add(l.read(t));
        for (String t : op.outputs()) args.add(l.write(t));
        return l.call(op, Kernels.ATTENTION, args, Kernels.withType(Kernels.ATTENTION, ints, type.onnxCode()), new double[]{scale, a.real("softcap")});
    }


    /** ONNX's input positions after Q, K, V. */
    private static final int MASK = 3, PAST_KEY = 4, PAST_VALUE = 5, NONPAD = 6;

    private static Lowered importAttention(NodeContext n) {
        FamilyImports.requireInputs(n, 3, n.opset() >= 24 ? 7 : 6);
        Value q = n.input(0), k = n.input(1), v = n.input(2);
        for (Value x : List.of(q, k, v)) FamilyImports.requireComputed(n, x);
        for (Value x : List.of(k, v)) n.require(x.dtype() == q.dtype(), "K " + k + " and V " + v + " must have Q's type " + q.dtype().jsonName());
        n.require(q.rank() == k.rank() && q.rank() == v.rank() && (q.rank() == 3 || q.rank() == 4),
                "Q " + q + ", K " + k + " and V " + v + " must all be 3D or all 4D");
        long precision = n.integer("softmax_precision", 1);
        n.require(precision == 1, "softmax_precision " + precision + " is not supported (only 1, float: the softmax sums in double)");
        boolean threeD = q.rank() == 3;
        n.require(!threeD || (n.hasAttr("q_num_heads") && n.hasAttr("kv_num_heads")), "3D inputs need attributes q_num_heads and kv_num_heads");
        long hq = n.integer("q_num_heads", threeD ? 0 : q.dim(1)), hkv = n.integer("kv_num_heads", threeD ? 0 : k.dim(1));
        n.require(hq >= 1 && hkv >= 1, "q_num_heads " + hq + " and kv_num_heads " + hkv + " must be positive");
        n.require(!(n.opset() >= 25 && !threeD && (n.hasAttr("q_num_heads") || n.hasAttr("kv_num_heads"))),
                "q_num_heads and kv_num_heads must not be given with 4D inputs from Attention-25 (opset 25)");
        n.require(threeD || (hq == q.dim(1) && hkv == k.dim(1)), "q_num_heads " + hq + " and kv_num_heads " + hkv + " contradict 4D Q " + q + " and K " + k);
        n.require(hq % hkv == 0, "q_num_heads " + hq + " is not a multiple of kv_num_heads " + hkv);
        n.require(n.hasInput(PAST_KEY) == n.hasInput(PAST_VALUE), "past_key and past_value must be given together");
        n.require(!n.hasInput(NONPAD) || !n.hasInput(PAST_KEY), "nonpad_kv_seqlen cannot be combined with past_key and past_value");
        long mode = n.integer("qk_matmul_output_mode", 0);
        double softcap = n.real("softcap", 0.0);
        n.require(!(mode == 0 && softcap > 0 && FamilyImports.hasOutput(n, 3)),
                "qk_matmul_output_mode 0 with softcap " + softcap + " is refused: the spec's qk_matmul_output is the raw QK product, "
                        + "onnx's reference implementation returns it softcapped");

        List<String> inputs = new ArrayList<>(List.of(q.name(), k.name(), v.name()));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("q_num_heads", hq);
        attrs.put("kv_num_heads", hkv);
        attrs.put("is_causal", n.flag("is_causal", false) ? 1L : 0L);
        if (n.hasAttr("scale")) attrs.put("scale", n.real("scale", 0.0));
        attrs.put("softcap", softcap);
        attrs.put("qk_matmul_output_mode", mode);
        for (String w : List.of("left_window_size", "right_window_size")) {
            n.require(n.opset() >= 25 || !n.hasAttr(w), "attribute '" + w + "' exists from Attention-25 (opset 25)");
            long size = n.integer(w, -1);
            n.require(size >= -1, w + " " + size + " must be -1 (unbounded) or nonnegative");
            attrs.put(w, size);
        }
        if (n.hasInput(MASK)) {
            Value m = n.input(MASK);
            n.require(m.dtype() == q.dtype() || m.dtype() == DType.BOOL, "attn_mask " + m + " is " + m.dtype().jsonName() + "; Attention takes masks of Q's type (" + q.dtype().jsonName() + ") or bool");
            inputs.add(m.name());
            attrs.put(HAS_MASK, 1L);
        }
        if (n.hasInput(PAST_KEY)) {
            for (int j : new int[]{PAST_KEY, PAST_VALUE})
                n.require(n.input(j).dtype() == q.dtype(), "past_key and past_value " + n.input(j) + " must have Q's type " + q.dtype().jsonName());
            inputs.add(n.input(PAST_KEY).name());
            inputs.add(n.input(PAST_VALUE).name());
            attrs.put(HAS_PAST, 1L);
        }
        if (n.hasInput(NONPAD)) {
            n.require(n.input(NONPAD).dtype() == DType.I64, "nonpad_kv_seqlen " + n.input(NONPAD) + " is " + n.input(NONPAD).dtype().jsonName() + ", not i64");
            inputs.add(n.input(NONPAD).name());
            attrs.put(HAS_NONPAD, 1L);
        }
        long[][] shapes = new long[inputs.size()][];
        List<Value> present = new ArrayList<>(List.of(q, k, v));
        for (int j : new int[]{MASK, PAST_KEY, PAST_VALUE, NONPAD}) if (n.hasInput(j)) present.add(n.input(j));
        for (int j = 0; j < shapes.length; j++) shapes[j] = present.get(j).shape();
        long[][] outs;
        try {
            outs = attentionShapes(FamilyImports.attrsOf(ATTENTION, attrs), shapes, 4);
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        List<OptionalOutputs.Slot> slots = new ArrayList<>();
        for (long[] o : outs) slots.add(new OptionalOutputs.Slot(q.dtype(), o));
        return new Lowered(ATTENTION, inputs, OptionalOutputs.of(n, 1, slots), attrs, false, List.of());
    }
}
