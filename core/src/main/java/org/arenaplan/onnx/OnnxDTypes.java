package org.arenaplan.onnx;

import org.arenaplan.ir.DType;

/**
 * ONNX element type codes ({@code TensorProto.DataType} in onnx.proto: UNDEFINED = 0, FLOAT = 1,
 * ..., FLOAT8E8M0 = 24, UINT2 = 25, INT2 = 26, FLOAT6E2M3 = 27, FLOAT6E3M2 = 28, as of onnx 1.23): constants for the wire reader's switches, their
 * names for messages, and the one check that turns a code read from a file into an arenaplan
 * {@link DType} ({@link DType#ofOnnx}). Every message about an element type code goes through
 * {@link #describe}, so a code reads the same wherever it appears.
 */
final class OnnxDTypes {
    static final int FLOAT = 1, UINT8 = 2, INT8 = 3, UINT16 = 4, INT16 = 5, INT32 = 6, INT64 = 7, STRING = 8, BOOL = 9, FLOAT16 = 10, DOUBLE = 11,
            UINT32 = 12, UINT64 = 13, BFLOAT16 = 16, FLOAT8E4M3FN = 17, FLOAT8E4M3FNUZ = 18, FLOAT8E5M2 = 19, FLOAT8E5M2FNUZ = 20, FLOAT8E8M0 = 24;
    private static final String[] NAMES = {"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
        "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
        "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2", "FLOAT6E2M3", "FLOAT6E3M2"};

    /** onnx.proto's name for {@code code} (e.g. "FLOAT4E2M1" for 23), or null when it names no element type arenaplan knows of. */
    static String name(long code) {
        return code >= 0 && code < NAMES.length ? NAMES[(int) code] : null;
    }

    /** "23 (FLOAT4E2M1)", or just the number for 0 (UNDEFINED) and a code onnx.proto does not define (as far as arenaplan knows). */
    static String describe(long code) {
        String n = name(code);
        return n == null || code == 0 ? Long.toString(code) : code + " (" + n + ")";
    }

    /**
     * What more there is to say of an element type arenaplan does not support, after "is not an
     * element type arenaplan supports": for STRING, that its elements have no fixed size; else "".
     */
    static String why(long code) {
        return code == STRING ? " (a STRING tensor's elements are variable-length text, which no fixed-size device buffer holds)" : "";
    }

    /**
     * Why {@code code} gives no arenaplan type, or null when it gives one: "is UNDEFINED, not an
     * element type", "is not an ONNX element type (TensorProto.DataType 1 to 28)", or
     * "is an element type arenaplan does not support". Follows "... = CODE (NAME) ".
     */
    static String problem(long code) {
        if (DType.ofOnnx(code) != null) return null;
        if (code == 0) return "is UNDEFINED, not an element type";
        if (name(code) == null) return "is not an ONNX element type (TensorProto.DataType 1 to " + (NAMES.length - 1) + ")";
        return "is an element type arenaplan does not support";
    }

    private OnnxDTypes() { }
}
