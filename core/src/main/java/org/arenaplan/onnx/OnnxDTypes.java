package org.arenaplan.onnx;

import org.arenaplan.ir.DType;

/** ONNX {@code TensorProto.DataType} codes and their {@link DType}. */
final class OnnxDTypes {
    static final int FLOAT = 1, UINT8 = 2, INT8 = 3, UINT16 = 4, INT16 = 5, INT32 = 6, INT64 = 7, STRING = 8, BOOL = 9, FLOAT16 = 10, DOUBLE = 11,
            UINT32 = 12, UINT64 = 13, BFLOAT16 = 16;

    private OnnxDTypes() { }

    /** The element type of an ONNX code; null when arenaplan has none for it. */
    static DType of(int code) {
        return switch (code) {
            case FLOAT -> DType.F32;
            case UINT8 -> DType.U8;
            case INT8 -> DType.I8;
            case INT16 -> DType.I16;
            case INT32 -> DType.I32;
            case INT64 -> DType.I64;
            case BOOL -> DType.BOOL;
            case FLOAT16 -> DType.F16;
            case DOUBLE -> DType.F64;
            case BFLOAT16 -> DType.BF16;
            default -> null;
        };
    }
}
