package org.arenaplan.onnx;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.Devices;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.exec.Executors;
import org.arenaplan.exec.Mode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Folds a lowered node whose inputs are all small constants into constants by running it at
 * import: a one-op graph (the constants as weights, the node's kind and resolved attributes, its
 * outputs as graph outputs) is planned and run on the simulator device through the executors'
 * one lowering ({@code exec.OpLowering}) and the reference kernels ({@code sim.SimKernels}), so
 * every op kind that runs also folds, with the same results it gives at run time. The folded
 * outputs are weights: no arena bytes, no kernels.
 *
 * <p>Folds only when every runtime input is a constant whose values are known at import and
 * every input and output has at most {@link #MAX_ELEMENTS} elements; larger constant
 * subgraphs stay ops (or fold lazily, {@link ConstantFolding}). A node whose kernel refuses its
 * inputs (an element type it does not compute) is not folded and stays an op, so the refusal
 * comes where it would without folding. Cost per folded node: planning and running one op on
 * the simulator (well under a millisecond for shape arithmetic); one device per import.
 */
final class ImportFolding implements AutoCloseable {
    /** The most elements an input or output of a folded node may have (the size limit of import-time evaluation). */
    static final long MAX_ELEMENTS = OnnxImporter.MAX_CONSTANT_VALUES;

    private Device device;
    private String refusal;   // why the kernel refused the latest fold, or null

    /**
     * Why the latest {@link #fold} ran its node's kernel and the kernel refused (a Gather index
     * out of range, an integer division by zero), in the kernel's words; null when that fold
     * succeeded or never reached a kernel (an input not constant, a tensor above the size limit).
     */
    String refusal() {
        return refusal;
    }

    /**
     * The outputs of {@code l} as constants, or null when it does not fold (an input not a
     * constant with known values, a tensor above the size limit, a kernel that refuses it).
     *
     * @param values the import's tensors by name
     * @param constants the known values of a constant input by name, or null when not known
     */
    Map<Value, Constant> fold(Lowered l, Map<String, Value> values, Function<String, TensorValue> constants) {
        refusal = null;
        if (l.view() || l.outputs().isEmpty()) return null;
        for (Value v : l.outputs()) if (v.elements() > MAX_ELEMENTS) return null;
        Map<String, TensorValue> in = new LinkedHashMap<>();
        for (String name : l.inputs()) {
            if (in.containsKey(name)) continue;
            Value v = values.get(name);
            if (v == null || v.elements() > MAX_ELEMENTS) return null;
            TensorValue t = constants.apply(name);
            if (t == null) return null;
            in.put(name, t);
        }
        Map<Value, Constant> out = new LinkedHashMap<>();
        boolean empty = true;
        for (Value v : l.outputs()) empty &= v.elements() == 0;
        if (empty) {
            for (Value v : l.outputs()) out.put(v, new Constant(null, Constant.bytes(ByteBuffer.allocate(0))));
            return out;
        }
        Map<String, TensorValue> results = run(l, values, in);
        if (results == null) {
            refusal = lastFailure;
            return null;
        }
        return constants(l, results);
    }

    /**
     * The outputs of {@code l} computed from known input values ({@code known}: a constant's, or
     * a value derived from a graph input given at import), or null when an input is not known,
     * a tensor has more than {@code limit} elements, or the kernel refuses it. A whole view's
     * output is its input's bytes under the new shape.
     */
    Map<String, TensorValue> evaluate(Lowered l, Map<String, Value> values, Function<String, TensorValue> known, long limit) {
        if (l.outputs().isEmpty()) return null;
        for (Value v : l.outputs()) if (v.elements() > limit || v.elements() == 0) return null;
        Map<String, TensorValue> in = new LinkedHashMap<>();
        for (String name : l.inputs()) {
            Value v = values.get(name);
            TensorValue t = v == null || v.elements() > limit ? null : known.apply(name);
            if (t == null) return null;
            in.put(name, t);
        }
        if (l.view()) {
            Value y = l.outputs().get(0);
            TensorValue x = in.get(l.inputs().get(0));
            if (x.elements() == y.elements()) return Map.of(y.name(), new TensorValue(y.dtype(), y.shape(), x.bytes()));
            l = new Lowered(l.kind(), l.inputs(), l.outputs(), l.attrs(), false, l.dropped());   // a Slice view: computed here
        }
        return run(l, values, in);
    }

    private static Map<Value, Constant> constants(Lowered l, Map<String, TensorValue> results) {
        Map<Value, Constant> out = new LinkedHashMap<>();
        for (Value v : l.outputs()) {
            TensorValue t = results.get(v.name());
            // a data-dependent output (ir.OpSpec.BoundedRule) folds to its actual shape, smaller than the planned bound
            Value actual = t.shape() == null || java.util.Arrays.equals(t.shape(), v.shape()) ? v : new Value(v.name(), v.dtype(), t.shape());
            out.put(actual, Constant.of(Constant.bytes(ByteBuffer.wrap(t.bytes())), v.dtype()));
        }
        return out;
    }

    private String lastFailure;   // the message of run's latest refusal

    private Map<String, TensorValue> run(Lowered l, Map<String, Value> values, Map<String, TensorValue> in) {
        lastFailure = null;
        long total = 0;
        for (TensorValue t : in.values()) total += t.byteCount();
        if (!in.isEmpty() && total == 0) return null;   // only empty operands (ReduceSum's axes): no weight region to point into; left to the run
        GraphBuilder b = new GraphBuilder("fold");
        try {
            for (Map.Entry<String, TensorValue> e : in.entrySet()) {
                Value v = values.get(e.getKey());
                b.tensor(Tensor.of(v.name(), v.dtype(), v.shape()));
                ByteBuffer bytes = ByteBuffer.wrap(e.getValue().bytes());
                b.weight(v.name(), Constant.bytes(bytes));
            }
            for (Value v : l.outputs()) {
                if (v.elements() == 0) return null;      // a zero-size output beside others: leave it to the run
                b.tensor(Tensor.of(v.name(), v.dtype(), v.shape()));
            }
            GraphBuilder.OpBuilder op = b.op("fold", l.kind()).in(l.inputs().toArray(new String[0]))
                    .out(l.outputs().stream().map(Value::name).toArray(String[]::new));
            l.attrs().forEach(op::attr);
            op.add();
            for (Value v : l.outputs()) b.output(v.name());
            Graph g = b.build();
            return Executors.run(ArenaPlanner.plan(g), device(), List.of(Mode.PLANNED), 1, Map.of(), 1).last(Mode.PLANNED).outputs();
        } catch (GraphException | ExecutionException | DeviceException e) {
            String m = String.valueOf(e.getMessage());
            lastFailure = m.startsWith("'fold': ") ? m.substring("'fold': ".length()) : m;
            return null;                                 // not foldable here: the op stays, and says so where it runs
        }
    }

    private Device device() {
        if (device == null) device = Devices.open("sim", DeviceOptions.DEFAULT).device();
        return device;
    }

    @Override
    public void close() {
        if (device != null) device.close();
        device = null;
    }
}
