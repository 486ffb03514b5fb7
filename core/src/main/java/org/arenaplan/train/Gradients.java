package org.arenaplan.train;

import org.arenaplan.io.Printable;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.Tensor;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * A training step from a forward graph: the forward ops as they are, then a reverse-mode backward
 * pass that computes the gradient of every trainable weight (a weight without a constant fill).
 *
 * <p>Steps:
 * <ol>
 *   <li>Which tensors need a gradient: those computed from a trainable weight.</li>
 *   <li>Seeds: every forward output y gets a graph input {@code grad.y} (dL/dy, donated), so the
 *       step computes the gradients of L = sum(grad.y * y); the outputs stay outputs.</li>
 *   <li>The forward ops in reverse; each op with a gradient rule ({@link GradientRule}, declared
 *       with its kind in {@code org.arenaplan.ops}) appends the ops that turn the gradient of its
 *       output into contributions to its inputs'; an op declared a view of the whole of its input
 *       ({@link OpSpec.ViewRule#WHOLE}: Reshape, Flatten, Identity, Squeeze, Unsqueeze, Dropout)
 *       passes dY on as a Reshape view. Several contributions to one tensor are summed by Add, in
 *       place where liveness allows.</li>
 *   <li>Every trainable weight's gradient becomes a graph output {@code grad.W}... (the tensor
 *       the rules produced; see {@link Training#weightGradients()}).</li>
 * </ol>
 * Cost O(ops + tensors). Throws {@link GraphException} naming the op for a kind without a rule,
 * listing the kinds that have one.
 */
public final class Gradients {
    /**
     * @param graph           forward ops at positions {@code 0..forwardOps-1}, then the backward pass
     * @param weightGradients trainable weight -> the output tensor holding its gradient
     */
    public record Training(Graph graph, int forwardOps, Map<String, String> weightGradients) { }

    private final Graph fwd;
    private final GraphBuilder b;
    private final Map<String, String> grad = new HashMap<>();
    private final Set<String> needs = new HashSet<>();
    private final Map<String, String> constants = new HashMap<>();
    private int next;

    /** The rules by kind, loaded on first use from the {@link GradientTable} service. */
    private static final class Rules {
        private static final GradientTable TABLE = load();
        static final Map<String, GradientRule> RULES = Collections.unmodifiableMap(new LinkedHashMap<>(TABLE.gradients()));
        static final Set<String> BACKWARD = Set.copyOf(TABLE.backwardKinds());

        private static GradientTable load() {
            List<GradientTable> t = ServiceLoader.load(GradientTable.class, Gradients.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
            if (t.size() != 1) throw new IllegalStateException("expected one org.arenaplan.train.GradientTable service (org.arenaplan.ops.Operators), found " + t.size());
            return t.get(0);
        }
    }

    /** The kinds with a gradient rule, in the registry's order. */
    public static Set<String> kindsWithRules() {
        return Rules.RULES.keySet();
    }

    private Gradients(Graph fwd) {
        this.fwd = fwd;
        this.b = new GraphBuilder(fwd.name() + "-train");
    }

    /**
     * The training step of {@code forward}.
     *
     * @throws GraphException naming the graph and the op, for a graph that already holds a backward-pass op ({@code GradientTable#backwardKinds});
     *         naming the graph, for one with no output that depends on a trainable weight (no gradient to compute);
     *         naming the op, for a kind without a gradient rule; naming the output, for a
     *         bounded output ({@link Graph#bounded}: planned at its upper bound, docs/onnx.md "Data-dependent
     *         outputs") that depends on a trainable weight, whose gradient would sum rows past the actual ones
     */
    public static Training of(Graph forward) {
        return new Gradients(forward).build();
    }

    private Training build() {
        for (Op op : fwd.ops())   // differentiating a backward pass is not a training step (train-mlp: its Gemm transposes fail first)
            if (Rules.BACKWARD.contains(op.kind()))
                throw new GraphException("--train: graph '" + fwd.name() + "' is already a training step (op '" + op.name() + "' is " + op.kind()
                        + ", a backward-pass op); --train differentiates a forward graph: plan this one without --train");
        fwd.tensors().values().forEach(b::tensor);
        for (String in : fwd.inputs()) b.input(in, fwd.isDonated(in));
        for (String w : fwd.weights()) {
            Double fill = fwd.weightFill(w);
            if (fill == null) {
                b.weight(w);
                needs.add(w);
            } else {
                b.weight(w, fill);
            }
        }
        for (Op op : fwd.ops()) {
            b.add(op);
            boolean any = false;
            for (String t : op.inputs()) any |= needs.contains(t);
            if (any) needs.addAll(op.outputs());
        }
        for (String y : fwd.outputs()) {
            b.output(y);
            if (!needs.contains(y)) continue;
            Graph.Bounded bounded = fwd.bounded(y);
            if (bounded != null)   // grad.y would be planned at the bound, and a rule such as Add's would sum its rows past the actual ones into grad.W
                throw new GraphException("--train: output '" + y + "' depends on a trainable weight and is bounded by the runtime extent '" + bounded.extent()
                        + "' (a data-dependent output or computed from one); its gradient's shape is known only after the run");
            String seed = "grad." + y;
            b.tensor(rename(fwd.tensor(y), seed)).input(seed, true);
            grad.put(y, seed);
        }
        if (grad.isEmpty())   // the step would be the forward graph alone, planned as if it were one (was accepted silently)
            throw new GraphException("--train: graph '" + Printable.name(fwd.name()) + "' has no output that depends on a trainable weight (a weight without a constant fill;"
                    + " an ONNX initializer whose elements are all equal is one, planned as its fill), so a training step would compute no gradient: plan it without --train");
        Backward backward = new Backward(this);
        for (int p = fwd.opCount() - 1; p >= 0; p--) {
            Op op = fwd.ops().get(p);
            String out = op.outputs().isEmpty() ? null : op.outputs().get(0);
            if (out == null || !grad.containsKey(out)) continue;
            if (op.outputs().size() != 1) throw new GraphException("op '" + op.name() + "' (" + op.kind() + "): gradients need ops with one output");
            differentiate(op, grad.get(out), backward);
        }
        Map<String, String> weightGrads = new LinkedHashMap<>();
        for (String w : fwd.weights()) {
            String g = grad.get(w);
            if (g == null || !needs.contains(w)) continue;
            b.output(g);
            weightGrads.put(w, g);
        }
        return new Training(b.build(), fwd.opCount(), weightGrads);
    }

    /** Applies the kind's rule, or passes dY on through a whole view; {@link GraphException} naming the op otherwise. */
    private void differentiate(Op op, String dy, Backward backward) {
        GradientRule rule = Rules.RULES.get(op.kind());
        if (rule != null) {
            rule.apply(op, dy, backward);
            return;
        }
        OpSpec spec = OpRegistry.get(op.kind());
        if (spec != null && spec.view() == OpSpec.ViewRule.WHOLE && op.isStorageOnly()) {
            String x = op.inputs().get(0);
            accumulate(x, backward.view(dy, x, shape(x)));
            return;
        }
        throw new GraphException("op '" + op.name() + "' (" + op.kind() + "): no gradient rule for this kind; rules exist for "
                + String.join(", ", kindsWithRules()) + " and ops declared as views of their whole input");
    }

    // ---- used by the rules, through Backward ----

    boolean needsGradient(String t) { return needs.contains(t); }

    long[] shape(String t) {
        Tensor x = b.tensorOf(t);
        if (x == null || !x.hasShape()) throw new GraphException("tensor '" + t + "' has no shape; gradients need shapes");
        return x.shape();
    }

    DType dtype(String t) {
        DType d = b.tensorOf(t).dtype();
        return d == null ? DType.F32 : d;
    }

    /** A fresh tensor of {@code shape}, named after {@code base}. */
    String tensor(String base, DType dtype, long[] shape) {
        String name = "grad." + base + (b.hasTensor("grad." + base) ? "." + (next++) : "");
        while (b.hasTensor(name)) name = "grad." + base + "." + (next++);
        b.tensor(name, dtype, shape);
        return name;
    }

    GraphBuilder.OpBuilder op(String kind, String out) {
        return b.op("bwd." + out.substring("grad.".length()), kind).out(out);
    }

    /** A constant weight of {@code shape} filled with {@code value} (one per value and shape). */
    String constant(double value, DType dtype, long... shape) {
        String key = value + "@" + Arrays.toString(shape);
        return constants.computeIfAbsent(key, k -> {
            String name = "const." + value + "." + String.join("x", Arrays.stream(shape).mapToObj(Long::toString).toList());
            b.tensor(name, dtype, shape).weight(name, value);
            return name;
        });
    }

    /** Adds {@code g} to the gradient of {@code t} (a Sum by Add, in place over the earlier gradient). */
    void accumulate(String t, String g) {
        if (!needs.contains(t)) return;
        String old = grad.get(t);
        if (old == null) {
            grad.put(t, g);
            return;
        }
        String sum = tensor(t + ".sum", dtype(old), shape(old));
        op(OpKinds.ADD, sum).in(old, g).inPlace().add();
        grad.put(t, sum);
    }

    private static Tensor rename(Tensor t, String name) {
        return new Tensor(name, t.bytes(), t.dtype(), t.shape());
    }
}
