package org.arenaplan.onnx;

import java.util.List;
import java.util.Map;

/**
 * An ONNX node lowered to one ir op: the {@link org.arenaplan.ir.OpKinds} kind, the inputs it
 * reads at run time (constant operands such as Reshape's shape are consumed at import), its
 * outputs with inferred shapes, its resolved attributes, whether output 0 is a view of input 0,
 * and the optional outputs it does not produce (e.g. Dropout's mask).
 */
public record Lowered(String kind, List<String> inputs, List<Value> outputs, Map<String, Object> attrs, boolean view,
               List<String> dropped) {
    public Lowered {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        attrs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attrs));
        dropped = List.copyOf(dropped);
    }
}
