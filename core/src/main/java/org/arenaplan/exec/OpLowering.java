package org.arenaplan.exec;

import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKindSpelling;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.Tensor;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The one mapping from an {@link Op} and its tensors' shapes to kernel calls ({@link Kernels}).
 * Every executor and device uses it, so they all run the same kernels. Dispatches by kind to the
 * {@link KernelRule} declared with the kind's registry entry ({@code org.arenaplan.ops}, found
 * through the {@link LoweringTable} service) and checks that each call names a kernel of that
 * entry; the rules build their calls with the helpers here (addresses, shapes, element types).
 * Storage-only ops (views, in-place concatenation) lower to nothing: they are addresses.
 * Element types: each kind's in its registry entry's summary; a tensor without a dtype is f32. The rules
 * check them, so a device never sees a type its kernel does not take. An op with several outputs
 * is lowered to calls that write every output it lists ({@link #lower} checks it), also those
 * nothing reads.
 */
public final class OpLowering {
    private final Graph graph;
    private final Function<String, DevicePointer> address;
    private final Function<String, String> display;
    private final DataLineage lineage;

    /** The rules, loaded on first use. */
    private static final class Rules {
        static final Map<String, KernelRule> RULES = load();

        private static Map<String, KernelRule> load() {
            List<LoweringTable> t = ServiceLoader.load(LoweringTable.class, OpLowering.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
            if (t.size() != 1) throw new IllegalStateException("expected one org.arenaplan.exec.LoweringTable service (org.arenaplan.ops.Operators), found " + t.size());
            return Map.copyOf(t.get(0).rules());
        }
    }

    /**
     * @param address where each tensor lives on the device
     * @param display how messages name a tensor (e.g. with its storage)
     */
    public OpLowering(Graph graph, Function<String, DevicePointer> address, Function<String, String> display) {
        this.graph = graph;
        this.address = address;
        this.display = display;
        this.lineage = new DataLineage(graph);
    }

    /**
     * The kernel calls of {@code op}, in the order they must run on its stream; each is one of
     * the kernels its {@link OpRegistry} entry names.
     *
     * @throws ExecutionException for a kind outside the registry (also a storage-only one: it
     *         moves no bytes, but a misspelt view kind, {@code Reshap}, must be named as a misspelt
     *         computing kind is), a kind without a lowering, or tensors its kernels do not take
     * @throws IllegalStateException when the op registry and the lowering table disagree (a kind
     *         lowered but not registered, or lowered to a kernel its entry does not name): a bug
     */
    public List<KernelCall> lower(Op op) {
        if (!org.arenaplan.ir.PackedTypes.KINDS.contains(op.kind())) {
            for (List<String> ts : List.of(op.inputs(), op.outputs()))
                for (String t : ts)
                    if (graph.tensor(t).dtype() != null && graph.tensor(t).dtype().isPacked())
                        throw fail(op, org.arenaplan.ir.PackedTypes.refusal(op.kind(), t, graph.tensor(t).dtype()));
        }
        for (Op.View v : op.views()) {
            String view = op.outputs().get(v.output()), root = graph.viewRoot(view);
            if (graph.isWeight(root))
                throw fail(op, "'" + view + "' is declared a view of weight '" + root + "'; the executors keep weights outside the arena and run no view of one (drop the view declaration: the op then copies)");
        }
        if (op.isStorageOnly()) {
            if (!OpRegistry.knows(op.kind())) throw unknownKind(op);
            return List.of();
        }
        OpSpec spec = OpRegistry.get(op.kind());
        KernelRule rule = Rules.RULES.get(op.kind());
        if (rule == null) throw unknownKind(op);
        if (spec == null)
            throw new IllegalStateException("op kind '" + op.kind() + "' has a lowering but no entry in org.arenaplan.ir.OpRegistry; add one");
        List<KernelCall> calls = rule.lower(op, this);
        for (KernelCall c : calls) {
            if (!spec.kernels().contains(c.name()))
                throw new IllegalStateException(op.kind() + " lowered to kernel '" + c.name() + "', which its registry entry does not name: " + spec.kernels());
        }
        if (spec.carries() != null && spec.bounded() == null) calls = withZeroTails(op, calls);   // a data-dependent kind's kernel zeroes its own tail
        requireEveryOutputWritten(op, calls);
        return calls;
    }

    /**
     * {@code calls}, then one {@link Kernels#ZERO_TAIL} per bounded output the op computes
     * ({@link Graph#bounded}; {@code ir.OpSpec.BoundedFlow}): its kernels ran over the upper bound,
     * so the elements past the actual ones are zeroed again, as the data-dependent kernels leave them.
     */
    private List<KernelCall> withZeroTails(Op op, List<KernelCall> calls) {
        List<KernelCall> all = new java.util.ArrayList<>(calls);
        for (int k = 0; k < op.outputs().size(); k++) {
            String y = op.outputs().get(k);
            Graph.Bounded b = graph.bounded(y);
            if (b == null || !op.writesAtRuntime(k) || bytes(y) == 0) continue;
            long[] s = shape(op, y);
            long total = product(s);
            all.add(call(op, Kernels.ZERO_TAIL, List.of(read(b.extent()), write(y)), new long[]{total / s[b.axis()], total, dtype(y).bytes()}));
        }
        return all;
    }

    /**
     * Every output the op computes (not a view; not empty) is written by one of its calls: an
     * op with several outputs never leaves one unwritten, whether or not anything reads it.
     * Views and member slices are addresses, not writes.
     */
    private void requireEveryOutputWritten(Op op, List<KernelCall> calls) {
        java.util.Set<String> written = new java.util.HashSet<>();
        for (KernelCall c : calls)
            for (KernelArg a : c.pointers()) if (a.access() == KernelArg.Access.WRITE) written.add(a.sources().get(0));
        OpSpec spec = OpRegistry.get(op.kind());
        int extents = spec == null || spec.carries() == null ? op.outputs().size() : spec.carries().extentOutputs(OpAttrs.of(op), op.outputs().size());
        for (int k = 0; k < extents; k++) {   // a runtime extent no output takes is left (ir.OpSpec.BoundedFlow#extentOutputs: no op reads one)
            String y = op.outputs().get(k);
            if (op.writesAtRuntime(k) && bytes(y) > 0 && !written.contains(y))
                throw new IllegalStateException(op.kind() + " '" + op.name() + "' lowered to calls that never write its output #" + k + " '" + y + "'");
        }
    }

    /** [rank, shape[rank] (ys), then per operand its broadcast strides[rank]]. */
    public long[] broadcast(Op op, long[] ys, String... operands) {
        int rank = ys.length;
        long[] ints = new long[1 + rank * (1 + operands.length)];
        ints[0] = rank;
        System.arraycopy(ys, 0, ints, 1, rank);
        for (int k = 0; k < operands.length; k++) {
            long[] s = broadcastStrides(op, operands[k], shapeOr(operands[k], ys), ys);
            System.arraycopy(s, 0, ints, 1 + rank * (k + 1), rank);
        }
        return ints;
    }

    /** Numpy broadcasting: strides of {@code t} (shape {@code ts}) read as shape {@code ys}; 0 where broadcast. */
    public long[] broadcastStrides(Op op, String t, long[] ts, long[] ys) {
        int rank = ys.length;
        long[] s = new long[rank];
        long stride = 1;
        for (int d = rank - 1, e = ts.length - 1; d >= 0; d--, e--) {
            long dim = e >= 0 ? ts[e] : 1;
            if (dim != ys[d] && dim != 1) throw fail(op, "'" + t + "' " + Arrays.toString(ts) + " does not broadcast to " + Arrays.toString(ys));
            s[d] = dim == 1 && ys[d] != 1 ? 0 : stride;
            stride *= dim;
        }
        return s;
    }

    /** [rows, cols] of shape {@code s} split before {@code axis} (negative counts from the end). */
    public long[] rowsCols(Op op, long[] s, long axis) {
        int a = (int) (axis < 0 ? axis + s.length : axis);
        if (a < 0 || a >= s.length) throw fail(op, "axis " + axis + " out of range for shape " + Arrays.toString(s));
        return new long[]{product(Arrays.copyOf(s, a)), product(Arrays.copyOfRange(s, a, s.length))};
    }

    /** N x C x H x W; a 1-D image N x C x L is taken as H = 1. */
    public long[] image(Op op, String t) {
        long[] s = shape(op, t);
        if (s.length == 4) return s;
        if (s.length == 3) return new long[]{s[0], s[1], 1, s[2]};
        throw fail(op, "'" + t + "' " + Arrays.toString(s) + " is not an N x C x H x W image (3-D images lower to conv_nd)");
    }

    /**
     * A per-spatial-axis attribute of the image {@code x} (the registry's default when absent),
     * widened from 1-D to 2-D (the H axis gets kernel 1, stride 1, pad 0, dilation 1).
     */
    public long[] perAxis(Op op, String key, String x) {
        int spatial = shape(op, x).length - 2;
        long[] r;
        try {
            r = OpAttrs.of(op).perAxis(key, spatial);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        if (spatial == 2) return r;
        long neutral = key.equals("pads") ? 0 : 1;
        return r.length == 1 ? new long[]{neutral, r[0]} : new long[]{0, r[0], 0, r[1]};
    }

    // ---- helpers for the rules ----

    /** As {@link #call(Op, String, List, long[], double[])} with no float scalars. */
    public KernelCall call(Op op, String kernel, List<KernelArg> args, long[] ints) {
        return call(op, kernel, args, ints, new double[0]);
    }

    /**
     * A launch of {@code kernel} labelled with the op's name.
     *
     * @param ints   the integer scalars, in the layout and units {@link Kernels} documents for {@code kernel} (elements, dims, codes)
     * @param floats the float scalars, as {@link Kernels} documents them (op attributes)
     */
    public KernelCall call(Op op, String kernel, List<KernelArg> args, long[] ints, double[] floats) {
        return new KernelCall(kernel, args, ints, floats, op.name());
    }

    /** Where {@code t}'s actual shape is found after its op runs ({@link Graph#bounded}), or null for a tensor whose shape is known before the run. */
    public Graph.Bounded bounded(String t) {
        return graph.bounded(t);
    }

    /** Reads all of {@code t}: its bytes must hold the writes of its lineage. */
    public KernelArg read(String t) {
        return KernelArg.read(address.apply(t), bytes(t), display.apply(t), lineage.of(t));
    }

    /** Writes all of {@code t}. */
    public KernelArg write(String t) {
        return KernelArg.write(address.apply(t), bytes(t), display.apply(t), t);
    }

    /** Reads {@code elements} elements of {@code t} from element {@code elementOffset} on. */
    public KernelArg readAt(String t, long elementOffset, long elements) {
        int es = dtype(t).bytes();
        return KernelArg.read(address.apply(t).plus(es * elementOffset), es * elements, display.apply(t), lineage.of(t));
    }

    /** Writes {@code elements} elements of {@code t} from element {@code elementOffset} on. */
    public KernelArg writeAt(String t, long elementOffset, long elements) {
        int es = dtype(t).bytes();
        return KernelArg.write(address.apply(t).plus(es * elementOffset), es * elements, display.apply(t), t);
    }

    /** Output 0 of {@code op}. */
    public static String out(Op op) {
        return op.outputs().get(0);
    }

    /** The tensor's size in bytes. */
    public long bytes(String t) {
        return graph.tensor(t).bytes();
    }

    /** The tensor's element count (from the shape for packed types, whose last byte may be padded). */
    public long elements(String t) {
        if (dtype(t).isPacked()) return graph.tensor(t).elements();     // from the shape: the last byte may be padded
        return graph.tensor(t).bytes() / dtype(t).bytes();
    }

    /** The tensor's element type; f32 when the graph gave none. */
    public DType dtype(String t) {
        DType d = graph.tensor(t).dtype();
        return d == null ? DType.F32 : d;
    }

    /** The one element type all of {@code tensors} share; whole elements each. */
    public DType sameType(Op op, String... tensors) {
        DType t = dtype(tensors[0]);
        for (String x : tensors) {
            if (dtype(x) != t) throw fail(op, "'" + tensors[0] + "' is " + t.jsonName() + " but '" + x + "' is " + dtype(x).jsonName() + "; they must have one type");
            if (bytes(x) % t.bytes() != 0) throw fail(op, "tensor '" + x + "' (" + bytes(x) + " B) is not a whole number of " + t.jsonName() + " values");
        }
        return t;
    }

    /** The shape of {@code t}; an error naming op when it has none. */
    public long[] shape(Op op, String t) {
        Tensor x = graph.tensor(t);
        if (!x.hasShape()) throw fail(op, "tensor '" + t + "' has no shape; executors need shapes for " + op.kind());
        return x.shape();
    }

    /** The output shape; a shapeless output of an elementwise op is taken flat. */
    public long[] shapeOf(Op op, String y, String a, String b) {
        Tensor t = graph.tensor(y);
        if (t.hasShape()) return t.shape();
        if (graph.tensor(a).hasShape() || graph.tensor(b).hasShape()) throw fail(op, "tensor '" + y + "' has no shape");
        if (bytes(a) != bytes(y) || bytes(b) != bytes(y)) throw fail(op, "shapeless operands must have equal sizes");
        return new long[]{elements(y)};
    }

    /** The shape of {@code t}, or {@code dflt} when it has none. */
    public long[] shapeOr(String t, long[] dflt) {
        Tensor x = graph.tensor(t);
        return x.hasShape() ? x.shape() : dflt;
    }

    /**
     * Checks {@code t} against the element types {@code op}'s kind declares it computes
     * ({@link org.arenaplan.ir.OpSpec#computes}; f32 where it declares none), that it has the type
     * of {@code op}'s first input (one computed type per op), and that its bytes are a whole
     * number of elements. Errors name the op, the tensor and the declared types.
     */
    public void requireComputed(Op op, String t) {
        OpSpec spec = OpRegistry.get(op.kind());
        if (spec == null || spec.computes().isEmpty()) {
            requireF32(op, t);
            return;
        }
        DType d = graph.tensor(t).dtype(), first = graph.tensor(op.inputs().get(0)).dtype();
        if (spec.refuses(d)) throw fail(op, "tensor '" + t + "' is " + d.jsonName() + "; " + op.kind() + " computes " + spec.computesText());
        if (d != null && first != null && d != first)
            throw fail(op, "tensor '" + t + "' is " + d.jsonName() + " and '" + op.inputs().get(0) + "' is " + first.jsonName() + "; " + op.kind() + " computes one type at a time");
        DType e = d == null ? DType.F32 : d;
        if (graph.tensor(t).bytes() % e.bytes() != 0)
            throw fail(op, "tensor '" + t + "' (" + graph.tensor(t).bytes() + " B) is not a whole number of " + e.jsonName() + " values");
    }

    /** The one element type {@code op} computes: its first input's (f32 when untyped). */
    public DType computeType(Op op) {
        DType d = graph.tensor(op.inputs().get(0)).dtype();
        return d == null ? DType.F32 : d;
    }

    /** Checks {@code t} is f32 (or untyped) and a whole number of f32 values. */
    public void requireF32(Op op, String t) {
        DType d = graph.tensor(t).dtype();
        if (d != null && d != DType.F32) throw fail(op, "tensor '" + t + "' is " + d.jsonName() + "; " + op.kind() + " computes f32 only");
        if (graph.tensor(t).bytes() % 4 != 0) throw fail(op, "tensor '" + t + "' (" + graph.tensor(t).bytes() + " B) is not a whole number of f32 values");
    }

    /** The product of the extents: a shape's element count (1 for a scalar's empty shape); not checked for overflow. */
    public static long product(long[] s) {
        long p = 1;
        for (long d : s) p *= d;
        return p;
    }

    /** {@code op 'v' (Reshap): unknown op kind 'Reshap'; known kinds are those of ...; did you mean 'Reshape'?} */
    private static ExecutionException unknownKind(Op op) {
        return fail(op, OpKindSpelling.unknown(op.kind()) + "; known kinds are those of org.arenaplan.ir.OpRegistry (the README's operator table)"
                + OpKindSpelling.suggestion(op.kind()));
    }

    /** The error of {@code op}: its name and kind, then why. */
    public static ExecutionException fail(Op op, String why) {
        return new ExecutionException("op '" + op.name() + "' (" + op.kind() + "): " + why);
    }
}
