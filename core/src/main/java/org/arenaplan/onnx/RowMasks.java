package org.arenaplan.onnx;

import org.arenaplan.ir.DType;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Masked assignment over rows, {@code y[m] = v} and {@code y[m] = x[m] * 2} with m over x's leading
 * axes (x [5, 3], m [5]), as both torch.onnx exporters write it: ScatterND of x at the coordinates of
 * every element of the selected rows, {@code Transpose(NonZero(Expand(Unsqueeze(m), Shape(x))))} of
 * [n · 3, 2], by the rows' values flattened, {@code Reshape(U, [-1])} of U [n, 3] (the TorchScript
 * exporter then slices it to that count, {@code Slice(.., 0, Shape(coordinates)[0])}). A NonZero's
 * runtime extent counts its elements, here n · 3, which no bounded tensor of rows carries, and the
 * Reshape merges U's bounded rows into one axis; so the importer reads the same assignment by rows,
 * {@code ScatterND(x, Transpose(NonZero(m)), U)}: element (r, j) of a selected row r, the i-th, takes
 * flattened U's element i · 3 + j, which is U[i, j] in both. The graph checks, when it is built, that
 * U is bounded along its rows by NonZero(m)'s runtime extent ({@code ir.BoundedFlows#scatterNd}),
 * so that U holds one row per selected row, which is what ONNX needs of the flattened updates (the
 * TorchScript exporter's Slice then takes all of them).
 * <p>
 * NonZero of such a repeated mask, its Transpose, a Reshape to [-1] of a computed tensor of the rows'
 * values' shape [numel(m), 3] and that Slice are deferred ({@link #take}): their outputs are defined, and the node is imported only where a
 * node other than these (and Shape, evaluated at import) reads them, a graph output is one, or a
 * value read from their upper bound must be checked ({@link #finish}); the rows' NonZero is imported
 * at once (an Identity of an earlier NonZero of m), so that a count of m's true elements ties to it
 * ({@link NonZeroCounts#counted}). A ScatterND of a deferred coordinate tensor and deferred flattened
 * updates of the shapes above is imported by rows; any other reader imports the deferred nodes as they
 * are, so that a graph reads as before where the pattern does not hold.
 */
final class RowMasks {

    /** What this needs of the importer. */
    interface Importer {
        /** The value named {@code name}, or null where none is defined yet. */
        Value value(String name);

        /** Defines {@code v}, the output of a deferred node, as computed from the data-dependent output of node {@code origin}. */
        void define(Value v, String origin);

        /** Forgets the definition of {@code name} ({@link #define}) before its node is imported. */
        void undefine(String name);

        /** The values of a constant known at import, else null. */
        double[] constant(String name);

        /** The node whose data-dependent output {@code name} is computed from, else null. */
        String origin(String name);

        /** A value name no file name and no value holds yet, {@code want} or {@code want} with {@code _} added. */
        String fresh(String want);

        /** Imports {@code node} as if the file held it at {@code index}. */
        void node(OnnxModel.Node node, int index, long opset);
    }

    /** A deferred node, where the file has it. */
    private record Deferred(OnnxModel.Node node, int index, long opset) { }

    /** A coordinate tensor [count, rank] or [rank, count] (before its Transpose) of every element of m's selected rows, repeated over trailing axes of {@code shape}; {@code rows}: NonZero(m)'s output. */
    private record Coordinates(String rows, long[] shape, boolean transposed) { }

    /** Computed U flattened to [-1]; {@code endedBy}: the coordinate tensor whose count a Slice of it ends at, else null. */
    private record Flattened(String u, String endedBy) { }

    private final Importer importer;
    private final NonZeroCounts counts;
    private final BoundShapes shapes;
    private final Map<String, Deferred> deferred = new HashMap<>();
    private final Map<String, Coordinates> coordinates = new HashMap<>();
    private final Map<String, Flattened> flattened = new HashMap<>();
    private final Set<OnnxModel.Node> importing = Collections.newSetFromMap(new IdentityHashMap<>());

    RowMasks(Importer importer, NonZeroCounts counts, BoundShapes shapes) {
        this.importer = importer;
        this.counts = counts;
        this.shapes = shapes;
    }

    /**
     * Whether this defers or imports {@code node} (above); false where the importer is to import it,
     * once the deferred nodes it reads (but for Shape's) are imported.
     */
    boolean take(OnnxModel.Node node, int index, long opset) {
        if (!importing.remove(node) && node.inDefaultDomain() && node.outputs().size() == 1 && !node.outputs().get(0).isEmpty()) {
            String out = node.outputs().get(0);
            List<String> in = node.inputs();
            switch (node.opType()) {
                case "NonZero" -> {
                    NonZeroCounts.Repeated r = in.size() == 1 ? counts.repeated(in.get(0)) : null;
                    if (r != null && importer.origin(in.get(0)) == null) {
                        String rows = importer.fresh(out + "_rows"), name = node.name();
                        importer.node(new OnnxModel.Node(name + "/rows", "NonZero", "", List.of(r.mask()), List.of(rows), Map.of()), index, opset);
                        long[] shape = importer.value(in.get(0)).shape();
                        defer(node, index, opset, new Value(out, DType.I64, new long[]{shape.length, Arrays.stream(shape).reduce(1, Math::multiplyExact)}),
                                name);
                        coordinates.put(out, new Coordinates(rows, shape, false));
                        return true;
                    }
                }
                case "Transpose" -> {
                    Coordinates c = in.size() == 1 ? coordinates.get(in.get(0)) : null;
                    OnnxModel.Attribute perm = node.attributes().get("perm");
                    if (c != null && !c.transposed() && deferred.containsKey(in.get(0)) && perm != null && perm.value() instanceof long[] p && Arrays.equals(p, new long[]{1, 0})) {
                        long[] s = importer.value(in.get(0)).shape();
                        defer(node, index, opset, new Value(out, DType.I64, new long[]{s[1], s[0]}), importer.origin(in.get(0)));
                        coordinates.put(out, new Coordinates(c.rows(), c.shape(), true));
                        return true;
                    }
                }
                case "Reshape" -> {
                    Value u = in.size() == 2 ? importer.value(in.get(0)) : null;
                    double[] shape = u == null ? null : importer.constant(in.get(1));
                    if (u != null && importer.origin(u.name()) != null && shape != null && Arrays.equals(shape, new double[]{-1}) && rowsOf(u.shape())) {
                        defer(node, index, opset, new Value(out, u.dtype(), new long[]{u.elements()}), importer.origin(u.name()));
                        flattened.put(out, new Flattened(u.name(), null));
                        return true;
                    }
                }
                case "Slice" -> {
                    String endedBy = slicedToCount(in);
                    if (endedBy != null) {
                        Value f = importer.value(in.get(0));
                        defer(node, index, opset, new Value(out, f.dtype(), f.shape()), importer.origin(f.name()));
                        flattened.put(out, new Flattened(flattened.get(in.get(0)).u(), endedBy));
                        return true;
                    }
                }
                case "ScatterND" -> {
                    if (byRows(node, index, opset)) return true;
                }
                default -> { }
            }
        }
        if (!node.opType().equals("Shape")) for (String name : node.inputs()) importDeferred(name);
        return false;
    }

    /**
     * Imports the deferred nodes whose outputs the graph returns or whose upper bound a value read
     * from it needs checked ({@link BoundShapes#sources}: a Shape of a coordinate tensor read as a
     * constant); the others nothing reads. Call once every node and graph output is imported.
     */
    void finish(List<String> graphOutputs) {
        for (String o : graphOutputs) {
            importDeferred(o);
            BoundShapes.Read r = shapes.get(o);   // a graph output that is a shape value is read as a constant when the graph is built
            if (r != null) for (BoundShapes.Source s : r.elements()) if (s != null) importDeferred(s.tensor());
        }
        for (String name : List.copyOf(deferred.keySet())) if (shapes.sources(name)) importDeferred(name);
    }

    private void defer(OnnxModel.Node node, int index, long opset, Value out, String origin) {
        importer.define(out, origin);
        deferred.put(out.name(), new Deferred(node, index, opset));
    }

    private void importDeferred(String name) {
        Deferred d = deferred.remove(name);
        if (d == null) return;
        importer.undefine(name);
        importing.add(d.node());
        importer.node(d.node(), d.index(), d.opset());
    }

    /** Whether {@code u} is [numel(m), t..] for a deferred coordinate tensor of a mask m repeated over trailing axes t: the rows' values by which ScatterND may assign them. */
    private boolean rowsOf(long[] u) {
        for (Map.Entry<String, Coordinates> e : coordinates.entrySet()) {
            if (deferred.containsKey(e.getKey()) && Arrays.equals(u, rowValues(e.getValue()))) return true;
        }
        return false;
    }

    /** The shape [numel(m), t..] of the rows' values for coordinates {@code c} of a mask m repeated over trailing axes t. */
    private long[] rowValues(Coordinates c) {
        long[] rows = importer.value(c.rows()).shape();   // [rank(m), numel(m)]
        int k = (int) rows[0];
        long[] want = new long[1 + c.shape().length - k];
        want[0] = rows[1];
        System.arraycopy(c.shape(), k, want, 1, want.length - 1);
        return want;
    }

    /**
     * The coordinate tensor at whose count {@code in}, a Slice's inputs, ends a deferred flattened
     * tensor taken from 0 by step 1 along axis 0 ({@code Slice(.., 0, Shape(coordinates)[0])}), else null.
     */
    private String slicedToCount(List<String> in) {
        if (in.size() < 3 || !deferred.containsKey(in.get(0)) || !flattened.containsKey(in.get(0))) return null;
        double[] starts = importer.constant(in.get(1));
        double[] axes = in.size() > 3 && !in.get(3).isEmpty() ? importer.constant(in.get(3)) : new double[]{0};
        double[] steps = in.size() > 4 && !in.get(4).isEmpty() ? importer.constant(in.get(4)) : new double[]{1};
        BoundShapes.Read end = shapes.get(in.get(2));
        if (!Arrays.equals(starts, new double[]{0}) || axes == null || (axes[0] != 0 && axes[0] != -1) || !Arrays.equals(steps, new double[]{1})
                || end == null || end.elements().length != 1 || end.elements()[0] == null || end.elements()[0].axis() != 0) return null;
        Coordinates c = coordinates.get(end.elements()[0].tensor());
        return c != null && c.transposed() ? end.elements()[0].tensor() : null;
    }

    /**
     * Imports {@code node} as ScatterND(x, Transpose(NonZero(m)), U) where it is a ScatterND of x at
     * a deferred coordinate tensor of m's rows repeated to x's shape, by deferred U flattened (or
     * sliced to that tensor's count), U [numel(m), x's trailing axes..]; false, importing nothing, else.
     */
    private boolean byRows(OnnxModel.Node node, int index, long opset) {
        List<String> in = node.inputs();
        if (in.size() != 3 || !deferred.containsKey(in.get(1)) || !deferred.containsKey(in.get(2))) return false;
        Coordinates c = coordinates.get(in.get(1));
        Flattened f = flattened.get(in.get(2));
        Value x = importer.value(in.get(0));
        if (c == null || !c.transposed() || f == null || (f.endedBy() != null && !f.endedBy().equals(in.get(1))) || x == null || !Arrays.equals(x.shape(), c.shape())) return false;
        if (!Arrays.equals(importer.value(f.u()).shape(), rowValues(c))) return false;
        String tuples = importer.fresh(c.rows() + "_tuples");
                importer.node(new OnnxModel.Node(node.name() + "/rows", "Transpose", "", List.of(c.rows()), List.of(tuples),
                Map.of("perm", new OnnxModel.Attribute("perm", OnnxModel.Attribute.INTS, new long[]{1, 0}))), index, opset);
        importer.node(new OnnxModel.Node(node.name(), "ScatterND", node.domain(), List.of(x.name(), tuples, f.u()), node.outputs(), node.attributes()), index, opset);
        return true;
    }
}
