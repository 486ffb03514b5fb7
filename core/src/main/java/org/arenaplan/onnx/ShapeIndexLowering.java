package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpKinds;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Import of the ONNX shape and index operators (opsets 9 to 21) onto the registry's kinds:
 * shape operands (Slice's starts/ends/axes/steps, Expand's shape, Tile's repeats, Pad's pads and
 * axes, Trilu's k, OneHot's depth, CenterCropPad's shape) must be constants at import (after
 * folding, {@link ImportFolding}) and become attributes; data operands stay op inputs.
 *
 * <p>Version differences (ONNX Changelog.md): Slice takes starts/ends/axes as attributes before
 * 10 and as inputs (with steps) from 10, negative axes from 11; Pad takes pads and a float
 * 'value' as attributes before 11, pads and constant_value as inputs from 11, axes from 18, mode
 * 'wrap' from 19; DepthToSpace gains mode (CRD) at 11; GatherND gains batch_dims at 12;
 * ScatterElements (11; Scatter before, the same op) and ScatterND gain reduction add/mul at 16,
 * max/min at 18; CenterCropPad is 18. The other versions in 9..21 widen types only.
 *
 * <p>Not handled: Pad's float 'value' other than 0 before opset 11 (refused by name); shape
 * operands computed at run time (a data-dependent shape, refused with the node named).
 */
final class ShapeIndexLowering {
    /** ONNX op types lowered here. */
    static final Set<String> TYPES = Set.of("Slice", "Expand", "Tile", "Pad", "Trilu", "GatherElements", "ScatterElements", "Scatter",
            "GatherND", "ScatterND", "OneHot", "DepthToSpace", "SpaceToDepth", "CenterCropPad");

    /** ONNX attributes consumed at import that the registry kinds do not carry. */
    static final Map<String, Set<String>> ONNX_ONLY_ATTRS = Map.of(
            "Slice", Set.of("starts", "ends", "axes"),
            "Pad", Set.of("pads", "mode", "value"),
            "Scatter", Set.of("axis"),
            "CenterCropPad", Set.of("axes"));

    private ShapeIndexLowering() { }

    static Lowered lower(NodeContext n) {
        return switch (n.opType()) {
            case "Slice" -> slice(n);
            case "Expand" -> simple(n, OpKinds.EXPAND, Map.of("shape", n.constantInts(1, "the shape")));
            case "Tile" -> simple(n, OpKinds.TILE, Map.of("repeats", n.constantInts(1, "repeats")));
            case "Pad" -> pad(n);
            case "CenterCropPad" -> centerCropPad(n);
            case "Trilu" -> simple(n, OpKinds.TRILU, Map.of("upper", n.integer("upper", 1) != 0 ? 1L : 0L,
                    "k", n.hasInput(1) ? scalar(n, 1, "k") : 0L));
            case "GatherElements" -> indexed(n, OpKinds.GATHER_ELEMENTS, 2, Map.of("axis", (long) n.axis(n.integer("axis", 0), n.input(0).rank(), "axis")));
            case "Scatter", "ScatterElements" -> indexed(n, OpKinds.SCATTER_ELEMENTS, 3, Map.of("axis", (long) n.axis(n.integer("axis", 0), n.input(0).rank(), "axis"),
                    "reduction", reduction(n)));
            case "GatherND" -> indexed(n, OpKinds.GATHER_ND, 2, Map.of("batch_dims", n.integer("batch_dims", 0)));
            case "ScatterND" -> indexed(n, OpKinds.SCATTER_ND, 3, Map.of("reduction", reduction(n)));
            case "OneHot" -> oneHot(n);
            case "DepthToSpace" -> simple(n, OpKinds.DEPTH_TO_SPACE, Map.of("blocksize", blocksize(n), "mode", n.string("mode", "DCR")));
            case "SpaceToDepth" -> simple(n, OpKinds.SPACE_TO_DEPTH, Map.of("blocksize", blocksize(n)));
            default -> throw n.error("unsupported op '" + n.opType() + "'");
        };
    }

    /** The registry kind of {@code kind} computes the output shape from input 0 and {@code attrs}. */
    private static Lowered simple(NodeContext n, String kind, Map<String, Object> attrs) {
        return NodeLowering.op(n, kind, List.of(n.input(0).name()), Shapes.infer(n, kind, attrs, n.input(0)), attrs);
    }

    private static Lowered indexed(NodeContext n, String kind, int inputs, Map<String, Object> attrs) {
        List<String> names = new ArrayList<>();
        Value[] in = new Value[inputs];
        for (int i = 0; i < inputs; i++) {
            in[i] = n.input(i);
            names.add(in[i].name());
        }
        return NodeLowering.op(n, kind, names, Shapes.infer(n, kind, attrs, in), attrs, kind.equals(OpKinds.ONE_HOT) ? n.input(1).dtype() : n.input(0).dtype());
    }

    private static long blocksize(NodeContext n) {
        n.require(n.hasAttr("blocksize"), "attribute 'blocksize' is required");
        return n.integer("blocksize", 0);
    }

    /** ScatterElements/ScatterND 'reduction': add and mul from opset 16, max and min from 18. */
    private static String reduction(NodeContext n) {
        String r = n.string("reduction", "none");
        n.require(r.equals("none") || n.opset() >= 16, "attribute 'reduction' needs opset 16");
        n.require(!(r.equals("max") || r.equals("min")) || n.opset() >= 18, "reduction '" + r + "' needs opset 18");
        return r;
    }

    /** The one integer of constant input {@code i} (a scalar or a one-element tensor). */
    private static long scalar(NodeContext n, int i, String what) {
        long[] v = n.constantInts(i, what);
        n.require(v.length == 1, what + " must hold one value, got " + Arrays.toString(v));
        return v[0];
    }

    /** Slice: attributes starts, ends, axes before opset 10; constant inputs starts, ends, axes, steps from 10. */
    private static Lowered slice(NodeContext n) {
        Value x = n.input(0);
        long[] starts, ends, axes, steps;
        if (n.opset() < 10) {
            n.require(n.hasAttr("starts") && n.hasAttr("ends"), "attributes 'starts' and 'ends' are required before opset 10");
            starts = n.ints("starts", null);
            ends = n.ints("ends", null);
            axes = n.ints("axes", null);
            steps = null;
        } else {
            n.require(!n.hasAttr("starts") && !n.hasAttr("ends") && !n.hasAttr("axes"), "starts, ends and axes are inputs from opset 10, not attributes");
            starts = n.constantInts(1, "starts");
            ends = n.constantInts(2, "ends");
            axes = n.hasInput(3) ? n.constantInts(3, "axes") : null;
            steps = n.hasInput(4) ? n.constantInts(4, "steps") : null;
        }
        n.require(starts.length == ends.length, "starts " + Arrays.toString(starts) + " and ends " + Arrays.toString(ends) + " differ in length");
        if (axes == null) {
            axes = new long[starts.length];
            for (int i = 0; i < axes.length; i++) axes[i] = i;
        }
        for (int i = 0; i < axes.length; i++) axes[i] = n.axis(axes[i], x.rank(), "axis");
        if (steps == null) {
            steps = new long[starts.length];
            Arrays.fill(steps, 1);
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("starts", starts);
        attrs.put("ends", ends);
        attrs.put("axes", axes);
        attrs.put("steps", steps);
        long[] shape = Shapes.infer(n, OpKinds.SLICE, attrs, x);
        Lowered l = NodeLowering.op(n, OpKinds.SLICE, List.of(x.name()), shape, attrs);
        if (!leadingRows(x.shape(), starts, ends, axes, steps, shape)) return l;
        return new Lowered(l.kind(), l.inputs(), l.outputs(), l.attrs(), true, l.dropped());
    }

    /** Whether a Slice takes whole rows along axis 0 with step 1 (every other axis whole): a view of its input. */
    private static boolean leadingRows(long[] x, long[] starts, long[] ends, long[] axes, long[] steps, long[] out) {
        if (x.length == 0 || out[0] == 0) return false;
        for (int d = 1; d < x.length; d++) if (out[d] != x[d]) return false;
        for (int i = 0; i < axes.length; i++) {
            if (axes[i] != 0 && !(steps[i] == 1 && clampedStart(starts[i], x[(int) axes[i]]) == 0)) return false;
            if (axes[i] == 0 && steps[i] != 1 && out[0] > 1) return false;
        }
        return true;
    }

    private static long clampedStart(long s, long n) {
        return Math.max(0, Math.min(n, s < 0 ? s + n : s));
    }

    /** The byte offset of a Slice view in its input {@code x}: its first row. */
    static long viewOffset(Lowered l, Value x) {
        if (!l.kind().equals(OpKinds.SLICE) || x.rank() == 0) return 0;
        long[] starts = (long[]) l.attrs().get("starts"), axes = (long[]) l.attrs().get("axes");
        for (int i = 0; i < axes.length; i++)
            if (axes[i] == 0) return clampedStart(starts[i], x.dim(0)) * (x.elements() / Math.max(1, x.dim(0))) * x.dtype().bytes();
        return 0;
    }

    /**
     * Pad: before opset 11 attributes pads, mode, value (a float; only 0 is supported); from 11
     * input pads (constant), optional input constant_value (a one-element tensor, read at run
     * time), from 18 optional input axes (constant); mode constant, reflect, edge, and wrap from 19.
     */
    private static Lowered pad(NodeContext n) {
        Value x = n.input(0);
        int r = x.rank();
        long[] pads;
        List<String> inputs = new ArrayList<>(List.of(x.name()));
        if (n.opset() < 11) {
            n.require(n.hasAttr("pads"), "attribute 'pads' is required before opset 11");
            pads = n.ints("pads", null);
            n.require(n.real("value", 0) == 0, "attribute 'value' " + n.real("value", 0) + " is not supported (only 0; from opset 11 constant_value is an input)");
        } else {
            n.require(!n.hasAttr("pads") && !n.hasAttr("value"), "pads and value are inputs from opset 11, not attributes");
            pads = n.constantInts(1, "pads");
            if (n.hasInput(2)) {
                n.require(n.input(2).elements() == 1 && n.input(2).dtype() == x.dtype(), "constant_value " + n.input(2) + " must be one " + x.dtype().jsonName() + " element");
                inputs.add(n.input(2).name());
            }
            if (n.hasInput(3)) {
                n.require(n.opset() >= 18, "input 'axes' needs opset 18");
                long[] axes = n.constantInts(3, "axes");
                n.require(pads.length == 2 * axes.length, "pads " + Arrays.toString(pads) + " must have 2 x " + axes.length + " values for axes " + Arrays.toString(axes));
                long[] full = new long[2 * r];
                for (int i = 0; i < axes.length; i++) {
                    int a = n.axis(axes[i], r, "axis");
                    full[a] = pads[i];
                    full[a + r] = pads[i + axes.length];
                }
                pads = full;
            }
        }
        String mode = n.string("mode", "constant");
        n.require(!mode.equals("wrap") || n.opset() >= 19, "mode 'wrap' needs opset 19");
        n.require(pads.length == 2 * r, "pads " + Arrays.toString(pads) + " must have 2 x " + r + " values");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("pads", pads);
        attrs.put("mode", mode);
        Value[] in = inputs.size() == 2 ? new Value[]{x, n.input(2)} : new Value[]{x};
        return NodeLowering.op(n, OpKinds.PAD, inputs, Shapes.infer(n, OpKinds.PAD, attrs, in), attrs);
    }

    /** CenterCropPad (18): per listed axis, crop or zero-pad to the target extent, centred (the extra element at the end); a Pad with negative pads where it crops. */
    private static Lowered centerCropPad(NodeContext n) {
        Value x = n.input(0);
        int r = x.rank();
        long[] shape = n.constantInts(1, "the shape");
        long[] axes = n.ints("axes", null);
        if (axes == null) {
            axes = new long[r];
            for (int i = 0; i < r; i++) axes[i] = i;
        }
        n.require(axes.length == shape.length, "shape " + Arrays.toString(shape) + " must have one extent per axis " + Arrays.toString(axes));
        long[] pads = new long[2 * r];
        for (int i = 0; i < axes.length; i++) {
            int a = n.axis(axes[i], r, "axis");
            n.require(shape[i] >= 0, "shape " + Arrays.toString(shape) + " has a negative extent");
            long d = shape[i] - x.dim(a), half = Math.floorDiv(Math.abs(d), 2);
            pads[a] = d >= 0 ? half : -half;
            pads[a + r] = d >= 0 ? d - half : -(-d - half);
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("pads", pads);
        attrs.put("mode", "constant");
        return NodeLowering.op(n, OpKinds.PAD, List.of(x.name()), Shapes.infer(n, OpKinds.PAD, attrs, x), attrs);
    }

    /** OneHot: inputs indices, depth (constant, any numeric type), values [off, on]; attr axis (default -1). */
    private static Lowered oneHot(NodeContext n) {
        double[] depth = n.constantDoubles(1, "depth");
        n.require(depth.length == 1 && depth[0] >= 1, "depth must be one value of at least 1, got " + Arrays.toString(depth));
        Value idx = n.input(0);
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) n.axis(n.integer("axis", -1), idx.rank() + 1, "axis"));
        attrs.put("depth", (long) depth[0]);
        Value values = n.input(2);
        Lowered l = NodeLowering.op(n, OpKinds.ONE_HOT, List.of(idx.name(), values.name()), Shapes.infer(n, OpKinds.ONE_HOT, attrs, idx, values), attrs, values.dtype());
        return l;
    }
}
