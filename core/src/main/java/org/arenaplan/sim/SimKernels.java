package org.arenaplan.sim;

import org.arenaplan.device.BoundedIndices;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.IndexOutOfRangeException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Float8E8M0;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * The simulator's kernels, one Java method per name of {@link Kernels}, with the argument layout
 * documented there. Deterministic: every reduction runs in the documented order, so the same
 * inputs give the same bits whatever the addresses. Transcendentals are computed in double and
 * rounded to f32 (CUDA's may differ in the last bits). Element types and their conversions are
 * {@link DType}'s.
 *
 * <p>A kernel reads copies of its pointer arguments' bytes when it runs, and stores each output
 * argument whole when done (every kernel writes all of its output argument, except
 * {@link Kernels#CONCAT_SLICE}, which copies row by row into the simulated memory).
 */
final class SimKernels {
    private SimKernels() { }

    /** A pointer argument decoded to f32 values (an index into them: always 0 here). */
    record F(float[] a, int i) { }

    /** Checks the call's shape now (at issue) and returns the computation to run later. */
    static Runnable bind(KernelCall c) {
        int ptrs = c.pointers().size();
        switch (c.name()) {
            case Kernels.UNARY: return ElementwiseKernels.unary(c);
            case Kernels.BINARY: return ElementwiseKernels.binary(c);
            case Kernels.GEMM: {
                need(c, c.intArg(8) == 1 ? 4 : 3, 12);
                DType t = computeType(c, DType.F32, DType.F16, DType.F64);
                return t == DType.F64 ? WideKernels.onDoubles(c, d -> WideKernels.gemm(c, d)) : onFloats(c, t, f -> gemm(c, f));
            }
            case Kernels.BATCHNORM: need(c, 6, 3); return onFloats(c, DType.F32, f -> batchnorm(c, f));
            case Kernels.CONV2D: need(c, c.intArg(16) == 1 ? 4 : 3, 17); return onFloats(c, computeType(c, DType.F32, DType.F16), f -> conv2d(c, f));
            case Kernels.CONV_ND: ImageKernels.check(c); return onFloats(c, computeType(c, DType.F32, DType.F16), f -> ImageKernels.convNd(c, f));
            case Kernels.POOL: {
                ImageKernels.check(c);
                DType t = computeType(c, DType.F32, DType.F16, DType.U8, DType.I8);
                if (!t.isFloat32Compute() && c.intArg(2) != Kernels.MAX) throw new DeviceException("'" + c.label() + "': pool computes " + t.jsonName() + " for max only");
                return t.isFloat32Compute() ? onFloats(c, t, f -> ImageKernels.pool(c, f[0], f[1])) : WideKernels.onBytes(c, t, f -> ImageKernels.pool(c, f[0], f[1]));
            }
            case Kernels.RESIZE: ImageKernels.check(c); return onFloats(c, computeType(c, DType.F32, DType.F16), f -> ImageKernels.resize(c, f[0], f[1]));
            case Kernels.POOL_INDICES: {
                ImageKernels.check(c);
                DType t = computeType(c, DType.F32, DType.F16, DType.U8, DType.I8);
                count(c, 0, t);
                count(c, 1, DType.I64);
                return () -> {
                    float[] x = WideKernels.decode(t, in(c, 0), count(c, 0, t));
                    ByteBuffer y = out(c, 1);
                    ImageKernels.poolIndices(c, x, y.asLongBuffer());
                    store(c, 1, y);
                };
            }
            case Kernels.GRID_SAMPLE: ImageKernels.check(c); return onFloats(c, DType.F32, f -> ImageKernels.gridSample(c, f[0], f[1], f[2]));
            case Kernels.COL2IM: ImageKernels.check(c); return onFloats(c, DType.F32, f -> ImageKernels.col2im(c, f[0], f[1]));
            case Kernels.AFFINE_GRID: ImageKernels.check(c); return onFloats(c, DType.F32, f -> ImageKernels.affineGrid(c, f[0], f[1]));
            case Kernels.LRN: need(c, 2, 4); return onFloats(c, DType.F32, f -> lrn(c, f[0], f[1]));
            case Kernels.TRANSPOSE: need(c, 2, 2 + 2 * (int) c.intArg(0)); elementBytes(c, 1 + 2 * (int) c.intArg(0)); return () -> transpose(c);
            case Kernels.COPY: need(c, 2, 2); elementBytes(c, 1); return () -> copy(c);
            case Kernels.CONCAT_SLICE: need(c, 2, 5); elementBytes(c, 4); return () -> concatSlice(c);
            case Kernels.CAST: need(c, 2, 3); dtype(c, 1); dtype(c, 2); return () -> cast(c);
            case Kernels.GATHER: {
                need(c, c.pointers().size() >= 4 ? c.pointers().size() : 3, c.pointers().size() >= 4 ? 7 : 6);   // data's extent with per, then the indices' extent
                elementBytes(c, 4);
                DType idx = dtype(c, 5);
                if (idx != DType.I64 && idx != DType.I32) throw new DeviceException("'" + c.label() + "': gather indices must be int64 or int32, not " + idx.jsonName());
                return () -> gather(c);
            }
            case Kernels.WHERE: {
                int rank = (int) c.intArg(0);
                need(c, 4, 2 + 4 * rank);
                elementBytes(c, 1 + 4 * rank);
                return () -> where(c);
            }
            case Kernels.COMPARE: return ElementwiseKernels.compare(c);
            case Kernels.QUANTIZE: return ElementwiseKernels.quantize(c);
            case Kernels.RECURRENT: return RecurrentKernels.bind(c);
            case Kernels.GELU_GRAD: need(c, 3, 1); return onFloats(c, DType.F32, f -> TrainingKernels.geluGrad(c, f));
            case Kernels.SOFTMAX_GRAD: need(c, 3, 2); return onFloats(c, DType.F32, f -> TrainingKernels.softmaxGrad(c, f));
            case Kernels.LAYERNORM_GRAD: need(c, 4, 2); return onFloats(c, DType.F32, f -> TrainingKernels.layerNormGrad(c, f));
            case Kernels.CONV2D_BACKWARD_DATA: need(c, 3, 16); return onFloats(c, DType.F32, f -> TrainingKernels.convBackwardData(c, f));
            case Kernels.CONV2D_BACKWARD_FILTER: need(c, 3, 16); return onFloats(c, DType.F32, f -> TrainingKernels.convBackwardFilter(c, f));
            case Kernels.OPTIMIZER: return TrainingKernels.optimizer(c);
            default: {
                Runnable r = ReductionKernels.bind(c);
                if (r == null) r = NormalizationKernels.bind(c);
                if (r == null) r = SignalKernels.bind(c);
                if (r == null) r = TreeKernels.bind(c);
                if (r == null) r = TransformerKernels.bind(c);
                if (r == null) r = StateSpaceKernels.bind(c);
                if (r == null) r = DetectionKernels.bind(c);
                if (r == null) r = DataDependentKernels.bind(c);
                if (r == null) r = BoundedKernels.bind(c);
                if (r == null) r = LinearAttentionKernels.bind(c);
                if (r == null) r = FlexAttentionKernels.bind(c);
                if (r == null) r = QuantizedKernels.bind(c);
                if (r == null && IndexKernels.handles(c.name())) r = IndexKernels.bind(c);
                if (r != null) return r;
                throw new DeviceException("'" + c.label() + "': unknown kernel '" + c.name() + "'; known: " + Kernels.ALL);
            }
        }
    }

    static void need(KernelCall c, int pointers, int ints) {
        if (c.pointers().size() != pointers || c.ints().length < ints)
            throw new DeviceException("'" + c.label() + "': kernel " + c.name() + " takes " + pointers + " pointers and " + ints
                    + " ints, got " + c.pointers().size() + " and " + c.ints().length);
    }

    /** The element type whose ONNX code is int {@code k}. */
    static DType dtype(KernelCall c, int k) {
        DType t = DType.ofOnnx((int) c.intArg(k));
        if (t == null) throw new DeviceException("'" + c.label() + "': kernel " + c.name() + ": unknown element type code " + c.intArg(k));
        return t;
    }

    /** The element type {@code c} computes ({@link Kernels#typeCode}: f32 when it carries none), one of {@code takes}. */
    static DType computeType(KernelCall c, DType... takes) {
        long code = Kernels.typeCode(c.name(), c.ints());
        DType t = DType.ofOnnx((int) code);
        if (t == null || !java.util.List.of(takes).contains(t))
            throw new DeviceException("'" + c.label() + "': kernel " + c.name() + " does not compute " + (t == null ? "element type code " + code : t.jsonName()));
        return t;
    }

    /** Int {@code k}, an element size: 1, 2, 4 or 8 bytes. */
    static int elementBytes(KernelCall c, int k) {
        long es = c.intArg(k);
        if (es != 1 && es != 2 && es != 4 && es != 8) throw new DeviceException("'" + c.label() + "': kernel " + c.name() + ": element size " + es + " B is not 1, 2, 4 or 8");
        return (int) es;
    }

    /**
     * {@code v} rounded to f32, then (f16, bf16) to {@code t}: how numpy computes those types (in
     * f32, rounded) and how DType converts an f64 to them.
     */
    static float rounded(DType t, double v) {
        float f = (float) v;
        if (t == DType.F16) return DType.halfToFloat(DType.floatToHalf(f));
        if (t == DType.BF16) return Float.intBitsToFloat(DType.floatToBfloat16(f) << 16);
        return f;
    }

    static int i(KernelCall c, int k) {
        return Math.toIntExact(c.intArg(k));
    }

    // ---- argument bytes ----

    /** A copy of argument {@code k}'s bytes. @throws DeviceOutOfMemoryException past one host array ({@link #hostArray}) */
    static ByteBuffer in(KernelCall c, int k) {
        KernelArg a = c.pointer(k);
        return SimDevice.block(a.pointer()).read(a.pointer().offset(), hostArray(c, a));
    }

    /** A zeroed buffer the size of argument {@code k}, to be {@link #store}d. @throws DeviceOutOfMemoryException past one host array ({@link #hostArray}) */
    static ByteBuffer out(KernelCall c, int k) {
        return org.arenaplan.ir.TensorValue.allocate(hostArray(c, c.pointer(k)));
    }

    /**
     * The bytes of {@code a}, which the simulator's kernels hold in one Java array: more than 2 GiB
     * is memory this device does not have (as a CUDA allocation past the device's memory), so the
     * run ends with exit 3 naming the op and the argument, not an internal error.
     */
    private static int hostArray(KernelCall c, KernelArg a) {
        if (a.bytes() > Integer.MAX_VALUE - 8)
            throw new org.arenaplan.device.DeviceOutOfMemoryException(String.format("'%s': kernel %s: argument %s of %,d B is more than the simulator's kernels hold in one host array (2 GiB)",
                    c.label(), c.name(), a.tensor(), a.bytes()));
        return (int) a.bytes();
    }

    static void store(KernelCall c, int k, ByteBuffer b) {
        KernelArg a = c.pointer(k);
        SimDevice.block(a.pointer()).write(a.pointer().offset(), b.array(), 0, b.capacity());
    }

    /** Argument {@code k}'s bytes read as f32 values (little-endian). */
    static float[] inFloats(KernelCall c, int k) {
        java.nio.FloatBuffer b = in(c, k).asFloatBuffer();
        float[] v = new float[b.remaining()];
        b.get(v);
        return v;
    }

    /** Writes the f32 values {@code v} over argument {@code k} from its start. */
    static void storeFloats(KernelCall c, int k, float[] v) {
        ByteBuffer b = out(c, k);
        b.asFloatBuffer().put(v);
        store(c, k, b);
    }

    static int count(KernelCall c, int k, DType t) {
        long bytes = c.pointer(k).bytes();
        if (bytes % t.bytes() != 0) throw new DeviceException("'" + c.label() + "': argument " + c.pointer(k).tensor() + " (" + bytes + " B) is not a whole number of " + t.jsonName() + " elements");
        return Math.toIntExact(bytes / t.bytes());
    }

    /** Every argument decoded from {@code t} to f32, the body, then every written argument encoded back to {@code t}. */
    static Runnable onFloats(KernelCall c, DType t, Consumer<F[]> body) {
        for (int k = 0; k < c.pointers().size(); k++) count(c, k, t);
        return () -> {
            F[] f = new F[c.pointers().size()];
            for (int k = 0; k < f.length; k++) {
                float[] v = new float[count(c, k, t)];
                f[k] = new F(v, 0);
                if (c.pointer(k).access() == KernelArg.Access.WRITE) continue;   // every kernel writes all of its output
                ByteBuffer b = in(c, k);
                if (t == DType.F32) b.asFloatBuffer().get(v);
                else for (int e = 0; e < v.length; e++) v[e] = t.getFloat(b, e);
            }
            body.accept(f);
            for (int k = 0; k < f.length; k++) {
                if (c.pointer(k).access() != KernelArg.Access.WRITE) continue;
                ByteBuffer b = out(c, k);
                float[] v = f[k].a;
                if (t == DType.F32) b.asFloatBuffer().put(v);
                else for (int e = 0; e < v.length; e++) t.putFloat(b, e, v[e]);
                store(c, k, b);
            }
        };
    }

    /** Moves one element of {@code es} bytes. */
    static void move(ByteBuffer src, int si, ByteBuffer dst, int di, int es) {
        switch (es) {
            case 1 -> dst.put(di, src.get(si));
            case 2 -> dst.putShort(di * 2, src.getShort(si * 2));
            case 4 -> dst.putInt(di * 4, src.getInt(si * 4));
            default -> dst.putLong(di * 8, src.getLong(si * 8));
        }
    }

    // ---- broadcasting ----

    /** Visits one innermost row of a broadcast: output index of its first element, each operand's index of it. */
    interface Row {
        void visit(int out, int[] at, int inner, int[] innerStride);
    }

    /**
     * Numpy broadcasting over {@code shape} (the output's, contiguous) with each operand's strides
     * (0 where it is broadcast): calls {@code row} once per innermost row, in output order.
     */
    static void forEachRow(int[] shape, int[][] strides, Row row) {
        int rank = shape.length, ops = strides.length;
        long n = 1;
        for (int d : shape) n *= d;
        if (n == 0) return;
        if (rank == 0) {
            row.visit(0, new int[ops], 1, new int[ops]);
            return;
        }
        int inner = shape[rank - 1];
        int[] innerStride = new int[ops];
        for (int k = 0; k < ops; k++) innerStride[k] = strides[k][rank - 1];
        int[] idx = new int[rank];
        int[] at = new int[ops];
        for (long done = 0, out = 0; done < n; done += inner, out += inner) {
            for (int k = 0; k < ops; k++) {
                int p = 0;
                for (int d = 0; d < rank - 1; d++) p += idx[d] * strides[k][d];
                at[k] = p;
            }
            row.visit((int) out, at, inner, innerStride);
            for (int d = rank - 2; d >= 0; d--) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
    }

    /** ints from {@code from}: shape[rank], then {@code operands} stride arrays of rank values. */
    static int[][] shapeAndStrides(KernelCall c, int from, int rank, int operands, int[] shape) {
        int[][] strides = new int[operands][rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = i(c, from + d);
            for (int k = 0; k < operands; k++) strides[k][d] = i(c, from + (k + 1) * rank + d);
        }
        return strides;
    }

    // ---- elementwise (unary, binary, compare: ElementwiseKernels) ----

    /** Where: out = cond ? x : y, broadcast; elements moved bit for bit. */
    static void where(KernelCall c) {
        int rank = i(c, 0);
        int[] shape = new int[rank];
        int[][] s = shapeAndStrides(c, 1, rank, 3, shape);
        int es = elementBytes(c, 1 + 4 * rank);
        ByteBuffer cond = in(c, 0), x = in(c, 1), y = in(c, 2), o = out(c, 3);
        forEachRow(shape, s, (out, at, inner, st) -> {
            for (int k = 0; k < inner; k++) {
                boolean pick = cond.get(at[0] + k * st[0]) != 0;
                if (pick) move(x, at[1] + k * st[1], o, out + k, es);
                else move(y, at[2] + k * st[2], o, out + k, es);
            }
        });
        store(c, 3, o);
    }

    static void cast(KernelCall c) {
        int n = i(c, 0);
        DType from = dtype(c, 1), to = dtype(c, 2);
        boolean saturate = c.ints().length > 3 && c.intArg(3) != 0;   // absent reads as 0, as the CUDA kernel's zero-padded ints do
        Float8E8M0.RoundMode mode = Float8E8M0.RoundMode.ofCode(c.ints().length > 4 ? c.intArg(4) : 0);
        ByteBuffer x = in(c, 0), y = out(c, 1);
        for (int k = 0; k < n; k++) from.cast(x, k, to, y, k, saturate, mode);
        store(c, 1, y);
    }

    /**
     * Gather: y[o, j, k] = data[o, idx[j], k], a negative index counting from the end of the axis; with data's
     * runtime extent against its actual extent, and with the indices' too, their padding (the tail's zeros) as zeros.
     */
    static void gather(KernelCall c) {
        int outer = i(c, 0), axis = i(c, 1), inner = i(c, 2), n = i(c, 3), es = elementBytes(c, 4);
        DType it = dtype(c, 5);
        int yArg = c.pointers().size() - 1;
        ByteBuffer data = in(c, 0), idx = in(c, 1), y = out(c, yArg);
        long range = yArg >= 3 ? BoundedIndices.actualExtent(in(c, 2).getLong(0), axis) : axis;   // data bounded along the axis: its actual extent
        long real = BoundedIndices.real(c, yArg == 4 ? in(c, 3).getLong(0) : 0);
        for (int j = 0; j < real; j++) {   // the rest stay zero (out is zeroed)
            long v = it.getLong(idx, j);
            long at = v < 0 ? v + range : v;
            if (at < 0 || at >= range)
                throw new IndexOutOfRangeException("'" + c.label() + "': gather index " + v + " (element " + j + ") is out of range for an axis of " + range);
            for (int o = 0; o < outer; o++) {
                for (int k = 0; k < inner; k++) move(data, (int) ((o * (long) axis + at) * inner + k), y, (o * n + j) * inner + k, es);
            }
        }
        store(c, yArg, y);
    }

    // ---- data movement ----

    static void transpose(KernelCall c) {
        int rank = i(c, 0);
        int es = elementBytes(c, 1 + 2 * rank);
        int[] shape = new int[rank], stride = new int[rank];
        long total = 1;
        for (int d = 0; d < rank; d++) {
            shape[d] = i(c, 1 + d);
            stride[d] = i(c, 1 + rank + d);
            total *= shape[d];
        }
        ByteBuffer x = in(c, 0), y = out(c, 1);
        int[] idx = new int[rank];
        for (long o = 0; o < total; o++) {
            int src = 0;
            for (int d = 0; d < rank; d++) src += idx[d] * stride[d];
            move(x, src, y, (int) o, es);
            for (int d = rank - 1; d >= 0; d--) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
        store(c, 1, y);
    }

    static void copy(KernelCall c) {
        KernelArg x = c.pointer(0), y = c.pointer(1);
        long bytes = c.intArg(0) * elementBytes(c, 1);
        SimDevice.block(x.pointer()).copyTo(x.pointer().offset(), SimDevice.block(y.pointer()), y.pointer().offset(), bytes);
    }

    static void concatSlice(KernelCall c) {
        long outer = c.intArg(0), xi = c.intArg(1), yi = c.intArg(2), off = c.intArg(3), es = elementBytes(c, 4);
        KernelArg x = c.pointer(0), y = c.pointer(1);
        SimBlock xb = SimDevice.block(x.pointer()), yb = SimDevice.block(y.pointer());
        for (long o = 0; o < outer; o++)
            xb.copyTo(x.pointer().offset() + o * xi * es, yb, y.pointer().offset() + (o * yi + off) * es, xi * es);
    }

    // ---- f32 compute ----

    /**
     * Batched GEMM, y = act(alpha * op(A) op(B) + beta * C). Rows of y (one per batch and row of
     * op(A)) are independent and are computed in parallel ({@link #forEachRow}); each element
     * sums its k products in ascending k, blocked ({@link Kernels#SUM_BLOCK}), whatever the
     * thread, so the bits do not depend on the number of threads.
     */
    static void gemm(KernelCall c, F[] f) {
        int batch = i(c, 0), m = i(c, 1), n = i(c, 2), kk = i(c, 3);
        boolean ta = c.intArg(4) == 1, tb = c.intArg(5) == 1;
        int bsa = i(c, 6), bsb = i(c, 7);
        boolean hasC = c.intArg(8) == 1;
        int cb = i(c, 9), cr = i(c, 10), cc = i(c, 11);
        float alpha = (float) c.floatArg(0), beta = (float) c.floatArg(1);
        int act = epilogue(c, 12);
        F a = f[0], b = f[1], y = f[f.length - 1];
        F cm = hasC ? f[2] : null;
        int block = Kernels.SUM_BLOCK;
        forEachRow(batch * m, (long) n * kk, row -> {
            int bt = row / m, r = row % m;
            int a0 = a.i + bt * bsa, b0 = b.i + bt * bsb, y0 = y.i + bt * m * n;
            float[] acc = new float[n];
            if (tb && !ta) {                           // B stored [n, k]: one dot product per element, both rows contiguous
                int ar = a0 + r * kk;
                for (int j = 0; j < n; j++) {
                    float s = 0f;
                    int br = b0 + j * kk;
                    for (int k0 = 0; k0 < kk; k0 += block) {
                        float part = 0f;
                        for (int k = k0, end = Math.min(kk, k0 + block); k < end; k++) part += a.a[ar + k] * b.a[br + k];
                        s += part;
                    }
                    acc[j] = s;
                }
            } else {
                float[] part = new float[n];
                for (int k = 0; k < kk; k++) {
                    float av = ta ? a.a[a0 + k * m + r] : a.a[a0 + r * kk + k];
                    if (tb) {
                        for (int j = 0; j < n; j++) part[j] += av * b.a[b0 + j * kk + k];
                    } else {
                        int brow = b0 + k * n;
                        for (int j = 0; j < n; j++) part[j] += av * b.a[brow + j];
                    }
                    if ((k + 1) % block == 0 || k + 1 == kk) foldBlock(acc, part);
                }
            }
            for (int j = 0; j < n; j++) {
                float v = alpha * acc[j];
                if (hasC) v += beta * cm.a[cm.i + bt * cb + r * cr + j * cc];
                y.a[y0 + r * n + j] = Kernels.activation(act, v);
            }
        });
    }

    /** One block of a blocked sum ({@link Kernels#SUM_BLOCK}) done: {@code acc[e] += part[e]}, then {@code part[e] = 0}. */
    static void foldBlock(float[] acc, float[] part) {
        for (int e = 0; e < acc.length; e++) {
            acc[e] += part[e];
            part[e] = 0f;
        }
    }

    /** Below this many multiply-adds a kernel runs on the calling thread alone. */
    private static final long PARALLEL_WORK = 1L << 16;

    /**
     * Runs {@code body} for rows 0..rows-1, in parallel on the common fork-join pool when the
     * kernel is big enough ({@code rows * workPerRow} at least {@link #PARALLEL_WORK}), else in
     * order on this thread. Each row must write only its own outputs, so the result is the same
     * bits either way.
     */
    static void forEachRow(int rows, long workPerRow, java.util.function.IntConsumer body) {
        if (rows > 1 && rows * workPerRow >= PARALLEL_WORK) java.util.stream.IntStream.range(0, rows).parallel().forEach(body);
        else for (int r = 0; r < rows; r++) body.accept(r);
    }

    /** The fused epilogue activation of a call, int {@code k} ({@link Kernels#ACTIVATION_NONE} when the call stops before it). */
    private static int epilogue(KernelCall c, int k) {
        long code = c.ints().length > k ? c.intArg(k) : Kernels.ACTIVATION_NONE;
        if (code != Kernels.ACTIVATION_NONE && code != Kernels.ACTIVATION_RELU)
            throw new DeviceException("'" + c.label() + "': kernel " + c.name() + " has no epilogue activation " + code);
        return (int) code;
    }

    static void batchnorm(KernelCall c, F[] f) {
        F x = f[0], s = f[1], b = f[2], mean = f[3], var = f[4], y = f[5];
        int n = i(c, 0), ch = i(c, 1), sp = i(c, 2);
        double eps = c.floatArg(0);
        for (int q = 0; q < ch; q++) {
            double inv = 1.0 / Math.sqrt(var.a[var.i + q] + eps);
            double mu = mean.a[mean.i + q], sc = s.a[s.i + q], bi = b.a[b.i + q];
            for (int img = 0; img < n; img++) {
                int o = (img * ch + q) * sp;
                for (int k = 0; k < sp; k++) y.a[y.i + o + k] = (float) ((x.a[x.i + o + k] - mu) * inv * sc + bi);
            }
        }
    }

    /**
     * Direct 2-D convolution with groups, strides, dilations, pads, optional bias and a fused
     * ReLU epilogue. Output planes (one per image and output channel) are independent and are
     * computed in parallel ({@link #forEachRow}); each element sums over input channels, then
     * kernel rows, then kernel columns, in that order, blocked ({@link Kernels#SUM_BLOCK}),
     * whatever the thread.
     */
    static void conv2d(KernelCall c, F[] f) {
        int n = i(c, 0), ch = i(c, 1), h = i(c, 2), w = i(c, 3), m = i(c, 4), oh = i(c, 5), ow = i(c, 6);
        int kh = i(c, 7), kw = i(c, 8), sh = i(c, 9), sw = i(c, 10), pt = i(c, 11), pl = i(c, 12);
        int dh = i(c, 13), dw = i(c, 14), group = i(c, 15);
        boolean hasBias = c.intArg(16) == 1;
        int act = epilogue(c, 17);
        F x = f[0], wt = f[1], y = f[hasBias ? 3 : 2];
        F bias = hasBias ? f[2] : null;
        int cg = ch / group, mg = m / group, taps = cg * kh * kw, block = Kernels.SUM_BLOCK;
        float[] xa = x.a, wa = wt.a;
        forEachRow(n * m, (long) cg * kh * kw * oh * ow, plane -> {
            int img = plane / m, mo = plane % m, g = mo / mg;
            float[] acc = new float[oh * ow], part = new float[oh * ow];
            int k = 0;                                 // (ci, a, bb) row-major: the term's index in the sum
            for (int ci = 0; ci < cg; ci++) {
                int xPlane = x.i + ((img * ch) + g * cg + ci) * h * w;
                int wBase = wt.i + ((mo * cg) + ci) * kh * kw;
                for (int a = 0; a < kh; a++) {
                    for (int bb = 0; bb < kw; bb++, k++) {
                        float wv = wa[wBase + a * kw + bb];
                        int colOff = bb * dw - pl;
                        int lo = Math.max(0, ceilDiv(-colOff, sw));
                        int hi = Math.min(ow, floorDiv(w - 1 - colOff, sw) + 1);
                        for (int r = 0; r < oh; r++) {
                            int ih = r * sh - pt + a * dh;
                            if (ih < 0 || ih >= h) continue;
                            int xr = xPlane + ih * w + colOff;
                            int ar = r * ow;
                            if (sw == 1) {
                                for (int q = lo; q < hi; q++) part[ar + q] += wv * xa[xr + q];
                            } else {
                                for (int q = lo; q < hi; q++) part[ar + q] += wv * xa[xr + q * sw];
                            }
                        }
                        if ((k + 1) % block == 0 || k + 1 == taps) foldBlock(acc, part);
                    }
                }
            }
            int yo = y.i + (img * m + mo) * oh * ow;
            float bv = hasBias ? bias.a[bias.i + mo] : 0f;
            for (int e = 0; e < acc.length; e++) y.a[yo + e] = Kernels.activation(act, hasBias ? acc[e] + bv : acc[e]);
        });
    }

    private static int ceilDiv(int a, int b) {
        return -Math.floorDiv(-a, b);
    }

    private static int floorDiv(int a, int b) {
        return Math.floorDiv(a, b);
    }


    static void lrn(KernelCall c, F x, F y) {
        int n = i(c, 0), ch = i(c, 1), sp = i(c, 2), size = i(c, 3);
        double alpha = c.floatArg(0), beta = c.floatArg(1), bias = c.floatArg(2);
        int before = (size - 1) / 2, after = size - 1 - before;
        for (int img = 0; img < n; img++) {
            for (int q = 0; q < ch; q++) {
                int lo = Math.max(0, q - before), hi = Math.min(ch - 1, q + after);
                for (int k = 0; k < sp; k++) {
                    double sq = 0;
                    for (int d = lo; d <= hi; d++) {
                        double v = x.a[x.i + (img * ch + d) * sp + k];
                        sq += v * v;
                    }
                    int at = (img * ch + q) * sp + k;
                    y.a[y.i + at] = (float) (x.a[x.i + at] / Math.pow(bias + alpha / size * sq, beta));
                }
            }
        }
    }

}
