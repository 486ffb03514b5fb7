package org.arenaplan.ir;

import java.util.Arrays;

/**
 * The shape rules of {@link OpRegistry}, after the ONNX operator specifications
 * (https://onnx.ai/onnx/operators/): numpy broadcasting for elementwise ops, numpy matmul,
 * Gemm, sliding windows for Conv and the pools, Concat, Transpose. Each throws
 * {@link GraphException} with the reason (without the op's name; {@link OpChecks} adds it).
 * Arithmetic is overflow-checked.
 */
public final class ShapeRules {
    private ShapeRules() { }

    public static long[] sameAsFirst(OpAttrs a, long[][] in) {
        return in[0].clone();
    }

    /** Numpy (multidirectional) broadcasting over all inputs. */
    public static long[] broadcast(OpAttrs a, long[][] in) {
        long[] out = in[0].clone();
        for (int i = 1; i < in.length; i++) out = broadcast(out, in[i]);
        return out;
    }

    /**
     * Whether {@code from} broadcasts unidirectionally to {@code to} (ONNX "Broadcasting in ONNX",
     * unidirectional: aligned from the right, each axis of {@code from} 1 or {@code to}'s extent, no
     * more axes than {@code to}).
     */
    public static boolean broadcastsTo(long[] from, long[] to) {
        if (from.length > to.length) return false;
        for (int d = 1; d <= from.length; d++) if (from[from.length - d] != 1 && from[from.length - d] != to[to.length - d]) return false;
        return true;
    }

    public static long[] broadcast(long[] a, long[] b) {
        int r = Math.max(a.length, b.length);
        long[] out = new long[r];
        for (int i = 0; i < r; i++) {
            long da = i < r - a.length ? 1 : a[i - (r - a.length)];
            long db = i < r - b.length ? 1 : b[i - (r - b.length)];
            if (da != db && da != 1 && db != 1) throw new GraphException("shapes " + Arrays.toString(a) + " and " + Arrays.toString(b) + " do not broadcast");
            out[i] = da == 1 ? db : da;
        }
        return out;
    }

    /** numpy.matmul: 1-D operands are promoted and the added axis removed; leading axes broadcast. */
    public static long[] matmul(OpAttrs attrs, long[][] in) {
        long[] a = in[0], b = in[1];
        if (a.length == 0 || b.length == 0) throw new GraphException("MatMul operands must not be scalars, got " + Arrays.toString(a) + " and " + Arrays.toString(b));
        long[] pa = a.length == 1 ? new long[]{1, a[0]} : a;
        long[] pb = b.length == 1 ? new long[]{b[0], 1} : b;
        if (pa[pa.length - 1] != pb[pb.length - 2])
            throw new GraphException("inner dimensions differ: " + Arrays.toString(a) + " x " + Arrays.toString(b));
        long[] lead = broadcast(Arrays.copyOf(pa, pa.length - 2), Arrays.copyOf(pb, pb.length - 2));
        long[] out = Arrays.copyOf(lead, lead.length + (a.length > 1 ? 1 : 0) + (b.length > 1 ? 1 : 0));
        int k = lead.length;
        if (a.length > 1) out[k++] = pa[pa.length - 2];
        if (b.length > 1) out[k] = pb[pb.length - 1];
        return out;
    }

    public static long[] gemm(OpAttrs attrs, long[][] in) {
        long[] a = in[0], b = in[1];
        if (a.length != 2 || b.length != 2) throw new GraphException("Gemm needs 2-D A and B, got " + Arrays.toString(a) + " and " + Arrays.toString(b));
        boolean ta = attrs.integer("transA") == 1, tb = attrs.integer("transB") == 1;
        long m = ta ? a[1] : a[0], k = ta ? a[0] : a[1], kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
        if (k != kb) throw new GraphException("inner dimensions differ: op(A) is [" + m + ", " + k + "], op(B) is [" + kb + ", " + n + "]");
        long[] out = {m, n};
        if (in.length > 2 && !Arrays.equals(broadcast(out, in[2]), out))
            throw new GraphException("C " + Arrays.toString(in[2]) + " does not broadcast to " + Arrays.toString(out));
        return out;
    }


    public static long[] batchNorm(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        if (x.length < 2) throw new GraphException("input " + Arrays.toString(x) + " has no channel axis");
        for (int i = 1; i < in.length; i++) {
            if (in[i].length != 1 || in[i][0] != x[1])
                throw new GraphException("input #" + i + " " + Arrays.toString(in[i]) + " must be [" + x[1] + "] (one value per channel)");
        }
        return x.clone();
    }

    /** Conv: X [N, C, spatial...], W [M, C/group, kernel...]; output [N, M, out...] by the window formula. */
    public static long[] conv(OpAttrs attrs, long[][] in) {
        long[] x = in[0], w = in[1];
        int spatial = image(x);
        if (w.length != x.length) throw new GraphException("weight " + Arrays.toString(w) + " must have the rank of the input " + Arrays.toString(x));
        long group = attrs.integer("group");
        if (x[1] != Math.multiplyExact(w[1], group))
            throw new GraphException("input channels " + x[1] + " must equal weight channels " + w[1] + " x group " + group);
        if (w[0] % group != 0) throw new GraphException("output channels " + w[0] + " must be a multiple of group " + group);
        long[] wk = Arrays.copyOfRange(w, 2, w.length);
        long[] kernel = attrs.has("kernel_shape") ? attrs.perAxis("kernel_shape", spatial) : wk;
        if (!Arrays.equals(kernel, wk)) throw new GraphException("kernel_shape " + Arrays.toString(kernel) + " differs from the weight " + Arrays.toString(w));
        if (in.length > 2 && (in[2].length != 1 || in[2][0] != w[0]))
            throw new GraphException("bias " + Arrays.toString(in[2]) + " must be [" + w[0] + "]");
        long[] out = windows(attrs, x, kernel, attrs.perAxis("dilations", spatial), false);
        out[1] = w[0];
        return out;
    }

    /**
     * MaxPool, AveragePool, LpPool: as {@link #windows}, and each pad smaller than the (dilated)
     * window, so that every window holds an input element: a window of padding alone has no max
     * (it came out -inf) and no average without its pads. ONNX Runtime refuses such pads
     * ({@code onnxruntime/core/providers/cpu/nn/pool_attributes.h}: "Pad should be smaller than
     * kernel", there against the undilated kernel); the ONNX reference fails on them.
     *
     * @throws GraphException when a pad reaches the window's extent, or as {@link #windows}
     */
    public static long[] pool(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        int spatial = image(x);
        long[] kernel = attrs.perAxis("kernel_shape", spatial), dil = attrs.perAxis("dilations", spatial), pads = attrs.perAxis("pads", spatial);
        long[] out = windows(attrs, x, kernel, dil, attrs.integer("ceil_mode") == 1);
        for (int i = 0; i < spatial; i++) {
            long effective = (kernel[i] - 1) * dil[i] + 1;   // fits: windows computed it exactly
            if (pads[i] >= effective || pads[i + spatial] >= effective)
                throw new GraphException("pads " + Arrays.toString(pads) + " on spatial axis " + i + " are not smaller than the window " + effective
                        + " (kernel " + kernel[i] + ", dilation " + dil[i] + "): a window would hold padding alone (ONNX Runtime refuses it too: pads must be smaller than the kernel)");
        }
        return out;
    }

    public static long[] globalPool(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        image(x);
        long[] out = new long[x.length];
        Arrays.fill(out, 1);
        out[0] = x[0];
        out[1] = x[1];
        return out;
    }

    /** {@code floor or ceil((in + padBegin + padEnd - ((k - 1) * d + 1)) / s) + 1}; with ceil_mode a window starting in the end padding is dropped. */
    private static long[] windows(OpAttrs attrs, long[] x, long[] kernel, long[] dil, boolean ceil) {
        int r = x.length - 2;
        long[] strides = attrs.perAxis("strides", r);
        long[] pads = attrs.perAxis("pads", r);
        long[] out = x.clone();
        for (int i = 0; i < r; i++) {
            long effective = Math.addExact(Math.multiplyExact(kernel[i] - 1, dil[i]), 1);
            long padded = Math.addExact(Math.addExact(x[2 + i], pads[i]), pads[i + r]);
            long span = padded - effective;
            if (span < 0) throw new GraphException("window " + effective + " (kernel " + kernel[i] + ", dilation " + dil[i]
                    + ") is larger than the padded input " + padded + " on spatial axis " + i);
            long o = (ceil ? Math.floorDiv(Math.addExact(span, strides[i] - 1), strides[i]) : span / strides[i]) + 1;
            if (ceil && Math.multiplyExact(o - 1, strides[i]) >= x[2 + i] + pads[i]) o--;
            out[2 + i] = o;
        }
        return out;
    }

    /** N x C x spatial...: the number of spatial axes. */
    static int image(long[] x) {
        if (x.length < 3) throw new GraphException("input " + Arrays.toString(x) + " must be N x C x spatial axes");
        return x.length - 2;
    }

    public static long[] concat(OpAttrs attrs, long[][] in) {
        long[] first = in[0];
        int axis = axis(attrs.integer("axis"), first.length, "axis");
        long[] out = first.clone();
        out[axis] = 0;
        for (long[] v : in) {
            if (v.length != first.length) throw new GraphException("input " + Arrays.toString(v) + " has another rank than " + Arrays.toString(first));
            for (int d = 0; d < v.length; d++)
                if (d != axis && v[d] != first[d]) throw new GraphException("input " + Arrays.toString(v) + " differs from " + Arrays.toString(first) + " outside axis " + axis);
            out[axis] = Math.addExact(out[axis], v[axis]);
        }
        return out;
    }

    /**
     * Concat's outputs: the inputs joined along {@code axis}; where {@code extents} is 1, then one int64 [1]
     * per input, the rows written up to and including that input, the last the output's runtime extent
     * ({@link BoundedFlows#CONCAT}).
     */
    public static long[][] concat(OpAttrs attrs, long[][] in, int outputs) {
        int want = attrs.integer("extents") == 1 ? 1 + in.length : 1;
        if (outputs != want) throw new GraphException("it has " + outputs + " outputs, where " + (want == 1 ? "extents 0 gives 1" : "extents 1 needs one runtime extent per input after the output: " + want));
        long[][] out = new long[outputs][];
        out[0] = concat(attrs, in);
        for (int k = 1; k < outputs; k++) out[k] = new long[]{1};
        return out;
    }

    public static long[] transpose(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        long[] perm = permutation(attrs, x.length);
        long[] out = new long[x.length];
        for (int i = 0; i < perm.length; i++) out[i] = x[(int) perm[i]];
        return out;
    }

    /** Transpose's perm, checked to be a permutation of 0..rank-1; default reverses the axes. */
    public static long[] permutation(OpAttrs attrs, int rank) {
        long[] perm = attrs.intsOrNull("perm");
        if (perm == null) {
            perm = new long[rank];
            for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
        }
        if (perm.length != rank) throw new GraphException("perm " + Arrays.toString(perm) + " must have " + rank + " entries");
        boolean[] seen = new boolean[rank];
        for (long p : perm) {
            if (p < 0 || p >= rank || seen[(int) p]) throw new GraphException("perm " + Arrays.toString(perm) + " is not a permutation of 0.." + (rank - 1));
            seen[(int) p] = true;
        }
        return perm;
    }

    /**
     * Split: the input cut along {@code axis} into {@code split} extents, or equal parts; where
     * {@code extents} is 1, each part's runtime extent (int64 [1]) follows the parts as an output
     * ({@link BoundedFlows#split}).
     */
    public static long[][] split(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0];
        int axis = axis(attrs.integer("axis"), x.length, "axis"), n = splitParts(attrs, outputs);
        long[] parts = splitExtents(attrs, x, axis, n);
        long[][] out = new long[outputs][];
        for (int k = 0; k < outputs; k++) {
            out[k] = k < n ? x.clone() : new long[]{1};
            if (k < n) out[k][axis] = parts[k];
        }
        return out;
    }

    /** Split's parts among its {@code outputs} outputs: half of them where {@code extents} is 1 (each part's runtime extent follows), else all. */
    public static int splitParts(OpAttrs attrs, int outputs) {
        if (attrs.integer("extents") != 1) return outputs;
        if (outputs % 2 != 0) throw new GraphException("extents 1 needs one runtime extent per part, but the op has " + outputs + " outputs");
        return outputs / 2;
    }

    /** The extents of Split's outputs along {@code axis}. */
    public static long[] splitExtents(OpAttrs attrs, long[] x, int axis, int outputs) {
        long[] parts = attrs.intsOrNull("split");
        if (parts == null) {
            if (x[axis] % outputs != 0) throw new GraphException("axis " + axis + " of " + Arrays.toString(x) + " does not split into " + outputs + " equal parts");
            parts = new long[outputs];
            Arrays.fill(parts, x[axis] / outputs);
        }
        if (parts.length != outputs) throw new GraphException("split " + Arrays.toString(parts) + " must have one extent per output (" + outputs + ")");
        long sum = 0;
        for (long p : parts) sum = Math.addExact(sum, p);
        if (sum != x[axis]) throw new GraphException("split " + Arrays.toString(parts) + " sums to " + sum + ", not to extent " + x[axis] + " of axis " + axis + " of " + Arrays.toString(x));
        return parts;
    }

    /** ReluGrad: dY and X have the output's shape. */
    public static long[] sameShapes(OpAttrs attrs, long[][] in) {
        for (long[] s : in) if (!Arrays.equals(s, in[0])) throw new GraphException("inputs " + Arrays.toString(in[0]) + " and " + Arrays.toString(s) + " must have one shape");
        return in[0].clone();
    }

    /** ONNX Gather: data.shape[:axis] + indices.shape + data.shape[axis+1:]. */
    public static long[] gather(OpAttrs attrs, long[][] in) {
        long[] d = in[0], idx = in[1];
        if (d.length == 0) throw new GraphException("Gather's data must have rank 1 or more");
        int a = axis(attrs.integer("axis"), d.length, "axis");
        long[] out = new long[d.length - 1 + idx.length];
        System.arraycopy(d, 0, out, 0, a);
        System.arraycopy(idx, 0, out, a, idx.length);
        System.arraycopy(d, a + 1, out, a + idx.length, d.length - a - 1);
        return out;
    }


    /** ConvBackwardData (dY, W): the gradient of Conv's X, whose shape attribute input_shape gives; checked by Conv's rule. */
    public static long[] convBackwardData(OpAttrs attrs, long[][] in) {
        long[] x = attrs.intsOrNull("input_shape");
        if (x == null) throw new GraphException("attribute 'input_shape' (the forward Conv's X) is required");
        long[] y = conv(attrs, new long[][]{x, in[1]});
        if (!Arrays.equals(y, in[0])) throw new GraphException("dY " + Arrays.toString(in[0]) + " is not the Conv output " + Arrays.toString(y) + " of input_shape " + Arrays.toString(x));
        return x.clone();
    }

    /** ConvBackwardFilter (X, dY): the gradient of Conv's W, [M, C/group, kernel_shape...]; checked by Conv's rule. */
    public static long[] convBackwardFilter(OpAttrs attrs, long[][] in) {
        long[] x = in[0], dy = in[1];
        long[] k = attrs.intsOrNull("kernel_shape");
        if (k == null) throw new GraphException("attribute 'kernel_shape' is required");
        long[] w = new long[2 + k.length];
        w[0] = dy[1];
        w[1] = x[1] / attrs.integer("group");
        System.arraycopy(k, 0, w, 2, k.length);
        long[] y = conv(attrs, new long[][]{x, w});
        if (!Arrays.equals(y, dy)) throw new GraphException("dY " + Arrays.toString(dy) + " is not the Conv output " + Arrays.toString(y));
        return w;
    }

    /** An axis in [-rank, rank) as a non-negative index. */
    public static int axis(long axis, int rank, String what) {
        if (axis < -rank || axis >= rank) throw new GraphException(what + " " + axis + " is out of range for rank " + rank);
        return (int) (axis < 0 ? axis + rank : axis);
    }
}
