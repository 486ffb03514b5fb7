package org.arenaplan.onnx;

import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the importer rewrites a node that reads a value read from the upper bound of a tensor
 * computed from a data-dependent output (a Shape's element, {@link BoundShapes}), or a count tied to
 * a NonZero's runtime extent ({@link NonZeroCounts}): such a value is known at import only as the
 * bound, while the run's extent is known only after the kernel runs (docs/onnx.md, "Data-dependent
 * outputs"), so a reader that would take it as a constant is rewritten to one whose output follows
 * the runtime extent, and the tie is checked when the graph is built ({@link BoundShapes#check},
 * {@code ir.BoundedFlows}):
 * <ul>
 *   <li>Reshape by such a shape: the element becomes -1 ({@link #reshapeByBoundShape});</li>
 *   <li>Slice from 0 to such an end: the end becomes the bound, the data's actual extent ({@link #sliceByBoundShape});</li>
 *   <li>Expand of a bounded tensor by such a shape: 1 there, keeping its actual extent ({@link #expandByBoundShape});
 *       Expand of a tensor known before the run by one: ExpandAs by the tensor it was read from
 *       ({@link #expandToExtentOf}); Expand by a bounded tensor's whole shape: ExpandAs ({@link #expandAsOf});</li>
 *   <li>a NonZero of a tensor with an earlier NonZero's elements: an Identity of its output, so both
 *       share one runtime extent ({@link #nonZeroAgain}); a ReduceSum counting a NonZero's true
 *       elements, or a Concat of such counts and constants: recorded as read from that NonZero's extent
 *       ({@link #recordCount}, {@link #recordCounts});</li>
 *   <li>Gather and GatherND of data bounded along an axis past the gathered one: Transposes around a
 *       Gather ({@link #gatherAcrossBoundedAxis}, {@link #gatherNdAsGather});</li>
 *   <li>TopK by k = min(c, n), n a count read from the bound of X's axis (the dynamo exporter's
 *       {@code topk(x[m], min(3, n))}): k min(c, the bound), taken as min(k, the actual count) in the run
 *       ({@link #readsAtMost}, {@link #withClampedK});</li>
 *   <li>ReduceProd of such a tensor's whole shape: its actual element count, computed in the run ({@link #elementCount});</li>
 *   <li>Reshape or Flatten merging or splitting such a tensor's leading axes: a runtime extent of its own ({@link #withReshapeExtent});</li>
 *   <li>Split of a bounded tensor without 'split': a runtime extent per part ({@link #withPartExtents});
 *       along its bounded axis into parts summing to less than the bound: a part for the rest, and the
 *       run checks the parts' sum ({@link #splitWithinBound}, {@link #withRest}).</li>
 *   <li>Concat of a bounded tensor: a runtime extent per input, the last its output's ({@link #withConcatExtents}).</li>
 * </ul>
 * Every rewrite returns its node unchanged (or false, or null) for any other node. The importer gives
 * what the rewrites need of it through {@link Importer}.
 */
final class BoundedRewrites {

    /** What the rewrites need of the importer. */
    interface Importer {
        /** The values of a constant known at import, else null (the importer's {@code constantValues}). */
        double[] constant(String name);

        /** The value named {@code name}, or null where none is defined yet. */
        Value value(String name);

        /** Whether {@code name} is a weight (a constant of the read-only region). */
        boolean isWeight(String name);

        /** A new int64 weight of {@code shape} holding {@code v}, named {@code want} or a fresh variant of it, made for node {@code at}. */
        Value int64Weight(String want, long[] shape, long[] v, NodeContext at);

        /** A value name no file name and no value holds yet, {@code want} or {@code want} with {@code _} added. */
        String fresh(String want);

        /** Imports {@code node} as if the file held it at {@code index} (re-entry for a rewritten node). */
        void node(OnnxModel.Node node, int index, long opset);

        /** The ops scheduled so far, in order. */
        List<ConcatInPlace.Scheduled> schedule();

        /** Values computed from a data-dependent output, each to the node of that output (the importer's map, read and written live). */
        Map<String, String> dataDependent();
    }

    private final Importer importer;
    private final Map<String, String> dataDependent;   // value computed from a data-dependent output -> the node of that output
    /** Shape values evaluated at the upper bound of a tensor computed from a data-dependent output, and what their readers need of the graph. */
    private final BoundShapes boundShapes = new BoundShapes();
    /** Tensors holding the same elements, and the NonZero ops over them: counts tied to one runtime extent. */
    private final NonZeroCounts counts = new NonZeroCounts();
    /** ReduceSum outputs that count a NonZero's true elements: its runtime extent, read from its output's axis 1 ({@link #recordCount}). */
    private final Map<String, BoundValue> counted = new HashMap<>();
    /** The part {@link #splitWithinBound} adds for the rows past a Split's parts, to the Split's input, axis and refusal. */
    private final Map<String, Rest> rests = new LinkedHashMap<>();

    /** A Split of {@code input} along {@code axis}, whose parts sum to less than its bound there ({@link #splitWithinBound}). */
    private record Rest(String input, int axis, OnnxException refusal) { }
    /** Values min(c, n) of a constant c and a count n read from an upper bound, in one element ({@link #readsAtMost}), to n's read. */
    private final Map<String, BoundShapes.Read> atMost = new HashMap<>();
    /** Values output of the TopK ops by such a k ({@link #readsAtMost}), imported with {@code clamp_k} ({@link #withClampedK}). */
    private final Set<String> clampedTopK = new HashSet<>();

    /** Values computed from a count read from an upper bound, and the Slices by them or by the actual extent ({@link CountedSlices}). */
    private final CountedSlices slices;
    /** Element counts of such a tensor (ReduceProd of its whole shape), computed in the run ({@link ElementCounts}). */
    private final ElementCounts elementCounts;

    BoundedRewrites(Importer importer) {
        this.importer = importer;
        this.dataDependent = importer.dataDependent();
        this.slices = new CountedSlices(importer, boundShapes, dataDependent);
        this.elementCounts = new ElementCounts(importer, boundShapes);
    }

    /** Imports {@code node} as {@link ElementCounts#take} does where it is ReduceProd of such a tensor's whole shape, and returns true; false, importing nothing, otherwise. */
    boolean elementCount(OnnxModel.Node node, List<Value> ins, int index, long opset, NodeContext at) {
        return elementCounts.take(node, ins, index, opset, at);
    }

    /** The tensor whose actual element count {@code name} holds, computed in the run ({@link ElementCounts#counted}), or null. */
    String counted(String name) {
        return elementCounts.counted(name);
    }

    /** The values computed from a count read from an upper bound, and the Slices that take the actual extent. */
    CountedSlices slices() {
        return slices;
    }

    /** The shape values read from an upper bound, which the importer records (Shape) and checks (graph outputs, the built graph). */
    BoundShapes shapes() {
        return boundShapes;
    }

    /** Which tensors hold the same elements, and the NonZero ops over them. */
    NonZeroCounts counts() {
        return counts;
    }

    /**
     * {@code node}, or where it is a Reshape of a computed tensor whose shape is a value read from
     * the upper bound of a tensor computed from a data-dependent output with one such element (the
     * others known before the run, none -1), the same Reshape by a constant with -1 there; the
     * output's axis there must then be bounded by the same runtime extent as that element's axis,
     * which {@link BoundShapes#check} proves when the graph is built. -1 then resolves to the same
     * count as the element (HF mixture-of-experts: {@code Reshape(w, Concat(Shape(top_x), [1]))}).
     * Without allowzero (before opset 14, or 0) a count of 0 is ONNX's "copy the input's extent on that
     * axis", so the input's axis there must be bounded by that extent too (else ONNX fails the run
     * that selects nothing, where -1 would give an empty output).
     */
    OnnxModel.Node reshapeByBoundShape(OnnxModel.Node node, List<Value> ins, long opset, NodeContext context) {
        if (!node.opType().equals("Reshape") || !node.inDefaultDomain() || ins.size() != 2 || ins.get(0) == null || ins.get(1) == null
                || importer.isWeight(ins.get(0).name()) || node.outputs().size() != 1) return node;
        BoundShapes.Read s = boundShapes.get(ins.get(1).name());
        double[] given = s == null ? null : importer.constant(ins.get(1).name());
        if (given == null || Arrays.stream(given).anyMatch(v -> v == -1 || v == 0)) return node;
        String origin = dataDependent.get(ins.get(0).name());   // several elements read: the one of the data's origin (the others then read as constants)
        List<Integer> at0 = s.sourced().size() == 1 ? s.sourced()
                : s.sourced().stream().filter(i -> origin != null && origin.equals(dataDependent.get(s.elements()[i].tensor()))).toList();
        if (at0.size() != 1) return node;
        int at = at0.get(0);
        long[] shape = BoundShapes.withRuntimeExtent(given, at);
        Value v = importer.int64Weight(ins.get(1).name() + "_runtime_extent", new long[]{shape.length}, shape, context);
        ins.set(1, v);
        String reader = reader(node);
        OnnxModel.Attribute allowZero = node.attributes().get("allowzero");
        boolean zeroCopies = opset < 14 || allowZero == null || Long.valueOf(0).equals(allowZero.value());
        boundShapes.sameExtent(s, at, node.outputs().get(0), zeroCopies ? ins.get(0).name() : null, reader);
        BoundShapes.Source[] others = s.elements().clone();
        others[at] = null;
        boundShapes.readAsConstant(new BoundShapes.Read(others, s.refusal()), reader);
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), List.of(node.inputs().get(0), v.name()), node.outputs(), node.attributes());
    }

    /**
     * {@code node}, or where it is a Slice of a tensor computed from a data-dependent output whose ends
     * hold an element read from the upper bound of such a tensor, taken from 0 by step 1 along that
     * axis (the TorchScript exporter's {@code y[m] = x[m] * 2}: {@code Slice(x[m] * 2, 0, Shape(rows)[0])}),
     * the same Slice by the ends as constants (the bound there): its data's axis must then be bounded by
     * the same runtime extent as the element's axis, which {@link BoundShapes#check} proves when the graph
     * is built, so that the end is the data's actual extent and the Slice takes all of it.
     */
    OnnxModel.Node sliceByBoundShape(OnnxModel.Node node, List<Value> ins, NodeContext context) {
        if (!node.opType().equals("Slice") || !node.inDefaultDomain() || ins.size() < 3 || ins.get(0) == null || ins.get(1) == null || ins.get(2) == null
                || !dataDependent.containsKey(ins.get(0).name()) || node.outputs().size() != 1
                || slices.read(ins.get(1).name()) != null) return node;   // a start computed from the count (0 at the bound: n * 0, n - 6): CountedSlices takes it
        BoundValue bv = boundValue(ins.get(2).name());
        BoundShapes.Read s = bv == null ? null : bv.read();
        double[] ends = bv == null ? null : bv.values(), starts = importer.constant(ins.get(1).name());
        double[] axes = ins.size() > 3 && ins.get(3) != null ? importer.constant(ins.get(3).name()) : null;
        double[] steps = ins.size() > 4 && ins.get(4) != null ? importer.constant(ins.get(4).name()) : null;
        int rank = ins.get(0).shape().length;
        if (ends == null || starts == null || starts.length != ends.length || (ins.size() > 3 && ins.get(3) != null && (axes == null || axes.length != ends.length))
                || (ins.size() > 4 && ins.get(4) != null && (steps == null || steps.length != ends.length)) || s.sourced().isEmpty()) return node;
        String reader = reader(node);
        for (int i : s.sourced()) {
            long axis = axes == null ? i : (long) axes[i];
            if (starts[i] != 0 || (steps != null && steps[i] != 1) || axis < -rank || axis >= rank) return node;
            int a = (int) Math.floorMod(axis, rank);
            boundShapes.sameExtent(s, i, ins.get(0).name(), a, reader, "ends axis " + a + " of '" + ins.get(0).name() + "' with");
            boundShapes.sameExtent(s, i, node.outputs().get(0), a, reader, "ends axis " + a + " of its output with");
        }
        long[] bound = new long[ends.length];
        for (int i = 0; i < bound.length; i++) bound[i] = (long) ends[i];
        Value v = importer.int64Weight(ins.get(2).name() + "_bound", new long[]{bound.length}, bound, context);
        ins.set(2, v);
        List<String> inputs = new ArrayList<>(node.inputs());
        inputs.set(2, v.name());
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), inputs, node.outputs(), node.attributes());
    }

    /**
     * {@code node}, or where it is an Expand of a tensor X computed from a data-dependent output by a
     * shape holding one element read from the upper bound of such a tensor (the others known before
     * the run), X spanning that output axis (the dynamo exporter's {@code y[m] = x[m] * 2}:
     * {@code Expand(x[m] * 2, ReduceSum(Cast(m)))}, {@link #recordCount}), the same Expand by a
     * constant shape with 1 there, which keeps X's actual extent: X's axis there and the output's must
     * then be bounded by the same runtime extent as the element's axis, which {@link BoundShapes#check}
     * proves when the graph is built. An Expand by a tensor's whole shape stays ExpandAs ({@link #expandAsOf}).
     */
    OnnxModel.Node expandByBoundShape(OnnxModel.Node node, List<Value> ins, NodeContext context) {
        if (!node.opType().equals("Expand") || !node.inDefaultDomain() || ins.size() != 2 || ins.get(0) == null || ins.get(1) == null
                || !dataDependent.containsKey(ins.get(0).name()) || node.outputs().size() != 1 || expandAsOf(node, ins) != null) return node;
        BoundValue bv = boundValue(ins.get(1).name());
        BoundShapes.Read s = bv == null ? null : bv.read();
        double[] given = bv == null ? null : bv.values();
        long[] x = ins.get(0).shape();
        if (given == null || s.sourced().size() != 1) return node;
        int at = s.sourced().get(0), q = at - (given.length - x.length);
        if (q < 0) return node;
        String reader = reader(node);
        boundShapes.sameExtent(s, at, ins.get(0).name(), q, reader, "expands axis " + q + " of '" + ins.get(0).name() + "' by");
        boundShapes.sameExtent(s, at, node.outputs().get(0), at, reader, "expands axis " + at + " of its output by");
        long[] shape = new long[given.length];
        for (int i = 0; i < shape.length; i++) shape[i] = i == at ? 1 : (long) given[i];
        Value v = importer.int64Weight(ins.get(1).name() + "_runtime_extent", new long[]{shape.length}, shape, context);
        ins.set(1, v);
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), List.of(node.inputs().get(0), v.name()), node.outputs(), node.attributes());
    }

    /**
     * ExpandAs(X, Y) with attributes shape, axis and y_axis where {@code node} is an Expand of an X known
     * before the run by a shape holding one element read from the upper bound of Y's axis (the others
     * known before the run), X not spanning that output axis (the dynamo exporter's {@code y[m] = v}:
     * {@code Expand(v, ReduceSum(Cast(m)))}, {@link #recordCount}): the output is as long there as Y's
     * axis in each run, which {@code ir.BoundedFlows#expandAs} checks is bounded when the graph is built.
     * Null for any other node.
     */
    Lowered expandToExtentOf(OnnxModel.Node node, List<Value> ins) {
        if (!node.opType().equals("Expand") || !node.inDefaultDomain() || ins.size() != 2 || ins.get(0) == null || ins.get(1) == null
                || dataDependent.containsKey(ins.get(0).name()) || node.outputs().size() != 1 || node.outputs().get(0).isEmpty() || expandAsOf(node, ins) != null) return null;
        BoundValue bv = boundValue(ins.get(1).name());
        BoundShapes.Read s = bv == null ? null : bv.read();
        double[] given = bv == null ? null : bv.values();
        if (given == null || s.sourced().size() != 1 || !dataDependent.containsKey(s.elements()[s.sourced().get(0)].tensor())) return null;
        long[] x = ins.get(0).shape(), shape = new long[given.length];
        for (int i = 0; i < shape.length; i++) shape[i] = (long) given[i];
        int at = s.sourced().get(0), q = at - (given.length - x.length);
        if (q >= 0 && x[q] != 1) return null;
        long[] out;
        try {
            out = org.arenaplan.ir.ShapeRules.broadcast(x, shape);
        } catch (GraphException e) {
            return null;   // NodeLowering names the shapes
        }
        BoundShapes.Source y = s.elements()[at];
        return new Lowered(OpKinds.EXPAND_AS, List.of(ins.get(0).name(), y.tensor()), List.of(new Value(node.outputs().get(0), ins.get(0).dtype(), out)),
                Map.of("shape", out, "axis", (long) (at + out.length - given.length), "y_axis", (long) y.axis()), false, List.of());
    }

    /**
     * Y where {@code node} is Expand(X, Shape(Y)) with Y computed from a data-dependent output, X
     * broadcasting to Y's shape (at the upper bound) and the shape Y's whole shape; null where it
     * reads no such Shape (a reader of it as a constant is checked when the graph is built, {@link BoundShapes}).
     */
    Value expandAsOf(OnnxModel.Node node, List<Value> ins) {
        if (!node.opType().equals("Expand") || !node.inDefaultDomain() || ins.size() != 2 || ins.get(0) == null || ins.get(1) == null
                || boundShapes.get(ins.get(0).name()) != null) return null;
        BoundShapes.Read s = boundShapes.get(ins.get(1).name());
        if (s == null || s.elements().length == 0 || s.elements()[0] == null) return null;
        Value y = importer.value(s.elements()[0].tensor());
        long[] x = ins.get(0).shape(), ys = y.shape();
        if (s.elements().length != ys.length || !org.arenaplan.ir.ShapeRules.broadcastsTo(x, ys)) return null;
        for (int i = 0; i < ys.length; i++) if (s.elements()[i] == null || !s.elements()[i].equals(new BoundShapes.Source(y.name(), i))) return null;
        return y;
    }

    /**
     * Imports {@code node} as an Identity of an earlier NonZero's output where it is a NonZero of a
     * tensor with the same elements and shape as that one's input ({@link NonZeroCounts#earlier}):
     * the same output in every run, so readers of both share one runtime extent (the TorchScript
     * exporter's {@code y[m] = x[m] * 2}: NonZero of m, then of Expand(m, Shape(x))). False, importing
     * nothing, for any other node.
     */
    boolean nonZeroAgain(OnnxModel.Node node, List<Value> ins, int index, long opset) {
        if (!node.opType().equals("NonZero") || !node.inDefaultDomain() || ins.size() != 1 || ins.get(0) == null || node.outputs().size() != 1) return false;
        String earlier = counts.earlier(ins.get(0).name(), ins.get(0).shape());
        if (earlier == null || !dataDependent.containsKey(earlier)) return false;
        importer.node(new OnnxModel.Node(node.name(), "Identity", "", List.of(earlier), node.outputs(), Map.of()), index, opset);
        return true;
    }

    /**
     * Records in {@link #counted} the value of {@code node} where it is a ReduceSum over every axis of a
     * bool tensor cast to int32 or int64 that an earlier NonZero op counts ({@link NonZeroCounts#counted}:
     * the dynamo exporter's {@code y[m] = v}, {@code Expand(v, ReduceSum(Cast(Reshape(m, [-1]))))}): that
     * NonZero's runtime extent, as read from axis 1 of its output ({@link BoundShapes.Read}, at the upper
     * bound). An Expand or Slice by it is imported by that extent ({@link #boundValue}); every other reader
     * reads the count the ReduceSum computes in the run.
     */
    void recordCount(OnnxModel.Node node, List<Value> ins, long opset, NodeContext n) {
        if (node.opType().equals("Concat")) {
            recordCountConcat(node, ins, n);
            return;
        }
        if (!node.opType().equals("ReduceSum") || !node.inDefaultDomain() || ins.isEmpty() || ins.get(0) == null || node.outputs().size() != 1) return;
        NonZeroCounts.NonZero z = counts.counted(ins.get(0).name());
        if (z == null || !dataDependent.containsKey(z.output())) return;
        Value x = ins.get(0);
        int rank = x.shape().length;
        long[] axes = opset < 13 ? n.ints("axes", null) : null;
        if (opset >= 13 && ins.size() > 1 && ins.get(1) != null) {
            double[] given = importer.constant(ins.get(1).name());
            if (given == null) return;
            axes = new long[given.length];
            for (int i = 0; i < given.length; i++) axes[i] = (long) given[i];
        }
        if (axes != null && axes.length == 0) axes = null;
        if (axes == null && opset >= 13 && n.integer("noop_with_empty_axes", 0) != 0) return;
        if (axes != null && Arrays.stream(axes).map(a -> Math.floorMod(a, Math.max(rank, 1))).distinct().count() != rank) return;
        String nz = dataDependent.get(z.output());
        counted.put(node.outputs().get(0), new BoundValue(new BoundShapes.Read(new BoundShapes.Source[]{new BoundShapes.Source(z.output(), 1)},
                n.error("counts the true elements of '" + x.name() + "', the runtime extent of node '" + nz + "' (NonZero), whose upper bound is " + x.elements())),
                new double[]{x.elements()}));
    }

    /**
     * Records in {@link #counted} the value of {@code node} where it is a Concat along axis 0 of such
     * counts and constants, at least one a count (the dynamo exporter's {@code y[m] = x[m] * 2} with m
     * over x's rows: {@code Expand(x[m] * 2, Concat(ReduceSum(Cast(Reshape(m, [-1]))), [3]))}).
     */
    private void recordCountConcat(OnnxModel.Node node, List<Value> ins, NodeContext n) {
        if (!node.inDefaultDomain() || node.outputs().size() != 1 || n.integer("axis", 0) != 0 && n.integer("axis", 0) != -1) return;
        List<BoundShapes.Source> sources = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        OnnxException refusal = null;
        for (Value v : ins) {
            BoundValue c = v == null ? null : counted.get(v.name());
            double[] k = v == null || c != null ? null : importer.constant(v.name());
            if (v == null || v.shape().length != 1 || (c == null && k == null)) return;
            if (c != null && refusal == null) refusal = c.read().refusal();
            for (int i = 0; i < v.shape()[0]; i++) {
                sources.add(c == null ? null : c.read().elements()[i]);
                values.add(c == null ? k[i] : c.values()[i]);
            }
        }
        if (refusal == null) return;
        counted.put(node.outputs().get(0), new BoundValue(new BoundShapes.Read(sources.toArray(BoundShapes.Source[]::new), refusal),
                values.stream().mapToDouble(Double::doubleValue).toArray()));
    }

    /** A shape value read from an upper bound, and its values there. */
    private record BoundValue(BoundShapes.Read read, double[] values) { }

    /** How a refusal names {@code node} as the reader of a value read from an upper bound: {@code 'name' (OpType)}. */
    private static String reader(OnnxModel.Node node) {
        return "'" + node.name() + "' (" + node.opType() + ")";
    }

    /** {@code name}'s value read from an upper bound: a Shape's ({@link BoundShapes}) or a NonZero's count ({@link #recordCount}); else null. */
    private BoundValue boundValue(String name) {
        BoundShapes.Read s = boundShapes.get(name);
        double[] v = s == null ? null : importer.constant(name);
        return v != null ? new BoundValue(s, v) : counted.get(name);
    }

    /**
     * Imports {@code node} as three nodes where it is a Gather of data that a data-dependent op
     * outputs bounded along an axis b past the gathered one, with axes of more than one element
     * before b (NonZero's [rank, n] gathered along axis 0: torch's {@code x.nonzero().T[i]}), and
     * indices known before the run: a Transpose bringing b to the front (its lowering transposes
     * the actual tensor, {@code transpose_bounded}), a Gather along the axis after it (rows stay
     * rows, {@code ir.BoundedFlows.gather}), and a Transpose putting the bounded axis where ONNX's
     * Gather has it (none where that is axis 0). Gathered in place, the rows picked from the
     * compact actual tensor would lie apart. False, importing nothing, for any other node.
     */
    boolean gatherAcrossBoundedAxis(OnnxModel.Node node, List<Value> ins, int index, long opset) {
        if (!node.opType().equals("Gather") || !node.inDefaultDomain() || ins.size() != 2 || ins.get(0) == null || ins.get(1) == null
                || node.outputs().size() != 1 || dataDependent.containsKey(ins.get(1).name())) return false;
        long[] d = ins.get(0).shape();
        OnnxModel.Attribute at = node.attributes().get("axis");
        long axisGiven = at != null && at.value() instanceof Long v ? v : 0;
        if (axisGiven < -d.length || axisGiven >= d.length) return false;   // NodeLowering names the bad axis
        int a = (int) Math.floorMod(axisGiven, d.length), b = directBoundedAxis(ins.get(0).name());
        if (b <= a || Arrays.stream(d, 0, b).reduce(1, (x, y) -> x * y) == 1) return false;
        int q = ins.get(1).shape().length, rank = d.length, j = b - 1 + q;   // j: the bounded axis of ONNX's output
        long[] front = new long[rank];
        front[0] = b;
        for (int k = 1; k < rank; k++) front[k] = k <= b ? k - 1 : k;
        String out = node.outputs().get(0), name = node.name();
        String moved = importer.fresh(out + "_bounded_first"), gathered = j == 0 ? out : importer.fresh(out + "_gathered");
        importer.node(new OnnxModel.Node(name + "/bounded_first", "Transpose", "", List.of(ins.get(0).name()), List.of(moved),
                Map.of("perm", new OnnxModel.Attribute("perm", OnnxModel.Attribute.INTS, front))), index, opset);
        importer.node(new OnnxModel.Node(j == 0 ? name : name + "/gather", "Gather", "", List.of(moved, ins.get(1).name()), List.of(gathered),
                Map.of("axis", new OnnxModel.Attribute("axis", OnnxModel.Attribute.INT, (long) a + 1))), index, opset);
        if (j == 0) return true;
        long[] back = new long[rank - 1 + q];
        for (int k = 0; k < back.length; k++) back[k] = k < j ? k + 1 : k == j ? 0 : k;
        importer.node(new OnnxModel.Node(name, "Transpose", "", List.of(gathered), List.of(out),
                Map.of("perm", new OnnxModel.Attribute("perm", OnnxModel.Attribute.INTS, back))), index, opset);
        return true;
    }

    /**
     * Imports {@code node} as a Gather along axis 0 where it is a GatherND (batch_dims 0) of data that
     * a data-dependent op outputs bounded along an axis past 0, by index tuples of one element known
     * at import: GatherND(data, indices [.., 1]) is Gather(data, indices[.., 0], axis 0) (both wrap a
     * negative index by axis 0's extent), which {@link #gatherAcrossBoundedAxis} imports (the dynamo
     * exporter's {@code x.nonzero().T[tensor([2, 0])]}: NonZero's [rank, n] by [[2], [0]]). False,
     * importing nothing, for any other node.
     */
    boolean gatherNdAsGather(OnnxModel.Node node, List<Value> ins, int index, long opset, NodeContext at) {
        if (!node.opType().equals("GatherND") || !node.inDefaultDomain() || ins.size() != 2 || ins.get(0) == null || ins.get(1) == null || node.outputs().size() != 1) return false;
        OnnxModel.Attribute bd = node.attributes().get("batch_dims");
        long[] is = ins.get(1).shape();
        double[] idx = importer.constant(ins.get(1).name());
        if ((bd != null && !Long.valueOf(0).equals(bd.value())) || is.length == 0 || is[is.length - 1] != 1 || idx == null || directBoundedAxis(ins.get(0).name()) <= 0) return false;
        long[] tuples = new long[idx.length];
        for (int i = 0; i < idx.length; i++) tuples[i] = (long) idx[i];
        Value v = importer.int64Weight(ins.get(1).name() + "_first", Arrays.copyOf(is, is.length - 1), tuples, at);
        importer.node(new OnnxModel.Node(node.name(), "Gather", "", List.of(ins.get(0).name(), v.name()), node.outputs(),
                Map.of("axis", new OnnxModel.Attribute("axis", OnnxModel.Attribute.INT, 0L))), index, opset);
        return true;
    }

    /** The bounded axis of {@code name} where a scheduled data-dependent op outputs it ({@link #boundedAxis}), else -1. */
    int directBoundedAxis(String name) {
        for (ConcatInPlace.Scheduled s : importer.schedule())
            if (s.op().outputs().stream().anyMatch(v -> v.name().equals(name))) return boundedAxis(s.name(), s.op(), name, importer.value(name).shape());
        return -1;
    }

    /** The axis of output {@code name} (of {@code shape}) that its kind's {@link org.arenaplan.ir.OpSpec.BoundedRule} bounds, or -1 (no such rule, or an output known before the run). */
    static int boundedAxis(String node, Lowered l, String name, long[] shape) {
        org.arenaplan.ir.OpSpec spec = org.arenaplan.ir.OpRegistry.get(l.kind());
        List<String> outs = l.outputs().stream().map(Value::name).toList();
        if (spec == null || spec.bounded() == null || !outs.contains(name)) return -1;
        org.arenaplan.ir.Op op = new org.arenaplan.ir.Op(node, l.kind(), l.inputs(), outs, 0, l.attrs(), null, null, null);
        return spec.bounded().axis(org.arenaplan.ir.OpAttrs.of(op), shape, outs.indexOf(name));
    }

    /**
     * {@code l}, a Split without ONNX's 'split' of a tensor computed from a data-dependent output,
     * with a runtime extent (int64 [1], {@code <part>#extent}) per part after the parts, which its
     * kernel writes where the split axis is the bounded one ({@link org.arenaplan.ir.BoundedFlows#split};
     * which axis is bounded is known once the graph is built); else {@code l}.
     */
    Lowered withPartExtents(Lowered l) {
        if (!l.kind().equals(OpKinds.SPLIT) || !l.attrs().containsKey("even")) return l;
        return withExtentOutputs(l, l.outputs().stream().map(v -> v.name() + "#extent").toList());
    }

    /**
     * {@code l}, a Concat of a tensor computed from a data-dependent output, with one runtime extent (int64 [1]) per
     * input after its output, the rows written up to and including that input ({@code <output>#rows}), the last the
     * output's own ({@code <output>#extent}), which its kernels write where the inputs are bounded along the concat
     * axis ({@link org.arenaplan.ir.BoundedFlows#CONCAT}; which axis is bounded is known once the graph is built);
     * else {@code l}.
     */
    Lowered withConcatExtents(Lowered l) {
        if (!l.kind().equals(OpKinds.CONCAT) || l.outputs().size() != 1) return l;
        String y = l.outputs().get(0).name();
        List<String> names = new ArrayList<>();
        for (int j = 0; j < l.inputs().size(); j++) names.add(y + (j == l.inputs().size() - 1 ? "#extent" : "#rows"));
        return withExtentOutputs(l, names);
    }

    /**
     * {@code l}, a Reshape or Flatten of a tensor computed from a data-dependent output that merges or splits its
     * first axis of more than one element (no output axis of that extent with as many elements before and after it:
     * {@code x[m].view(-1)}, {@code x[m].reshape(-1, 1)} of rows [n, 3]; {@code flat.view(-1, 3)}), with
     * {@code extents} 1 and a runtime extent output ({@code <output>#extent}, int64 [1]): where that axis is the
     * bounded one, the output stays a view and its kernel writes its actual extent ({@link org.arenaplan.ir.BoundedFlows#RESHAPE});
     * which axis is bounded is known once the graph is built. Else {@code l}.
     */
    Lowered withReshapeExtent(Lowered l) {
        if (!(l.kind().equals(OpKinds.RESHAPE) || l.kind().equals(OpKinds.FLATTEN)) || l.outputs().size() != 1) return l;
        long[] x = importer.value(l.inputs().get(0)).shape(), y = l.outputs().get(0).shape();
        int b = 0;
        while (b < x.length && x[b] == 1) b++;
        try {
            if (b == x.length || BoundedFlows.keptAxis(x, b, y) >= 0) return l;
        } catch (GraphException twoAxes) {   // axes of one element about it: the graph names them
            return l;
        }
        return withExtentOutputs(l, List.of(l.outputs().get(0).name() + "#extent"));
    }

    /** {@code l} with {@code extents} 1 and one int64 [1] runtime extent output per name (made fresh) after its outputs. */
    private Lowered withExtentOutputs(Lowered l, List<String> names) {
        List<Value> outputs = new ArrayList<>(l.outputs());
        for (String n : names) outputs.add(new Value(importer.fresh(n), DType.I64, new long[]{1}));
        Map<String, Object> attrs = new LinkedHashMap<>(l.attrs());
        attrs.put("extents", 1L);
        return new Lowered(l.kind(), l.inputs(), outputs, attrs, l.view(), l.dropped());
    }

    /**
     * {@code node}, or where it is a Split of a tensor computed from a data-dependent output into parts of
     * fixed extents (its {@code split}, known at import) that sum to less than that tensor's upper bound
     * along the split axis, the same Split with one more part, named {@code <output 0>#rest}, for the rows
     * past them (the TorchScript exporter's {@code x[mask].split(2)}: the sizes of the traced run, [2, 2] of
     * a bound 6). ONNX needs the parts to sum to the actual extent, so the Split imported so ({@link #withRest},
     * attribute {@code rest}) checks in the run that the runtime extent is their sum ({@code device.ExtentCheck},
     * exit 2 before the launch, as ONNX Runtime fails such a run); the split axis must be the bounded one,
     * which {@link #checkRests} and {@code ir.BoundedFlows#split} prove when the graph is built.
     */
    OnnxModel.Node splitWithinBound(OnnxModel.Node node, List<Value> ins, long opset, NodeContext context) {
        if (!node.opType().equals("Split") || !node.inDefaultDomain() || ins.isEmpty() || ins.get(0) == null || !dataDependent.containsKey(ins.get(0).name())
                || node.outputs().isEmpty() || node.outputs().get(0).isEmpty()) return node;
        Value x = ins.get(0);
        int rank = x.shape().length;
        OnnxModel.Attribute at = node.attributes().get("axis"), split = node.attributes().get("split");
        long axisGiven = at != null && at.value() instanceof Long v ? v : 0;
        if (axisGiven < -rank || axisGiven >= rank) return node;   // the Split's import names the bad axis
        int a = (int) Math.floorMod(axisGiven, (long) rank);
        double[] given = opset >= 13 ? (ins.size() > 1 && ins.get(1) != null ? importer.constant(ins.get(1).name()) : null)
                : split != null && split.value() instanceof long[] v ? Arrays.stream(v).asDoubleStream().toArray() : null;
        if (given == null || given.length != node.outputs().size() || Arrays.stream(given).anyMatch(p -> p < 0)) return node;
        long[] parts = Arrays.copyOf(Arrays.stream(given).mapToLong(p -> (long) p).toArray(), given.length + 1);
        long sum = Arrays.stream(parts).sum(), bound = x.shape()[a];
        if (sum >= bound) return node;
        parts[given.length] = bound - sum;
        String rest = importer.fresh(node.outputs().get(0) + "#rest");
        rests.put(rest, new Rest(x.name(), a, context.error("split " + Arrays.toString(Arrays.copyOf(parts, given.length)) + " sums to " + sum + ", not to " + bound)));
        List<String> outputs = new ArrayList<>(node.outputs());
        outputs.add(rest);
        List<String> inputs = new ArrayList<>(node.inputs());
        Map<String, OnnxModel.Attribute> attrs = new LinkedHashMap<>(node.attributes());
        if (opset >= 13) {
            Value v = importer.int64Weight(ins.get(1).name() + "_with_rest", new long[]{parts.length}, parts, context);
            ins.set(1, v);
            inputs.set(1, v.name());
        } else {
            attrs.put("split", new OnnxModel.Attribute("split", OnnxModel.Attribute.INTS, parts));
        }
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), inputs, outputs, attrs);
    }

    /** {@code l} with attribute {@code rest} 1 where it is a Split that {@link #splitWithinBound} gave a part for the rest; else {@code l}. */
    Lowered withRest(Lowered l) {
        if (!l.kind().equals(OpKinds.SPLIT) || l.outputs().isEmpty() || !rests.containsKey(l.outputs().get(l.outputs().size() - 1).name())) return l;
        Map<String, Object> attrs = new LinkedHashMap<>(l.attrs());
        attrs.put("rest", 1L);
        return new Lowered(l.kind(), l.inputs(), l.outputs(), attrs, l.view(), l.dropped());
    }

    /**
     * Whether {@code node} reads values min(c, n) ({@link #atMost}) only as this class accounts for them,
     * recording what it learns; the importer then takes no other obligation for its inputs:
     * <ul>
     *   <li>Min of a constant c (one element, not negative) and a count n read from an upper bound in one
     *       element ({@link BoundShapes}; {@code Min(3, Squeeze(Shape(x[m], 0, 1)))}): its output is min(c, n);</li>
     *   <li>Reshape, Squeeze, Unsqueeze, Identity of such a value to one element: the same value;</li>
     *   <li>TopK (opset 10 on) by such a k of an X computed from a data-dependent output: where n's axis and
     *       X's TopK axis are bounded by one runtime extent, which {@link BoundShapes#check} proves when the graph
     *       is built, ONNX takes min(c, X's actual count) there in each run, so the TopK is imported with k =
     *       min(c, the bound), as the value was evaluated at import, and {@code clamp_k} ({@link #withClampedK}),
     *       its outputs bounded by X's runtime extent.</li>
     * </ul>
     * Any other reader of such a value reads it as the constant it is at the bound ({@link #atMostRead}).
     */
    boolean readsAtMost(OnnxModel.Node node, List<Value> ins) {
        if (!node.inDefaultDomain() || node.outputs().size() < 1 || ins.isEmpty() || ins.get(0) == null) return false;
        String out = node.outputs().get(0);
        switch (node.opType()) {
            case "Min" -> {
                if (ins.size() != 2 || ins.get(1) == null || node.outputs().size() != 1) return false;
                for (int j = 0; j < 2; j++) {
                    BoundShapes.Read n = boundShapes.get(ins.get(j).name());
                    double[] c = importer.constant(ins.get(1 - j).name());
                    if (n == null || n.elements().length != 1 || n.elements()[0] == null || boundShapes.get(ins.get(1 - j).name()) != null
                            || c == null || c.length != 1 || c[0] < 0) continue;
                    atMost.put(out, n);
                    return true;
                }
                return false;
            }
            case "Reshape", "Squeeze", "Unsqueeze", "Identity" -> {
                BoundShapes.Read n = atMost.get(ins.get(0).name());
                if (n == null || node.outputs().size() != 1) return false;
                atMost.put(out, n);
                return true;
            }
            case "TopK" -> {
                BoundShapes.Read n = ins.size() == 2 && ins.get(1) != null ? atMost.get(ins.get(1).name()) : null;
                Value x = ins.get(0);
                OnnxModel.Attribute at = node.attributes().get("axis");
                long axis = at != null && at.value() instanceof Long v ? v : -1;
                int rank = x.shape().length;
                if (n == null || axis < -rank || axis >= rank || !dataDependent.containsKey(x.name()) || out.isEmpty()) return false;
                int a = (int) Math.floorMod(axis, (long) rank);
                boundShapes.sameExtent(n, 0, x.name(), a, reader(node), "takes its k as the minimum of a constant and");
                clampedTopK.add(out);
                return true;
            }
            default -> { return false; }
        }
    }

    /** {@code name}'s count read from an upper bound where it is a value min(c, n) ({@link #readsAtMost}), else null. */
    private BoundShapes.Read atMostRead(String name) {
        return name == null ? null : atMost.get(name);
    }

    /**
     * What value {@code name} read from an upper bound: a shape value's read ({@link #shapes}), a min(c, n)'s
     * ({@link #atMostRead}) or a value computed from a count's ({@link CountedSlices#read}); null where none. At most
     * one records a name: the importer asks the later ones only of a node the earlier ones did not take.
     */
    BoundShapes.Read boundRead(String name) {
        if (name == null) return null;
        BoundShapes.Read r = boundShapes.get(name);
        if (r == null) r = atMostRead(name);
        return r != null ? r : slices.read(name);
    }

    /** {@code l} with attribute {@code clamp_k} 1 where it is a TopK {@link #readsAtMost} admitted; else {@code l}. */
    Lowered withClampedK(Lowered l) {
        if (l.outputs().isEmpty() || !clampedTopK.contains(l.outputs().get(0).name())) return l;
        Map<String, Object> attrs = new LinkedHashMap<>(l.attrs());
        attrs.put("clamp_k", 1L);
        return new Lowered(l.kind(), l.inputs(), l.outputs(), attrs, l.view(), l.dropped());
    }

    /**
     * Proves on the built graph that each Split {@link #splitWithinBound} imported splits its input along
     * the input's bounded axis (else its parts, summing to less than the axis's extent, are a bad split).
     *
     * @throws OnnxException the Split's refusal, with what the graph found
     */
    void checkRests(org.arenaplan.ir.Graph g) {
        for (Rest r : rests.values()) {
            org.arenaplan.ir.Graph.Bounded b = g.bounded(r.input());
            if (b == null || b.axis() != r.axis())
                throw new OnnxException(r.refusal().getMessage() + "; '" + r.input() + "' is computed from a data-dependent output, but its axis " + r.axis()
                        + " is not the bounded one, so its extent is known before the run", r.refusal());
        }
    }

    /**
     * Records in {@link #counts} what {@code node}, imported as {@code l}, tells of equal elements: a
     * NonZero op; a view or an Expand to its input's shape (the same elements in the same order; also
     * Expand(X, Shape(Y)) imported as ExpandAs, {@link #expandAsOf}: Y's actual shape is X's, since the
     * graph refuses it unless X is bounded as Y is, {@code ir.BoundedFlows#expandAs}); a bool tensor
     * cast to int32 or int64.
     */
    void recordCounts(OnnxModel.Node node, List<Value> ins, Lowered l) {
        if (!node.inDefaultDomain() || ins.isEmpty() || ins.get(0) == null || node.outputs().isEmpty()) return;
        Value x = ins.get(0), y = importer.value(node.outputs().get(0));   // NonZero's output 0 (its Lowered's is the runtime extent)
        if (y == null) return;
        switch (node.opType()) {
            case "NonZero" -> { if (l.kind().equals("NonZero")) counts.nonZero(y.name(), x.name(), x.shape()); }
            case "Identity", "Reshape", "Flatten", "Squeeze" -> { if (y.elements() == x.elements()) counts.copies(y.name(), x.name()); }
            case "Unsqueeze" -> {
                if (y.elements() != x.elements()) return;
                counts.copies(y.name(), x.name());
                counts.repeats(y.name(), y.shape(), x.name(), x.shape());
            }
            case "Expand" -> {
                if (Arrays.equals(x.shape(), y.shape())) counts.copies(y.name(), x.name());
                else if (x.shape().length == y.shape().length) counts.repeats(y.name(), y.shape(), x.name(), x.shape());
            }
            case "Cast" -> {
                if (x.dtype() == DType.BOOL && (y.dtype() == DType.I64 || y.dtype() == DType.I32 && x.elements() <= Integer.MAX_VALUE)) counts.castsBool(y.name(), x.name());
            }
            default -> { }
        }
    }
}
