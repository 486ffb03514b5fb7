package org.arenaplan.onnx;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** ONNX Runtime (CPU) as the reference: runs a model's bytes on {@link TensorValue} inputs and returns every output. Test scope only. */
final class OrtOracle {
    private OrtOracle() { }

    static Map<String, TensorValue> run(byte[] model, Map<String, TensorValue> inputs) {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        List<OnnxTensor> tensors = new ArrayList<>();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions();
             OrtSession s = env.createSession(model, asTheModelSays(options))) {
            Map<String, OnnxTensor> in = new LinkedHashMap<>();
            for (Map.Entry<String, TensorValue> e : inputs.entrySet()) {
                TensorValue v = e.getValue();
                ByteBuffer b = ByteBuffer.allocateDirect(v.byteCount()).order(ByteOrder.nativeOrder());
                b.put(v.buffer()).rewind();
                OnnxTensor t = OnnxTensor.createTensor(env, b, v.shape(), javaType(v.dtype()));
                tensors.add(t);
                in.put(e.getKey(), t);
            }
            Map<String, TensorValue> out = new LinkedHashMap<>();
            try (OrtSession.Result r = s.run(in)) {
                for (Map.Entry<String, ai.onnxruntime.OnnxValue> e : r) {
                    OnnxTensor t = (OnnxTensor) e.getValue();
                    DType d = dtype(t.getInfo().onnxType);
                    ByteBuffer b = t.getByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    long[] shape = t.getInfo().getShape();
                    if ((d == DType.F16 || d == DType.BF16) && bytes.length == 4 * t.getInfo().getNumElements()) {
                        // ORT's Java API hands 16-bit floats out widened to f32: narrowing them back is exact.
                        double[] v = new double[bytes.length / 4];
                        for (int i = 0; i < v.length; i++) v[i] = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getFloat(4 * i);
                        out.put(e.getKey(), TensorValue.ofDoubles(d, shape, v));
                    } else {
                        out.put(e.getKey(), new TensorValue(d, shape, bytes));
                    }
                }
            }
            return out;
        } catch (OrtException e) {
            throw new AssertionError("ONNX Runtime failed: " + e.getMessage(), e);
        } finally {
            tensors.forEach(OnnxTensor::close);
        }
    }

    /**
     * One intra-op thread, so the reference does not depend on how ONNX Runtime splits its sums; no graph
     * optimizations, so it is ONNX Runtime's kernels on the graph as written: its rewrites are not always exact
     * (its Pad fusion folds a zero Pad into MaxPool's pads, where padding never wins:
     * OnnxRuntimeDifferentialTest.zeroPadThenMaxPoolTakesThePaddedZero).
     */
    private static OrtSession.SessionOptions asTheModelSays(OrtSession.SessionOptions options) throws OrtException {
        options.setIntraOpNumThreads(1);
        options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.NO_OPT);
        return options;
    }

    /** The Java API numbers element types its own way; by name. */
    private static DType dtype(ai.onnxruntime.TensorInfo.OnnxTensorType t) {
        for (DType d : DType.values()) if (javaType(d).name().equals(t.name().substring("ONNX_TENSOR_ELEMENT_DATA_TYPE_".length()))) return d;
        throw new AssertionError("no arenaplan type for ONNX Runtime's " + t);
    }

    private static OnnxJavaType javaType(DType d) {
        return switch (d) {
            case F32 -> OnnxJavaType.FLOAT;
            case F64 -> OnnxJavaType.DOUBLE;
            case F16 -> OnnxJavaType.FLOAT16;
            case BF16 -> OnnxJavaType.BFLOAT16;
            case I64 -> OnnxJavaType.INT64;
            case I32 -> OnnxJavaType.INT32;
            case I16 -> OnnxJavaType.INT16;
            case I8 -> OnnxJavaType.INT8;
            case U8 -> OnnxJavaType.UINT8;
            case BOOL -> OnnxJavaType.BOOL;
            case U16, U32, U64, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F8E8M0, U4, I4, F4E2M1, U2, I2 -> OnnxJavaType.UNKNOWN;   // the Java API has no such tensors: feed them as initializers, read them cast
        };
    }
}
