package org.arenaplan.ops;

import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.device.KernelCall;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.product;

/**
 * Ops whose output shape depends on their input values, planned as bounded dynamic shapes
 * ({@link OpSpec.BoundedRule}; XLA's bounded dynamic dimensions, TFLite's upper-bound tensors):
 * the plan reserves each data output at its upper bound, the kernel writes the actual count into
 * the op's output 0 (the runtime extent, int64 [1]) and the actual row-major tensor into the
 * leading elements of the data output (zeros after), and the executors copy out the actual shape.
 * A data output may only be a graph output: an op that reads it is refused when the graph is built.
 *
 * <ul>
 *   <li>NonZero (ONNX Operators.md, NonZero-9, -13 widens types): X of any rank from 1 to
 *       {@link #MAX_RANK}, bool, an integer, f16, bf16, f32 or f64, to int64 [rank(X), n]: the
 *       indices of the n non-zero elements, in row-major order of X (numpy.nonzero; NaN counts as
 *       non-zero, -0.0 as zero); upper bound n = numel(X). {@link Kernels#NONZERO}.</li>
 *   <li>Compress (Compress-9, -11 adds negative axis): input of any element type, condition bool
 *       [m]; the slices along {@code axis} (every element of the flattened input when axis is absent)
 *       whose condition is true, in order; a condition shorter than the axis discards the slices past
 *       its end; one longer is refused (the spec lets it be shorter only). Upper bound: min(m, the
 *       axis extent). {@link Kernels#COMPRESS}.</li>
 *   <li>Unique (Unique-11): X bool, an integer, f16, bf16, f32 or f64; Y the distinct slices along
 *       {@code axis} (the distinct elements of the flattened X when axis is absent), ascending where
 *       {@code sorted} = 1 (the default; slices in lexicographic order), else in order of first
 *       occurrence; int64 indices (first occurrences), inverse_indices (static: one per slice of X)
 *       and counts. Floats compare by value, -0.0 equal to 0.0 (the first occurrence is kept), NaNs
 *       equal to each other and above every number (numpy.unique's equal_nan). Outputs the node
 *       leaves out are still computed, into tensors nothing reads. Upper bound: the axis extent
 *       (numel flattened). {@link Kernels#UNIQUE}.</li>
 *   <li>NonMaxSuppression (NonMaxSuppression-10, -11 changes nothing the import sees): boxes
 *       [B, N, 4] and scores [B, C, N] f32, max_output_boxes_per_class (int64, one value; absent: 0),
 *       iou_threshold and score_threshold (f32, one value; absent: 0 and none), center_point_box 0
 *       or 1, to int64 [n, 3] rows (batch, class, box) as onnx's reference
 *       (onnx/reference/ops/op_non_max_suppression.py) selects them. Upper bound B * C *
 *       min(max_output_boxes_per_class, N), with its value known at import, else B * C * N.
 *       {@link Kernels#NMS}.</li>
 * </ul>
 * Types: NonZero and Unique compare the types they declare ({@link OpSpec#computes}: bool, the
 * integers, f16, bf16, f32, f64; any other, float8 say, is refused naming the node and the list);
 * Compress moves elements of any whole-byte type (the packed ones are refused at import).
 */
final class DataDependentOps implements OpFamily {
    static final String NONZERO = "NonZero", COMPRESS = "Compress", UNIQUE = "Unique", NMS = "NonMaxSuppression";
    /** NonMaxSuppression's internal attributes: whether the node gives score_threshold; the selections per class the plan reserves (-1: every box). */
    private static final String HAS_SCORE_THRESHOLD = "has_score_threshold", PER_CLASS = "boxes_per_class_bound";
    /** Compress's internal flag: the ONNX node gave no axis, so the input is read flattened. */
    private static final String FLATTENED = "flattened";
    /** The largest rank of NonZero's X ({@link Kernels#NONZERO_MAX_RANK}). */
    static final int MAX_RANK = Kernels.NONZERO_MAX_RANK;
    /** The element types NonZero and Unique compare (their X), declared once ({@link OpSpec#computes}): bool, the integers, f16, bf16, f32, f64. */
    private static final DType[] COMPARED = {DType.BOOL, DType.I8, DType.I16, DType.I32, DType.I64, DType.U8, DType.U16, DType.U32, DType.U64,
            DType.F16, DType.BF16, DType.F32, DType.F64};

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(NONZERO, 1, 1).outputs(2, 2).shapes(DataDependentOps::nonZeroShapes).computes(COMPARED)
                        .bounded((a, shape, k) -> k == 1 ? 1 : -1).carries(BoundedFlows::nonZero).kernels(Kernels.NONZERO).flops(OpSpec.PER_INPUT_ELEMENT)
                        .doc("X (rank 1.." + MAX_RANK + ") to int64 [rank, n], the indices of its n non-zero elements in row-major order; "
                                + "output 0 is the runtime extent n (int64 [1]); planned at n = numel(X), a graph output only")
                        .lower((op, l) -> List.of(nonZero(op, l))).onnx(NONZERO, 9, DataDependentOps::importNonZero).build(),
                OpDefinition.op(COMPRESS, 2, 2).outputs(2, 2)
                        .attrs(AttrSpec.axis("axis", 0), AttrSpec.flag(FLATTENED))
                        .internal(FLATTENED).shapes(DataDependentOps::compressShapes)
                        .bounded((a, shape, k) -> k == 1 ? sliceAxis(a, shape) : -1)
                        .kernels(Kernels.COMPRESS).flops(OpSpec.NO_ARITHMETIC)
                        .doc("input, bool condition [m] to the slices along axis (the flattened input's elements where flattened = 1) whose condition "
                                + "is true; output 0 is the runtime extent n (int64 [1]); planned at n = min(m, the axis extent), a graph output only")
                        .lower((op, l) -> List.of(compress(op, l))).onnx(COMPRESS, 9, DataDependentOps::importCompress).build(),
                OpDefinition.op(UNIQUE, 1, 1).outputs(5, 5).attrs(AttrSpec.axis("axis", 0), AttrSpec.flag(FLATTENED), AttrSpec.integer("sorted", 1, 0, 1))
                        .internal(FLATTENED).shapes(DataDependentOps::uniqueShapes).computes(COMPARED)
                        .bounded((a, shape, k) -> k == 1 ? sliceAxis(a, shape) : k == 2 || k == 4 ? 0 : -1)
                        .kernels(Kernels.UNIQUE).flops(OpSpec.NO_ARITHMETIC)
                        .doc("X to Y (its n distinct slices along axis, or elements where flattened = 1; ascending where sorted = 1, else in order "
                                + "of first occurrence), int64 indices [n] (first occurrences), inverse_indices (Y's index of each slice), counts [n]; "
                                + "output 0 is the runtime extent n (int64 [1]); planned at n = the axis extent (numel flattened), graph outputs only")
                        .lower((op, l) -> List.of(unique(op, l))).onnx(UNIQUE, 11, DataDependentOps::importUnique).build(),
                OpDefinition.op(NMS, 5, 5).outputs(2, 2).attrs(AttrSpec.integer("center_point_box", 0, 0, 1), AttrSpec.flag(HAS_SCORE_THRESHOLD),
                                AttrSpec.integer(PER_CLASS, -1, -1, AttrSpec.MAX_INT32))
                        .internal(HAS_SCORE_THRESHOLD, PER_CLASS).shapes(DataDependentOps::nmsShapes)
                        .bounded((a, shape, k) -> k == 1 ? 0 : -1).carries(org.arenaplan.ir.BoundedFlows::nms).kernels(Kernels.NMS)
                        .flops((a, in, out) -> 20 * in[0][0] * in[1][1] * in[0][1] * in[0][1])
                        .doc("boxes [B, N, 4], scores [B, C, N], int64 max_output_boxes_per_class [1], f32 iou_threshold [1], score_threshold [1] "
                                + "to int64 [n, 3] (batch, class, box): per batch and class, boxes by descending score (ties: lower index) kept unless "
                                + "their IoU with a kept one exceeds iou_threshold; output 0 is the runtime extent n (int64 [1]); planned at n = "
                                + "B * C * min(max_output_boxes_per_class, N) (N when unknown at import), a graph output only")
                        .lower((op, l) -> List.of(nms(op, l))).onnx(NMS, 10, DataDependentOps::importNms).build());
    }

    // ---- shape rules ----

    /** [[1], [rank(X), numel(X)]]. */
    static long[][] nonZeroShapes(OpAttrs a, long[][] in, int outputs) {
        long[] x = in[0];
        if (x.length < 1 || x.length > MAX_RANK) throw new GraphException("X " + Arrays.toString(x) + " must have rank 1 to " + MAX_RANK);
        return new long[][]{{1}, {x.length, product(x)}};
    }

    /** [[1], the input's shape with the axis extent m] or [[1], [m]] when flattened. */
    static long[][] compressShapes(OpAttrs a, long[][] in, int outputs) {
        return new long[][]{{1}, compressBound(in[0], in[1], a.integer(FLATTENED) == 1 ? null : a.integer("axis"))};
    }

    /**
     * Compress's output at its upper bound: input {@code x} with the extent of {@code axis} (null:
     * the flattened input) set to the condition's length m.
     *
     * @throws GraphException for a condition that is not 1-D or longer than the axis, an axis out of range
     */
    private static long[] compressBound(long[] x, long[] c, Long axis) {
        if (c.length != 1) throw new GraphException("condition " + Arrays.toString(c) + " must be 1-D");
        if (axis == null) {
            long n = product(x);
            if (c[0] > n) throw new GraphException("condition [" + c[0] + "] is longer than the " + n + " elements of the flattened input");
            return new long[]{c[0]};
        }
        if (axis < -x.length || axis >= x.length) throw new GraphException("axis " + axis + " is outside [-" + x.length + ", " + x.length + ") for input " + Arrays.toString(x));
        int ax = (int) Math.floorMod(axis, x.length);
        if (c[0] > x[ax]) throw new GraphException("condition [" + c[0] + "] is longer than axis " + ax + " of input " + Arrays.toString(x));
        long[] y = x.clone();
        y[ax] = c[0];
        return y;
    }

    /** [[1], Y, indices, inverse_indices, counts] at the bound: Y as X (flattened: [numel]), the others [the axis extent]. */
    static long[][] uniqueShapes(OpAttrs a, long[][] in, int outputs) {
        long[] x = in[0];
        long[] y = uniqueBound(x, a.integer(FLATTENED) == 1 ? null : a.integer("axis"));
        long n = y[sliceAxis(a, y)];
        return new long[][]{{1}, y, {n}, {n}, {n}};
    }

    /** Unique's Y at its bound: X (axis null: flattened, [numel]). @throws GraphException for an axis out of range */
    private static long[] uniqueBound(long[] x, Long axis) {
        if (axis == null) return new long[]{product(x)};
        if (axis < -x.length || axis >= x.length) throw new GraphException("axis " + axis + " is outside [-" + x.length + ", " + x.length + ") for X " + Arrays.toString(x));
        return x.clone();
    }

    /**
     * The axis of Compress's or Unique's output 1 (Y) whose extent is the runtime count, for Y of
     * {@code shape} at its bound: 0 where flattened (Y is 1-D), else the node's axis, negative from the end.
     */
    private static int sliceAxis(OpAttrs a, long[] shape) {
        return a.integer(FLATTENED) == 1 ? 0 : (int) Math.floorMod(a.integer("axis"), shape.length);
    }

    /** [[1], [B * C * per-class bound, 3]] from boxes [B, N, 4] and scores [B, C, N]. */
    static long[][] nmsShapes(OpAttrs a, long[][] in, int outputs) {
        for (int k = 2; k < 5; k++) if (product(in[k]) != 1) throw new GraphException("input #" + k + " " + Arrays.toString(in[k]) + " must hold one value");
        return new long[][]{{1}, nmsBound(in[0], in[1], a.integer(PER_CLASS))};
    }

    /**
     * NonMaxSuppression's [B * C * min(perClass, N), 3] (perClass -1: N) for boxes [B, N, 4] and scores [B, C, N].
     *
     * @throws GraphException for boxes or scores of another shape
     */
    private static long[] nmsBound(long[] boxes, long[] scores, long perClass) {
        if (boxes.length != 3 || boxes[2] != 4) throw new GraphException("boxes " + Arrays.toString(boxes) + " must be [num_batches, spatial_dimension, 4]");
        if (scores.length != 3 || scores[0] != boxes[0] || scores[2] != boxes[1])
            throw new GraphException("scores " + Arrays.toString(scores) + " must be [" + boxes[0] + ", num_classes, " + boxes[1] + "] for boxes " + Arrays.toString(boxes));
        return new long[]{boxes[0] * scores[1] * nmsPerClass(boxes, perClass), 3};
    }

    /** The selections per batch and class the plan reserves for boxes [B, N, 4]: min(perClass, N), or N where perClass is -1 (unknown at import). */
    private static long nmsPerClass(long[] boxes, long perClass) {
        return perClass < 0 ? boxes[1] : Math.min(perClass, boxes[1]);
    }

    // ---- lowering ----

    /** nonzero(x, extent, y): ints [n, rank, shape[rank], dtype]. */
    private static KernelCall nonZero(Op op, OpLowering l) {
        String x = op.inputs().get(0), extent = op.outputs().get(0), y = op.outputs().get(1);
        l.requireComputed(op, x);
        DType t = l.dtype(x);
        requireExtent(op, l, extent);
        if (l.dtype(y) != DType.I64) throw fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not int64");
        long[] s = l.shape(op, x);
        long[] ints = new long[3 + s.length];
        ints[0] = product(s);
        ints[1] = s.length;
        System.arraycopy(s, 0, ints, 2, s.length);
        ints[2 + s.length] = t.onnxCode();
        if (l.elements(y) != s.length * ints[0]) throw fail(op, "output '" + y + "' must have " + s.length * ints[0] + " elements (its upper bound), has " + l.elements(y));
        return l.call(op, Kernels.NONZERO, List.of(l.read(x), l.write(extent), l.write(y)), ints);
    }

    /** compress(x, condition, extent, y): ints [outer, n, inner, m, es]. */
    private static KernelCall compress(Op op, OpLowering l) {
        String x = op.inputs().get(0), cond = op.inputs().get(1), extent = op.outputs().get(0), y = op.outputs().get(1);
        if (l.dtype(cond) != DType.BOOL) throw fail(op, "condition '" + cond + "' is " + l.dtype(cond).jsonName() + ", not bool");
        DType t = l.sameType(op, x, y);
        requireExtent(op, l, extent);
        long[] split = slices(op, l, x);
        long outer = split[0], n = split[1], inner = split[2];
        long m = l.elements(cond);
        if (m > n) throw fail(op, "condition '" + cond + "' has " + m + " values, more than the " + n + " slices it selects from");
        if (l.elements(y) != outer * m * inner) throw fail(op, "output '" + y + "' must have " + outer * m * inner + " elements (its upper bound), has " + l.elements(y));
        return l.call(op, Kernels.COMPRESS, List.of(l.read(x), l.read(cond), l.write(extent), l.write(y)), new long[]{outer, n, inner, m, t.bytes()});
    }

    /** unique(x, extent, y, indices, inverse_indices, counts): ints [outer, n, inner, sorted, dtype, es, alongAxis]. */
    private static KernelCall unique(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        List<String> o = op.outputs();
        l.requireComputed(op, x);
        l.requireComputed(op, o.get(1));
        DType t = l.dtype(x);
        requireExtent(op, l, o.get(0));
        for (int k = 2; k < 5; k++) if (l.dtype(o.get(k)) != DType.I64) throw fail(op, "output #" + k + " '" + o.get(k) + "' is " + l.dtype(o.get(k)).jsonName() + ", not int64");
        long[] split = slices(op, l, x);
        long outer = split[0], n = split[1], inner = split[2];
        for (int k = 2; k < 5; k++) if (l.elements(o.get(k)) != n) throw fail(op, "output #" + k + " '" + o.get(k) + "' must have " + n + " elements, has " + l.elements(o.get(k)));
        return l.call(op, Kernels.UNIQUE, List.of(l.read(x), l.write(o.get(0)), l.write(o.get(1)), l.write(o.get(2)), l.write(o.get(3)), l.write(o.get(4))),
                new long[]{outer, n, inner, OpAttrs.of(op).integer("sorted"), t.onnxCode(), t.bytes(), OpAttrs.of(op).integer(FLATTENED) == 1 ? 0 : 1});
    }

    /**
     * nms(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, [boxes' runtime extent,] extent, y): ints [B, N, C,
     * center_point_box, has_score_threshold, per-class bound]; the boxes' extent where boxes and scores are bounded ({@link org.arenaplan.ir.BoundedFlows#nms}).
     */
    private static KernelCall nms(Op op, OpLowering l) {
        List<String> in = op.inputs(), out = op.outputs();
        for (int k : new int[]{0, 1, 3, 4}) if (l.dtype(in.get(k)) != DType.F32) throw fail(op, "input #" + k + " '" + in.get(k) + "' is " + l.dtype(in.get(k)).jsonName() + ", not f32");
        if (l.dtype(in.get(2)) != DType.I64) throw fail(op, "max_output_boxes_per_class '" + in.get(2) + "' is " + l.dtype(in.get(2)).jsonName() + ", not int64");
        requireExtent(op, l, out.get(0));
        long[] boxes = l.shape(op, in.get(0)), scores = l.shape(op, in.get(1));
        OpAttrs a = OpAttrs.of(op);
        long rows = nmsBound(boxes, scores, a.integer(PER_CLASS))[0], per = nmsPerClass(boxes, a.integer(PER_CLASS));
        if (l.elements(out.get(1)) != 3 * rows) throw fail(op, "output '" + out.get(1) + "' must have " + 3 * rows + " elements (its upper bound)");
        List<org.arenaplan.device.KernelArg> args = new java.util.ArrayList<>();
        for (String t : in) args.add(l.read(t));
        org.arenaplan.ir.Graph.Bounded b = l.bounded(in.get(0));   // ir.BoundedFlows#nms: the kernel takes the actual boxes only
        if (b != null) args.add(l.read(b.extent()));
        args.add(l.write(out.get(0)));
        args.add(l.write(out.get(1)));
        return l.call(op, Kernels.NMS, args, new long[]{boxes[0], boxes[1], scores[1], a.integer("center_point_box"), a.integer(HAS_SCORE_THRESHOLD), per});
    }

    /** [outer, n, inner]: x as n slices along the op's axis, or [1, numel, 1] where flattened (Compress, Unique). */
    private static long[] slices(Op op, OpLowering l, String x) {
        long[] s = l.shape(op, x);
        OpAttrs a = OpAttrs.of(op);
        if (a.integer(FLATTENED) == 1) return new long[]{1, product(s), 1};
        long axis = a.integer("axis");
        if (axis < -s.length || axis >= s.length) throw fail(op, "axis " + axis + " out of range for shape " + Arrays.toString(s));
        int ax = sliceAxis(a, s);
        return new long[]{product(Arrays.copyOf(s, ax)), s[ax], product(Arrays.copyOfRange(s, ax + 1, s.length))};
    }

    private static void requireExtent(Op op, OpLowering l, String extent) {
        if (l.dtype(extent) != DType.I64 || l.elements(extent) != 1) throw fail(op, "output #0 '" + extent + "' (the runtime extent) must be int64 [1]");
    }

    // ---- ONNX ----

    /** The runtime extent: output 0 of the kind, a tensor the file does not name (the importer names it {@code <node>#0}). */
    private static Value extent() {
        return new Value("", DType.I64, new long[]{1});
    }

    /** ONNX NonZero(X) -> Y int64 [rank, n]. */
    private static Lowered importNonZero(NodeContext n) {
        Value x = n.input(0);
        n.require(x.rank() >= 1 && x.rank() <= MAX_RANK, "X " + x + " must have rank 1 to " + MAX_RANK + " (arenaplan's NonZero)");
        FamilyImports.requireComputed(n, x);
        long[][] s = nonZeroShapes(null, new long[][]{x.shape()}, 2);
        return new Lowered(NONZERO, List.of(x.name()), List.of(extent(), NodeLowering.output(n, s[1], DType.I64)), Map.of(), false, NodeLowering.extraOutputs(n));
    }

    /** ONNX Compress(input, condition) with optional axis (negative from opset 11); absent: the flattened input. */
    private static Lowered importCompress(NodeContext n) {
        Value x = n.input(0), c = n.input(1);
        n.require(c.dtype() == DType.BOOL, "condition " + c + " is " + c.dtype().jsonName() + ", not bool");
        n.require(c.rank() == 1, "condition " + c + " must be 1-D");
        Map<String, Object> attrs = new LinkedHashMap<>();
        if (n.hasAttr("axis")) {
            n.require(x.rank() >= 1, "input " + x + " has no axis to compress along");
            attrs.put("axis", (long) n.axis(n.integer("axis", 0), x.rank(), "axis"));
        } else {
            attrs.put(FLATTENED, 1L);
        }
        long[] shape;
        try {
            shape = compressBound(x.shape(), c.shape(), (Long) attrs.get("axis"));
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        return new Lowered(COMPRESS, List.of(x.name(), c.name()), List.of(extent(), NodeLowering.output(n, shape, x.dtype())), attrs, false, NodeLowering.extraOutputs(n));
    }

    /**
     * ONNX Unique(X) -> Y, indices, inverse_indices, counts (the last three optional; a left-out one is
     * still computed, into a tensor named {@code <node>#k}); axis absent: the flattened X; sorted default 1.
     */
    private static Lowered importUnique(NodeContext n) {
        Value x = n.input(0);
        FamilyImports.requireComputed(n, x);
        List<String> names = n.node().outputs();
        n.require(names.size() <= 4, "has " + names.size() + " outputs; Unique has at most 4");
        n.require(!names.isEmpty() && !names.get(0).isEmpty(), "output #0 (Y) is required and has no name");
        Map<String, Object> attrs = new LinkedHashMap<>();
        long sorted = n.integer("sorted", 1);
        n.require(sorted == 0 || sorted == 1, "attribute 'sorted' = " + sorted + " is not 0 or 1");
        attrs.put("sorted", sorted);
        Long axis = null;
        if (n.hasAttr("axis")) {
            n.require(x.rank() >= 1, "X " + x + " has no axis");
            axis = (long) n.axis(n.integer("axis", 0), x.rank(), "axis");
            attrs.put("axis", axis);
        } else {
            attrs.put(FLATTENED, 1L);
        }
        long[] y;
        try {
            y = uniqueBound(x.shape(), axis);
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        long count = axis == null ? y[0] : y[(int) (long) axis];
        List<Value> outs = new java.util.ArrayList<>(List.of(extent(), new Value(names.get(0), x.dtype(), y)));
        for (int k = 1; k < 4; k++) outs.add(new Value(k < names.size() ? names.get(k) : "", DType.I64, new long[]{count}));
        return new Lowered(UNIQUE, List.of(x.name()), outs, attrs, false, List.of());
    }

    /**
     * ONNX NonMaxSuppression(boxes, scores, max_output_boxes_per_class?, iou_threshold?, score_threshold?):
     * an absent max_output_boxes_per_class is 0 (nothing selected) and iou_threshold 0 (ONNX's defaults,
     * given as constants); an absent score_threshold keeps every box. The bound per class is
     * min(max_output_boxes_per_class, N) when the value is known at import, else N.
     */
    private static Lowered importNms(NodeContext n) {
        Value boxes = n.input(0), scores = n.input(1);
        n.require(boxes.dtype() == DType.F32 && scores.dtype() == DType.F32, "boxes " + boxes + " and scores " + scores + " must be f32");
        Map<Value, Double> constants = new LinkedHashMap<>();
        List<String> ins = new java.util.ArrayList<>(List.of(boxes.name(), scores.name()));
        DType[] types = {DType.I64, DType.F32, DType.F32};
        String[] names = {"max_output_boxes_per_class", "iou_threshold", "score_threshold"};
        for (int k = 2; k < 5; k++) {
            if (n.hasInput(k)) {
                Value v = n.input(k);
                n.require(v.dtype() == types[k - 2] && v.elements() == 1 && v.rank() <= 1, names[k - 2] + " " + v + " must be one " + types[k - 2].jsonName() + " value ([1] or a scalar)");
                ins.add(v.name());
            } else {
                Value c = new Value(n.opName() + "#" + names[k - 2], types[k - 2], new long[]{1});
                constants.put(c, 0.0);
                ins.add(c.name());
            }
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("center_point_box", n.integer("center_point_box", 0));
        n.require((long) attrs.get("center_point_box") == 0 || (long) attrs.get("center_point_box") == 1, "attribute 'center_point_box' = " + attrs.get("center_point_box") + " is not 0 or 1");
        attrs.put(HAS_SCORE_THRESHOLD, n.hasInput(4) ? 1L : 0L);
        double[] max = n.hasInput(2) ? n.constantValues(2) : new double[]{0};
        if (max != null) attrs.put(PER_CLASS, (long) Math.max(0, Math.min(max[0], Integer.MAX_VALUE)));
        long[] y;
        try {
            y = nmsBound(boxes.shape(), scores.shape(), max == null ? -1 : (long) attrs.get(PER_CLASS));
        } catch (GraphException e) {
            throw n.error(e.getMessage());
        }
        return new Lowered(NMS, ins, List.of(extent(), NodeLowering.output(n, y, DType.I64)), attrs, false, NodeLowering.extraOutputs(n), constants);
    }
}
