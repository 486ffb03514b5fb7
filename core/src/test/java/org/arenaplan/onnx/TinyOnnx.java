package org.arenaplan.onnx;

import com.google.protobuf.CodedOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Writes small ONNX models for tests, field by field with protobuf's wire-format writer. */
final class TinyOnnx {
    private long opset = 13;
    private final List<byte[]> nodes = new ArrayList<>();
    private final List<byte[]> inits = new ArrayList<>();
    private final List<byte[]> inputs = new ArrayList<>();
    private final List<byte[]> outputs = new ArrayList<>();

    TinyOnnx opset(long v) { opset = v; return this; }

    /** A float graph input; each dim is a Long or a String (symbolic). */
    TinyOnnx input(String name, Object... dims) { inputs.add(valueInfo(name, 1, true, dims)); return this; }

    /** A graph input of ONNX element type {@code elemType} (TensorProto.DataType). */
    TinyOnnx typedInput(String name, int elemType, Object... dims) { inputs.add(valueInfo(name, elemType, true, dims)); return this; }

    /** A graph output of ONNX element type {@code elemType}, its shape declared. */
    TinyOnnx typedOutput(String name, int elemType, Object... dims) { outputs.add(valueInfo(name, elemType, true, dims)); return this; }

    /** A graph output; with dims its shape is declared too (and the importer checks it). */
    TinyOnnx output(String name, Object... dims) { outputs.add(valueInfo(name, 1, dims.length > 0, dims)); return this; }

    /** An int64 initializer. */
    TinyOnnx ints(String name, long... values) {
        inits.add(message(o -> {
            o.writeInt64(1, values.length);
            o.writeInt32(2, 7);
            o.writeString(8, name);
            for (long v : values) o.writeInt64(7, v);
        }));
        return this;
    }

    /** A float initializer of the given dims, every element {@code fill}. */
    TinyOnnx floats(String name, float fill, long... dims) {
        inits.add(message(o -> {
            long n = 1;
            for (long d : dims) { o.writeInt64(1, d); n *= d; }
            o.writeInt32(2, 1);
            o.writeString(8, name);
            for (long i = 0; i < n; i++) o.writeFloat(4, fill);
        }));
        return this;
    }

    /** A float initializer stored as little-endian raw_data, as exporters write real weights. */
    TinyOnnx raw(String name, float[] values) {
        inits.add(message(o -> {
            o.writeInt64(1, values.length);
            o.writeInt32(2, 1);
            o.writeString(8, name);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * values.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (float v : values) b.putFloat(v);
            o.writeByteArray(9, b.array());
        }));
        return this;
    }

    /** A node; attrs alternate name, value (Long, Double, String, long[]). */
    TinyOnnx node(String name, String op, List<String> in, List<String> out, Object... attrs) {
        nodes.add(message(o -> {
            for (String s : in) o.writeString(1, s);
            for (String s : out) o.writeString(2, s);
            o.writeString(3, name);
            o.writeString(4, op);
            for (int i = 0; i < attrs.length; i += 2) {
                String an = (String) attrs[i];
                Object v = attrs[i + 1];
                o.writeByteArray(5, message(a -> {
                    a.writeString(1, an);
                    if (v instanceof Long l) { a.writeInt64(3, l); a.writeInt32(20, 2); }
                    else if (v instanceof Double d) { a.writeFloat(2, d.floatValue()); a.writeInt32(20, 1); }
                    else if (v instanceof String s) { a.writeByteArray(4, s.getBytes(java.nio.charset.StandardCharsets.UTF_8)); a.writeInt32(20, 3); }
                    else if (v instanceof long[] ls) { for (long x : ls) a.writeInt64(8, x); a.writeInt32(20, 7); }
                    else throw new IllegalArgumentException(String.valueOf(v));
                }));
            }
        }));
        return this;
    }

    byte[] bytes() {
        byte[] graph = message(o -> {
            for (byte[] n : nodes) o.writeByteArray(1, n);
            o.writeString(2, "tiny");
            for (byte[] t : inits) o.writeByteArray(5, t);
            for (byte[] v : inputs) o.writeByteArray(11, v);
            for (byte[] v : outputs) o.writeByteArray(12, v);
        });
        return message(o -> {
            o.writeInt64(1, 7);
            o.writeByteArray(7, graph);
            o.writeByteArray(8, message(s -> { s.writeString(1, ""); s.writeInt64(2, opset); }));
        });
    }

    private static byte[] valueInfo(String name, int elemType, boolean withShape, Object... dims) {
        return message(o -> {
            o.writeString(1, name);
            o.writeByteArray(2, message(type -> type.writeByteArray(1, message(t -> {
                t.writeInt32(1, elemType);
                if (withShape) t.writeByteArray(2, message(shape -> {
                    for (Object d : dims) {
                        shape.writeByteArray(1, message(dim -> {
                            if (d instanceof String s) dim.writeString(2, s);
                            else dim.writeInt64(1, ((Number) d).longValue());
                        }));
                    }
                }));
            }))));
        });
    }

    interface Body {
        void write(CodedOutputStream o) throws IOException;
    }

    static byte[] message(Body body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream o = CodedOutputStream.newInstance(bytes);
            body.write(o);
            o.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
