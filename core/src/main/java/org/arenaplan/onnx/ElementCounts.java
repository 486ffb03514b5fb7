package org.arenaplan.onnx;

import java.util.List;
import java.util.Map;

/**
 * The element count of a tensor X computed from a data-dependent output, as both torch.onnx exporters write it for
 * {@code x[m].std()} and {@code x[m].var()}: ReduceProd of a shape value holding each axis of X's shape once (read
 * from X's upper bound, {@link BoundShapes}) and constants, over its one axis (the TorchScript exporter's
 * {@code ReduceProd(Shape(X))}, the dynamo exporter's {@code ReduceProd(Gather(Shape(X), [0, 1]))}). Evaluated at
 * import it would be the bound's count; ONNX takes X's actual one. It is imported as the product of the constants
 * times {@code ReduceSum(Expand(1, Shape(X)))}: the Expand is ExpandAs (ones of X's actual shape, the graph checks X
 * bounded when it is built) and the ReduceSum of a bounded tensor counts its actual elements only
 * ({@code ir.BoundedFlows#reduce}), n times the extents of X's other axes, in int64 as ReduceProd's output, whichever
 * axis of X is the bounded one. A product of constants of 0 or one that may overflow is left to the other rules
 * (read as the constant it is at the bound, refused when the graph is built).
 */
final class ElementCounts {
    private final BoundedRewrites.Importer importer;
    private final BoundShapes shapes;
    private final Map<String, String> counted = new java.util.HashMap<>();   // an imported ReduceProd's output -> X

    ElementCounts(BoundedRewrites.Importer importer, BoundShapes shapes) {
        this.importer = importer;
        this.shapes = shapes;
    }

    /** Imports {@code node} as above and returns true where it is such a ReduceProd; false, importing nothing, otherwise. */
    boolean take(OnnxModel.Node node, List<Value> ins, int index, long opset, NodeContext at) {
        if (!node.opType().equals("ReduceProd") || !node.inDefaultDomain() || ins.isEmpty() || ins.get(0) == null || node.outputs().size() != 1
                || node.outputs().get(0).isEmpty() || ins.get(0).shape().length != 1) return false;
        BoundShapes.Read r = shapes.get(ins.get(0).name());
        double[] given = importer.constant(ins.get(0).name());
        if (r == null || given == null || given.length != r.elements().length || !overItsOneAxis(node, ins)) return false;
        String x = null;
        boolean[] seen = null;
        long c = 1;
        try {
            for (int i = 0; i < given.length; i++) {
                BoundShapes.Source s = r.elements()[i];
                if (s == null) {
                    c = Math.multiplyExact(c, (long) given[i]);
                    continue;
                }
                if (x == null) {
                    x = s.tensor();
                    seen = new boolean[importer.value(x).shape().length];
                }
                if (!s.tensor().equals(x) || s.axis() < 0 || s.axis() >= seen.length || seen[s.axis()]) return false;
                seen[s.axis()] = true;
            }
            if (x == null || c <= 0) return false;
            for (boolean b : seen) if (!b) return false;
            Math.multiplyExact(importer.value(x).elements(), c);
        } catch (ArithmeticException overflow) {
            return false;
        }
        OnnxModel.Attribute kd = node.attributes().get("keepdims");
        boolean keep = kd == null || !Long.valueOf(0).equals(kd.value());
        String out = node.outputs().get(0), name = node.name();
        counted.put(out, x);
        String shape = importer.fresh(out + "_actual_shape"), ones = importer.fresh(out + "_ones"), one = importer.int64Weight(out + "_one", new long[]{1}, new long[]{1}, at).name();
        String sum = c == 1 && !keep ? out : importer.fresh(out + "_actual_count"), scaled = keep ? importer.fresh(out + "_scaled") : out;
        importer.node(new OnnxModel.Node(name + "/shape", "Shape", "", List.of(x), List.of(shape), Map.of()), index, opset);
        importer.node(new OnnxModel.Node(name + "/ones", "Expand", "", List.of(one, shape), List.of(ones), Map.of()), index, opset);
        importer.node(new OnnxModel.Node(name + "/count", "ReduceSum", "", List.of(ones), List.of(sum),
                Map.of("keepdims", new OnnxModel.Attribute("keepdims", OnnxModel.Attribute.INT, 0L))), index, opset);
        if (c != 1) importer.node(new OnnxModel.Node(name + "/times", "Mul", "", List.of(sum, importer.int64Weight(out + "_constant_extents", new long[0], new long[]{c}, at).name()),
                List.of(scaled), Map.of()), index, opset);
        if (keep) importer.node(new OnnxModel.Node(name, "Reshape", "", List.of(c == 1 ? sum : scaled, importer.int64Weight(out + "_kept", new long[]{1}, new long[]{1}, at).name()),
                List.of(out), Map.of()), index, opset);
        return true;
    }

    /** The tensor X whose actual element count (times constants greater than 0) {@code name} holds, a ReduceProd {@link #take} imported; else null. */
    String counted(String name) {
        return counted.get(name);
    }

    /** Whether the ReduceProd reduces its input's one axis: no axes (and not noop_with_empty_axes), or axes [0] or [-1], as an attribute or a constant input. */
    private boolean overItsOneAxis(OnnxModel.Node node, List<Value> ins) {
        OnnxModel.Attribute a = node.attributes().get("axes"), noop = node.attributes().get("noop_with_empty_axes");
        double[] axes = ins.size() > 1 && ins.get(1) != null ? importer.constant(ins.get(1).name()) : null;
        if (ins.size() > 1 && ins.get(1) != null && axes == null) return false;
        if (a != null && a.value() instanceof long[] l) {
            axes = new double[l.length];
            for (int i = 0; i < l.length; i++) axes[i] = l[i];
        }
        if (axes == null || axes.length == 0) return noop == null || Long.valueOf(0).equals(noop.value());
        return axes.length == 1 && (axes[0] == 0 || axes[0] == -1);
    }
}
