package org.arenaplan.ir;

import java.util.Arrays;

/**
 * Shape rules of the image kinds beyond Conv and the pools ({@link ShapeRules}): ConvTranspose
 * and Resize. Each returns the output shape or throws {@link GraphException} naming what does
 * not fit.
 */
public final class ImageShapes {
    private ImageShapes() { }

    /**
     * ConvTranspose (ONNX Operators.md): X [N, C, in...], W [C, M/group, k...], optional B [M];
     * output [N, M, out...] with {@code out = stride * (in - 1) + output_padding + (k - 1) * dilation + 1
     * - padBegin - padEnd}.
     */
    public static long[] convTranspose(OpAttrs attrs, long[][] in) {
        long[] x = in[0], w = in[1];
        int spatial = ShapeRules.image(x);
        if (w.length != x.length) throw new GraphException("weight " + Arrays.toString(w) + " must have the rank of the input " + Arrays.toString(x));
        long group = attrs.integer("group");
        if (w[0] != x[1] || x[1] % group != 0)
            throw new GraphException("weight " + Arrays.toString(w) + " must have the input's " + x[1] + " channels first, a multiple of group " + group);
        long m = Math.multiplyExact(w[1], group);
        long[] wk = Arrays.copyOfRange(w, 2, w.length);
        long[] kernel = attrs.has("kernel_shape") ? attrs.perAxis("kernel_shape", spatial) : wk;
        if (!Arrays.equals(kernel, wk)) throw new GraphException("kernel_shape " + Arrays.toString(kernel) + " differs from the weight " + Arrays.toString(w));
        if (in.length > 2 && (in[2].length != 1 || in[2][0] != m))
            throw new GraphException("bias " + Arrays.toString(in[2]) + " must be [" + m + "]");
        long[] strides = attrs.perAxis("strides", spatial), pads = attrs.perAxis("pads", spatial);
        long[] dil = attrs.perAxis("dilations", spatial), extra = attrs.perAxis("output_padding", spatial);
        long[] out = x.clone();
        out[1] = m;
        for (int i = 0; i < spatial; i++) {
            long effective = Math.addExact(Math.multiplyExact(kernel[i] - 1, dil[i]), 1);
            long o = Math.addExact(Math.addExact(Math.multiplyExact(strides[i], x[2 + i] - 1), extra[i]), effective) - pads[i] - pads[i + spatial];
            if (o < 0 || x[2 + i] < 1) throw new GraphException("output extent " + o + " on spatial axis " + i + " is negative (input " + Arrays.toString(x) + ")");
            out[2 + i] = o;
        }
        return out;
    }

    /** Resize: the output is {@code sizes}; scales (positive) and roi (when given) have one value, two for roi, per axis. */
    public static long[] resize(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        long[] sizes = attrs.intsOrNull("sizes");
        if (sizes == null) throw new GraphException("attribute 'sizes' (the output's shape) is required");
        Object scales = attrs.op().attrs().get("scales"), roi = attrs.op().attrs().get("roi");
        if (sizes.length != x.length || !(scales instanceof double[] s) || s.length != x.length)
            throw new GraphException("attributes 'sizes' and 'scales' must have one value per axis of " + Arrays.toString(x));
        for (double v : s) if (!(v > 0)) throw new GraphException("attribute 'scales' " + Arrays.toString(s) + " must be positive");
        if (roi != null && (!(roi instanceof double[] r) || r.length != 2 * x.length))
            throw new GraphException("attribute 'roi' must have " + 2 * x.length + " values (starts, then ends)");
        for (String a : new String[]{"mode", "coordinate_transformation_mode", "nearest_mode"}) {
            Object v = attrs.op().attrs().get(a);
            if (v != null && ResizeModes.code(a, v.toString()) < 0)
                throw new GraphException("attribute '" + a + "' = '" + v + "' is not one of " + ResizeModes.names(a));
        }
        return sizes.clone();
    }

    /** Col2Im: X [N, C * prod(block_shape), prod(blocks)] to [N, C, image_shape...]; blocks per axis by the window formula. */
    public static long[] col2im(OpAttrs attrs, long[][] in) {
        long[] x = in[0], image = attrs.intsOrNull("image_shape"), block = attrs.intsOrNull("block_shape");
        if (image == null || block == null || image.length != block.length || image.length < 1)
            throw new GraphException("attributes 'image_shape' and 'block_shape' are required, one extent per spatial axis each");
        int r = image.length;
        if (x.length != 3) throw new GraphException("input " + Arrays.toString(x) + " must be [N, C x block size, blocks]");
        long k = 1, blocks = 1;
        long[] st = attrs.perAxis("strides", r), pads = attrs.perAxis("pads", r), dil = attrs.perAxis("dilations", r);
        for (int i = 0; i < r; i++) {
            k = Math.multiplyExact(k, block[i]);
            long span = Math.addExact(image[i], pads[i] + pads[i + r]) - Math.addExact(Math.multiplyExact(block[i] - 1, dil[i]), 1);
            if (span < 0) throw new GraphException("block " + block[i] + " (dilation " + dil[i] + ") is larger than the padded image on spatial axis " + i);
            blocks = Math.multiplyExact(blocks, span / st[i] + 1);
        }
        if (x[1] % k != 0 || x[2] != blocks)
            throw new GraphException("input " + Arrays.toString(x) + " must have a multiple of " + k + " channels and " + blocks + " blocks");
        long[] out = new long[2 + r];
        out[0] = x[0];
        out[1] = x[1] / k;
        System.arraycopy(image, 0, out, 2, r);
        return out;
    }

    /** AffineGrid: theta [N, 2, 3] with size [N, C, H, W] gives [N, H, W, 2]; theta [N, 3, 4] with size [N, C, D, H, W] gives [N, D, H, W, 3]. */
    public static long[] affineGrid(OpAttrs attrs, long[][] in) {
        long[] t = in[0], size = attrs.intsOrNull("size");
        if (size == null || (size.length != 4 && size.length != 5)) throw new GraphException("attribute 'size' must be [N, C, H, W] or [N, C, D, H, W]");
        int r = size.length - 2;
        if (t.length != 3 || t[0] != size[0] || t[1] != r || t[2] != r + 1)
            throw new GraphException("theta " + Arrays.toString(t) + " must be [" + size[0] + ", " + r + ", " + (r + 1) + "] for size " + Arrays.toString(size));
        long[] out = new long[r + 2];
        out[0] = size[0];
        System.arraycopy(size, 2, out, 1, r);
        out[r + 1] = r;
        return out;
    }

    /** GridSample: X [N, C, in...] (2 or 3 spatial axes) and grid [N, out..., spatial] give [N, C, out...]. */
    public static long[] gridSample(OpAttrs attrs, long[][] in) {
        long[] x = in[0], g = in[1];
        int r = x.length - 2;
        if ((r != 2 && r != 3) || g.length != x.length || g[0] != x[0] || g[g.length - 1] != r)
            throw new GraphException("X " + Arrays.toString(x) + " and grid " + Arrays.toString(g) + " must be [N, C, 2 or 3 spatial axes] and [N, out..., that many]");
        long[] out = x.clone();
        System.arraycopy(g, 1, out, 2, r);
        return out;
    }
}
