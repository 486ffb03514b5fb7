package org.arenaplan.onnx;

import org.arenaplan.ir.DType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ONNX sequence and optional values resolved at import into the tensors they hold, as
 * {@link ControlFlow} unrolls If, Loop and Scan: a sequence is a list of tensor names known at
 * import ({@link Seq}), an optional a present or absent element known at import ({@link Opt}).
 * Neither is ever a tensor of the graph: the ops that make or read them become plain tensor ops
 * (Slice, Reshape, Concat, Identity) or weights (SequenceLength, OptionalHasElement). Each op
 * follows its section of onnx/docs/Operators.md: SequenceEmpty-11, SequenceConstruct-11,
 * SequenceInsert-11, SequenceErase-11, SequenceAt-11, SequenceLength-11, SplitToSequence-11/24,
 * ConcatFromSequence-11, Optional-15, OptionalHasElement-15/18, OptionalGetElement-15/18 (and
 * Identity-16, which passes a sequence or optional on). SequenceMap-17 is unrolled by
 * {@link ControlFlow}. A position or a split that is computed at run time is refused with one
 * line naming the node, and so is any other op reading a sequence or optional. A sequence or optional
 * graph input is bound at import to the value given for it, its tensors graph inputs; a sequence or
 * optional graph output is copied out into tensors ({@link OnnxEdges}).
 */
final class Sequences {
    /** The op types resolved here, with the attributes each takes. */
    static final Map<String, Set<String>> ATTRS = Map.ofEntries(
            Map.entry("SequenceEmpty", Set.of("dtype")), Map.entry("SequenceConstruct", Set.of()), Map.entry("SequenceInsert", Set.of()),
            Map.entry("SequenceErase", Set.of()), Map.entry("SequenceAt", Set.of()), Map.entry("SequenceLength", Set.of()),
            Map.entry("SplitToSequence", Set.of("axis", "keepdims")), Map.entry("ConcatFromSequence", Set.of("axis", "new_axis")),
            Map.entry("Optional", Set.of("type")), Map.entry("OptionalHasElement", Set.of()), Map.entry("OptionalGetElement", Set.of()));

    /** The opset of the default domain each op type appeared at (Operators.md: the sequence ops at 11, the optional ops at 15). */
    static long since(String opType) {
        return opType.equals("SequenceMap") ? 17 : opType.startsWith("Optional") ? 15 : 11;
    }

    /** A sequence known at import: its tensors in order, and their element type (null where not known: an empty sequence a SequenceMap made). */
    record Seq(List<String> tensors, DType dtype) {
        Seq {
            tensors = List.copyOf(tensors);
        }
    }

    /** An optional known at import: its element (a tensor's name or a {@link Seq}), or null when it is empty. */
    record Opt(Object element) { }

    /** What the graph's plain ops are given: a node whose names are final, counted against {@link ControlFlow#MAX_NODES}. */
    interface Emit {
        void node(NodeContext at, int index, OnnxModel.Node node);

        /** {@code parts} stacked along a new axis {@code axis} into {@code out} ({@link ControlFlow}'s stack). */
        void stack(NodeContext at, int index, List<String> parts, long axis, String out);
    }

    private final ControlFlow.Importer importer;
    private final Emit emit;
    private final Map<String, Object> held = new HashMap<>();    // name -> Seq or Opt

    Sequences(ControlFlow.Importer importer, Emit emit) {
        this.importer = importer;
        this.emit = emit;
    }

    /** Whether {@code node} is a sequence or optional op of the default domain resolved here. */
    static boolean resolves(OnnxModel.Node node) {
        return node.inDefaultDomain() && ATTRS.containsKey(node.opType());
    }

    /** The sequence or optional held under {@code name}, or null for a tensor (or an unknown name). */
    Object held(String name) {
        return held.get(name);
    }

    /** What {@code name} holds, for messages ("a sequence of 3 tensors", "an empty optional"), or null for a tensor. */
    String describe(String name) {
        Object v = held.get(name);
        if (v instanceof Seq s) return "a sequence of " + s.tensors().size() + " tensor" + (s.tensors().size() == 1 ? "" : "s");
        if (v instanceof Opt o) return o.element() == null ? "an empty optional" : "an optional";
        return null;
    }

    /** {@code to} holds what {@code from} holds (an If's, a Loop's or an Identity's output). */
    void alias(String from, String to) {
        held.put(to, held.get(from));
    }

    /** {@code name} holds {@code value}, a {@link Seq} or an {@link Opt} (a sequence or optional graph input bound at import). */
    void given(String name, Object value) {
        if (!(value instanceof Seq) && !(value instanceof Opt)) throw new IllegalArgumentException(name + ": not a sequence or optional");
        held.put(name, value);
    }

    /** {@code name} holds {@code s} (a SequenceMap's output). */
    void define(String name, Seq s) {
        held.put(name, s);
    }

    /** Whether {@code node} is an Identity of a sequence or optional, which passes it on (Identity-16). */
    boolean passesOn(OnnxModel.Node node) {
        return node.inDefaultDomain() && node.opType().equals("Identity") && node.inputs().size() == 1 && held.containsKey(node.inputs().get(0));
    }

    /**
     * The sequence under input {@code name} of {@code n}, {@code what} naming it in errors.
     *
     * @throws OnnxException (through {@code n.error}) when it is a tensor or an optional
     */
    Seq sequence(NodeContext n, String name, String what) {
        n.require(!name.isEmpty(), what + " is required");
        if (held.get(name) instanceof Seq s) return s;
        throw n.error(what + " '" + name + "' is " + (held.containsKey(name) ? describe(name) : importer.value(name) != null ? "a tensor" : "not defined before the node")
                + ", not a sequence");
    }

    /**
     * Resolves one sequence or optional op (names final), or an Identity of one ({@link #passesOn}).
     *
     * @throws OnnxException (through the node's context) naming the node: an input of the wrong
     *         kind or element type, a position or split computed at run time or out of its range
     *         (Operators.md: SequenceInsert takes [-n, n], SequenceAt and SequenceErase [-n, n-1]),
     *         an empty optional read, an op older than its opset
     */
    void node(OnnxModel.Node node, int index) {
        NodeContext n = importer.context(node, index);
        if (passesOn(node)) {
            n.require(node.outputs().size() == 1, "has " + node.outputs().size() + " outputs; Identity gives one");
            alias(node.inputs().get(0), node.outputs().get(0));
            return;
        }
        n.require(n.opset() >= since(node.opType()), node.opType() + " exists from opset " + since(node.opType()) + " of the default domain");
        n.require(node.outputs().size() == 1 && !node.outputs().get(0).isEmpty(), "has " + node.outputs().size() + " outputs; " + node.opType() + " gives one");
        String out = node.outputs().get(0);
        List<String> in = node.inputs();
        switch (node.opType()) {
            case "SequenceEmpty" -> held.put(out, new Seq(List.of(), n.elementType("dtype", DType.F32)));
            case "SequenceConstruct" -> {
                n.require(!in.isEmpty(), "has no inputs; SequenceConstruct takes one or more tensors");
                DType dt = null;
                for (int j = 0; j < in.size(); j++) {
                    Value v = tensor(n, in.get(j), "input #" + j);
                    if (dt != null && v.dtype() != dt)
                        throw n.error("input #" + j + " " + v + " is " + v.dtype().jsonName() + " but input #0 is " + dt.jsonName()
                                + " (SequenceConstruct: all tensors in 'inputs' must have the same data type)");
                    dt = v.dtype();
                }
                held.put(out, new Seq(in, dt));
            }
            case "SequenceInsert" -> {
                n.require(in.size() == 2 || in.size() == 3, "has " + in.size() + " inputs; SequenceInsert takes input_sequence, tensor and an optional position");
                Seq s = sequence(n, in.get(0), "input_sequence");
                Value t = tensor(n, in.get(1), "tensor");
                if (s.dtype() != null && t.dtype() != s.dtype())
                    throw n.error("tensor " + t + " is " + t.dtype().jsonName() + " but input_sequence '" + in.get(0)
                            + "' holds " + s.dtype().jsonName() + " (SequenceInsert: 'tensor' must have the same data type as 'input_sequence')");
                int n0 = s.tensors().size();
                int at = in.size() == 3 && !in.get(2).isEmpty() ? position(n, in.get(2), n0, n0, true) : n0;
                List<String> l = new ArrayList<>(s.tensors());
                l.add(at, in.get(1));
                held.put(out, new Seq(l, t.dtype()));
            }
            case "SequenceErase" -> {
                n.require(in.size() == 1 || in.size() == 2, "has " + in.size() + " inputs; SequenceErase takes input_sequence and an optional position");
                Seq s = sequence(n, in.get(0), "input_sequence");
                int n0 = s.tensors().size();
                n.require(n0 > 0, "input_sequence '" + in.get(0) + "' is empty: there is no tensor to erase");
                int at = in.size() == 2 && !in.get(1).isEmpty() ? position(n, in.get(1), n0, n0 - 1, false) : n0 - 1;
                List<String> l = new ArrayList<>(s.tensors());
                l.remove(at);
                held.put(out, new Seq(l, s.dtype()));
            }
            case "SequenceAt" -> {
                n.require(in.size() == 2 && !in.get(1).isEmpty(), "has " + in.size() + " inputs; SequenceAt takes input_sequence and position");
                Seq s = sequence(n, in.get(0), "input_sequence");
                int n0 = s.tensors().size();
                n.require(n0 > 0, "input_sequence '" + in.get(0) + "' is empty: there is no tensor at any position");
                identity(n, index, s.tensors().get(position(n, in.get(1), n0, n0 - 1, false)), out);
            }
            case "SequenceLength" -> {
                n.require(in.size() == 1, "has " + in.size() + " inputs; SequenceLength takes input_sequence");
                importer.weight(new Value(out, DType.I64, new long[0]), Constant.fill(sequence(n, in.get(0), "input_sequence").tensors().size()), n);
            }
            case "SplitToSequence" -> splitToSequence(n, index, in, out);
            case "ConcatFromSequence" -> {
                n.require(in.size() == 1, "has " + in.size() + " inputs; ConcatFromSequence takes input_sequence");
                Seq s = sequence(n, in.get(0), "input_sequence");
                n.require(n.hasAttr("axis"), "attribute 'axis' is required");
                long axis = n.integer("axis", 0), newAxis = n.integer("new_axis", 0);
                n.require(newAxis == 0 || newAxis == 1, "attribute 'new_axis' is " + newAxis + ", not 0 or 1");
                n.require(!s.tensors().isEmpty(), "input_sequence '" + in.get(0) + "' is empty: there is no tensor to concatenate");
                if (newAxis == 1) emit.stack(n, index, s.tensors(), axis, out);
                else emit.node(n, index, new OnnxModel.Node(n.opName(), "Concat", "", s.tensors(), List.of(out),
                        Map.of("axis", new OnnxModel.Attribute("axis", OnnxModel.Attribute.INT, axis))));
            }
            case "Optional" -> {
                n.require(in.size() <= 1, "has " + in.size() + " inputs; Optional takes at most one (its element)");
                if (in.isEmpty() || in.get(0).isEmpty()) {
                    held.put(out, new Opt(null));
                    return;
                }
                Object v = held.get(in.get(0));
                n.require(!(v instanceof Opt), "input '" + in.get(0) + "' is an optional; Optional takes a tensor or a sequence");
                if (v == null) tensor(n, in.get(0), "input");
                held.put(out, new Opt(v != null ? v : in.get(0)));
            }
            case "OptionalHasElement" -> {
                n.require(in.size() <= 1, "has " + in.size() + " inputs; OptionalHasElement takes at most one");
                boolean none = in.isEmpty() || in.get(0).isEmpty();
                n.require(!none || n.opset() >= 18, "has no input; OptionalHasElement-15 requires one (it is optional from OptionalHasElement-18, opset 18)");
                boolean has;
                if (none) has = false;
                else if (held.get(in.get(0)) instanceof Opt o) has = o.element() != null;
                else {
                    n.require(n.opset() >= 18, "input '" + in.get(0) + "' is " + (held.containsKey(in.get(0)) ? describe(in.get(0)) : "a tensor")
                            + "; OptionalHasElement-15 takes an optional (a tensor or a sequence from OptionalHasElement-18, opset 18)");
                    if (!held.containsKey(in.get(0))) tensor(n, in.get(0), "input");
                    has = true;
                }
                importer.weight(new Value(out, DType.BOOL, new long[0]), Constant.fill(has ? 1 : 0), n);
            }
            case "OptionalGetElement" -> {
                n.require(in.size() == 1 && !in.get(0).isEmpty(), "has " + in.size() + " inputs; OptionalGetElement takes one");
                Object v = held.get(in.get(0));
                if (v instanceof Opt o) {
                    n.require(o.element() != null, "input '" + in.get(0) + "' is an empty optional (Operators.md, OptionalGetElement: reading one is an error)");
                    v = o.element();
                } else {
                    n.require(n.opset() >= 18, "input '" + in.get(0) + "' is " + (v != null ? describe(in.get(0)) : "a tensor")
                            + "; OptionalGetElement-15 takes an optional (a tensor or a sequence from OptionalGetElement-18, opset 18)");
                    if (v == null) v = in.get(0);
                }
                if (v instanceof Seq s) held.put(out, s);
                else identity(n, index, tensor(n, (String) v, "input").name(), out);
            }
            default -> throw n.error("is not a sequence or optional op");
        }
    }

    /**
     * SplitToSequence: {@code split} absent, chunks of 1 along {@code axis} (squeezed away when
     * {@code keepdims} is 0); a scalar, chunks of that size, the last one smaller where the extent
     * is not divisible; 1-D, one chunk per entry, which must add up to the extent (Operators.md,
     * SplitToSequence). Each chunk is a Slice (a view), Reshaped where squeezed.
     */
    private void splitToSequence(NodeContext n, int index, List<String> in, String out) {
        n.require(in.size() == 1 || in.size() == 2, "has " + in.size() + " inputs; SplitToSequence takes input and an optional split");
        Value x = tensor(n, in.get(0), "input");
        int axis = n.axis(n.integer("axis", 0), x.rank(), "attribute 'axis'");
        long keep = n.integer("keepdims", 1);
        n.require(keep == 0 || keep == 1, "attribute 'keepdims' is " + keep + ", not 0 or 1");
        long extent = x.dim(axis);
        List<Long> lengths = new ArrayList<>();
        boolean squeeze = false;
        if (in.size() == 2 && !in.get(1).isEmpty()) {
            String split = in.get(1);
            Value sv = tensor(n, split, "split");
            n.require(sv.dtype() == DType.I64 || sv.dtype() == DType.I32, "split " + sv + " is " + sv.dtype().jsonName() + ", not int32 or int64");
            n.require(sv.rank() <= 1, "split " + sv + " is neither a scalar nor 1-D");
            double[] c = importer.constant(split);
            if (c == null) throw n.error("split '" + split + "' is computed at run time; arenaplan resolves SplitToSequence only when its split is known at import");
            if (sv.rank() == 0) {
                n.require(c[0] > 0, "split '" + split + "' is " + (long) c[0] + "; a scalar split must be positive");
                long chunk = (long) c[0];
                requireAtMostMaxParts(n, extent / chunk + (extent % chunk == 0 ? 0 : 1));
                for (long at = 0; at < extent; at += chunk) lengths.add(Math.min(chunk, extent - at));
            } else {
                requireAtMostMaxParts(n, c.length);
                long sum = 0;
                for (double d : c) {
                    n.require(d >= 0, "split '" + split + "' holds " + (long) d + "; its entries must be >= 0");
                    lengths.add((long) d);
                    sum += (long) d;
                }
                n.require(sum == extent, "split '" + split + "' adds up to " + sum + " but input " + x + " has " + extent + " along axis " + axis);
            }
        } else {
            requireAtMostMaxParts(n, extent);
            for (long i = 0; i < extent; i++) lengths.add(1L);
            squeeze = keep == 0;
        }
        String axes = weight(n, n.opName() + "/axes", new long[]{axis});
        long[] squeezed = new long[x.rank() - 1];
        for (int d = 0, j = 0; d < x.rank(); d++) if (d != axis) squeezed[j++] = x.dim(d);
        String shape = squeeze ? weight(n, n.opName() + "/shape", squeezed) : null;
        List<String> parts = new ArrayList<>();
        long start = 0;
        for (int i = 0; i < lengths.size(); i++) {
            String prefix = n.opName() + "/" + i;
            String part = importer.fresh(prefix + (squeeze ? "/slice" : ""));
            emit.node(n, index, new OnnxModel.Node(prefix + "/slice", "Slice", "", List.of(x.name(), weight(n, prefix + "/starts", new long[]{start}),
                    weight(n, prefix + "/ends", new long[]{start + lengths.get(i)}), axes), List.of(part), Map.of()));
            if (squeeze) {
                String r = importer.fresh(prefix);
                emit.node(n, index, new OnnxModel.Node(prefix + "/reshape", "Reshape", "", List.of(part, shape), List.of(r), Map.of()));
                part = r;
            }
            parts.add(part);
            start += lengths.get(i);
        }
        held.put(out, new Seq(parts, x.dtype()));
    }

    /**
     * A position known at import, in [-n, {@code last}] (negative counts from the back), as an index.
     * Operators.md declares every position a scalar; with {@code oneElement} a 1-element tensor of any
     * rank is taken too, as SequenceInsert's is in the ONNX backend test test_sequence_insert_at_front
     * ([1]), which ONNX Runtime and the reference implementation (op_sequence_insert.py reads
     * {@code position[0]}) accept.
     *
     * @throws OnnxException (through {@code n.error}) when it is computed at run time, not a scalar
     *         (nor, with {@code oneElement}, a 1-element tensor), not int32/int64, or out of range
     */
    private int position(NodeContext n, String name, int count, int last, boolean oneElement) {
        Value v = tensor(n, name, "position");
        boolean shapeTaken = v.rank() == 0 || oneElement && v.countable() && v.elements() == 1;
        n.require(shapeTaken && (v.dtype() == DType.I64 || v.dtype() == DType.I32),
                "position " + v + " is not an int32 or int64 scalar" + (oneElement ? " or 1-element tensor" : ""));
        double[] c = importer.constant(name);
        if (c == null) throw n.error("position '" + name + "' is computed at run time; arenaplan resolves " + n.opType() + " only when its position is known at import");
        long p = (long) c[0];
        n.require(p >= -count && p <= last, "position '" + name + "' is " + p + ", outside [" + -count + ", " + last + "] for a sequence of " + count);
        return (int) (p < 0 ? p + count : p);
    }

    /** The tensor under {@code name}, {@code what} naming it in errors (a sequence or optional there is refused). */
    private Value tensor(NodeContext n, String name, String what) {
        n.require(!name.isEmpty(), what + " is required");
        n.require(!held.containsKey(name), what + " '" + name + "' is " + describe(name) + ", not a tensor");
        Value v = importer.value(name);
        n.require(v != null, what + " '" + name + "' is not defined before the node");
        return v;
    }

    private void identity(NodeContext n, int index, String from, String to) {
        emit.node(n, index, new OnnxModel.Node(n.opName(), "Identity", "", List.of(from), List.of(to), Map.of()));
    }

    private String weight(NodeContext n, String want, long[] v) {
        String name = importer.fresh(want);
        importer.weight(new Value(name, DType.I64, new long[]{v.length}), Constant.ofLongs(v), n);
        return name;
    }

    /** Refuses a SplitToSequence into more than {@link ControlFlow#MAX_ITERATIONS} tensors, counted before any is listed. */
    private static void requireAtMostMaxParts(NodeContext n, long parts) {
        n.require(parts <= ControlFlow.MAX_ITERATIONS, "splits into " + parts + " tensors; arenaplan resolves sequences of at most " + ControlFlow.MAX_ITERATIONS);
    }
}
