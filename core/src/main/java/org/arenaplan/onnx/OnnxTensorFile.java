package org.arenaplan.onnx;

import com.google.protobuf.CodedOutputStream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A float tensor in a {@code .pb} file: one serialized ONNX TensorProto, as the model zoo's
 * {@code input_0.pb} / {@code output_0.pb} files are. Written with dims, data_type FLOAT, name
 * and little-endian raw_data.
 */
public final class OnnxTensorFile {
    /** A decoded tensor: its name (may be empty), dims and values. */
    public record FloatTensor(String name, long[] dims, float[] values) { }

    private OnnxTensorFile() { }

    public static FloatTensor read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new OnnxException(file + ": no such file");
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot read: " + e.getMessage(), e);
        }
        OnnxModel.TensorData t = OnnxReader.readTensor(bytes, file.toString());
        float[] v = new float[t.values().length];
        for (int i = 0; i < v.length; i++) v[i] = (float) t.values()[i];
        return new FloatTensor(t.name(), t.dims(), v);
    }

    public static void write(Path file, String name, long[] dims, float[] values) {
        try (OutputStream os = Files.newOutputStream(file)) {
            CodedOutputStream o = CodedOutputStream.newInstance(os);
            for (long d : dims) o.writeInt64(1, d);
            o.writeInt32(2, OnnxDTypes.FLOAT);
            o.writeString(8, name);
            ByteBuffer raw = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
            for (float f : values) raw.putFloat(f);
            o.writeByteArray(9, raw.array());
            o.flush();
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot write: " + e.getMessage(), e);
        }
    }
}
