package org.arenaplan.ir;

/** Element types a tensor may carry; only the width matters to planning. */
public enum DType {
    F64(8), F32(4), F16(2), BF16(2), I64(8), I32(4), I16(2), I8(1), U8(1), BOOL(1);

    private final int bytes;

    DType(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }

    /** Parses names like {@code float32}, {@code f32}, {@code FLOAT}, {@code int64}; null when unknown. */
    public static DType parse(String s) {
        if (s == null) return null;
        switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "f64": case "float64": case "double": return F64;
            case "f32": case "float32": case "float": return F32;
            case "f16": case "float16": case "half": return F16;
            case "bf16": case "bfloat16": return BF16;
            case "i64": case "int64": case "long": return I64;
            case "i32": case "int32": case "int": return I32;
            case "i16": case "int16": return I16;
            case "i8": case "int8": return I8;
            case "u8": case "uint8": return U8;
            case "bool": return BOOL;
            default: return null;
        }
    }

    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Element {@code index} of little-endian {@code b} (absolute, from position 0) widened to a
     * double: integers exactly up to 2^53, f16 (IEEE 754 binary16) and bf16 (the high half of
     * an f32) exactly, bool as 0 or 1.
     */
    public double get(java.nio.ByteBuffer b, int index) {
        return switch (this) {
            case F32 -> b.getFloat(4 * index);
            case F64 -> b.getDouble(8 * index);
            case I64 -> b.getLong(8 * index);
            case I32 -> b.getInt(4 * index);
            case I16 -> b.getShort(2 * index);
            case F16 -> halfToFloat(b.getShort(2 * index));
            case BF16 -> Float.intBitsToFloat((b.getShort(2 * index) & 0xffff) << 16);
            case U8 -> b.get(index) & 0xff;
            case BOOL -> b.get(index) != 0 ? 1 : 0;
            case I8 -> b.get(index);
        };
    }

    /**
     * Appends {@code v} to little-endian {@code b} as this type holds it (ONNX Cast's rules):
     * floats to integers truncate toward zero and wrap like C; non-zero to bool is 1; f32, f16
     * and bf16 round to nearest even.
     */
    public void put(java.nio.ByteBuffer b, double v) {
        switch (this) {
            case F32 -> b.putFloat((float) v);
            case F64 -> b.putDouble(v);
            case F16 -> b.putShort(floatToHalf((float) v));
            case BF16 -> b.putShort(floatToBfloat16((float) v));
            case I64 -> b.putLong((long) v);
            case I32 -> b.putInt((int) (long) v);
            case I16 -> b.putShort((short) (long) v);
            case I8, U8 -> b.put((byte) (long) v);
            case BOOL -> b.put((byte) (v != 0 ? 1 : 0));
        }
    }

    /** IEEE 754 binary16 bits to a float (subnormals, infinities and NaN included). */
    public static float halfToFloat(short bits) {
        int h = bits & 0xffff, sign = (h & 0x8000) << 16, exp = (h >>> 10) & 0x1f, mant = h & 0x3ff;
        if (exp == 0x1f) return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        if (exp == 0) {
            float v = mant * 0x1p-24f;
            return sign == 0 ? v : -v;
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }

    /** IEEE 754 binary16 bits of {@code f}, rounded to nearest even (overflow to infinity). */
    public static short floatToHalf(float f) {
        int bits = Float.floatToRawIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = (bits >>> 23) & 0xff, mant = bits & 0x7fffff;
        if (exp == 0xff) return (short) (sign | 0x7c00 | (mant != 0 ? 0x200 : 0));
        int e = exp - 127 + 15;
        if (e >= 0x1f) return (short) (sign | 0x7c00);
        if (e <= 0) {
            if (e < -10) return (short) sign;
            mant |= 0x800000;
            int shift = 14 - e;
            int half = mant >> shift, rem = mant & ((1 << shift) - 1), mid = 1 << (shift - 1);
            if (rem > mid || (rem == mid && (half & 1) == 1)) half++;
            return (short) (sign | half);
        }
        int half = (e << 10) | (mant >> 13), rem = mant & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (half & 1) == 1)) half++;
        return (short) (sign | half);
    }

    /** bfloat16 bits of {@code f}, rounded to nearest even; NaN stays NaN. */
    public static short floatToBfloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) return (short) ((bits >>> 16) | 0x40);
        return (short) ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16);
    }
}
