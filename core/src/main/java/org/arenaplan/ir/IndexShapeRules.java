package org.arenaplan.ir;

import java.util.Arrays;

/**
 * The shape rules of the shape and index kinds of {@link OpRegistry} (Slice, Expand, Tile, Pad,
 * Trilu, GatherElements, ScatterElements, GatherND, ScatterND, OneHot, DepthToSpace,
 * SpaceToDepth), after the ONNX operator specifications (https://onnx.ai/onnx/operators/, the
 * versions up to opset 21). Each throws {@link GraphException} with the reason; arithmetic is
 * overflow-checked.
 */
public final class IndexShapeRules {
    private IndexShapeRules() { }

    /** The first source index, step and element count of one sliced axis. */
    public record Range(long start, long step, long count) { }

    /**
     * ONNX Slice on every axis of {@code x} (axes not listed: all of them, step 1): a negative
     * start or end counts from the end; with a positive step start and end are clamped to
     * [0, n], with a negative one start to [0, n - 1] and end to [-1, n - 1].
     */
    public static Range[] slice(OpAttrs a, long[] x) {
        long[] starts = a.intsOrNull("starts"), ends = a.intsOrNull("ends"), axes = a.intsOrNull("axes"), steps = a.intsOrNull("steps");
        if (starts == null || ends == null) throw new GraphException("attributes 'starts' and 'ends' are required");
        if (ends.length != starts.length) throw new GraphException("starts " + Arrays.toString(starts) + " and ends " + Arrays.toString(ends) + " differ in length");
        if (axes == null) {
            axes = new long[starts.length];
            for (int i = 0; i < axes.length; i++) axes[i] = i;
        }
        if (steps == null) {
            steps = new long[starts.length];
            Arrays.fill(steps, 1);
        }
        if (axes.length != starts.length || steps.length != starts.length)
            throw new GraphException("starts, ends, axes and steps must have one length, got " + starts.length + ", " + ends.length + ", " + axes.length + ", " + steps.length);
        Range[] r = new Range[x.length];
        for (int d = 0; d < x.length; d++) r[d] = new Range(0, 1, x[d]);
        boolean[] seen = new boolean[x.length];
        for (int i = 0; i < starts.length; i++) {
            int d = ShapeRules.axis(axes[i], x.length, "axis");
            if (seen[d]) throw new GraphException("axis " + axes[i] + " is sliced twice");
            seen[d] = true;
            if (steps[i] == 0) throw new GraphException("step 0 on axis " + d);
            r[d] = CountedSlice.range(starts[i], ends[i], steps[i], x[d]);
        }
        return r;
    }

    /** Slice: the output extents of {@link #slice}; null for a Slice without starts (a declared view, shaped by its declaration). */
    public static long[] sliceShape(OpAttrs a, long[][] in) {
        if (!a.has("starts") && !a.has("ends")) return null;
        Range[] r = slice(a, in[0]);
        long[] out = new long[r.length];
        for (int d = 0; d < r.length; d++) out[d] = r[d].count();
        return out;
    }

    /**
     * Why a Slice with starts may not be a view of {@code x} at {@code byteOffset}, or null: a view
     * must be whole rows along the leading axis (every other axis whole, step 1 on axis 0) at
     * the first sliced row.
     */
    public static String sliceViewProblem(OpAttrs a, Tensor x, long byteOffset) {
        Range[] r = slice(a, x.shape());
        long rows = x.shape()[0], rowBytes = rows == 0 ? 0 : x.bytes() / rows;
        for (int d = 1; d < r.length; d++)
            if (r[d].count() != x.shape()[d] || r[d].start() != 0 || (r[d].step() != 1 && r[d].count() > 1))
                return "Slice copies a strided part of '" + x.name() + "' (axis " + d + " is not whole), not whole leading rows";
        if (r.length == 0 || (r[0].step() != 1 && r[0].count() > 1)) return "Slice with step " + (r.length == 0 ? 1 : r[0].step()) + " on axis 0 is not contiguous";
        long at = Math.multiplyExact(r[0].start(), rowBytes);
        return byteOffset == at ? null : "Slice reads its rows from byte " + at + " of '" + x.name() + "', not " + byteOffset;
    }

    /** Expand: the input broadcast with attribute 'shape' (numpy rules; the result may have the higher rank of the two). */
    public static long[] expand(OpAttrs a, long[][] in) {
        long[] shape = a.intsOrNull("shape");
        if (shape == null) throw new GraphException("attribute 'shape' is required");
        return ShapeRules.broadcast(in[0], shape);
    }

    /** Tile: extent d times repeats[d]. */
    public static long[] tile(OpAttrs a, long[][] in) {
        long[] x = in[0], rep = a.intsOrNull("repeats");
        if (rep == null || rep.length != x.length) throw new GraphException("attribute 'repeats' must have one value per axis of " + Arrays.toString(x));
        long[] out = new long[x.length];
        for (int d = 0; d < x.length; d++) out[d] = Math.multiplyExact(x[d], rep[d]);
        return out;
    }

    /** The codes of Pad's modes, as the pad kernel takes them. */
    public static int padMode(String mode) {
        return switch (mode) {
            case "constant" -> 0;
            case "reflect" -> 1;
            case "edge" -> 2;
            case "wrap" -> 3;
            default -> throw new GraphException("mode '" + mode + "' is not constant, reflect, edge or wrap");
        };
    }

    /** Pad: extent d plus pads[d] (begin) and pads[d + rank] (end); negative pads crop. Optional input 1: the constant, one element. */
    public static long[] pad(OpAttrs a, long[][] in) {
        long[] x = in[0], pads = a.intsOrNull("pads");
        if (pads == null || pads.length != 2 * x.length) throw new GraphException("attribute 'pads' must have 2 x " + x.length + " values (begins, then ends)");
        int mode = padMode(string(a, "mode", "constant"));
        if (in.length > 1 && product(in[1]) != 1) throw new GraphException("constant_value " + Arrays.toString(in[1]) + " must hold one element");
        long[] out = new long[x.length];
        for (int d = 0; d < x.length; d++) {
            out[d] = Math.addExact(Math.addExact(x[d], pads[d]), pads[d + x.length]);
            if (out[d] < 0) throw new GraphException("pads " + Arrays.toString(pads) + " crop axis " + d + " of " + Arrays.toString(x) + " below nothing");
            if (mode != 0 && x[d] == 0 && out[d] > 0) throw new GraphException(string(a, "mode", "") + " padding of empty axis " + d + " has nothing to repeat");
        }
        return out;
    }

    /** Trilu: the input's shape, rank 2 or more. */
    public static long[] trilu(OpAttrs a, long[][] in) {
        if (in[0].length < 2) throw new GraphException("input " + Arrays.toString(in[0]) + " must have rank 2 or more");
        return in[0].clone();
    }

    /** GatherElements: indices' shape; data and indices of one rank. */
    public static long[] gatherElements(OpAttrs a, long[][] in) {
        sameRank(in[0], in[1], a);
        return in[1].clone();
    }

    /** ScatterElements: data's shape; indices and updates of one shape, data's rank. */
    public static long[] scatterElements(OpAttrs a, long[][] in) {
        sameRank(in[0], in[1], a);
        if (!Arrays.equals(in[1], in[2])) throw new GraphException("indices " + Arrays.toString(in[1]) + " and updates " + Arrays.toString(in[2]) + " must have one shape");
        reduction(a);
        return in[0].clone();
    }

    private static void sameRank(long[] data, long[] idx, OpAttrs a) {
        if (data.length == 0 || idx.length != data.length)
            throw new GraphException("data " + Arrays.toString(data) + " and indices " + Arrays.toString(idx) + " must have one rank, at least 1");
        int axis = ShapeRules.axis(a.integer("axis"), data.length, "axis");
        for (int d = 0; d < data.length; d++)
            if (d != axis && idx[d] > data[d]) throw new GraphException("indices " + Arrays.toString(idx) + " exceed data " + Arrays.toString(data) + " on axis " + d);
    }

    /** The code of a scatter reduction: 0 none, 1 add, 2 mul, 3 max, 4 min. */
    public static int reduction(OpAttrs a) {
        String r = string(a, "reduction", "none");
        return switch (r) {
            case "none" -> 0;
            case "add" -> 1;
            case "mul" -> 2;
            case "max" -> 3;
            case "min" -> 4;
            default -> throw new GraphException("reduction '" + r + "' is not none, add, mul, max or min");
        };
    }

    /** GatherND (batch_dims b): data[:b] + indices[b:-1] + data[b + k:], k = indices' last extent. */
    public static long[] gatherNd(OpAttrs a, long[][] in) {
        long[] data = in[0], idx = in[1];
        int b = (int) a.integer("batch_dims");
        int k = ndDepth(data, idx, b);
        long[] out = new long[idx.length - 1 + data.length - b - k];
        System.arraycopy(idx, 0, out, 0, idx.length - 1);
        System.arraycopy(data, b + k, out, idx.length - 1, data.length - b - k);
        return out;
    }

    /** The index depth k of GatherND/ScatterND, checked. */
    public static int ndDepth(long[] data, long[] idx, int b) {
        if (idx.length < 1 || b >= idx.length || b > data.length) throw new GraphException("indices " + Arrays.toString(idx) + " need rank above batch_dims " + b);
        for (int d = 0; d < b; d++)
            if (idx[d] != data[d]) throw new GraphException("batch axis " + d + " of indices " + Arrays.toString(idx) + " differs from data " + Arrays.toString(data));
        long k = idx[idx.length - 1];
        if (k < 1 || b + k > data.length) throw new GraphException("indices' last extent " + k + " must be 1.." + (data.length - b) + " for data " + Arrays.toString(data));
        return (int) k;
    }

    /** ScatterND: data's shape; updates = indices[:-1] + data[k:]. */
    public static long[] scatterNd(OpAttrs a, long[][] in) {
        long[] data = in[0], idx = in[1], upd = in[2];
        int k = ndDepth(data, idx, 0);
        long[] want = new long[idx.length - 1 + data.length - k];
        System.arraycopy(idx, 0, want, 0, idx.length - 1);
        System.arraycopy(data, k, want, idx.length - 1, data.length - k);
        if (!Arrays.equals(want, upd)) throw new GraphException("updates " + Arrays.toString(upd) + " must be " + Arrays.toString(want));
        reduction(a);
        return data.clone();
    }

    /** OneHot: indices' shape with 'depth' inserted at 'axis' (of the output's rank); values hold [off, on]. */
    public static long[] oneHot(OpAttrs a, long[][] in) {
        long[] idx = in[0];
        if (product(in[1]) != 2) throw new GraphException("values " + Arrays.toString(in[1]) + " must hold two elements (off, on)");
        int axis = ShapeRules.axis(a.integer("axis"), idx.length + 1, "axis");
        long[] out = new long[idx.length + 1];
        for (int d = 0, j = 0; d < out.length; d++) out[d] = d == axis ? a.integer("depth") : idx[j++];
        return out;
    }

    /** DepthToSpace: [N, C, H, W] to [N, C / b^2, H b, W b]. */
    public static long[] depthToSpace(OpAttrs a, long[][] in) {
        long[] x = image(in[0]);
        long b = a.integer("blocksize"), bb = Math.multiplyExact(b, b);
        if (x[1] % bb != 0) throw new GraphException("channels " + x[1] + " are not a multiple of blocksize^2 " + bb);
        String mode = string(a, "mode", "DCR");
        if (!mode.equals("DCR") && !mode.equals("CRD")) throw new GraphException("mode '" + mode + "' is not DCR or CRD");
        return new long[]{x[0], x[1] / bb, Math.multiplyExact(x[2], b), Math.multiplyExact(x[3], b)};
    }

    /** SpaceToDepth: [N, C, H, W] to [N, C b^2, H / b, W / b]. */
    public static long[] spaceToDepth(OpAttrs a, long[][] in) {
        long[] x = image(in[0]);
        long b = a.integer("blocksize");
        if (x[2] % b != 0 || x[3] % b != 0) throw new GraphException("height and width of " + Arrays.toString(x) + " are not multiples of blocksize " + b);
        return new long[]{x[0], Math.multiplyExact(x[1], Math.multiplyExact(b, b)), x[2] / b, x[3] / b};
    }

    private static long[] image(long[] x) {
        if (x.length != 4) throw new GraphException("input " + Arrays.toString(x) + " must be N x C x H x W");
        return x;
    }

    /** A string attribute, or {@code dflt}. */
    public static String string(OpAttrs a, String name, String dflt) {
        Object v = a.op().attrs().get(name);
        return v instanceof String s ? s : dflt;
    }

    private static long product(long[] s) {
        long p = 1;
        for (long d : s) p = Math.multiplyExact(p, d);
        return p;
    }
}
