package org.arenaplan.ir;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Element types a tensor may carry: the element size in bytes, the ONNX {@code TensorProto.DataType}
 * code, and the one definition of how elements are read, written and converted (every device and
 * file reader uses these; the CUDA kernels implement the same rules in {@code dtypes.cuh}).
 *
 * <p>Elements are stored little-endian; {@link #BOOL} is one byte, 0 or 1. Conversions (ONNX
 * {@code Cast}, numpy {@code astype}):
 * <ul>
 *   <li>float to f16/bf16: round to nearest even; overflow gives infinity; NaN stays a (quiet) NaN.
 *       f64 to f16/bf16 rounds to f32 first (as ONNX Runtime does).</li>
 *   <li>float to integer: truncate toward zero into int64, saturating at its limits, NaN giving 0
 *       (Java's {@code (long)} and CUDA's {@code cvt.rzi.s64}); then, like integer to integer,
 *       keep the low bits of the destination width (two's complement wrap-around). To uint64, a
 *       value of 2^63 or more truncates into [2^63, 2^64) instead, saturating at 2^64 - 1
 *       (CUDA's {@code cvt.rzi.u64}).</li>
 *   <li>integer to float: round to nearest (int64 and uint64 to f16/bf16 through f32); uint64
 *       values are read unsigned.</li>
 *   <li>to bool: any non-zero value (NaN included) is true; bool to a number is 0 or 1.</li>
 *   <li>float8 (ONNX FLOAT8E4M3FN = 17, FLOAT8E4M3FNUZ = 18, FLOAT8E5M2 = 19, FLOAT8E5M2FNUZ = 20;
 *       one byte, its bits): read exactly as f32 ({@link #getFloat}); written from a double (f32,
 *       f16, bf16 and float8 sources widened exactly, integers as the nearest double) in one
 *       rounding to nearest even, with ONNX Cast's {@code saturate} (default on): see
 *       {@link Float8}. {@link #putFloat} saturates. Float8 is storage only: no arithmetic op
 *       takes it ({@link #isFloat32Compute} and {@link #isFloatingPoint} are false,
 *       {@link #isIntegral} too).</li>
 *   <li>float8e8m0 (ONNX FLOAT8E8M0 = 24; one byte, an unsigned power of two 2^(c - 127), 255 NaN):
 *       read exactly as f32 ({@link #getFloat}); written from the value converted to f32, with
 *       ONNX Cast's {@code saturate} and {@code round_mode} (default up): see {@link Float8E8M0}.
 *       Storage and Cast only, like float8, but not one of {@link #isFloat8}'s four (it has no sign
 *       and no mantissa, and Q/DQ do not take it here).</li>
 *   <li>packed sub-byte types (ONNX UINT4 = 21, INT4 = 22, FLOAT4E2M1 = 23, UINT2 = 25, INT2 = 26;
 *       {@link #isPacked}): 8 / {@link #bits()} elements per byte, the first in the low bits, a
 *       tensor of n elements in {@link #byteSize}{@code (n) = ceil(n * bits / 8)} bytes. Integer
 *       sources and targets keep the low bits; a float to UINT4/INT4/UINT2/INT2 rounds to nearest
 *       even first; FLOAT4E2M1 is written in one rounding to nearest even, saturating to +-6, NaN
 *       to -0 as the ONNX reference does ({@link SubByte}). Storage, Cast and Q/DQ only: {@link #isIntegral} is false.</li>
 * </ul>
 */
public enum DType {
    F64(8, 11), F32(4, 1), F16(2, 10), BF16(2, 16), I64(8, 7), I32(4, 6), I16(2, 5), I8(1, 3), U64(8, 13), U32(4, 12), U16(2, 4), U8(1, 2),
    BOOL(1, 9), F8E4M3FN(1, 17), F8E4M3FNUZ(1, 18), F8E5M2(1, 19), F8E5M2FNUZ(1, 20), F8E8M0(1, 24),
    U4(1, 21, 4), I4(1, 22, 4), F4E2M1(1, 23, 4), U2(1, 25, 2), I2(1, 26, 2);

    private final int bytes;
    private final int onnxCode;
    private final int bits;

    DType(int bytes, int onnxCode) {
        this.bytes = bytes;
        this.onnxCode = onnxCode;
        this.bits = 8 * bytes;
    }

    /** A packed sub-byte type: {@code bits} (4 or 2) per element, several elements per byte ({@link SubByte}); {@code bytes} is 1. */
    DType(int bytes, int onnxCode, int bits) {
        this.bytes = bytes;
        this.onnxCode = onnxCode;
        this.bits = bits;
    }

    /**
     * Element size in bytes; 1 for the packed sub-byte types ({@link #isPacked}), whose elements
     * share bytes: their tensors' sizes come from {@link #byteSize}, never from a count times this.
     */
    public int bytes() {
        return bytes;
    }

    /** Element size in bits: 8 x {@link #bytes()}, or 4 / 2 for the packed types. */
    public int bits() {
        return bits;
    }

    /** UINT4, INT4, FLOAT4EM1, UINT2, INT2: packed, 8 / {@link #bits()} elements per byte, first element in the low bits. */
    public boolean isPacked() {
        return bits < 8;
    }

    /** UINT4, INT4, UINT2, INT2: packed integer codes, read by {@link #getLong} and written by {@link #putLong} (low bits kept). */
    public boolean isPackedInteger() {
        return isPacked() && this != F4E2M1;
    }

    /**
     * The bytes {@code n} elements occupy: {@code n x bytes()}, or {@code ceil(n x bits / 8)} for a
     * packed type (ONNX int4.md / int2.md / float4.md: a 4-bit tensor of N elements takes ceil(N / 2) bytes).
     *
     * @throws ArithmeticException when the size overflows a long
     */
    public long byteSize(long n) {
        if (!isPacked()) return Math.multiplyExact(n, (long) bytes);
        int perByte = 8 / bits;
        return n / perByte + (n % perByte != 0 ? 1 : 0);
    }

    /** The ONNX {@code TensorProto.DataType} code (FLOAT = 1, ..., BFLOAT16 = 16, FLOAT8E4M3FN = 17 ... FLOAT8E5M2FNUZ = 20); kernels take element types as these codes. */
    public int onnxCode() {
        return onnxCode;
    }

    /**
     * The type of an ONNX {@code TensorProto.DataType} code; null when arenaplan has none for it.
     * Takes a long, as an attribute holds it: a code past the int range is no type (never
     * truncated into one; {@code to = 2^32 + 1} is not FLOAT).
     */
    public static DType ofOnnx(long code) {
        for (DType d : values()) if (d.onnxCode == code) return d;
        return null;
    }

    /** f32, f16 and bf16: computed in f32. */
    public boolean isFloat32Compute() {
        return this == F32 || this == F16 || this == BF16;
    }

    /** f64, f32, f16, bf16 (not float8: see {@link #isFloat8}). */
    public boolean isFloatingPoint() {
        return this == F64 || isFloat32Compute();
    }

    /** The four float8 types: storage and Cast only, read as f32 by {@link #getFloat}. */
    public boolean isFloat8() {
        return this == F8E4M3FN || this == F8E4M3FNUZ || this == F8E5M2 || this == F8E5M2FNUZ;
    }

    /**
     * The range of values this type holds exactly or, for the float types, without overflow:
     * {lowest, highest} (integers: the integer range, bool {0, 1}; floats: minus and plus the
     * largest finite value, float8 and float4e2m1 from {@link Float8}'s and {@link SubByte}'s tables).
     */
    public double[] range() {
        return switch (this) {
            case F64 -> new double[]{-Double.MAX_VALUE, Double.MAX_VALUE};
            case F32 -> new double[]{-Float.MAX_VALUE, Float.MAX_VALUE};
            case F16 -> new double[]{-65504, 65504};
            case BF16 -> new double[]{-3.3895313892515355e38, 3.3895313892515355e38};
            case F8E4M3FN -> new double[]{-448, 448};
            case F8E4M3FNUZ -> new double[]{-240, 240};
            case F8E5M2, F8E5M2FNUZ -> new double[]{-57344, 57344};
            case F4E2M1 -> new double[]{-6, 6};
            case F8E8M0 -> new double[]{0x1p-127, 0x1p127};
            case BOOL -> new double[]{0, 1};
            case U64 -> new double[]{0, 18446744073709551615.0};
            default -> isUnsigned() || this == U4 || this == U2 ? new double[]{0, Math.pow(2, bits) - 1}
                    : new double[]{-Math.pow(2, bits - 1), Math.pow(2, bits - 1) - 1};
        };
    }

    /** uint8, uint16, uint32, uint64 (not bool). */
    public boolean isUnsigned() {
        return this == U8 || this == U16 || this == U32 || this == U64;
    }

    /**
     * Orders two values of this integral type as {@link #getLong} holds them: uint64 unsigned (its
     * bits past 2^63 are negative longs), every other type signed. Negative, zero or positive.
     */
    public int compareIntegral(long a, long b) {
        return this == U64 ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }

    /**
     * Signed and unsigned integers and bool: held as {@code long}s by {@link #getLong} (uint64 as
     * its bits). Not the packed types: like float8 they are storage only ({@link #isPacked}).
     */
    public boolean isIntegral() {
        return !isFloatingPoint() && !isFloat8() && !isPacked() && this != F8E8M0;
    }

    /** Parses names like {@code float32}, {@code f32}, {@code FLOAT}, {@code int64}; null when unknown. */
    public static DType parse(String s) {
        if (s == null) return null;
        switch (s.toLowerCase(Locale.ROOT)) {
            case "f64": case "float64": case "double": return F64;
            case "f32": case "float32": case "float": return F32;
            case "f16": case "float16": case "half": return F16;
            case "bf16": case "bfloat16": return BF16;
            case "i64": case "int64": case "long": return I64;
            case "i32": case "int32": case "int": return I32;
            case "i16": case "int16": return I16;
            case "i8": case "int8": return I8;
            case "u8": case "uint8": return U8;
            case "u16": case "uint16": return U16;
            case "u32": case "uint32": return U32;
            case "u64": case "uint64": return U64;
            case "bool": return BOOL;
            case "f8e4m3fn": case "float8e4m3fn": return F8E4M3FN;
            case "f8e4m3fnuz": case "float8e4m3fnuz": return F8E4M3FNUZ;
            case "f8e5m2": case "float8e5m2": return F8E5M2;
            case "f8e5m2fnuz": case "float8e5m2fnuz": return F8E5M2FNUZ;
            case "f8e8m0": case "float8e8m0": return F8E8M0;
            case "u4": case "uint4": return U4;
            case "i4": case "int4": return I4;
            case "f4e2m1": case "float4e2m1": return F4E2M1;
            case "u2": case "uint2": return U2;
            case "i2": case "int2": return I2;
            default: return null;
        }
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    // ---- element access (b is little-endian; index counts elements) ----

    /**
     * Element {@code i} of an integral or packed integer type, sign-extended (uint8/16/32, uint4,
     * uint2 and bool zero-extended; uint64 its bits, so past 2^63 negative).
     */
    public long getLong(ByteBuffer b, int i) {
        if (isPackedInteger()) return SubByte.extend(SubByte.code(b, i, bits), bits, this == I4 || this == I2);
        int at = i * bytes;
        return switch (this) {
            case I64 -> b.getLong(at);
            case I32 -> b.getInt(at);
            case I16 -> b.getShort(at);
            case I8 -> b.get(at);
            case U8 -> b.get(at) & 0xFF;
            case U16 -> b.getShort(at) & 0xFFFF;
            case U32 -> b.getInt(at) & 0xFFFFFFFFL;
            case U64 -> b.getLong(at);
            case BOOL -> b.get(at) != 0 ? 1 : 0;
            default -> throw new IllegalStateException(this + " is not integral");
        };
    }

    /** Stores the low bits of {@code v} (bool: {@code v != 0}; a packed type's other elements in the byte kept). */
    public void putLong(ByteBuffer b, int i, long v) {
        if (isPackedInteger()) {
            SubByte.putCode(b, i, bits, (int) v);
            return;
        }
        int at = i * bytes;
        switch (this) {
            case I64, U64 -> b.putLong(at, v);
            case I32, U32 -> b.putInt(at, (int) v);
            case I16, U16 -> b.putShort(at, (short) v);
            case I8, U8 -> b.put(at, (byte) v);
            case BOOL -> b.put(at, (byte) (v != 0 ? 1 : 0));
            default -> throw new IllegalStateException(this + " is not integral");
        }
    }

    /** Element {@code i} of f32, f16, bf16, float8 or float4e2m1, widened to f32 (exact). */
    public float getFloat(ByteBuffer b, int i) {
        if (this == F4E2M1) return SubByte.e2m1ToFloat(SubByte.code(b, i, 4));
        int at = i * bytes;
        return switch (this) {
            case F32 -> b.getFloat(at);
            case F16 -> halfToFloat(b.getShort(at));
            case BF16 -> Float.intBitsToFloat((b.getShort(at) & 0xFFFF) << 16);
            case F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ -> Float8.toFloat(this, b.get(at));
            case F8E8M0 -> Float8E8M0.toFloat(b.get(at));
            default -> throw new IllegalStateException(this + " is not computed in f32");
        };
    }

    /** Stores {@code v} in f32, f16, bf16, float8 or float4e2m1, rounding to nearest even (float8, float4: saturating, as Cast's default). */
    public void putFloat(ByteBuffer b, int i, float v) {
        if (this == F4E2M1) {
            SubByte.putCode(b, i, 4, SubByte.e2m1(v));
            return;
        }
        int at = i * bytes;
        switch (this) {
            case F32 -> b.putFloat(at, v);
            case F16 -> b.putShort(at, floatToHalf(v));
            case BF16 -> b.putShort(at, floatToBfloat16(v));
            case F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ -> b.put(at, (byte) Float8.fromDouble(this, v, true));
            case F8E8M0 -> b.put(at, (byte) Float8E8M0.fromFloat(v, true, Float8E8M0.RoundMode.UP));
            default -> throw new IllegalStateException(this + " is not computed in f32");
        }
    }

    /** Stores {@code v} in this float8 type, one rounding to nearest even; {@code saturate} as ONNX Cast's ({@link Float8}). */
    public void putFloat8(ByteBuffer b, int i, double v, boolean saturate) {
        if (!isFloat8()) throw new IllegalStateException(this + " is not float8");
        b.put(i, (byte) Float8.fromDouble(this, v, saturate));
    }

    /** Element {@code i} as a double: exact for every type but int64 beyond 2^53 (for messages and tolerances). */
    public double getDouble(ByteBuffer b, int i) {
        if (this == F64) return b.getDouble(i * bytes);
        if (this == U64) return unsignedToDouble(getLong(b, i));
        return isFloat32Compute() || isFloat8() || this == F4E2M1 || this == F8E8M0 ? getFloat(b, i) : getLong(b, i);
    }

    /** The uint64 {@code v} (its bits) as the nearest double. */
    public static double unsignedToDouble(long v) {
        if (v >= 0) return v;
        return ((v >>> 1) | (v & 1)) * 2.0;           // halve with the lost bit kept sticky: one rounding
    }

    /** The uint64 {@code v} (its bits) as the nearest float. */
    public static float unsignedToFloat(long v) {
        if (v >= 0) return v;
        return ((v >>> 1) | (v & 1)) * 2.0f;
    }

    /** A float to integer {@code to} by the rules in the class comment (uint64: unsigned above 2^63), as {@link #putLong} takes it. */
    public static long toIntegral(double v, DType to) {
        if (to == U64 && v >= 0x1p63) return v >= 0x1p64 ? -1L : (long) (v - 0x1p63) ^ Long.MIN_VALUE;
        return (long) v;
    }

    /**
     * ONNX {@code Cast}: element {@code i} of {@code src} (of this type) converted to {@code to}
     * and stored as element {@code j} of {@code dst}, by the rules in the class comment;
     * float8 results saturate (Cast's default {@code saturate = 1}).
     */
    public void cast(ByteBuffer src, int i, DType to, ByteBuffer dst, int j) {
        cast(src, i, to, dst, j, true);
    }

    /**
     * ONNX {@code Cast} with its {@code saturate} attribute (opset 19), which matters only when
     * {@code to} is float8: out-of-range values and infinities become +-max when true, else
     * infinity (E5M2) or NaN ({@link Float8}).
     */
    public void cast(ByteBuffer src, int i, DType to, ByteBuffer dst, int j, boolean saturate) {
        cast(src, i, to, dst, j, saturate, Float8E8M0.RoundMode.UP);
    }

    /**
     * ONNX {@code Cast} with {@code saturate} (opset 19) and {@code round_mode} (24), which matters
     * only when {@code to} is float8e8m0: the value converted to f32 first, then encoded by
     * {@link Float8E8M0#fromFloat}.
     */
    public void cast(ByteBuffer src, int i, DType to, ByteBuffer dst, int j, boolean saturate, Float8E8M0.RoundMode roundMode) {
        boolean intIn = isIntegral() || isPackedInteger();
        if (to == F8E8M0) {
            float v = intIn ? (this == U64 ? unsignedToFloat(getLong(src, i)) : (float) getLong(src, i))
                    : this == F64 ? (float) src.getDouble(i * 8) : getFloat(src, i);
            dst.put(j, (byte) Float8E8M0.fromFloat(v, saturate, roundMode));
            return;
        }
        if (to.isFloat8() || to == F4E2M1) {
            double v = intIn ? (this == U64 ? unsignedToDouble(getLong(src, i)) : (double) getLong(src, i))
                    : this == F64 ? src.getDouble(i * 8) : getFloat(src, i);
            if (to == F4E2M1) SubByte.putCode(dst, j, 4, SubByte.e2m1(v));
            else dst.put(j, (byte) Float8.fromDouble(to, v, saturate));
        } else if (to.isPackedInteger() && !intIn) {
            to.putLong(dst, j, SubByte.roundToInteger(this == F64 ? src.getDouble(i * 8) : getFloat(src, i)));
        } else if (intIn) {
            long v = getLong(src, i);
            if (to.isIntegral() || to.isPackedInteger()) to.putLong(dst, j, v);
            else if (to == F64) dst.putDouble(j * 8, this == U64 ? unsignedToDouble(v) : (double) v);
            else to.putFloat(dst, j, this == U64 ? unsignedToFloat(v) : (float) v);
        } else if (this == F64) {
            double v = src.getDouble(i * 8);
            if (to == BOOL) to.putLong(dst, j, v != 0 || v != v ? 1 : 0);
            else if (to.isIntegral()) to.putLong(dst, j, toIntegral(v, to));
            else if (to == F64) dst.putDouble(j * 8, v);
            else to.putFloat(dst, j, (float) v);
        } else {
            float v = getFloat(src, i);
            if (to == BOOL) to.putLong(dst, j, v != 0 || v != v ? 1 : 0);
            else if (to.isIntegral()) to.putLong(dst, j, toIntegral(v, to));
            else if (to == F64) dst.putDouble(j * 8, v);
            else to.putFloat(dst, j, v);
        }
    }

    // ---- IEEE half and bfloat16 (Java 17 has no Float.floatToFloat16) ----

    /** f16 bits to f32, exact (subnormals, infinities and NaN payloads kept). */
    public static float halfToFloat(short h) {
        int bits = h & 0xFFFF;
        int sign = (bits & 0x8000) << 16;
        int exp = (bits >>> 10) & 0x1F;
        int mant = bits & 0x3FF;
        if (exp == 0x1F) return Float.intBitsToFloat(sign | 0x7F800000 | (mant << 13));
        if (exp == 0) {
            if (mant == 0) return Float.intBitsToFloat(sign);
            float v = mant * 0x1p-24f;   // subnormal: mant * 2^-24, exact in f32
            return sign != 0 ? -v : v;
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }

    /** f32 to f16 bits, round to nearest even; overflow gives infinity; NaN gives a quiet NaN. */
    public static short floatToHalf(float f) {
        int x = Float.floatToRawIntBits(f);
        int sign = (x >>> 16) & 0x8000;
        int exp = (x >>> 23) & 0xFF;
        int mant = x & 0x7FFFFF;
        if (exp == 0xFF) return (short) (sign | 0x7C00 | (mant != 0 ? 0x200 | (mant >>> 13) : 0));
        int e = exp - 112;                       // rebias 127 -> 15
        if (e >= 0x1F) return (short) (sign | 0x7C00);
        if (e <= 0) {                            // subnormal half, or zero
            if (e < -10) return (short) sign;
            int m = mant | 0x800000;
            int shift = 14 - e;
            int half = m >>> shift;
            int rest = m & ((1 << shift) - 1), mid = 1 << (shift - 1);
            if (rest > mid || (rest == mid && (half & 1) != 0)) half++;
            return (short) (sign | half);
        }
        int half = (e << 10) | (mant >>> 13);
        int rest = mant & 0x1FFF;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) half++;   // may carry into the exponent: still right
        return (short) (sign | half);
    }

    /** f32 to bfloat16 bits, round to nearest even; NaN gives a quiet NaN. */
    public static short floatToBfloat16(float f) {
        int x = Float.floatToRawIntBits(f);
        if ((x & 0x7FFFFFFF) > 0x7F800000) return (short) ((x >>> 16) | 0x40);
        return (short) ((x + 0x7FFF + ((x >>> 16) & 1)) >>> 16);
    }
}
