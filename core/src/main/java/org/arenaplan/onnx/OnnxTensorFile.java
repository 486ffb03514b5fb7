package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A tensor in a {@code .pb} file: one serialized ONNX {@code TensorProto}, as the model zoo's
 * {@code input_0.pb} / {@code output_0.pb} files are (schema: the generated
 * {@code ai.onnx.proto.OnnxMl} classes). Reads every element type {@link DType} has, from
 * {@code raw_data} or from the typed field the ONNX spec assigns it ({@code float_data},
 * {@code int32_data} for int32, int16, int8, uint8, bool, and the bits of f16/bf16,
 * {@code int64_data}, {@code double_data}); writes dims, data_type, name and little-endian
 * {@code raw_data}. External data is refused.
 */
public final class OnnxTensorFile {
    /** A decoded tensor: its name (may be empty) and value (dims as the file gives them). */
    public record NamedTensor(String name, TensorValue value) { }

    private OnnxTensorFile() { }

    /** @throws OnnxException naming the file and the field when it is missing, malformed or of an unsupported type */
    public static NamedTensor read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new OnnxException(file + ": no such file");
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot read: " + e.getMessage(), e);
        }
        OnnxMl.TensorProto t;
        try {
            t = OnnxMl.TensorProto.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new OnnxException(file + ": not a TensorProto (" + e.getMessage() + ")", e);
        }
        return new NamedTensor(t.getName(), decode(t, file.toString()));
    }

    /** The value a TensorProto holds; {@code where} names it in errors. */
    static TensorValue decode(OnnxMl.TensorProto t, String where) {
        DType d = DType.ofOnnx(t.getDataType());
        if (d == null) throw new OnnxException(where + ": data_type " + t.getDataType() + " is not an element type arenaplan supports");
        if (t.getDataLocation() == OnnxMl.TensorProto.DataLocation.EXTERNAL)
            throw new OnnxException(where + ": data_location is EXTERNAL; a tensor file must hold its data");
        long[] dims = t.getDimsList().stream().mapToLong(Long::longValue).toArray();
        long n = 1;
        for (long x : dims) {
            if (x < 0) throw new OnnxException(where + ": dims " + Arrays.toString(dims) + " has a negative extent");
            n = Math.multiplyExact(n, x);
        }
        long want = Math.multiplyExact(n, d.bytes());
        if (want > Integer.MAX_VALUE - 8) throw new OnnxException(where + ": " + want + " B exceed what one tensor file may hold here (2 GiB)");
        ByteBuffer b = TensorValue.allocate(want);
        int count;
        String field;
        if (!t.getRawData().isEmpty()) {
            field = "raw_data";
            count = t.getRawData().size() / d.bytes();
            if (t.getRawData().size() == want) t.getRawData().copyTo(b.array(), 0);
            else count = -t.getRawData().size();
        } else {
            switch (d) {
                case F32 -> { field = "float_data"; count = t.getFloatDataCount(); if (count == n) for (int i = 0; i < n; i++) b.putFloat(4 * i, t.getFloatData(i)); }
                case F64 -> { field = "double_data"; count = t.getDoubleDataCount(); if (count == n) for (int i = 0; i < n; i++) b.putDouble(8 * i, t.getDoubleData(i)); }
                case I64 -> { field = "int64_data"; count = t.getInt64DataCount(); if (count == n) for (int i = 0; i < n; i++) b.putLong(8 * i, t.getInt64Data(i)); }
                case F16, BF16 -> { field = "int32_data"; count = t.getInt32DataCount(); if (count == n) for (int i = 0; i < n; i++) b.putShort(2 * i, (short) t.getInt32Data(i)); }
                default -> { field = "int32_data"; count = t.getInt32DataCount(); if (count == n) for (int i = 0; i < n; i++) d.putLong(b, i, t.getInt32Data(i)); }
            }
        }
        if (count != n)
            throw new OnnxException(where + ": dims " + Arrays.toString(dims) + " of " + d.jsonName() + " need " + n + " values but " + field + " holds "
                    + (count < 0 ? -count + " B" : count + " values"));
        return new TensorValue(d, dims, b.array());
    }

    /** Writes {@code value} (a flat value as one dim) named {@code name}, its bytes as raw_data. */
    public static void write(Path file, String name, TensorValue value) {
        long[] dims = value.shape() == null ? new long[]{value.elements()} : value.shape();
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setDataType(value.dtype().onnxCode()).setName(name)
                .setRawData(ByteString.copyFrom(value.bytes()));
        for (long d : dims) t.addDims(d);
        try {
            Files.write(file, t.build().toByteArray());
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot write: " + e.getMessage(), e);
        }
    }
}
