package org.arenaplan.cli;

import org.arenaplan.onnx.ShapeSweep;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --dim NAME=V1,V2,...} flags of an ONNX model's dynamic dims. */
final class Dims {
    private Dims() { }

    static Map<String, List<Long>> parse(List<String> specs) {
        Map<String, List<Long>> values = new LinkedHashMap<>();
        for (String spec : specs) {
            Map.Entry<String, List<Long>> e = ShapeSweep.parseDim(spec);
            if (values.put(e.getKey(), e.getValue()) != null) throw new UsageException("--dim " + e.getKey() + " given twice");
        }
        return values;
    }

    static boolean sweeps(Map<String, List<Long>> values) {
        for (List<Long> v : values.values()) if (v.size() > 1) return true;
        return false;
    }

    /** One value per dim (several are only for {@code plan}'s sweep). */
    static Map<String, Long> single(Map<String, List<Long>> values) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<Long>> e : values.entrySet()) {
            if (e.getValue().size() != 1) throw new UsageException("--dim " + e.getKey() + ": give one value here (several values sweep shapes in 'plan')");
            out.put(e.getKey(), e.getValue().get(0));
        }
        return out;
    }
}
