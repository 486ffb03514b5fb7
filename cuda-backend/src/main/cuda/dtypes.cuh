// Element types: loads, stores and conversions, exactly as org.arenaplan.ir.DType defines them
// (the simulator uses DType; KernelEmulationTest compares both). Codes are ONNX
// TensorProto.DataType numbers. Elements are little-endian; bool is one byte, 0 or 1.
// f16/bf16 conversions are written out in integer arithmetic (no cuda_fp16.h), so the g++
// emulator compiles the very same code. Bits move through memcpy, which nvcc and g++ both inline.
#pragma once
#include "common.cuh"

#define DT_FLOAT 1
#define DT_UINT8 2
#define DT_INT8 3
#define DT_UINT16 4
#define DT_INT16 5
#define DT_INT32 6
#define DT_INT64 7
#define DT_BOOL 9
#define DT_FLOAT16 10
#define DT_DOUBLE 11
#define DT_UINT32 12
#define DT_UINT64 13
#define DT_BFLOAT16 16
#define DT_FLOAT8E4M3FN 17
#define DT_FLOAT8E4M3FNUZ 18
#define DT_FLOAT8E5M2 19
#define DT_FLOAT8E5M2FNUZ 20
#define DT_FLOAT8E8M0 24
#define DT_UINT4 21
#define DT_INT4 22
#define DT_FLOAT4E2M1 23
#define DT_UINT2 25
#define DT_INT2 26

__device__ __forceinline__ unsigned int f32_bits(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
__device__ __forceinline__ float bits_f32(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }

// DType.halfToFloat: exact.
__device__ __forceinline__ float half_to_float(unsigned short h) {
    unsigned int sign = (unsigned int) (h & 0x8000) << 16;
    unsigned int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
    if (exp == 0x1F) return bits_f32(sign | 0x7F800000u | (mant << 13));
    if (exp == 0) {
        if (mant == 0) return bits_f32(sign);
        float v = (float) mant * 5.9604644775390625e-8f;   // mant * 2^-24, exact
        return sign ? -v : v;
    }
    return bits_f32(sign | ((exp + 112) << 23) | (mant << 13));
}

// DType.floatToHalf: round to nearest even, overflow to infinity, NaN to a quiet NaN.
__device__ __forceinline__ unsigned short float_to_half(float f) {
    unsigned int x = f32_bits(f);
    unsigned int sign = (x >> 16) & 0x8000;
    int exp = (int) ((x >> 23) & 0xFF);
    unsigned int mant = x & 0x7FFFFF;
    if (exp == 0xFF) return (unsigned short) (sign | 0x7C00 | (mant != 0 ? 0x200 | (mant >> 13) : 0));
    int e = exp - 112;
    if (e >= 0x1F) return (unsigned short) (sign | 0x7C00);
    if (e <= 0) {
        if (e < -10) return (unsigned short) sign;
        unsigned int m = mant | 0x800000;
        int shift = 14 - e;
        unsigned int half = m >> shift;
        unsigned int rest = m & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1))) half++;
        return (unsigned short) (sign | half);
    }
    unsigned int half = ((unsigned int) e << 10) | (mant >> 13);
    unsigned int rest = mant & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) half++;
    return (unsigned short) (sign | half);
}

// DType.floatToBfloat16: round to nearest even, NaN to a quiet NaN.
__device__ __forceinline__ unsigned short float_to_bf16(float f) {
    unsigned int x = f32_bits(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (unsigned short) ((x >> 16) | 0x40);
    return (unsigned short) ((x + 0x7FFFu + ((x >> 16) & 1)) >> 16);
}

// DType.isFloat8.
__device__ __forceinline__ bool is_float8(int code) {
    return code >= DT_FLOAT8E4M3FN && code <= DT_FLOAT8E5M2FNUZ;
}

// DType.isPacked: the sub-byte types, 8 / bits elements per byte, the first in the low bits (SubByte.java).
__device__ __forceinline__ bool is_packed(int code) {
    return code == DT_UINT4 || code == DT_INT4 || code == DT_FLOAT4E2M1 || code == DT_UINT2 || code == DT_INT2;
}

// DType.isPackedInteger: uint4, int4, uint2, int2.
__device__ __forceinline__ bool is_packed_int(int code) { return is_packed(code) && code != DT_FLOAT4E2M1; }

// DType.bits of a packed type.
__device__ __forceinline__ int packed_bits(int code) { return code == DT_UINT2 || code == DT_INT2 ? 2 : 4; }

// SubByte.code: the bits of element i (unsigned).
__device__ __forceinline__ unsigned int load_code(const void* p, long long i, int bits) {
    int per = 8 / bits;
    return ((unsigned int) ((const unsigned char*) p)[i / per] >> ((int) (i % per) * bits)) & ((1u << bits) - 1);
}

// SubByte.e2m1ToFloat: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 and the sign bit 8.
__device__ __forceinline__ float f4_to_float(unsigned int c) {
    unsigned int m = c & 7;
    float v = m < 2 ? 0.5f * (float) m : m < 4 ? 0.5f * (float) m : m == 4 ? 2.0f : m == 5 ? 3.0f : m == 6 ? 4.0f : 6.0f;
    return (c & 8) ? -v : v;
}

// SubByte.e2m1: one rounding to nearest even (ties to the even code), saturating to +-6; -0 kept;
// NaN gives code 8, a NaN with the sign bit set code 0 (the ONNX reference, ml_dtypes).
__device__ __forceinline__ unsigned int double_to_f4(double v) {
    unsigned long long x;
    memcpy(&x, &v, 8);
    if (v != v) return (x >> 63) ? 0u : 8u;
    unsigned int sign = (unsigned int) (x >> 63) << 3;
    double a = v < 0 ? -v : v;
    unsigned int c = a <= 0.25 ? 0 : a < 0.75 ? 1 : a <= 1.25 ? 2 : a < 1.75 ? 3 : a <= 2.5 ? 4 : a < 3.5 ? 5 : a <= 5 ? 6 : 7;
    return sign | c;
}

// DType.isIntegral: integers and bool (not float8, not the packed types).
__device__ __forceinline__ bool is_integral(int code) {
    return code != DT_FLOAT && code != DT_FLOAT16 && code != DT_BFLOAT16 && code != DT_DOUBLE && !is_float8(code) && !is_packed(code) && code != DT_FLOAT8E8M0;
}

// Float8 formats (Float8.java): mantissa bits, exponent bias, largest finite code, one NaN and no -0.
__device__ __forceinline__ int f8_mantissa_bits(int code) { return code == DT_FLOAT8E4M3FN || code == DT_FLOAT8E4M3FNUZ ? 3 : 2; }
__device__ __forceinline__ int f8_bias(int code) {
    return code == DT_FLOAT8E4M3FN ? 7 : code == DT_FLOAT8E4M3FNUZ ? 8 : code == DT_FLOAT8E5M2 ? 15 : 16;
}
__device__ __forceinline__ unsigned int f8_max_code(int code) { return code == DT_FLOAT8E4M3FN ? 0x7E : code == DT_FLOAT8E5M2 ? 0x7B : 0x7F; }
__device__ __forceinline__ bool f8_unsigned_zero(int code) { return code == DT_FLOAT8E4M3FNUZ || code == DT_FLOAT8E5M2FNUZ; }

// Float8.toFloat: exact; NaN codes give a quiet NaN of the code's sign (FNUZ: positive).
__device__ __forceinline__ float f8_to_float(unsigned char bits, int code) {
    unsigned int c = bits, mag = c & 0x7F, sign = (c & 0x80) << 24;
    if (f8_unsigned_zero(code) && c == 0x80) return bits_f32(0x7FC00000u);
    if (code == DT_FLOAT8E4M3FN && mag == 0x7F) return bits_f32(sign | 0x7FC00000u);
    if (code == DT_FLOAT8E5M2 && mag >= 0x7C) return bits_f32(sign | (mag == 0x7C ? 0x7F800000u : 0x7FC00000u));
    int m = f8_mantissa_bits(code), b = f8_bias(code);
    unsigned int field = mag >> m, mant = mag & ((1u << m) - 1);
    // value = significand * 2^k, k >= -19: the power of two is a normal f32, so the product is exact
    unsigned int sig = field == 0 ? mant : ((1u << m) | mant);
    int k = (field == 0 ? 1 : (int) field) - b - m;
    float v = (float) sig * bits_f32((unsigned int) (127 + k) << 23);
    return sign ? -v : v;
}

// Float8 overflow without saturation: infinity for E5M2, NaN for the others.
__device__ __forceinline__ unsigned char f8_overflow(int code, unsigned int sign) {
    return (unsigned char) (code == DT_FLOAT8E5M2 ? sign | 0x7C : code == DT_FLOAT8E4M3FN ? sign | 0x7F : 0x80);
}

// Float8.fromDouble: one rounding to nearest even from the double's bits; saturate clamps to +-max.
__device__ __forceinline__ unsigned char double_to_f8(double v, int code, bool saturate) {
    unsigned long long x;
    memcpy(&x, &v, 8);
    unsigned int sign = (unsigned int) (x >> 63) << 7;
    unsigned long long abs = x & 0x7FFFFFFFFFFFFFFFULL;
    unsigned int max = f8_max_code(code);
    if (abs > 0x7FF0000000000000ULL) return (unsigned char) (f8_unsigned_zero(code) ? 0x80 : sign | (code == DT_FLOAT8E4M3FN ? 0x7F : 0x7E));
    if (abs == 0x7FF0000000000000ULL) return saturate ? (unsigned char) (sign | max) : f8_overflow(code, sign);
    int exp = (int) (abs >> 52);
    long long c = 0;
    if (exp != 0) {
        int m = f8_mantissa_bits(code), b = f8_bias(code), e = exp - 1023, emin = 1 - b;
        int shift = 52 - m + (emin - e > 0 ? emin - e : 0);
        if (shift < 60) {
            unsigned long long sig = (abs & 0xFFFFFFFFFFFFFULL) | (1ULL << 52);
            unsigned long long q = sig >> shift, rest = sig & ((1ULL << shift) - 1), mid = 1ULL << (shift - 1);
            if (rest > mid || (rest == mid && (q & 1))) q++;
            c = e < emin ? (long long) q : ((long long) (e + b) << m) + (long long) q - (1LL << m);
        }
    }
    if (c > (long long) max) return saturate ? (unsigned char) (sign | max) : f8_overflow(code, sign);
    if (c == 0 && f8_unsigned_zero(code)) return 0;
    return (unsigned char) (sign | (unsigned int) c);
}

// Float8E8M0.toFloat: 2^(c - 127) exactly (c = 0 is the f32 subnormal 2^-127), 255 NaN.
__device__ __forceinline__ float e8m0_to_float(unsigned char c) {
    if (c == 0xFF) return bits_f32(0x7FC00000u);
    return bits_f32(c == 0 ? 0x00400000u : (unsigned int) c << 23);
}

// Float8E8M0.fromFloat: the f32's exponent field, sign ignored; NaN and infinities 255; round_mode
// 0 up (any mantissa bit), 1 down, 2 nearest (guard && (round || sticky || field > 0), as onnx's
// reference); with saturate an increment past 254 is dropped, without it 254 + 1 is 255 (NaN).
__device__ __forceinline__ unsigned char float_to_e8m0(float v, bool saturate, int round_mode) {
    unsigned int b;
    memcpy(&b, &v, 4);
    unsigned int field = (b >> 23) & 0xFF, mant = b & 0x7FFFFF;
    if (field == 0xFF) return 0xFF;
    bool up = round_mode == 1 ? false
            : round_mode == 2 ? (mant & 0x400000) != 0 && ((mant & 0x200000) != 0 || (mant & 0x1FFFFF) != 0 || field > 0)
            : mant != 0;
    if (up && field == 0xFE && saturate) up = false;
    return (unsigned char) (field + (up ? 1 : 0));
}

// DType.isUnsigned: uint8, uint16, uint32, uint64.
__device__ __forceinline__ bool is_unsigned(int code) {
    return code == DT_UINT8 || code == DT_UINT16 || code == DT_UINT32 || code == DT_UINT64;
}

// The actual extent of a bounded axis (Kernels#GATHER, #GATHER_ND; BoundedIndices.actualExtent): the runtime
// extent within [0, bound].
__device__ __forceinline__ long long actual_extent(long long extent, long long bound) {
    return extent < 0 ? 0 : extent < bound ? extent : bound;
}

// The actual elements of a bounded tensor of total elements, per to one step of its bounded axis
// (BoundedIndices.actualElements): min(max(extent, 0), total / per) * per; 0 where per is 0.
__device__ __forceinline__ long long actual_elements(long long extent, long long per, long long total) {
    if (per <= 0) return 0;
    long long e = extent < 0 ? 0 : extent, rows = total / per;
    return (e < rows ? e : rows) * per;
}

// Element i of y (es bytes each) set to zero bytes.
__device__ __forceinline__ void zero_element(void* y, long long i, int es) {
    switch (es) {
        case 1: ((unsigned char*) y)[i] = 0; break;
        case 2: ((unsigned short*) y)[i] = 0; break;
        case 4: ((unsigned int*) y)[i] = 0; break;
        default: ((unsigned long long*) y)[i] = 0; break;
    }
}

// DType.getLong: sign-extended (uint8/16/32, uint4, uint2 and bool zero-extended, bool 0 or 1; uint64 its bits).
__device__ __forceinline__ long long load_int(const void* p, long long i, int code) {
    switch (code) {
        case DT_INT64: return ((const long long*) p)[i];
        case DT_INT32: return ((const int*) p)[i];
        case DT_INT16: return ((const short*) p)[i];
        case DT_INT8: return ((const signed char*) p)[i];
        case DT_UINT8: return ((const unsigned char*) p)[i];
        case DT_UINT16: return ((const unsigned short*) p)[i];
        case DT_UINT32: return ((const unsigned int*) p)[i];
        case DT_UINT64: return (long long) ((const unsigned long long*) p)[i];
        case DT_UINT4: case DT_UINT2: return load_code(p, i, packed_bits(code));
        case DT_INT4: case DT_INT2: {
            int bits = packed_bits(code);
            long long c = load_code(p, i, bits);
            return c >= (1LL << (bits - 1)) ? c - (1LL << bits) : c;
        }
        default: return ((const unsigned char*) p)[i] != 0;   // bool
    }
}

// DType.compareIntegral: two load_int values ordered, uint64 unsigned, every other type signed.
__device__ __forceinline__ int compare_int(long long a, long long b, int code) {
    if (code == DT_UINT64) return (unsigned long long) a > (unsigned long long) b ? 1 : (unsigned long long) a < (unsigned long long) b ? -1 : 0;
    return a > b ? 1 : a < b ? -1 : 0;
}

// DType.putLong: the low bits of v (bool: v != 0).
__device__ __forceinline__ void store_int(void* p, long long i, int code, long long v) {
    switch (code) {
        case DT_INT64: case DT_UINT64: ((long long*) p)[i] = v; break;
        case DT_INT32: case DT_UINT32: ((unsigned int*) p)[i] = (unsigned int) (unsigned long long) v; break;
        case DT_INT16: case DT_UINT16: ((unsigned short*) p)[i] = (unsigned short) (unsigned long long) v; break;
        case DT_INT8: ((signed char*) p)[i] = (signed char) v; break;
        case DT_UINT8: ((unsigned char*) p)[i] = (unsigned char) v; break;
        default: ((unsigned char*) p)[i] = v != 0; break;   // bool
    }
}

// DType.getFloat: f32, f16, bf16, float8, float4e2m1 widened to f32.
__device__ __forceinline__ float load_float(const void* p, long long i, int code) {
    if (is_float8(code)) return f8_to_float(((const unsigned char*) p)[i], code);
    if (code == DT_FLOAT8E8M0) return e8m0_to_float(((const unsigned char*) p)[i]);
    if (code == DT_FLOAT4E2M1) return f4_to_float(load_code(p, i, 4));
    switch (code) {
        case DT_FLOAT16: return half_to_float(((const unsigned short*) p)[i]);
        case DT_BFLOAT16: return bits_f32((unsigned int) ((const unsigned short*) p)[i] << 16);
        default: return ((const float*) p)[i];
    }
}

// DType.putFloat: rounds to nearest even (float8: saturating).
__device__ __forceinline__ void store_float(void* p, long long i, int code, float v) {
    if (is_float8(code)) { ((unsigned char*) p)[i] = double_to_f8(v, code, true); return; }
    if (code == DT_FLOAT8E8M0) { ((unsigned char*) p)[i] = float_to_e8m0(v, true, 0); return; }
    switch (code) {
        case DT_FLOAT16: ((unsigned short*) p)[i] = float_to_half(v); break;
        case DT_BFLOAT16: ((unsigned short*) p)[i] = float_to_bf16(v); break;
        default: ((float*) p)[i] = v; break;
    }
}

// Java's (long) conversion: truncate toward zero, saturate, NaN -> 0 (cvt.rzi.s64 on the GPU).
__device__ __forceinline__ long long to_int64(double x) {
    if (x != x) return 0;
    if (x >= 9223372036854775808.0) return 0x7FFFFFFFFFFFFFFFLL;
    if (x <= -9223372036854775808.0) return (long long) (0x8000000000000000ULL);
    return (long long) x;
}

// DType.cast to uint64: 2^63 and above truncate into [2^63, 2^64), saturating at 2^64 - 1 (cvt.rzi.u64).
__device__ __forceinline__ long long to_integral(double x, int to) {
    if (to == DT_UINT64 && x >= 9223372036854775808.0)
        return x >= 18446744073709551616.0 ? -1LL : (long long) ((unsigned long long) (long long) (x - 9223372036854775808.0) ^ 0x8000000000000000ULL);
    return to_int64(x);
}

// An integer element (load_int's value) as the nearest double; uint64 read unsigned.
__device__ __forceinline__ double int_to_double(long long v, int code) {
    return code == DT_UINT64 ? (double) (unsigned long long) v : (double) v;
}

__device__ __forceinline__ float int_to_float(long long v, int code) {
    return code == DT_UINT64 ? (float) (unsigned long long) v : (float) v;
}

// Moves one element of es bytes (1, 2, 4 or 8), bit for bit.
__device__ __forceinline__ void move_element(const void* src, long long si, void* dst, long long di, int es) {
    switch (es) {
        case 1: ((unsigned char*) dst)[di] = ((const unsigned char*) src)[si]; break;
        case 2: ((unsigned short*) dst)[di] = ((const unsigned short*) src)[si]; break;
        case 4: ((unsigned int*) dst)[di] = ((const unsigned int*) src)[si]; break;
        default: ((unsigned long long*) dst)[di] = ((const unsigned long long*) src)[si]; break;
    }
}

// DType.cast of element i to a packed type: the code's bits (an integer keeps its low bits, a float
// rounds to nearest even first; float4e2m1 by double_to_f4).
__device__ __forceinline__ unsigned int cast_code(const void* x, long long i, int from, int to) {
    bool int_in = is_integral(from) || is_packed_int(from);
    double v = int_in ? int_to_double(load_int(x, i, from), from) : from == DT_DOUBLE ? ((const double*) x)[i] : (double) load_float(x, i, from);
    if (to == DT_FLOAT4E2M1) return double_to_f4(v);
    long long w = int_in ? load_int(x, i, from) : to_int64(rint(v));
    return (unsigned int) ((unsigned long long) w & ((1u << packed_bits(to)) - 1));
}

// ints: n, from, to, saturate, round_mode (DType.cast; saturate for float8 and float8e8m0 results,
// round_mode for float8e8m0 ones; 0 when not passed).
// A packed y is written a whole byte per thread (its elements share bytes).
extern "C" __global__ void cast(const void* x, void* y, Ints ints, Floats) {
    long long n = ints.v[0];
    int from = (int) ints.v[1], to = (int) ints.v[2];
    bool saturate = ints.v[3] != 0;
    int round_mode = (int) ints.v[4];
    if (is_packed(to)) {
        int bits = packed_bits(to), per = 8 / bits;
        FOR_EACH_ITEM(b, (n + per - 1) / per) {
            unsigned int byte = 0;
            for (int k = 0; k < per && b * per + k < n; k++) byte |= cast_code(x, b * per + k, from, to) << (k * bits);
            ((unsigned char*) y)[b] = (unsigned char) byte;
        }
        return;
    }
    bool int_in = is_integral(from) || is_packed_int(from);
    FOR_EACH_ITEM(i, n) {
        if (to == DT_FLOAT8E8M0) {
            float v = int_in ? int_to_float(load_int(x, i, from), from)
                    : from == DT_DOUBLE ? (float) ((const double*) x)[i] : load_float(x, i, from);
            ((unsigned char*) y)[i] = float_to_e8m0(v, saturate, round_mode);
        } else if (is_float8(to)) {
            double v = int_in ? int_to_double(load_int(x, i, from), from)
                    : from == DT_DOUBLE ? ((const double*) x)[i] : (double) load_float(x, i, from);
            ((unsigned char*) y)[i] = double_to_f8(v, to, saturate);
        } else if (int_in) {
            long long v = load_int(x, i, from);
            if (is_integral(to)) store_int(y, i, to, v);
            else if (to == DT_DOUBLE) ((double*) y)[i] = int_to_double(v, from);
            else store_float(y, i, to, int_to_float(v, from));
        } else {
            double v = from == DT_DOUBLE ? ((const double*) x)[i] : (double) load_float(x, i, from);
            if (to == DT_BOOL) store_int(y, i, to, v != 0 || v != v);
            else if (is_integral(to)) store_int(y, i, to, to_integral(v, to));
            else if (to == DT_DOUBLE) ((double*) y)[i] = v;
            else store_float(y, i, to, (float) v);
        }
    }
}
