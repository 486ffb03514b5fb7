package org.arenaplan.onnx;

import org.arenaplan.io.Printable;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One ONNX node being lowered: its attributes, the shapes of its inputs, the constant values
 * known at import time, and errors that name the file, node and op.
 */
public final class NodeContext {
    private final String file;
    private final OnnxModel.Node node;
    private final int index;
    private final long opset;
    private final List<Value> inputs;            // null entries: omitted optional inputs
    private final java.util.function.Function<String, double[]> constants;
    private final java.util.function.Function<String, org.arenaplan.ir.TensorValue> tensors;
    private final java.util.function.Function<String, String> whyNotKnown;

    NodeContext(String file, OnnxModel.Node node, int index, long opset, List<Value> inputs, java.util.function.Function<String, double[]> constants) {
        this(file, node, index, opset, inputs, constants, name -> null);
    }

    /** @param tensors the exact value of a tensor known at import by name, else null (see {@link #constantTensor}) */
    NodeContext(String file, OnnxModel.Node node, int index, long opset, List<Value> inputs, java.util.function.Function<String, double[]> constants,
                java.util.function.Function<String, org.arenaplan.ir.TensorValue> tensors) {
        this(file, node, index, opset, inputs, constants, tensors, name -> null);
    }

    /**
     * @param whyNotKnown why a value computed from constants is nonetheless not known at import (a node on its
     *                    path whose kernel refused its constant inputs), by name, else null; said where a constant is required
     */
    NodeContext(String file, OnnxModel.Node node, int index, long opset, List<Value> inputs, java.util.function.Function<String, double[]> constants,
                java.util.function.Function<String, org.arenaplan.ir.TensorValue> tensors, java.util.function.Function<String, String> whyNotKnown) {
        this.whyNotKnown = whyNotKnown;
        this.file = file;
        this.node = node;
        this.index = index;
        this.opset = opset;
        this.inputs = inputs;
        this.constants = constants;
        this.tensors = tensors;
    }

    public OnnxModel.Node node() { return node; }

    public String opType() { return node.opType(); }

    /** The registry kind this node's op type imports as (its {@link OnnxImport#kind()}; null for an op type without an import). */
    public String kind() { return NodeLowering.kindOf(opType()); }

    public long opset() { return opset; }

    /** The ir op name: the node's name, or a stable one from its position when the file gave none. */
    public String opName() {
        return node.name();
    }

    public int inputCount() { return inputs.size(); }

    public boolean hasInput(int i) {
        return i < inputs.size() && inputs.get(i) != null;
    }

    public Value input(int i) {
        require(hasInput(i), "input #" + i + " is missing");
        return inputs.get(i);
    }

    /**
     * The values of input i, which must be known at import time (an initializer or a Constant):
     * an integer (or bool) tensor of rank 0 or 1, as ONNX types every such operand (a shape,
     * axes, starts, pads, repeats, K: int64, some int32 too; never a float, which ONNX Runtime
     * refuses as a type error and which would be cut to an integer here).
     *
     * @throws OnnxException naming the node and the input when it is not known at import, holds
     *                       a non-integer element type, or has rank 2 or more
     */
    public long[] constantInts(int i, String what) {
        Value v = input(i);
        double[] c = constants.apply(v.name());
        if (c == null) throw error(what + " (input #" + i + " '" + v.name() + "') must be a constant known at import time (an initializer, a Constant, or a graph input whose value --input "
                + v.name() + "=FILE.pb gives); it is not" + notKnownBecause(v.name()));
        require(v.dtype().isIntegral(), what + " (input #" + i + " '" + v.name() + "') is " + v.dtype().jsonName()
                + ", but ONNX types it as an integer tensor (int64, or int32 where the op allows it)");
        require(v.rank() <= 1, what + " (input #" + i + " " + v + ") has rank " + v.rank() + ", but ONNX takes a scalar or a 1-D tensor there");
        long[] out = new long[c.length];
        for (int k = 0; k < c.length; k++) out[k] = (long) c[k];
        return out;
    }

    /**
     * The value of input i with its element type, bit for bit, when known at import (a constant,
     * a value derived at import or a given graph input), else null. Unlike {@link #constantReals}
     * it holds an int64 beyond 2^53 exactly.
     */
    public org.arenaplan.ir.TensorValue constantTensor(int i) {
        return tensors.apply(input(i).name());
    }

    /** The values of input i when known at import time (an initializer or a Constant), else null. */
    public double[] constantValues(int i) {
        return constants.apply(input(i).name());
    }

    /** The values of input i as numbers, which must be known at import time (an initializer, a Constant or a graph input whose values were given). */
    public double[] constantReals(int i, String what) {
        Value v = input(i);
        double[] c = constants.apply(v.name());
        if (c == null) throw error(what + " (input #" + i + " '" + v.name() + "') must be a constant known at import time (an initializer, a Constant, or a graph input whose value --input "
                + v.name() + "=FILE.pb gives); it is not" + notKnownBecause(v.name()));
        return c.clone();
    }

    /** ": WHY" when a value computed from constants is not known at import because a kernel refused them on its path, else "". */
    private String notKnownBecause(String name) {
        String why = whyNotKnown.apply(name);
        return why == null ? "" : ": " + why;
    }

    public boolean hasAttr(String name) {
        return node.attributes().containsKey(name);
    }

    /** A GRAPH attribute (the body of an If, Loop or Scan), or null when the node does not give it. */
    public OnnxModel.Graph graph(String name) {
        return attr(name, OnnxModel.Attribute.GRAPH, OnnxModel.Graph.class, null);
    }

    public long[] ints(String name, long[] dflt) {
        return attr(name, OnnxModel.Attribute.INTS, long[].class, dflt);
    }

    /**
     * An integer attribute, or {@code dflt} when the node does not give it. A value the node
     * gives must lie in the range the {@link org.arenaplan.ir.OpRegistry} entry of the kind this
     * op type imports as declares for an integer attribute of that name, when it declares one
     * (e.g. LRN's {@code size} at least 1): a value the ONNX spec does not allow is refused here,
     * never normalised by the importer's arithmetic.
     *
     * @throws OnnxException naming the node, the attribute and its value when out of that range
     */
    public long integer(String name, long dflt) {
        Long v = attr(name, OnnxModel.Attribute.INT, Long.class, null);
        if (v == null) return dflt;
        org.arenaplan.ir.AttrSpec a = declared(name);
        if (a != null && a.type() == org.arenaplan.ir.AttrSpec.Type.INT) {
            String problem = a.problem(v);
            if (problem != null) throw error(problem);
        }
        return v;
    }

    /**
     * An element type attribute (Cast's {@code to}, EyeLike's {@code dtype}, ...: an ONNX
     * {@code TensorProto.DataType} code), or {@code dflt} when the node does not give it. Read
     * before any registry range check, so that a valid ONNX type arenaplan lacks and a number that
     * is no ONNX type are told apart.
     *
     * @throws OnnxException naming the node, the attribute, its code and the code's ONNX name:
     *         "attribute 'to' = 23 (FLOAT4E2M1) is an element type arenaplan does not support",
     *         "attribute 'to' = 99 is not an ONNX element type (TensorProto.DataType 1 to 26)"
     */
    public org.arenaplan.ir.DType elementType(String name, org.arenaplan.ir.DType dflt) {
        Long v = attr(name, OnnxModel.Attribute.INT, Long.class, null);
        if (v == null) return dflt;
        String problem = OnnxDTypes.problem(v);
        if (problem != null) throw error("attribute '" + name + "' = " + OnnxDTypes.describe(v) + " " + problem);
        return org.arenaplan.ir.DType.ofOnnx(v);
    }

    /**
     * An element type attribute whose ONNX default is 0, "not set" (QuantizeLinear's
     * {@code output_dtype} and {@code precision}, DequantizeLinear's {@code output_dtype}):
     * {@code dflt} when the node does not give it or gives 0, else as {@link #elementType}.
     *
     * @throws OnnxException as {@link #elementType}
     */
    public org.arenaplan.ir.DType elementTypeUnlessZero(String name, org.arenaplan.ir.DType dflt) {
        Long v = attr(name, OnnxModel.Attribute.INT, Long.class, null);
        return v == null || v == 0 ? dflt : elementType(name, dflt);
    }

    public double real(String name, double dflt) {
        return attr(name, OnnxModel.Attribute.FLOAT, Double.class, dflt);
    }

    /**
     * An integer attribute, or the default the {@link org.arenaplan.ir.OpRegistry} entry of the
     * kind this op type imports as declares (the same as ONNX's; Upsample reads Resize's). The
     * file's value must lie in that entry's range ({@link org.arenaplan.ir.AttrSpec#problem}):
     * Conv's {@code group} at least 1, a flag such as Gemm's {@code transA} 0 or 1 (see {@link #flag}).
     *
     * @throws OnnxException naming the node, the attribute and its value when out of range
     * @throws IllegalStateException when that entry declares no numeric default for {@code name}:
     *         an importer's mistake, not the model's
     */
    public long integer(String name) {
        return integer(name, ((Number) registered(name).dflt()).longValue());   // the value given is range-checked there
    }

    /**
     * An ONNX 0/1 attribute (keepdims, transA, ...). Any other value is refused rather than read as
     * true or false: implementations disagree on it (ONNX Runtime's Gemm and the ONNX reference
     * take a non-zero {@code transA} as true, ONNX Runtime's Reduce ops take a {@code keepdims}
     * other than 1 as false), and the spec describes only the two states.
     *
     * @throws OnnxException naming the node, the attribute and its value when it is not 0 or 1
     */
    public boolean flag(String name, boolean dflt) {
        long v = integer(name, dflt ? 1 : 0);
        String problem = org.arenaplan.ir.AttrSpec.flag(name).problem(v);
        if (problem != null) throw error(problem);
        return v == 1;
    }

    /** A float attribute, or the default of the kind this op type imports as (see {@link #integer(String)}). */
    public double real(String name) {
        return real(name, ((Number) registered(name).dflt()).doubleValue());
    }

    /** The attribute {@code name} of the registry entry of the kind this op type imports as, or null. */
    private org.arenaplan.ir.AttrSpec declared(String name) {
        String kind = kind();
        org.arenaplan.ir.OpSpec spec = kind == null ? null : org.arenaplan.ir.OpRegistry.get(kind);
        return spec == null ? null : spec.attr(name);
    }

    private org.arenaplan.ir.AttrSpec registered(String name) {
        org.arenaplan.ir.AttrSpec a = declared(name);
        String kind = kind();
        if (a == null || !(a.dflt() instanceof Number))
            throw new IllegalStateException(opType() + " (imported as " + kind + ") registers no default for '" + name + "'");
        return a;
    }

    public double[] reals(String name, double[] dflt) {
        return attr(name, OnnxModel.Attribute.FLOATS, double[].class, dflt);
    }

    public String[] strings(String name, String[] dflt) {
        return attr(name, OnnxModel.Attribute.STRINGS, String[].class, dflt);
    }

    public String string(String name, String dflt) {
        return attr(name, OnnxModel.Attribute.STRING, String.class, dflt);
    }

    public OnnxModel.TensorData tensor(String name) {
        return attr(name, OnnxModel.Attribute.TENSOR, OnnxModel.TensorData.class, null);
    }

    private <T> T attr(String name, int type, Class<T> cls, T dflt) {
        OnnxModel.Attribute a = node.attributes().get(name);
        if (a == null) return dflt;
        if (a.type() != type || !cls.isInstance(a.value()))
            throw error("attribute '" + name + "' is " + OnnxModel.Attribute.typeName(a.type()) + ", expected " + OnnxModel.Attribute.typeName(type)
                    + " (ONNX AttributeProto.AttributeType)");
        return cls.cast(a.value());
    }

    /**
     * Normalises a possibly negative axis (counted from the back) against {@code rank}, at every
     * opset: ONNX made negative axes the rule at opset 11 (Squeeze-1: "List of non-negative
     * integers"), but ONNX Runtime takes them before 11 too, counted from the back, for every op
     * but the ones {@link OlderOpsets#checkNegativeAxis} refuses (the facts are declared there).
     *
     * @throws OnnxException naming the node when {@code axis} is outside [-rank, rank - 1], or negative where OlderOpsets refuses it
     */
    public int axis(long axis, int rank, String what) {
        require(axis >= -rank && axis < rank, what + " " + axis + " is out of range for rank " + rank);
        OlderOpsets.checkNegativeAxis(this, axis, what);
        return (int) (axis < 0 ? axis + rank : axis);
    }

    public void require(boolean ok, String what) {
        if (!ok) throw error(what);
    }

    public OnnxException error(String what) {
        return new OnnxException(where() + ": " + what);
    }

    public String where() {
        NodeLowering.Domain other = node.domain().equals(NodeLowering.STAGE_DOMAIN) ? NodeLowering.PREVIEW   // a stage is part of a FlexAttention
                : NodeLowering.otherDomain(node);
        String version = node.inDefaultDomain() ? "opset " + opset
                : other != null ? other.name() + " opset " + other.versions() : node.domain();
        return file + ": node '" + Printable.name(opName()) + "' (" + Printable.name(node.opType()) + ", #" + index + ", " + version + ")";
    }

    public String shapes() {
        StringBuilder b = new StringBuilder();
        for (Value v : inputs) b.append(b.length() == 0 ? "" : ", ").append(v == null ? "-" : v.name() + Arrays.toString(v.shape()));
        return b.toString();
    }
}
