package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.arenaplan.exec.OpLowering.fail;

/**
 * Fuses bias and activation epilogues into the op that produces their input, before planning:
 * the planner, the validator and every executor see one op, and the intermediate tensor is gone
 * from the graph (so from the plan). Devices only apply the epilogue the lowering passes in the
 * kernel call ({@link Kernels#ACTIVATION_RELU}); they never decide a fusion.
 *
 * <p>Steps, one pass over the ops in schedule order (cost O(ops + tensors)):
 * <ol>
 *   <li>MatMul of two matrices A [M, K], B [K, N] whose output is read only by an Add with a
 *       [N] or [1, N] operand c becomes Gemm(A, B, c), alpha = beta = 1 (ONNX Gemm, C broadcast);</li>
 *   <li>a Conv of 1-D or 2-D images (the conv2d kernel) or a Gemm whose output is read only by a
 *       Relu becomes FusedConv / FusedGemm with activation Relu (ONNX Runtime's contrib ops of
 *       those names); a MatMul fused by step 1 can take its Relu too.</li>
 * </ol>
 * An intermediate t is fused away only when it is f32, not a graph output, read by exactly one op
 * (once), which runs on the producer's stream, and every other input of that op exists when the
 * producer runs (a graph input, a weight or an earlier op's output): the fused op takes the
 * producer's place in the schedule and the consumer's output.
 *
 * <p>Results are unchanged bit for bit (checked on the simulator by {@code EpilogueFusionTest}):
 * the conv and gemm kernels add the bias or C to the finished f32 sum with one f32 addition
 * (alpha = beta = 1 multiply exactly), as Add does, and apply Relu with the unary kernel's formula.
 */
public final class EpilogueFusion {
    /** What fusion did: the graph to plan and the names of the fused ops ({@code producer+consumer...}), in schedule order. */
    public record Result(Graph graph, List<String> fused) { }

    private EpilogueFusion() { }

    /** The {@code activation} attribute of FusedConv and FusedGemm. */
    static AttrSpec activationAttr() {
        return AttrSpec.string("activation", "Relu");
    }

    /**
     * {@code ints} with the epilogue activation of a FusedConv or FusedGemm appended (their
     * definitions call this; Conv and Gemm keep their calls' length).
     *
     * @throws org.arenaplan.exec.ExecutionException naming the op when its activation is not Relu
     */
    static long[] withActivation(Op op, long[] ints) {
        String a = OpAttrs.of(op).string("activation");
        if (!a.equals(OpKinds.RELU)) throw fail(op, "activation '" + a + "' is not supported (Relu is)");
        long[] out = Arrays.copyOf(ints, ints.length + 1);
        out[ints.length] = Kernels.ACTIVATION_RELU;
        return out;
    }

    /** {@code g} with every epilogue the steps above allow fused; {@code g} itself when none is. */
    public static Result fuse(Graph g) {
        Map<String, Integer> readers = new HashMap<>();
        for (Op op : g.ops()) for (String in : op.inputs()) readers.merge(in, 1, Integer::sum);
        Map<String, Integer> producedAt = new HashMap<>();   // tensor -> index in out of its (possibly fused) producer
        Set<String> gone = new HashSet<>();
        Set<Integer> merged = new java.util.TreeSet<>();
        List<Op> out = new ArrayList<>();
        for (Op op : g.ops()) {
            Op fusedOp = null;
            int at = -1;
            for (int i = 0; i < Math.min(2, op.inputs().size()) && fusedOp == null; i++) {
                Integer p = producedAt.get(op.inputs().get(i));
                if (p == null) continue;
                at = p;
                fusedOp = merge(g, readers, producedAt, at, out.get(at), op);
            }
            if (fusedOp != null) {
                String t = out.get(at).outputs().get(0);
                out.set(at, fusedOp);
                producedAt.remove(t);
                producedAt.put(op.outputs().get(0), at);
                gone.add(t);
                merged.add(at);
                continue;
            }
            for (String o : op.outputs()) producedAt.put(o, out.size());
            out.add(op);
        }
        List<String> fused = merged.stream().map(i -> out.get(i).name()).toList();
        if (fused.isEmpty()) return new Result(g, List.of());
        GraphBuilder b = GraphBuilder.declarationsOf(g, gone);
        out.forEach(b::add);
        g.outputs().forEach(b::output);
        return new Result(b.build(), List.copyOf(fused));
    }

    /** The fused op when {@code consumer} may fold into {@code producer} (at {@code at} in the new order), which writes one of its inputs; else null. */
    private static Op merge(Graph g, Map<String, Integer> readers, Map<String, Integer> producedAt, int at, Op producer, Op consumer) {
        if (producer.outputs().size() != 1 || consumer.outputs().size() != 1 || producer.stream() != consumer.stream()) return null;
        String t = producer.outputs().get(0);
        if (!consumer.inputs().contains(t)) return null;
        if (g.isOutput(t) || readers.getOrDefault(t, 0) != 1 || !isF32(g, t) || !isF32(g, consumer.outputs().get(0))) return null;
        String kind = producer.kind();
        if (consumer.kind().equals(OpKinds.RELU)) {
            String fusedKind = kind.equals(OpKinds.CONV) && rank(g, producer.inputs().get(0)) <= 4 ? OpKinds.FUSED_CONV
                    : kind.equals(OpKinds.GEMM) ? OpKinds.FUSED_GEMM : null;
            return fusedKind == null ? null
                    : rebuilt(producer, consumer, fusedKind, producer.inputs(), withAttr(producer.attrs(), "activation", OpKinds.RELU));
        }
        if (consumer.kind().equals(OpKinds.ADD) && kind.equals(OpKinds.MATMUL) && consumer.inputs().size() == 2) {
            String c = consumer.inputs().get(0).equals(t) ? consumer.inputs().get(1) : consumer.inputs().get(0);
            if (c.equals(t)) return null;
            long[] a = shape(g, producer.inputs().get(0)), bm = shape(g, producer.inputs().get(1)), cs = shape(g, c);
            if (a == null || bm == null || cs == null || a.length != 2 || bm.length != 2 || !isF32(g, c)) return null;
            long n = bm[1];
            boolean row = (cs.length == 1 && cs[0] == n) || (cs.length == 2 && cs[0] == 1 && cs[1] == n);
            Integer cAt = producedAt.get(c);
            boolean ready = g.isInput(c) || g.isWeight(c) || (cAt != null && cAt < at);
            if (!row || !ready) return null;
            Map<String, Object> attrs = new LinkedHashMap<>();
            attrs.put("transA", 0L);
            attrs.put("transB", 0L);
            attrs.put("alpha", 1.0);
            attrs.put("beta", 1.0);
            return rebuilt(producer, consumer, OpKinds.GEMM, List.of(producer.inputs().get(0), producer.inputs().get(1), c), attrs);
        }
        return null;
    }

    private static Op rebuilt(Op producer, Op consumer, String kind, List<String> inputs, Map<String, Object> attrs) {
        return new Op(producer.name() + "+" + consumer.name(), kind, inputs, consumer.outputs(), producer.stream(), attrs, List.of(), List.of(), List.of());
    }

    private static Map<String, Object> withAttr(Map<String, Object> attrs, String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>(attrs);
        m.put(key, value);
        return m;
    }

    private static boolean isF32(Graph g, String t) {
        Tensor x = g.tensor(t);
        return x != null && x.dtype() == DType.F32;
    }

    private static long[] shape(Graph g, String t) {
        Tensor x = g.tensor(t);
        return x == null ? null : x.shape();
    }

    private static int rank(Graph g, String t) {
        long[] s = shape(g, t);
        return s == null ? Integer.MAX_VALUE : s.length;
    }
}
