package org.arenaplan.onnx;

import org.arenaplan.ir.CountedSlice;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Slices of a tensor computed from a data-dependent output that ONNX takes of its actual extent n, known only
 * in the run (docs/onnx.md, "Data-dependent outputs"):
 * <ul>
 *   <li>values computed from a count n read from an upper bound in one element (a Shape's, {@link BoundShapes}),
 *       by Add, Sub and Mul of an integer constant, Div by a positive one, Cast to int32 or
 *       int64, Squeeze, Unsqueeze, Reshape and Identity: each is floor((a n + b) / d) e + f
 *       ({@link CountedSlice}), recorded only where a n + b is not negative and nothing overflows for every
 *       n up to the bound, so that ONNX's truncating division is the floor (the TorchScript exporter's
 *       {@code torch.chunk(x[m], 2)}: c = (Shape(x[m])[0] + 1) / 2, then Slice(0, c) and Slice(c, 2c);
 *       {@code x[m][:n // 2]});</li>
 *   <li>a Slice of such a tensor by one start and one end, each such a value or a constant, along one axis,
 *       which must be bounded by the runtime extent of the count's axis ({@link BoundShapes#check});</li>
 *   <li>such a Slice, and any Slice of such a tensor that is not a prefix of each axis it slices (a start
 *       other than 0, a step other than 1, or an end counted back from the end: {@code x[m][1:]},
 *       {@code x[m][-2:]}, {@code x[m].flip(0)}), imported with {@code extents} 1 and the terms of each start
 *       and end ({@code counted}; {@link #withExtent}): where it slices the bounded axis, its kernel takes
 *       the rows ONNX takes of the actual extent ({@code ir.BoundedFlows#SLICE}).</li>
 * </ul>
 * Any other reader of such a value reads it as the constant it is at the bound ({@link #read}).
 */
final class CountedSlices {
    /** A value floor((a n + b) / d) e + f ({@link CountedSlice}) of a count n read from an upper bound in one element. */
    private record Count(BoundShapes.Read n, long[] terms) { }

    private final BoundedRewrites.Importer importer;
    private final BoundShapes shapes;
    private final Map<String, String> dataDependent;
    private final Map<String, Count> counts = new HashMap<>();
    private final Map<String, long[]> sliced = new HashMap<>();   // a Slice's output -> its one entry's start and end terms, one of them a count

    CountedSlices(BoundedRewrites.Importer importer, BoundShapes shapes, Map<String, String> dataDependent) {
        this.importer = importer;
        this.shapes = shapes;
        this.dataDependent = dataDependent;
    }

    /**
     * Whether {@code node} reads counted values only as this class accounts for them, recording what it
     * learns (its output a counted value, or a Slice by them); the importer then takes no other obligation
     * for its inputs.
     */
    boolean reads(OnnxModel.Node node, List<Value> ins) {
        if (!node.inDefaultDomain() || node.outputs().size() != 1 || node.outputs().get(0).isEmpty() || ins.isEmpty() || ins.get(0) == null) return false;
        String out = node.outputs().get(0);
        switch (node.opType()) {
            case "Add", "Sub", "Mul", "Div" -> {
                if (ins.size() != 2 || ins.get(1) == null || !integral(ins.get(0)) || !integral(ins.get(1))) return false;
                for (int j = 0; j < 2; j++) {
                    Count c = count(ins.get(j));
                    double[] k = count(ins.get(1 - j)) == null ? importer.constant(ins.get(1 - j).name()) : null;
                    if (c == null || k == null || k.length != 1) continue;
                    long[] t = arithmetic(node.opType(), c.terms(), (long) k[0], j == 0, bound(c.n()));
                    if (t == null) return false;
                    counts.put(out, new Count(c.n(), t));
                    return true;
                }
                return false;
            }
            case "Cast", "Squeeze", "Unsqueeze", "Reshape", "Identity" -> {
                Count c = count(ins.get(0));
                OnnxModel.Attribute to = node.attributes().get("to");
                if (c == null || node.opType().equals("Cast") && (to == null || !(Long.valueOf(6).equals(to.value()) || Long.valueOf(7).equals(to.value())))) return false;
                counts.put(out, c);
                return true;
            }
            case "Slice" -> {
                return slice(node, ins);
            }
            default -> {
                return false;
            }
        }
    }

    /** The count {@code name} is computed from where it is a counted value ({@link #reads}), else null. */
    BoundShapes.Read read(String name) {
        Count c = name == null ? null : counts.get(name);
        return c == null ? null : c.n();
    }

    /**
     * {@code l} with {@code extents} 1, a runtime extent output ({@code <output>#extent}, int64 [1]) and the terms
     * of each start and end ({@code counted}), not a view, where it is a Slice of a tensor computed from a
     * data-dependent output by counted values ({@link #reads}) or not a prefix of each axis it slices; else {@code l}.
     */
    Lowered withExtent(Lowered l) {
        if (!l.kind().equals(OpKinds.SLICE) || !l.attrs().containsKey("starts") || l.outputs().size() != 1) return l;
        long[] starts = (long[]) l.attrs().get("starts"), ends = (long[]) l.attrs().get("ends"), steps = (long[]) l.attrs().get("steps");
        long[] counted = sliced.get(l.outputs().get(0).name());
        boolean needs = counted != null;
        for (int i = 0; i < starts.length; i++) needs |= starts[i] != 0 || steps[i] != 1 || ends[i] < 0;
        if (!needs) return l;
        int t = 2 * CountedSlice.TERMS;
        long[] terms = new long[t * starts.length];
        for (int i = 0; i < starts.length; i++) {
            System.arraycopy(CountedSlice.constant(starts[i]), 0, terms, t * i, CountedSlice.TERMS);
            System.arraycopy(CountedSlice.constant(ends[i]), 0, terms, t * i + CountedSlice.TERMS, CountedSlice.TERMS);
        }
        if (counted != null) System.arraycopy(counted, 0, terms, 0, t);
        Map<String, Object> attrs = new LinkedHashMap<>(l.attrs());
        attrs.put("extents", 1L);
        attrs.put("counted", terms);
        List<Value> outputs = new ArrayList<>(l.outputs());
        outputs.add(new Value(importer.fresh(l.outputs().get(0).name() + "#extent"), DType.I64, new long[]{1}));
        return new Lowered(l.kind(), l.inputs(), outputs, attrs, false, l.dropped());
    }

    /** A Slice of a tensor computed from a data-dependent output by one start and one end, at least one of them counted, of one axis. */
    private boolean slice(OnnxModel.Node node, List<Value> ins) {
        if (ins.size() < 3 || ins.get(1) == null || ins.get(2) == null || !dataDependent.containsKey(ins.get(0).name())) return false;
        Count s = count(ins.get(1)), e = count(ins.get(2));
        double[] start = s == null ? importer.constant(ins.get(1).name()) : new double[1], end = e == null ? importer.constant(ins.get(2).name()) : new double[1];
        double[] axes = ins.size() > 3 && ins.get(3) != null ? importer.constant(ins.get(3).name()) : new double[1];
        double[] steps = ins.size() > 4 && ins.get(4) != null ? importer.constant(ins.get(4).name()) : new double[]{1};
        int rank = ins.get(0).shape().length;
        if (s == null && e == null || start == null || end == null || axes == null || steps == null || start.length != 1 || end.length != 1 || axes.length != 1
                || steps.length != 1 || axes[0] < -rank || axes[0] >= rank) return false;
        int a = (int) Math.floorMod((long) axes[0], (long) rank);
        String reader = "'" + node.name() + "' (Slice)", data = ins.get(0).name();
        if (s != null) shapes.sameExtent(s.n(), 0, data, a, reader, "starts axis " + a + " of '" + data + "' with");
        if (e != null) shapes.sameExtent(e.n(), 0, data, a, reader, "ends axis " + a + " of '" + data + "' with");
        long[] terms = new long[2 * CountedSlice.TERMS];
        System.arraycopy(s != null ? s.terms() : CountedSlice.constant((long) start[0]), 0, terms, 0, CountedSlice.TERMS);
        System.arraycopy(e != null ? e.terms() : CountedSlice.constant((long) end[0]), 0, terms, CountedSlice.TERMS, CountedSlice.TERMS);
        sliced.put(node.outputs().get(0), terms);
        return true;
    }

    /** {@code v} as a counted value: recorded, or a Shape's element read from an upper bound (n itself); else null. */
    private Count count(Value v) {
        if (v == null) return null;
        Count c = counts.get(v.name());
        if (c != null) return c;
        BoundShapes.Read r = shapes.get(v.name());   // a Shape's element, evaluated at import (a NonZero's count computed by ReduceSum runs: its readers read the run's)
        return r == null || r.elements().length != 1 || r.elements()[0] == null || v.elements() != 1 || importer.constant(v.name()) == null ? null
                : new Count(r, new long[]{1, 0, 1, 1, 0});
    }

    /** The bound of the count's axis (its tensor's extent there at import). */
    private long bound(BoundShapes.Read n) {
        BoundShapes.Source s = n.elements()[0];
        return importer.value(s.tensor()).shape()[s.axis()];
    }

    private static boolean integral(Value v) {
        return v.elements() == 1 && (v.dtype() == DType.I64 || v.dtype() == DType.I32);
    }

    /**
     * The terms of {@code op} (Add, Sub, Mul, Div) of the counted value {@code t} and the constant {@code k}
     * ({@code first}: the counted value is the first operand), or null where the result is not of the form,
     * or a n + b may be negative, or a value overflow, for an n up to {@code bound}.
     */
    private static long[] arithmetic(String op, long[] t, long k, boolean first, long bound) {
        long a = t[0], b = t[1], d = t[2], e = t[3], f = t[4];
        try {
            long[] r = switch (op) {
                case "Add" -> new long[]{a, b, d, e, Math.addExact(f, k)};
                case "Sub" -> first ? new long[]{a, b, d, e, Math.subtractExact(f, k)} : new long[]{a, b, d, Math.negateExact(e), Math.subtractExact(k, f)};
                case "Mul" -> new long[]{a, b, d, Math.multiplyExact(e, k), Math.multiplyExact(f, k)};
                default -> !first || k <= 0 || !(value(t, 0) >= 0 && value(t, bound) >= 0) ? null   // Div: of a value that is never negative, by a positive constant
                        : d == 1 ? new long[]{Math.multiplyExact(a, e), Math.addExact(Math.multiplyExact(b, e), f), k, 1, 0}
                        : e == 1 ? new long[]{a, Math.addExact(b, Math.multiplyExact(f, d)), Math.multiplyExact(d, k), 1, 0} : null;
            };
            return r != null && value(r, 0) != Long.MIN_VALUE && value(r, bound) != Long.MIN_VALUE ? r : null;
        } catch (ArithmeticException overflow) {
            return null;
        }
    }

    /** {@link CountedSlice#value} at {@code n} with every step checked: {@link ArithmeticException} on overflow; Long.MIN_VALUE where a n + b is negative. */
    private static long value(long[] t, long n) {
        long num = Math.addExact(Math.multiplyExact(t[0], n), t[1]);
        return num < 0 ? Long.MIN_VALUE : Math.addExact(Math.multiplyExact(num / t[2], t[3]), t[4]);
    }
}
