package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.ImageShapes;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;
import org.arenaplan.onnx.Windows;
import org.arenaplan.train.Backward;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.ir.AttrSpec.MAX_INT32;
import static org.arenaplan.onnx.NodeLowering.op;

/**
 * The image ops, f32: Conv ({@link Kernels#CONV2D} up to 2-D images, 1-D as H = 1;
 * {@link Kernels#CONV_ND} on 3-D), ConvTranspose ({@link Kernels#CONV_ND}, 1-D to 3-D), the
 * pools MaxPool, AveragePool, LpPool, GlobalMaxPool, GlobalAveragePool, GlobalLpPool
 * ({@link Kernels#POOL}, 1-D to 3-D, dilated), Resize and Upsample ({@link Kernels#RESIZE}).
 * {@code auto_pad} becomes explicit pads at import ({@link Windows}); the other ONNX version
 * differences are listed in {@link ImageImports}, the kernel calls built in {@link ImageCalls}.
 */
final class ImageOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String CONV_TRANSPOSE = "ConvTranspose", LP_POOL = "LpPool", GLOBAL_MAX_POOL = "GlobalMaxPool", GLOBAL_LP_POOL = "GlobalLpPool",
            RESIZE = "Resize";

    /**
     * The element types Conv, ConvTranspose and the pools compute (MaxPool also int8 and uint8,
     * exact); FusedConv f32 only. f16 as ONNX Runtime's CPU provider computes it: operands widened
     * to f32, the f32 kernel, one rounding on store ({@link Kernels#typeInt} gives the source).
     */
    static final DType[] HALF = {DType.F32, DType.F16};

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.CONV, 2, 3).attrs(convAttrs()).shape(ShapeRules::conv).kernels(Kernels.CONV2D, Kernels.CONV_ND)
                        .doc("inputs X, W, optional B; 1-D to 3-D images (conv2d up to 2-D, conv_nd for 3-D)")
                        .flops(ImageOps::convFlops)
                        .computes(HALF).lowerTyped((op, l) -> List.of(l.shape(op, op.inputs().get(0)).length == 5 ? ImageCalls.conv(op, l, false) : conv(op, l, false)))
                        .gradient(ImageOps::convGradient)
                        .onnx(ImageOps::importConv, "auto_pad").build(),
                OpDefinition.op(OpKinds.FUSED_CONV, 2, 3).attrs(convAttrs(EpilogueFusion.activationAttr())).shape(ShapeRules::conv).kernels(Kernels.CONV2D)
                        .doc("Conv of 1-D or 2-D images, then activation (Relu) on each output in the kernel's epilogue; made by EpilogueFusion")
                        .flops((a, in, out) -> convFlops(a, in, out) + OpSpec.FlopRule.elements(out[0]))
                        .lowerF32((op, l) -> List.of(conv(op, l, true))).build(),
                OpDefinition.op(CONV_TRANSPOSE, 2, 3).attrs(convAttrs(AttrSpec.perAxis("output_padding", false, 0, 1, 0)))
                        .shape(ImageShapes::convTranspose).kernels(Kernels.CONV_ND)
                        .doc("inputs X, W (C x M/group x kernel...), optional B; 1-D to 3-D images")
                        .flops((a, in, out) -> 2 * OpSpec.FlopRule.elements(in[0]) * perOutput(in[1]) + (in.length > 2 ? OpSpec.FlopRule.elements(out[0]) : 0))
                        .computes(HALF).lowerTyped((op, l) -> List.of(ImageCalls.conv(op, l, true))).onnx(ImageImports::convTranspose, "auto_pad", "output_shape").build(),
                pool(OpKinds.MAX_POOL, Kernels.MAX, AttrSpec.flag("count_include_pad")).attrs(AttrSpec.flag("storage_order")).outputs(1, 2)
                        .shapes((a, in, n) -> n == 1 ? new long[][]{ShapeRules.pool(a, in)} : new long[][]{ShapeRules.pool(a, in), ShapeRules.pool(a, in)})
                        .kernels(Kernels.POOL_INDICES).doc("optional output 1: the int64 Indices of the maxima (storage_order 0 row-major, 1 column-major)")
                        .computes(DType.F32, DType.F16, DType.U8, DType.I8).lower(ImageCalls::maxPool).onnx(ImageImports::pool, "auto_pad").build(),
                pool(OpKinds.AVERAGE_POOL, Kernels.AVERAGE, AttrSpec.flag("count_include_pad")).onnx(ImageImports::pool, "auto_pad").build(),
                pool(LP_POOL, Kernels.LP, lpNorm()).doc("(sum of |x|^p)^(1/p) over the window").onnx(ImageImports::pool, "auto_pad").build(),
                globalPool(OpKinds.GLOBAL_AVERAGE_POOL, Kernels.AVERAGE).doc("mean over the spatial axes").gradient(ImageOps::globalAveragePoolGradient).build(),
                OpDefinition.op(GLOBAL_MAX_POOL, 1, 1).shape(ShapeRules::globalPool).kernels(Kernels.REDUCE).flops(OpSpec.PER_INPUT_ELEMENT)
                        .doc("maximum over the spatial axes, a NaN winning (the reduce kernel's ReduceMax)")
                        .computes(HALF).lowerTyped((op, l) -> List.of(ReductionOps.spatialMax(op, l))).onnx(ImageImports::globalPool).build(),
                globalPool(GLOBAL_LP_POOL, Kernels.LP).attrs(lpNorm()).doc("Lp norm over the spatial axes").build(),
                OpDefinition.op(RESIZE, 1, 1).attrs(AttrSpec.string("mode", "nearest"), AttrSpec.string("coordinate_transformation_mode", "half_pixel"),
                                AttrSpec.string("nearest_mode", "round_prefer_floor"), AttrSpec.real("cubic_coeff_a", -0.75), AttrSpec.flag("exclude_outside"),
                                AttrSpec.real("extrapolation_value", 0.0), AttrSpec.flag("antialias"), AttrSpec.reals("scales", null),
                                AttrSpec.reals("roi", "0 then 1 per axis"), AttrSpec.ints("sizes", 0, MAX_INT32, "required: the output's shape"))
                        .shape(ImageShapes::resize).kernels(Kernels.RESIZE)
                        .doc("ONNX Resize of X to sizes; scales (one per axis) and roi resolved at import")
                        .computes(HALF).lowerTyped((op, l) -> List.of(ImageCalls.resize(op, l)))
                        .onnx(ImageImports::resize, "axes", "keep_aspect_ratio_policy")
                        .onnx("Upsample", 9, ImageImports::resize, "mode").build(),
                OpDefinition.op(COL2IM, 1, 1).attrs(AttrSpec.ints("image_shape", 1, MAX_INT32, "required"), AttrSpec.ints("block_shape", 1, MAX_INT32, "required"),
                                AttrSpec.perAxis("dilations", false, 1, 1, 1), pads(), strides())
                        .shape(ImageShapes::col2im).kernels(Kernels.COL2IM)
                        .doc("X [N, C x prod(block_shape), blocks] to [N, C, image_shape...], overlapping blocks summed; 1 to 3 spatial axes")
                        .lowerF32((op, l) -> List.of(ImageCalls.col2im(op, l))).onnx(COL2IM, 18, ImageImports::col2im).build(),
                OpDefinition.op(AFFINE_GRID, 1, 1).attrs(AttrSpec.flag("align_corners"), AttrSpec.ints("size", 1, MAX_INT32, "required"))
                        .shape(ImageShapes::affineGrid).kernels(Kernels.AFFINE_GRID)
                        .doc("theta [N, 2, 3] or [N, 3, 4] to the sampling grid [N, H, W, 2] or [N, D, H, W, 3] of size")
                        .lowerF32((op, l) -> List.of(ImageCalls.affineGrid(op, l))).onnx(AFFINE_GRID, 20, ImageImports::affineGrid).build(),
                OpDefinition.op(GRID_SAMPLE, 2, 2).attrs(AttrSpec.string("mode", "linear"), AttrSpec.string("padding_mode", "zeros"), AttrSpec.flag("align_corners"))
                        .shape(ImageShapes::gridSample).kernels(Kernels.GRID_SAMPLE)
                        .doc("X [N, C, in...] sampled at grid [N, out..., 2 or 3] (normalised, last entry the first spatial axis) to [N, C, out...]")
                        .lowerF32((op, l) -> List.of(ImageCalls.gridSample(op, l))).onnx(GRID_SAMPLE, 16, ImageImports::gridSample).build());
    }

    /** Kinds only this family names. */
    static final String COL2IM = "Col2Im", AFFINE_GRID = "AffineGrid", GRID_SAMPLE = "GridSample";
    /** GridSample's modes and padding modes, in the order of the grid_sample kernel's codes. */
    static final List<String> GRID_MODES = List.of("nearest", "linear", "cubic"), GRID_PADDINGS = List.of("zeros", "border", "reflection");

    /** A windowed pool of {@code mode} (a pool kernel's {@code Kernels.MAX}, {@code AVERAGE}, {@code LP}): its attributes, shape rule, kernel and lowering, plus attribute {@code more}. */
    private static OpDefinition.Builder pool(String kind, int mode, AttrSpec more) {
        return OpDefinition.op(kind, 1, 1).attrs(AttrSpec.perAxis("kernel_shape", true, 1, 1, 1), strides(), pads(),
                AttrSpec.perAxis("dilations", false, 1, 1, 1), AttrSpec.flag("ceil_mode"), more)
                .shape(ShapeRules::pool).kernels(Kernels.POOL).doc("1-D to 3-D images")
                .flops((a, in, out) -> OpSpec.FlopRule.elements(out[0]) * OpSpec.FlopRule.elements(a.intsOrNull("kernel_shape")))
                .computes(HALF).lowerTyped((op, l) -> List.of(ImageCalls.pool(op, l, mode, false)));
    }

    /** A pool of {@code mode} over all spatial axes. */
    private static OpDefinition.Builder globalPool(String kind, int mode) {
        return OpDefinition.op(kind, 1, 1).shape(ShapeRules::globalPool).kernels(Kernels.POOL).flops(OpSpec.PER_INPUT_ELEMENT)
                .computes(HALF).lowerTyped((op, l) -> List.of(ImageCalls.pool(op, l, mode, true))).onnx(ImageImports::globalPool);
    }

    /** LpPool's and GlobalLpPool's p. */
    private static AttrSpec lpNorm() {
        return AttrSpec.integer("p", 2, 1, 64);
    }

    /** Conv's attributes (and its gradients'), plus {@code more}. */
    static AttrSpec[] convAttrs(AttrSpec... more) {
        List<AttrSpec> a = new ArrayList<>(List.of(AttrSpec.perAxis("kernel_shape", 1, "the weight's extents"), strides(), pads(),
                AttrSpec.perAxis("dilations", false, 1, 1, 1), AttrSpec.integer("group", 1, 1, MAX_INT32)));
        a.addAll(List.of(more));
        return a.toArray(new AttrSpec[0]);
    }

    private static AttrSpec strides() {
        return AttrSpec.perAxis("strides", false, 1, 1, 1);
    }

    private static AttrSpec pads() {
        return AttrSpec.perAxis("pads", false, 0, 2, 0);
    }

    // ---- lowering ----

    private static KernelCall conv(Op op, OpLowering l, boolean fused) {
        String x = op.inputs().get(0), w = op.inputs().get(1), y = out(op);
        long[] geometry = convGeometry(op, l, x, w, y);
        boolean bias = op.inputs().size() > 2;
        List<KernelArg> args = new ArrayList<>(List.of(l.read(x), l.read(w)));
        if (bias) args.add(l.read(op.inputs().get(2)));
        args.add(l.write(y));
        long[] ints = Arrays.copyOf(geometry, geometry.length + 1);
        ints[geometry.length] = bias ? 1 : 0;
        return l.call(op, Kernels.CONV2D, args, fused ? EpilogueFusion.withActivation(op, ints) : Kernels.withType(Kernels.CONV2D, ints, l.computeType(op).onnxCode()));
    }

    /** {@link Kernels#CONV2D}'s first 16 ints for a Conv (or a Conv gradient) of x by w giving y. */
    static long[] convGeometry(Op op, OpLowering l, String x, String w, String y) {
        long[] xs = l.image(op, x), ws = l.image(op, w), ys = l.image(op, y);
        OpAttrs at = OpAttrs.of(op);
        long[] k = at.has("kernel_shape") ? l.perAxis(op, "kernel_shape", x) : new long[]{ws[2], ws[3]};
        long[] st = l.perAxis(op, "strides", x);
        long[] pads = l.perAxis(op, "pads", x);
        long[] dil = l.perAxis(op, "dilations", x);
        long group = at.integer("group");
        if (xs[1] % group != 0 || ys[1] % group != 0) throw fail(op, "group " + group + " does not divide the channels");
        return new long[]{xs[0], xs[1], xs[2], xs[3], ys[1], ys[2], ys[3], k[0], k[1], st[0], st[1], pads[0], pads[1], dil[0], dil[1], group};
    }

    // ---- ONNX ----

    static long[] spatial(NodeContext n, Value x) {
        n.require(x.rank() >= 3, "input " + x + " must be N, C and at least one spatial dimension");
        return Arrays.copyOfRange(x.shape(), 2, x.rank());
    }

    private static Lowered importConv(NodeContext n) {
        Value x = n.input(0), w = n.input(1);
        ConvWindows c = convWindows(n, x, w);
        List<String> inputs = new ArrayList<>(List.of(x.name(), w.name()));
        if (n.hasInput(2)) {
            n.require(n.input(2).rank() == 1 && n.input(2).dim(0) == w.dim(0), "bias " + n.input(2) + " must be [" + w.dim(0) + "]");
            inputs.add(n.input(2).name());
        }
        return op(n, OpKinds.CONV, inputs, c.out(), c.attrs());
    }

    /** A Conv-like node's resolved window attributes (kernel_shape, strides, pads, dilations, group) and its output shape. */
    record ConvWindows(Map<String, Object> attrs, long[] out) { }

    /** Checks x and w as Conv's X [N, C, spatial...] and W [M, C/group, k...] and resolves auto_pad and the windows. */
    static ConvWindows convWindows(NodeContext n, Value x, Value w) {
        long[] in = spatial(n, x);
        n.require(w.rank() == x.rank(), "weight " + w + " must have the rank of the input " + x);
        long group = n.integer("group");
        n.require(x.dim(1) == w.dim(1) * group, "input channels " + x.dim(1) + " must equal weight channels " + w.dim(1) + " x group " + group);
        n.require(w.dim(0) % group == 0, "output channels " + w.dim(0) + " must be a multiple of group " + group);
        long[] kernel = n.ints("kernel_shape", Arrays.copyOfRange(w.shape(), 2, w.rank()));
        n.require(Arrays.equals(kernel, Arrays.copyOfRange(w.shape(), 2, w.rank())), "kernel_shape " + Arrays.toString(kernel) + " differs from the weight " + w);
        Windows.Resolved r = Windows.resolve(n, in, kernel, true, false);
        Map<String, Object> attrs = windowAttrs(r);
        attrs.put("group", group);
        return new ConvWindows(attrs, concat(new long[]{x.dim(0), w.dim(0)}, r.out()));
    }

    /** A sliding window's resolved attributes, in a map the caller may add to. */
    static Map<String, Object> windowAttrs(Windows.Resolved r) {
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("kernel_shape", r.kernel());
        attrs.put("strides", r.strides());
        attrs.put("pads", r.pads());
        attrs.put("dilations", r.dilations());
        return attrs;
    }

    static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    // ---- FLOPs and gradient rules ----

    /** Conv: 2 x output elements x C/group x kernel, plus one per output element for a bias. */
    private static long convFlops(OpAttrs a, long[][] in, long[][] out) {
        long y = OpSpec.FlopRule.elements(out[0]);
        return 2 * y * perOutput(in[1]) + (in.length > 2 ? y : 0);
    }

    /** Multiply-adds per output element of a convolution with weight {@code w} [M, C/group, kernel...]: C/group x kernel. */
    static long perOutput(long[] w) {
        return OpSpec.FlopRule.elements(Arrays.copyOfRange(w, 1, w.length));
    }

    /** Conv (group 1): dX = ConvBackwardData(dY, W), dW = ConvBackwardFilter(X, dY) with the forward geometry, dB = ReduceSum over N and the spatial axes. */
    private static void convGradient(Op op, String dy, Backward g) {
        if (OpAttrs.of(op).integer("group") != 1) throw new GraphException("op '" + op.name() + "' (Conv): gradients need group 1");
        String x = op.inputs().get(0), w = op.inputs().get(1);
        if (g.needsGradient(x)) {
            String dx = g.tensor(x, g.dtype(dy), g.shape(x));
            g.opWithAttrs(TrainingOps.CONV_BACKWARD_DATA, dx, op).in(dy, w).attr("input_shape", g.shape(x)).add();
            g.accumulate(x, dx);
        }
        if (g.needsGradient(w)) {
            long[] ws = g.shape(w);
            String dw = g.tensor(w, g.dtype(dy), ws);
            g.opWithAttrs(TrainingOps.CONV_BACKWARD_FILTER, dw, op).in(x, dy).attr("kernel_shape", Arrays.copyOfRange(ws, 2, ws.length)).add();
            g.accumulate(w, dw);
        }
        if (op.inputs().size() > 2) {
            String b = op.inputs().get(2);
            g.accumulate(b, g.reduceExcept(dy, b, new long[]{1}, g.shape(b)));
        }
    }

    /** GlobalAveragePool (N x C x H x W): dX = dY * 1/(H*W), broadcast over H and W. */
    private static void globalAveragePoolGradient(Op op, String dy, Backward g) {
        String x = op.inputs().get(0);
        long[] xs = g.shape(x);
        if (xs.length != 4) throw new GraphException("op '" + op.name() + "' (GlobalAveragePool): gradients need N x C x H x W, got " + Arrays.toString(xs));
        String scale = g.constant(1.0 / (xs[2] * xs[3]), g.dtype(dy), 1, 1, xs[2], xs[3]);
        String dx = g.tensor(x, g.dtype(dy), xs);
        g.op(OpKinds.MUL, dx).in(dy, scale).add();
        g.accumulate(x, dx);
    }
}
