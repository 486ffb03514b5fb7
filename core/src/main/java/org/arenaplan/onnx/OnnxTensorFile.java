package org.arenaplan.onnx;

import ai.onnx.proto.OnnxMl;
import com.google.protobuf.UnsafeByteOperations;
import org.arenaplan.ir.TensorValue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tensor in a {@code .pb} file: one serialized ONNX {@code TensorProto}, as the model zoo's
 * {@code input_0.pb} / {@code output_0.pb} files are, read and written with the generated schema
 * classes. Reads every element type {@link org.arenaplan.ir.DType} has, with its true element
 * size, from wherever the TensorProto keeps the values ({@link OnnxTensors}: {@code raw_data},
 * the typed fields, or external data beside the file); writes dims, data_type, name and
 * little-endian {@code raw_data}.
 */
public final class OnnxTensorFile {
    /** A decoded tensor: its name (may be empty) and value (dims as the file gives them). */
    public record NamedTensor(String name, TensorValue value) { }

    private OnnxTensorFile() { }

    /** @throws OnnxException naming the file and the field when it is missing, malformed, short or of an unsupported type */
    public static NamedTensor read(Path file) {
        try {
            return readTensor(file);
        } catch (OnnxException e) {
            int n = java.nio.file.Files.isRegularFile(file) ? OnnxValueFile.tensorsOfSequence(OnnxProtos.map(file)) : -1;
            if (n < 1) throw e;
            throw new OnnxException(file + ": not a TensorProto: it holds " + (n == 1 ? "a SequenceProto or OptionalProto of one tensor" : "a SequenceProto of " + n + " tensors")
                    + " (onnx-data.proto), where a tensor is expected", e);
        }
    }

    private static NamedTensor readTensor(Path file) {
        OnnxModel.TensorData t = OnnxProtos.readTensor(file);
        if (t.dataType() == 0)   // UNDEFINED: a file of another message (an ONNX model, say) reads as a TensorProto without one
            throw new OnnxException(file + ": data_type is 0 (UNDEFINED): not a TensorProto file (a tensor's .pb, as the ONNX tests' input_0.pb)");
        if (t.dtype() == null || t.source() == null)
            throw new OnnxException(file + ": data_type " + OnnxDTypes.describe(t.dataType()) + " is not an element type arenaplan supports" + OnnxDTypes.why(t.dataType()));
        ByteBuffer b = t.source().read();
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return new NamedTensor(t.name(), new TensorValue(t.dtype(), t.dims(), bytes));
    }

    /** Writes {@code value} (a flat value as one dim) named {@code name}, its bytes as raw_data. */
    public static void write(Path file, String name, TensorValue value) {
        long[] dims = value.shape() == null ? new long[]{value.elements()} : value.shape();
        OnnxMl.TensorProto.Builder t = OnnxMl.TensorProto.newBuilder().setName(name).setDataType(value.dtype().onnxCode())
                .setRawData(UnsafeByteOperations.unsafeWrap(value.bytes()));
        for (long d : dims) t.addDims(d);
        try (OutputStream os = Files.newOutputStream(file)) {
            t.build().writeTo(os);
        } catch (IOException e) {
            throw new OnnxException(file + ": cannot write: " + e.getMessage(), e);
        }
    }
}
