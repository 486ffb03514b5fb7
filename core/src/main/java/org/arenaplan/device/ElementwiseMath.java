package org.arenaplan.device;

import org.arenaplan.ir.DType;

/**
 * The one definition of what each op code of {@link Kernels#UNARY}, {@link Kernels#BINARY} and
 * {@link Kernels#COMPARE} computes, and on which element types: the executors refuse other
 * types before a device sees them ({@link #unaryTakes}, {@link #binaryTakes},
 * {@link #compareTakes}), the simulator evaluates these methods, and the CUDA kernels
 * (elementwise_math.cuh) implement the same formulas line for line. Formulas follow the ONNX
 * operator of the same name (https://onnx.ai/onnx/operators/, and its reference implementation
 * onnx/reference/ops/op_*.py).
 *
 * <p>Floats (f64, f32, f16, bf16) are computed in double and rounded once to the output type
 * (so f32 results may differ from a float32 computation in the last bit where a transcendental
 * is involved); integers in 64 bits, the result stored in the output's width (wrapping). asinh,
 * acosh and atanh are written out with log and sqrt (Java has no such functions; below 2^-26 asinh and atanh
 * return x, keeping -0 and subnormals; acosh below 1 is NaN), pow is C's (1^NaN = (-1)^inf = 1, where Java's
 * Math.pow gives NaN), erf is
 * Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), as the simulator's Gelu always was.
 */
public final class ElementwiseMath {
    private ElementwiseMath() { }

    /** The element types a kind of operand belongs to. */
    private static boolean isFloat(DType t) { return t.isFloatingPoint(); }

    private static boolean isInteger(DType t) { return t.isIntegral() && t != DType.BOOL; }

    private static boolean isSigned(DType t) { return t == DType.I64 || t == DType.I32 || t == DType.I16 || t == DType.I8; }

    /** Whether unary op {@code op} takes input type {@code t} (the output has type t, or bool for is_nan / is_inf). */
    public static boolean unaryTakes(int op, DType t) {
        switch (op) {
            case Kernels.IDENTITY: return true;
            case Kernels.NEG: return isFloat(t) || isSigned(t);
            case Kernels.RELU: case Kernels.ABS: case Kernels.SIGN: return isFloat(t) || isInteger(t);
            case Kernels.NOT: return t == DType.BOOL;
            case Kernels.BITWISE_NOT: return isInteger(t);
            case Kernels.BINARIZER: return isFloat(t) || isSigned(t);
            default: return op >= 0 && op <= Kernels.SWISH && isFloat(t);
        }
    }

    /** Whether unary op {@code op} writes bool (is_nan, is_inf) rather than its input's type. */
    public static boolean unaryYieldsBool(int op) {
        return op == Kernels.IS_NAN || op == Kernels.IS_INF;
    }

    /** Whether binary op {@code op} takes a of type {@code a} (and y of that type) with b of type {@code b}. */
    public static boolean binaryTakes(int op, DType a, DType b) {
        if (op == Kernels.POW) return (isFloat(a) || a == DType.I32 || a == DType.I64) && (isFloat(b) || isInteger(b));
        if (a != b) return false;
        switch (op) {
            case Kernels.ADD: case Kernels.SUB: case Kernels.MUL: case Kernels.DIV: case Kernels.MAXIMUM: case Kernels.MINIMUM:
            case Kernels.FMOD: case Kernels.PRELU:
                return isFloat(a) || isInteger(a);
            case Kernels.RELU_GRAD: return isFloat(a);
            case Kernels.MOD: case Kernels.BITWISE_AND: case Kernels.BITWISE_OR: case Kernels.BITWISE_XOR: return isInteger(a);
            case Kernels.AND: case Kernels.OR: case Kernels.XOR: return a == DType.BOOL;
            case Kernels.SHIFT_LEFT: case Kernels.SHIFT_RIGHT: return a.isUnsigned();
            default: return false;
        }
    }

    /** Whether compare op {@code op} takes operands of type {@code t}: equal any type, the orderings numbers only. */
    public static boolean compareTakes(int op, DType t) {
        if (op == Kernels.EQUAL) return true;
        return op >= Kernels.LESS && op <= Kernels.GREATER_OR_EQUAL && t != DType.BOOL;
    }

    // ---- unary ----

    /**
     * Unary op {@code op} (a {@link Kernels} op code) on a float value; alpha and beta are the
     * call's floats (op's attributes).
     *
     * @throws IllegalArgumentException for an op code not defined on floats
     */
    public static double unary(int op, double v, double alpha, double beta) {
        switch (op) {
            case Kernels.RELU: return v < 0 ? 0.0 : v;                                    // a NaN and -0 stay (ONNX Runtime 1.30: Relu(-0) = -0)
            case Kernels.SIGMOID: return 1.0 / (1.0 + Math.exp(-v));
            case Kernels.TANH: return Math.tanh(v);
            case Kernels.GELU: return 0.5 * v * (1.0 + erf(v / Math.sqrt(2.0)));
            case Kernels.IDENTITY: return v;
            case Kernels.ABS: return Math.abs(v);
            case Kernels.NEG: return -v;
            case Kernels.EXP: return Math.exp(v);
            case Kernels.LOG: return Math.log(v);
            case Kernels.SQRT: return Math.sqrt(v);
            case Kernels.RECIPROCAL: return 1.0 / v;
            case Kernels.FLOOR: return Math.floor(v);
            case Kernels.CEIL: return Math.ceil(v);
            case Kernels.ROUND: return Math.rint(v);                                     // half to even
            case Kernels.SIGN: return v > 0 ? 1.0 : v < 0 ? -1.0 : v != v ? v : 0.0;      // -0 gives 0 (ONNX: "if input == 0, output 0"); NaN stays
            case Kernels.ERF: return erf(v);
            case Kernels.SIN: return Math.sin(v);
            case Kernels.COS: return Math.cos(v);
            case Kernels.TAN: return Math.tan(v);
            case Kernels.ASIN: return Math.asin(v);
            case Kernels.ACOS: return Math.acos(v);
            case Kernels.ATAN: return Math.atan(v);
            case Kernels.SINH: return Math.sinh(v);
            case Kernels.COSH: return Math.cosh(v);
            case Kernels.ASINH: { if (Math.abs(v) < 0x1p-26) return v; double r = Math.log(Math.abs(v) + Math.sqrt(v * v + 1.0)); return v < 0 ? -r : r; }
            case Kernels.ACOSH: return v < 1.0 ? Double.NaN : Math.log(v + Math.sqrt(v * v - 1.0));
            case Kernels.ATANH: return Math.abs(v) < 0x1p-26 ? v : 0.5 * Math.log((1.0 + v) / (1.0 - v));
            case Kernels.SOFTPLUS: return softplus(v);
            case Kernels.SOFTSIGN: return v / (1.0 + Math.abs(v));
            case Kernels.HARD_SIGMOID: return Math.max(0.0, Math.min(1.0, alpha * v + beta));
            case Kernels.HARD_SWISH: return v * Math.max(0.0, Math.min(1.0, v / 6.0 + 0.5));
            case Kernels.LEAKY_RELU: return v < 0 ? alpha * v : v;
            case Kernels.ELU: return v < 0 ? alpha * (Math.exp(v) - 1.0) : v;
            case Kernels.SELU: return v <= 0 ? beta * (alpha * Math.exp(v) - alpha) : beta * v;   // alpha, gamma
            case Kernels.CELU: return Math.max(0.0, v) + Math.min(0.0, alpha * (Math.exp(v / alpha) - 1.0));
            case Kernels.THRESHOLDED_RELU: return v > alpha ? v : 0.0;
            case Kernels.MISH: return v * Math.tanh(softplus(v));
            case Kernels.GELU_TANH: return 0.5 * v * (1.0 + Math.tanh(Math.sqrt(2.0 / Math.PI) * (v + 0.044715 * v * v * v)));
            case Kernels.SHRINK: return v < -beta ? v + alpha : v > beta ? v - alpha : 0.0;    // bias, lambd
            case Kernels.CLIP: { double r = v < alpha ? alpha : v; return r > beta ? beta : r; } // min, max; NaN stays
            case Kernels.DIV_BY: return v / alpha;
            case Kernels.SWISH: return v * (1.0 / (1.0 + Math.exp(-alpha * v)));       // x * sigmoid(alpha * x)
            case Kernels.BINARIZER: return v > alpha ? 1.0 : 0.0;                        // ai.onnx.ml Binarizer (threshold); NaN gives 0
            default: throw new IllegalArgumentException("unary op " + op + " is not defined on floats");
        }
    }

    /**
     * is_nan, is_inf (alpha: detect_negative, beta: detect_positive; ONNX IsInf-10) on a float value.
     *
     * @throws IllegalArgumentException for an op code other than {@link Kernels#IS_NAN} and {@link Kernels#IS_INF}
     */
    public static boolean unaryTest(int op, double v, double alpha, double beta) {
        if (op == Kernels.IS_NAN) return v != v;
        if (op == Kernels.IS_INF) return (v == Double.POSITIVE_INFINITY && beta != 0) || (v == Double.NEGATIVE_INFINITY && alpha != 0);
        throw new IllegalArgumentException("unary op " + op + " does not yield bool");
    }

    /**
     * Unary op {@code op} on an integer (or bool, 0 or 1) value in 64 bits; {@code unsigned}: of an unsigned type (uint64's bits may look negative);
     * {@code alpha}: the call's first float (binarizer's threshold, which a signed value is compared with as a double, as
     * onnx/reference/ops/aionnxml/op_binarizer.py's numpy comparison does).
     *
     * @throws IllegalArgumentException for an op code not defined on integers
     */
    public static long unary(int op, long v, boolean unsigned, double alpha) {
        switch (op) {
            case Kernels.RELU: return unsigned ? v : Math.max(v, 0);
            case Kernels.IDENTITY: return v;
            case Kernels.ABS: return unsigned || v >= 0 ? v : -v;
            case Kernels.NEG: return -v;
            case Kernels.SIGN: return unsigned ? (v != 0 ? 1 : 0) : Long.signum(v);
            case Kernels.NOT: return v == 0 ? 1 : 0;
            case Kernels.BITWISE_NOT: return ~v;
            case Kernels.BINARIZER: return (double) v > alpha ? 1 : 0;
            default: throw new IllegalArgumentException("unary op " + op + " is not defined on integers");
        }
    }

    // ---- binary ----

    /**
     * Binary op {@code op} on float values (pow: b is the exponent, of any type, widened to double).
     *
     * @throws IllegalArgumentException for an op code not defined on floats
     */
    public static double binary(int op, double a, double b) {
        switch (op) {
            case Kernels.ADD: return a + b;
            case Kernels.SUB: return a - b;
            case Kernels.MUL: return a * b;
            case Kernels.DIV: return a / b;
            case Kernels.RELU_GRAD: return b > 0 ? a : 0.0;
            case Kernels.POW: return a == 1.0 || (a == -1.0 && Double.isInfinite(b)) ? 1.0 : Math.pow(a, b);   // C's pow (CUDA, ONNX Runtime): 1^NaN = (-1)^inf = 1
            case Kernels.FMOD: return a % b;                                             // C fmod: the sign of a
            case Kernels.MAXIMUM: return a != a || b != b ? a + b : a > b ? a : b;         // a NaN propagates (numpy.maximum)
            case Kernels.MINIMUM: return a != a || b != b ? a + b : a < b ? a : b;
            case Kernels.PRELU: return a < 0 ? a * b : a;
            default: throw new IllegalArgumentException("binary op " + op + " is not defined on floats");
        }
    }

    /**
     * Binary op {@code op} on integer (or bool) values in 64 bits. div truncates toward zero;
     * mod takes the divisor's sign (Python's %, ONNX Mod fmod=0), fmod the dividend's (C's %);
     * a shift by a negative amount or by 64 or more gives 0; shift right is logical (the
     * operands are unsigned). {@code unsigned}: the operands are of an unsigned type, so uint64's
     * bits are compared, divided and ordered as unsigned values.
     *
     * @throws ArithmeticException for a zero divisor (div, mod, fmod; pow of 0 to a negative power)
     * @throws IllegalArgumentException for an op code not defined on integers
     */
    public static long binary(int op, long a, long b, boolean unsigned) {
        switch (op) {
            case Kernels.ADD: return a + b;
            case Kernels.SUB: return a - b;
            case Kernels.MUL: return a * b;
            case Kernels.DIV:
                if (b == 0) throw new ArithmeticException("integer division by zero");
                return unsigned ? Long.divideUnsigned(a, b) : b == -1 ? -a : a / b;
            case Kernels.MOD: {
                if (b == 0) throw new ArithmeticException("integer modulo by zero");
                if (unsigned) return Long.remainderUnsigned(a, b);
                long r = b == -1 ? 0 : a % b;
                return r != 0 && (r ^ b) < 0 ? r + b : r;
            }
            case Kernels.FMOD:
                if (b == 0) throw new ArithmeticException("integer modulo by zero");
                return unsigned ? Long.remainderUnsigned(a, b) : b == -1 ? 0 : a % b;
            case Kernels.POW: return powInt(a, b);
            case Kernels.MAXIMUM: return order(a, b, unsigned) >= 0 ? a : b;
            case Kernels.MINIMUM: return order(a, b, unsigned) <= 0 ? a : b;
            case Kernels.PRELU: return !unsigned && a < 0 ? a * b : a;
            case Kernels.AND: case Kernels.BITWISE_AND: return a & b;
            case Kernels.OR: case Kernels.BITWISE_OR: return a | b;
            case Kernels.XOR: case Kernels.BITWISE_XOR: return a ^ b;
            case Kernels.SHIFT_LEFT: return b < 0 || b >= 64 ? 0 : a << b;
            case Kernels.SHIFT_RIGHT: return b < 0 || b >= 64 ? 0 : a >>> b;
            default: throw new IllegalArgumentException("binary op " + op + " is not defined on integers");
        }
    }

    /** Integer pow: by squaring (wrapping) for b &ge; 0; for b &lt; 0 the truncated real result (0 unless a is 1 or -1). */
    static long powInt(long a, long b) {
        if (b < 0) {
            if (a == 0) throw new ArithmeticException("0 to a negative integer power");
            return a == 1 ? 1 : a == -1 ? ((b & 1) == 0 ? 1 : -1) : 0;
        }
        long r = 1, base = a;
        for (long e = b; e != 0; e >>>= 1) {
            if ((e & 1) != 0) r *= base;
            base *= base;
        }
        return r;
    }

    /** pow of an integer base to a float exponent: the real result truncated toward zero, as a float-to-integer cast ({@link DType#cast}). */
    public static long powIntFloat(long a, double b) {
        return (long) Math.pow((double) a, b);
    }

    // ---- compare ----

    /**
     * Compare op {@code op} on float values: a NaN compares false (unequal to everything).
     *
     * @throws IllegalArgumentException for an op code that is no compare op (only when no NaN is given)
     */
    public static boolean compare(int op, double a, double b) {
        return a == a && b == b && holds(op, a < b ? -1 : a > b ? 1 : 0);
    }

    /**
     * Compare op {@code op} on integer values in 64 bits; {@code unsigned}: ordered as unsigned (uint64).
     *
     * @throws IllegalArgumentException for an op code that is no compare op
     */
    public static boolean compare(int op, long a, long b, boolean unsigned) {
        return holds(op, order(a, b, unsigned));
    }

    private static int order(long a, long b, boolean unsigned) {
        return unsigned ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }

    /** Whether compare op {@code op} holds for operands whose order is {@code sign} (-1 less, 0 equal, 1 greater). */
    private static boolean holds(int op, int sign) {
        switch (op) {
            case Kernels.EQUAL: return sign == 0;
            case Kernels.LESS: return sign < 0;
            case Kernels.GREATER: return sign > 0;
            case Kernels.LESS_OR_EQUAL: return sign <= 0;
            case Kernels.GREATER_OR_EQUAL: return sign >= 0;
            default: throw new IllegalArgumentException("unknown compare op " + op);
        }
    }

    // ---- quantization ({@link Kernels#QUANTIZE}) ----

    /**
     * The element types {@link Kernels#QUANTIZE} quantizes (mode 0): f32, f16 or bf16 x to int8,
     * uint8, int16, uint16 (ONNX QuantizeLinear-21), a float8 type or a packed type. The one rule
     * the lowering, the simulator and the CUDA kernel's callers read.
     */
    public static boolean quantizeTakes(DType x, DType y) {
        return x.isFloat32Compute() && (y == DType.U8 || y == DType.I8 || y == DType.U16 || y == DType.I16 || y.isFloat8() || y.isPacked());
    }

    /**
     * The element types {@link Kernels#QUANTIZE} dequantizes (mode 1): int8, uint8, int16, uint16,
     * int32 or a packed integer x to f32; a float8 or float4e2m1 x to f32, f16 or bf16.
     */
    public static boolean dequantizeTakes(DType x, DType y) {
        boolean integer = x == DType.U8 || x == DType.I8 || x == DType.U16 || x == DType.I16 || x == DType.I32 || x.isPackedInteger();
        return (integer && y == DType.F32) || ((x.isFloat8() || x == DType.F4E2M1) && y.isFloat32Compute());
    }

    /** ONNX QuantizeLinear to an integer type of range [lo, hi] (uint8, int8, uint4, int4, uint2, int2): rint(x / scale) in f32 + zero point, saturated (NaN to lo). */
    public static long quantize(float x, float scale, long zeroPoint, long lo, long hi) {
        float q = (float) Math.rint(x / scale);
        double v = (double) q + zeroPoint;                              // NaN saturates to the low end below
        return (long) (v >= hi ? hi : v >= lo ? v : lo);
    }

    /** ONNX DequantizeLinear: (x - zeroPoint) * scale in f32. */
    public static float dequantize(long x, float scale, long zeroPoint) {
        return (float) (x - zeroPoint) * scale;
    }

    // ---- helpers ----

    /** log(1 + exp(v)) without overflow for large v. */
    static double softplus(double v) {
        return v > 0 ? v + Math.log1p(Math.exp(-v)) : Math.log1p(Math.exp(v));
    }

    /** erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
    public static double erf(double x) {
        double t = 1.0 / (1.0 + 0.3275911 * Math.abs(x));
        double p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        double r = 1.0 - p * Math.exp(-x * x);
        return x >= 0 ? r : -r;
    }
}
