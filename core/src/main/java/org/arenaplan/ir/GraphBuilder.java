package org.arenaplan.ir;

import org.arenaplan.io.Printable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a {@link Graph} and validates it once, in {@link #build()}: every failure is a
 * {@link GraphException} naming the op or tensor at fault.
 */
public final class GraphBuilder {
    private final String name;
    private final Map<String, Tensor> tensors = new LinkedHashMap<>();
    private final List<Op> ops = new ArrayList<>();
    private final List<String> inputs = new ArrayList<>();
    private final Set<String> donated = new LinkedHashSet<>();
    private final List<String> outputs = new ArrayList<>();
    private final Set<String> weights = new LinkedHashSet<>();
    private final Map<String, Double> weightFill = new LinkedHashMap<>();
    private final Map<String, WeightValues> weightValues = new LinkedHashMap<>();

    public GraphBuilder(String name) {
        this.name = name;
    }

    public GraphBuilder() {
        this("graph");
    }

    /**
     * A builder holding {@code g}'s tensors, inputs (with donation) and weights (with fills or values), and
     * no ops or outputs: the start of a graph derived from {@code g} (reordered, extended).
     */
    public static GraphBuilder declarationsOf(Graph g) {
        return declarationsOf(g, Set.of());
    }

    /** As {@link #declarationsOf(Graph)}, leaving out the tensors {@code dropped} (fused away: no op defines them any more). */
    public static GraphBuilder declarationsOf(Graph g, Set<String> dropped) {
        GraphBuilder b = new GraphBuilder(g.name());
        for (Tensor t : g.tensors().values()) if (!dropped.contains(t.name())) b.tensor(t);
        for (String in : g.inputs()) b.input(in, g.isDonated(in));
        for (String w : g.weights()) {
            Double fill = g.weightFill(w);
            if (g.weightValues(w) != null) b.weight(w, g.weightValues(w));
            else if (fill == null) b.weight(w);
            else b.weight(w, fill);
        }
        return b;
    }

    public GraphBuilder tensor(String name, long bytes) {
        return tensor(new Tensor(name, bytes, null, null));
    }

    public GraphBuilder tensor(String name, DType dtype, long... shape) {
        return tensor(Tensor.of(name, dtype, shape));
    }

    public GraphBuilder tensor(Tensor t) {
        if (tensors.putIfAbsent(t.name(), t) != null) throw new GraphException("tensor '" + Printable.name(t.name()) + "' declared twice");
        return this;
    }

    public boolean hasTensor(String name) {
        return tensors.containsKey(name);
    }

    public Tensor tensorOf(String name) {
        return tensors.get(name);
    }

    /** A caller-owned graph input; it is never overwritten. */
    public GraphBuilder input(String t) {
        return input(t, false);
    }

    /** A graph input; when donated its bytes may be reused after its last read. */
    public GraphBuilder input(String t, boolean isDonated) {
        inputs.add(t);
        if (isDonated) donated.add(t);
        return this;
    }

    /** A caller-owned graph output: it lives past the last op. */
    public GraphBuilder output(String t) {
        outputs.add(t);
        return this;
    }

    /** A read-only weight, placed in the weight region, never in the arena. */
    public GraphBuilder weight(String t) {
        weights.add(t);
        return this;
    }

    /** A weight filled with one constant value (as ONNX ConstantOfShape does). */
    public GraphBuilder weight(String t, double fill) {
        weights.add(t);
        weightFill.put(t, fill);
        return this;
    }

    /** A weight holding the values {@code values} reads (e.g. an ONNX initializer's). */
    public GraphBuilder weight(String t, WeightValues values) {
        weights.add(t);
        weightValues.put(t, values);
        return this;
    }

    public OpBuilder op(String opName, String kind) {
        return new OpBuilder(opName, kind);
    }

    /** Adds a finished op (as decoded from a file). */
    public GraphBuilder add(Op op) {
        ops.add(op);
        return this;
    }

    public int opCount() {
        return ops.size();
    }

    /** Fluent op declaration; {@link #add()} appends it to the schedule. */
    public final class OpBuilder {
        private final String opName;
        private final String kind;
        private final List<String> in = new ArrayList<>();
        private final List<String> out = new ArrayList<>();
        private int stream;
        private final Map<String, Object> attrs = new LinkedHashMap<>();
        private final List<Op.View> views = new ArrayList<>();
        private final List<Op.Member> members = new ArrayList<>();
        private final List<Op.InPlace> inPlace = new ArrayList<>();

        private OpBuilder(String opName, String kind) {
            this.opName = opName;
            this.kind = kind;
        }

        public OpBuilder in(String... names) { in.addAll(List.of(names)); return this; }

        public OpBuilder out(String... names) { out.addAll(List.of(names)); return this; }

        public OpBuilder stream(int s) { stream = s; return this; }

        public OpBuilder attr(String k, Object v) { attrs.put(k, v); return this; }

        public OpBuilder view(int output, int input, long byteOffset) { views.add(new Op.View(output, input, byteOffset)); return this; }

        /** Output 0 is a view of input 0 at offset 0. */
        public OpBuilder view() { return view(0, 0, 0); }

        public OpBuilder member(int input, int output, long byteOffset) { members.add(new Op.Member(input, output, byteOffset)); return this; }

        public OpBuilder inPlace(int output, int input) { inPlace.add(new Op.InPlace(output, input)); return this; }

        /** Output 0 may overwrite input 0. */
        public OpBuilder inPlace() { return inPlace(0, 0); }

        public GraphBuilder add() {
            ops.add(new Op(opName, kind, in, out, stream, attrs, views, members, inPlace));
            return GraphBuilder.this;
        }
    }

    /** Validates and freezes the graph: structure, then every op of a known kind against {@link OpRegistry} ({@link OpChecks}). */
    public Graph build() {
        return build(true);
    }

    /**
     * Validates the structure only, trusting every op's attributes, shapes and aliasing
     * declarations. For tests and the mutation test that plant lying graphs to show that the
     * plan validator and the simulator reject them; loaders never use it.
     */
    public Graph buildTrusting() {
        return build(false);
    }

    private Graph build(boolean checkOps) {
        long sum = 0;
        for (Tensor t : tensors.values()) {
            if (t.bytes() < 0) throw new GraphException("tensor '" + Printable.name(t.name()) + "' has negative size " + t.bytes());
            try {
                sum = Math.addExact(sum, t.bytes());
            } catch (ArithmeticException e) {
                throw new GraphException("the sum of tensor sizes overflows a long at tensor '" + Printable.name(t.name()) + "' (" + t.bytes() + " B)");
            }
        }
        Set<String> defined = new LinkedHashSet<>();
        for (String t : inputs) {
            requireTensor(t, "graph input");
            if (weights.contains(t)) throw new GraphException("tensor '" + Printable.name(t) + "' is both a graph input and a weight");
            if (!defined.add(t)) throw new GraphException("graph input '" + Printable.name(t) + "' listed twice");
        }
        for (String t : weights) {
            requireTensor(t, "weight");
            defined.add(t);
        }
        Map<String, Integer> producer = new HashMap<>();
        Set<String> opNames = new LinkedHashSet<>();
        Set<String> aliased = new LinkedHashSet<>();   // tensors that already have an alias parent
        for (int p = 0; p < ops.size(); p++) {
            Op op = ops.get(p);
            String where = "op '" + Printable.name(op.name()) + "' (" + Printable.name(op.kind()) + ", position " + p + ")";
            if (!opNames.add(op.name())) throw new GraphException(where + ": op name used twice");
            if (op.stream() < 0) throw new GraphException(where + ": negative stream id " + op.stream());
            for (String t : op.inputs()) {
                if (!tensors.containsKey(t)) throw new GraphException(where + " reads unknown tensor '" + Printable.name(t) + "'");
                if (!defined.contains(t)) {
                    int later = indexOfProducer(t, p);
                    throw new GraphException(where + " reads tensor '" + Printable.name(t) + "' before it is written"
                            + (later == p ? " (it is this op's own output: an op cannot read what it writes)"
                            : later >= 0 ? " (written later by op '" + Printable.name(ops.get(later).name()) + "' at position " + later + "; the schedule must be topological)" : " (no op writes it and it is not a graph input or weight)"));
                }
            }
            for (String t : op.outputs()) {
                if (!tensors.containsKey(t)) throw new GraphException(where + " writes unknown tensor '" + Printable.name(t) + "'");
                if (defined.contains(t)) {
                    if (Integer.valueOf(p).equals(producer.get(t))) throw new GraphException(where + " lists output '" + Printable.name(t) + "' twice; an op writes each tensor once");
                    String first = producer.containsKey(t) ? "op '" + Printable.name(ops.get(producer.get(t)).name()) + "'" : inputs.contains(t) ? "a graph input" : "a weight";
                    throw new GraphException(where + " writes tensor '" + Printable.name(t) + "', already written by " + first);
                }
                defined.add(t);
                producer.put(t, p);
            }
            for (Op.View v : op.views()) {
                checkIndex(where, "view", v.output(), op.outputs().size(), "output");
                checkIndex(where, "view", v.input(), op.inputs().size(), "input");
                String child = op.outputs().get(v.output());
                String base = op.inputs().get(v.input());
                checkSlice(where, "view '" + Printable.name(child) + "' of '" + Printable.name(base) + "'", v.byteOffset(), tensors.get(child).bytes(), tensors.get(base).bytes());
                if (!aliased.add(child)) throw new GraphException(where + ": tensor '" + Printable.name(child) + "' is declared an alias of two storages");
            }
            for (Op.Member m : op.members()) {
                checkIndex(where, "member", m.input(), op.inputs().size(), "input");
                checkIndex(where, "member", m.output(), op.outputs().size(), "output");
                String child = op.inputs().get(m.input());
                String base = op.outputs().get(m.output());
                checkSlice(where, "member slice '" + Printable.name(child) + "' of '" + Printable.name(base) + "'", m.byteOffset(), tensors.get(child).bytes(), tensors.get(base).bytes());
                if (inputs.contains(child) || weights.contains(child))
                    throw new GraphException(where + ": member slice '" + Printable.name(child) + "' is a graph input or weight; only op results can be written in place");
                if (!aliased.add(child)) throw new GraphException(where + ": tensor '" + Printable.name(child) + "' is declared an alias of two storages");
            }
            for (Op.InPlace h : op.inPlace()) {
                checkIndex(where, "in-place hint", h.output(), op.outputs().size(), "output");
                checkIndex(where, "in-place hint", h.input(), op.inputs().size(), "input");
            }
            if (checkOps) {
                OpChecks.check(op, where, tensors::get);   // a registry kind's layout first (Concat's exact slices), in its words
                checkMemberTargets(where, op);
            }
        }
        Map<String, Graph.Bounded> bounded = BoundedTensors.of(tensors, ops);
        Set<String> listed = new HashSet<>();
        for (String t : outputs) {
            requireTensor(t, "graph output");
            if (!defined.contains(t)) throw new GraphException("graph output '" + Printable.name(t) + "' is never written");
            if (!listed.add(t)) throw new GraphException("graph output '" + Printable.name(t) + "' listed twice");
        }
        for (String t : donated) {
            if (!inputs.contains(t)) throw new GraphException("donated tensor '" + Printable.name(t) + "' is not a graph input");
        }
        return new Graph(name, tensors, ops, inputs, donated, outputs, weights, weightFill, weightValues, producer, bounded);
    }

    /**
     * The bytes member slices write, per output, for every op kind (the registry checks Concat's
     * exact layout on top): member slices of one output may not overlap (two inputs written into
     * the same bytes, the later one clobbering the earlier, which a reader of the earlier would
     * see); an output with member slices may not also be a view (its bytes would be its base's, so
     * a member's producer would overwrite the base); and an op whose inputs are all member slices
     * does no device work ({@link Op#isStorageOnly}), so each output that is not a view must be
     * covered by its member slices entirely, or its other bytes would never be written.
     */
    private void checkMemberTargets(String where, Op op) {
        if (op.members().isEmpty()) return;
        for (int k = 0; k < op.outputs().size(); k++) {
            String o = op.outputs().get(k);
            List<long[]> slices = new ArrayList<>();   // {from, to, input index}
            for (Op.Member m : op.members()) {
                if (m.output() != k) continue;
                long from = m.byteOffset();
                slices.add(new long[]{from, from + tensors.get(op.inputs().get(m.input())).bytes(), m.input()});
            }
            if (!slices.isEmpty()) {
                for (Op.View v : op.views()) {
                    if (v.output() == k)
                        throw new GraphException(where + ": output '" + Printable.name(o) + "' is declared both a view of '" + Printable.name(op.inputs().get(v.input())) + "' and the target of member slice '"
                                + Printable.name(op.inputs().get((int) slices.get(0)[2])) + "'; a view's bytes are its base's, so nothing may be written into them in place");
                }
            }
            slices.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            long covered = 0;
            long[] last = null;
            for (long[] sl : slices) {
                if (sl[1] == sl[0]) continue;   // an empty slice writes nothing
                if (last != null && sl[0] < last[1])
                    throw new GraphException(where + ": member slices '" + Printable.name(op.inputs().get((int) last[2])) + "' (bytes [" + last[0] + ", " + last[1] + ")) and '"
                            + Printable.name(op.inputs().get((int) sl[2])) + "' (bytes [" + sl[0] + ", " + sl[1] + ")) of '" + Printable.name(o) + "' overlap; two inputs cannot be written into the same bytes");
                if (op.isStorageOnly() && sl[0] > covered) throw unwritten(where, o, covered, sl[0]);
                covered = sl[1];
                last = sl;
            }
            long bytes = tensors.get(o).bytes();
            if (op.isStorageOnly() && op.writesAtRuntime(k) && covered < bytes) throw unwritten(where, o, covered, bytes);
        }
    }

    private static GraphException unwritten(String where, String output, long from, long to) {
        return new GraphException(where + ": every input is a member slice, so the op does no device work, but bytes [" + from + ", " + to + ") of output '"
                + Printable.name(output) + "' lie in no member slice and would never be written");
    }

    private int indexOfProducer(String t, int from) {
        for (int q = from; q < ops.size(); q++) if (ops.get(q).outputs().contains(t)) return q;
        return -1;
    }

    private void requireTensor(String t, String role) {
        if (!tensors.containsKey(t)) throw new GraphException(role + " '" + Printable.name(t) + "' is not a declared tensor");
    }

    private static void checkIndex(String where, String what, int index, int size, String side) {
        if (index < 0 || index >= size)
            throw new GraphException(where + ": " + what + " names " + side + " #" + index + " but the op has " + size + " " + side + "s");
    }

    private static void checkSlice(String where, String what, long offset, long childBytes, long baseBytes) {
        if (offset < 0 || offset > baseBytes || childBytes > baseBytes - offset)
            throw new GraphException(where + ": " + what + " at byte offset " + offset + " (" + childBytes + " B) does not lie inside its base (" + baseBytes + " B)");
    }
}
