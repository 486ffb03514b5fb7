package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.WeightValues;

import java.util.List;
import java.util.Map;

/**
 * The part of an ONNX {@code ModelProto} the importer needs, as plain immutable values converted
 * from the generated schema classes by {@link OnnxProtos}. Tensor values stay where the file
 * keeps them until read.
 *
 * @param opsets opset version per operator domain ({@code ""} is the default ONNX domain)
 */
public record OnnxModel(long irVersion, Map<String, Long> opsets, Graph graph) {

    public OnnxModel {
        opsets = Map.copyOf(opsets);
    }

    /**
     * Opset of the default ONNX domain: the {@code ""} entry, else the {@code "ai.onnx"} one (both
     * spell the default domain; where a file lists both at different versions, {@code ""} wins, as
     * onnx 1.23.1's checker reads a node of domain {@code ""}); 1 when the file names neither.
     */
    public long defaultOpset() {
        Long v = opsets.get("");
        if (v == null) v = opsets.get("ai.onnx");
        return v == null ? 1 : v;
    }

    /** Nodes in file order (the schedule), constant tensors, and the graph's declared values. */
    public record Graph(String name, List<Node> nodes, List<TensorData> initializers,
                        List<ValueInfo> inputs, List<ValueInfo> outputs, List<ValueInfo> valueInfo) {
        public Graph {
            nodes = List.copyOf(nodes);
            initializers = List.copyOf(initializers);
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
            valueInfo = List.copyOf(valueInfo);
        }
    }

    /**
     * One NodeProto; an empty input name means an omitted optional input. {@code name} is never empty:
     * the file's, or {@code <opType>_<index>} where it gave none, made unique in its graph ({@code OnnxProtos}).
     */
    public record Node(String name, String opType, String domain, List<String> inputs, List<String> outputs,
                       Map<String, Attribute> attributes) {
        public Node {
            inputs = List.copyOf(inputs);
            outputs = List.copyOf(outputs);
            attributes = Map.copyOf(attributes);
        }

        /** Whether the node's op is of the default ONNX domain ({@code ""} or {@code "ai.onnx"}). */
        public boolean inDefaultDomain() {
            return domain.isEmpty() || domain.equals("ai.onnx");
        }
    }

    /**
     * One AttributeProto. {@code value} is a {@code Long} (INT), {@code Double} (FLOAT),
     * {@code String} (STRING), {@code long[]} (INTS), {@code double[]} (FLOATS), {@code String[]} (STRINGS) or
     * {@link TensorData} (TENSOR) or {@link Graph} (GRAPH: the body of an If, Loop or Scan); other
     * kinds are kept as null and rejected where used.
     */
    public record Attribute(String name, int type, Object value) {
        public static final int FLOAT = 1, INT = 2, STRING = 3, TENSOR = 4, GRAPH = 5, FLOATS = 6, INTS = 7, STRINGS = 8;

        /** The ONNX name of an {@code AttributeProto.AttributeType} code ({@code INTS} for 7), or the code itself when unknown. */
        public static String typeName(int type) {
            String[] names = {"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH", "FLOATS", "INTS", "STRINGS", "TENSORS", "GRAPHS",
                "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
            return type >= 0 && type < names.length ? names[type] : "type " + type;
        }
    }

    /**
     * One TensorProto: element type code (ONNX {@code TensorProto.DataType}), dims, and where its
     * values are read from ({@code source}: little-endian bytes of the element type; null when the
     * type has no fixed width, e.g. STRING). Nothing is read until asked.
     */
    public record TensorData(String name, int dataType, long[] dims, WeightValues source) {
        public long elementCount() {
            long n = 1;
            for (long d : dims) n = Math.multiplyExact(n, d);
            return n;
        }

        /** arenaplan's element type, or null when it has none for {@link #dataType()}. */
        public DType dtype() {
            return org.arenaplan.ir.DType.ofOnnx(dataType);
        }

        /** Every element widened to a double (reads the values); null when they cannot be read. */
        public double[] values() {
            return source == null || dtype() == null ? null : OnnxTensors.doubles(source, dtype(), elementCount());
        }

        /** The value every element holds when all are equal (reads the values up to the first difference), else null. */
        public Double uniform() {
            return source == null || dtype() == null ? null : OnnxTensors.uniform(source, dtype());
        }
    }

    /**
     * A declared value: element type and dims; a dim is a number or a symbolic name.
     *
     * @param notTensor null for a tensor (ONNX TypeProto tensor_type, or no type); else what the
     *                  value is, for messages: "a sequence", "an optional", "a map", ...
     * @param element   for a sequence or optional, the declared type of what it holds (TypeProto
     *                  sequence_type.elem_type, optional_type.elem_type), under the same name; null
     *                  when the file does not declare it, and for every other value
     */
    public record ValueInfo(String name, int elemType, List<Dim> dims, boolean hasShape, String notTensor, ValueInfo element) {
        public ValueInfo {
            dims = List.copyOf(dims);
        }

        /** A tensor value. */
        public ValueInfo(String name, int elemType, List<Dim> dims, boolean hasShape) {
            this(name, elemType, dims, hasShape, null, null);
        }
    }

    /** A dimension: {@code value} when known, else {@code param} (may be empty when unnamed). */
    public record Dim(Long value, String param) { }
}
