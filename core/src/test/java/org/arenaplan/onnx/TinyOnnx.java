package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** Writes small ONNX models for tests with the generated schema builders ({@code OnnxMl}). */
final class TinyOnnx {
    private long opset = 13;
    private final OnnxMl.GraphProto.Builder graph = OnnxMl.GraphProto.newBuilder().setName("tiny");
    private final List<OnnxMl.FunctionProto> functions = new java.util.ArrayList<>();

    /** A body node's attribute that refers to the calling node's attribute {@code name} (FunctionProto bodies only). */
    record Ref(String name, OnnxMl.AttributeProto.AttributeType type) { }

    /**
     * A model-local function (IR 8): {@code body}'s nodes over formal inputs {@code in}, computing
     * {@code out}; {@code attrs} are its attribute names, {@code defaults} its defaulted ones (IR 9)
     * as name, value pairs like {@link #node}'s. Its domain is imported at version 1, the default
     * domain at this model's opset.
     */
    TinyOnnx function(String domain, String name, List<String> in, List<String> out, List<String> attrs, TinyOnnx body, Object... defaults) {
        OnnxMl.FunctionProto.Builder f = OnnxMl.FunctionProto.newBuilder().setDomain(domain).setName(name).addAllInput(in).addAllOutput(out)
                .addAllAttribute(attrs).addAllNode(body.graph.getNodeList())
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(body.opset));
        body.graph.getNodeList().stream().map(OnnxMl.NodeProto::getDomain).filter(d -> !d.isEmpty() && !notImported.contains(d)).distinct()
                .forEach(d -> f.addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain(d).setVersion(1)));
        if (defaults.length > 0) {
            OnnxMl.NodeProto holder = new TinyOnnx().node("d", "D", List.of(), List.of(), defaults).graph.getNode(0);
            f.addAllAttributeProto(holder.getAttributeList());
        }
        functions.add(f.build());
        return this;
    }

    TinyOnnx opset(long v) { opset = v; return this; }

    /** Gives the last function defined the overload {@code o} (IR 10). */
    TinyOnnx functionOverload(String o) {
        functions.set(functions.size() - 1, functions.get(functions.size() - 1).toBuilder().setOverload(o).build());
        return this;
    }

    /** Clears the last function's opset_import: it imports no domain (the ONNX checker refuses its nodes). */
    TinyOnnx functionWithoutOpsetImport() {
        functions.set(functions.size() - 1, functions.get(functions.size() - 1).toBuilder().clearOpsetImport().build());
        return this;
    }

    /** Leaves {@code domain} out of the model's opset_import although its functions or nodes use it. */
    TinyOnnx notImported(String domain) {
        notImported.add(domain);
        return this;
    }

    private final java.util.Set<String> notImported = new java.util.HashSet<>();

    /** Gives the last node the overload {@code o}: it calls that overload of a local function (IR 10). */
    TinyOnnx overload(String o) {
        graph.getNodeBuilder(graph.getNodeCount() - 1).setOverload(o);
        return this;
    }

    /** A float graph input; each dim is a Long or a String (symbolic). */
    TinyOnnx input(String name, Object... dims) { graph.addInput(valueInfo(name, OnnxDTypes.FLOAT, true, dims)); return this; }

    /** A graph input of an ONNX element type. */
    TinyOnnx input(int elemType, String name, Object... dims) { graph.addInput(valueInfo(name, elemType, true, dims)); return this; }

    /** A float graph output; with dims its shape is declared too (the importer checks both). */
    TinyOnnx output(String name, Object... dims) { graph.addOutput(valueInfo(name, OnnxDTypes.FLOAT, dims.length > 0, dims)); return this; }

    /** An output of that element type whose shape the file leaves open. */
    TinyOnnx outputOfType(int elemType, String name) { graph.addOutput(valueInfo(name, elemType, false)); return this; }

    /** A graph output of an ONNX element type, its shape declared. */
    TinyOnnx output(int elemType, String name, Object... dims) { graph.addOutput(valueInfo(name, elemType, true, dims)); return this; }

    /** A graph (or body) input that is a sequence of tensors of an ONNX element type (ONNX TypeProto sequence_type). */
    TinyOnnx sequenceInput(int elemType, String name) { graph.addInput(sequence(name, elemType)); return this; }

    /** A graph (or body) output that is a sequence of tensors of an ONNX element type. */
    TinyOnnx sequenceOutput(int elemType, String name) { graph.addOutput(sequence(name, elemType)); return this; }

    /** A graph input that is an optional tensor of an ONNX element type (ONNX TypeProto optional_type). */
    TinyOnnx optionalInput(int elemType, String name) {
        OnnxMl.TypeProto element = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(elemType)).build();
        graph.addInput(OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setOptionalType(OnnxMl.TypeProto.Optional.newBuilder().setElemType(element))).build());
        return this;
    }

    /** A graph input that is a sequence of tensors of an ONNX element type, each declared of shape {@code elementDims}. */
    TinyOnnx sequenceInput(int elemType, String name, long... elementDims) {
        OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
        for (long d : elementDims) shape.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        OnnxMl.TypeProto element = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(elemType).setShape(shape)).build();
        graph.addInput(OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setSequenceType(OnnxMl.TypeProto.Sequence.newBuilder().setElemType(element))).build());
        return this;
    }

    private static OnnxMl.ValueInfoProto sequence(String name, int elemType) {
        OnnxMl.TypeProto element = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(elemType)).build();
        return OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setSequenceType(OnnxMl.TypeProto.Sequence.newBuilder().setElemType(element))).build();
    }

    /** A {@code value_info} entry: an intermediate value's declared element type and shape. */
    TinyOnnx valueInfo(int elemType, String name, Object... dims) { graph.addValueInfo(valueInfo(name, elemType, true, dims)); return this; }

    /** An int64 initializer (int64_data). */
    TinyOnnx ints(String name, long... values) {
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.INT64).addDims(values.length);
        for (long v : values) t.addInt64Data(v);
        graph.addInitializer(t);
        return this;
    }

    /** A scalar (rank 0) int64 initializer. */
    TinyOnnx scalar(String name, long value) {
        graph.addInitializer(OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.INT64).addInt64Data(value));
        return this;
    }

    /** An int32 initializer (int32_data). */
    TinyOnnx int32s(String name, int... values) {
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.INT32).addDims(values.length);
        for (int v : values) t.addInt32Data(v);
        graph.addInitializer(t);
        return this;
    }

    /** A float initializer of the given dims, every element {@code fill} (float_data). */
    TinyOnnx floats(String name, float fill, long... dims) {
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.FLOAT);
        long n = 1;
        for (long d : dims) { t.addDims(d); n *= d; }
        for (long i = 0; i < n; i++) t.addFloatData(fill);
        graph.addInitializer(t);
        return this;
    }

    /** A float initializer stored as little-endian raw_data, as exporters write real weights; dims [n] unless given. */
    TinyOnnx raw(String name, float[] values, long... dims) {
        graph.addInitializer(rawTensor(name, values, dims.length == 0 ? new long[]{values.length} : dims));
        return this;
    }

    /** Any initializer, as built by the caller (external data, typed fields of other types). */
    TinyOnnx initializer(OnnxMl.TensorProto t) {
        graph.addInitializer(t);
        return this;
    }

    static OnnxMl.TensorProto rawTensor(String name, float[] values, long... dims) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) b.putFloat(v);
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.FLOAT).setRawData(ByteString.copyFrom(b.array()));
        for (long d : dims) t.addDims(d);
        return t.build();
    }

    /** A node; attrs alternate name, value (Long, Double, String, long[], double[], String[], OnnxMl.TensorProto, OnnxMl.TypeProto, or a TinyOnnx whose graph is a GRAPH: a body). */
    /**
     * {@code out = x[mask]} as both torch.onnx exporters write it: NonZero of the mask (node {@code nz<tag>}, output
     * {@code i<tag>}), Transpose to [n, rank] ({@code tr<tag>}, {@code t<tag>}), GatherND of x by those rows ({@code gn<tag>}).
     */
    TinyOnnx select(String tag, String x, String mask, String out) {
        return node("nz" + tag, "NonZero", List.of(mask), List.of("i" + tag))
                .node("tr" + tag, "Transpose", List.of("i" + tag), List.of("t" + tag), "perm", new long[]{1, 0})
                .node("gn" + tag, "GatherND", List.of(x, "t" + tag), List.of(out));
    }

    TinyOnnx node(String name, String op, List<String> in, List<String> out, Object... attrs) {
        OnnxMl.NodeProto.Builder n = OnnxMl.NodeProto.newBuilder().setName(name).setOpType(op).addAllInput(in).addAllOutput(out);
        for (int i = 0; i < attrs.length; i += 2) {
            OnnxMl.AttributeProto.Builder a = OnnxMl.AttributeProto.newBuilder().setName((String) attrs[i]);
            Object v = attrs[i + 1];
            if (v instanceof Long l) a.setI(l).setType(OnnxMl.AttributeProto.AttributeType.INT);
            else if (v instanceof Double d) a.setF(d.floatValue()).setType(OnnxMl.AttributeProto.AttributeType.FLOAT);
            else if (v instanceof String s) a.setS(ByteString.copyFromUtf8(s)).setType(OnnxMl.AttributeProto.AttributeType.STRING);
            else if (v instanceof long[] ls) { for (long x : ls) a.addInts(x); a.setType(OnnxMl.AttributeProto.AttributeType.INTS); }
            else if (v instanceof double[] ds) { for (double x : ds) a.addFloats((float) x); a.setType(OnnxMl.AttributeProto.AttributeType.FLOATS); }
            else if (v instanceof String[] ss) { for (String x : ss) a.addStrings(ByteString.copyFromUtf8(x)); a.setType(OnnxMl.AttributeProto.AttributeType.STRINGS); }
            else if (v instanceof OnnxMl.TensorProto t) a.setT(t).setType(OnnxMl.AttributeProto.AttributeType.TENSOR);
            else if (v instanceof TinyOnnx g) a.setG(g.graph.build()).setType(OnnxMl.AttributeProto.AttributeType.GRAPH);
            else if (v instanceof OnnxMl.TypeProto tp) a.setTp(tp).setType(OnnxMl.AttributeProto.AttributeType.TYPE_PROTO);
            else if (v instanceof Ref r) a.setRefAttrName(r.name()).setType(r.type());
            else throw new IllegalArgumentException(String.valueOf(v));
            n.addAttribute(a);
        }
        graph.addNode(n);
        return this;
    }

    /** Puts the last node in {@code domain} (e.g. ai.onnx.preview), imported at version 1 unless {@link #domain(String, long)} said otherwise. */
    TinyOnnx domain(String domain) {
        graph.getNodeBuilder(graph.getNodeCount() - 1).setDomain(domain);
        if (!domain.isEmpty()) domains.putIfAbsent(domain, 1L);
        return this;
    }

    /** Puts the last node in {@code domain}, which the model imports at {@code version} (ai.onnx.ml 5 for TreeEnsemble). */
    TinyOnnx domain(String domain, long version) {
        domain(domain);
        domains.put(domain, version);
        return this;
    }

    private final java.util.Map<String, Long> domains = new java.util.TreeMap<>();

    /** A node of {@code domain} (a call of a local function there), attrs as {@link #node}'s. */
    TinyOnnx call(String domain, String name, String op, List<String> in, List<String> out, Object... attrs) {
        node(name, op, in, out, attrs);
        graph.getNodeBuilder(graph.getNodeCount() - 1).setDomain(domain);
        return this;
    }

    OnnxMl.ModelProto model() {
        OnnxMl.ModelProto.Builder m = OnnxMl.ModelProto.newBuilder().setIrVersion(functions.isEmpty() ? 7 : functions.stream().anyMatch(f -> !f.getOverload().isEmpty()) ? 10 : 9).setGraph(graph)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset)).addAllFunctions(functions);
        java.util.stream.Stream.concat(functions.stream().map(OnnxMl.FunctionProto::getDomain), domains.keySet().stream()).filter(d -> !d.isEmpty() && !notImported.contains(d)).distinct()
                .forEach(d -> m.addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain(d).setVersion(domains.getOrDefault(d, 1L))));
        return m.build();
    }

    byte[] bytes() {
        return model().toByteArray();
    }

    private static OnnxMl.ValueInfoProto valueInfo(String name, int elemType, boolean withShape, Object... dims) {
        OnnxMl.TypeProto.Tensor.Builder t = OnnxMl.TypeProto.Tensor.newBuilder().setElemType(elemType);
        if (withShape) {
            OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
            for (Object d : dims) {
                OnnxMl.TensorShapeProto.Dimension.Builder dim = OnnxMl.TensorShapeProto.Dimension.newBuilder();
                if (d instanceof String s) dim.setDimParam(s);
                else dim.setDimValue(((Number) d).longValue());
                shape.addDim(dim);
            }
            t.setShape(shape);
        }
        return OnnxMl.ValueInfoProto.newBuilder().setName(name).setType(OnnxMl.TypeProto.newBuilder().setTensorType(t)).build();
    }
}
