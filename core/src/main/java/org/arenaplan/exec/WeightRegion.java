package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.WeightValues;
import org.arenaplan.plan.ArenaPlanner;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A graph's weights in one device allocation of their own, filled once and then only read, so
 * several executors (even running at once) may share it. Values, in this order:
 * <ol>
 *   <li>{@code graph.weightValues(t)}: the model's own bytes (an ONNX initializer), uploaded bit
 *       for bit; read one weight at a time, so the host holds at most one weight's copy;</li>
 *   <li>{@code graph.weightFill(t)}: every element that constant, in the tensor's dtype;</li>
 *   <li>otherwise seeded from the tensor's name, so they do not depend on the order of weights:
 *       rank-1 weights (biases, scales, statistics) in [0.5, 1), others in +-1/sqrt(fan-in),
 *       fan-in being the product of all dims but the first (f32 only).</li>
 * </ol>
 * The device takes 4-byte words: a tensor of another width is uploaded as its bytes packed into
 * words (the last one zero-padded).
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
                float[] words = values(graph, t, seed);
                device.copyToDevice(s, words, KernelArg.write(buffer.at(offsets.get(w)), 4L * words.length, "weight '" + w + "'", w));
            }
        } catch (RuntimeException e) {
            buffer.close();
            throw e;
        }
    }

    /** The values of weight {@code t} as the device's 4-byte words. */
    public static float[] values(Graph graph, Tensor t, long seed) {
        WeightValues data = graph.weightValues(t.name());
        if (data != null) return words(data.read(), t);
        Double fill = graph.weightFill(t.name());
        if (fill != null && t.dtype() != null && t.dtype() != DType.F32) {
            ByteBuffer b = ByteBuffer.allocate(Math.toIntExact(t.bytes())).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining()) t.dtype().put(b, fill);
            return words(b.flip(), t);
        }
        if (t.bytes() % 4 != 0) throw new ExecutionException("weight '" + t.name() + "' (" + t.bytes() + " B) is not a whole number of f32 values");
        float[] v = new float[(int) (t.bytes() / 4)];
        if (fill != null) {
            java.util.Arrays.fill(v, fill.floatValue());
            return v;
        }
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ t.name().hashCode());
        long[] shape = t.shape();
        if (shape == null || shape.length <= 1) {
            for (int i = 0; i < v.length; i++) v[i] = (float) (0.5 + 0.5 * r.nextDouble());
        } else {
            long fanIn = 1;
            for (int d = 1; d < shape.length; d++) fanIn *= shape[d];
            double s = 1.0 / Math.sqrt(Math.max(1, fanIn));
            for (int i = 0; i < v.length; i++) v[i] = (float) ((2 * r.nextDouble() - 1) * s);
        }
        return v;
    }

    /** Little-endian bytes packed into 4-byte words, bit for bit; the last word zero-padded. */
    private static float[] words(ByteBuffer le, Tensor t) {
        if (le.remaining() != t.bytes())
            throw new ExecutionException("weight '" + t.name() + "': its values hold " + le.remaining() + " B, the tensor " + t.bytes() + " B");
        float[] v = new float[Math.toIntExact((t.bytes() + 3) / 4)];
        le = le.slice().order(ByteOrder.LITTLE_ENDIAN);
        int whole = (int) (t.bytes() / 4);
        le.asFloatBuffer().get(v, 0, whole);
        if (whole < v.length) {
            ByteBuffer last = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 4 * whole; i < le.limit(); i++) last.put(le.get(i));
            v[whole] = last.getFloat(0);
        }
        return v;
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
