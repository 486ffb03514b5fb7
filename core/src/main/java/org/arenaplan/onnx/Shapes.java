package org.arenaplan.onnx;

import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Output shapes at import from the registry entry itself: the resolved attributes are checked
 * against the kind's {@link AttrSpec}s and its shape rule is applied to the input shapes, so the
 * importer and the graph checks share one rule per kind. A problem is the node's error.
 */
public final class Shapes {
    private Shapes() { }

    /** The byte offset of a Slice view in its input {@code x}: its first row (0 for the other view kinds). */
    static long viewOffset(Lowered l, Value x) {
        if (!l.kind().equals(org.arenaplan.ir.OpKinds.SLICE) || x.rank() == 0) return 0;
        long[] starts = (long[]) l.attrs().get("starts"), axes = (long[]) l.attrs().get("axes"), steps = (long[]) l.attrs().get("steps");
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] != 0) continue;
            long s = starts[i] < 0 ? starts[i] + x.dim(0) : starts[i];
            long last = steps != null && steps[i] < 0 ? x.dim(0) - 1 : x.dim(0);   // ONNX Slice: a negative step clamps start to [0, dim - 1]
            return Math.max(0, Math.min(last, s)) * (x.elements() / Math.max(1, x.dim(0))) * x.dtype().bytes();
        }
        return 0;
    }

    /** The shape of output 0 of {@code kind} with {@code attrs} over {@code inputs}. */
    public static long[] infer(NodeContext n, String kind, Map<String, Object> attrs, Value... inputs) {
        OpSpec spec = OpRegistry.get(kind);
        List<String> names = new ArrayList<>();
        long[][] shapes = new long[inputs.length][];
        for (int i = 0; i < inputs.length; i++) {
            names.add(inputs[i].name());
            shapes[i] = inputs[i].shape();
        }
        Op op = new Op(n.opName(), kind, names, List.of("y"), 0, attrs, null, null, null);
        try {
            for (Map.Entry<String, Object> e : attrs.entrySet()) {
                String problem = spec.attr(e.getKey()).problem(e.getValue());
                if (problem != null) throw new GraphException(problem);
            }
            long[][] out = spec.shape().infer(OpAttrs.of(op), shapes, 1);
            if (out == null) throw new GraphException(kind + " infers no shape from these attributes");
            return out[0];
        } catch (GraphException e) {
            throw n.error(e.getMessage() + " (inputs " + n.shapes() + ")");
        } catch (ArithmeticException e) {
            throw n.error("a tensor size overflows a long (inputs " + n.shapes() + ")");
        }
    }
}
