package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnsafeByteOperations;
import org.arenaplan.ir.TensorValue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sequence or optional in a {@code .pb} file: one serialized {@code SequenceProto} or
 * {@code OptionalProto} of onnx-data.proto, as the ONNX backend tests' {@code input_K.pb} and
 * {@code output_K.pb} hold a sequence or optional graph input or output. The generated ONNX classes
 * arenaplan reads with ({@code ai.onnx.proto.OnnxMl}, onnx-ml.proto) do not include onnx-data.proto,
 * so its two messages are declared here as protobuf descriptors over {@code OnnxMl.TensorProto}
 * (field numbers and types as onnx-data.proto gives them) and read and written by protobuf's
 * {@link DynamicMessage}; each tensor is then an {@code OnnxMl.TensorProto}, read as
 * {@link OnnxTensorFile} reads one. Only what {@link OnnxValue} holds is taken: a sequence of tensors
 * ({@code elem_type} TENSOR = 1, or an empty one), an optional absent ({@code elem_type} 0 or no value)
 * or holding a tensor or such a sequence.
 */
public final class OnnxValueFile {
    private OnnxValueFile() { }

    /** onnx-data.proto's {@code SequenceProto.DataType}/{@code OptionalProto.DataType} codes. */
    private static final int TENSOR = 1, SEQUENCE = 3;

    private static final Descriptors.Descriptor SEQUENCE_PROTO, OPTIONAL_PROTO;

    static {
        String tensor = "." + OnnxMl.TensorProto.getDescriptor().getFullName();
        String pkg = OnnxMl.TensorProto.getDescriptor().getFile().getPackage();
        String prefix = pkg.isEmpty() ? "." : "." + pkg + ".";
        DescriptorProto seq = DescriptorProto.newBuilder().setName("SequenceProto")
                .addField(field("name", 1, FieldDescriptorProto.Type.TYPE_STRING, null, false))
                .addField(field("elem_type", 2, FieldDescriptorProto.Type.TYPE_INT32, null, false))
                .addField(field("tensor_values", 3, FieldDescriptorProto.Type.TYPE_MESSAGE, tensor, true))
                .addField(field("sequence_values", 5, FieldDescriptorProto.Type.TYPE_MESSAGE, prefix + "SequenceProto", true)).build();
        DescriptorProto opt = DescriptorProto.newBuilder().setName("OptionalProto")
                .addField(field("name", 1, FieldDescriptorProto.Type.TYPE_STRING, null, false))
                .addField(field("elem_type", 2, FieldDescriptorProto.Type.TYPE_INT32, null, false))
                .addField(field("tensor_value", 3, FieldDescriptorProto.Type.TYPE_MESSAGE, tensor, false))
                .addField(field("sequence_value", 5, FieldDescriptorProto.Type.TYPE_MESSAGE, prefix + "SequenceProto", false)).build();
        FileDescriptorProto file = FileDescriptorProto.newBuilder().setName("arenaplan/onnx-data-subset.proto").setPackage(pkg).setSyntax("proto2")
                .addDependency(OnnxMl.getDescriptor().getName()).addMessageType(seq).addMessageType(opt).build();
        try {
            Descriptors.FileDescriptor fd = Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[]{OnnxMl.getDescriptor()});
            SEQUENCE_PROTO = fd.findMessageTypeByName("SequenceProto");
            OPTIONAL_PROTO = fd.findMessageTypeByName("OptionalProto");
        } catch (Descriptors.DescriptorValidationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type, String typeName, boolean repeated) {
        FieldDescriptorProto.Builder f = FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type)
                .setLabel(repeated ? FieldDescriptorProto.Label.LABEL_REPEATED : FieldDescriptorProto.Label.LABEL_OPTIONAL);
        if (typeName != null) f.setTypeName(typeName);
        return f.build();
    }

    /**
     * Reads {@code file} as the kind of value {@code declared} is: a TensorProto for
     * {@link OnnxValue.Tensor}, a SequenceProto for {@link OnnxValue.Sequence}, an OptionalProto for
     * {@link OnnxValue.Optional} (the file does not say which message it holds; its graph input or
     * output's declared type does).
     *
     * @param kind {@code OnnxValue.Sequence.class} or {@code OnnxValue.Optional.class} (else the file is a tensor)
     * @throws OnnxException naming the file: unreadable, not a message of that kind (a field that
     *         message does not have: a TensorProto's raw_data, say), a sequence of anything but
     *         tensors, or a tensor of an unsupported type
     */
    public static OnnxValue read(Path file, Class<? extends OnnxValue> kind) {
        if (kind != OnnxValue.Sequence.class && kind != OnnxValue.Optional.class) return new OnnxValue.Tensor(OnnxTensorFile.read(file).value());
        ByteString bytes = OnnxProtos.map(file);
        boolean seq = kind == OnnxValue.Sequence.class;
        String message = seq ? "SequenceProto" : "OptionalProto";
        if (bytes.isEmpty() && seq) throw new OnnxException(file + ": the file is empty (0 bytes); expected a serialized " + message);
        if (!seq) {   // an OptionalProto's tensor_value is a SequenceProto's tensor_values (field 3): several of them would merge into one tensor
            int n = tensorsOfSequence(bytes);
            if (n > 1) throw new OnnxException(file + ": not an OptionalProto: it holds " + n + " tensors (field 3, " + n
                    + " times), as a SequenceProto of " + n + " tensors does; an OptionalProto holds one value");
        }
        DynamicMessage m = OnnxProtos.parse(bytes, file.toString(), DynamicMessage.getDefaultInstance(seq ? SEQUENCE_PROTO : OPTIONAL_PROTO).getParserForType());
        return seq ? sequence(m, file, file.toString(), true) : optional(m, file);
    }

    /**
     * How many tensors {@code bytes} hold read as a SequenceProto of tensors, each a TensorProto
     * with a data_type and no field a TensorProto has not; -1 when they are not such a message. A
     * SequenceProto or OptionalProto file given where a TensorProto is expected is told apart so.
     */
    static int tensorsOfSequence(ByteString bytes) {
        try {
            DynamicMessage m = DynamicMessage.parseFrom(SEQUENCE_PROTO, bytes);
            if (!m.getUnknownFields().asMap().isEmpty() || m.getRepeatedFieldCount(SEQUENCE_PROTO.findFieldByName("sequence_values")) > 0) return -1;
            Descriptors.FieldDescriptor f = SEQUENCE_PROTO.findFieldByName("tensor_values");
            int n = m.getRepeatedFieldCount(f);
            for (int i = 0; i < n; i++) {
                OnnxMl.TensorProto t = OnnxMl.TensorProto.parseFrom(((Message) m.getRepeatedField(f, i)).toByteString());
                if (t.getDataType() == 0 || !t.getUnknownFields().asMap().isEmpty()) return -1;
            }
            return n;
        } catch (InvalidProtocolBufferException e) {
            return -1;
        }
    }

    private static OnnxValue.Optional optional(DynamicMessage m, Path file) {
        checkKnown(m, file, file.toString(), "OptionalProto");
        int elem = (int) m.getField(OPTIONAL_PROTO.findFieldByName("elem_type"));
        Descriptors.FieldDescriptor t = OPTIONAL_PROTO.findFieldByName("tensor_value"), s = OPTIONAL_PROTO.findFieldByName("sequence_value");
        if (elem == TENSOR && m.hasField(t)) return new OnnxValue.Optional(new OnnxValue.Tensor(tensor((Message) m.getField(t), file, file + ": tensor_value")));
        if (elem == SEQUENCE && m.hasField(s)) return new OnnxValue.Optional(sequence((DynamicMessage) m.getField(s), file, file + ": sequence_value", false));
        if (m.hasField(t) || m.hasField(s) || (elem != 0 && elem != TENSOR && elem != SEQUENCE))
            throw new OnnxException(file + ": OptionalProto elem_type " + elem + " with " + (m.hasField(t) ? "a tensor_value" : m.hasField(s) ? "a sequence_value" : "no value")
                    + "; arenaplan takes an optional that is absent or holds a tensor (elem_type 1) or a sequence of tensors (elem_type 3)");
        return new OnnxValue.Optional(null);   // onnx-data.proto: an optional without a value is absent
    }

    /**
     * @param file the file, for messages
     * @param top  whether {@code m} is the file's message (not an optional's sequence_value): one holding one
     *             sequence may then be an OptionalProto holding it, which has the same bytes, and the refusal says so
     */
    private static OnnxValue.Sequence sequence(DynamicMessage m, Path file, String what, boolean top) {
        checkKnown(m, file, what, "SequenceProto");
        int elem = (int) m.getField(SEQUENCE_PROTO.findFieldByName("elem_type"));
        int sequences = m.getRepeatedFieldCount(SEQUENCE_PROTO.findFieldByName("sequence_values"));
        if (sequences > 0 || (elem != TENSOR && elem != 0))
            throw new OnnxException(what + ": SequenceProto elem_type " + elem + "; arenaplan takes sequences of tensors (elem_type 1) only"
                    + (top && elem == SEQUENCE && sequences == 1 ? " (an OptionalProto holding a sequence has these bytes: onnx-data.proto numbers both messages'"
                    + " fields alike; it is a value for an optional input)" : ""));
        Descriptors.FieldDescriptor f = SEQUENCE_PROTO.findFieldByName("tensor_values");
        List<TensorValue> tensors = new ArrayList<>();
        for (int i = 0; i < m.getRepeatedFieldCount(f); i++) tensors.add(tensor((Message) m.getRepeatedField(f, i), file, what + ": tensor_values[" + i + "]"));
        return new OnnxValue.Sequence(tensors);
    }

    /** A field the message does not have (a TensorProto's dims or raw_data read as this message, a sparse tensor or map) is refused. */
    private static void checkKnown(DynamicMessage m, Path file, String what, String message) {
        if (!m.getUnknownFields().asMap().isEmpty())
            throw new OnnxException(what + ": not " + (message.startsWith("O") ? "an " : "a ") + message + " of tensors: it has field number(s) " + m.getUnknownFields().asMap().keySet()
                    + ", which " + (message.startsWith("O") ? "an " : "a ") + message + " of tensors has not (a TensorProto file has dims 1 and raw_data 9; maps and sparse tensors are not taken)");
    }

    private static TensorValue tensor(Message t, Path file, String what) {
        OnnxMl.TensorProto p;
        try {
            p = OnnxMl.TensorProto.parseFrom(t.toByteString());
        } catch (InvalidProtocolBufferException e) {
            throw new OnnxException(what + ": not a TensorProto: " + e.getMessage(), e);
        }
        OnnxModel.TensorData d = OnnxProtos.tensor(p, file.toAbsolutePath().getParent(), what);
        if (d.dtype() == null || d.source() == null) throw new OnnxException(what + ": data_type " + OnnxDTypes.describe(d.dataType()) + " is not an element type arenaplan supports" + OnnxDTypes.why(d.dataType()));
        ByteBuffer b = d.source().read();
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new TensorValue(d.dtype(), d.dims(), bytes);
    }

    /**
     * Writes {@code value} named {@code name}: a TensorProto, SequenceProto or OptionalProto as its kind is, tensors with raw_data
     * (each with its shape, a 1-D one where it has none).
     *
     * @throws OnnxException naming the file when it cannot be written
     */
    public static void write(Path file, String name, OnnxValue value) {
        if (value instanceof OnnxValue.Tensor t) {
            OnnxTensorFile.write(file, name, t.value());
            return;
        }
        Message m = value instanceof OnnxValue.Sequence s ? sequence(name, s) : optional(name, (OnnxValue.Optional) value);
        try (OutputStream os = Files.newOutputStream(file)) {
            m.writeTo(os);
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot write: " + e.getMessage(), e);
        }
    }

    private static Message sequence(String name, OnnxValue.Sequence s) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(SEQUENCE_PROTO).setField(SEQUENCE_PROTO.findFieldByName("name"), name)
                .setField(SEQUENCE_PROTO.findFieldByName("elem_type"), TENSOR);
        for (TensorValue t : s.tensors()) b.addRepeatedField(SEQUENCE_PROTO.findFieldByName("tensor_values"), tensorProto(t));
        return b.build();
    }

    private static Message optional(String name, OnnxValue.Optional o) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(OPTIONAL_PROTO).setField(OPTIONAL_PROTO.findFieldByName("name"), name);
        if (o.element() instanceof OnnxValue.Tensor t)
            b.setField(OPTIONAL_PROTO.findFieldByName("elem_type"), TENSOR).setField(OPTIONAL_PROTO.findFieldByName("tensor_value"), tensorProto(t.value()));
        else if (o.element() instanceof OnnxValue.Sequence s)
            b.setField(OPTIONAL_PROTO.findFieldByName("elem_type"), SEQUENCE).setField(OPTIONAL_PROTO.findFieldByName("sequence_value"), sequence("", s));
        else b.setField(OPTIONAL_PROTO.findFieldByName("elem_type"), 0);
        return b.build();
    }

    private static OnnxMl.TensorProto tensorProto(TensorValue v) {
        long[] dims = v.shape() == null ? new long[]{v.elements()} : v.shape();
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setDataType(v.dtype().onnxCode()).setRawData(UnsafeByteOperations.unsafeWrap(v.bytes()));
        for (long d : dims) t.addDims(d);
        return t.build();
    }
}
