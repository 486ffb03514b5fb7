package org.arenaplan.exec;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Deterministic graph inputs, seeded from the seed and the input's name, each of its tensor's
 * type and size (a tensor without a dtype is f32): floating-point values in [-1, 1); integer and
 * bool values 0 or 1, which are valid as indices (into any non-empty axis) and as masks. An input
 * larger than one host array (2 GiB) is left out: no device run could be fed it from the host, and
 * the executor names it as not given (after the device has refused its memory, where it does).
 */
public final class Inputs {
    private Inputs() { }

    /** @param seed the seed of the values (the same seed and graph, the same inputs, byte for byte) */
    public static Map<String, TensorValue> of(Graph graph, long seed) {
        Map<String, TensorValue> in = new LinkedHashMap<>();
        for (String name : graph.inputs()) {
            Tensor t = graph.tensor(name);
            if (t.bytes() > Integer.MAX_VALUE - 8) continue;
            DType d = t.dtype() == null ? DType.F32 : t.dtype();
            SplittableRandom r = new SplittableRandom(seed * 31 + name.hashCode());
            ByteBuffer b = TensorValue.allocate(t.bytes());
            int n = Math.toIntExact(d.isPacked() ? t.elements() : t.bytes() / d.bytes());   // packed: from the shape (the last byte may be padded)
            ByteBuffer one = TensorValue.allocate(8);
            for (int i = 0; i < n; i++) {
                if (d.isIntegral()) d.putLong(b, i, r.nextInt(2));
                else {
                    one.putDouble(0, (float) (2 * r.nextDouble() - 1));
                    DType.F64.cast(one, 0, d, b, i);
                }
            }
            in.put(name, new TensorValue(d, t.shape(), b.array()));
        }
        return in;
    }
}
