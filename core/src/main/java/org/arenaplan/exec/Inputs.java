package org.arenaplan.exec;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/** Deterministic graph inputs: values in [-1, 1) seeded from the seed and the input's name. */
public final class Inputs {
    private Inputs() { }

    public static Map<String, float[]> of(Graph graph, long seed) {
        Map<String, float[]> in = new LinkedHashMap<>();
        for (String name : graph.inputs()) {
            Tensor t = graph.tensor(name);
            SplittableRandom r = new SplittableRandom(seed * 31 + name.hashCode());
            float[] v = new float[(int) (t.bytes() / 4)];
            for (int i = 0; i < v.length; i++) v[i] = (float) (2 * r.nextDouble() - 1);
            in.put(name, v);
        }
        return in;
    }
}
