package org.arenaplan.models;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.schedule.IrregularGraphs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An irregularly wired network (RandWire, Xie et al. 2019): {@link IrregularGraphs#randWire} with
 * the options as its {@link IrregularGraphs.Spec}, batch 1. {@code randwire} is Watts-Strogatz
 * wired (the paper's WS(N, K, P)), {@code randwire-er} Erdős-Rényi (ER(N, P)). Only float32: the
 * generator declares f32 tensors.
 */
final class RandWireModel implements Model {
    private final boolean ws;

    /** @param ws Watts-Strogatz wiring; otherwise Erdős-Rényi */
    RandWireModel(boolean ws) {
        this.ws = ws;
    }

    @Override
    public String name() {
        return ws ? "randwire" : "randwire-er";
    }

    @Override
    public String summary() {
        return "a randomly wired network (" + (ws ? "Watts-Strogatz WS(N, K, P)" : "Erdos-Renyi ER(N, P)")
                + "): per node Concat of its inputs, Relu, Conv 3x3 to C/2, C or 2C channels";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("nodes", ws ? "32" : "16");
        if (ws) d.put("k", "4");
        d.put("p", ws ? "0.75" : "0.2");
        d.put("channels", "16");
        d.put("image", "14");
        d.put("seed", "1");
        return d;
    }

    /** Watts-Strogatz wires nodes x k / 2 edges, Erdős-Rényi up to nodes^2 / 2: the limits keep either at about half a million. */
    @Override
    public Map<String, Integer> limits() {
        return ws ? Map.of("nodes", 10_000, "k", 100) : Map.of("nodes", 1_000);
    }

    @Override
    public Graph build(ModelOptions o) {
        if (o.dtype() != DType.F32) throw new IllegalArgumentException("model '" + name() + "': option --dtype must be float32 (the generator declares f32 tensors)");
        // the options' own errors name the model already; the generator's get the prefix here
        int nodes = o.positiveInt("nodes"), k = ws ? o.positiveInt("k") : 2, channels = o.positiveInt("channels"), image = o.positiveInt("image"), seed = o.positiveInt("seed");
        double p = o.fraction("p");
        try {
            return IrregularGraphs.randWire(new IrregularGraphs.Spec(ws ? "ws" : "er", nodes, k, p, channels, image, 1, seed));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model '" + name() + "': " + e.getMessage(), e);
        }
    }
}
