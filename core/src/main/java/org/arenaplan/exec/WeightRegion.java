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
import org.arenaplan.plan.ArenaPlanner;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A graph's weights in one device allocation of their own, filled once and then only read, so
 * several executors (even running at once) may share it. Values: {@code graph.weightFill(t)} when
 * the graph gives a constant; otherwise seeded from the tensor's name, so they do not depend on
 * the order of weights: rank-1 weights (biases, scales, statistics) in [0.5, 1), others in
 * +-1/sqrt(fan-in), fan-in being the product of all dims but the first (converted to the
 * weight's type); integer and bool weights without a constant are 0 (valid indices and masks).
 */
public final class WeightRegion implements AutoCloseable {
    private final DeviceBuffer buffer;
    private final Map<String, Long> offsets = new LinkedHashMap<>();

    public WeightRegion(Device device, Graph graph, long seed) {
        long total = 0;
        for (String w : graph.weights()) {
            offsets.put(w, total);
            total += alignUp(graph.tensor(w).bytes());
        }
        this.buffer = total == 0 ? null : device.allocate(total, "weights of " + graph.name());
        if (buffer == null) return;
        try (DeviceStream s = device.createStream("weight-upload")) {
            for (String w : graph.weights()) {
                Tensor t = graph.tensor(w);
                if (t.bytes() == 0) continue;
                device.copyToDevice(s, values(graph, t, seed).bytes(), KernelArg.write(buffer.at(offsets.get(w)), t.bytes(), "weight '" + w + "'", w));
            }
        } catch (RuntimeException e) {
            buffer.close();
            throw e;
        }
    }

    /** The deterministic values of weight {@code t}, of its type (f32 when it has none). */
    public static TensorValue values(Graph graph, Tensor t, long seed) {
        DType d = t.dtype() == null ? DType.F32 : t.dtype();
        if (t.bytes() % d.bytes() != 0) throw new ExecutionException("weight '" + t.name() + "' (" + t.bytes() + " B) is not a whole number of " + d.jsonName() + " values");
        double[] v = new double[Math.toIntExact(t.bytes() / d.bytes())];
        Double fill = graph.weightFill(t.name());
        if (fill != null) {
            java.util.Arrays.fill(v, fill);
        } else if (d.isFloatingPoint()) {
            SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ t.name().hashCode());
            long[] shape = t.shape();
            if (shape == null || shape.length <= 1) {
                for (int i = 0; i < v.length; i++) v[i] = (float) (0.5 + 0.5 * r.nextDouble());
            } else {
                long fanIn = 1;
                for (int dim = 1; dim < shape.length; dim++) fanIn *= shape[dim];
                double s = 1.0 / Math.sqrt(Math.max(1, fanIn));
                for (int i = 0; i < v.length; i++) v[i] = (float) ((2 * r.nextDouble() - 1) * s);
            }
        }
        return TensorValue.ofDoubles(d, t.shape(), v);
    }

    private static long alignUp(long b) {
        long a = ArenaPlanner.CUDA_ALIGNMENT;
        return (b + a - 1) / a * a;
    }

    public boolean holds(String tensor) {
        return offsets.containsKey(tensor);
    }

    public DevicePointer pointer(String tensor) {
        Long o = offsets.get(tensor);
        if (o == null) throw new ExecutionException("tensor '" + tensor + "' is not a weight");
        return buffer.at(o);
    }

    public long bytes() {
        return buffer == null ? 0 : buffer.bytes();
    }

    @Override
    public void close() {
        if (buffer != null) buffer.close();
    }
}
