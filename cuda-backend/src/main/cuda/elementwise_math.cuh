// The op codes of unary, binary_broadcast and compare, formula for formula as
// org.arenaplan.device.ElementwiseMath defines them (the simulator evaluates that class;
// KernelEmulationTest compares both). Floats in double, rounded once by the caller; integers in
// 64 bits, wrapping (through unsigned arithmetic, so no signed overflow).
#pragma once
#include "common.cuh"

// erf by Abramowitz and Stegun 7.1.26, exactly as ElementwiseMath.erf.
__device__ __forceinline__ double erf_as(double x) {
    double t = 1.0 / (1.0 + 0.3275911 * fabs(x));
    double p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    double r = 1.0 - p * exp(-x * x);
    return x >= 0 ? r : -r;
}

__device__ __forceinline__ double softplus_as(double v) {
    return v > 0 ? v + log1p(exp(-v)) : log1p(exp(v));
}

__device__ __forceinline__ double dmax(double a, double b) { return a > b ? a : b; }
__device__ __forceinline__ double dmin(double a, double b) { return a < b ? a : b; }

// ElementwiseMath.unary(int, double, double, double); codes as org.arenaplan.device.Kernels.
__device__ __forceinline__ double unary_float(int op, double v, double alpha, double beta) {
    switch (op) {
        case 0: return v < 0 ? 0.0 : v;                                            // relu (a NaN and -0 stay)
        case 1: return 1.0 / (1.0 + exp(-v));                                      // sigmoid
        case 2: return tanh(v);
        case 3: return 0.5 * v * (1.0 + erf_as(v / sqrt(2.0)));                    // gelu
        case 4: return v;                                                          // identity
        case 5: return fabs(v);
        case 6: return -v;
        case 7: return exp(v);
        case 8: return log(v);
        case 9: return sqrt(v);
        case 10: return 1.0 / v;                                                   // reciprocal
        case 11: return floor(v);
        case 12: return ceil(v);
        case 13: return rint(v);                                                   // round half to even
        case 14: return v > 0 ? 1.0 : v < 0 ? -1.0 : v != v ? v : 0.0;             // sign (-0 gives 0, NaN stays)
        case 15: return erf_as(v);
        case 16: return sin(v);
        case 17: return cos(v);
        case 18: return tan(v);
        case 19: return asin(v);
        case 20: return acos(v);
        case 21: return atan(v);
        case 22: return sinh(v);
        case 23: return cosh(v);
        case 24: { if (fabs(v) < 0x1p-26) return v; double r = log(fabs(v) + sqrt(v * v + 1.0)); return v < 0 ? -r : r; }   // asinh (x itself below 2^-26: -0, subnormals)
        case 25: return v < 1.0 ? NAN : log(v + sqrt(v * v - 1.0));                // acosh (NaN below 1, -3e38 too)
        case 26: return fabs(v) < 0x1p-26 ? v : 0.5 * log((1.0 + v) / (1.0 - v));  // atanh (x itself below 2^-26)
        case 27: return softplus_as(v);
        case 28: return v / (1.0 + fabs(v));                                       // softsign
        case 29: return dmax(0.0, dmin(1.0, alpha * v + beta));                    // hard_sigmoid
        case 30: return v * dmax(0.0, dmin(1.0, v / 6.0 + 0.5));                   // hard_swish
        case 31: return v < 0 ? alpha * v : v;                                     // leaky_relu
        case 32: return v < 0 ? alpha * (exp(v) - 1.0) : v;                        // elu
        case 33: return v <= 0 ? beta * (alpha * exp(v) - alpha) : beta * v;       // selu (alpha, gamma)
        case 34: return dmax(0.0, v) + dmin(0.0, alpha * (exp(v / alpha) - 1.0));  // celu
        case 35: return v > alpha ? v : 0.0;                                       // thresholded_relu
        case 36: return v * tanh(softplus_as(v));                                  // mish
        case 37: return 0.5 * v * (1.0 + tanh(sqrt(2.0 / 3.141592653589793) * (v + 0.044715 * v * v * v)));  // gelu tanh
        case 38: return v < -beta ? v + alpha : v > beta ? v - alpha : 0.0;        // shrink (bias, lambd)
        case 39: { double r = v < alpha ? alpha : v; return r > beta ? beta : r; }  // clip (min, max)
        case 44: return v / alpha;                                                 // div_by
        case 46: return v > alpha ? 1.0 : 0.0;                                     // binarizer (threshold; NaN gives 0)
        default: return v * (1.0 / (1.0 + exp(-alpha * v)));                       // 45 swish: x * sigmoid(alpha * x)
    }
}

// is_nan (42), is_inf (43: alpha detect_negative, beta detect_positive).
__device__ __forceinline__ bool unary_test(int op, double v, double alpha, double beta) {
    if (op == 42) return v != v;
    return (v > 1.7976931348623157e308 && beta != 0) || (v < -1.7976931348623157e308 && alpha != 0);
}

// ElementwiseMath.unary(int, long, boolean, double): uns for the unsigned types (uint64's bits may look negative);
// alpha the first float (binarizer's threshold, a signed value compared as a double).
__device__ __forceinline__ long long unary_int(int op, long long v, bool uns, double alpha) {
    unsigned long long u = (unsigned long long) v;
    switch (op) {
        case 0: return uns || v > 0 ? v : 0;                                       // relu
        case 5: return uns || v >= 0 ? v : (long long) (0ULL - u);                 // abs
        case 6: return (long long) (0ULL - u);                                     // neg
        case 14: return uns ? (v != 0 ? 1 : 0) : v > 0 ? 1 : v < 0 ? -1 : 0;       // sign
        case 40: return v == 0 ? 1 : 0;                                            // not
        case 41: return (long long) ~u;                                            // bitwise_not
        case 46: return (double) v > alpha ? 1 : 0;                                // binarizer
        default: return v;                                                         // identity
    }
}

// ElementwiseMath.binary(int, double, double).
__device__ __forceinline__ double binary_float(int op, double a, double b) {
    switch (op) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * b;
        case 3: return a / b;
        case 4: return b > 0 ? a : 0.0;                                            // relu_grad(dY = a, X = b)
        case 5: return pow(a, b);
        case 7: return fmod(a, b);
        case 8: return a != a || b != b ? a + b : a > b ? a : b;                  // maximum (a NaN propagates)
        case 9: return a != a || b != b ? a + b : a < b ? a : b;                  // minimum
        default: return a < 0 ? a * b : a;                                         // 10 prelu
    }
}

// Integer pow: by squaring for b >= 0 (wrapping); else the truncated real result; 0 to a negative power traps.
__device__ __forceinline__ long long pow_int(long long a, long long b) {
    if (b < 0) {
        if (a == 0) __trap();
        return a == 1 ? 1 : a == -1 ? ((b & 1) == 0 ? 1 : -1) : 0;
    }
    unsigned long long r = 1, base = (unsigned long long) a;
    for (unsigned long long e = (unsigned long long) b; e != 0; e >>= 1) {
        if (e & 1) r *= base;
        base *= base;
    }
    return (long long) r;
}

// ElementwiseMath.binary(int, long, long, boolean): a zero divisor traps; INT64_MIN / -1 wraps;
// uns: the operands are unsigned (uint64 divided and ordered as unsigned).
__device__ __forceinline__ long long binary_int(int op, long long a, long long b, bool uns) {
    unsigned long long ua = (unsigned long long) a, ub = (unsigned long long) b;
    bool a_first = uns ? ua >= ub : a >= b, a_last = uns ? ua <= ub : a <= b;
    switch (op) {
        case 0: return (long long) (ua + ub);
        case 1: return (long long) (ua - ub);
        case 2: return (long long) (ua * ub);
        case 3:
            if (b == 0) __trap();
            if (uns) return (long long) (ua / ub);
            if (b == -1) return (long long) (0ULL - ua);
            return a / b;
        case 6: {                                                                  // mod: the divisor's sign
            if (b == 0) __trap();
            if (uns) return (long long) (ua % ub);
            long long r = b == -1 ? 0 : a % b;
            return r != 0 && ((r ^ b) < 0) ? r + b : r;
        }
        case 7:                                                                    // fmod: the dividend's sign
            if (b == 0) __trap();
            if (uns) return (long long) (ua % ub);
            return b == -1 ? 0 : a % b;
        case 5: return pow_int(a, b);
        case 8: return a_first ? a : b;                                            // maximum
        case 9: return a_last ? a : b;                                             // minimum
        case 10: return !uns && a < 0 ? (long long) (ua * ub) : a;                 // prelu
        case 11: case 14: return a & b;
        case 12: case 15: return a | b;
        case 13: case 16: return a ^ b;
        case 17: return b < 0 || b >= 64 ? 0 : (long long) (ua << b);              // shift left
        default: return b < 0 || b >= 64 ? 0 : (long long) (ua >> b);              // 18 shift right (logical)
    }
}

// ElementwiseMath.quantize: rint(x / scale) in f32 (half to even) + zero point, saturated (NaN to the low end).
// To the range [lo, hi] of uint8, int8, uint4, int4, uint2 or int2 (ElementwiseMath.quantize with a range).
__device__ __forceinline__ long long quantize_value(float x, float scale, long long zp, double lo, double hi) {
    float q = rintf(x / scale);
    double v = (double) q + (double) zp;
    return (long long) (v >= hi ? hi : v >= lo ? v : lo);
}

__device__ __forceinline__ long long quantize_value(float x, float scale, long long zp, bool u8) {
    return quantize_value(x, scale, zp, u8 ? 0.0 : -128.0, u8 ? 255.0 : 127.0);
}

// ElementwiseMath.compare: 0 equal, 1 less, 2 greater, 3 less or equal, 4 greater or equal.
template <typename T>
__device__ __forceinline__ bool compare_values(int op, T a, T b) {
    switch (op) {
        case 0: return a == b;
        case 1: return a < b;
        case 2: return a > b;
        case 3: return a <= b;
        default: return a >= b;
    }
}
