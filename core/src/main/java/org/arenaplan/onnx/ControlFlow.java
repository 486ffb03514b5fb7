package org.arenaplan.onnx;

import org.arenaplan.ir.DType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * If, Loop and Scan unrolled at import into the plain nodes of their bodies, where everything the
 * unrolling needs is known then (ONNX operators If-1..21, Loop-1..21, Scan-8..21; the graphs are
 * the GRAPH attributes):
 * <ul>
 *   <li>If: its condition must be known at import (a constant, Shape arithmetic folded at import,
 *       or a graph input whose value the caller gave); the chosen branch's nodes are imported,
 *       each branch output copied to the If's output by an Identity (a view); or it tests a tensor
 *       computed from a data-dependent output for emptiness, its then branch empty constants, and its
 *       else branch is imported where the built graph proves it the same ({@link EmptyGuards});</li>
 *   <li>Scan: the sequence length is the scan inputs' extent along their axes (known from their
 *       shapes); per iteration each scan input's slice is a Gather of one index (a constant), the
 *       body's nodes follow with the states of the iteration before, and each scan output is the
 *       Concat of its slices, each Reshaped to hold the scan axis (Concat in place writes them
 *       straight into the output); Scan-8, whose inputs carry a batch axis 0, once per batch
 *       entry ({@link #unrollScanEight});</li>
 *   <li>Loop: the trip count and the condition input must be known at import, and so must the
 *       body's condition output after each iteration (it stops the unrolling when false); the
 *       iteration number and the condition are constants per iteration; scan outputs are stacked
 *       along axis 0 as Scan's.</li>
 *   <li>SequenceMap (SequenceMap-17): the body once per element of its first input, a sequence
 *       whose length is known at import ({@link Sequences}, which resolves the other sequence and
 *       optional ops, and passes a sequence or optional through If outputs and Loop states by
 *       name);</li>
 *   <li>FlexAttention (ai.onnx.preview) with {@code score_mod} / {@code prob_mod} graphs: split
 *       into stages of one kernel (scores, probabilities, output; {@link #FLEX_MODIFIERS}) with
 *       each modifier's nodes imported between two stages, its one input bound to the stage's
 *       output (the spec's modifiers take the whole [B, Hq, L, S] tensor once).</li>
 * </ul>
 * Every value a body defines is renamed per iteration ({@code <node>/<iteration>/<name>}), so
 * the unrolled tensors are planned like any others; names a body reads from outside resolve
 * through the enclosing scopes (a body may nest another If, Loop or Scan). Anything data
 * dependent is refused with one line naming the node and why; so is a value taken at import
 * from an upper bound's bounded axis ({@link BoundShapes}, proved when the graph is built). Cost: the body's nodes once per
 * iteration; at most {@link #MAX_ITERATIONS} iterations per node and {@link #MAX_NODES} unrolled
 * nodes per model.
 */
final class ControlFlow {
    /** The attributes each control-flow op type takes. */
    static final Map<String, Set<String>> ATTRS = Map.of(
            "If", Set.of("then_branch", "else_branch"),
            "Loop", Set.of("body"),
            "Scan", Set.of("body", "num_scan_inputs", "directions", "scan_input_axes", "scan_input_directions", "scan_output_axes", "scan_output_directions"),
            "SequenceMap", Set.of("body"));

    /** The most iterations one Loop or Scan is unrolled to. */
    static final int MAX_ITERATIONS = 4096;
    /** The most nodes the unrolling of one model may produce. */
    static final long MAX_NODES = 1_000_000;

    /** What the unrolling needs from the importer. */
    interface Importer {
        /** Imports one plain node whose names are final. */
        void node(OnnxModel.Node node, int index);

        /** The value defined under {@code name}, or null. */
        Value value(String name);

        /** The values of {@code name} known at import, or null. */
        double[] constant(String name);

        /** Defines weight {@code v}; {@code at} names the node in errors. */
        void weight(Value v, Constant c, NodeContext at);

        /** A tensor name starting with {@code want} that nothing else takes, reserved. */
        String fresh(String want);

        /** The context of {@code node} for its errors (its inputs are not read). */
        NodeContext context(OnnxModel.Node node, int index);

        /** The Ifs on the emptiness of a tensor computed from a data-dependent output ({@link EmptyGuards}). */
        EmptyGuards emptyGuards();

        /**
         * Records that {@code reader} takes {@code name}'s value known at import as the run's: refused when the graph is
         * built where that value was read from an upper bound's bounded axis ({@link BoundShapes#readAsConstant}).
         */
        void readAsConstant(String name, String reader);
    }

    /** Names a body defines, by their name in the file; unknown names resolve in the parent. */
    static final class Scope {
        static final Scope ROOT = new Scope(null);
        private final Scope parent;
        private final Map<String, String> names = new HashMap<>();

        Scope(Scope parent) {
            this.parent = parent;
        }

        /** Whether an enclosing body (not this one) defines {@code name}. */
        boolean definedOutside(String name) {
            for (Scope s = parent; s != null; s = s.parent) if (s.names.containsKey(name)) return true;
            return false;
        }

        String resolve(String name) {
            for (Scope s = this; s != null; s = s.parent) {
                String r = s.names.get(name);
                if (r != null) return r;
            }
            return name;
        }
    }

    private final Importer importer;
    private final Sequences sequences;
    private long unrolled;

    ControlFlow(Importer importer) {
        this.importer = importer;
        this.sequences = new Sequences(importer, new Sequences.Emit() {
            @Override public void node(NodeContext at, int index, OnnxModel.Node node) { add(at, index, node); }
            @Override public void stack(NodeContext at, int index, List<String> parts, long axis, String out) {
                ControlFlow.this.stack(at, index, parts, axis, "attribute 'axis'", "input_sequence", out, at.opName() + "/");
            }
        });
    }

    /** What {@code name} holds when it is a sequence or an optional ("a sequence of 3 tensors"), else null. */
    String notTensor(String name) {
        return sequences.describe(name);
    }

    /** The {@link Sequences.Seq} or {@link Sequences.Opt} held under {@code name}, or null for a tensor. */
    Object held(String name) {
        return sequences.held(name);
    }

    /** {@code name}, a graph input bound at import, holds {@code value} (a {@link Sequences.Seq} or {@link Sequences.Opt}). */
    void given(String name, Object value) {
        sequences.given(name, value);
    }

    /** Whether {@code node} is an If, Loop, Scan or SequenceMap of the default domain. */
    static boolean unrolls(OnnxModel.Node node) {
        return node.inDefaultDomain() && ATTRS.containsKey(node.opType());
    }

    /** Whether {@code node} is a FlexAttention (ai.onnx.preview) with a score_mod or prob_mod subgraph to inline. */
    static boolean inlines(OnnxModel.Node node) {
        if (!node.domain().equals(NodeLowering.PREVIEW_DOMAIN) || !node.opType().equals("FlexAttention")) return false;
        for (String m : FLEX_MODIFIERS) if (node.attributes().get(m) != null && node.attributes().get(m).value() instanceof OnnxModel.Graph) return true;
        return false;
    }

    /** The bodies of a control-flow node or the modifiers of a FlexAttention (empty for another node). */
    static List<OnnxModel.Graph> bodies(OnnxModel.Node node) {
        List<OnnxModel.Graph> out = new ArrayList<>();
        if (!unrolls(node) && !inlines(node)) return out;
        for (OnnxModel.Attribute a : node.attributes().values()) if (a.value() instanceof OnnxModel.Graph g) out.add(g);
        return out;
    }

    /** Adds every name the nodes, and the nodes of their bodies, read. */
    static void reads(List<OnnxModel.Node> nodes, Set<String> into) {
        for (OnnxModel.Node n : nodes) {
            into.addAll(n.inputs());
            for (OnnxModel.Graph g : bodies(n)) {
                reads(g.nodes(), into);
                for (OnnxModel.ValueInfo o : g.outputs()) into.add(o.name());
            }
        }
    }

    /** Imports a top-level node: unrolled when it is control flow, else as it is. */
    void top(OnnxModel.Node node, int index) {
        if (unrolls(node)) unroll(node, index, Scope.ROOT);
        else if (inlines(node)) flexAttention(node, index, Scope.ROOT);
        else plain(node, index);
    }

    /**
     * A node that is no control flow: a sequence or optional op (or an Identity of one) resolved
     * by {@link Sequences}, else imported as it is, which no sequence or optional may reach.
     *
     * @throws OnnxException naming the node and the sequence or optional it reads
     */
    private void plain(OnnxModel.Node node, int index) {
        if (Sequences.resolves(node) || sequences.passesOn(node)) {
            sequences.node(node, index);
            return;
        }
        for (String in : node.inputs())
            if (sequences.held(in) != null)
                throw importer.context(node, index).error("reads '" + in + "', " + sequences.describe(in) + "; arenaplan resolves sequences and optionals at import,"
                        + " and only the sequence and optional ops, Identity, If and Loop take one");
        importer.node(node, index);
    }

    /** One body node in {@code scope}: its inputs resolved, its outputs renamed with {@code prefix}. */
    private void emit(OnnxModel.Node node, int index, Scope scope, String prefix) {
        List<String> ins = node.inputs().stream().map(n -> n.isEmpty() ? n : scope.resolve(n)).toList();
        List<String> outs = new ArrayList<>();
        for (String o : node.outputs()) {
            if (o.isEmpty()) { outs.add(o); continue; }
            String shadowed = scope.names.containsKey(o) ? "its body" : scope.definedOutside(o) || importer.value(o) != null ? "an enclosing graph" : null;
            if (shadowed != null)   // ONNX IR: static single assignment across nested graphs; onnx's checker and ONNX Runtime refuse it too
                throw importer.context(new OnnxModel.Node(prefix + node.name(), node.opType(), node.domain(), node.inputs(), node.outputs(), node.attributes()), index)
                        .error("writes '" + o + "', which " + shadowed + " already defines (ONNX IR: a name is assigned once, "
                        + "also across a graph and the bodies nested in it)");
            String r = importer.fresh(prefix + o);
            scope.names.put(o, r);
            outs.add(r);
        }
        String name = prefix + node.name();
        OnnxModel.Node renamed = new OnnxModel.Node(name, node.opType(), node.domain(), ins, outs, node.attributes());
        if (++unrolled > MAX_NODES)
            throw importer.context(renamed, index).error("unrolling If, Loop and Scan reaches more than " + MAX_NODES + " nodes; arenaplan stops there");
        if (unrolls(renamed)) unroll(renamed, index, scope);
        else if (inlines(renamed)) flexAttention(renamed, index, scope);
        else plain(renamed, index);
    }

    /**
     * Refuses at once a Loop or Scan whose {@code runs} runs of {@code body} make at least
     * {@link #MAX_NODES} nodes with those unrolled so far ({@link #atLeast}): a nest of loops
     * (4,096 x 4,096) would otherwise reach the bound only after minutes and gigabytes.
     *
     * @throws OnnxException (through {@code n.error}) naming the node, the runs and the body's nodes
     */
    private void forecast(NodeContext n, long runs, OnnxModel.Graph body, Scope scope) {
        long per = atLeast(body, scope);
        if (per > 0 && unrolled + (double) runs * per > MAX_NODES)
            throw n.error("unrolling would make at least " + String.format(java.util.Locale.ROOT, "%,.0f", (double) runs * per) + " nodes (" + runs
                    + " runs of a body of at least " + per + "); arenaplan unrolls If, Loop and Scan to at most " + MAX_NODES + " nodes");
    }

    /**
     * A lower bound on the nodes one run of {@code g} unrolls to: 1 per plain node; an If, its
     * smaller branch; a Loop, its trip count times its body's where the count is a constant
     * (in {@code g} or known at import) and the loop cannot stop early (no condition input, or
     * one that is {@code g}'s own condition, true while {@code g} runs, and a body that passes
     * its condition on unchanged, {@link #keepsGoing}); else 0, as for a Scan, whose length
     * needs shapes. Saturates at {@link Long#MAX_VALUE}.
     */
    private long atLeast(OnnxModel.Graph g, Scope scope) {
        Map<String, Double> known = new HashMap<>();
        for (OnnxModel.TensorData t : g.initializers()) {
            Double u = t.elementCount() == 1 ? t.uniform() : null;
            if (u != null) known.put(t.name(), u);
        }
        String cond = g.inputs().size() >= 2 ? g.inputs().get(1).name() : null;   // a Loop body's condition: true while it runs
        long sum = 0;
        for (OnnxModel.Node node : g.nodes()) {
            OnnxModel.Attribute value = node.attributes().get("value");
            if (node.opType().equals("Constant") && node.inDefaultDomain() && node.outputs().size() == 1
                    && value != null && value.value() instanceof OnnxModel.TensorData t && t.elementCount() == 1 && t.uniform() != null)
                known.put(node.outputs().get(0), t.uniform());
            long cost = 1;
            if (unrolls(node) && node.opType().equals("If")) {
                OnnxModel.Attribute a = node.attributes().get("then_branch"), b = node.attributes().get("else_branch");
                cost = a != null && a.value() instanceof OnnxModel.Graph x && b != null && b.value() instanceof OnnxModel.Graph y ? Math.min(atLeast(x, scope), atLeast(y, scope)) : 0;
            } else if (unrolls(node) && node.opType().equals("Loop")) {
                OnnxModel.Attribute a = node.attributes().get("body");
                List<String> in = node.inputs();
                Double m = in.isEmpty() || in.get(0).isEmpty() ? null : known.containsKey(in.get(0)) ? known.get(in.get(0)) : constantOf(scope.resolve(in.get(0)));
                boolean goes = in.size() >= 2 && a != null && a.value() instanceof OnnxModel.Graph inner
                        && (in.get(1).isEmpty() || (in.get(1).equals(cond) && keepsGoing(inner)));
                cost = goes && m != null && m >= 1 ? saturatedProduct(m.longValue(), atLeast((OnnxModel.Graph) a.value(), scope)) : 0;
            } else if (unrolls(node)) {
                cost = 0;
            }
            sum = sum > Long.MAX_VALUE - cost ? Long.MAX_VALUE : sum + cost;
        }
        return sum;
    }

    /** The one value of {@code name} known at import, or null. */
    private Double constantOf(String name) {
        double[] c = importer.constant(name);
        return c != null && c.length == 1 ? c[0] : null;
    }

    private static long saturatedProduct(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    /** Whether a Loop body gives back its condition input unchanged (directly or through Identity), so only the trip count ends the loop. */
    private static boolean keepsGoing(OnnxModel.Graph body) {
        if (body.inputs().size() < 2 || body.outputs().isEmpty()) return false;
        String in = body.inputs().get(1).name(), out = body.outputs().get(0).name();
        if (in.equals(out)) return true;
        for (OnnxModel.Node node : body.nodes())
            if (node.outputs().contains(out)) return node.opType().equals("Identity") && node.inDefaultDomain() && node.inputs().equals(List.of(in));
        return false;
    }

    /** A node the unrolling makes (a slice, a reshape, a stack), counted against {@link #MAX_NODES}. */
    private void add(NodeContext at, int index, OnnxModel.Node node) {
        if (++unrolled > MAX_NODES) throw at.error("unrolling If, Loop and Scan reaches more than " + MAX_NODES + " nodes; arenaplan stops there");
        importer.node(node, index);
    }

    /** A body's initializers (weights) and nodes, in {@code scope}. */
    private void body(OnnxModel.Graph g, NodeContext at, int index, Scope scope, String prefix) {
        for (OnnxModel.TensorData t : g.initializers()) {
            DType dt = DType.ofOnnx(t.dataType());
            if (dt == null) throw at.error("body initializer '" + t.name() + "' has ONNX element type " + OnnxDTypes.describe(t.dataType()) + ", which arenaplan does not support");
            String r = importer.fresh(prefix + t.name());
            scope.names.put(t.name(), r);
            importer.weight(new Value(r, dt, t.dims()), Constant.of(t.source(), dt), at);
        }
        for (OnnxModel.Node node : g.nodes()) emit(node, index, scope, prefix);
    }

    private void unroll(OnnxModel.Node node, int index, Scope scope) {
        NodeContext n = importer.context(node, index);
        OlderOpsets.checkVersion(node, n, n.opset());   // Scan-8 (batched) is unrolled by its own rule below
        switch (node.opType()) {
            case "If" -> unrollIf(node, n, index, scope);
            case "Scan" -> unrollScan(node, n, index, scope);
            case "SequenceMap" -> unrollSequenceMap(node, n, index, scope);
            default -> unrollLoop(node, n, index, scope);
        }
    }

    private OnnxModel.Graph graph(NodeContext n, String attr) {
        OnnxModel.Graph g = n.graph(attr);
        if (g == null) throw n.error("attribute '" + attr + "' (a GRAPH) is required");
        return g;
    }

    /** The one value of a scalar known at import, or null when it is computed at run time. */
    private Double scalar(NodeContext n, String name, String what) {
        double[] c = known(n, name, what);
        if (c == null) return null;
        if (c.length != 1) throw n.error(what + " '" + name + "' holds " + c.length + " values, not one");
        return c[0];
    }

    /**
     * The values of {@code name} known at import, which the unrolling of {@code n} takes as the run's (its {@code what}), or
     * null; a Shape read from an upper bound (torchvision's mask-pasting Loop over {@code masks.shape[0]} detections) is
     * refused when the graph is built where its axis is the bounded one, as for any other node.
     */
    private double[] known(NodeContext n, String name, String what) {
        double[] c = importer.constant(name);
        if (c != null) importer.readAsConstant(name, "'" + n.opName() + "' (" + n.opType() + ", its " + what + ")");
        return c;
    }

    private void unrollIf(OnnxModel.Node node, NodeContext n, int index, Scope scope) {
        n.require(node.inputs().size() == 1 && !node.inputs().get(0).isEmpty(), "has " + node.inputs().size() + " inputs; If takes one (cond)");
        OnnxModel.Graph then = graph(n, "then_branch"), otherwise = graph(n, "else_branch");
        String cond = node.inputs().get(0);
        Double c = scalar(n, cond, "condition");
        String tested = c == null ? importer.emptyGuards().tested(cond) : null;
        List<OnnxModel.TensorData> empty = tested == null ? null : EmptyGuards.emptyConstants(then);
        if (empty != null && empty.size() == node.outputs().size() && node.outputs().stream().noneMatch(String::isEmpty)) {
            branch(node, n, index, scope, otherwise, "else_branch");   // the same tensors in every run, where the graph proves it (EmptyGuards)
            importer.emptyGuards().add(n, tested, node.outputs(), empty);
            return;
        }
        if (c == null) throw n.error("condition '" + cond + "' is computed at run time; arenaplan unrolls If only when its condition is known at import "
                + "(a constant, Shape arithmetic, or a graph input whose value was given)");
        branch(node, n, index, scope, c != 0 ? then : otherwise, c != 0 ? "then_branch" : "else_branch");
    }

    /** Imports {@code branch} (named {@code which}) of If {@code node} in its place, its outputs copied to the node's. */
    private void branch(OnnxModel.Node node, NodeContext n, int index, Scope scope, OnnxModel.Graph branch, String which) {
        n.require(branch.inputs().isEmpty(), which + " declares " + branch.inputs().size() + " inputs; an If branch takes none");
        n.require(branch.outputs().size() == node.outputs().size(),
                which + " has " + branch.outputs().size() + " outputs but the node " + node.outputs().size());
        Scope child = new Scope(scope);
        body(branch, n, index, child, n.opName() + "/" + which + "/");
        for (int k = 0; k < node.outputs().size(); k++)
            if (!node.outputs().get(k).isEmpty()) copy(n, index, child.resolve(branch.outputs().get(k).name()), node.outputs().get(k), k);
    }

    private void unrollScan(OnnxModel.Node node, NodeContext n, int index, Scope scope) {
        if (n.opset() < 9) {
            unrollScanEight(node, n, index, scope);
            return;
        }
        n.require(!n.hasAttr("directions"), "attribute 'directions' is Scan-8's (opset 8); from Scan-9 on each scan input's direction is in scan_input_directions");
        OnnxModel.Graph body = graph(n, "body");
        long scans = n.integer("num_scan_inputs", -1);
        n.require(n.hasAttr("num_scan_inputs"), "attribute 'num_scan_inputs' is required");
        int ins = node.inputs().size(), states = (int) (ins - scans);
        n.require(scans >= 1 && states >= 0, "num_scan_inputs " + scans + " must be 1.." + ins + " (the node's inputs)");
        n.require(body.inputs().size() == ins, "body declares " + body.inputs().size() + " inputs but the node gives " + ins + " (states, then scan inputs)");
        int scanOuts = body.outputs().size() - states;
        n.require(scanOuts >= 0, "body has " + body.outputs().size() + " outputs, fewer than its " + states + " states");
        n.require(node.outputs().size() <= body.outputs().size(), "has " + node.outputs().size() + " outputs but its body " + body.outputs().size());
        long[] axes = n.ints("scan_input_axes", new long[(int) scans]), dirs = n.ints("scan_input_directions", new long[(int) scans]);
        long[] outAxes = n.ints("scan_output_axes", new long[scanOuts]), outDirs = n.ints("scan_output_directions", new long[scanOuts]);
        n.require(axes.length == scans && dirs.length == scans, "scan_input_axes and scan_input_directions must give " + scans + " values (num_scan_inputs)");
        n.require(outAxes.length == scanOuts && outDirs.length == scanOuts, "scan_output_axes and scan_output_directions must give " + scanOuts + " values (the scan outputs)");
        long length = -1;
        int[] axis = new int[(int) scans];
        for (int j = 0; j < scans; j++) {
            String x = node.inputs().get(states + j);
            n.require(!x.isEmpty() && importer.value(x) != null, "scan input #" + j + " '" + x + "' is not defined before the node");
            long[] shape = importer.value(x).shape();
            axis[j] = n.axis(axes[j], shape.length, "scan_input_axes[" + j + "]");
            n.require(dirs[j] == 0 || dirs[j] == 1, "scan_input_directions[" + j + "] is " + dirs[j] + ", not 0 (forward) or 1 (reverse)");
            n.require(length < 0 || shape[axis[j]] == length, "scan input '" + x + "' " + Arrays.toString(shape) + " has " + shape[axis[j]]
                    + " steps along axis " + axis[j] + ", the scan inputs before it " + length);
            length = shape[axis[j]];
        }
        for (long d : outDirs) n.require(d == 0 || d == 1, "scan_output_directions holds " + d + ", not 0 (forward) or 1 (reverse)");
        n.require(length <= MAX_ITERATIONS, "scans " + length + " steps; arenaplan unrolls at most " + MAX_ITERATIONS);
        n.require(length > 0 || scanOuts == 0, "scans 0 steps: its scan outputs have no slice to take their shape from");
        forecast(n, length, body, scope);
        Steps s = steps(body, n, index, scope, node.inputs().subList(0, states), node.inputs().subList(states, ins), axis, dirs, length, n.opName() + "/");
        finish(node, n, index, s.carried(), s.slices(), outAxes, outDirs);
    }

    /**
     * SequenceMap-17 (Operators.md, SequenceMap): the body run once per element of
     * input_sequence, its inputs bound to the i-th element of every sequence input (each as long
     * as the first) and to the tensor inputs as they are; output k is the sequence of the body's
     * output k over the runs. Every sequence's length is known at import ({@link Sequences}).
     */
    private void unrollSequenceMap(OnnxModel.Node node, NodeContext n, int index, Scope scope) {
        n.require(n.opset() >= Sequences.since("SequenceMap"), "SequenceMap exists from opset " + Sequences.since("SequenceMap") + " of the default domain");
        OnnxModel.Graph body = graph(n, "body");
        List<String> in = node.inputs();
        n.require(!in.isEmpty(), "has no inputs; SequenceMap takes input_sequence, then additional inputs");
        n.require(body.inputs().size() == in.size(), "body declares " + body.inputs().size() + " inputs but the node gives " + in.size() + " (one per input)");
        n.require(body.outputs().size() == node.outputs().size(), "body has " + body.outputs().size() + " outputs but the node " + node.outputs().size() + " (one per output)");
        int length = sequences.sequence(n, in.get(0), "input_sequence").tensors().size();
        for (int j = 1; j < in.size(); j++) {
            String x = in.get(j);
            n.require(!x.isEmpty(), "additional input #" + j + " is empty");
            Object v = sequences.held(x);
            n.require(!(v instanceof Sequences.Opt), "additional input #" + j + " '" + x + "' is " + sequences.describe(x) + "; SequenceMap takes tensors and sequences");
            n.require(v != null || importer.value(x) != null, "additional input #" + j + " '" + x + "' is not defined before the node");
            n.require(!(v instanceof Sequences.Seq s) || s.tensors().size() == length, "additional input #" + j + " '" + x + "' is " + sequences.describe(x)
                    + " but input_sequence '" + in.get(0) + "' of " + length + " (SequenceMap: every sequence input has as many samples as the first)");
        }
        forecast(n, length, body, scope);
        List<List<String>> outs = new ArrayList<>();
        for (int k = 0; k < node.outputs().size(); k++) outs.add(new ArrayList<>());
        for (int i = 0; i < length; i++) {
            String prefix = n.opName() + "/" + i + "/";
            Scope child = new Scope(scope);
            for (int j = 0; j < in.size(); j++)
                child.names.put(body.inputs().get(j).name(), sequences.held(in.get(j)) instanceof Sequences.Seq s ? s.tensors().get(i) : in.get(j));
            body(body, n, index, child, prefix);
            for (int k = 0; k < outs.size(); k++) {
                String r = child.resolve(body.outputs().get(k).name());
                n.require(importer.value(r) != null, "body output '" + body.outputs().get(k).name() + "' is " + (sequences.held(r) != null ? sequences.describe(r) : "not computed by its nodes")
                        + "; each of SequenceMap's body outputs is a tensor");
                outs.get(k).add(r);
            }
        }
        for (int k = 0; k < outs.size(); k++) {
            if (node.outputs().get(k).isEmpty()) continue;
            DType dt = outs.get(k).isEmpty() ? DType.ofOnnx(body.outputs().get(k).elemType()) : importer.value(outs.get(k).get(0)).dtype();
            sequences.define(node.outputs().get(k), new Sequences.Seq(outs.get(k), dt));
        }
    }

    /** The states after a scan's last step, and each scan output's slices in step order. */
    private record Steps(List<String> carried, List<List<String>> slices) { }

    /**
     * The body run {@code length} times: per step each scan input's slice is a Gather of one
     * index (a constant) along its axis, taken from the end where its direction is 1; the body's
     * nodes follow with the states of the step before. Names are prefixed {@code prefix + step + "/"}.
     */
    private Steps steps(OnnxModel.Graph body, NodeContext n, int index, Scope scope, List<String> states, List<String> scanned,
                        int[] axis, long[] dirs, long length, String prefix) {
        int scanOuts = body.outputs().size() - states.size();
        List<String> carried = new ArrayList<>(states);
        List<List<String>> slices = new ArrayList<>();
        for (int k = 0; k < scanOuts; k++) slices.add(new ArrayList<>());
        for (int i = 0; i < length; i++) {
            String at = prefix + i + "/";
            Scope child = new Scope(scope);
            for (int j = 0; j < carried.size(); j++) child.names.put(body.inputs().get(j).name(), carried.get(j));
            for (int j = 0; j < scanned.size(); j++) {
                String bodyName = body.inputs().get(carried.size() + j).name();
                child.names.put(bodyName, take(n, index, scanned.get(j), axis[j], position(n, dirs[j] == 1 ? length - 1 - i : i, at + "step_" + j), at + bodyName, at + "slice_" + j));
            }
            body(body, n, index, child, at);
            for (int j = 0; j < carried.size(); j++) carried.set(j, child.resolve(body.outputs().get(j).name()));
            for (int k = 0; k < scanOuts; k++) slices.get(k).add(child.resolve(body.outputs().get(carried.size() + k).name()));
        }
        return new Steps(carried, slices);
    }

    /** A scalar int64 weight holding {@code position}, named from {@code want}; returns its name. */
    private String position(NodeContext n, long position, String want) {
        String at = importer.fresh(want);
        importer.weight(new Value(at, DType.I64, new long[0]), Constant.fill(position), n);
        return at;
    }

    /** {@code x}'s slice at the position held by the scalar weight {@code at} along {@code axis} (a Gather; rank one less); returns its name. */
    private String take(NodeContext n, int index, String x, int axis, String at, String sliceName, String nodeName) {
        String slice = importer.fresh(sliceName);
        add(n, index, new OnnxModel.Node(nodeName, "Gather", "", List.of(x, at), List.of(slice),
                Map.of("axis", new OnnxModel.Attribute("axis", OnnxModel.Attribute.INT, (long) axis))));
        return slice;
    }

    /**
     * Scan-8 (opset 8): every state and scan input has the batch on axis 0 and every scan input
     * its sequence on axis 1 (ONNX Changelog, Scan-8). Unrolled per batch entry: the states and
     * scan inputs Gathered at the entry, the body run over the entry's sequence as Scan-9 does
     * along axis 0 ({@code directions} per scan input), its slices stacked into [sequence, ...];
     * then the final states and the scan outputs stacked along a new batch axis 0. Where
     * {@code sequence_lens} (known at import) gives an entry fewer steps than the scan inputs
     * hold, its state is the one after its last step and its scan outputs are padded with zeros
     * to the full sequence (the spec leaves the padding undefined; ONNX Runtime writes zeros).
     */
    private void unrollScanEight(OnnxModel.Node node, NodeContext n, int index, Scope scope) {
        for (String a : List.of("scan_input_axes", "scan_input_directions", "scan_output_axes", "scan_output_directions"))
            n.require(!n.hasAttr(a), "attribute '" + a + "' is Scan-9's; Scan-8 (opset 8) scans axis 1 of each scan input, axis 0 being the batch (its directions are in 'directions')");
        OnnxModel.Graph body = graph(n, "body");
        n.require(n.hasAttr("num_scan_inputs"), "attribute 'num_scan_inputs' is required");
        long scans = n.integer("num_scan_inputs", -1);
        List<String> in = node.inputs();
        n.require(!in.isEmpty(), "has no inputs; Scan-8 takes sequence_lens (may be \"\"), then the states and the scan inputs");
        int ins = in.size() - 1, states = (int) (ins - scans);
        n.require(scans >= 1 && states >= 0, "num_scan_inputs " + scans + " must be 1.." + ins + " (the inputs after sequence_lens)");
        n.require(body.inputs().size() == ins, "body declares " + body.inputs().size() + " inputs but the node gives " + ins + " after sequence_lens (states, then scan inputs)");
        int scanOuts = body.outputs().size() - states;
        n.require(scanOuts >= 0, "body has " + body.outputs().size() + " outputs, fewer than its " + states + " states");
        n.require(node.outputs().size() <= body.outputs().size(), "has " + node.outputs().size() + " outputs but its body " + body.outputs().size());
        long[] dirs = n.ints("directions", new long[(int) scans]);
        n.require(dirs.length == scans, "directions must give " + scans + " values (num_scan_inputs)");
        for (int j = 0; j < scans; j++) n.require(dirs[j] == 0 || dirs[j] == 1, "directions[" + j + "] is " + dirs[j] + ", not 0 (forward) or 1 (reverse)");
        long batch = -1, length = -1;
        for (int j = 0; j < ins; j++) {
            String x = in.get(1 + j);
            boolean scanned = j >= states;
            String what = scanned ? "scan input #" + (j - states) : "state #" + j;
            n.require(!x.isEmpty() && importer.value(x) != null, what + " '" + x + "' is not defined before the node");
            long[] shape = importer.value(x).shape();
            n.require(shape.length >= (scanned ? 2 : 1), what + " '" + x + "' " + Arrays.toString(shape) + (scanned
                    ? " is not [batch, sequence, ...] (Scan-8's scan inputs hold the batch on axis 0 and the sequence on axis 1)"
                    : " is not [batch, ...] (Scan-8's states hold the batch on axis 0)"));
            n.require(batch < 0 || shape[0] == batch, what + " '" + x + "' " + Arrays.toString(shape) + " has batch " + shape[0] + ", the inputs before it " + batch);
            batch = shape[0];
            if (!scanned) continue;
            n.require(length < 0 || shape[1] == length, what + " '" + x + "' " + Arrays.toString(shape) + " has " + shape[1] + " steps, the scan inputs before it " + length);
            length = shape[1];
        }
        n.require(batch >= 1 && batch <= MAX_ITERATIONS, "has batch " + batch + "; arenaplan unrolls Scan-8 over 1.." + MAX_ITERATIONS + " batch entries");
        n.require(length <= MAX_ITERATIONS, "scans " + length + " steps; arenaplan unrolls at most " + MAX_ITERATIONS);
        long[] lens = sequenceLengths(n, in.get(0), batch, length);
        int[] axis = new int[(int) scans];
        List<List<String>> finals = new ArrayList<>(), outs = new ArrayList<>();
        for (int j = 0; j < states; j++) finals.add(new ArrayList<>());
        for (int k = 0; k < scanOuts; k++) outs.add(new ArrayList<>());
        List<Steps> perEntry = new ArrayList<>();
        for (int b = 0; b < batch; b++) {
            String prefix = n.opName() + "/batch_" + b + "/";
            String at = position(n, b, prefix + "entry");   // one index for all the entry's inputs
            List<String> entry = new ArrayList<>();
            for (int j = 0; j < ins; j++) entry.add(take(n, index, in.get(1 + j), 0, at, prefix + "input_" + j, prefix + "input_" + j));
            Steps s = steps(body, n, index, scope, entry.subList(0, states), entry.subList(states, ins), axis, dirs, lens[b], prefix);
            perEntry.add(s);
            for (int j = 0; j < states; j++) finals.get(j).add(s.carried().get(j));
        }
        for (int k = 0; k < scanOuts; k++) {
            List<String> sample = null;
            for (Steps s : perEntry) if (!s.slices().get(k).isEmpty()) sample = s.slices().get(k);
            n.require(sample != null, "scans 0 steps in every batch entry: its scan output #" + k + " has no slice to take its shape from");
            Value like = importer.value(sample.get(0));
            for (int b = 0; b < batch; b++) {
                List<String> parts = new ArrayList<>(perEntry.get(b).slices().get(k));
                String prefix = n.opName() + "/batch_" + b + "/";
                if (parts.size() < length) {
                    String zeros = importer.fresh(prefix + "padding_" + k);
                    importer.weight(new Value(zeros, like.dtype(), like.shape()), Constant.fill(0), n);
                    while (parts.size() < length) parts.add(zeros);
                }
                String stacked = importer.fresh(prefix + "scan_output_" + k);
                stack(n, index, parts, 0, "axis", "scan output #" + k, stacked, prefix + "stack_" + k + "/");
                outs.get(k).add(stacked);
            }
        }
        for (int k = 0; k < node.outputs().size(); k++) {
            String out = node.outputs().get(k);
            if (out.isEmpty()) continue;
            List<String> parts = k < states ? finals.get(k) : outs.get(k - states);
            stack(n, index, parts, 0, "axis", k < states ? "final state #" + k : "scan output #" + (k - states), out, n.opName() + "/output_" + k + "/");
        }
    }

    /** Scan-8's steps per batch entry: all {@code length} without {@code sequence_lens}, else its values, which must be known at import. */
    private long[] sequenceLengths(NodeContext n, String name, long batch, long length) {
        long[] lens = new long[(int) batch];
        Arrays.fill(lens, length);
        if (name.isEmpty()) return lens;
        double[] given = known(n, name, "sequence_lens");
        if (given == null) throw n.error("sequence_lens '" + name + "' is computed at run time; arenaplan unrolls Scan-8 only when its sequence lengths are known at import");
        n.require(given.length == batch, "sequence_lens '" + name + "' holds " + given.length + " values for a batch of " + batch);
        for (int b = 0; b < batch; b++) {
            n.require(given[b] >= 0 && given[b] <= length, "sequence_lens[" + b + "] is " + (long) given[b] + ", not in 0.." + length + " (the scan inputs' sequence)");
            lens[b] = (long) given[b];
        }
        return lens;
    }

    private void unrollLoop(OnnxModel.Node node, NodeContext n, int index, Scope scope) {
        OnnxModel.Graph body = graph(n, "body");
        List<String> in = node.inputs();
        n.require(in.size() >= 2, "has " + in.size() + " inputs; Loop takes M, cond and the loop-carried values (M and cond may be \"\")");
        int states = in.size() - 2;
        n.require(body.inputs().size() == states + 2, "body declares " + body.inputs().size() + " inputs, not " + (states + 2) + " (iteration_num, cond, the " + states + " loop-carried values)");
        int scanOuts = body.outputs().size() - 1 - states;
        n.require(scanOuts >= 0, "body has " + body.outputs().size() + " outputs, not at least " + (1 + states) + " (cond and the loop-carried values)");
        n.require(node.outputs().size() <= states + scanOuts, "has " + node.outputs().size() + " outputs but its body gives " + (states + scanOuts));
        Long trips = null;
        if (!in.get(0).isEmpty()) {
            Double m = scalar(n, in.get(0), "trip count");
            if (m == null) throw n.error("trip count '" + in.get(0) + "' is computed at run time; arenaplan unrolls Loop only when its trip count is known at import");
            trips = m.longValue();
        }
        boolean going = true;
        if (!in.get(1).isEmpty()) {
            Double c = scalar(n, in.get(1), "condition");
            if (c == null) throw n.error("condition '" + in.get(1) + "' is computed at run time; arenaplan unrolls Loop only when its condition is known at import");
            going = c != 0;
        }
        n.require(trips != null || !in.get(1).isEmpty(), "has neither a trip count nor a condition (it would run forever)");
        if (going && trips != null && (in.get(1).isEmpty() || keepsGoing(body))) forecast(n, trips, body, scope);
        List<String> carried = new ArrayList<>(in.subList(2, in.size()));
        List<List<String>> slices = new ArrayList<>();
        for (int k = 0; k < scanOuts; k++) slices.add(new ArrayList<>());
        String condOut = body.outputs().get(0).name();
        for (long i = 0; going && (trips == null || i < trips); i++) {
            n.require(i < MAX_ITERATIONS, "runs more than " + MAX_ITERATIONS + " iterations" + (trips == null ? " (its condition stays true at import)" : " (trip count " + trips + ")")
                    + "; arenaplan unrolls at most " + MAX_ITERATIONS);
            String prefix = n.opName() + "/" + i + "/";
            Scope child = new Scope(scope);
            String iter = importer.fresh(prefix + body.inputs().get(0).name()), cond = importer.fresh(prefix + body.inputs().get(1).name());
            importer.weight(new Value(iter, DType.I64, new long[0]), Constant.fill(i), n);
            importer.weight(new Value(cond, DType.BOOL, new long[0]), Constant.fill(1), n);
            child.names.put(body.inputs().get(0).name(), iter);
            child.names.put(body.inputs().get(1).name(), cond);
            for (int j = 0; j < states; j++) child.names.put(body.inputs().get(2 + j).name(), asDeclared(body.inputs().get(2 + j), carried.get(j), prefix));
            body(body, n, index, child, prefix);
            Double c = scalar(n, child.resolve(condOut), "the body's condition");
            if (c == null) throw n.error("the body's condition '" + condOut + "' is computed at run time (iteration " + i
                    + "); arenaplan unrolls Loop only when it is known at import");
            going = c != 0;
            for (int j = 0; j < states; j++) carried.set(j, child.resolve(body.outputs().get(1 + j).name()));
            for (int k = 0; k < scanOuts; k++) slices.get(k).add(child.resolve(body.outputs().get(1 + states + k).name()));
        }
        n.require(scanOuts == 0 || !slices.get(0).isEmpty(), "runs 0 iterations: its scan outputs have no slice to take their shape from");
        finish(node, n, index, carried, slices, new long[scanOuts], new long[scanOuts]);
    }

    /** The node's outputs: the final states (Identity), then each scan output stacked along its axis. */
    private void finish(OnnxModel.Node node, NodeContext n, int index, List<String> carried, List<List<String>> slices, long[] axes, long[] dirs) {
        List<String> outs = node.outputs();
        for (int k = 0; k < outs.size(); k++) {
            if (outs.get(k).isEmpty()) continue;
            if (k < carried.size()) {
                copy(n, index, carried.get(k), outs.get(k), k);
                continue;
            }
            int s = k - carried.size();
            List<String> parts = new ArrayList<>(slices.get(s));
            if (dirs[s] == 1) java.util.Collections.reverse(parts);
            stack(n, index, parts, axes[s], "scan_output_axes[" + s + "]", "scan output #" + s, outs.get(k), n.opName() + "/stack_" + s + "/");
        }
    }

    /**
     * {@code parts}, of one shape each, stacked into {@code out} along a new axis {@code axis}
     * (of their rank + 1; negative counts from the end; {@code axisName} names it in errors): each Reshaped to hold the axis as 1,
     * then one Concat (which, in place, writes them straight into {@code out}).
     *
     * @throws OnnxException (through {@code n.error}) naming {@code what} when the shapes differ or the axis is out of range
     */
    private void stack(NodeContext n, int index, List<String> parts, long axis, String axisName, String what, String out, String prefix) {
        for (String p : parts)
            n.require(importer.value(p) != null, what + " '" + p + "' is " + (sequences.held(p) != null ? sequences.describe(p) : "not defined") + ", not a tensor to stack");
        long[] shape = importer.value(parts.get(0)).shape();
        int at = n.axis(axis, shape.length + 1, axisName);
        long[] stacked = new long[shape.length + 1];
        for (int d = 0, j = 0; d < stacked.length; d++) stacked[d] = d == at ? 1 : shape[j++];
        String shapeName = importer.fresh(prefix + "shape");
        importer.weight(new Value(shapeName, DType.I64, new long[]{stacked.length}), Constant.ofLongs(stacked), n);
        List<String> reshaped = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            long[] got = importer.value(parts.get(i)).shape();
            n.require(Arrays.equals(got, shape), what + " has slices " + Arrays.toString(shape) + " and " + Arrays.toString(got) + "; they must agree to be stacked");
            String r = importer.fresh(prefix + i);
            add(n, index, new OnnxModel.Node(prefix + "reshape_" + i, "Reshape", "", List.of(parts.get(i), shapeName), List.of(r), Map.of()));
            reshaped.add(r);
        }
        add(n, index, new OnnxModel.Node(prefix + "concat", "Concat", "", reshaped, List.of(out),
                Map.of("axis", new OnnxModel.Attribute("axis", OnnxModel.Attribute.INT, (long) at))));
    }

    /** FlexAttention's modifier attributes, in the order they run. */
    static final List<String> FLEX_MODIFIERS = List.of("score_mod", "prob_mod");

    /**
     * A FlexAttention with modifiers as its stages (op type FlexAttention, domain arenaplan, with
     * from_stage / to_stage: 0 = Q and K, 1 = scores, 2 = probabilities, 3 = Y) and each
     * modifier's nodes between two of them, its one input bound to the stage's output; the last
     * stage writes the node's output. softmax_precision is resolved here (0: f64 for f64 Q, else
     * f32) so that every stage knows the scores' type.
     */
    private void flexAttention(OnnxModel.Node node, int index, Scope scope) {
        NodeContext n = importer.context(node, index);
        n.require(node.inputs().size() == 3 && node.outputs().size() == 1, "has " + node.inputs().size() + " inputs and " + node.outputs().size()
                + " outputs; FlexAttention takes Q, K, V and gives Y");
        List<String> ins = node.inputs().stream().map(x -> x.isEmpty() ? x : scope.resolve(x)).toList();
        Value q = ins.get(0).isEmpty() ? null : importer.value(ins.get(0));
        n.require(q != null, "Q '" + ins.get(0) + "' is not defined before the node");
        Map<String, OnnxModel.Attribute> common = new java.util.LinkedHashMap<>(node.attributes());
        FLEX_MODIFIERS.forEach(common::remove);
        OnnxModel.Attribute p = common.get("softmax_precision");
        long code = p != null && p.value() instanceof Long l ? l : q.dtype() == DType.F64 ? DType.F64.onnxCode() : DType.F32.onnxCode();
        common.put("softmax_precision", new OnnxModel.Attribute("softmax_precision", OnnxModel.Attribute.INT, code));
        int from = 0;
        List<String> current = ins.subList(0, 2);
        for (int m = 0; m < FLEX_MODIFIERS.size(); m++) {
            String attr = FLEX_MODIFIERS.get(m);
            OnnxModel.Graph g = n.graph(attr);
            if (g == null) continue;
            n.require(g.inputs().size() == 1 && g.outputs().size() == 1, attr + " has " + g.inputs().size() + " inputs and " + g.outputs().size()
                    + " outputs; a FlexAttention modifier takes one tensor and gives one");
            int to = m + 1;
            String out = importer.fresh(n.opName() + "/" + (to == 1 ? "scores" : "probs"));
            stage(n, index, common, from, to, current, out);
            Scope child = new Scope(scope);
            child.names.put(g.inputs().get(0).name(), out);
            body(g, n, index, child, n.opName() + "/" + attr + "/");
            current = List.of(child.resolve(g.outputs().get(0).name()));
            Value given = importer.value(out), made = importer.value(current.get(0));
            n.require(made != null && java.util.Arrays.equals(made.shape(), given.shape()), attr + "'s output "
                    + (made == null ? "'" + current.get(0) + "' is not computed by its nodes" : made + " has not the shape of its input " + given)
                    + " (a modifier keeps its input's shape: [batch, q_num_heads, q_sequence_length, kv_sequence_length])");
            from = to;
        }
        List<String> last = new ArrayList<>(current);
        last.add(ins.get(2));
        stage(n, index, common, from, 3, last, node.outputs().get(0));
    }

    private void stage(NodeContext n, int index, Map<String, OnnxModel.Attribute> common, int from, int to, List<String> ins, String out) {
        Map<String, OnnxModel.Attribute> attrs = new java.util.LinkedHashMap<>(common);
        attrs.put("from_stage", new OnnxModel.Attribute("from_stage", OnnxModel.Attribute.INT, (long) from));
        attrs.put("to_stage", new OnnxModel.Attribute("to_stage", OnnxModel.Attribute.INT, (long) to));
        String name = n.opName() + "/" + List.of("scores", "probs", "output").get(to - 1);
        importer.node(new OnnxModel.Node(name, "FlexAttention", NodeLowering.STAGE_DOMAIN, ins, List.of(out), attrs), index);
    }

    /**
     * A loop-carried value for a body input declared an optional (Loop-16 on: optional_type) that
     * is a tensor or a sequence (the body's previous iteration returned one): wrapped into a present
     * optional under a fresh name, as the declared type says; any other value as it is.
     */
    private String asDeclared(OnnxModel.ValueInfo input, String value, String prefix) {
        if (!"an optional".equals(input.notTensor()) || sequences.held(value) instanceof Sequences.Opt) return value;
        String wrapped = importer.fresh(prefix + input.name());
        Object held = sequences.held(value);
        sequences.given(wrapped, new Sequences.Opt(held != null ? held : value));
        return wrapped;
    }

    /** Output k of the node: an Identity of {@code from} (a view; a weight's values are shared), or {@code from}'s sequence or optional. */
    private void copy(NodeContext n, int index, String from, String to, int k) {
        if (sequences.held(from) != null) {
            sequences.alias(from, to);
            return;
        }
        importer.node(new OnnxModel.Node(n.opName() + "/output_" + k, "Identity", "", List.of(from), List.of(to), Map.of()), index);
    }
}
