package org.arenaplan.train;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpKinds;

import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * What a {@link GradientRule} builds the backward pass with: the forward tensors' shapes and
 * types, fresh gradient tensors, new ops, constants, and the composite steps several rules share
 * (a sum over broadcast axes, a reshaping view, a transpose, a Gemm). Every tensor it makes is
 * named {@code grad.<base>...}; every op {@code bwd.<output>}. Ops appended here go after the
 * forward ops, in the order the rules run (the forward ops in reverse).
 */
public final class Backward {
    private final Gradients g;

    Backward(Gradients g) {
        this.g = g;
    }

    // ---- the step being built ----

    /** Whether tensor {@code t} is computed from a trainable weight (only those get gradients). */
    public boolean needsGradient(String t) { return g.needsGradient(t); }

    /** The shape of {@code t}; {@link org.arenaplan.ir.GraphException} when it has none. */
    public long[] shape(String t) { return g.shape(t); }

    /** The element type of {@code t} (f32 when it has none). */
    public DType dtype(String t) { return g.dtype(t); }

    /** A fresh tensor of {@code shape}, named after {@code base}. */
    public String tensor(String base, DType dtype, long[] shape) { return g.tensor(base, dtype, shape); }

    /** A new op of {@code kind} writing {@code out}; finish it with {@code .in(...)...add()}. */
    public GraphBuilder.OpBuilder op(String kind, String out) { return g.op(kind, out); }

    /** A new op of {@code kind} writing {@code out} with every attribute of {@code like} (a forward op's geometry). */
    public GraphBuilder.OpBuilder opWithAttrs(String kind, String out, Op like) {
        GraphBuilder.OpBuilder b = g.op(kind, out);
        like.attrs().forEach(b::attr);
        return b;
    }

    /** A constant weight of {@code shape} filled with {@code value} (one per value and shape). */
    public String constant(double value, DType dtype, long... shape) { return g.constant(value, dtype, shape); }

    /** Adds contribution {@code d} to the gradient of {@code t} (summed by Add, in place, when there are several). */
    public void accumulate(String t, String d) { g.accumulate(t, d); }

    // ---- composite steps ----

    /** dX = {@code kind}(dy, other), in place over dy: shaped like dy, named after input 0 of {@code op}. */
    public String inPlaceOverDy(String kind, Op op, String dy, String other) {
        String dx = tensor(op.inputs().get(0), dtype(dy), shape(dy));
        op(kind, dx).in(dy, other).inPlace().add();
        return dx;
    }

    /** {@code kind}(a, b) with numpy broadcasting, into a fresh tensor named after {@code name}. */
    public String elementwise(String kind, String name, String a, String b) {
        long[] sa = shape(a), sb = shape(b);
        long[] out = sa.length >= sb.length ? sa.clone() : sb.clone();
        for (int i = 1; i <= Math.min(sa.length, sb.length); i++) out[out.length - i] = Math.max(sa[sa.length - i], sb[sb.length - i]);
        String y = tensor(name, dtype(a), out);
        op(kind, y).in(a, b).add();
        return y;
    }

    /** {@code d} (shaped like an op's output) summed over the axes along which {@code target} was broadcast, shaped like {@code target}. */
    public String reduceTo(String d, String target) {
        if (!needsGradient(target)) return d;
        long[] ds = shape(d), ts = shape(target);
        if (Arrays.equals(ds, ts)) return d;
        int r = ds.length;
        long[] padded = new long[r];
        Arrays.fill(padded, 1);
        System.arraycopy(ts, 0, padded, r - ts.length, ts.length);
        long[] axes = IntStream.range(0, r).filter(a -> a < r - ts.length || (padded[a] == 1 && ds[a] != 1)).asLongStream().toArray();
        if (axes.length == 0) return view(d, target, ts);
        long[] kept = IntStream.range(0, r).filter(a -> Arrays.stream(axes).noneMatch(x -> x == a)).mapToLong(a -> ds[a]).toArray();
        String out = tensor(target, dtype(d), kept);
        op(OpKinds.REDUCE_SUM, out).in(d).attr("axes", axes).attr("keepdims", 0L).add();
        return Arrays.equals(kept, ts) ? out : view(out, target, ts);
    }

    /** Sum of {@code x} over every axis but {@code keep}, shaped {@code shape}, named after {@code base}. */
    public String reduceExcept(String x, String base, long[] keep, long[] shape) {
        String out = tensor(base, dtype(x), shape);
        int r = shape(x).length;
        long[] axes = LongStream.range(0, r).filter(a -> Arrays.stream(keep).noneMatch(k -> k == a)).toArray();
        op(OpKinds.REDUCE_SUM, out).in(x).attr("axes", axes).attr("keepdims", 0L).add();
        return out;
    }

    /** A Reshape view of {@code x} with {@code shape} (no device work). */
    public String view(String x, String base, long[] shape) {
        String v = tensor(base + ".view", dtype(x), shape);
        op(OpKinds.RESHAPE, v).in(x).view().add();
        return v;
    }

    /** Transpose of {@code x} by {@code perm}. */
    public String transpose(String base, String x, long[] perm) {
        long[] s = shape(x);
        long[] out = new long[s.length];
        for (int d = 0; d < s.length; d++) out[d] = s[(int) perm[d]];
        String y = tensor(base + ".t", dtype(x), out);
        op(OpKinds.TRANSPOSE, y).in(x).attr("perm", perm.clone()).add();
        return y;
    }

    /** op(a) x op(b) of 2-D operands by Gemm (alpha = beta = 1, no C). */
    public String gemm(String name, String a, String b, boolean transA, boolean transB) {
        long[] sa = shape(a), sb = shape(b);
        long m = transA ? sa[1] : sa[0], n = transB ? sb[0] : sb[1];
        String y = tensor(name, dtype(a), new long[]{m, n});
        op(OpKinds.GEMM, y).in(a, b).attr("transA", transA ? 1L : 0L).attr("transB", transB ? 1L : 0L)
                .attr("alpha", 1.0).attr("beta", 1.0).add();
        return y;
    }

    /** x x y by MatMul with equal leading dims. */
    public String matmul(String base, String x, String y) {
        long[] sx = shape(x), sy = shape(y);
        long[] out = sx.clone();
        out[out.length - 1] = sy[sy.length - 1];
        String z = tensor(base, dtype(x), out);
        op(OpKinds.MATMUL, z).in(x, y).add();
        return z;
    }
}
