package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * Reads ONNX files with the generated schema classes ({@code ai.onnx.proto.OnnxMl}, shipped by
 * {@code org.tribuo:tribuo-util-onnx}) and converts the parts the importer needs into
 * {@link OnnxModel}'s records.
 *
 * <p>A model file is memory-mapped and parsed with aliasing, so {@code raw_data} fields are
 * views of the mapping: weights cost no heap until the weight region is filled, one at a time.
 * The mapping lives as long as the graph that refers to it (the JVM unmaps it when unreachable).
 * A truncated or foreign file fails with an {@link OnnxException} naming the file.
 */
public final class OnnxProtos {
    /**
     * The newest ONNX IR version this reader knows: 14, the {@code IR_VERSION} of onnx 1.23's
     * onnx.proto ({@code Version} enum, "published on TBD" there) and what onnx 1.23's
     * {@code helper.make_model} writes by default, with opset 28 (its {@code VERSION_TABLE}).
     * 11 added FLOAT4E2M1 and the multi-device fields, 12 FLOAT8E8M0, 13 UINT2 and INT2 (all
     * taken), 14 FLOAT6E2M3, FLOAT6E3M2 and {@code TypeProto.Opaque} outside ONNX-ML builds: the
     * importer refuses those two element types and an opaque value by name, so nothing of IR 14
     * is half read. A larger {@code ir_version} is a format this reader has never seen and is refused.
     */
    public static final long MAX_IR_VERSION = 14;

    /** The deepest nesting of messages read (a model, its graph, a node, an attribute, a body graph, ...). */
    static final int RECURSION_LIMIT = 64;

    private OnnxProtos() { }

    /** Reads a model file; external tensor data resolves against its folder. */
    public static OnnxModel read(Path path) {
        ByteString bytes = map(path);
        return convert(parse(bytes, path.toString(), OnnxMl.ModelProto.parser()), path.toString(), path.toAbsolutePath().getParent());
    }

    /**
     * Reads a model held in memory; external data resolves against the working directory.
     * @param file the name used in error messages
     */
    public static OnnxModel read(byte[] bytes, String file) {
        return convert(parse(UnsafeByteOperations.unsafeWrap(bytes), file, OnnxMl.ModelProto.parser()), file, null);
    }

    /** Decodes a lone TensorProto (the {@code *.pb} input and output files); its values are checked to be all there. */
    public static OnnxModel.TensorData readTensor(Path path) {
        ByteString bytes = map(path);
        if (bytes.isEmpty()) throw new OnnxException(path + ": the file is empty (0 bytes); expected a serialized TensorProto");
        OnnxMl.TensorProto t = parse(bytes, path.toString(), OnnxMl.TensorProto.parser());
        return tensor(t, path.toAbsolutePath().getParent(), t.getName().isEmpty() ? path.toString() : path + ": tensor '" + t.getName() + "'");
    }

    static ByteString map(Path path) {
        String folder = org.arenaplan.io.TextFiles.folderNotFile("", path);
        if (folder != null) throw new OnnxException(folder);
        String pipe = org.arenaplan.io.TextFiles.notARegularFile("", path);
        if (pipe != null) throw new OnnxException(pipe);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE)
                throw new OnnxException(path + ": " + size + " B; a protobuf file is at most 2 GiB (larger models keep their weights as external data)");
            ByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            return UnsafeByteOperations.unsafeWrap(mapped);
        } catch (NoSuchFileException e) {
            throw new OnnxException(path + ": no such file");
        } catch (IOException e) {
            throw new OnnxException(path + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** The first bytes of a NumPy {@code .npy} file (numpy.lib.format: "\x93NUMPY"). */
    private static final ByteString NPY_MAGIC = ByteString.copyFrom(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'});

    static <T extends com.google.protobuf.MessageLite> T parse(ByteString bytes, String file, com.google.protobuf.Parser<T> parser) {
        if (bytes.startsWith(NPY_MAGIC))
            throw new OnnxException(file + ": a NumPy .npy file, not a binary " + (parser == OnnxMl.ModelProto.parser() ? "ModelProto" : parser == OnnxMl.TensorProto.parser() ? "TensorProto" : "SequenceProto or OptionalProto")
                    + "; arenaplan reads ONNX's protobuf files (write one with onnx.numpy_helper.from_array(array, name).SerializeToString())");
        CodedInputStream in = bytes.newCodedInput();
        in.enableAliasing(true);
        in.setRecursionLimit(RECURSION_LIMIT);
        try {
            T m = parser.parseFrom(in);
            in.checkLastTagWas(0);
            return m;
        } catch (InvalidProtocolBufferException e) {
            String msg = String.valueOf(e.getMessage());
            String why = msg.contains("ended unexpectedly") || msg.contains("truncated")
                    ? "truncated: the file ends in the middle of a field"
                    : msg.contains("too many levels of nesting")
                    ? "messages nest more than " + RECURSION_LIMIT + " deep (each If, Loop or Scan body inside another adds 3 levels); arenaplan reads at most "
                    + RECURSION_LIMIT + " levels"
                    : "not an ONNX " + (parser == OnnxMl.ModelProto.parser() ? "model (an ONNX file is a binary ModelProto)"
                            : parser == OnnxMl.TensorProto.parser() ? "tensor (a .pb file is a binary TensorProto)" : "value (a binary SequenceProto or OptionalProto, onnx-data.proto)")
                    + ": its bytes are not a protobuf message";
            throw new OnnxException(file + ": " + why + " (byte " + in.getTotalBytesRead() + " of " + bytes.size() + ")", e);
        }
    }

    private static OnnxModel convert(OnnxMl.ModelProto m, String file, Path dir) {
        if (!m.hasGraph() || (m.getIrVersion() == 0 && m.getOpsetImportCount() == 0))
            throw new OnnxException(file + ": not an ONNX model (no " + (!m.hasGraph() ? "graph" : "ir_version or opset_import") + " field in the ModelProto)");
        checkIrVersion(m.getIrVersion(), file);
        Map<String, Long> opsets = new LinkedHashMap<>();
        for (OnnxMl.OperatorSetIdProto o : m.getOpsetImportList()) {
            Long before = opsets.put(o.getDomain(), o.getVersion());
            if (before != null && before != o.getVersion())   // which one would a node mean? (the ONNX checker refuses this too)
                throw new OnnxException(file + ": opset_import gives the domain '" + o.getDomain() + "' twice, as opset " + before + " and " + o.getVersion());
        }
        return new OnnxModel(m.getIrVersion(), opsets, graph(LocalFunctions.inline(m, file), m.getIrVersion(), file, dir));
    }

    /** A GraphProto: the model's graph, or the body of an If, Loop or Scan node (a GRAPH attribute). */
    private static OnnxModel.Graph graph(OnnxMl.GraphProto g, long ir, String file, Path dir) {
        List<OnnxModel.Node> nodes = new ArrayList<>(g.getNodeCount());
        Set<String> names = new HashSet<>();
        for (int i = 0; i < g.getNodeCount(); i++) nodes.add(node(g.getNode(i), nodeName(g.getNode(i), i, names), ir, file, dir));
        for (OnnxMl.SparseTensorProto sp : g.getSparseInitializerList()) {   // one nothing reads may stay, as an unread initializer of an unknown type
            String name = sp.getValues().getName();
            for (OnnxModel.Node n : nodes)
                if (n.inputs().contains(name))
                    throw new OnnxException(file + ": node '" + n.name() + "' (" + n.opType() + ") reads '" + name
                            + "', a sparse_initializer (SparseTensorProto), which arenaplan does not read; store it as a dense initializer");
        }
        List<OnnxModel.TensorData> inits = new ArrayList<>(g.getInitializerCount());
        for (OnnxMl.TensorProto t : g.getInitializerList()) {
            if (t.getName().isEmpty())   // no node can read it, and a name is its only link to the graph
                throw new OnnxException(file + ": initializer #" + inits.size() + (g.getName().isEmpty() ? "" : " of graph '" + g.getName() + "'")
                        + " has no name (the ONNX checker: tensor initializers must have a non-empty name)");
            inits.add(tensor(t, dir, file + ": initializer '" + t.getName() + "'"));
        }
        return new OnnxModel.Graph(g.getName(), nodes, inits, named(g.getInputList(), "graph input", g, file), named(g.getOutputList(), "graph output", g, file),
                valueInfos(g.getValueInfoList()));
    }

    /**
     * ONNX's ModelProto.ir_version "MUST be present" (onnx.proto; the ONNX checker refuses a model
     * without it) and is one of the IR versions 1..{@link #MAX_IR_VERSION} (13 published November 6, 2025; 14 as onnx 1.23 writes it).
     *
     * @throws OnnxException naming the file and the field for 0 (missing), a negative value or a
     *                       version newer than {@link #MAX_IR_VERSION}
     */
    static void checkIrVersion(long ir, String file) {
        if (ir == 0)
            throw new OnnxException(file + ": ir_version is missing (0); every ONNX ModelProto must give it (onnx.proto: the IR version the model targets, 1.."
                    + MAX_IR_VERSION + ")");
        if (ir < 0)
            throw new OnnxException(file + ": ir_version " + ir + " is not an ONNX IR version (they run 1.." + MAX_IR_VERSION + ")");
        if (ir > MAX_IR_VERSION)
            throw new OnnxException(file + ": ir_version " + ir + " is newer than the ONNX IR versions arenaplan reads (1.." + MAX_IR_VERSION
                    + ", the versions up to onnx 1.23's)");
    }

    static OnnxModel.TensorData tensor(OnnxMl.TensorProto t, Path dir, String what) {
        long[] dims = new long[t.getDimsCount()];
        for (int i = 0; i < dims.length; i++) dims[i] = t.getDims(i);
        return new OnnxModel.TensorData(t.getName(), t.getDataType(), dims, OnnxTensors.check(t, dir, what));
    }

    /**
     * The name every pass and message uses for node {@code n} at position {@code index} of its graph,
     * decided here once: its own name; {@code OpType_index} where it has none ({@code Softmax_3});
     * {@code name_index} (then {@code name_index_2}, ...) where an earlier node of the graph took
     * the name. ONNX IR ("Names Within a Graph") wants node names unique, but neither the ONNX
     * checker nor ONNX Runtime refuses a repeated one, and a name is for diagnostics only.
     *
     * @param taken the names earlier nodes of the graph took; this one is added
     */
    private static String nodeName(OnnxMl.NodeProto n, int index, Set<String> taken) {
        String name = n.getName().isEmpty() ? n.getOpType() + "_" + index : n.getName();
        if (taken.add(name)) return name;
        String base = name + "_" + index;
        name = base;
        for (int k = 2; !taken.add(name); k++) name = base + "_" + k;
        return name;
    }

    /**
     * @param name the node's name as {@link #nodeName} decided it
     * @param ir   the model's ir_version (decides whether an attribute's {@code type} must be set)
     */
    private static OnnxModel.Node node(OnnxMl.NodeProto n, String name, long ir, String file, Path dir) {
        Map<String, OnnxModel.Attribute> attrs = new LinkedHashMap<>();
        for (OnnxMl.AttributeProto a : n.getAttributeList()) {
            String what = file + ": node '" + name + "' (" + n.getOpType() + ") attribute '" + a.getName() + "'";
            if (attrs.put(a.getName(), attribute(a, ir, dir, file, what)) != null)   // which one would the op mean? (the ONNX checker refuses this too)
                throw new OnnxException(what + " is given twice (each attribute name appears once per node)");
        }
        return new OnnxModel.Node(name, n.getOpType(), n.getDomain(), n.getInputList(), n.getOutputList(), attrs);
    }

    /** A model of IR 1 may leave {@code type} unset; it is then taken from the field that is set ({@link AttributeFields}). */
    private static OnnxModel.Attribute attribute(OnnxMl.AttributeProto a, long ir, Path dir, String file, String what) {
        OnnxMl.AttributeProto.AttributeType type = AttributeFields.check(a, ir, what);
        Object value = switch (type) {
            case FLOAT -> (double) a.getF();
            case INT -> a.getI();
            case STRING -> a.getS().toString(StandardCharsets.UTF_8);
            case TENSOR -> tensor(a.getT(), dir, what);
            case FLOATS -> a.getFloatsList().stream().mapToDouble(Float::doubleValue).toArray();
            case INTS -> a.getIntsList().stream().mapToLong(Long::longValue).toArray();
            case STRINGS -> a.getStringsList().stream().map(b -> b.toString(StandardCharsets.UTF_8)).toArray(String[]::new);
            case GRAPH -> graph(a.getG(), ir, file, dir);
            default -> null;
        };
        return new OnnxModel.Attribute(a.getName(), type.getNumber(), value);
    }

    /**
     * A graph's inputs or outputs ({@code what}), each with a name: the ONNX checker
     * ({@code check_value_info}) requires a ValueInfoProto's name to be non-empty, and an input
     * without one is a value no node can read.
     *
     * @throws OnnxException naming the file, the graph and the entry's position
     */
    private static List<OnnxModel.ValueInfo> named(List<OnnxMl.ValueInfoProto> list, String what, OnnxMl.GraphProto g, String file) {
        for (int k = 0; k < list.size(); k++)
            if (list.get(k).getName().isEmpty())
                throw new OnnxException(file + ": " + what + " #" + k + (g.getName().isEmpty() ? "" : " of graph '" + g.getName() + "'")
                        + " has no name (the ONNX checker: a ValueInfoProto's name must be non-empty)");
        return valueInfos(list);
    }

    private static List<OnnxModel.ValueInfo> valueInfos(List<OnnxMl.ValueInfoProto> list) {
        List<OnnxModel.ValueInfo> out = new ArrayList<>(list.size());
        for (OnnxMl.ValueInfoProto v : list) out.add(valueInfo(v.getName(), v.getType()));
        return out;
    }

    /** {@code type} declared for {@code name}; a sequence's or optional's element type (when given) as {@link OnnxModel.ValueInfo#element}. */
    private static OnnxModel.ValueInfo valueInfo(String name, OnnxMl.TypeProto type) {
        OnnxMl.TypeProto.Tensor t = type.getTensorType();
        List<OnnxModel.Dim> dims = new ArrayList<>();
        for (OnnxMl.TensorShapeProto.Dimension d : t.getShape().getDimList())
            dims.add(new OnnxModel.Dim(d.hasDimValue() ? d.getDimValue() : null, d.getDimParam()));
        String notTensor = switch (type.getValueCase()) {
            case SEQUENCE_TYPE -> "a sequence";
            case OPTIONAL_TYPE -> "an optional";
            case MAP_TYPE -> "a map";
            case SPARSE_TENSOR_TYPE -> "a sparse tensor";
            case OPAQUE_TYPE -> "an opaque value";
            default -> null;                              // a tensor, or no type given
        };
        OnnxModel.ValueInfo element = null;
        if (type.hasSequenceType() && type.getSequenceType().hasElemType()) element = valueInfo(name, type.getSequenceType().getElemType());
        if (type.hasOptionalType() && type.getOptionalType().hasElemType()) element = valueInfo(name, type.getOptionalType().getElemType());
        return new OnnxModel.ValueInfo(name, t.getElemType(), dims, t.hasShape(), notTensor, element);
    }
}
