package org.arenaplan.onnx;

import java.util.List;
import java.util.Map;

/**
 * An ONNX node lowered to one ir op: the {@link org.arenaplan.ir.OpRegistry} kind, the inputs it
 * reads at run time (constant operands such as Reshape's shape are consumed at import), its
 * outputs with inferred shapes, its resolved attributes, whether output 0 is a view of input 0,
 * the optional outputs it does not produce (e.g. Dropout's mask), and the constants it reads
 * that the file does not hold, each one value for every element (an optional input left out
 * before a present one, given its ONNX default: the importer adds them as weights), and the
 * constant {@code tables} it reads that the importer built from attributes (a tree ensemble's
 * nodes: weights too, their bytes counted in the plan as any weight's).
 */
public record Lowered(String kind, List<String> inputs, List<Value> outputs, Map<String, Object> attrs, boolean view,
               List<String> dropped, Map<Value, Double> constants, Map<Value, org.arenaplan.ir.TensorValue> tables) {
    public Lowered {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        attrs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attrs));
        dropped = List.copyOf(dropped);
        constants = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(constants));
        tables = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tables));
    }

    public Lowered(String kind, List<String> inputs, List<Value> outputs, Map<String, Object> attrs, boolean view,
                   List<String> dropped, Map<Value, Double> constants) {
        this(kind, inputs, outputs, attrs, view, dropped, constants, Map.of());
    }

    public Lowered(String kind, List<String> inputs, List<Value> outputs, Map<String, Object> attrs, boolean view, List<String> dropped) {
        this(kind, inputs, outputs, attrs, view, dropped, Map.of());
    }
}
