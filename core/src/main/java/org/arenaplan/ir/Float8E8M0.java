package org.arenaplan.ir;

/**
 * ONNX FLOAT8E8M0 (opset 24; the OCP Microscaling formats' shared scale, E8M0): 8 exponent bits,
 * no sign, no mantissa, bias 127. Code c is 2^(c - 127), so 0 is 2^-127 (there is no zero) and
 * 254 is 2^127; 255 is the one NaN; there is no infinity.
 *
 * <p>Encoding follows ONNX Cast-24/25 ({@code round_mode}, {@code saturate}) as the ONNX
 * reference implementation writes it ({@code onnx.numpy_helper.to_float8e8m0}, onnx 1.23): the
 * value is first converted to f32 (f64 rounds to nearest even, integers to the nearest f32); the
 * code is the f32's biased exponent field, the sign ignored; NaN and infinities give 255; then
 * <ul>
 *   <li>{@link RoundMode#UP}: one more when the f32 has any mantissa bit set;</li>
 *   <li>{@link RoundMode#DOWN}: the exponent field as it is;</li>
 *   <li>{@link RoundMode#NEAREST}: one more when the mantissa's top bit (the guard, g) is set and
 *       the next (r), any lower one (s) or the exponent field being non-zero (the "lsb") is too:
 *       g && (r || s || field > 0), the reference's rule word for word;</li>
 * </ul>
 * with {@code saturate} an increment past 254 is dropped (2^127 stays); without it 254 + 1 gives
 * 255, NaN. The CUDA kernels implement the same rules in {@code dtypes.cuh}
 * ({@code e8m0_to_float}, {@code float_to_e8m0}).
 */
public final class Float8E8M0 {
    /** Cast-24's {@code round_mode} attribute; {@link #code} is what ops and kernels carry (the ONNX string's position in up, down, nearest). */
    public enum RoundMode {
        UP, DOWN, NEAREST;

        /** The attribute's string ("up", "down", "nearest"); null for another. */
        public static RoundMode parse(String s) {
            return switch (s) {
                case "up" -> UP;
                case "down" -> DOWN;
                case "nearest" -> NEAREST;
                default -> null;
            };
        }

        /** 0, 1, 2: the value kernels take. */
        public int code() {
            return ordinal();
        }

        /** The mode of a kernel's value (0 up, 1 down, 2 nearest); another value is up, the default. */
        public static RoundMode ofCode(long code) {
            return code == 1 ? DOWN : code == 2 ? NEAREST : UP;
        }
    }

    /** The NaN code. */
    public static final int NAN = 0xFF;

    private Float8E8M0() { }

    /** Code {@code c} (its low 8 bits) as f32: 2^(c - 127), exact (2^-127 is an f32 subnormal), or NaN for 255. */
    public static float toFloat(int c) {
        int code = c & 0xFF;
        if (code == NAN) return Float.NaN;
        return code == 0 ? Float.intBitsToFloat(0x00400000) : Float.intBitsToFloat(code << 23);
    }

    /** {@code v} (an f32) as a code 0..255, by the rules in the class comment. */
    public static int fromFloat(float v, boolean saturate, RoundMode mode) {
        int bits = Float.floatToRawIntBits(v);
        int field = (bits >>> 23) & 0xFF, mant = bits & 0x7FFFFF;
        if (field == 0xFF) return NAN;
        boolean up = switch (mode) {
            case UP -> mant != 0;
            case DOWN -> false;
            case NEAREST -> (mant & 0x400000) != 0 && ((mant & 0x200000) != 0 || (mant & 0x1FFFFF) != 0 || field > 0);
        };
        if (up && field == 0xFE && saturate) up = false;
        return field + (up ? 1 : 0);
    }
}
