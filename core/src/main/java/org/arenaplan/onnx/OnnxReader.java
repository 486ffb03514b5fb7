package org.arenaplan.onnx;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the fields of an ONNX {@code ModelProto} that {@link OnnxModel} holds, straight from
 * the protobuf wire format with {@link CodedInputStream}; unknown fields are skipped. Field
 * numbers are those of the public {@code onnx.proto}. A truncated or foreign file fails with an
 * {@link OnnxException} naming the file, the byte offset and the element being read.
 */
public final class OnnxReader {
    /** Model tensors with more elements keep no values, only whether they are uniform: weights can be huge. */
    static final int MAX_KEPT_VALUES = 1 << 16;

    private final String file;
    private final long keepLimit;
    private String context = "the model header";

    private OnnxReader(String file, long keepLimit) {
        this.file = file;
        this.keepLimit = keepLimit;
    }

    public static OnnxModel read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new OnnxException(path + ": no such file");
        } catch (IOException e) {
            throw new OnnxException(path + ": cannot read: " + e.getMessage(), e);
        }
        return read(bytes, path.toString());
    }

    /** @param file the name used in error messages */
    public static OnnxModel read(byte[] bytes, String file) {
        return new OnnxReader(file, MAX_KEPT_VALUES).model(bytes);
    }

    /** Decodes a lone TensorProto (the {@code *.pb} input and output files). */
    public static OnnxModel.TensorData readTensor(byte[] bytes, String file) {
        OnnxReader r = new OnnxReader(file, Long.MAX_VALUE);
        r.context = "the tensor";
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        try {
            OnnxModel.TensorData t = r.tensor(in);
            if (t.values() == null || t.values().length != t.elementCount())
                throw new OnnxException(file + ": not a TensorProto holding " + t.elementCount() + " values of a supported type (data_type "
                        + t.dataType() + ", dims " + java.util.Arrays.toString(t.dims()) + ", " + (t.values() == null ? "no" : t.values().length) + " values found)");
            return t;
        } catch (IOException | RuntimeException e) {
            if (e instanceof OnnxException oe) throw oe;
            throw r.malformed(in, e);
        }
    }

    private OnnxModel model(byte[] bytes) {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        in.setRecursionLimit(64);
        long ir = 0;
        Map<String, Long> opsets = new LinkedHashMap<>();
        OnnxModel.Graph graph = null;
        try {
            while (true) {
                int tag = in.readTag();
                if (tag == 0) break;
                switch (field(tag)) {
                    case 1 -> ir = in.readInt64();
                    case 7 -> {
                        context = "the graph";
                        graph = message(in, tag, this::graph);
                    }
                    case 8 -> {
                        context = "opset_import";
                        String[] domain = {""};
                        long[] version = {0};
                        message(in, tag, m -> {
                            int t;
                            while ((t = m.readTag()) != 0) {
                                switch (field(t)) {
                                    case 1 -> domain[0] = string(m, t);
                                    case 2 -> version[0] = m.readInt64();
                                    default -> m.skipField(t);
                                }
                            }
                            return null;
                        });
                        opsets.put(domain[0], version[0]);
                    }
                    default -> in.skipField(tag);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof OnnxException oe) throw oe;
            throw malformed(in, e);
        }
        if (graph == null || (ir == 0 && opsets.isEmpty()))
            throw new OnnxException(file + ": not an ONNX model (no " + (graph == null ? "graph" : "ir_version or opset_import") + " field in the ModelProto)");
        return new OnnxModel(ir, opsets, graph);
    }

    private OnnxException malformed(CodedInputStream in, Exception e) {
        String why = e instanceof InvalidProtocolBufferException && e.getMessage() != null && e.getMessage().contains("ended unexpectedly")
                ? "truncated: the file ends in the middle of " + context
                : "not an ONNX model: the bytes of " + context + " are not a protobuf message (an ONNX file is a binary ModelProto)";
        return new OnnxException(file + ": " + why + " (byte " + in.getTotalBytesRead() + ")", e);
    }

    private interface Parser<T> {
        T parse(CodedInputStream in) throws IOException;
    }

    /** Reads a length-delimited sub-message with {@code parser}, checking the wire type first. */
    private <T> T message(CodedInputStream in, int tag, Parser<T> parser) throws IOException {
        expect(tag, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        int length = in.readRawVarint32();
        if (length < 0) throw new InvalidProtocolBufferException("negative length");
        int old = in.pushLimit(length);
        T value = parser.parse(in);
        in.checkLastTagWas(0);
        in.popLimit(old);
        return value;
    }

    private static int field(int tag) {
        return WireFormat.getTagFieldNumber(tag);
    }

    private void expect(int tag, int wireType) throws InvalidProtocolBufferException {
        if (WireFormat.getTagWireType(tag) != wireType)
            throw new InvalidProtocolBufferException("field " + field(tag) + " has wire type " + WireFormat.getTagWireType(tag) + ", expected " + wireType);
    }

    private String string(CodedInputStream in, int tag) throws IOException {
        expect(tag, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        return in.readStringRequireUtf8();
    }

    private OnnxModel.Graph graph(CodedInputStream in) throws IOException {
        String name = "";
        List<OnnxModel.Node> nodes = new ArrayList<>();
        List<OnnxModel.TensorData> inits = new ArrayList<>();
        List<OnnxModel.ValueInfo> inputs = new ArrayList<>(), outputs = new ArrayList<>(), infos = new ArrayList<>();
        int tag;
        while ((tag = in.readTag()) != 0) {
            switch (field(tag)) {
                case 1 -> {
                    context = "node #" + nodes.size();
                    nodes.add(message(in, tag, this::node));
                }
                case 2 -> name = string(in, tag);
                case 5 -> {
                    context = "initializer #" + inits.size();
                    inits.add(message(in, tag, this::tensor));
                }
                case 11 -> inputs.add(valueInfo(in, tag, "graph input #" + inputs.size()));
                case 12 -> outputs.add(valueInfo(in, tag, "graph output #" + outputs.size()));
                case 13 -> infos.add(valueInfo(in, tag, "value_info #" + infos.size()));
                default -> in.skipField(tag);
            }
        }
        context = "the end of the graph";
        return new OnnxModel.Graph(name, nodes, inits, inputs, outputs, infos);
    }

    private OnnxModel.Node node(CodedInputStream in) throws IOException {
        String name = "", op = "", domain = "";
        List<String> inputs = new ArrayList<>(), outputs = new ArrayList<>();
        Map<String, OnnxModel.Attribute> attrs = new LinkedHashMap<>();
        int tag;
        while ((tag = in.readTag()) != 0) {
            switch (field(tag)) {
                case 1 -> inputs.add(string(in, tag));
                case 2 -> outputs.add(string(in, tag));
                case 3 -> name = string(in, tag);
                case 4 -> op = string(in, tag);
                case 5 -> {
                    OnnxModel.Attribute a = message(in, tag, this::attribute);
                    attrs.put(a.name(), a);
                }
                case 7 -> domain = string(in, tag);
                default -> in.skipField(tag);
            }
        }
        return new OnnxModel.Node(name, op, domain, inputs, outputs, attrs);
    }

    private OnnxModel.Attribute attribute(CodedInputStream in) throws IOException {
        String name = "";
        int type = 0;
        Double f = null;
        Long i = null;
        String s = null;
        OnnxModel.TensorData t = null;
        List<Double> floats = new ArrayList<>();
        List<Long> ints = new ArrayList<>();
        int tag;
        while ((tag = in.readTag()) != 0) {
            switch (field(tag)) {
                case 1 -> name = string(in, tag);
                case 2 -> {
                    expect(tag, WireFormat.WIRETYPE_FIXED32);
                    f = (double) in.readFloat();
                }
                case 3 -> i = in.readInt64();
                case 4 -> s = new String(bytes(in, tag), java.nio.charset.StandardCharsets.UTF_8);
                case 5 -> t = message(in, tag, this::tensor);
                case 7 -> repeatedFloat(in, tag, floats);
                case 8 -> repeatedVarint(in, tag, ints);
                case 20 -> type = in.readInt32();
                default -> in.skipField(tag);
            }
        }
        Object value = switch (type) {
            case OnnxModel.Attribute.FLOAT -> f == null ? 0.0 : f;
            case OnnxModel.Attribute.INT -> i == null ? 0L : i;
            case OnnxModel.Attribute.STRING -> s == null ? "" : s;
            case OnnxModel.Attribute.TENSOR -> t;
            case OnnxModel.Attribute.FLOATS -> floats.stream().mapToDouble(Double::doubleValue).toArray();
            case OnnxModel.Attribute.INTS -> ints.stream().mapToLong(Long::longValue).toArray();
            default -> null;
        };
        return new OnnxModel.Attribute(name, type, value);
    }

    private byte[] bytes(CodedInputStream in, int tag) throws IOException {
        expect(tag, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        return in.readByteArray();
    }

    /** A repeated varint field, packed or not (proto3 writers pack, proto2 writers may not). */
    private void repeatedVarint(CodedInputStream in, int tag, List<Long> out) throws IOException {
        if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int old = in.pushLimit(in.readRawVarint32());
            while (in.getBytesUntilLimit() > 0) out.add(in.readInt64());
            in.popLimit(old);
        } else {
            expect(tag, WireFormat.WIRETYPE_VARINT);
            out.add(in.readInt64());
        }
    }

    private void repeatedFloat(CodedInputStream in, int tag, List<Double> out) throws IOException {
        if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int old = in.pushLimit(in.readRawVarint32());
            while (in.getBytesUntilLimit() > 0) out.add((double) in.readFloat());
            in.popLimit(old);
        } else {
            expect(tag, WireFormat.WIRETYPE_FIXED32);
            out.add((double) in.readFloat());
        }
    }

    private void repeatedDouble(CodedInputStream in, int tag, List<Double> out) throws IOException {
        if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int old = in.pushLimit(in.readRawVarint32());
            while (in.getBytesUntilLimit() > 0) out.add(in.readDouble());
            in.popLimit(old);
        } else {
            expect(tag, WireFormat.WIRETYPE_FIXED64);
            out.add(in.readDouble());
        }
    }

    private OnnxModel.TensorData tensor(CodedInputStream in) throws IOException {
        String name = "";
        int type = 0;
        List<Long> dims = new ArrayList<>();
        List<Double> typed = new ArrayList<>();
        List<Long> ints = new ArrayList<>();
        byte[] raw = null;
        int tag;
        while ((tag = in.readTag()) != 0) {
            switch (field(tag)) {
                case 1 -> repeatedVarint(in, tag, dims);
                case 2 -> type = in.readInt32();
                case 4 -> repeatedFloat(in, tag, typed);
                case 5, 7 -> repeatedVarint(in, tag, ints);
                case 8 -> name = string(in, tag);
                case 9 -> raw = bytes(in, tag);
                case 10 -> repeatedDouble(in, tag, typed);
                default -> in.skipField(tag);
            }
        }
        long[] d = dims.stream().mapToLong(Long::longValue).toArray();
        if (raw != null) return raw(name, type, d, raw);
        double[] values = !typed.isEmpty() ? typed.stream().mapToDouble(Double::doubleValue).toArray()
                : !ints.isEmpty() ? ints.stream().mapToDouble(Long::doubleValue).toArray() : null;
        Double uniform = null;
        if (values != null && values.length > 0) {
            uniform = values[0];
            for (double v : values) if (Double.compare(v, uniform) != 0) { uniform = null; break; }
        }
        return new OnnxModel.TensorData(name, type, d, values == null || values.length > keepLimit ? null : values, uniform);
    }

    /**
     * Little-endian raw_data of the element types the importer understands (others keep no
     * values). Values are kept up to {@link #keepLimit}; past it only uniformity is checked, in
     * one pass without a copy, so real weights cost no extra memory.
     */
    private OnnxModel.TensorData raw(String name, int type, long[] dims, byte[] raw) {
        int width = switch (type) {
            case OnnxDTypes.FLOAT, OnnxDTypes.INT32 -> 4;
            case OnnxDTypes.INT64, OnnxDTypes.DOUBLE -> 8;
            case OnnxDTypes.UINT8, OnnxDTypes.INT8, OnnxDTypes.BOOL -> 1;
            case OnnxDTypes.INT16 -> 2;
            default -> 0;
        };
        if (width == 0) return new OnnxModel.TensorData(name, type, dims, null, null);
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        int n = raw.length / width;
        double[] kept = n <= keepLimit ? new double[n] : null;
        Double uniform = null;
        for (int k = 0; k < n; k++) {
            double v = switch (type) {
                case OnnxDTypes.FLOAT -> b.getFloat();
                case OnnxDTypes.INT32 -> b.getInt();
                case OnnxDTypes.INT64 -> b.getLong();
                case OnnxDTypes.DOUBLE -> b.getDouble();
                case OnnxDTypes.UINT8 -> b.get() & 0xff;
                case OnnxDTypes.INT16 -> b.getShort();
                default -> b.get();
            };
            if (kept != null) kept[k] = v;
            if (k == 0) uniform = v;
            else if (uniform != null && Double.compare(v, uniform) != 0) {
                uniform = null;
                if (kept == null) break;
            }
        }
        return new OnnxModel.TensorData(name, type, dims, kept, uniform);
    }

    private OnnxModel.ValueInfo valueInfo(CodedInputStream in, int tag, String what) throws IOException {
        context = what;
        String[] name = {""};
        int[] elem = {0};
        List<OnnxModel.Dim> dims = new ArrayList<>();
        boolean[] hasShape = {false};
        message(in, tag, vi -> {
            int t;
            while ((t = vi.readTag()) != 0) {
                switch (field(t)) {
                    case 1 -> name[0] = string(vi, t);
                    case 2 -> message(vi, t, type -> {            // TypeProto
                        int t2;
                        while ((t2 = type.readTag()) != 0) {
                            if (field(t2) != 1) { type.skipField(t2); continue; }
                            message(type, t2, tt -> {                // TypeProto.Tensor
                                int t3;
                                while ((t3 = tt.readTag()) != 0) {
                                    switch (field(t3)) {
                                        case 1 -> elem[0] = tt.readInt32();
                                        case 2 -> {
                                            hasShape[0] = true;
                                            message(tt, t3, this::shapeDims).forEach(dims::add);
                                        }
                                        default -> tt.skipField(t3);
                                    }
                                }
                                return null;
                            });
                        }
                        return null;
                    });
                    default -> vi.skipField(t);
                }
            }
            return null;
        });
        return new OnnxModel.ValueInfo(name[0], elem[0], dims, hasShape[0]);
    }

    private List<OnnxModel.Dim> shapeDims(CodedInputStream in) throws IOException {
        List<OnnxModel.Dim> dims = new ArrayList<>();
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (field(tag) != 1) { in.skipField(tag); continue; }
            dims.add(message(in, tag, d -> {
                Long value = null;
                String param = "";
                int t;
                while ((t = d.readTag()) != 0) {
                    switch (field(t)) {
                        case 1 -> value = d.readInt64();
                        case 2 -> param = string(d, t);
                        default -> d.skipField(t);
                    }
                }
                return new OnnxModel.Dim(value, param);
            }));
        }
        return dims;
    }
}
