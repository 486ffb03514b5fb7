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

__device__ __forceinline__ bool is_integral(int code) {
    return code != DT_FLOAT && code != DT_FLOAT16 && code != DT_BFLOAT16 && code != DT_DOUBLE;
}

// DType.isUnsigned: uint8, uint16, uint32, uint64.
__device__ __forceinline__ bool is_unsigned(int code) {
    return code == DT_UINT8 || code == DT_UINT16 || code == DT_UINT32 || code == DT_UINT64;
}

// DType.getLong: sign-extended (uint8/16/32 and bool zero-extended, bool 0 or 1; uint64 its bits).
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

// DType.getFloat: f32, f16, bf16 widened to f32.
__device__ __forceinline__ float load_float(const void* p, long long i, int code) {
    switch (code) {
        case DT_FLOAT16: return half_to_float(((const unsigned short*) p)[i]);
        case DT_BFLOAT16: return bits_f32((unsigned int) ((const unsigned short*) p)[i] << 16);
        default: return ((const float*) p)[i];
    }
}

// DType.putFloat: rounds to nearest even.
__device__ __forceinline__ void store_float(void* p, long long i, int code, float v) {
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

// ints: n, from, to (DType.cast).
extern "C" __global__ void cast(const void* x, void* y, Ints ints, Floats) {
    long long n = ints.v[0];
    int from = (int) ints.v[1], to = (int) ints.v[2];
    FOR_EACH_ITEM(i, n) {
        if (is_integral(from)) {
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
