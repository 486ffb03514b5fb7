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
}
