package org.arenaplan.ops;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.ResizeModes;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;
import org.arenaplan.onnx.Windows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ONNX import of the image ops beyond Conv ({@link ImageOps}): the pools (windowed and
 * global, max, average and Lp), ConvTranspose, Resize and Upsample, with their version
 * differences between opsets 9 and 22 (ONNX Changelog.md):
 * <ul>
 *   <li>MaxPool gains {@code ceil_mode} and {@code dilations} at 10; AveragePool {@code ceil_mode} at
 *       10 and {@code dilations} at 19; LpPool both at 18.</li>
 *   <li>Upsample (9: X, scales) is deprecated from 10; Resize-10 takes X, scales with mode nearest
 *       or linear, both as Upsample: asymmetric coordinates, nearest rounding down when enlarging
 *       (up when shrinking, as ONNX Runtime); Resize-11 adds roi, sizes, cubic and every
 *       coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside and
 *       extrapolation_value; 13 makes roi and scales optional and drops tf_half_pixel_for_nn;
 *       18 adds antialias, axes and keep_aspect_ratio_policy; 19 adds half_pixel_symmetric.</li>
 * </ul>
 * Resize's scales, sizes and roi must be constants; they are resolved here into one scale, one
 * output extent and one roi interval per axis (as onnx's reference op_resize.py: sizes give
 * scale = size / extent; scales give extent floor(scale * extent)).
 *
 * <p>Col2Im (18) and AffineGrid (20) take their shapes as constant inputs. GridSample (16) is
 * 4-D with modes bilinear, nearest, bicubic; from 20 N-D (2 or 3 spatial axes here) with modes
 * linear, nearest, cubic (cubic on 2 spatial axes only, as ONNX Runtime).
 *
 * <p>Not handled: ConvTranspose with SAME padding that comes out
 * negative (stride larger than the dilated kernel), images with more than 3 spatial axes.
 */
final class ImageImports {
    private ImageImports() { }

    static Lowered pool(NodeContext n) {
        Value x = n.input(0);
        long[] in = image(n, x);
        n.require(n.hasAttr("kernel_shape"), "attribute 'kernel_shape' is required");
        String type = n.opType();
        long dilationsFrom = switch (type) {
            case "MaxPool" -> 10;
            case "AveragePool" -> 19;
            default -> 18;
        };
        long ceilFrom = type.equals("LpPool") ? 18 : 10;
        n.require(n.opset() >= dilationsFrom || !n.hasAttr("dilations"), "attribute 'dilations' needs opset " + dilationsFrom);
        n.require(n.opset() >= ceilFrom || !n.hasAttr("ceil_mode"), "attribute 'ceil_mode' needs opset " + ceilFrom);
        boolean ceil = n.flag("ceil_mode", false);
        Windows.Resolved r = Windows.resolve(n, in, n.ints("kernel_shape", null), true, ceil);
        Map<String, Object> attrs = ImageOps.windowAttrs(r);
        attrs.put("ceil_mode", ceil ? 1L : 0L);
        String kind;
        switch (type) {
            case "MaxPool" -> {
                kind = OpKinds.MAX_POOL;
                List<String> outs = n.node().outputs();
                if (outs.size() > 1 && !outs.get(1).isEmpty()) {   // Indices
                    attrs.put("storage_order", n.flag("storage_order", false) ? 1L : 0L);
                    long[] shape = ImageOps.concat(new long[]{x.dim(0), x.dim(1)}, r.out());
                    return new Lowered(kind, List.of(x.name()), List.of(NodeLowering.output(n, shape),
                            new Value(outs.get(1), DType.I64, shape)), attrs, false, List.of());
                }
            }
            case "AveragePool" -> {
                kind = OpKinds.AVERAGE_POOL;
                attrs.put("count_include_pad", n.flag("count_include_pad", false) ? 1L : 0L);
            }
            default -> {
                kind = ImageOps.LP_POOL;
                attrs.put("p", n.integer("p", 2));
            }
        }
        return NodeLowering.op(n, kind, List.of(x.name()), ImageOps.concat(new long[]{x.dim(0), x.dim(1)}, r.out()), attrs);
    }

    static Lowered globalPool(NodeContext n) {
        Value x = n.input(0);
        image(n, x);
        long[] out = new long[x.rank()];
        Arrays.fill(out, 1);
        out[0] = x.dim(0);
        out[1] = x.dim(1);
        String kind = switch (n.opType()) {
            case "GlobalMaxPool" -> ImageOps.GLOBAL_MAX_POOL;
            case "GlobalLpPool" -> ImageOps.GLOBAL_LP_POOL;
            default -> OpKinds.GLOBAL_AVERAGE_POOL;
        };
        Map<String, Object> attrs = kind.equals(ImageOps.GLOBAL_LP_POOL) ? Map.of("p", n.integer("p", 2)) : Map.of();
        return NodeLowering.op(n, kind, List.of(x.name()), out, attrs);
    }

    /**
     * ConvTranspose: X [N, C, in...], W [C, M/group, k...]. Without output_shape the output is
     * {@code stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - padBegin - padEnd};
     * SAME_UPPER/SAME_LOWER aim at {@code in * stride} (or output_shape) and put the odd pad at the
     * end/start; with explicit pads output_shape extends or crops the end.
     */
    static Lowered convTranspose(NodeContext n) {
        Value x = n.input(0), w = n.input(1);
        long[] in = image(n, x);
        int r = in.length;
        n.require(w.rank() == x.rank(), "weight " + w + " must have the rank of the input " + x);
        long group = n.integer("group");
        n.require(x.dim(1) == w.dim(0) && x.dim(1) % group == 0,
                "input channels " + x.dim(1) + " must equal the weight's first extent " + w.dim(0) + " and be a multiple of group " + group);
        long m = w.dim(1) * group;
        long[] wk = Arrays.copyOfRange(w.shape(), 2, w.rank());
        long[] kernel = n.ints("kernel_shape", wk);
        n.require(Arrays.equals(kernel, wk), "kernel_shape " + Arrays.toString(kernel) + " differs from the weight " + w);
        long[] strides = perAxis(n, "strides", r, 1), dil = perAxis(n, "dilations", r, 1), extra = perAxis(n, "output_padding", r, 0);
        long[] target = n.ints("output_shape", null);
        if (target != null) {
            n.require(target.length == r || target.length == r + 2, "output_shape " + Arrays.toString(target) + " must have " + r + " entries");
            target = Arrays.copyOfRange(target, target.length - r, target.length);
        }
        String autoPad = n.string("auto_pad", "NOTSET");
        long[] pads = new long[2 * r];
        long[] out = new long[r];
        for (int i = 0; i < r; i++) {
            n.require(strides[i] > 0 && dil[i] > 0 && extra[i] >= 0, "strides and dilations must be positive, output_padding not negative");
            long full = Math.addExact(Math.multiplyExact(strides[i], in[i] - 1) + extra[i], Math.multiplyExact(kernel[i] - 1, dil[i]) + 1);
            switch (autoPad) {
                case "SAME_UPPER", "SAME_LOWER" -> {
                    out[i] = target != null ? target[i] : Math.multiplyExact(in[i], strides[i]);
                    long total = full - out[i];
                    long half = Math.floorDiv(total, 2);
                    pads[i] = autoPad.equals("SAME_UPPER") ? half : total - half;
                    pads[i + r] = total - pads[i];
                }
                case "NOTSET", "VALID" -> {
                    if (autoPad.equals("NOTSET")) {
                        long[] explicit = n.ints("pads", new long[2 * r]);
                        n.require(explicit.length == 2 * r, "pads " + Arrays.toString(explicit) + " must have " + 2 * r + " entries");
                        pads[i] = explicit[i];
                        pads[i + r] = explicit[i + r];
                    }
                    out[i] = target != null ? target[i] : full - pads[i] - pads[i + r];
                    long more = out[i] - (full - pads[i] - pads[i + r]);   // output_shape past the formula: extend or crop the end
                    if (more >= 0) extra[i] += more;
                    else pads[i + r] -= more;
                }
                default -> throw n.error("auto_pad '" + autoPad + "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
            }
            n.require(pads[i] >= 0 && pads[i + r] >= 0, "pads " + Arrays.toString(pads) + " come out negative (stride " + strides[i]
                    + " beyond the dilated kernel with auto_pad " + autoPad + "), which is not supported");
            n.require(out[i] >= 0, "output extent " + out[i] + " on spatial axis " + i + " is negative");
        }
        List<String> inputs = new ArrayList<>(List.of(x.name(), w.name()));
        if (n.hasInput(2)) {
            n.require(n.input(2).rank() == 1 && n.input(2).dim(0) == m, "bias " + n.input(2) + " must be [" + m + "]");
            inputs.add(n.input(2).name());
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("kernel_shape", kernel);
        attrs.put("strides", strides);
        attrs.put("pads", pads);
        attrs.put("dilations", dil);
        attrs.put("group", group);
        attrs.put("output_padding", extra);
        return NodeLowering.op(n, ImageOps.CONV_TRANSPOSE, inputs, ImageOps.concat(new long[]{x.dim(0), m}, out), attrs);
    }

    /** Resize (opsets 10 to 19) and Upsample (9). */
    static Lowered resize(NodeContext n) {
        Value x = n.input(0);
        int rank = x.rank();
        n.require(rank >= 1, "input " + x + " must have at least one axis");
        for (String a : new String[]{"scales", "roi", "sizes"}) n.require(!n.hasAttr(a), "'" + a + "' is an input of " + n.opType() + ", not an attribute");
        boolean upsample = n.opType().equals("Upsample");
        n.require(!upsample || n.opset() < 10, "Upsample is deprecated from opset 10; use Resize");
        boolean v10 = upsample || n.opset() < 11;
        String mode = n.string("mode", "nearest");
        Map<String, Object> attrs = new LinkedHashMap<>();
        double[] scales;
        long[] sizes = null;
        double[] roi = null;
        long[] axes = null;
        String policy = "stretch";
        if (v10) {
            for (String a : n.node().attributes().keySet())
                n.require(a.equals("mode"), "attribute '" + a + "' is not one of " + n.opType() + "'s at opset " + n.opset() + " (only mode)");
            n.require(mode.equals("nearest") || mode.equals("linear"), "mode '" + mode + "' is not nearest or linear (opset " + n.opset() + ")");
            scales = n.constantReals(1, "scales");
            attrs.put("mode", mode);
            attrs.put("coordinate_transformation_mode", "asymmetric");
        } else {
            n.require(ResizeModes.code("mode", mode) >= 0, "mode '" + mode + "' is not one of " + ResizeModes.names("mode"));
            String ctm = n.string("coordinate_transformation_mode", "half_pixel");
            n.require(ResizeModes.code("coordinate_transformation_mode", ctm) >= 0
                            && !(ctm.equals("tf_half_pixel_for_nn") && n.opset() >= 13) && !(ctm.equals("half_pixel_symmetric") && n.opset() < 19),
                    "coordinate_transformation_mode '" + ctm + "' is not one of opset " + n.opset() + "'s");
            String nearest = n.string("nearest_mode", "round_prefer_floor");
            n.require(ResizeModes.code("nearest_mode", nearest) >= 0, "nearest_mode '" + nearest + "' is not one of " + ResizeModes.names("nearest_mode"));
            for (String a : new String[]{"antialias", "axes", "keep_aspect_ratio_policy"})
                n.require(n.opset() >= 18 || !n.hasAttr(a), "attribute '" + a + "' needs opset 18");
            boolean antialias = n.flag("antialias", false), exclude = n.flag("exclude_outside", false);
            n.require(!antialias || !mode.equals("nearest"), "antialias applies to linear and cubic modes only");
            policy = n.string("keep_aspect_ratio_policy", "stretch");
            n.require(List.of("stretch", "not_larger", "not_smaller").contains(policy), "keep_aspect_ratio_policy '" + policy + "' is not stretch, not_larger or not_smaller");
            axes = n.ints("axes", null);
            scales = nonEmpty(n, 2) ? n.constantReals(2, "scales") : null;
            sizes = nonEmpty(n, 3) ? n.constantInts(3, "sizes") : null;
            n.require((scales == null) != (sizes == null), "give exactly one of the inputs 'scales' and 'sizes'");
            if (ctm.equals("tf_crop_and_resize")) {
                n.require(nonEmpty(n, 1), "input 'roi' is required with tf_crop_and_resize");
                roi = n.constantReals(1, "roi");
            }
            attrs.put("mode", mode);
            attrs.put("coordinate_transformation_mode", ctm);
            attrs.put("nearest_mode", nearest);
            attrs.put("cubic_coeff_a", n.real("cubic_coeff_a", -0.75));
            attrs.put("exclude_outside", exclude ? 1L : 0L);
            attrs.put("extrapolation_value", n.real("extrapolation_value", 0.0));
            attrs.put("antialias", antialias ? 1L : 0L);
        }
        int[] axis = axes(n, axes, rank);
        int k = axis.length;
        n.require(scales == null || scales.length == k, "scales " + Arrays.toString(scales) + " must have " + k + " values");
        n.require(sizes == null || sizes.length == k, "sizes " + Arrays.toString(sizes) + " must have " + k + " values");
        n.require(roi == null || roi.length == 2 * k, "roi " + Arrays.toString(roi) + " must have " + 2 * k + " values");
        double[] scale = new double[rank];
        long[] out = x.shape();
        Arrays.fill(scale, 1.0);
        if (scales != null) {
            for (int j = 0; j < k; j++) {
                n.require(scales[j] > 0 && Double.isFinite(scales[j]), "scales " + Arrays.toString(scales) + " must be positive");
                scale[axis[j]] = scales[j];
                out[axis[j]] = (long) Math.floor(scales[j] * x.dim(axis[j]));
            }
        } else {
            for (int j = 0; j < k; j++) {
                n.require(sizes[j] >= 0 && x.dim(axis[j]) > 0, "sizes " + Arrays.toString(sizes) + " must not be negative, nor the input " + x + " empty");
                scale[axis[j]] = (double) sizes[j] / x.dim(axis[j]);
                out[axis[j]] = sizes[j];
            }
            if (!policy.equals("stretch")) {
                double s = policy.equals("not_larger") ? Double.MAX_VALUE : 0;
                for (int a : axis) s = policy.equals("not_larger") ? Math.min(s, scale[a]) : Math.max(s, scale[a]);
                for (int a : axis) {
                    scale[a] = s;
                    out[a] = (long) (s * x.dim(a) + 0.5);
                }
            }
        }
        if (v10) attrs.put("nearest_mode", nearestMode10(n, scale));
        attrs.put("scales", scale);
        if (roi != null) {
            double[] full = new double[2 * rank];
            Arrays.fill(full, rank, 2 * rank, 1.0);
            for (int j = 0; j < k; j++) {
                full[axis[j]] = roi[j];
                full[rank + axis[j]] = roi[k + j];
            }
            attrs.put("roi", full);
        }
        attrs.put("sizes", out);
        return NodeLowering.op(n, ImageOps.RESIZE, List.of(x.name()), out, attrs);
    }

    /** Col2Im (opset 18): image_shape and block_shape are constant inputs; dilations, pads, strides per spatial axis. */
    static Lowered col2im(NodeContext n) {
        Value x = n.input(0);
        long[] image = n.constantInts(1, "image_shape"), block = n.constantInts(2, "block_shape");
        int r = image.length;
        n.require(r >= 1 && r <= 3 && block.length == r, "image_shape " + Arrays.toString(image) + " and block_shape " + Arrays.toString(block)
                + " must have one extent per spatial axis, 1 to 3 of them");
        n.require(x.rank() == 3, "input " + x + " must be [N, C x block size, blocks]");
        long[] st = perAxis(n, "strides", r, 1), dil = perAxis(n, "dilations", r, 1);
        long[] pads = n.ints("pads", new long[2 * r]);
        n.require(pads.length == 2 * r, "pads " + Arrays.toString(pads) + " must have " + 2 * r + " entries");
        long k = 1, blocks = 1;
        for (int i = 0; i < r; i++) {
            n.require(image[i] >= 1 && block[i] >= 1 && st[i] >= 1 && dil[i] >= 1 && pads[i] >= 0 && pads[i + r] >= 0,
                    "image_shape, block_shape, strides and dilations must be positive, pads not negative");
            long span = image[i] + pads[i] + pads[i + r] - (block[i] - 1) * dil[i] - 1;
            n.require(span >= 0, "block " + block[i] + " does not fit the padded image on spatial axis " + i);
            k *= block[i];
            blocks *= span / st[i] + 1;
        }
        n.require(x.dim(1) % k == 0 && x.dim(2) == blocks, "input " + x + " must have a multiple of " + k + " channels and " + blocks + " blocks");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("image_shape", image);
        attrs.put("block_shape", block);
        attrs.put("dilations", dil);
        attrs.put("pads", pads);
        attrs.put("strides", st);
        return NodeLowering.op(n, ImageOps.COL2IM, List.of(x.name()), ImageOps.concat(new long[]{x.dim(0), x.dim(1) / k}, image), attrs);
    }

    /** AffineGrid (opset 20): size is a constant input [N, C, H, W] or [N, C, D, H, W]; align_corners. */
    static Lowered affineGrid(NodeContext n) {
        Value theta = n.input(0);
        long[] size = n.constantInts(1, "size");
        n.require(size.length == 4 || size.length == 5, "size " + Arrays.toString(size) + " must be [N, C, H, W] or [N, C, D, H, W]");
        int r = size.length - 2;
        n.require(theta.rank() == 3 && theta.dim(0) == size[0] && theta.dim(1) == r && theta.dim(2) == r + 1,
                "theta " + theta + " must be [" + size[0] + ", " + r + ", " + (r + 1) + "] for size " + Arrays.toString(size));
        for (long d : size) if (d < 1) throw n.error("size " + Arrays.toString(size) + " must be positive");
        long[] out = new long[r + 2];
        out[0] = size[0];
        System.arraycopy(size, 2, out, 1, r);
        out[r + 1] = r;
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("align_corners", n.integer("align_corners", 0));
        attrs.put("size", size);
        return NodeLowering.op(n, ImageOps.AFFINE_GRID, List.of(theta.name()), out, attrs);
    }

    /** GridSample: opsets 16 to 19 name the modes bilinear and bicubic and take 4-D X only; 20 names them linear and cubic, 4-D or 5-D. */
    static Lowered gridSample(NodeContext n) {
        Value x = n.input(0), g = n.input(1);
        int r = x.rank() - 2;
        n.require(r == 2 || (r == 3 && n.opset() >= 20), "X " + x + " must have 2 spatial axes" + (n.opset() >= 20 ? " or 3" : " before opset 20"));
        n.require(g.rank() == x.rank() && g.dim(0) == x.dim(0) && g.dim(g.rank() - 1) == r, "grid " + g + " must be [" + x.dim(0) + ", out..., " + r + "]");
        boolean v20 = n.opset() >= 20;
        String mode = n.string("mode", v20 ? "linear" : "bilinear");
        if (!v20) mode = switch (mode) {
            case "bilinear" -> "linear";
            case "bicubic" -> "cubic";
            case "nearest" -> mode;
            default -> throw n.error("mode '" + mode + "' is not bilinear, nearest or bicubic (opset " + n.opset() + ")");
        };
        n.require(ImageOps.GRID_MODES.contains(mode) && !(r == 3 && mode.equals("cubic")), "mode '" + mode + "' is not one of " + ImageOps.GRID_MODES
                + (r == 3 ? " (cubic is 2-D only)" : ""));
        String padding = n.string("padding_mode", "zeros");
        n.require(ImageOps.GRID_PADDINGS.contains(padding), "padding_mode '" + padding + "' is not one of " + ImageOps.GRID_PADDINGS);
        long align = n.flag("align_corners", false) ? 1 : 0;
        long[] out = x.shape();
        System.arraycopy(g.shape(), 1, out, 2, r);
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("mode", mode);
        attrs.put("padding_mode", padding);
        attrs.put("align_corners", align);
        return NodeLowering.op(n, ImageOps.GRID_SAMPLE, List.of(x.name(), g.name()), out, attrs);
    }

    /** Upsample and Resize-10 round nearest down when enlarging and up when shrinking (ONNX Runtime's "simple" mode). */
    private static String nearestMode10(NodeContext n, double[] scale) {
        boolean up = false, down = false;
        for (double s : scale) {
            up |= s > 1;
            down |= s < 1;
        }
        n.require(!(up && down), "nearest resizing that enlarges some axes and shrinks others is not supported before opset 11");
        return down ? "ceil" : "floor";
    }

    /** The axes Resize works on (all when absent), negative ones counted from the end; no repeats. */
    private static int[] axes(NodeContext n, long[] axes, int rank) {
        if (axes == null) {
            int[] all = new int[rank];
            for (int i = 0; i < rank; i++) all[i] = i;
            return all;
        }
        int[] a = new int[axes.length];
        boolean[] seen = new boolean[rank];
        for (int j = 0; j < axes.length; j++) {
            a[j] = n.axis(axes[j], rank, "axis");
            n.require(!seen[a[j]], "axes " + Arrays.toString(axes) + " repeat axis " + a[j]);
            seen[a[j]] = true;
        }
        return a;
    }

    /** Whether optional input {@code i} is given and holds values (an empty tensor stands for an omitted input). */
    private static boolean nonEmpty(NodeContext n, int i) {
        return n.hasInput(i) && n.input(i).elements() > 0;
    }

    /** The spatial extents of image {@code x}: 1 to 3 axes. */
    private static long[] image(NodeContext n, Value x) {
        long[] in = ImageOps.spatial(n, x);
        n.require(in.length <= 3, "input " + x + " has " + in.length + " spatial axes; 1 to 3 are supported");
        return in;
    }

    private static long[] perAxis(NodeContext n, String name, int r, long fill) {
        long[] dflt = new long[r];
        Arrays.fill(dflt, fill);
        long[] v = n.ints(name, dflt);
        n.require(v.length == r, name + " " + Arrays.toString(v) + " must have " + r + " entries");
        return v.clone();
    }
}
