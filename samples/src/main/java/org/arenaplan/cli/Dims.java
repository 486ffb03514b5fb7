package org.arenaplan.cli;

import org.arenaplan.io.InputException;
import org.arenaplan.onnx.ShapeSweep;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --dim NAME=V1,V2,...} flags of an ONNX model's dynamic dims. A built-in model may
 * have its own {@code --dim} option (the chain's {@code --dim 4096}): with {@code --model}, a
 * {@code --dim} value without {@code =} is that model's option ({@link #routeToModel}).
 */
final class Dims {
    private Dims() { }

    /**
     * With {@code --model}: moves every {@code --dim V} (no {@code =}) into the model's words as
     * {@code --dim V}, and refuses {@code --dim NAME=V}, which only ONNX models take. Without
     * {@code --model}: returns {@code dims} unchanged.
     *
     * @param modelWords the command's unmatched words (the model's options), appended to
     * @return the ONNX dims left for the command
     */
    static List<String> routeToModel(String model, List<String> dims, List<String> modelWords) {
        if (model == null || dims.isEmpty()) return dims;
        for (String d : dims) {
            if (d.indexOf('=') >= 0)
                throw new InputException("--dim " + d + ": --dim applies to ONNX models only when written NAME=V (a dynamic dim); built-in models take --OPTION VALUE"
                        + " ('arenaplan plan --model " + model + " --help' lists them)");
            modelWords.add("--dim");
            modelWords.add(d);
        }
        return List.of();
    }

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
