package org.arenaplan.onnx;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Map.entry;

/**
 * The attribute names each op type the importer reads may carry, from the ONNX operator spec
 * (docs/Operators.md of onnx/onnx, the op versions of opsets 9 to 13, the importer's range). An
 * attribute outside its op's list is an error naming the node, never ignored: a misspelt
 * {@code alpah} or {@code transb} would otherwise run the op with defaults. Whether a known
 * attribute's value is supported is the lowering's business; the few it never reads do not change
 * an inference result (MaxPool's storage_order orders the dropped Indices output, BatchNormalization's
 * momentum and Dropout's ratio and seed act in training only).
 */
final class OnnxAttributes {
    private static final Set<String> NONE = Set.of();
    private static final Set<String> POOL_COMMON = Set.of("auto_pad", "kernel_shape", "pads", "strides", "ceil_mode");

    private static final Map<String, Set<String>> BY_OP = Map.ofEntries(
            entry("Conv", Set.of("auto_pad", "dilations", "group", "kernel_shape", "pads", "strides")),
            entry("MaxPool", union(POOL_COMMON, Set.of("dilations", "storage_order"))),
            entry("AveragePool", union(POOL_COMMON, Set.of("count_include_pad"))),
            entry("GlobalAveragePool", NONE),
            entry("Relu", NONE), entry("Sigmoid", NONE), entry("Tanh", NONE),
            entry("LRN", Set.of("alpha", "beta", "bias", "size")),
            entry("BatchNormalization", Set.of("epsilon", "momentum")),
            entry("Add", NONE), entry("Sub", NONE), entry("Mul", NONE), entry("Div", NONE), entry("Sum", NONE),
            entry("Gemm", Set.of("alpha", "beta", "transA", "transB")),
            entry("MatMul", NONE),
            entry("Softmax", Set.of("axis")),
            entry("Concat", Set.of("axis")),
            entry("Transpose", Set.of("perm")),
            entry("Reshape", NONE),
            entry("Flatten", Set.of("axis")),
            entry("Unsqueeze", Set.of("axes")),
            entry("Squeeze", Set.of("axes")),
            entry("Identity", NONE),
            entry("Dropout", Set.of("ratio", "seed")),
            entry("Cast", Set.of("to")),
            entry("ConstantOfShape", Set.of("value")),
            entry("Constant", Set.of("value", "sparse_value", "value_float", "value_floats", "value_int", "value_ints", "value_string", "value_strings")));

    private OnnxAttributes() { }

    /** The op types with an attribute list: every op type the importer lowers, folds or turns into a weight. */
    static Set<String> opTypes() {
        return BY_OP.keySet();
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new java.util.HashSet<>(a);
        u.addAll(b);
        return Set.copyOf(u);
    }

    /**
     * Throws when the node carries an attribute its op type does not define. Op types outside
     * the table are left to the lowering, which refuses them as unsupported.
     *
     * @throws OnnxException naming the file, node, op, the attribute and the op's attributes
     */
    static void check(NodeContext n) {
        Set<String> known = BY_OP.get(n.opType());
        if (known == null) return;
        for (String name : n.node().attributes().keySet()) {
            if (!known.contains(name)) {
                throw n.error("unknown attribute '" + name + "'; " + n.opType() + " takes "
                        + (known.isEmpty() ? "no attributes" : String.join(", ", new TreeSet<>(known))) + " (ONNX operator spec)");
            }
        }
    }
}
