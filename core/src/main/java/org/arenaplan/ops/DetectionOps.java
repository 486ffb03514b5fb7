package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.ir.AttrSpec.MAX_INT32;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * The detection and segmentation ops of vision models, f32: RoiAlign (Mask R-CNN, Faster R-CNN;
 * {@link Kernels#ROI_ALIGN}), DeformConv (deformable convnets; {@link Kernels#DEFORM_CONV}) and
 * MaxUnpool (SegNet-style decoders; {@link Kernels#MAX_UNPOOL}). Every output shape is computed at
 * import from the input shapes and the attributes, so each output is planned as any other tensor.
 * The arithmetic, after onnx's reference implementation (onnx/reference/ops/op_roi_align.py,
 * op_deform_conv.py, op_max_unpool.py, onnx 1.23), is documented at the kernels.
 *
 * <p>ONNX versions (Changelog.md): RoiAlign-10 has no {@code coordinate_transformation_mode} and
 * means {@code output_half_pixel} (no -0.5 shift; the spec of 10 and onnx's reference; ONNX Runtime
 * follows it: its kernel reads the mode only from 16 on); RoiAlign-16 adds the attribute with
 * default {@code half_pixel}; RoiAlign-22 widens types only. MaxUnpool-9 and -11 differ in their
 * text only (strides default 1 in both); 22 widens types. DeformConv is 19 (22 widens types).
 * Types: X (and rois, offsets, masks, bias) f32, indices and batch_indices int64; f16, bf16 and
 * f64 are refused naming the node.
 *
 * <p>Refused naming the node and the attribute: RoiAlign's {@code mode} other than avg/max,
 * {@code coordinate_transformation_mode} other than half_pixel/output_half_pixel (or given before
 * opset 16), a negative {@code sampling_ratio}, output sizes below 1; DeformConv other than 2-D,
 * {@code offset_group} or {@code group} not dividing the channels; MaxUnpool's windows that are not
 * positive, negative pads, an {@code output_shape} smaller than the inferred shape.
 */
final class DetectionOps implements OpFamily {
    static final String ROI_ALIGN = "RoiAlign", DEFORM_CONV = "DeformConv", MAX_UNPOOL = "MaxUnpool";
    /** DeformConv's flags saying which optional inputs it lists after X, W and offset. */
    private static final String HAS_BIAS = "has_bias", HAS_MASK = "has_mask";
    /** DeformConv's ONNX input positions of its optional inputs. */
    private static final int BIAS = 3, MASK = 4;
    /** RoiAlign's modes and coordinate modes, in the order of the roi_align kernel's codes. */
    static final List<String> ROI_MODES = List.of("avg", "max"), ROI_COORDINATES = List.of("output_half_pixel", "half_pixel");

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(ROI_ALIGN, 3, 3).attrs(AttrSpec.string("mode", "avg"), AttrSpec.integer("output_height", 1, 1, MAX_INT32),
                                AttrSpec.integer("output_width", 1, 1, MAX_INT32), AttrSpec.integer("sampling_ratio", 0, 0, MAX_INT32),
                                AttrSpec.real("spatial_scale", 1.0), AttrSpec.string("coordinate_transformation_mode", "half_pixel"))
                        .shape(DetectionOps::roiAlignShape).kernels(Kernels.ROI_ALIGN)
                        .doc("X [N, C, H, W], rois [R, 4] (x1, y1, x2, y2), int64 batch_indices [R] to [R, C, output_height, output_width]; "
                                + "bilinear samples averaged (avg) or their weighted maximum (max) per bin")
                        .flops((a, in, out) -> 4 * OpSpec.FlopRule.elements(out[0]) * Math.max(1, a.integer("sampling_ratio")) * Math.max(1, a.integer("sampling_ratio")))
                        .lower((op, l) -> List.of(roiAlign(op, l))).onnx(ROI_ALIGN, 10, DetectionOps::importRoiAlign).build(),
                OpDefinition.op(DEFORM_CONV, 3, 5).attrs(ImageOps.convAttrs(AttrSpec.integer("offset_group", 1, 1, MAX_INT32), AttrSpec.flag(HAS_BIAS), AttrSpec.flag(HAS_MASK))).internal(HAS_BIAS, HAS_MASK)
                        .shape(DetectionOps::deformConvShape).kernels(Kernels.DEFORM_CONV)
                        .doc("X [N, C, H, W], W [M, C/group, kH, kW], offset [N, offset_group*kH*kW*2, oH, oW], then bias [M] and mask "
                                + "[N, offset_group*kH*kW, oH, oW] where has_bias, has_mask say; each tap sampled bilinearly at its offset (zeros outside)")
                        .flops((a, in, out) -> OpSpec.FlopRule.elements(out[0]) * (2 + 7) * ImageOps.perOutput(in[1]))
                        .lower((op, l) -> List.of(deformConv(op, l))).onnx(DEFORM_CONV, 19, DetectionOps::importDeformConv).build(),
                OpDefinition.op(MAX_UNPOOL, 2, 2).attrs(AttrSpec.perAxis("kernel_shape", true, 1, 1, 1), AttrSpec.perAxis("strides", false, 1, 1, 1),
                                AttrSpec.perAxis("pads", false, 0, 2, 0), AttrSpec.ints("output_shape", 0, Long.MAX_VALUE, "the inferred shape"))
                        .shape(DetectionOps::maxUnpoolShape).kernels(Kernels.MAX_UNPOOL).flops(OpSpec.PER_INPUT_ELEMENT)
                        .doc("X [N, C, spatial...] scattered to the flat int64 indices I (into the inferred shape (in-1)*stride - pads + kernel), "
                                + "zeros elsewhere; output_shape (a shape operand) pads it at the end of each axis")
                        .lower(DetectionOps::maxUnpool).onnx(MAX_UNPOOL, 9, DetectionOps::importMaxUnpool, "output_shape").build());
    }

    // ---- shape rules ----

    /** [R, C, output_height, output_width] from X [N, C, H, W], rois [R, 4], batch_indices [R]. */
    static long[] roiAlignShape(OpAttrs a, long[][] in) {
        code(ROI_MODES, "mode", a.string("mode"));
        code(ROI_COORDINATES, "coordinate_transformation_mode", a.string("coordinate_transformation_mode"));
        long[] x = in[0], rois = in[1], b = in[2];
        if (x.length != 4) throw new GraphException("X " + Arrays.toString(x) + " must be [N, C, H, W]");
        if (rois.length != 2 || rois[1] != 4) throw new GraphException("rois " + Arrays.toString(rois) + " must be [num_rois, 4]");
        if (b.length != 1 || b[0] != rois[0]) throw new GraphException("batch_indices " + Arrays.toString(b) + " must be [" + rois[0] + "] (one per roi)");
        return new long[]{rois[0], x[1], a.integer("output_height"), a.integer("output_width")};
    }

    /** The index of {@code value} in {@code allowed}; a value outside it names the attribute. */
    static int code(List<String> allowed, String attr, String value) {
        int k = allowed.indexOf(value);
        if (k < 0) throw new GraphException("attribute '" + attr + "' = '" + value + "' is not " + String.join(" or ", allowed));
        return k;
    }

    /** DeformConv's [N, M, oH, oW]; checks W, offset, the flagged bias and mask, group and offset_group. */
    static long[] deformConvShape(OpAttrs a, long[][] in) {
        long[] x = in[0], w = in[1], off = in[2];
        if (x.length != 4) throw new GraphException("X " + Arrays.toString(x) + " must be [N, C, H, W]: arenaplan's DeformConv takes 2-D images only");
        long group = a.integer("group"), og = a.integer("offset_group");
        if (w.length != 4 || w[1] * group != x[1] || w[0] % group != 0)
            throw new GraphException("W " + Arrays.toString(w) + " must be [M, C/group, kH, kW] with M a multiple of group " + group + " (X " + Arrays.toString(x) + ")");
        if (x[1] % og != 0) throw new GraphException("attribute 'offset_group' = " + og + " does not divide the " + x[1] + " input channels");
        long[] k = a.has("kernel_shape") ? a.perAxis("kernel_shape", 2) : new long[]{w[2], w[3]};
        if (k[0] != w[2] || k[1] != w[3]) throw new GraphException("kernel_shape " + Arrays.toString(k) + " differs from W " + Arrays.toString(w));
        long[] st = a.perAxis("strides", 2), pads = a.perAxis("pads", 2), dil = a.perAxis("dilations", 2);
        long[] o = new long[2];
        for (int d = 0; d < 2; d++) {
            long span = x[2 + d] + pads[d] + pads[d + 2] - ((k[d] - 1) * dil[d] + 1);
            if (span < 0) throw new GraphException("the kernel " + Arrays.toString(k) + " (dilations " + Arrays.toString(dil) + ") is larger than the padded X " + Arrays.toString(x));
            o[d] = span / st[d] + 1;
        }
        long[] wantOffset = {x[0], og * k[0] * k[1] * 2, o[0], o[1]};
        if (!Arrays.equals(off, wantOffset)) throw new GraphException("offset " + Arrays.toString(off) + " must be " + Arrays.toString(wantOffset));
        int j = 3;
        if (a.integer(HAS_BIAS) == 1) {
            if (in.length <= j || !Arrays.equals(in[j], new long[]{w[0]})) throw new GraphException("B " + (in.length > j ? Arrays.toString(in[j]) : "(missing)") + " must be [" + w[0] + "]");
            j++;
        }
        if (a.integer(HAS_MASK) == 1) {
            long[] wantMask = {x[0], og * k[0] * k[1], o[0], o[1]};
            if (in.length <= j || !Arrays.equals(in[j], wantMask)) throw new GraphException("mask " + (in.length > j ? Arrays.toString(in[j]) : "(missing)") + " must be " + Arrays.toString(wantMask));
            j++;
        }
        if (in.length != j) throw new GraphException("takes " + j + " inputs with " + HAS_BIAS + "=" + a.integer(HAS_BIAS) + " and " + HAS_MASK + "=" + a.integer(HAS_MASK) + ", got " + in.length);
        return new long[]{x[0], w[0], o[0], o[1]};
    }

    /**
     * MaxUnpool's inferred shape [N, C, (in-1)*stride - padBegin - padEnd + kernel ...] (onnx's reference).
     *
     * @throws GraphException for a rank outside 3..5, a negative extent, or one that overflows a long
     */
    static long[] inferredUnpool(OpAttrs a, long[] x) {
        int r = x.length - 2;
        if (r < 1 || r > 3) throw new GraphException("X " + Arrays.toString(x) + " must be [N, C] and 1 to 3 spatial axes");
        long[] k = a.perAxis("kernel_shape", r), st = a.perAxis("strides", r), pads = a.perAxis("pads", r);
        long[] y = x.clone();
        for (int d = 0; d < r; d++) {
            try {
                y[2 + d] = Math.addExact(Math.subtractExact(Math.subtractExact(Math.multiplyExact(x[2 + d] - 1, st[d]), pads[d]), pads[d + r]), k[d]);
            } catch (ArithmeticException e) {   // a huge X with a huge stride: the extent does not fit a long (it wrapped around)
                throw new GraphException("X " + Arrays.toString(x) + " with strides " + Arrays.toString(st) + ", pads " + Arrays.toString(pads)
                        + " and kernel_shape " + Arrays.toString(k) + " make spatial axis " + d + " of the output an extent that overflows a long");
            }
            if (y[2 + d] < 0) throw new GraphException("pads " + Arrays.toString(pads) + " leave spatial axis " + d + " of the output negative (" + y[2 + d] + ")");
        }
        return y;
    }

    /** MaxUnpool's output: output_shape when given (at least the inferred shape on every axis, N and C equal), else the inferred shape. */
    static long[] maxUnpoolShape(OpAttrs a, long[][] in) {
        long[] x = in[0];
        if (!Arrays.equals(in[1], x)) throw new GraphException("I " + Arrays.toString(in[1]) + " must have the shape of X " + Arrays.toString(x));
        long[] inferred = inferredUnpool(a, x);
        long[] given = a.intsOrNull("output_shape");
        if (given == null) return inferred;
        boolean fits = given.length == x.length && given[0] == x[0] && given[1] == x[1];
        for (int d = 2; fits && d < x.length; d++) fits = given[d] >= inferred[d];
        if (!fits) throw new GraphException("output_shape " + Arrays.toString(given) + " must be [" + x[0] + ", " + x[1] + ", ...] and at least the inferred shape "
                + Arrays.toString(inferred) + " on every axis (the indices address the inferred shape; onnx's reference pads it at the end)");
        return given.clone();
    }

    // ---- lowering ----

    /** Requires every named tensor to be f32 (the index tensors are checked by their callers). */
    private static void requireF32(Op op, OpLowering l, String... tensors) {
        for (String t : tensors) l.requireF32(op, t);
    }

    private static void requireI64(Op op, OpLowering l, String t, String what) {
        if (l.dtype(t) != DType.I64) throw fail(op, what + " '" + t + "' is " + l.dtype(t).jsonName() + "; it must be int64");
    }

    private static long[][] shapes(Op op, OpLowering l) {
        long[][] s = new long[op.inputs().size()][];
        for (int j = 0; j < s.length; j++) s[j] = l.shape(op, op.inputs().get(j));
        return s;
    }

    private static KernelCall roiAlign(Op op, OpLowering l) {
        String x = op.inputs().get(0), rois = op.inputs().get(1), b = op.inputs().get(2), y = out(op);
        requireF32(op, l, x, rois, y);
        requireI64(op, l, b, "batch_indices");
        OpAttrs a = OpAttrs.of(op);
        long[] xs, ys;
        int mode, half;
        try {
            ys = roiAlignShape(a, shapes(op, l));
            mode = code(ROI_MODES, "mode", a.string("mode"));
            half = code(ROI_COORDINATES, "coordinate_transformation_mode", a.string("coordinate_transformation_mode"));
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        xs = l.shape(op, x);
        return l.call(op, Kernels.ROI_ALIGN, List.of(l.read(x), l.read(rois), l.read(b), l.write(y)),
                new long[]{xs[0], xs[1], xs[2], xs[3], ys[0], ys[2], ys[3], a.integer("sampling_ratio"), mode, half}, new double[]{a.real("spatial_scale")});
    }

    private static KernelCall deformConv(Op op, OpLowering l) {
        List<String> in = op.inputs();
        requireF32(op, l, in.toArray(new String[0]));
        requireF32(op, l, out(op));
        OpAttrs a = OpAttrs.of(op);
        long[] ys;
        try {
            ys = deformConvShape(a, shapes(op, l));
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        long[] xs = l.shape(op, in.get(0)), ws = l.shape(op, in.get(1));
        long[] st = a.perAxis("strides", 2), pads = a.perAxis("pads", 2), dil = a.perAxis("dilations", 2);
        List<KernelArg> args = new ArrayList<>();
        for (String t : in) args.add(l.read(t));
        args.add(l.write(out(op)));
        return l.call(op, Kernels.DEFORM_CONV, args, new long[]{xs[0], xs[1], xs[2], xs[3], ws[0], ys[2], ys[3], ws[2], ws[3], st[0], st[1], pads[0], pads[1],
                dil[0], dil[1], a.integer("group"), a.integer("offset_group"), a.integer(HAS_BIAS), a.integer(HAS_MASK)});
    }

    /** Two calls of {@link Kernels#MAX_UNPOOL}: phase 0 zeroes Y, phase 1 scatters X into it. */
    private static List<KernelCall> maxUnpool(Op op, OpLowering l) {
        String x = op.inputs().get(0), idx = op.inputs().get(1), y = out(op);
        requireF32(op, l, x, y);
        requireI64(op, l, idx, "I");
        OpAttrs a = OpAttrs.of(op);
        long[] xs = l.shape(op, x), inferred, ys;
        try {
            ys = maxUnpoolShape(a, shapes(op, l));
            inferred = inferredUnpool(a, xs);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        if (!Arrays.equals(ys, l.shape(op, y))) throw fail(op, "output '" + y + "' " + Arrays.toString(l.shape(op, y)) + " is not " + Arrays.toString(ys));
        int rank = xs.length;
        long[] ints = new long[4 + 2 * rank];
        ints[1] = product(xs);
        ints[2] = product(ys);
        ints[3] = rank;
        System.arraycopy(inferred, 0, ints, 4, rank);
        System.arraycopy(ys, 0, ints, 4 + rank, rank);
        long[] scatter = ints.clone();
        scatter[0] = 1;
        return List.of(l.call(op, Kernels.MAX_UNPOOL, List.of(l.write(y)), ints),
                l.call(op, Kernels.MAX_UNPOOL, List.of(l.read(x), l.read(idx), l.write(y)), scatter));
    }

    // ---- ONNX ----

    private static void requireF32(NodeContext n, Value v) {
        n.require(v.dtype() == DType.F32, "input " + v + " is " + v.dtype().jsonName() + "; " + n.opType() + " computes f32 only (f16, bf16 and f64 are not implemented)");
    }

    private static Lowered importRoiAlign(NodeContext n) {
        FamilyImports.requireInputs(n, 3, 3);
        Value x = n.input(0), rois = n.input(1), b = n.input(2);
        requireF32(n, x);
        requireF32(n, rois);
        n.require(b.dtype() == DType.I64, "batch_indices " + b + " is " + b.dtype().jsonName() + "; it must be int64");
        n.require(n.opset() >= 16 || !n.hasAttr("coordinate_transformation_mode"), "attribute 'coordinate_transformation_mode' needs opset 16");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("mode", n.string("mode", "avg"));
        attrs.put("output_height", n.integer("output_height"));
        attrs.put("output_width", n.integer("output_width"));
        attrs.put("sampling_ratio", n.integer("sampling_ratio"));
        double scale = n.real("spatial_scale");
        n.require(Double.isFinite(scale), "attribute 'spatial_scale' = " + scale + " is not finite");
        attrs.put("spatial_scale", scale);
        // opset 10 has no attribute and no shift (its spec and onnx's reference); 16 adds it, default half_pixel
        attrs.put("coordinate_transformation_mode", n.opset() >= 16 ? n.string("coordinate_transformation_mode", "half_pixel") : "output_half_pixel");
        long[] shape = FamilyImports.shape(n, () -> roiAlignShape(FamilyImports.attrsOf(ROI_ALIGN, attrs), new long[][]{x.shape(), rois.shape(), b.shape()}));
        return op(n, ROI_ALIGN, List.of(x.name(), rois.name(), b.name()), shape, attrs);
    }

    private static Lowered importDeformConv(NodeContext n) {
        FamilyImports.requireInputs(n, 3, 5);
        n.require(!n.hasAttr(HAS_BIAS) && !n.hasAttr(HAS_MASK), "attributes '" + HAS_BIAS + "' and '" + HAS_MASK + "' are arenaplan's own, not DeformConv's");
        Value x = n.input(0), w = n.input(1);
        n.require(x.rank() == 4, "input " + x + " must be [N, C, H, W]: arenaplan's DeformConv takes 2-D images only");
        n.require(n.integer("offset_group") >= 1, "attribute 'offset_group' must be at least 1");
        ImageOps.ConvWindows c = ImageOps.convWindows(n, x, w);
        Map<String, Object> attrs = new LinkedHashMap<>(c.attrs());
        attrs.put("offset_group", n.integer("offset_group"));
        attrs.put(HAS_BIAS, n.hasInput(BIAS) ? 1L : 0L);
        attrs.put(HAS_MASK, n.hasInput(MASK) ? 1L : 0L);
        List<Value> present = new ArrayList<>(List.of(x, w, n.input(2)));
        if (n.hasInput(BIAS)) present.add(n.input(BIAS));
        if (n.hasInput(MASK)) present.add(n.input(MASK));
        for (Value v : present) requireF32(n, v);
        long[][] shapes = present.stream().map(Value::shape).toArray(long[][]::new);
        long[] shape = FamilyImports.shape(n, () -> deformConvShape(FamilyImports.attrsOf(DEFORM_CONV, attrs), shapes));
        return op(n, DEFORM_CONV, present.stream().map(Value::name).toList(), shape, attrs);
    }

    private static Lowered importMaxUnpool(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 3);
        Value x = n.input(0), idx = n.input(1);
        requireF32(n, x);
        n.require(idx.dtype() == DType.I64, "I " + idx + " is " + idx.dtype().jsonName() + "; it must be int64");
        n.require(x.rank() >= 3 && x.rank() <= 5, "input " + x + " must be [N, C] and 1 to 3 spatial axes");
        int r = x.rank() - 2;
        n.require(n.hasAttr("kernel_shape"), "attribute 'kernel_shape' is required");
        long[] k = n.ints("kernel_shape", null), st = n.ints("strides", ones(r)), pads = n.ints("pads", new long[2 * r]);
        n.require(k.length == r, "attribute 'kernel_shape' " + Arrays.toString(k) + " must have " + r + " entries");
        n.require(st.length == r, "attribute 'strides' " + Arrays.toString(st) + " must have " + r + " entries");
        n.require(pads.length == 2 * r, "attribute 'pads' " + Arrays.toString(pads) + " must have " + 2 * r + " entries");
        for (long v : k) if (v < 1) throw n.error("attribute 'kernel_shape' " + Arrays.toString(k) + " must be positive");
        for (long v : st) if (v < 1) throw n.error("attribute 'strides' " + Arrays.toString(st) + " must be positive");
        for (long v : pads) if (v < 0) throw n.error("attribute 'pads' " + Arrays.toString(pads) + " must not be negative");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("kernel_shape", k);
        attrs.put("strides", st);
        attrs.put("pads", pads);
        // output_shape is a shape operand: a constant, or a graph input whose value was given before import
        if (n.hasInput(2)) attrs.put("output_shape", n.constantInts(2, "output_shape"));
        long[] shape = FamilyImports.shape(n, () -> maxUnpoolShape(FamilyImports.attrsOf(MAX_UNPOOL, attrs), new long[][]{x.shape(), idx.shape()}));
        return op(n, MAX_UNPOOL, List.of(x.name(), idx.name()), shape, attrs);
    }

    private static long[] ones(int r) {
        long[] a = new long[r];
        Arrays.fill(a, 1);
        return a;
    }
}
