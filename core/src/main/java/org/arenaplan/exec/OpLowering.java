package org.arenaplan.exec;

import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.Tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The one mapping from an {@link Op} (kinds of {@link OpKinds}) and its tensors' shapes to kernel
 * calls ({@link Kernels}). Every executor and device uses it, so they all run the same kernels.
 * Storage-only ops (views, in-place concatenation) lower to nothing: they are addresses.
 * Concat inputs that are member slices are skipped (their producer wrote them in place).
 * Element types: each kind's in {@link OpKinds}; a tensor without a dtype is f32. Checks them
 * here, so a device never sees a type its kernel does not take.
 * Does not: compute in f64, support 3-D convolution or pooling, or slices declared as copies.
 */
public final class OpLowering {
    private final Graph graph;
    private final Function<String, DevicePointer> address;
    private final Function<String, String> display;
    private final DataLineage lineage;

    /**
     * @param address where each tensor lives on the device
     * @param display how messages name a tensor (e.g. with its storage)
     */
    public OpLowering(Graph graph, Function<String, DevicePointer> address, Function<String, String> display) {
        this.graph = graph;
        this.address = address;
        this.display = display;
        this.lineage = new DataLineage(graph);
    }

    /**
     * The kernel calls of {@code op}, in the order they must run on its stream; each is one of
     * the kernels its {@link OpRegistry} entry names.
     */
    public List<KernelCall> lower(Op op) {
        List<KernelCall> calls = lowerKind(op);
        OpSpec spec = OpRegistry.get(op.kind());
        if (spec == null && !calls.isEmpty())
            throw new IllegalStateException("op kind '" + op.kind() + "' has a lowering but no entry in org.arenaplan.ir.OpRegistry; add one");
        for (KernelCall c : calls) {
            if (!spec.kernels().contains(c.name()))
                throw new IllegalStateException(op.kind() + " lowered to kernel '" + c.name() + "', which its registry entry does not name: " + spec.kernels());
        }
        return calls;
    }

    private List<KernelCall> lowerKind(Op op) {
        if (op.isStorageOnly()) return List.of();
        if (op.kind().equals(OpKinds.SPLIT)) return split(op);
        List<KernelCall> family = ReductionLowering.lower(this, op);
        if (family != null) return family;
        if (op.outputs().size() != 1) throw fail(op, "executors support ops with one output, this one has " + op.outputs().size());
        switch (op.kind()) {
            case OpKinds.RELU: return List.of(unary(op, Kernels.RELU, true));
            case OpKinds.SIGMOID: return List.of(unary(op, Kernels.SIGMOID, false));
            case OpKinds.TANH: return List.of(unary(op, Kernels.TANH, false));
            case OpKinds.GELU: return List.of(unary(op, Kernels.GELU, false));
            case OpKinds.COPY: return List.of(copy(op, op.inputs().get(0)));
            case OpKinds.ADD: return List.of(binary(op, Kernels.ADD, op.inputs().get(0), op.inputs().get(1)));
            case OpKinds.SUB: return List.of(binary(op, Kernels.SUB, op.inputs().get(0), op.inputs().get(1)));
            case OpKinds.MUL: return List.of(binary(op, Kernels.MUL, op.inputs().get(0), op.inputs().get(1)));
            case OpKinds.DIV: return List.of(binary(op, Kernels.DIV, op.inputs().get(0), op.inputs().get(1)));
            case OpKinds.SUM: return sum(op);
            case OpKinds.CONCAT: return concat(op);
            case OpKinds.TRANSPOSE: return List.of(transpose(op));
            case OpKinds.CAST: return List.of(cast(op));
            case OpKinds.WHERE: return List.of(where(op));
            case OpKinds.EQUAL: return List.of(equal(op));
            case OpKinds.GATHER: return List.of(gather(op));
            default: break;
        }
        if (OpRegistry.viewKinds().contains(op.kind())) {
            if (bytes(op.inputs().get(0)) != bytes(out(op)))
                throw fail(op, op.kind() + " that is not declared a view changes the size; declare it a view");
            return List.of(copy(op, op.inputs().get(0)));
        }
        for (String t : op.inputs()) requireF32(op, t);
        requireF32(op, op.outputs().get(0));
        switch (op.kind()) {
            case OpKinds.RELU_GRAD: return List.of(binary(op, Kernels.RELU_GRAD, op.inputs().get(0), op.inputs().get(1)));
            case OpKinds.MATMUL: return matmul(op);
            case OpKinds.GEMM: return List.of(gemm(op));
            case OpKinds.BATCH_NORM: return List.of(batchNorm(op));
            case OpKinds.CONV: return List.of(conv(op));
            case OpKinds.MAX_POOL: return List.of(pool(op, Kernels.MAX, false));
            case OpKinds.AVERAGE_POOL: return List.of(pool(op, Kernels.AVERAGE, false));
            case OpKinds.GLOBAL_AVERAGE_POOL: return List.of(pool(op, Kernels.AVERAGE, true));
            case OpKinds.LRN: return List.of(lrn(op));
            case OpKinds.GELU_GRAD:
                return List.of(call(op, Kernels.GELU_GRAD, List.of(read(op.inputs().get(0)), read(op.inputs().get(1)), write(out(op))), new long[]{elements(out(op))}));
            case OpKinds.SOFTMAX_GRAD: {
                long[] rc = rowsCols(op, shape(op, op.inputs().get(0)), OpAttrs.of(op).integer("axis"));
                return List.of(call(op, Kernels.SOFTMAX_GRAD, List.of(read(op.inputs().get(0)), read(op.inputs().get(1)), write(out(op))), rc));
            }
            case OpKinds.LAYER_NORM_GRAD: {
                long[] rc = rowsCols(op, shape(op, op.inputs().get(1)), OpAttrs.of(op).integer("axis"));
                return List.of(call(op, Kernels.LAYERNORM_GRAD, List.of(read(op.inputs().get(0)), read(op.inputs().get(1)), read(op.inputs().get(2)), write(out(op))),
                        rc, new double[]{OpAttrs.of(op).real("epsilon")}));
            }
            case OpKinds.CONV_BACKWARD_DATA: return List.of(convBackward(op, Kernels.CONV2D_BACKWARD_DATA, out(op), op.inputs().get(1), op.inputs().get(0)));
            case OpKinds.CONV_BACKWARD_FILTER: return List.of(convBackward(op, Kernels.CONV2D_BACKWARD_FILTER, op.inputs().get(0), out(op), op.inputs().get(1)));
            default: throw fail(op, "unknown op kind '" + op.kind() + "'; known kinds are those of org.arenaplan.ir.OpKinds");
        }
    }

    // ---- elementwise ----

    /** Integers allowed for relu only; f32, f16, bf16 always. */
    private KernelCall unary(Op op, int code, boolean integers) {
        String x = op.inputs().get(0);
        DType t = sameType(op, x, out(op));
        if (!t.isFloat32Compute() && !(integers && t.isIntegral() && t != DType.BOOL))
            throw fail(op, "tensor '" + x + "' is " + t.jsonName() + "; " + op.kind() + " takes f32, f16 or bf16" + (integers ? " or an integer type" : ""));
        return call(op, Kernels.UNARY, List.of(read(x), write(out(op))), new long[]{elements(x), code, t.onnxCode()});
    }

    private KernelCall copy(Op op, String x) {
        DType t = sameType(op, x, out(op));
        return call(op, Kernels.COPY, List.of(read(x), write(out(op))), new long[]{elements(out(op)), t.bytes()});
    }

    private KernelCall binary(Op op, int code, String a, String b) {
        return binaryInto(op, code, a, b, out(op));
    }

    private KernelCall binaryInto(Op op, int code, String a, String b, String y) {
        DType t = sameType(op, a, b, y);
        if (!t.isFloat32Compute() && !(t.isIntegral() && t != DType.BOOL && code != Kernels.RELU_GRAD))
            throw fail(op, "operands are " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16" + (code == Kernels.RELU_GRAD ? "" : " or an integer type"));
        long[] ys = shapeOf(op, y, a, b);
        long[] bc = broadcast(op, ys, a, b);
        long[] ints = Arrays.copyOf(new long[]{code}, 1 + bc.length + 1);
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 1] = t.onnxCode();
        return call(op, Kernels.BINARY, List.of(read(a), read(b), write(y)), ints);
    }

    /** [rank, shape[rank] (ys), then per operand its broadcast strides[rank]]. */
    private long[] broadcast(Op op, long[] ys, String... operands) {
        int rank = ys.length;
        long[] ints = new long[1 + rank * (1 + operands.length)];
        ints[0] = rank;
        System.arraycopy(ys, 0, ints, 1, rank);
        for (int k = 0; k < operands.length; k++) {
            long[] s = broadcastStrides(op, operands[k], shapeOr(operands[k], ys), ys);
            System.arraycopy(s, 0, ints, 1 + rank * (k + 1), rank);
        }
        return ints;
    }

    /** Sum of n inputs: y = x0 + x1, then y = y + x2, ... (a fixed order). */
    private List<KernelCall> sum(Op op) {
        List<String> in = op.inputs();
        if (in.size() == 1) return List.of(copy(op, in.get(0)));
        List<KernelCall> calls = new ArrayList<>();
        calls.add(binary(op, Kernels.ADD, in.get(0), in.get(1)));
        for (int k = 2; k < in.size(); k++) calls.add(binaryInto(op, Kernels.ADD, out(op), in.get(k), out(op)));
        return calls;
    }

    /** Numpy broadcasting: strides of {@code t} (shape {@code ts}) read as shape {@code ys}; 0 where broadcast. */
    private long[] broadcastStrides(Op op, String t, long[] ts, long[] ys) {
        int rank = ys.length;
        long[] s = new long[rank];
        long stride = 1;
        for (int d = rank - 1, e = ts.length - 1; d >= 0; d--, e--) {
            long dim = e >= 0 ? ts[e] : 1;
            if (dim != ys[d] && dim != 1) throw fail(op, "'" + t + "' " + Arrays.toString(ts) + " does not broadcast to " + Arrays.toString(ys));
            s[d] = dim == 1 && ys[d] != 1 ? 0 : stride;
            stride *= dim;
        }
        return s;
    }

    // ---- element types ----

    /** ONNX Cast: attr to, an ONNX element type code that must be the output's type. */
    private KernelCall cast(Op op) {
        String x = op.inputs().get(0), y = out(op);
        DType from = dtype(x), to = dtype(y);
        long code = OpAttrs.of(op).integer("to");
        if (code != to.onnxCode()) throw fail(op, "attribute to=" + code + " differs from the type of '" + y + "' (" + to.jsonName() + ")");
        if (elements(x) != elements(y)) throw fail(op, "'" + x + "' has " + elements(x) + " elements, '" + y + "' " + elements(y));
        return call(op, Kernels.CAST, List.of(read(x), write(y)), new long[]{elements(y), from.onnxCode(), to.onnxCode()});
    }

    /** ONNX Where(condition, X, Y), broadcasting. */
    private KernelCall where(Op op) {
        if (op.inputs().size() != 3) throw fail(op, "Where takes condition, X and Y");
        String c = op.inputs().get(0), x = op.inputs().get(1), y = op.inputs().get(2), o = out(op);
        if (dtype(c) != DType.BOOL) throw fail(op, "condition '" + c + "' is " + dtype(c).jsonName() + ", not bool");
        DType t = sameType(op, x, y, o);
        long[] ints = broadcast(op, shape(op, o), c, x, y);
        ints = Arrays.copyOf(ints, ints.length + 1);
        ints[ints.length - 1] = t.bytes();
        return call(op, Kernels.WHERE, List.of(read(c), read(x), read(y), write(o)), ints);
    }

    /** ONNX Equal(A, B) to bool, broadcasting. */
    private KernelCall equal(Op op) {
        String a = op.inputs().get(0), b = op.inputs().get(1), y = out(op);
        DType t = sameType(op, a, b);
        if (t == DType.F64) throw fail(op, "f64 compute is not supported");
        if (dtype(y) != DType.BOOL) throw fail(op, "output '" + y + "' is " + dtype(y).jsonName() + ", not bool");
        long[] bc = broadcast(op, shape(op, y), a, b);
        long[] ints = new long[bc.length + 2];
        ints[0] = Kernels.EQUAL;
        System.arraycopy(bc, 0, ints, 1, bc.length);
        ints[ints.length - 1] = t.onnxCode();
        return call(op, Kernels.COMPARE, List.of(read(a), read(b), write(y)), ints);
    }

    /** ONNX Gather(data, indices) along attr axis (negative counts from the end). */
    private KernelCall gather(Op op) {
        String d = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        DType t = sameType(op, d, y), it = dtype(idx);
        if (it != DType.I64 && it != DType.I32) throw fail(op, "indices '" + idx + "' are " + it.jsonName() + "; Gather takes int64 or int32");
        long[] ds = shape(op, d);
        long axis = OpAttrs.of(op).integer("axis");
        int a = (int) (axis < 0 ? axis + ds.length : axis);
        if (a < 0 || a >= ds.length) throw fail(op, "axis " + axis + " out of range for shape " + Arrays.toString(ds));
        long outer = product(Arrays.copyOf(ds, a)), inner = product(Arrays.copyOfRange(ds, a + 1, ds.length));
        long n = elements(idx);
        if (elements(y) != outer * n * inner) throw fail(op, "output '" + y + "' must have " + outer * n * inner + " elements, has " + elements(y));
        return call(op, Kernels.GATHER, List.of(read(d), read(idx), write(y)), new long[]{outer, ds[a], inner, n, t.bytes(), it.onnxCode()});
    }

    // ---- linear algebra ----

    private List<KernelCall> matmul(Op op) {
        String a = op.inputs().get(0), b = op.inputs().get(1), y = out(op);
        long[] as = shape(op, a), bs = shape(op, b);
        if (as.length < 2 || bs.length < 2) throw fail(op, "MatMul needs inputs of rank 2 or more, got " + Arrays.toString(as) + " and " + Arrays.toString(bs));
        long m = as[as.length - 2], k = as[as.length - 1], n = bs[bs.length - 1];
        if (bs[bs.length - 2] != k) throw fail(op, "inner dimensions differ: " + Arrays.toString(as) + " x " + Arrays.toString(bs));
        long[] ys = shape(op, y);
        long[] lead = Arrays.copyOf(ys, ys.length - 2);
        long batch = product(lead);
        long batchA = product(Arrays.copyOf(as, as.length - 2)), batchB = product(Arrays.copyOf(bs, bs.length - 2));
        if ((batchA == batch || batchA == 1) && (batchB == batch || batchB == 1) && sameLead(as, lead, batchA) && sameLead(bs, lead, batchB)) {
            long[] ints = {batch, m, n, k, 0, 0, batchA == 1 ? 0 : m * k, batchB == 1 ? 0 : k * n, 0, 0, 0, 0};
            return List.of(call(op, Kernels.GEMM, List.of(read(a), read(b), write(y)), ints, new double[]{1, 0}));
        }
        // General broadcast of leading dims: one call per output matrix.
        long[] sa = broadcastStrides(op, a, Arrays.copyOf(as, as.length - 2), lead);
        long[] sb = broadcastStrides(op, b, Arrays.copyOf(bs, bs.length - 2), lead);
        List<KernelCall> calls = new ArrayList<>();
        long[] idx = new long[lead.length];
        for (long o = 0; o < batch; o++) {
            long offA = 0, offB = 0;
            for (int d = 0; d < lead.length; d++) { offA += idx[d] * sa[d] * m * k; offB += idx[d] * sb[d] * k * n; }
            long[] ints = {1, m, n, k, 0, 0, 0, 0, 0, 0, 0, 0};
            calls.add(call(op, Kernels.GEMM, List.of(readAt(a, offA, m * k), readAt(b, offB, k * n), writeAt(y, o * m * n, m * n)), ints, new double[]{1, 0}));
            for (int d = lead.length - 1; d >= 0; d--) {
                if (++idx[d] < lead[d]) break;
                idx[d] = 0;
            }
        }
        return calls;
    }

    private static boolean sameLead(long[] s, long[] lead, long batch) {
        if (batch == 1) return true;
        long[] own = Arrays.copyOf(s, s.length - 2);
        int skip = lead.length - own.length;
        if (skip < 0) return false;
        for (int d = 0; d < own.length; d++) if (own[d] != lead[skip + d]) return false;
        return true;
    }

    private KernelCall gemm(Op op) {
        String a = op.inputs().get(0), b = op.inputs().get(1), y = out(op);
        long[] as = shape(op, a), bs = shape(op, b);
        if (as.length != 2 || bs.length != 2) throw fail(op, "Gemm needs 2-D A and B, got " + Arrays.toString(as) + " and " + Arrays.toString(bs));
        OpAttrs at = OpAttrs.of(op);
        boolean ta = at.integer("transA") == 1, tb = at.integer("transB") == 1;
        long m = ta ? as[1] : as[0], k = ta ? as[0] : as[1], n = tb ? bs[0] : bs[1];
        if ((tb ? bs[1] : bs[0]) != k) throw fail(op, "inner dimensions differ: " + Arrays.toString(as) + " x " + Arrays.toString(bs));
        double alpha = at.real("alpha"), beta = at.real("beta");
        List<KernelArg> args = new ArrayList<>(List.of(read(a), read(b)));
        long[] ints = {1, m, n, k, ta ? 1 : 0, tb ? 1 : 0, 0, 0, 0, 0, 0, 0};
        if (op.inputs().size() > 2) {
            String c = op.inputs().get(2);
            long[] s = broadcastStrides(op, c, shapeOr(c, new long[]{m, n}), new long[]{m, n});
            ints[8] = 1;
            ints[10] = s[0];
            ints[11] = s[1];
            args.add(read(c));
        }
        args.add(write(y));
        return call(op, Kernels.GEMM, args, ints, new double[]{alpha, beta});
    }

    // ---- normalisation ----

    private long[] rowsCols(Op op, long[] s, long axis) {
        int a = (int) (axis < 0 ? axis + s.length : axis);
        if (a < 0 || a >= s.length) throw fail(op, "axis " + axis + " out of range for shape " + Arrays.toString(s));
        return new long[]{product(Arrays.copyOf(s, a)), product(Arrays.copyOfRange(s, a, s.length))};
    }

    private KernelCall batchNorm(Op op) {
        String x = op.inputs().get(0);
        long[] s = shape(op, x);
        if (s.length < 2) throw fail(op, "BatchNormalization needs rank 2 or more, got " + Arrays.toString(s));
        List<KernelArg> args = new ArrayList<>();
        for (String t : op.inputs()) args.add(read(t));
        args.add(write(out(op)));
        if (args.size() != 6) throw fail(op, "BatchNormalization takes X, scale, B, mean, var");
        return call(op, Kernels.BATCHNORM, args, new long[]{s[0], s[1], product(Arrays.copyOfRange(s, 2, s.length))},
                new double[]{OpAttrs.of(op).real("epsilon")});
    }

    private KernelCall lrn(Op op) {
        String x = op.inputs().get(0);
        long[] s = shape(op, x);
        return call(op, Kernels.LRN, List.of(read(x), write(out(op))),
                new long[]{s[0], s[1], product(Arrays.copyOfRange(s, 2, s.length)), OpAttrs.of(op).integer("size")},
                new double[]{OpAttrs.of(op).real("alpha"), OpAttrs.of(op).real("beta"), OpAttrs.of(op).real("bias")});
    }

    // ---- images ----

    private KernelCall conv(Op op) {
        String x = op.inputs().get(0), w = op.inputs().get(1), y = out(op);
        long[] geometry = convGeometry(op, x, w, y);
        boolean bias = op.inputs().size() > 2;
        List<KernelArg> args = new ArrayList<>(List.of(read(x), read(w)));
        if (bias) args.add(read(op.inputs().get(2)));
        args.add(write(y));
        long[] ints = Arrays.copyOf(geometry, geometry.length + 1);
        ints[geometry.length] = bias ? 1 : 0;
        return call(op, Kernels.CONV2D, args, ints);
    }

    /** {@link Kernels#CONV2D}'s first 16 ints for a Conv (or a Conv gradient) of x by w giving y. */
    private long[] convGeometry(Op op, String x, String w, String y) {
        long[] xs = image(op, x), ws = image(op, w), ys = image(op, y);
        OpAttrs at = OpAttrs.of(op);
        long[] k = at.has("kernel_shape") ? perAxis(op, "kernel_shape", x) : new long[]{ws[2], ws[3]};
        long[] st = perAxis(op, "strides", x);
        long[] pads = perAxis(op, "pads", x);
        long[] dil = perAxis(op, "dilations", x);
        long group = at.integer("group");
        if (xs[1] % group != 0 || ys[1] % group != 0) throw fail(op, "group " + group + " does not divide the channels");
        return new long[]{xs[0], xs[1], xs[2], xs[3], ys[1], ys[2], ys[3], k[0], k[1], st[0], st[1], pads[0], pads[1], dil[0], dil[1], group};
    }

    /** Either conv2d gradient: the geometry of the forward Conv of x (N x C x H x W) by w giving dy. */
    private KernelCall convBackward(Op op, String kernel, String x, String w, String dy) {
        long[] ints = convGeometry(op, x, w, dy);
        if (ints[15] != 1) throw fail(op, "convolution gradients support group 1 only");
        List<KernelArg> args = new ArrayList<>();
        for (String t : op.inputs()) args.add(read(t));
        args.add(write(out(op)));
        return call(op, kernel, args, ints);
    }

    private KernelCall pool(Op op, int mode, boolean global) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = image(op, x), ys = image(op, y);
        long[] k = global ? new long[]{xs[2], xs[3]} : perAxis(op, "kernel_shape", x);
        long[] st = global ? new long[]{1, 1} : perAxis(op, "strides", x);
        long[] pads = global ? new long[4] : perAxis(op, "pads", x);
        long include = global ? 0 : OpAttrs.of(op).integer("count_include_pad");
        long[] ints = {xs[0], xs[1], xs[2], xs[3], ys[2], ys[3], k[0], k[1], st[0], st[1], pads[0], pads[1], pads[2], pads[3], mode, include};
        return call(op, Kernels.POOL2D, List.of(read(x), write(y)), ints);
    }

    /** N x C x H x W; a 1-D image N x C x L is taken as H = 1. */
    private long[] image(Op op, String t) {
        long[] s = shape(op, t);
        if (s.length == 4) return s;
        if (s.length == 3) return new long[]{s[0], s[1], 1, s[2]};
        throw fail(op, "'" + t + "' " + Arrays.toString(s) + " is not an N x C x H x W image (3-D images are not supported)");
    }

    /**
     * A per-spatial-axis attribute of the image {@code x} (the registry's default when absent),
     * widened from 1-D to 2-D (the H axis gets kernel 1, stride 1, pad 0, dilation 1).
     */
    private long[] perAxis(Op op, String key, String x) {
        int spatial = shape(op, x).length - 2;
        long[] r;
        try {
            r = OpAttrs.of(op).perAxis(key, spatial);
        } catch (org.arenaplan.ir.GraphException e) {
            throw fail(op, e.getMessage());
        }
        if (spatial == 2) return r;
        long neutral = key.equals("pads") ? 0 : 1;
        return r.length == 1 ? new long[]{neutral, r[0]} : new long[]{0, r[0], 0, r[1]};
    }

    // ---- data movement ----

    private List<KernelCall> concat(Op op) {
        String y = out(op);
        long[] ys = shape(op, y);
        int axis = (int) OpAttrs.of(op).integer("axis");
        if (axis < 0) axis += ys.length;
        if (axis < 0 || axis >= ys.length) throw fail(op, "axis out of range for " + Arrays.toString(ys));
        long outer = product(Arrays.copyOf(ys, axis));
        long yInner = product(Arrays.copyOfRange(ys, axis, ys.length));
        List<KernelCall> calls = new ArrayList<>();
        long offset = 0;
        for (int j = 0; j < op.inputs().size(); j++) {
            String x = op.inputs().get(j);
            long xInner = elements(x) / Math.max(1, outer);
            if (op.readsAtRuntime(j)) {
                calls.add(call(op, Kernels.CONCAT_SLICE, List.of(read(x), write(y)), new long[]{outer, xInner, yInner, offset, sameType(op, x, y).bytes()}));
            }
            offset += xInner;
        }
        return calls;
    }

    private KernelCall transpose(Op op) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = shape(op, x);
        int rank = xs.length;
        long[] perm;
        try {
            perm = OpAttrs.of(op).permutation(rank);
        } catch (org.arenaplan.ir.GraphException e) {
            throw fail(op, e.getMessage());
        }
        long[] xStride = new long[rank];
        long s = 1;
        for (int d = rank - 1; d >= 0; d--) { xStride[d] = s; s *= xs[d]; }
        long[] ints = new long[2 + 2 * rank];
        ints[0] = rank;
        ints[1 + 2 * rank] = sameType(op, x, y).bytes();
        for (int d = 0; d < rank; d++) {
            ints[1 + d] = xs[(int) perm[d]];
            ints[1 + rank + d] = xStride[(int) perm[d]];
        }
        return call(op, Kernels.TRANSPOSE, List.of(read(x), write(y)), ints);
    }

    /**
     * Split: output k holds, for each of the {@code outer} indices before the axis, {@code yInner_k}
     * consecutive elements starting {@code offset_k} into the input's row of {@code xInner}: one
     * strided copy (the transpose kernel over shape [outer, yInner_k], strides [xInner, 1]) per
     * computed output. Outputs declared views are not copied.
     */
    private List<KernelCall> split(Op op) {
        String x = op.inputs().get(0);
        long[] xs = shape(op, x);
        long axis = OpAttrs.of(op).integer("axis");
        int a = (int) (axis < 0 ? axis + xs.length : axis);
        if (a < 0 || a >= xs.length) throw fail(op, "axis " + axis + " out of range for " + Arrays.toString(xs));
        long outer = product(Arrays.copyOf(xs, a)), xInner = product(Arrays.copyOfRange(xs, a, xs.length));
        List<KernelCall> calls = new ArrayList<>();
        long offset = 0;
        for (int k = 0; k < op.outputs().size(); k++) {
            String y = op.outputs().get(k);
            long yInner = outer == 0 ? 0 : elements(y) / outer;
            if (op.writesAtRuntime(k) && yInner > 0) {
                long span = (outer - 1) * xInner + yInner;
                calls.add(call(op, Kernels.TRANSPOSE, List.of(readAt(x, offset, span), write(y)), new long[]{2, outer, yInner, xInner, 1, sameType(op, x, y).bytes()}));
            }
            offset += yInner;
        }
        return calls;
    }

    // ---- helpers ----

    KernelCall call(Op op, String kernel, List<KernelArg> args, long[] ints) {
        return call(op, kernel, args, ints, new double[0]);
    }

    KernelCall call(Op op, String kernel, List<KernelArg> args, long[] ints, double[] floats) {
        return new KernelCall(kernel, args, ints, floats, op.name());
    }

    /** Reads all of {@code t}: its bytes must hold the writes of its lineage. */
    public KernelArg read(String t) {
        return KernelArg.read(address.apply(t), bytes(t), display.apply(t), lineage.of(t));
    }

    /** Writes all of {@code t}. */
    public KernelArg write(String t) {
        return KernelArg.write(address.apply(t), bytes(t), display.apply(t), t);
    }

    private KernelArg readAt(String t, long elementOffset, long elements) {
        int es = dtype(t).bytes();
        return KernelArg.read(address.apply(t).plus(es * elementOffset), es * elements, display.apply(t), lineage.of(t));
    }

    private KernelArg writeAt(String t, long elementOffset, long elements) {
        int es = dtype(t).bytes();
        return KernelArg.write(address.apply(t).plus(es * elementOffset), es * elements, display.apply(t), t);
    }

    private static String out(Op op) {
        return op.outputs().get(0);
    }

    private long bytes(String t) {
        return graph.tensor(t).bytes();
    }

    long elements(String t) {
        return graph.tensor(t).bytes() / dtype(t).bytes();
    }

    /** The tensor's element type; f32 when the graph gave none. */
    DType dtype(String t) {
        DType d = graph.tensor(t).dtype();
        return d == null ? DType.F32 : d;
    }

    /** The one element type all of {@code tensors} share; whole elements each. */
    DType sameType(Op op, String... tensors) {
        DType t = dtype(tensors[0]);
        for (String x : tensors) {
            if (dtype(x) != t) throw fail(op, "'" + tensors[0] + "' is " + t.jsonName() + " but '" + x + "' is " + dtype(x).jsonName() + "; they must have one type");
            if (bytes(x) % t.bytes() != 0) throw fail(op, "tensor '" + x + "' (" + bytes(x) + " B) is not a whole number of " + t.jsonName() + " values");
        }
        return t;
    }

    long[] shape(Op op, String t) {
        Tensor x = graph.tensor(t);
        if (!x.hasShape()) throw fail(op, "tensor '" + t + "' has no shape; executors need shapes for " + op.kind());
        return x.shape();
    }

    /** The output shape; a shapeless output of an elementwise op is taken flat. */
    private long[] shapeOf(Op op, String y, String a, String b) {
        Tensor t = graph.tensor(y);
        if (t.hasShape()) return t.shape();
        if (graph.tensor(a).hasShape() || graph.tensor(b).hasShape()) throw fail(op, "tensor '" + y + "' has no shape");
        if (bytes(a) != bytes(y) || bytes(b) != bytes(y)) throw fail(op, "shapeless operands must have equal sizes");
        return new long[]{elements(y)};
    }

    private long[] shapeOr(String t, long[] dflt) {
        Tensor x = graph.tensor(t);
        return x.hasShape() ? x.shape() : dflt;
    }

    void requireF32(Op op, String t) {
        DType d = graph.tensor(t).dtype();
        if (d != null && d != DType.F32) throw fail(op, "tensor '" + t + "' is " + d.jsonName() + "; " + op.kind() + " computes f32 only");
        if (graph.tensor(t).bytes() % 4 != 0) throw fail(op, "tensor '" + t + "' (" + graph.tensor(t).bytes() + " B) is not a whole number of f32 values");
    }

    static long product(long[] s) {
        long p = 1;
        for (long d : s) p *= d;
        return p;
    }

    static ExecutionException fail(Op op, String why) {
        return new ExecutionException("op '" + op.name() + "' (" + op.kind() + "): " + why);
    }
}
