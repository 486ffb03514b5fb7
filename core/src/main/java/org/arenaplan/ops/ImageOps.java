package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;
import org.arenaplan.onnx.Windows;

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
 * Conv, MaxPool, AveragePool and GlobalAveragePool on the {@link Kernels#CONV2D} and
 * {@link Kernels#POOL2D} kernels (f32; 1-D images run as H = 1; 3-D are planned only). ONNX
 * version differences: MaxPool and AveragePool gain {@code ceil_mode} at 10, MaxPool
 * {@code dilations} at 10 and AveragePool at 19 (only 1 is supported); {@code auto_pad} becomes
 * explicit pads at import ({@link Windows}).
 */
final class ImageOps implements OpFamily {
    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.CONV, 2, 3).attrs(convAttrs()).shape(ShapeRules::conv).kernels(Kernels.CONV2D)
                        .doc("inputs X, W, optional B; 1-D and 2-D images run (3-D is planned only)")
                        .lowerF32((op, l) -> List.of(conv(op, l))).onnx(ImageOps::importConv, "auto_pad").build(),
                pool(OpKinds.MAX_POOL).lowerF32((op, l) -> List.of(pool(op, l, Kernels.MAX, false)))
                        .onnx(ImageOps::importPool, "auto_pad", "dilations", "storage_order").build(),
                pool(OpKinds.AVERAGE_POOL).lowerF32((op, l) -> List.of(pool(op, l, Kernels.AVERAGE, false)))
                        .onnx(ImageOps::importPool, "auto_pad", "dilations").build(),
                OpDefinition.op(OpKinds.GLOBAL_AVERAGE_POOL, 1, 1).shape(ShapeRules::globalPool).kernels(Kernels.POOL2D).doc("mean over the spatial axes")
                        .lowerF32((op, l) -> List.of(pool(op, l, Kernels.AVERAGE, true))).onnx(ImageOps::importGlobalPool).build());
    }

    private static OpDefinition.Builder pool(String kind) {
        return OpDefinition.op(kind, 1, 1).attrs(AttrSpec.perAxis("kernel_shape", true, 1, 1, 1), strides(), pads(), AttrSpec.flag("ceil_mode"),
                AttrSpec.flag("count_include_pad")).shape(ShapeRules::pool).kernels(Kernels.POOL2D).doc("1-D and 2-D images");
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

    private static KernelCall conv(Op op, OpLowering l) {
        String x = op.inputs().get(0), w = op.inputs().get(1), y = out(op);
        long[] geometry = convGeometry(op, l, x, w, y);
        boolean bias = op.inputs().size() > 2;
        List<KernelArg> args = new ArrayList<>(List.of(l.read(x), l.read(w)));
        if (bias) args.add(l.read(op.inputs().get(2)));
        args.add(l.write(y));
        long[] ints = Arrays.copyOf(geometry, geometry.length + 1);
        ints[geometry.length] = bias ? 1 : 0;
        return l.call(op, Kernels.CONV2D, args, ints);
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

    private static KernelCall pool(Op op, OpLowering l, int mode, boolean global) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = l.image(op, x), ys = l.image(op, y);
        long[] k = global ? new long[]{xs[2], xs[3]} : l.perAxis(op, "kernel_shape", x);
        long[] st = global ? new long[]{1, 1} : l.perAxis(op, "strides", x);
        long[] pads = global ? new long[4] : l.perAxis(op, "pads", x);
        long include = global ? 0 : OpAttrs.of(op).integer("count_include_pad");
        long[] ints = {xs[0], xs[1], xs[2], xs[3], ys[2], ys[3], k[0], k[1], st[0], st[1], pads[0], pads[1], pads[2], pads[3], mode, include};
        return l.call(op, Kernels.POOL2D, List.of(l.read(x), l.write(y)), ints);
    }

    // ---- ONNX ----

    private static long[] spatial(NodeContext n, Value x) {
        n.require(x.rank() >= 3, "input " + x + " must be N, C and at least one spatial dimension");
        return Arrays.copyOfRange(x.shape(), 2, x.rank());
    }

    private static Lowered importConv(NodeContext n) {
        Value x = n.input(0), w = n.input(1);
        long[] in = spatial(n, x);
        n.require(w.rank() == x.rank(), "weight " + w + " must have the rank of the input " + x);
        long group = n.integer("group");
        n.require(group >= 1 && x.dim(1) == w.dim(1) * group, "input channels " + x.dim(1) + " must equal weight channels " + w.dim(1) + " x group " + group);
        n.require(w.dim(0) % group == 0, "output channels " + w.dim(0) + " must be a multiple of group " + group);
        long[] kernel = n.ints("kernel_shape", Arrays.copyOfRange(w.shape(), 2, w.rank()));
        n.require(Arrays.equals(kernel, Arrays.copyOfRange(w.shape(), 2, w.rank())), "kernel_shape " + Arrays.toString(kernel) + " differs from the weight " + w);
        Windows.Resolved r = Windows.resolve(n, in, kernel, true, false);
        List<String> inputs = new ArrayList<>(List.of(x.name(), w.name()));
        if (n.hasInput(2)) {
            n.require(n.input(2).rank() == 1 && n.input(2).dim(0) == w.dim(0), "bias " + n.input(2) + " must be [" + w.dim(0) + "]");
            inputs.add(n.input(2).name());
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("kernel_shape", r.kernel());
        attrs.put("strides", r.strides());
        attrs.put("pads", r.pads());
        attrs.put("dilations", r.dilations());
        attrs.put("group", group);
        return op(n, OpKinds.CONV, inputs, concat(new long[]{x.dim(0), w.dim(0)}, r.out()), attrs);
    }

    private static Lowered importPool(NodeContext n) {
        Value x = n.input(0);
        long[] in = spatial(n, x);
        n.require(n.hasAttr("kernel_shape"), "attribute 'kernel_shape' is required");
        boolean max = n.opType().equals("MaxPool");
        long ceil = n.opset() >= 10 ? n.integer("ceil_mode", 0) : 0;
        if ((max && n.opset() >= 10) || n.opset() >= 19) {
            for (long d : n.ints("dilations", Windows.ones(in.length))) n.require(d == 1, "dilated " + n.opType() + " is not supported (dilations must be 1)");
        }
        Windows.Resolved r = Windows.resolve(n, in, n.ints("kernel_shape", null), false, ceil != 0);
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("kernel_shape", r.kernel());
        attrs.put("strides", r.strides());
        attrs.put("pads", r.pads());
        attrs.put("ceil_mode", ceil);
        attrs.put("count_include_pad", max ? 0L : n.integer("count_include_pad"));
        return op(n, max ? OpKinds.MAX_POOL : OpKinds.AVERAGE_POOL, List.of(x.name()), concat(new long[]{x.dim(0), x.dim(1)}, r.out()), attrs);
    }

    private static Lowered importGlobalPool(NodeContext n) {
        Value x = n.input(0);
        long[] out = new long[x.rank()];
        Arrays.fill(out, 1);
        spatial(n, x);
        out[0] = x.dim(0);
        out[1] = x.dim(1);
        return op(n, OpKinds.GLOBAL_AVERAGE_POOL, List.of(x.name()), out, Map.of());
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
