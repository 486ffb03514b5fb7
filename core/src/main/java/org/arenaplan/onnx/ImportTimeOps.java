package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * ONNX ops whose outputs are known at import whatever the data: computed here into constants
 * (weights: no arena bytes, no kernels, never an op). Shape and Size read only the input's
 * static shape (with {@code --dim} values: one import per value of a sweep); EyeLike only its
 * shape; Range and the window generators (HannWindow, HammingWindow, BlackmanWindow) only
 * constant operands, since their output shape is an operand's value; so does MelWeightMatrix. A Range or window whose
 * operand is computed at run time has a data-dependent shape and is refused with the node named.
 *
 * <p>Version differences: Shape gains start and end at opset 15 (negative from the end,
 * clamped). Range is 11, EyeLike 9, the windows and MelWeightMatrix 17. Shape-23..25 and
 * Size-23..25 add element types only (the output is int64 whatever the input). Range-27 adds
 * float16 and bfloat16 and {@code stash_type} (1 float, the default, or 11 double): the type a
 * float16/bfloat16 range is computed in before it is rounded to its own type (through f32, as {@code DType} converts); any other value is
 * refused, as is the attribute before opset 27.
 */
final class ImportTimeOps {
    static final Set<String> TYPES = Set.of("Shape", "Size", "Range", "EyeLike", "HannWindow", "HammingWindow", "BlackmanWindow", "MelWeightMatrix");

    /** Attributes of these op types (none is a registry kind). */
    static final Map<String, Set<String>> ATTRS = Map.of(
            "Shape", Set.of("start", "end"),
            "Size", Set.of(),
            "Range", Set.of("stash_type"),
            "EyeLike", Set.of("dtype", "k"),
            "HannWindow", Set.of("periodic", "output_datatype"),
            "HammingWindow", Set.of("periodic", "output_datatype"),
            "BlackmanWindow", Set.of("periodic", "output_datatype"),
            "MelWeightMatrix", Set.of("output_datatype"));

    private ImportTimeOps() { }

    /** The node's output and its constant value. */
    static Map<Value, Constant> evaluate(NodeContext n) {
        String out = n.node().outputs().isEmpty() ? "" : n.node().outputs().get(0);
        n.require(!out.isEmpty(), "has no output");
        TensorValue t = switch (n.opType()) {
            case "Shape" -> shape(n);
            case "Size" -> TensorValue.ofLongs(DType.I64, new long[0], n.input(0).elements());
            case "Range" -> range(n);
            case "EyeLike" -> eyeLike(n);
            case "MelWeightMatrix" -> melWeightMatrix(n);
            default -> window(n);
        };
        return Map.of(new Value(out, t.dtype(), t.shape()), Constant.of(Constant.bytes(ByteBuffer.wrap(t.bytes())), t.dtype()));
    }

    /** Shape (opset 15: dims[start:end], negative from the end, clamped to [0, rank]). */
    private static TensorValue shape(NodeContext n) {
        long[] dims = n.input(0).shape();
        int r = dims.length;
        n.require(n.opset() >= 15 || (!n.hasAttr("start") && !n.hasAttr("end")), "attributes 'start' and 'end' need opset 15");
        long start = clamp(n.integer("start", 0), r), end = clamp(n.integer("end", r), r);
        long[] v = start >= end ? new long[0] : Arrays.copyOfRange(dims, (int) start, (int) end);
        return TensorValue.ofLongs(DType.I64, new long[]{v.length}, v);
    }

    static long clamp(long a, int rank) {
        return Math.max(0, Math.min(rank, a < 0 ? a + rank : a));
    }

    /**
     * Range (11): max(ceil((limit - start) / delta), 0) elements start + i * delta, in the inputs'
     * type (float, double, int16, int32, int64; float16 and bfloat16 from 27): integers exactly, f64 in double, f32 in float; f16 and bf16 (opset 27) in float, or in
     * double with {@code stash_type} 11, then rounded to their type (onnx/reference/ops/op_range.py).
     */
    private static TensorValue range(NodeContext n) {
        DType t = n.input(0).dtype();
        for (int i = 1; i < 3; i++) n.require(n.input(i).dtype() == t, "start, limit and delta must have one type");
        n.require(t == DType.F32 || t == DType.F64 || t == DType.I16 || t == DType.I32 || t == DType.I64 || (n.opset() >= 27 && (t == DType.F16 || t == DType.BF16)),
                "start " + n.input(0) + " is " + t.jsonName() + "; Range takes float, double, int16, int32 or int64" + (n.opset() >= 27 ? ", float16 or bfloat16" : " (float16 and bfloat16 from opset 27)"));
        n.require(n.opset() >= 27 || !n.hasAttr("stash_type"), "attribute 'stash_type' needs opset 27");
        long stash = n.integer("stash_type", DType.F32.onnxCode());
        n.require(stash == DType.F32.onnxCode() || stash == DType.F64.onnxCode(), "attribute 'stash_type' = " + stash + " is not 1 (float) or 11 (double)");
        if (t.isIntegral()) return integerRange(n, t);
        boolean inDouble = t == DType.F64 || ((t == DType.F16 || t == DType.BF16) && stash == DType.F64.onnxCode());
        double start = one(n, 0, "start"), limit = one(n, 1, "limit"), delta = one(n, 2, "delta");
        n.require(delta != 0 && Double.isFinite(start) && Double.isFinite(limit) && Double.isFinite(delta), "delta must be non-zero and every operand finite");
        double steps = Math.ceil((limit - start) / delta);
        n.require(steps <= ImportFolding.MAX_ELEMENTS, "Range of " + (long) steps + " elements exceeds the import-time limit of " + ImportFolding.MAX_ELEMENTS);
        int count = (int) Math.max(0, steps);
        double[] v = new double[count];
        for (int i = 0; i < count; i++) v[i] = t.isIntegral() || inDouble ? start + i * delta : (float) ((float) start + (float) i * (float) delta);
        return TensorValue.ofDoubles(t, new long[]{count}, v);
    }

    /**
     * Range over int16, int32 or int64, exactly (numpy's arange, which onnx's reference runs): the
     * count ceil((limit - start) / delta) in unbounded integers, element k {@code start + k * delta}
     * in wrapping long arithmetic, exact because every element lies between start and limit.
     */
    private static TensorValue integerRange(NodeContext n, DType t) {
        long start = exactOne(n, 0, "start"), limit = exactOne(n, 1, "limit"), delta = exactOne(n, 2, "delta");
        n.require(delta != 0, "delta must be non-zero and every operand finite");
        BigInteger d = BigInteger.valueOf(delta);
        BigInteger[] qr = BigInteger.valueOf(limit).subtract(BigInteger.valueOf(start)).divideAndRemainder(d);
        BigInteger steps = qr[1].signum() != 0 && qr[1].signum() == d.signum() ? qr[0].add(BigInteger.ONE) : qr[0];   // ceil
        n.require(steps.compareTo(BigInteger.valueOf(ImportFolding.MAX_ELEMENTS)) <= 0,
                "Range of " + steps + " elements exceeds the import-time limit of " + ImportFolding.MAX_ELEMENTS);
        int count = steps.signum() <= 0 ? 0 : steps.intValue();   // intValue() of a count below -2^31 would keep its low bits only
        long[] v = new long[count];
        for (int k = 0; k < count; k++) v[k] = start + k * delta;
        return TensorValue.ofLongs(t, new long[]{count}, v);
    }

    private static long exactOne(NodeContext n, int i, String what) {
        TensorValue v = n.constantTensor(i);
        if (v == null) return (long) one(n, i, what);   // not known: one() says so
        n.require(v.elements() == 1, what + " must be a scalar");
        return v.longs()[0];
    }

    private static double one(NodeContext n, int i, String what) {
        double[] v = n.constantReals(i, what + " (a Range's length depends on its value)");
        n.require(v.length == 1, what + " must be a scalar");
        return v[0];
    }

    /** EyeLike (9): a 2-D tensor of the input's shape, 1 on diagonal k, type 'dtype' (default the input's). */
    private static TensorValue eyeLike(NodeContext n) {
        Value x = n.input(0);
        n.require(x.rank() == 2, "input " + x + " must be 2-D");
        DType t = n.elementType("dtype", x.dtype());
        n.require(x.elements() <= ImportFolding.MAX_ELEMENTS, "output " + x + " exceeds the import-time limit of " + ImportFolding.MAX_ELEMENTS + " elements");
        long k = n.integer("k", 0);
        double[] v = new double[(int) x.elements()];
        for (long i = 0; i < x.dim(0); i++) {
            long j = i + k;
            if (j >= 0 && j < x.dim(1)) v[(int) (i * x.dim(1) + j)] = 1;
        }
        return TensorValue.ofDoubles(t, x.shape(), v);
    }

    /**
     * MelWeightMatrix (17), after the ONNX reference: [dft_length / 2 + 1, num_mel_bins] triangular
     * filters between num_mel_bins + 2 points evenly spaced on the mel scale (2595 log10(1 + f / 700))
     * from lower_edge_hertz to upper_edge_hertz, mapped to DFT bins as floor((dft_length + 1) f / sample_rate).
     */
    private static TensorValue melWeightMatrix(NodeContext n) {
        long bins = (long) one(n, 0, "num_mel_bins"), dft = (long) one(n, 1, "dft_length"), rate = (long) one(n, 2, "sample_rate");
        double lower = one(n, 3, "lower_edge_hertz"), upper = one(n, 4, "upper_edge_hertz");
        n.require(bins >= 1 && dft >= 1 && rate >= 1, "num_mel_bins, dft_length and sample_rate must be positive");
        long rows = dft / 2 + 1;
        n.require(rows * bins <= ImportFolding.MAX_ELEMENTS, "a [" + rows + ", " + bins + "] matrix exceeds the import-time limit of " + ImportFolding.MAX_ELEMENTS + " elements");
        DType t = n.elementType("output_datatype", DType.F32);
        float lowMel = (float) (2595 * Math.log10(1 + (float) lower / 700f)), highMel = (float) (2595 * Math.log10(1 + (float) upper / 700f));
        double step = (highMel - lowMel) / (double) (bins + 2);
        long[] edge = new long[(int) bins + 2];
        for (int i = 0; i < edge.length; i++) {
            double hz = 700 * (Math.pow(10, (i * step + lowMel) / 2595) - 1);
            edge[i] = (long) Math.floor((dft + 1) * hz / rate);
        }
        double[] v = new double[(int) (rows * bins)];
        for (int i = 0; i < bins; i++) {
            long lo = edge[i], mid = edge[i + 1], hi = edge[i + 2];
            n.require(lo >= 0 && hi < rows + 1 && mid < rows, "the mel filters reach past the " + rows + " DFT bins");
            if (mid == lo) v[(int) (mid * bins + i)] = 1;
            else for (long j = lo; j <= mid; j++) v[(int) (j * bins + i)] = (double) (j - lo) / (mid - lo);
            for (long j = mid; j < hi && j < rows; j++) v[(int) (j * bins + i)] = (double) (hi - j) / (hi - mid);
        }
        return TensorValue.ofDoubles(t, new long[]{rows, bins}, v);
    }

    /** HannWindow, HammingWindow, BlackmanWindow (17), after the ONNX reference: cosine sums over n / N, N = size (periodic) or size - 1. */
    private static TensorValue window(NodeContext n) {
        double size = one(n, 0, "size");
        n.require(size >= 0 && size <= ImportFolding.MAX_ELEMENTS, "size " + size + " must be 0.." + ImportFolding.MAX_ELEMENTS);
        DType t = n.elementType("output_datatype", DType.F32);
        int len = (int) size;
        double big = n.flag("periodic", true) ? len : len - 1;
        double[] v = new double[len];
        for (int i = 0; i < len; i++) {
            float x = (float) (2 * Math.PI * (float) i / big);
            v[i] = switch (n.opType()) {
                case "HannWindow" -> 0.5 - 0.5 * Math.cos(x);
                case "HammingWindow" -> 25.0 / 46 - (1 - 25.0 / 46) * Math.cos(x);
                default -> 0.42 - 0.5 * Math.cos(x) + 0.08 * Math.cos(2 * x);
            };
        }
        return TensorValue.ofDoubles(t, new long[]{len}, v);
    }
}
