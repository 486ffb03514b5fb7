package org.arenaplan.ir;

import java.nio.ByteBuffer;

/**
 * The ONNX packed sub-byte element types (ONNX docs "4 bit integer types" int4.md, "2 bit integer
 * types" int2.md, "Float stored in 4 bits" float4.md; numpy_helper's {@code _pack_4bitx2} and
 * {@code _pack_2bitx4}): UINT4 (21, 0..15), INT4 (22, -8..7, two's complement), FLOAT4E2M1 (23),
 * UINT2 (25, 0..3), INT2 (26, -2..1).
 * <ul>
 *   <li>Packing: 8 / bits elements per byte, element {@code i} in bits
 *       {@code (i % perByte) * bits} up of byte {@code i / perByte}: the first element in the
 *       least significant bits. The unused high bits of the last byte are zero. n elements
 *       occupy {@code ceil(n * bits / 8)} bytes ({@link DType#byteSize}).</li>
 *   <li>Integer codes: UINT read zero-extended, INT sign-extended. Storing keeps the low bits
 *       (two's complement wrap-around, as Cast does between fixed-point types).</li>
 *   <li>Float to a sub-byte integer (Cast, int4.md / int2.md): round to the nearest integer, ties
 *       to even, then keep the low bits; NaN gives 0, infinities saturate in int64 first
 *       (Java's {@code (long)}), as the wider integers do.</li>
 *   <li>FLOAT4E2M1: sign, 2 exponent bits (bias 1), 1 mantissa bit; magnitudes 0, 0.5, 1, 1.5, 2,
 *       3, 4, 6; no infinity, no NaN. Encoding (float4.md's table): one rounding to nearest
 *       even from the double, saturating to +-6 (infinities too), -0 stays -0. NaN: float4.md's
 *       table says 6, but the ONNX reference implementation (op_cast.py, {@code astype} to
 *       ml_dtypes' float4_e2m1fn, whose "quiet NaN" is the code 0b1000, the MX spec leaving NaN
 *       conversion to the implementation) and the ONNX node tests generated with it
 *       (test_cast_FLOAT_to_FLOAT4E2M1: NaN gives 0x8) give code 8 (-0), and code 0 for a NaN
 *       with its sign bit set (ml_dtypes negates its NaN code). arenaplan follows the reference.</li>
 * </ul>
 * The CUDA kernels implement the same rules in {@code dtypes.cuh} ({@code load_packed},
 * {@code f4_to_float}, {@code double_to_f4}).
 */
final class SubByte {
    private SubByte() { }

    /** FLOAT4E2M1 magnitudes of the codes 0..7. */
    private static final float[] E2M1 = {0f, 0.5f, 1f, 1.5f, 2f, 3f, 4f, 6f};

    /** The code bits (unsigned, {@code bits} wide) of element {@code i}. */
    static int code(ByteBuffer b, long i, int bits) {
        int perByte = 8 / bits;
        int at = (int) (i / perByte), shift = (int) (i % perByte) * bits;
        return (b.get(at) >>> shift) & ((1 << bits) - 1);
    }

    /** Stores the low {@code bits} of {@code code} as element {@code i}, the other elements of its byte kept. */
    static void putCode(ByteBuffer b, long i, int bits, int code) {
        int perByte = 8 / bits, mask = (1 << bits) - 1;
        int at = (int) (i / perByte), shift = (int) (i % perByte) * bits;
        b.put(at, (byte) ((b.get(at) & ~(mask << shift)) | ((code & mask) << shift)));
    }

    /** A code of a signed type sign-extended, of an unsigned one zero-extended. */
    static long extend(int code, int bits, boolean signed) {
        return signed && (code & (1 << (bits - 1))) != 0 ? code - (1L << bits) : code;
    }

    /** A float to a sub-byte integer's wide value: rounded to nearest even (NaN 0, +-inf saturating in int64); the caller keeps the low bits. */
    static long roundToInteger(double v) {
        return (long) Math.rint(v);
    }

    /** The FLOAT4E2M1 code (4 bits) as f32, exact. */
    static float e2m1ToFloat(int code) {
        float m = E2M1[code & 7];
        return (code & 8) != 0 ? -m : m;
    }

    /**
     * {@code v} as a FLOAT4E2M1 code: one rounding to nearest even, saturating to +-6 (infinities
     * too), -0 kept; a NaN gives code 8 (-0), a NaN with the sign bit set code 0 (see the class comment).
     */
    static int e2m1(double v) {
        if (v != v) return Double.doubleToRawLongBits(v) < 0 ? 0x0 : 0x8;
        int sign = v < 0 || (v == 0 && 1 / v < 0) ? 8 : 0;
        double a = Math.abs(v);
        // codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6; the midpoints between neighbours decide, an
        // exact midpoint going to the even code (mantissa bit 0)
        int c;
        if (a < 0.25) c = 0;
        else if (a <= 0.25) c = 0;          // tie 0 / 0.5: even is 0
        else if (a < 0.75) c = 1;
        else if (a <= 0.75) c = 2;          // tie 0.5 / 1: even is 1 (code 2)
        else if (a < 1.25) c = 2;
        else if (a <= 1.25) c = 2;          // tie 1 / 1.5: even is 1
        else if (a < 1.75) c = 3;
        else if (a <= 1.75) c = 4;          // tie 1.5 / 2: even is 2
        else if (a < 2.5) c = 4;
        else if (a <= 2.5) c = 4;           // tie 2 / 3: even is 2
        else if (a < 3.5) c = 5;
        else if (a <= 3.5) c = 6;           // tie 3 / 4: even is 4
        else if (a < 5) c = 6;
        else if (a <= 5) c = 6;             // tie 4 / 6: even is 4
        else c = 7;                         // above 5, infinity included: 6 (saturated)
        return sign | c;
    }
}
