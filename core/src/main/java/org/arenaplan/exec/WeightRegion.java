package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.ir.WeightValues;
import org.arenaplan.plan.ArenaPlanner;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A graph's weights in one device allocation of their own, filled once and then only read, so
 * several executors (even running at once) may share it. Values, in this order:
 * <ol>
 *   <li>{@code graph.weightValues(t)}: the model's own bytes (an ONNX initializer), uploaded bit
 *       for bit; read one weight at a time, so the host holds at most one weight's copy;</li>
 *   <li>{@code graph.weightFill(t)}: every element that constant, in the tensor's dtype
 *       ({@link DType#cast} from f64);</li>
 *   <li>otherwise seeded from the tensor's name, so they do not depend on the order of weights:
 *       rank-1 weights (biases, scales, statistics) in [0.5, 1), others in +-1/sqrt(fan-in),
 *       fan-in being the product of all dims but the first, in the tensor's floating-point type;
 *       integer and bool weights 0 (valid indices and masks).</li>
 * </ol>
 * Each weight is uploaded as its own bytes (its true element size, no padding); the host holds
 * one copy of one weight at a time.
 */
public final class WeightRegion implements AutoCloseable {
    /**
     * Bytes allocated for a request of 0 (weights or an arena of empty tensors only): every tensor,
     * even an empty one, gets an address inside a buffer (cuMemAlloc refuses 0 bytes).
     */
    static final long MIN_ALLOCATION = 4;

    private final DeviceBuffer buffer;
    private final Map<String, Long> offsets = new LinkedHashMap<>();

    public WeightRegion(Device device, Graph graph, long seed) {
        long total = 0;
        for (String w : graph.weights()) {
            offsets.put(w, total);
            total += alignUp(graph.tensor(w).bytes());
        }
        this.buffer = graph.weights().isEmpty() ? null : device.allocate(Math.max(MIN_ALLOCATION, total), "weights of " + graph.name());
        if (buffer == null) return;
        try (DeviceStream s = device.createStream("weight-upload")) {
            for (String w : graph.weights()) {
                Tensor t = graph.tensor(w);
                if (t.bytes() == 0) continue;
                device.copyToDevice(s, bytes(graph, t, seed), KernelArg.write(buffer.at(offsets.get(w)), t.bytes(), "weight '" + w + "'", w));
            }
        } catch (RuntimeException e) {
            buffer.close();
            throw e;
        }
    }

    /** The values of weight {@code t}, of its type (f32 when it has none). */
    public static TensorValue values(Graph graph, Tensor t, long seed) {
        return new TensorValue(t.dtype() == null ? DType.F32 : t.dtype(), t.shape(), bytes(graph, t, seed));
    }

    /** The bytes of weight {@code t} as the device holds them: the only host copy made. */
    private static byte[] bytes(Graph graph, Tensor t, long seed) {
        DType d = t.dtype() == null ? DType.F32 : t.dtype();
        if (t.bytes() % d.bytes() != 0) throw new ExecutionException("weight '" + t.name() + "' (" + t.bytes() + " B) is not a whole number of " + d.jsonName() + " values");
        WeightValues data = graph.weightValues(t.name());
        if (data != null) {
            ByteBuffer le = data.read();
            if (le.remaining() != t.bytes())
                throw new ExecutionException("weight '" + t.name() + "': its values hold " + le.remaining() + " B, the tensor " + t.bytes() + " B");
            byte[] out = new byte[le.remaining()];
            le.duplicate().get(out);
            return out;
        }
        ByteBuffer out = TensorValue.allocate(t.bytes());
        int n = Math.toIntExact(t.elements());            // packed types: from the shape (their last byte may be padded)
        ByteBuffer one = TensorValue.allocate(8);
        Double fill = graph.weightFill(t.name());
        if (fill != null) {
            DType.F64.cast(one.putDouble(0, fill), 0, d, out, 0);
            if (d.isPacked()) for (int i = 1; i < n; i++) DType.F64.cast(one, 0, d, out, i);
            else for (int i = 1; i < n; i++) out.put(i * d.bytes(), out, 0, d.bytes());
            return out.array();
        }
        if (!d.isFloatingPoint() && !d.isFloat8()) return out.array();
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ t.name().hashCode());
        long[] shape = t.shape();
        double scale = 0;
        if (shape != null && shape.length > 1) {
            long fanIn = 1;
            for (int dim = 1; dim < shape.length; dim++) fanIn *= shape[dim];
            scale = 1.0 / Math.sqrt(Math.max(1, fanIn));
        }
        for (int i = 0; i < n; i++) {
            double v = scale == 0 ? (float) (0.5 + 0.5 * r.nextDouble()) : (float) ((2 * r.nextDouble() - 1) * scale);
            DType.F64.cast(one.putDouble(0, v), 0, d, out, i);
        }
        return out.array();
    }

    private static long alignUp(long b) {
        long a = ArenaPlanner.CUDA_ALIGNMENT;
        return (b + a - 1) / a * a;
    }

    /** Whether {@code tensor} is a weight placed in this region. */
    public boolean holds(String tensor) {
        return offsets.containsKey(tensor);
    }

    /**
     * The weight's address in the region.
     *
     * @throws ExecutionException when {@code tensor} is not a weight of the region
     */
    public DevicePointer pointer(String tensor) {
        Long o = offsets.get(tensor);
        if (o == null) throw new ExecutionException("tensor '" + tensor + "' is not a weight");
        return buffer.at(o);
    }

    /** The region's size in bytes (each weight rounded up to 256 B); 0 when the graph has no weight. */
    public long bytes() {
        return buffer == null ? 0 : buffer.bytes();
    }

    @Override
    public void close() {
        if (buffer != null) buffer.close();
    }
}
