package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An If that guards its else branch against an empty tensor computed from a data-dependent output, as
 * torchvision's {@code batched_nms} does in every detection model the TorchScript exporter writes
 * ({@code if boxes.numel() == 0: return torch.empty((0,), dtype=torch.int64)}, scripted within a trace): the
 * condition is {@code Cast(Equal(ReduceProd(Shape(X)), 0))} (the Cast optional, the 0 on either side), X's count
 * known only in the run ({@link ElementCounts}), and the then branch gives empty constants. Such an If is imported
 * as its else branch where, with X empty, each else output is empty too and of the then output's shape: then both
 * branches give the same tensor in every run. The else outputs are proved empty on the built graph
 * ({@link #check}): each is bounded with X's runtime extent (computed from X by ops that keep its rows), or with
 * that of a NonMaxSuppression whose boxes are bounded along their box axis with X's runtime extent (no boxes, no
 * selections); the tensor read for the count is X itself, its other axes not empty. An If of this shape that the
 * graph does not prove is refused naming the output and why; any other condition computed at run time is refused
 * as before ({@link ControlFlow}).
 */
final class EmptyGuards {
    /** What the recognition needs from the importer. */
    interface Importer {
        /** The ONNX node of the main graph that outputs {@code name}, or null. */
        OnnxModel.Node producer(String name);

        /** The values of {@code name} known at import, or null. */
        double[] constant(String name);

        /** The tensor whose actual element count {@code name} holds, computed in the run ({@link ElementCounts}), or null. */
        String counted(String name);

        /** The value defined under {@code name}, or null. */
        Value value(String name);
    }

    /** One If imported as its else branch: the tensor tested, the If's outputs, the then branch's shapes, and the refusal should the graph not prove it. */
    private record Guard(String tested, List<String> outputs, List<long[]> thenShapes, OnnxException refusal) { }

    private final Importer importer;
    private final List<Guard> guards = new ArrayList<>();

    EmptyGuards(Importer importer) {
        this.importer = importer;
    }

    /** The tensor X where {@code cond} is {@code numel(X) == 0} with X's count computed in the run (optionally cast to bool); else null. */
    String tested(String cond) {
        OnnxModel.Node n = importer.producer(cond);
        if (n != null && n.inDefaultDomain() && n.opType().equals("Cast") && n.inputs().size() == 1) {
            OnnxModel.Attribute to = n.attributes().get("to");
            if (to == null || !Long.valueOf(9).equals(to.value())) return null;   // 9: BOOL
            n = importer.producer(n.inputs().get(0));
        }
        if (n == null || !n.inDefaultDomain() || !n.opType().equals("Equal") || n.inputs().size() != 2) return null;
        for (int side = 0; side < 2; side++) {
            double[] zero = importer.constant(n.inputs().get(1 - side));
            String x = importer.counted(n.inputs().get(side));
            if (x != null && zero != null && zero.length == 1 && zero[0] == 0) return x;
        }
        return null;
    }

    /** The then branch's outputs where each is a Constant (its {@code value} attribute) of no elements; else null. */
    static List<OnnxModel.TensorData> emptyConstants(OnnxModel.Graph then) {
        List<OnnxModel.TensorData> shapes = new ArrayList<>();
        for (OnnxModel.ValueInfo out : then.outputs()) {
            OnnxModel.Node c = then.nodes().stream().filter(x -> x.outputs().contains(out.name())).findFirst().orElse(null);
            if (c == null || !c.opType().equals("Constant") || !c.inDefaultDomain() || !c.inputs().isEmpty()) return null;
            OnnxModel.Attribute v = c.attributes().get("value");
            if (v == null || !(v.value() instanceof OnnxModel.TensorData t) || t.elementCount() != 0 || t.dtype() == null) return null;
            shapes.add(t);
        }
        return shapes;
    }

    /**
     * Records that the If of {@code at}, imported as its else branch with {@code outputs}, is to be proved by
     * {@link #check}; refuses now an output whose type or rank differs from the then branch's constant.
     */
    void add(NodeContext at, String tested, List<String> outputs, List<OnnxModel.TensorData> then) {
        List<long[]> thenShapes = new ArrayList<>();
        for (int k = 0; k < outputs.size(); k++) {
            Value v = importer.value(outputs.get(k));
            DType type = then.get(k).dtype();
            thenShapes.add(then.get(k).dims());
            if (v.dtype() != type || v.shape().length != then.get(k).dims().length)
                throw at.error("then_branch gives an empty " + type + " " + Arrays.toString(then.get(k).dims()) + " where numel('" + tested
                        + "') is 0, but else_branch's output '" + outputs.get(k) + "' is " + v + ": the branches differ in type or rank");
        }
        guards.add(new Guard(tested, List.copyOf(outputs), thenShapes, at.error("condition numel('" + tested + "') == 0 is computed at run time, and else_branch, "
                + "imported in its place, is not proved to give the then_branch's empty outputs where '" + tested + "' is empty")));
    }

    /**
     * Proves every recorded If on the built graph (above).
     *
     * @throws OnnxException the If's refusal, with the output and what the graph found
     */
    void check(Graph g) {
        for (Guard guard : guards) {
            Graph.Bounded x = g.bounded(guard.tested());
            if (x == null) throw refuse(guard, "'" + guard.tested() + "' is not bounded in the built graph");
            long[] xs = g.tensor(guard.tested()).shape();
            for (int a = 0; a < xs.length; a++)
                if (a != x.axis() && xs[a] == 0) throw refuse(guard, "'" + guard.tested() + "' " + Arrays.toString(xs) + " is empty along axis " + a + ", not only along its bounded axis");
            for (int k = 0; k < guard.outputs().size(); k++) {
                String out = guard.outputs().get(k);
                Graph.Bounded o = g.bounded(out);
                if (o == null) throw refuse(guard, "'" + out + "' has a shape known before the run");
                long[] shape = g.tensor(out).shape().clone();
                shape[o.axis()] = 0;
                if (!Arrays.equals(shape, guard.thenShapes().get(k)))
                    throw refuse(guard, "'" + out + "' of bound " + Arrays.toString(g.tensor(out).shape()) + " is empty along axis " + o.axis() + " as "
                            + Arrays.toString(shape) + ", not as the then_branch's " + Arrays.toString(guard.thenShapes().get(k)));
                if (!o.extent().equals(x.extent()) && !selectsFrom(g, o.extent(), x.extent()))
                    throw refuse(guard, "'" + out + "' is bounded by runtime extent '" + o.extent() + "', neither '" + guard.tested()
                            + "''s '" + x.extent() + "' nor that of a NonMaxSuppression of boxes bounded by it");
            }
        }
    }

    /** Whether {@code extent} is written by a NonMaxSuppression whose boxes [B, N, 4] are bounded along N by {@code by}. */
    private static boolean selectsFrom(Graph g, String extent, String by) {
        int p = g.producerPosition(extent);
        if (p < 0) return false;
        Op op = g.ops().get(p);
        if (!op.kind().equals("NonMaxSuppression") || op.inputs().isEmpty()) return false;
        Graph.Bounded boxes = g.bounded(op.inputs().get(0));
        return boxes != null && boxes.extent().equals(by) && boxes.axis() == 1;
    }

    private static OnnxException refuse(Guard guard, String why) {
        return new OnnxException(guard.refusal().getMessage() + ": " + why, guard.refusal());
    }
}
