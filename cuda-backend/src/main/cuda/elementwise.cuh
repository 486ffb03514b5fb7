// unary, binary_broadcast, compare, copy: one thread per output element, so in-place calls are
// safe. Element types as dtypes.cuh: floats computed in double (elementwise_math.cuh), integers in 64 bits.
#pragma once
#include "common.cuh"
#include "dtypes.cuh"
#include "elementwise_math.cuh"

// Loads and stores of any float type as double (f64 exactly; f32/f16/bf16 widened exactly and
// stored rounded through f32, as DType does).
__device__ __forceinline__ double load_double(const void* p, long long i, int code) {
    return code == DT_DOUBLE ? ((const double*) p)[i] : (double) load_float(p, i, code);
}

__device__ __forceinline__ void store_double(void* p, long long i, int code, double v) {
    if (code == DT_DOUBLE) ((double*) p)[i] = v;
    else store_float(p, i, code, (float) v);
}

// Vectorized f32 access: when every pointer a kernel touches is 16-byte aligned, the f32 paths
// below move four elements per float4 load and store (one 128-bit transaction instead of four),
// each element computed by the same formula as the scalar path, and finish the n % 4 tail with
// scalar accesses. A thread owns the four elements it loads and stores, so in-place calls stay safe.
__device__ __forceinline__ bool aligned16(const void* p) { return ((unsigned long long) p & 15) == 0; }

// ints: n, op, dtype, ydtype (0: dtype); floats: alpha, beta. OpLowering checks op against the types.
extern "C" __global__ void unary(const void* x, void* y, Ints ints, Floats floats) {
    long long n = ints.v[0];
    int op = (int) ints.v[1], code = (int) ints.v[2], ycode = ints.v[3] != 0 ? (int) ints.v[3] : code;
    double alpha = floats.v[0], beta = floats.v[1];
    long long from = 0;
    if (code == DT_FLOAT && ycode == DT_FLOAT && aligned16(x) && aligned16(y)) {
        FOR_EACH_ITEM(q, n / 4) {
            float4 v = ((const float4*) x)[q];
            v.x = (float) unary_float(op, v.x, alpha, beta);
            v.y = (float) unary_float(op, v.y, alpha, beta);
            v.z = (float) unary_float(op, v.z, alpha, beta);
            v.w = (float) unary_float(op, v.w, alpha, beta);
            ((float4*) y)[q] = v;
        }
        from = n / 4 * 4;
    }
    FOR_EACH_ITEM(j, n - from) {
        long long i = from + j;
        if (is_integral(code)) store_int(y, i, ycode, unary_int(op, load_int(x, i, code), is_unsigned(code), alpha));
        else if (ycode == DT_BOOL) store_int(y, i, ycode, unary_test(op, load_double(x, i, code), alpha, beta));
        else store_double(y, i, ycode, unary_float(op, load_double(x, i, code), alpha, beta));
    }
}

// True when operand j's strides (of rank, after shape in the ints) are y's row-major strides:
// the operand is y's shape, not broadcast.
__device__ __forceinline__ bool unbroadcast(int rank, const long long* shape, int j) {
    long long stride = 1;
    for (int d = rank - 1; d >= 0; d--) {
        if (shape[d] != 1 && shape[rank + j * rank + d] != stride) return false;
        stride *= shape[d];
    }
    return true;
}

// ints: op, rank, shape[rank] (of y), aStride[rank], bStride[rank], dtype, bDtype (0: dtype); a stride of 0 broadcasts.
extern "C" __global__ void binary_broadcast(const void* a, const void* b, void* y, Ints ints, Floats) {
    int op = (int) ints.v[0], rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[3 * rank], bcode = shape[3 * rank + 1] != 0 ? (int) shape[3 * rank + 1] : code;
    long long n = element_count(shape, rank);
    long long from = 0;
    // f32 operands of y's shape: four elements per float4 (same formula per element).
    if (code == DT_FLOAT && bcode == DT_FLOAT && aligned16(a) && aligned16(b) && aligned16(y)
            && unbroadcast(rank, shape, 0) && unbroadcast(rank, shape, 1)) {
        FOR_EACH_ITEM(q, n / 4) {
            float4 u = ((const float4*) a)[q], v = ((const float4*) b)[q];
            u.x = (float) binary_float(op, u.x, v.x);
            u.y = (float) binary_float(op, u.y, v.y);
            u.z = (float) binary_float(op, u.z, v.z);
            u.w = (float) binary_float(op, u.w, v.w);
            ((float4*) y)[q] = u;
        }
        from = n / 4 * 4;
    }
    FOR_EACH_ITEM(j, n - from) {
        long long i = from + j;
        long long at[2];
        broadcast_indices(i, rank, shape, 2, at);
        if (!is_integral(code)) {
            double e = is_integral(bcode) ? int_to_double(load_int(b, at[1], bcode), bcode) : load_double(b, at[1], bcode);
            store_double(y, i, code, binary_float(op, load_double(a, at[0], code), e));
        } else if (!is_integral(bcode)) {
            store_int(y, i, code, to_int64(pow((double) load_int(a, at[0], code), load_double(b, at[1], bcode))));   // pow only
        } else {
            store_int(y, i, code, binary_int(op, load_int(a, at[0], code), load_int(b, at[1], bcode), is_unsigned(code)));
        }
    }
}

// ints: op, rank, shape[rank] (of y), aStride[rank], bStride[rank], dtype; y is bool.
extern "C" __global__ void compare(const void* a, const void* b, unsigned char* y, Ints ints, Floats) {
    int op = (int) ints.v[0], rank = (int) ints.v[1];
    const long long* shape = ints.v + 2;
    int code = (int) shape[3 * rank];
    long long n = element_count(shape, rank);
    FOR_EACH_ITEM(i, n) {
        long long at[2];
        broadcast_indices(i, rank, shape, 2, at);
        bool r;
        if (is_unsigned(code)) r = compare_values<unsigned long long>(op, load_int(a, at[0], code), load_int(b, at[1], code));
        else if (is_integral(code)) r = compare_values<long long>(op, load_int(a, at[0], code), load_int(b, at[1], code));
        else r = compare_values<double>(op, load_double(a, at[0], code), load_double(b, at[1], code));
        y[i] = r ? 1 : 0;
    }
}

// ElementwiseKernels.quantizeRange: QuantizeLinear's saturation range of an integer y.
__device__ __forceinline__ double quantize_lo(int code) {
    return code == DT_UINT8 || code == DT_UINT16 || code == DT_UINT4 || code == DT_UINT2 ? 0.0 : code == DT_INT16 ? -32768.0
        : code == DT_INT4 ? -8.0 : code == DT_INT2 ? -2.0 : -128.0;
}
__device__ __forceinline__ double quantize_hi(int code) {
    return code == DT_UINT8 ? 255.0 : code == DT_UINT16 ? 65535.0 : code == DT_INT16 ? 32767.0 : code == DT_UINT4 ? 15.0 : code == DT_INT4 ? 7.0
        : code == DT_UINT2 ? 3.0 : code == DT_INT2 ? 1.0 : 127.0;
}

// The scale (and zero point) entry of element i of x [outer, axis, inner]: its axis index, or,
// blocked (block > 0), entry (o, a / block, i) of [outer, ceil(axis / block), inner].
__device__ __forceinline__ long long quantize_entry(long long i, long long axis, long long inner, long long block) {
    long long a = (i / inner) % axis;
    if (block <= 0) return a;
    long long o = i / (inner * axis), blocks = (axis + block - 1) / block;
    return (o * blocks + a / block) * inner + i % inner;
}

// QuantizeLinear of element i: the bits of y's type (float8, float4e2m1, or an integer saturated to its range).
__device__ __forceinline__ unsigned long long quantize_one(const void* x, const void* scale, const void* zp, long long i, long long e,
        int xcode, int ycode, bool has_zp, bool saturate) {
    float s = load_float(scale, e, xcode);
    if (is_float8(ycode) || ycode == DT_FLOAT4E2M1) {
        float v = load_float(x, i, xcode) / s + (has_zp ? load_float(zp, e, ycode) : 0.0f);
        return is_float8(ycode) ? double_to_f8(v, ycode, saturate) : double_to_f4(v);
    }
    long long z = has_zp ? load_int(zp, e, ycode) : 0;
    return (unsigned long long) quantize_value(load_float(x, i, xcode), s, z, quantize_lo(ycode), quantize_hi(ycode));
}

// ints: outer, axis, inner, mode (0 quantize, 1 dequantize), xDtype, yDtype, hasZeroPoint, saturate, block; zp may be null.
// A float8 or float4e2m1 y (mode 0) or x (mode 1): x / s + z, or (x - z) * s, in f32 (saturate for the float8 store).
// block > 0: blocked quantization (quantize_entry). A packed y is written a whole byte per thread.
extern "C" __global__ void quantize(const void* x, const void* scale, const void* zp, void* y, Ints ints, Floats) {
    long long outer = ints.v[0], axis = ints.v[1], inner = ints.v[2], block = ints.v[8];
    int mode = (int) ints.v[3], xcode = (int) ints.v[4], ycode = (int) ints.v[5];
    bool has_zp = ints.v[6] == 1, saturate = ints.v[7] != 0;
    long long n = outer * axis * inner;
    if (mode == 0 && is_packed(ycode)) {
        int bits = packed_bits(ycode), per = 8 / bits;
        FOR_EACH_ITEM(b, (n + per - 1) / per) {
            unsigned int byte = 0;
            for (int k = 0; k < per && b * per + k < n; k++) {
                long long i = b * per + k;
                unsigned long long q = quantize_one(x, scale, zp, i, quantize_entry(i, axis, inner, block), xcode, ycode, has_zp, saturate);
                byte |= (unsigned int) (q & ((1u << bits) - 1)) << (k * bits);
            }
            ((unsigned char*) y)[b] = (unsigned char) byte;
        }
        return;
    }
    FOR_EACH_ITEM(i, n) {
        long long e = quantize_entry(i, axis, inner, block);
        if (mode == 0) {
            unsigned long long q = quantize_one(x, scale, zp, i, e, xcode, ycode, has_zp, saturate);
            if (is_float8(ycode)) ((unsigned char*) y)[i] = (unsigned char) q;
            else store_int(y, i, ycode, (long long) q);
            continue;
        }
        float s = load_float(scale, e, ycode);
        if (is_float8(xcode) || xcode == DT_FLOAT4E2M1) {
            float zf = has_zp ? load_float(zp, e, xcode) : 0.0f;
            store_float(y, i, ycode, (load_float(x, i, xcode) - zf) * s);
        } else {
            long long z = has_zp ? load_int(zp, e, xcode) : 0;
            store_float(y, i, ycode, (float) (load_int(x, i, xcode) - z) * s);
        }
    }
}

// ints: n, es.
extern "C" __global__ void copy(const void* x, void* y, Ints ints, Floats) {
    long long n = ints.v[0];
    int es = (int) ints.v[1];
    long long bytes = n * es, from = 0;
    if (aligned16(x) && aligned16(y)) {   // 16 bytes per uint4, then the tail element by element
        FOR_EACH_ITEM(q, bytes / 16) ((uint4*) y)[q] = ((const uint4*) x)[q];
        from = bytes / 16 * 16 / es;
    }
    FOR_EACH_ITEM(j, n - from) move_element(x, from + j, y, from + j, es);
}
