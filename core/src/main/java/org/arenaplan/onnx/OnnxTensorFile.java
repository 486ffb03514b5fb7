package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A float tensor in a {@code .pb} file: one serialized ONNX TensorProto, as the model zoo's
 * {@code input_0.pb} / {@code output_0.pb} files are, read and written with the generated schema
 * classes. Written with dims, data_type FLOAT, name and little-endian raw_data.
 */
public final class OnnxTensorFile {
    /** A decoded tensor: its name (may be empty), dims and values. */
    public record FloatTensor(String name, long[] dims, float[] values) { }

    private OnnxTensorFile() { }

    /** Reads a TensorProto file of any element type arenaplan knows, its values widened to float. */
    public static FloatTensor read(Path file) {
        OnnxModel.TensorData t = OnnxProtos.readTensor(file);
        if (t.dtype() == null || t.source() == null)
            throw new OnnxException(file + ": TensorProto of data_type " + t.dataType() + ", which arenaplan does not read");
        double[] d = t.values();
        float[] v = new float[d.length];
        for (int i = 0; i < v.length; i++) v[i] = (float) d[i];
        return new FloatTensor(t.name(), t.dims(), v);
    }

    public static void write(Path file, String name, long[] dims, float[] values) {
        ByteBuffer raw = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : values) raw.putFloat(f);
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(OnnxDTypes.FLOAT)
                .setRawData(UnsafeByteOperations.unsafeWrap(raw.flip()));
        for (long d : dims) t.addDims(d);
        try (OutputStream os = Files.newOutputStream(file)) {
            t.build().writeTo(os);
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot write: " + e.getMessage(), e);
        }
    }
}
