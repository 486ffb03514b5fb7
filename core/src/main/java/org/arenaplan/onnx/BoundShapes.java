package org.arenaplan.onnx;

import org.arenaplan.ir.Graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Shape values the importer computes from the upper bound of a tensor computed from a data-dependent
 * output (ONNX Shape of it, then Concat, Gather, Slice, Squeeze, Unsqueeze, Identity or Cast of such values
 * and constants), element by element: each element either read from an axis of such a tensor or
 * known before the run. Whether that axis is the bounded one is known only when the graph is built
 * ({@code ir.BoundedTensors}), so each reader leaves an obligation that {@link #check} proves on the
 * built graph, or refuses with the Shape node's line:
 * <ul>
 *   <li>a reader that takes the value as the constant it is at the bound: no element's axis is bounded
 *       (then the bound is the actual extent: {@code Shape(TopK(x[x > 0], 3).values)} is [3]);</li>
 *   <li>a Reshape whose shape holds one read element (HF mixture-of-experts layers,
 *       {@code Reshape(w, Concat(Shape(top_x), [1]))}): the importer writes -1 there, so the
 *       element's axis must be bounded in the same runtime extent as that axis of the output, where
 *       -1 resolves to the same count as the element.</li>
 * </ul>
 * An Expand by a value holding a tensor's whole shape is read as ExpandAs, which the graph checks itself.
 */
final class BoundShapes {
    /** Element {@code axis} of tensor {@code tensor}'s shape. */
    record Source(String tensor, int axis) { }

    /** A shape value: per element its source, or null where it is known before the run; the Shape node's refusal. */
    record Read(Source[] elements, OnnxException refusal) {
        /** The elements read from a tensor's axis. */
        List<Integer> sourced() {
            List<Integer> p = new ArrayList<>();
            for (int i = 0; i < elements.length; i++) if (elements[i] != null) p.add(i);
            return p;
        }
    }

    /**
     * {@code output} axis {@code at} must be bounded by the runtime extent of {@code source}'s axis, and
     * so must {@code input}'s axis {@code at} where given; without output, {@code source}'s axis must not be bounded.
     */
    private record Obligation(Source source, String output, int at, String input, OnnxException refusal, String reader) { }

    private static final Set<String> CARRIERS = Set.of("Concat", "Gather", "Slice", "Squeeze", "Unsqueeze", "Identity", "Cast");

    /** {@code tensor}'s axis {@code axis} must be bounded by the runtime extent of {@code source}'s axis: {@code reader} {@code uses} the element as its extent. */
    private record Tie(Source source, String tensor, int axis, OnnxException refusal, String reader, String uses) { }

    private final Map<String, Read> reads = new HashMap<>();
    private final List<Obligation> obligations = new ArrayList<>();
    private final List<Tie> ties = new ArrayList<>();

    /** Records {@code out} = Shape(of)[start:end] (start and end clamped as ONNX Shape-15). */
    void shape(String out, Value of, long start, long end, OnnxException refusal) {
        Source[] e = new Source[(int) Math.max(0, end - start)];
        for (int i = 0; i < e.length; i++) e[i] = new Source(of.name(), (int) start + i);
        reads.put(out, new Read(e, refusal));
    }

    /** Records {@code out}, a value of {@code elements} ({@link #carried}). */
    void put(String out, Read elements) {
        reads.put(out, elements);
    }

    /** The shape value {@code value} as read here, or null for any other value. */
    Read get(String value) {
        return value == null ? null : reads.get(value);
    }

    /**
     * The elements of {@code node}'s output where it only moves elements of a shape value read here
     * and constants (Concat along axis 0, Gather along axis 0 by constant indices, Slice by constants, Squeeze and
     * Unsqueeze of a scalar or one element, Identity, Cast to an integer), else null.
     */
    Read carried(OnnxModel.Node node, List<Value> ins, java.util.function.Function<String, double[]> constants) {
        Read first = null;
        for (Value v : ins) if (v != null && reads.containsKey(v.name()) && first == null) first = reads.get(v.name());
        if (first == null || !CARRIERS.contains(node.opType()) || !node.inDefaultDomain() || node.outputs().size() != 1) return null;
        Value x = ins.get(0);
        Read r = get(x == null ? null : x.name());
        switch (node.opType()) {
            case "Concat" -> {
                List<Source> all = new ArrayList<>();
                for (Value v : ins) {
                    if (v == null || v.shape().length != 1) return null;
                    Read p = reads.get(v.name());
                    for (int i = 0; i < v.shape()[0]; i++) all.add(p == null ? null : p.elements()[i]);
                }
                return new Read(all.toArray(Source[]::new), first.refusal());
            }
            case "Gather" -> {
                OnnxModel.Attribute at = node.attributes().get("axis");
                double[] idx = ins.size() == 2 && ins.get(1) != null && !reads.containsKey(ins.get(1).name()) ? constants.apply(ins.get(1).name()) : null;
                if (r == null || idx == null || x.shape().length != 1 || (at != null && !Long.valueOf(0).equals(at.value()) && !Long.valueOf(-1).equals(at.value()))) return null;
                Source[] e = new Source[idx.length];
                for (int i = 0; i < idx.length; i++) {
                    long k = (long) idx[i] < 0 ? (long) idx[i] + r.elements().length : (long) idx[i];
                    if (k < 0 || k >= r.elements().length) return null;
                    e[i] = r.elements()[(int) k];
                }
                return new Read(e, r.refusal());
            }
            case "Slice" -> {   // opset 10 on: starts, ends, axes and steps inputs (the TorchScript exporter's flatten: Concat(Shape(x)[0:0], [-1]))
                double[][] v = new double[4][];
                for (int j = 1; j < 5; j++) {
                    Value k = j < ins.size() ? ins.get(j) : null;
                    v[j - 1] = k == null ? (j < 3 ? null : new double[]{j == 3 ? 0 : 1}) : reads.containsKey(k.name()) ? null : constants.apply(k.name());
                    if (v[j - 1] == null || v[j - 1].length != 1) return null;
                }
                if (r == null || x.shape().length != 1 || (v[2][0] != 0 && v[2][0] != -1) || v[3][0] == 0) return null;
                org.arenaplan.ir.IndexShapeRules.Range range = org.arenaplan.ir.CountedSlice.range((long) v[0][0], (long) v[1][0], (long) v[3][0], r.elements().length);
                Source[] e = new Source[(int) range.count()];
                for (int i = 0; i < e.length; i++) e[i] = r.elements()[(int) (range.start() + i * range.step())];
                return new Read(e, r.refusal());
            }
            default -> {   // Squeeze, Unsqueeze, Identity, Cast: the same elements in the same order
                if (r == null || r.elements().length > 1 && !node.opType().equals("Identity") && !node.opType().equals("Cast")) return null;
                return r;
            }
        }
    }

    /** Whether a recorded obligation or tie reads an axis of {@code tensor}, to be proved on the built graph ({@link #check}). */
    boolean sources(String tensor) {
        return obligations.stream().anyMatch(o -> o.source().tensor().equals(tensor)) || ties.stream().anyMatch(t -> t.source().tensor().equals(tensor));
    }

    /** Records that {@code reader} takes {@code value}, a shape value read here, as the constant it is at the bound. */
    void readAsConstant(Read value, String reader) {
        for (Source s : value.elements()) if (s != null) obligations.add(new Obligation(s, null, -1, null, value.refusal(), reader));
    }

    /**
     * Records that the Reshape {@code reader}, its shape's element {@code at} of {@code value} written as -1, needs output
     * axis {@code at} bounded as that element's axis; and its data {@code input}'s axis {@code at} too where given (without
     * allowzero ONNX reads an element 0, a count of 0, as that axis's extent: the same only where that is 0 too).
     */
    void sameExtent(Read value, int at, String output, String input, String reader) {
        obligations.add(new Obligation(value.elements()[at], output, at, input, value.refusal(), reader));
    }

    /**
     * Records that node {@code reader}, which {@code uses} element {@code element} of {@code value} where ONNX
     * takes the actual extent of {@code tensor}'s axis {@code axis} (a Slice's end, an Expand's extent), needs
     * that axis bounded by the same runtime extent as the element's axis: then the element's count is that
     * axis's in every run, and the bound stands for both.
     */
    void sameExtent(Read value, int element, String tensor, int axis, String reader, String uses) {
        ties.add(new Tie(value.elements()[element], tensor, axis, value.refusal(), reader, uses));
    }

    /**
     * Proves each obligation on the built graph.
     *
     * @throws OnnxException the Shape node's refusal, naming the reader and what the graph found
     */
    void check(Graph g) {
        checkTies(g);
        for (Obligation o : obligations) {
            Graph.Bounded b = g.bounded(o.source().tensor());
            boolean bounded = b != null && b.axis() == o.source().axis();
            if (o.output() == null) {
                if (bounded) throw refused(o, "its axis " + o.source().axis() + " of '" + o.source().tensor() + "' is the bounded one, and node " + o.reader()
                        + " reads the value as a constant");
                continue;
            }
            Graph.Bounded y = g.bounded(o.output());
            if (!bounded || y == null || y.axis() != o.at() || !y.extent().equals(b.extent()))
                throw refused(o, "node " + o.reader() + " reshapes with it, which the importer reads only where axis " + o.source().axis() + " of '" + o.source().tensor()
                        + "' and axis " + o.at() + " of its output '" + o.output() + "' are bounded by one runtime extent, and here "
                        + (!bounded ? "'" + o.source().tensor() + "' is not bounded along that axis" : y == null || y.axis() != o.at() ? "the output is not bounded along that axis"
                        : "they are bounded by two extents, whose actual counts may differ"));
            Graph.Bounded x = o.input() == null ? null : g.bounded(o.input());
            if (o.input() != null && (x == null || x.axis() != o.at() || !x.extent().equals(b.extent())))
                throw refused(o, "node " + o.reader() + " reshapes '" + o.input() + "' with it and has no allowzero, so where the count is 0 ONNX reads that"
                        + " element as the extent of axis " + o.at() + " of '" + o.input() + "' (Reshape: 0 copies the input's extent), and here '" + o.input() + "' "
                        + (o.at() >= g.tensor(o.input()).shape().length ? "has no such axis" : x == null || x.axis() != o.at() ? "is not bounded along it"
                        : "is bounded along it by another extent") + ", so such a run fails in ONNX Runtime");
        }
    }

    /**
     * What a graph that fails to build owes to shape values read here: the readers that took one as the
     * constant it is at the upper bound (true only where its axis is not the bounded one, which only the
     * built graph tells, {@link #check}), so that a refusal of an op computed from such a constant (a Slice
     * from (Shape(x[m])[0] - 3) / 2, a quotient {@link CountedSlices} does not record: 1 at the bound 6)
     * names where its value came from; "" where none did.
     */
    String constantReads() {
        List<String> r = obligations.stream().filter(o -> o.output() == null)
                .map(o -> "node " + o.reader() + " took axis " + o.source().axis() + " of '" + o.source().tensor() + "' at its upper bound").distinct().toList();
        return r.isEmpty() ? "" : "; " + String.join(", ", r) + " (Shape is evaluated at import, from the upper bound; a value computed from it is the run's only where "
                + "that axis is not the bounded one)";
    }

    private static OnnxException refused(Obligation o, String why) {
        return new OnnxException(o.refusal().getMessage() + "; " + why, o.refusal());
    }

    private void checkTies(Graph g) {
        for (Tie t : ties) {
            Graph.Bounded b = g.bounded(t.source().tensor()), y = g.bounded(t.tensor());
            if (b != null && b.axis() == t.source().axis() && y != null && y.axis() == t.axis() && y.extent().equals(b.extent())) continue;
            throw new OnnxException(t.refusal().getMessage() + "; node " + t.reader() + " " + t.uses() + " it, which the importer reads only where axis " + t.source().axis()
                    + " of '" + t.source().tensor() + "' and axis " + t.axis() + " of '" + t.tensor() + "' are bounded by one runtime extent, and here "
                    + (b == null || b.axis() != t.source().axis() ? "'" + t.source().tensor() + "' is not bounded along that axis"
                    : y == null || y.axis() != t.axis() ? "'" + t.tensor() + "' is not bounded along that axis" : "they are bounded by two extents, whose actual counts may differ"), t.refusal());
        }
    }

    /** The shape {@code given} (the value at the bound) with -1 at {@code at}. */
    static long[] withRuntimeExtent(double[] given, int at) {
        long[] s = new long[given.length];
        for (int i = 0; i < s.length; i++) s[i] = i == at ? -1 : (long) given[i];
        return s;
    }
}
