package org.arenaplan.ir;

import org.arenaplan.io.Printable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which tensors of a graph are bounded, and by which runtime extent: the data-dependent outputs of
 * the {@link OpSpec.BoundedRule} kinds (NonZero, Compress, Unique, NonMaxSuppression), and the
 * outputs of the ops that read one through their kind's {@link OpSpec.BoundedFlow}, which share its
 * extent, or take one the op writes ({@link OpSpec.BoundedFlow#ownExtents}: Split's parts of the
 * bounded axis). One pass over the schedule when the graph is built; every other reader is refused in one
 * line naming it and the op whose extent bounds what it reads.
 */
final class BoundedTensors {
    private BoundedTensors() { }

    /**
     * @param tensors every tensor of the graph, by name
     * @param ops     the ops in schedule order (inputs written before they are read)
     * @return each bounded tensor's extent and axis
     * @throws GraphException naming the op and the tensor, for an op that reads a runtime extent, a
     *         bounded tensor its kind does not carry (or carries only otherwise: the rule's reason),
     *         tensors bounded by two extents, or writes a bounded output of a packed element type
     */
    static Map<String, Graph.Bounded> of(Map<String, Tensor> tensors, List<Op> ops) {
        Map<String, Graph.Bounded> bounded = new HashMap<>();
        Map<String, Op> extentOf = new HashMap<>();   // runtime extent -> the op that writes it
        for (int p = 0; p < ops.size(); p++) {
            Op op = ops.get(p);
            OpSpec spec = OpRegistry.get(op.kind());
            String where = "op '" + Printable.name(op.name()) + "' (" + Printable.name(op.kind()) + ", position " + p + ")";
            int[] axes = new int[op.inputs().size()];
            String read = null, extent = null, other = null;   // other: an input bounded by another extent than read's
            int takes = spec == null || spec.carries() == null ? -1 : spec.carries().extentOf();
            for (int j = 0; j < axes.length; j++) {
                String t = op.inputs().get(j);
                Op from = extentOf.get(t);
                if (from != null)
                    throw new GraphException(where + " reads '" + Printable.name(t) + "', the runtime extent of op '" + Printable.name(from.name()) + "' (" + from.kind() + "), which only the executors read after the run");
                Graph.Bounded b = bounded.get(t);
                axes[j] = b == null ? -1 : b.axis();
                if (b == null) continue;
                if (extent != null && !extent.equals(b.extent()) && takes < 0 && other == null) other = t;
                if (read == null || j == takes) {   // the outputs take input `takes`'s extent where the kind reads two
                    read = t;
                    extent = b.extent();
                }
            }
            if (other != null && !readsExtents(tensors, op, spec, axes))
                throw new GraphException(where + " reads '" + Printable.name(read) + "' and '" + Printable.name(other) + "', bounded by the runtime extents of op '" + extentOf.get(extent).name()
                        + "' and op '" + Printable.name(extentOf.get(bounded.get(other).extent()).name()) + "', whose actual extents may differ");
            if (spec != null && spec.bounded() != null) {
                if (read != null && spec.carries() == null) throw refusal(where, read, extentOf.get(extent), op.kind() + " reads no bounded tensor");
                if (read != null) outputAxes(tensors, op, spec, axes, where, read, extentOf.get(extent));   // its own outputs: its own extent
                if (op.outputs().isEmpty()) continue;
                extentOf.put(op.outputs().get(0), op);
                for (int k = 1; k < op.outputs().size(); k++) {
                    Tensor y = tensors.get(op.outputs().get(k));
                    if (!y.hasShape()) continue;
                    int axis = spec.bounded().axis(OpAttrs.of(op), y.shape(), k);
                    if (axis >= 0) bounded.put(y.name(), new Graph.Bounded(op.outputs().get(0), axis));
                }
                continue;
            }
            int firstExtent = spec == null || spec.carries() == null ? op.outputs().size() : spec.carries().extentOutputs(OpAttrs.of(op), op.outputs().size());
            for (int k = firstExtent; k < op.outputs().size(); k++) extentOf.put(op.outputs().get(k), op);   // runtime extents it writes for its other outputs
            if (read == null) continue;
            Op origin = extentOf.get(extent);
            if (spec == null || spec.carries() == null)
                throw refusal(where, read, origin, op.kind() + " does not read a bounded tensor (docs/onnx.md, \"Data-dependent outputs\", lists the ops that do)");
            int[] outAxes = outputAxes(tensors, op, spec, axes, where, read, origin);
            long[][] in = new long[axes.length][];
            for (int j = 0; j < axes.length; j++) in[j] = tensors.get(op.inputs().get(j)).shape();
            int[] own = spec.carries().ownExtents(OpAttrs.of(op), in, axes, outAxes.length);
            for (int k = 0; k < outAxes.length; k++) {
                if (outAxes[k] < 0) continue;
                Tensor y = tensors.get(op.outputs().get(k));
                if (y.dtype() != null && y.dtype().isPacked())
                    throw refusal(where, read, origin, "its output '" + Printable.name(y.name()) + "' is " + y.dtype().jsonName() + ", packed, whose tail the executors cannot zero element by element");
                bounded.put(y.name(), new Graph.Bounded(own[k] >= 0 ? op.outputs().get(own[k]) : extent, outAxes[k]));
            }
        }
        return bounded;
    }

    /** Whether {@code op}'s kind reads its inputs bounded by different runtime extents ({@link OpSpec.BoundedFlow#readsExtents}), its shapes known. */
    private static boolean readsExtents(Map<String, Tensor> tensors, Op op, OpSpec spec, int[] axes) {
        if (spec == null || spec.carries() == null) return false;
        long[][] in = new long[axes.length][];
        for (int j = 0; j < axes.length; j++) {
            Tensor x = tensors.get(op.inputs().get(j));
            if (!x.hasShape()) return false;
            in[j] = x.shape();
        }
        return spec.carries().readsExtents(OpAttrs.of(op), in, axes);
    }

    /** The kind's {@link OpSpec.BoundedFlow} over {@code op}'s shapes: per output, its bounded axis or -1; its refusal in one line. */
    private static int[] outputAxes(Map<String, Tensor> tensors, Op op, OpSpec spec, int[] axes, String where, String read, Op origin) {
        long[][] in = new long[axes.length][], out = new long[op.outputs().size()][];
        for (int j = 0; j < axes.length; j++) in[j] = shape(tensors, op.inputs().get(j), where, read, origin);
        for (int k = 0; k < out.length; k++) out[k] = shape(tensors, op.outputs().get(k), where, read, origin);
        try {
            return spec.carries().outputs(OpAttrs.of(op), in, axes, out);
        } catch (GraphException e) {
            throw refusal(where, read, origin, op.kind() + " reads it only where its kernels leave the result compact, and here " + e.getMessage());
        }
    }

    private static long[] shape(Map<String, Tensor> tensors, String t, String where, String read, Op origin) {
        Tensor x = tensors.get(t);
        if (!x.hasShape()) throw refusal(where, read, origin, "tensor '" + Printable.name(t) + "' has no shape");
        return x.shape();
    }

    /**
     * "op 'r' (ReduceSum, position 2) reads 'y', a data-dependent output of op 'nz' (NonZero), whose
     * shape is known only after its kernel runs; WHY" ("computed from a data-dependent output" where
     * {@code read} is not the origin's own output).
     */
    private static GraphException refusal(String where, String read, Op origin, String why) {
        return new GraphException(where + " reads '" + Printable.name(read) + "', " + (origin.outputs().contains(read) ? "a" : "computed from a") + " data-dependent output of op '"
                + origin.name() + "' (" + origin.kind() + "), whose shape is known only after its kernel runs; " + why);
    }
}
