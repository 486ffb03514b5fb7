package org.arenaplan.train;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;

import java.util.Arrays;

/**
 * The gradient rule of each op kind that has one: given the gradient dY of an op's output, the ops
 * that compute its contribution to each input's gradient (only for inputs that need one).
 * <ul>
 *   <li>Add, Sub, Mul (numpy broadcasting): dY (negated for Sub's B; times the other operand for
 *       Mul), summed over the broadcast axes by ReduceSum.</li>
 *   <li>MatMul: with a 2-D B, leading dims flattened by Reshape views: dA = Gemm(dY, B, transB),
 *       dB = Gemm(A, dY, transA); batched (equal leading dims): dA = MatMul(dY, B^T),
 *       dB = MatMul(A^T, dY) with the last two axes transposed by Transpose.</li>
 *   <li>Gemm (alpha 1, beta 1, no transposes): as MatMul, and dC = dY summed to C's shape.</li>
 *   <li>Relu: ReluGrad(dY, Y); Gelu: GeluGrad(dY, X); Softmax: SoftmaxGrad(dY, Y); all in place over dY.</li>
 *   <li>LayerNormalization: dX = LayerNormalizationGrad(dY, X, scale); dscale = ReduceSum(dY *
 *       LayerNormalization(X, 1, 0)); dbias = ReduceSum(dY), over the leading axes.</li>
 *   <li>BatchNormalization (inference form: mean and var are constants): dX =
 *       BatchNormalization(dY, scale, 0, 0, var) (dY * scale / sqrt(var + eps)); dscale and dB as
 *       LayerNormalization's, over N, H, W.</li>
 *   <li>Conv (group 1): dX = ConvBackwardData(dY, W), dW = ConvBackwardFilter(X, dY), dB = ReduceSum over N, H, W.</li>
 *   <li>GlobalAveragePool: dX = dY * 1/(H*W), broadcast over H, W; Transpose: the inverse permutation;
 *       Reshape, Flatten, Identity, Squeeze, Unsqueeze, Dropout (views): a Reshape view of dY.</li>
 * </ul>
 * Any other kind throws {@link GraphException} naming the op.
 */
final class GradientRules {
    private final Gradients g;

    GradientRules(Gradients g) {
        this.g = g;
    }

    void apply(Op op, String dy) {
        String kind = op.kind();
        switch (kind) {
            case OpKinds.ADD -> {
                g.accumulate(in(op, 0), reduceTo(dy, in(op, 0)));
                g.accumulate(in(op, 1), reduceTo(dy, in(op, 1)));
            }
            case OpKinds.SUB -> {
                g.accumulate(in(op, 0), reduceTo(dy, in(op, 0)));
                if (g.needsGradient(in(op, 1))) {
                    String neg = elementwise(OpKinds.MUL, dy + ".neg", dy, g.constant(-1.0, g.dtype(dy), 1));
                    g.accumulate(in(op, 1), reduceTo(neg, in(op, 1)));
                }
            }
            case OpKinds.MUL -> {
                for (int j = 0; j < 2; j++) {
                    if (!g.needsGradient(in(op, j))) continue;
                    String prod = elementwise(OpKinds.MUL, in(op, j) + ".mul", dy, in(op, 1 - j));
                    g.accumulate(in(op, j), reduceTo(prod, in(op, j)));
                }
            }
            case OpKinds.RELU -> g.accumulate(in(op, 0), inPlaceOverDy(OpKinds.RELU_GRAD, op, dy, op.outputs().get(0)));
            case OpKinds.GELU -> g.accumulate(in(op, 0), inPlaceOverDy(OpKinds.GELU_GRAD, op, dy, in(op, 0)));
            case OpKinds.SOFTMAX -> {
                long[] ys = g.shape(op.outputs().get(0));
                long axis = OpAttrs.of(op).integer("axis");
                int a = (int) (axis < 0 ? axis + ys.length : axis);
                boolean innerOnes = true;
                for (int d = a + 1; d < ys.length; d++) innerOnes &= ys[d] == 1;
                if (OpAttrs.of(op).integer("single_axis") == 1 && !innerOnes)
                    throw new GraphException("op '" + op.name() + "' (Softmax): gradients need the axes from axis on taken together (single_axis = 0), or a last axis");
                String dx = g.tensor(in(op, 0), g.dtype(dy), g.shape(dy));
                g.op(OpKinds.SOFTMAX_GRAD, dx).in(dy, op.outputs().get(0)).attr("axis", OpAttrs.of(op).integer("axis")).inPlace().add();
                g.accumulate(in(op, 0), dx);
            }
            case OpKinds.MATMUL -> matmul(op, dy);
            case OpKinds.GEMM -> gemm(op, dy);
            case OpKinds.LAYER_NORM -> layerNorm(op, dy);
            case OpKinds.BATCH_NORM -> batchNorm(op, dy);
            case OpKinds.CONV -> conv(op, dy);
            case OpKinds.GLOBAL_AVERAGE_POOL -> {
                long[] xs = g.shape(in(op, 0));
                String scale = g.constant(1.0 / (xs[2] * xs[3]), g.dtype(dy), 1, 1, xs[2], xs[3]);
                String dx = g.tensor(in(op, 0), g.dtype(dy), xs);
                g.op(OpKinds.MUL, dx).in(dy, scale).add();
                g.accumulate(in(op, 0), dx);
            }
            case OpKinds.TRANSPOSE -> {
                long[] perm = (long[]) op.attrs().get("perm");
                long[] inv = new long[perm.length];
                for (int d = 0; d < perm.length; d++) inv[(int) perm[d]] = d;
                g.accumulate(in(op, 0), transpose(in(op, 0), dy, inv));
            }
            default -> {
                if (OpRegistry.viewKinds().contains(kind) && !kind.equals(OpKinds.SLICE) && op.isStorageOnly()) {
                    g.accumulate(in(op, 0), view(dy, in(op, 0), g.shape(in(op, 0))));
                    return;
                }
                throw new GraphException("op '" + op.name() + "' (" + kind + "): no gradient rule for this kind; rules exist for "
                        + "Add, Sub, Mul, MatMul, Gemm, Relu, Gelu, Softmax, LayerNormalization, BatchNormalization, Conv, "
                        + "GlobalAveragePool, Transpose and the reshaping views");
            }
        }
    }

    private static String in(Op op, int j) {
        return op.inputs().get(j);
    }

    private String inPlaceOverDy(String kind, Op op, String dy, String other) {
        String dx = g.tensor(in(op, 0), g.dtype(dy), g.shape(dy));
        g.op(kind, dx).in(dy, other).inPlace().add();
        return dx;
    }

    private String elementwise(String kind, String name, String a, String b) {
        long[] sa = g.shape(a), sb = g.shape(b);
        long[] out = sa.length >= sb.length ? sa.clone() : sb.clone();
        for (int i = 1; i <= Math.min(sa.length, sb.length); i++) out[out.length - i] = Math.max(sa[sa.length - i], sb[sb.length - i]);
        String y = g.tensor(name, g.dtype(a), out);
        g.op(kind, y).in(a, b).add();
        return y;
    }

    /** {@code d} (shaped like an op's output) summed over the axes along which {@code target} was broadcast. */
    private String reduceTo(String d, String target) {
        if (!g.needsGradient(target)) return d;
        long[] ds = g.shape(d), ts = g.shape(target);
        if (Arrays.equals(ds, ts)) return d;
        int r = ds.length;
        long[] padded = new long[r];
        Arrays.fill(padded, 1);
        System.arraycopy(ts, 0, padded, r - ts.length, ts.length);
        long[] axes = java.util.stream.IntStream.range(0, r).filter(a -> a < r - ts.length || (padded[a] == 1 && ds[a] != 1)).asLongStream().toArray();
        if (axes.length == 0) return view(d, target, ts);
        long[] kept = java.util.stream.IntStream.range(0, r).filter(a -> Arrays.stream(axes).noneMatch(x -> x == a)).mapToLong(a -> ds[a]).toArray();
        String out = g.tensor(target, g.dtype(d), kept);
        g.op(OpKinds.REDUCE_SUM, out).in(d).attr("axes", axes).attr("keepdims", 0L).add();
        return Arrays.equals(kept, ts) ? out : view(out, target, ts);
    }

    private String view(String x, String base, long[] shape) {
        String v = g.tensor(base + ".view", g.dtype(x), shape);
        g.op(OpKinds.RESHAPE, v).in(x).view().add();
        return v;
    }

    private String transpose(String base, String x, long[] perm) {
        long[] s = g.shape(x);
        long[] out = new long[s.length];
        for (int d = 0; d < s.length; d++) out[d] = s[(int) perm[d]];
        String y = g.tensor(base + ".t", g.dtype(x), out);
        g.op(OpKinds.TRANSPOSE, y).in(x).attr("perm", perm.clone()).add();
        return y;
    }

    private String gemm(String name, String a, String b, boolean transA, boolean transB) {
        long[] sa = g.shape(a), sb = g.shape(b);
        long m = transA ? sa[1] : sa[0], n = transB ? sb[0] : sb[1];
        String y = g.tensor(name, g.dtype(a), new long[]{m, n});
        g.op(OpKinds.GEMM, y).in(a, b).attr("transA", transA ? 1L : 0L).attr("transB", transB ? 1L : 0L)
                .attr("alpha", 1.0).attr("beta", 1.0).add();
        return y;
    }

    private void matmul(Op op, String dy) {
        String a = in(op, 0), b = in(op, 1);
        long[] sa = g.shape(a), sb = g.shape(b);
        if (sb.length == 2 && sa.length >= 2) {
            long k = sa[sa.length - 1], n = sb[1];
            long rows = 1;
            for (int d = 0; d < sa.length - 1; d++) rows *= sa[d];
            String dy2 = sa.length == 2 ? dy : view(dy, a + ".dy2", new long[]{rows, n});
            if (g.needsGradient(a)) {
                String da = gemm(a + ".mm", dy2, b, false, true);
                g.accumulate(a, sa.length == 2 ? da : view(da, a, sa));
            }
            if (g.needsGradient(b)) {
                String a2 = sa.length == 2 ? a : view(a, a + ".2d", new long[]{rows, k});
                g.accumulate(b, gemm(b, a2, dy2, true, false));
            }
            return;
        }
        if (sa.length != sb.length || !Arrays.equals(Arrays.copyOf(sa, sa.length - 2), Arrays.copyOf(sb, sb.length - 2)))
            throw new GraphException("op '" + op.name() + "' (MatMul): gradients need a 2-D B or equal leading dims, got "
                    + Arrays.toString(sa) + " x " + Arrays.toString(sb));
        long[] swap = new long[sa.length];
        for (int d = 0; d < swap.length; d++) swap[d] = d;
        swap[swap.length - 1] = swap.length - 2;
        swap[swap.length - 2] = swap.length - 1;
        if (g.needsGradient(a)) g.accumulate(a, batched(a, dy, transpose(b, b, swap)));
        if (g.needsGradient(b)) g.accumulate(b, batched(b, transpose(a, a, swap), dy));
    }

    private String batched(String base, String x, String y) {
        long[] sx = g.shape(x), sy = g.shape(y);
        long[] out = sx.clone();
        out[out.length - 1] = sy[sy.length - 1];
        String z = g.tensor(base, g.dtype(x), out);
        g.op(OpKinds.MATMUL, z).in(x, y).add();
        return z;
    }

    private void gemm(Op op, String dy) {
        OpAttrs at = OpAttrs.of(op);
        if (at.integer("transA") != 0 || at.integer("transB") != 0 || at.real("alpha") != 1 || at.real("beta") != 1)
            throw new GraphException("op '" + op.name() + "' (Gemm): gradients need transA = transB = 0 and alpha = beta = 1");
        String a = in(op, 0), b = in(op, 1);
        if (g.needsGradient(a)) g.accumulate(a, gemm(a, dy, b, false, true));
        if (g.needsGradient(b)) g.accumulate(b, gemm(b, a, dy, true, false));
        if (op.inputs().size() > 2) g.accumulate(in(op, 2), reduceTo(dy, in(op, 2)));
    }

    /** Sum of {@code x} over every axis but {@code keep} (a contiguous block), shaped {@code shape}. */
    private String reduceExcept(String x, String base, long[] keep, long[] shape) {
        String out = g.tensor(base, g.dtype(x), shape);
        int r = g.shape(x).length;
        long[] axes = java.util.stream.LongStream.range(0, r).filter(a -> Arrays.stream(keep).noneMatch(k -> k == a)).toArray();
        g.op(OpKinds.REDUCE_SUM, out).in(x).attr("axes", axes).attr("keepdims", 0L).add();
        return out;
    }

    private void layerNorm(Op op, String dy) {
        String x = in(op, 0), scale = in(op, 1), bias = in(op, 2);
        long[] xs = g.shape(x);
        long axis = OpAttrs.of(op).integer("axis");
        if (axis != -1 && axis != xs.length - 1)
            throw new GraphException("op '" + op.name() + "' (LayerNormalization): gradients need axis -1, got " + axis);
        double eps = OpAttrs.of(op).real("epsilon");
        DType t = g.dtype(dy);
        long cols = xs[xs.length - 1];
        long[] last = {xs.length - 1};
        if (g.needsGradient(x)) {
            String dx = g.tensor(x, t, xs);
            g.op(OpKinds.LAYER_NORM_GRAD, dx).in(dy, x, scale).attr("axis", -1L).attr("epsilon", eps).add();
            g.accumulate(x, dx);
        }
        if (g.needsGradient(scale)) {
            String xhat = g.tensor(x + ".xhat", t, xs);
            g.op(OpKinds.LAYER_NORM, xhat).in(x, g.constant(1.0, t, cols), g.constant(0.0, t, cols)).attr("axis", -1L).attr("epsilon", eps).add();
            String prod = elementwise(OpKinds.MUL, scale + ".mul", dy, xhat);
            g.accumulate(scale, reduceExcept(prod, scale, last, g.shape(scale)));
        }
        if (g.needsGradient(bias)) g.accumulate(bias, reduceExcept(dy, bias, last, g.shape(bias)));
    }

    private void batchNorm(Op op, String dy) {
        String x = in(op, 0), scale = in(op, 1), bias = in(op, 2), mean = in(op, 3), var = in(op, 4);
        if (g.needsGradient(mean) || g.needsGradient(var))
            throw new GraphException("op '" + op.name() + "' (BatchNormalization): gradients need constant mean and var (the inference form)");
        long[] xs = g.shape(x);
        DType t = g.dtype(dy);
        double eps = OpAttrs.of(op).real("epsilon");
        long c = xs[1];
        String zeros = g.constant(0.0, t, c);
        if (g.needsGradient(x)) {
            String dx = g.tensor(x, t, xs);
            g.op(OpKinds.BATCH_NORM, dx).in(dy, scale, zeros, zeros, var).attr("epsilon", eps).add();
            g.accumulate(x, dx);
        }
        if (g.needsGradient(scale)) {
            String xhat = g.tensor(x + ".xhat", t, xs);
            g.op(OpKinds.BATCH_NORM, xhat).in(x, g.constant(1.0, t, c), zeros, mean, var).attr("epsilon", eps).add();
            String prod = elementwise(OpKinds.MUL, scale + ".mul", dy, xhat);
            g.accumulate(scale, reduceExcept(prod, scale, new long[]{1}, g.shape(scale)));
        }
        if (g.needsGradient(bias)) g.accumulate(bias, reduceExcept(dy, bias, new long[]{1}, g.shape(bias)));
    }

    private void conv(Op op, String dy) {
        if (OpAttrs.of(op).integer("group") != 1) throw new GraphException("op '" + op.name() + "' (Conv): gradients need group 1");
        String x = in(op, 0), w = in(op, 1);
        if (g.needsGradient(x)) {
            String dx = g.tensor(x, g.dtype(dy), g.shape(x));
            copyAttrs(op, g.op(OpKinds.CONV_BACKWARD_DATA, dx).in(dy, w)).attr("input_shape", g.shape(x)).add();
            g.accumulate(x, dx);
        }
        if (g.needsGradient(w)) {
            String dw = g.tensor(w, g.dtype(dy), g.shape(w));
            long[] ws = g.shape(w);
            copyAttrs(op, g.op(OpKinds.CONV_BACKWARD_FILTER, dw).in(x, dy)).attr("kernel_shape", Arrays.copyOfRange(ws, 2, ws.length)).add();
            g.accumulate(w, dw);
        }
        if (op.inputs().size() > 2) g.accumulate(in(op, 2), reduceExcept(dy, in(op, 2), new long[]{1}, g.shape(in(op, 2))));
    }

    private static org.arenaplan.ir.GraphBuilder.OpBuilder copyAttrs(Op op, org.arenaplan.ir.GraphBuilder.OpBuilder b) {
        op.attrs().forEach(b::attr);
        return b;
    }
}
