package org.arenaplan.ir;

/**
 * The four ONNX float8 formats (1 sign bit, E exponent bits, M mantissa bits; ONNX docs
 * "Float stored in 8 bits", docs/technical/float8.md, and Operators.md Cast): decoding to f32
 * (exact) and encoding from a double, rounding to nearest even in one step.
 * <ul>
 *   <li>E4M3FN: bias 7, max 448 (0x7E), NaN S.1111.111, no infinity;</li>
 *   <li>E4M3FNUZ: bias 8, max 240 (0x7F), one NaN 0x80, no infinity, no negative zero;</li>
 *   <li>E5M2: bias 15, max 57344 (0x7B), infinities S.11111.00, NaN S.11111.{01,10,11};</li>
 *   <li>E5M2FNUZ: bias 16, max 57344 (0x7F), one NaN 0x80, no infinity, no negative zero.</li>
 * </ul>
 * Encoding (Cast-24's tables, which every opset follows here: Cast-19's table said an infinity
 * saturates to NaN in the FNUZ types, but the ONNX reference implementation, op_cast.py, clips
 * to +-max for every Cast version, and Cast-24 corrected the table): NaN stays NaN (sign kept where the format
 * has signed NaNs, the NaN written is S.1111.111 for E4M3FN, S.11111.10 for E5M2); -0 stays -0
 * (FNUZ: 0); a finite value rounds to nearest even, and when the rounded magnitude exceeds max
 * (or the value is infinite) it becomes +-max with {@code saturate}, else infinity (E5M2) or NaN
 * (the others). A value that rounds to zero keeps its sign, except in the FNUZ types. The CUDA
 * kernels implement the same rules in {@code dtypes.cuh} ({@code f8_to_float}, {@code double_to_f8}).
 */
final class Float8 {
    private Float8() { }

    private static int mantissaBits(DType t) {
        return t == DType.F8E4M3FN || t == DType.F8E4M3FNUZ ? 3 : 2;
    }

    private static int bias(DType t) {
        return switch (t) {
            case F8E4M3FN -> 7;
            case F8E4M3FNUZ -> 8;
            case F8E5M2 -> 15;
            case F8E5M2FNUZ -> 16;
            default -> throw new IllegalStateException(t + " is not float8");
        };
    }

    /** The largest finite magnitude's bits. */
    static int maxCode(DType t) {
        return t == DType.F8E4M3FN ? 0x7E : t == DType.F8E5M2 ? 0x7B : 0x7F;
    }

    private static boolean unsignedZero(DType t) {
        return t == DType.F8E4M3FNUZ || t == DType.F8E5M2FNUZ;
    }

    /** Bits {@code code} (the low 8 are read) of float8 type {@code t} as f32, exact; every NaN code gives a quiet NaN of the code's sign (FNUZ: positive). */
    static float toFloat(DType t, int code) {
        int c = code & 0xFF, mag = c & 0x7F;
        boolean neg = c >= 0x80;
        if (unsignedZero(t) && c == 0x80) return Float.NaN;
        if (t == DType.F8E4M3FN && mag == 0x7F) return Float.intBitsToFloat((neg ? 0x80000000 : 0) | 0x7FC00000);
        if (t == DType.F8E5M2 && mag >= 0x7C) {
            if (mag == 0x7C) return neg ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
            return Float.intBitsToFloat((neg ? 0x80000000 : 0) | 0x7FC00000);
        }
        int m = mantissaBits(t), b = bias(t);
        int field = mag >>> m, mant = mag & ((1 << m) - 1);
        float v = field == 0 ? Math.scalb((float) mant, 1 - b - m) : Math.scalb((float) ((1 << m) | mant), field - b - m);
        return neg ? -v : v;
    }

    /** {@code v} as float8 type {@code t} (its bits, 0..255) by the rules in the class comment. */
    static int fromDouble(DType t, double v, boolean saturate) {
        long x = Double.doubleToRawLongBits(v);
        int sign = (int) (x >>> 63) << 7;
        long abs = x & 0x7FFFFFFFFFFFFFFFL;
        int max = maxCode(t);
        if (abs > 0x7FF0000000000000L) return unsignedZero(t) ? 0x80 : sign | (t == DType.F8E4M3FN ? 0x7F : 0x7E);
        if (abs == 0x7FF0000000000000L) return saturate ? sign | max : overflow(t, sign);
        int exp = (int) (abs >>> 52);
        int code = 0;
        if (exp != 0) {                                          // a double subnormal is far below half the least float8
            int m = mantissaBits(t), b = bias(t), e = exp - 1023, emin = 1 - b;
            int shift = 52 - m + Math.max(0, emin - e);           // bits dropped from the 53-bit significand
            if (shift < 60) {
                long sig = (abs & 0xFFFFFFFFFFFFFL) | (1L << 52);
                long q = sig >>> shift, rest = sig & ((1L << shift) - 1), mid = 1L << (shift - 1);
                if (rest > mid || (rest == mid && (q & 1) != 0)) q++;
                // subnormal: q is the code (q == 2^m is the least normal); normal: a carry into 2^(m+1) moves the exponent up
                code = e < emin ? (int) q : (int) (((long) (e + b) << m) + q - (1L << m));
            }
        }
        if (code > max) return saturate ? sign | max : overflow(t, sign);
        if (code == 0 && unsignedZero(t)) return 0;
        return sign | code;
    }

    /** A magnitude past max without saturation: infinity for E5M2, NaN for the others. */
    private static int overflow(DType t, int sign) {
        return switch (t) {
            case F8E5M2 -> sign | 0x7C;
            case F8E4M3FN -> sign | 0x7F;
            default -> 0x80;
        };
    }
}
