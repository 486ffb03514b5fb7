package org.arenaplan.models;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.schedule.IrregularGraphs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An irregularly wired network (RandWire, Xie et al. 2019): {@link IrregularGraphs#randWire} with
 * the options as its {@link IrregularGraphs.Spec}. Only float32: the generator declares f32 tensors.
 */
final class RandWireModel implements Model {
    @Override
    public String name() {
        return "randwire";
    }

    @Override
    public String summary() {
        return "a randomly wired network (Watts-Strogatz or Erdos-Renyi): per node Concat of its inputs, Relu, Conv 3x3 to C/2, C or 2C channels";
    }

    @Override
    public Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("wiring", "ws");
        d.put("nodes", "32");
        d.put("k", "4");
        d.put("p", "0.75");
        d.put("channels", "16");
        d.put("image", "14");
        d.put("batch", "1");
        d.put("seed", "1");
        return d;
    }

    @Override
    public Graph build(ModelOptions o) {
        if (o.dtype() != DType.F32) throw new IllegalArgumentException("model 'randwire': option --dtype must be float32 (the generator declares f32 tensors)");
        try {
            return IrregularGraphs.randWire(new IrregularGraphs.Spec(o.choice("wiring", List.of("ws", "er")), o.positiveInt("nodes"),
                    o.positiveInt("k"), o.fraction("p"), o.positiveInt("channels"), o.positiveInt("image"), o.positiveInt("batch"), o.positiveInt("seed")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model 'randwire': " + e.getMessage(), e);
        }
    }
}
