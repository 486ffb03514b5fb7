package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.ResizeModes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The kernel calls of the N-d image kinds ({@link ImageOps}): Conv on 3-D images and
 * ConvTranspose ({@link Kernels#CONV_ND}), every pooling kind ({@link Kernels#POOL}) and Resize
 * ({@link Kernels#RESIZE}), with the layouts documented in {@link Kernels}, of the element types
 * the definitions declare ({@code ImageOps.HALF}; Resize and the rest f32 only, {@code lowerF32}).
 */
final class ImageCalls {
    private ImageCalls() { }

    /** Conv ({@code transposed} false; W is M x C/group x k...) or ConvTranspose (true; W is C x M/group x k...). */
    static KernelCall conv(Op op, OpLowering lowering, boolean transposed) {
        String x = op.inputs().get(0), w = op.inputs().get(1), y = op.outputs().get(0);
        boolean bias = op.inputs().size() > 2;
        long[] ints = convGeometry(op, lowering, x, w, y, bias, transposed);
        List<KernelArg> args = new ArrayList<>(List.of(lowering.read(x), lowering.read(w)));
        if (bias) args.add(lowering.read(op.inputs().get(2)));
        args.add(lowering.write(y));
        return new KernelCall(Kernels.CONV_ND, args, Kernels.withType(Kernels.CONV_ND, ints, lowering.computeType(op).onnxCode()), new double[0], op.name());
    }

    /** {@link Kernels#CONV_ND}'s ints for x by w giving y (also the tail of {@link Kernels#QCONV}'s). */
    static long[] convGeometry(Op op, OpLowering lowering, String x, String w, String y, boolean bias, boolean transposed) {
        long[] xs = lowering.shape(op, x), ys = lowering.shape(op, y), ws = lowering.shape(op, w);
        int rank = spatial(op, xs);
        long[] k = perAxis(op, "kernel_shape", rank, Arrays.copyOfRange(ws, 2, ws.length));
        long[] st = perAxis(op, "strides", rank, null), pads = perAxis(op, "pads", rank, null), dil = perAxis(op, "dilations", rank, null);
        long[] ints = new long[7 + 6 * rank];
        long[] head = {rank, xs[0], xs[1], ys[1], OpAttrs.of(op).integer("group"), bias ? 1 : 0, transposed ? 1 : 0};
        System.arraycopy(head, 0, ints, 0, head.length);
        for (int d = 0; d < rank; d++) {
            long[] a = {xs[2 + d], ys[2 + d], k[d], st[d], pads[d], dil[d]};
            System.arraycopy(a, 0, ints, 7 + 6 * d, a.length);
        }
        return ints;
    }

    /** MaxPool: the maxima (of a type MaxPool declares it computes) and, when output 1 is read, their int64 Indices. */
    static List<KernelCall> maxPool(Op op, OpLowering lowering) {
        lowering.requireComputed(op, op.inputs().get(0));
        lowering.requireComputed(op, op.outputs().get(0));
        KernelCall values = pool(op, lowering, Kernels.MAX, false);
        if (op.outputs().size() < 2 || !op.writesAtRuntime(1)) return List.of(values);
        String indices = op.outputs().get(1);
        if (lowering.dtype(indices) != org.arenaplan.ir.DType.I64) throw fail(op, "Indices '" + indices + "' must be int64");
        int poolInts = 5 + 7 * (int) values.ints()[0];
        long[] ints = java.util.Arrays.copyOf(values.ints(), poolInts + 1);
        ints[poolInts] = OpAttrs.of(op).integer("storage_order");
        return List.of(values, new KernelCall(Kernels.POOL_INDICES, List.of(lowering.read(op.inputs().get(0)), lowering.write(indices)),
                Kernels.withType(Kernels.POOL_INDICES, ints, lowering.computeType(op).onnxCode()), new double[0], op.name()));
    }

    /**
     * MaxPool, AveragePool, LpPool, GlobalAveragePool and GlobalLpPool (GlobalMaxPool is a ReduceMax: ReductionOps#spatialMax): {@code mode} ({@link Kernels#MAX},
     * {@link Kernels#AVERAGE} or {@link Kernels#LP}) and {@code global} are declared by the
     * kind's definition ({@code ImageOps}), never read from its name.
     */
    static KernelCall pool(Op op, OpLowering lowering, int mode, boolean global) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        long[] xs = lowering.shape(op, x), ys = lowering.shape(op, y);
        int rank = spatial(op, xs);
        long[] in = Arrays.copyOfRange(xs, 2, xs.length);
        long[] k = global ? in : perAxis(op, "kernel_shape", rank, null);
        long[] ones = new long[rank];
        Arrays.fill(ones, 1);
        long[] st = global ? ones : perAxis(op, "strides", rank, null), dil = global ? ones : perAxis(op, "dilations", rank, null);
        long[] pads = global ? new long[2 * rank] : perAxis(op, "pads", rank, null);
        OpAttrs at = OpAttrs.of(op);
        long include = mode == Kernels.AVERAGE && !global ? at.integer("count_include_pad") : 0;
        long p = mode == Kernels.LP ? at.integer("p") : 0;
        long[] ints = new long[5 + 7 * rank];
        long[] head = {rank, xs[0] * xs[1], mode, include, p};
        System.arraycopy(head, 0, ints, 0, head.length);
        for (int d = 0; d < rank; d++) {
            long[] a = {in[d], ys[2 + d], k[d], st[d], pads[d], pads[rank + d], dil[d]};
            System.arraycopy(a, 0, ints, 5 + 7 * d, a.length);
        }
        return new KernelCall(Kernels.POOL, List.of(lowering.read(x), lowering.write(y)), Kernels.withType(Kernels.POOL, ints, lowering.computeType(op).onnxCode()),
                new double[0], op.name());
    }

    /** Resize: ints [rank, mode, coordinate mode, nearest mode, excludeOutside, antialias, per axis in, out, scale, roi start, roi end (double bits)]. */
    static KernelCall resize(Op op, OpLowering lowering) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        long[] xs = lowering.shape(op, x), ys = lowering.shape(op, y);
        int rank = xs.length;
        if (rank < 1 || rank > 6 || ys.length != rank) throw fail(op, "resize takes ranks 1 to 6 and keeps the rank, got " + Arrays.toString(xs) + " to " + Arrays.toString(ys));
        OpAttrs at = OpAttrs.of(op);
        double[] scales = reals(op, "scales", rank, null);
        double[] roi = new double[2 * rank];
        Arrays.fill(roi, rank, 2 * rank, 1.0);
        roi = reals(op, "roi", 2 * rank, roi);
        long[] ints = new long[6 + 5 * rank];
        ints[0] = rank;
        ints[1] = code(op, "mode", "nearest");
        ints[2] = code(op, "coordinate_transformation_mode", "half_pixel");
        ints[3] = code(op, "nearest_mode", "round_prefer_floor");
        ints[4] = at.integer("exclude_outside");
        ints[5] = at.integer("antialias");
        for (int d = 0; d < rank; d++) {
            long[] a = {xs[d], ys[d], Double.doubleToRawLongBits(scales[d]), Double.doubleToRawLongBits(roi[d]), Double.doubleToRawLongBits(roi[rank + d])};
            System.arraycopy(a, 0, ints, 6 + 5 * d, a.length);
        }
        return new KernelCall(Kernels.RESIZE, List.of(lowering.read(x), lowering.write(y)), Kernels.withType(Kernels.RESIZE, ints, lowering.computeType(op).onnxCode()),
                new double[]{at.real("cubic_coeff_a"), at.real("extrapolation_value")}, op.name());
    }

    private static int code(Op op, String attr, String dflt) {
        Object v = op.attrs().get(attr);
        int c = ResizeModes.code(attr, v == null ? dflt : v.toString());
        if (c < 0) throw fail(op, "attribute '" + attr + "' = '" + v + "' is not one of " + ResizeModes.names(attr));
        return c;
    }

    private static double[] reals(Op op, String attr, int n, double[] dflt) {
        Object v = op.attrs().get(attr);
        if (v == null && dflt != null) return dflt;
        if (!(v instanceof double[] d) || d.length != n) throw fail(op, "attribute '" + attr + "' must be " + n + " numbers");
        return d;
    }

    /** The number of spatial axes of image shape {@code xs}: 1 to 3. */
    private static int spatial(Op op, long[] xs) {
        if (xs.length < 3 || xs.length > 5) throw fail(op, "input " + Arrays.toString(xs) + " is not an N x C x spatial image with 1 to 3 spatial axes");
        return xs.length - 2;
    }

    private static long[] perAxis(Op op, String name, int rank, long[] dflt) {
        if (dflt != null && !OpAttrs.of(op).has(name)) return dflt;
        try {
            return OpAttrs.of(op).perAxis(name, rank);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
    }

    private static ExecutionException fail(Op op, String why) {
        return OpLowering.fail(op, why);
    }

    /** Col2Im: ints [rank, N, C, per axis image, blocks, k, stride, padBegin, dilation]. */
    static KernelCall col2im(Op op, OpLowering lowering) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        long[] xs = lowering.shape(op, x), ys = lowering.shape(op, y);
        OpAttrs at = OpAttrs.of(op);
        long[] image = at.intsOrNull("image_shape"), k = at.intsOrNull("block_shape");
        int rank = image.length;
        if (rank > 3) throw fail(op, "Col2Im runs on 1 to 3 spatial axes, not " + rank);
        long[] st = perAxis(op, "strides", rank, null), pads = perAxis(op, "pads", rank, null), dil = perAxis(op, "dilations", rank, null);
        long[] ints = new long[3 + 6 * rank];
        ints[0] = rank;
        ints[1] = xs[0];
        ints[2] = ys[1];
        for (int d = 0; d < rank; d++) {
            long blocks = (image[d] + pads[d] + pads[rank + d] - (k[d] - 1) * dil[d] - 1) / st[d] + 1;
            long[] a = {image[d], blocks, k[d], st[d], pads[d], dil[d]};
            System.arraycopy(a, 0, ints, 3 + 6 * d, a.length);
        }
        return new KernelCall(Kernels.COL2IM, List.of(lowering.read(x), lowering.write(y)), ints, new double[0], op.name());
    }

    /** AffineGrid: ints [N, rank, spatial extents, alignCorners]. */
    static KernelCall affineGrid(Op op, OpLowering lowering) {
        String t = op.inputs().get(0), y = op.outputs().get(0);
        long[] size = OpAttrs.of(op).intsOrNull("size");
        int r = size.length - 2;
        long[] ints = new long[3 + r];
        ints[0] = size[0];
        ints[1] = r;
        System.arraycopy(size, 2, ints, 2, r);
        ints[2 + r] = OpAttrs.of(op).integer("align_corners");
        return new KernelCall(Kernels.AFFINE_GRID, List.of(lowering.read(t), lowering.write(y)), ints, new double[0], op.name());
    }

    /** GridSample: ints [rank, N, C, in (rank), out (rank), mode, padding, alignCorners]. */
    static KernelCall gridSample(Op op, OpLowering lowering) {
        String x = op.inputs().get(0), g = op.inputs().get(1), y = op.outputs().get(0);
        long[] xs = lowering.shape(op, x), ys = lowering.shape(op, y);
        int r = xs.length - 2;
        if (r != 2 && r != 3) throw fail(op, "GridSample runs on 2 or 3 spatial axes, not " + r);
        long[] ints = new long[6 + 2 * r];
        ints[0] = r;
        ints[1] = xs[0];
        ints[2] = xs[1];
        System.arraycopy(xs, 2, ints, 3, r);
        System.arraycopy(ys, 2, ints, 3 + r, r);
        ints[3 + 2 * r] = gridCode(op, "mode", "linear", ImageOps.GRID_MODES);
        ints[4 + 2 * r] = gridCode(op, "padding_mode", "zeros", ImageOps.GRID_PADDINGS);
        ints[5 + 2 * r] = OpAttrs.of(op).integer("align_corners");
        return new KernelCall(Kernels.GRID_SAMPLE, List.of(lowering.read(x), lowering.read(g), lowering.write(y)), ints, new double[0], op.name());
    }

    private static int gridCode(Op op, String attr, String dflt, List<String> values) {
        Object v = op.attrs().get(attr);
        int c = values.indexOf(v == null ? dflt : v.toString());
        if (c < 0) throw fail(op, "attribute '" + attr + "' = '" + v + "' is not one of " + values);
        return c;
    }
}
