package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.Value;
import org.arenaplan.train.Backward;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.out;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.ir.AttrSpec.MAX_RANK;
import static org.arenaplan.onnx.NodeLowering.op;
import static org.arenaplan.onnx.NodeLowering.view;

/**
 * Data movement: Concat, Transpose, Split, Copy and the view kinds (Reshape, Flatten, Identity,
 * Dropout at inference, Squeeze, Unsqueeze; Slice is {@link ShapeIndexOps}'), on the {@link Kernels#CONCAT_SLICE},
 * {@link Kernels#TRANSPOSE} and {@link Kernels#COPY} kernels; any element type. Declared as views
 * or members they issue no work. ONNX version differences: Squeeze/Unsqueeze axes and Split
 * sizes move from attribute to input at 13; Reshape gains {@code allowzero} at 14; Split gains
 * {@code num_outputs} at 18; Flatten takes a negative axis from 11; Dropout's
 * {@code training_mode} input from 12 must be false. Versions 23, 24 and 25 of Reshape, Flatten,
 * Identity, Squeeze, Unsqueeze and Transpose only add element types (float4e2m1, float8e8m0,
 * int2/uint2, refused wherever a tensor has one) and clarify the text (Transpose-25: each perm
 * value in [0, rank-1], as already checked).
 */
final class LayoutOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String DROPOUT = "Dropout", SQUEEZE = "Squeeze", UNSQUEEZE = "Unsqueeze";

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                OpDefinition.op(OpKinds.CONCAT, 1, Integer.MAX_VALUE).outputs(1, Integer.MAX_VALUE)
                        .attrs(AttrSpec.axis("axis", 0), AttrSpec.flag("extents"))   // 1: one runtime extent (int64 [1]) per input after the output (ir.ShapeRules#concat)
                        .shapes(ShapeRules::concat).members().kernels(Kernels.CONCAT_SLICE, Kernels.CONCAT_BOUNDED).flops(OpSpec.NO_ARITHMETIC).carries(BoundedFlows.CONCAT)
                        .doc("inputs may be member slices of the output when every extent before axis is 1; then it does no work; "
                                + "along the bounded axis of bounded inputs, concat_bounded moves each one's actual rows after the earlier ones'")
                        .lower(LayoutOps::concat).onnx(LayoutOps::importConcat).build(),
                OpDefinition.op(OpKinds.TRANSPOSE, 1, 1).attrs(AttrSpec.ints("perm", 0, MAX_RANK - 1, "the axes reversed")).shape(ShapeRules::transpose)
                        .kernels(Kernels.TRANSPOSE, Kernels.TRANSPOSE_BOUNDED).carries(BoundedFlows::transpose).flops(OpSpec.NO_ARITHMETIC)
                        .doc("perm defaults to the reversed axes; a bounded input (NonZero's [rank, n]) by transpose_bounded, which reads its count")
                        .lower((op, l) -> List.of(transpose(op, l))).gradient(LayoutOps::transposeGradient).onnx(LayoutOps::importTranspose).build(),
                OpDefinition.op(OpKinds.SPLIT, 1, 1).outputs(1, Integer.MAX_VALUE).attrs(AttrSpec.axis("axis", 0), AttrSpec.ints("split", 0, Long.MAX_VALUE, "equal parts"),
                                AttrSpec.integer("even", 0, 0, 2),   // imported without ONNX's split, the parts derived from the extent: 1 equal parts, 2 num_outputs' (ir.BoundedFlows#split)
                                AttrSpec.flag("extents"),            // 1: each part's runtime extent (int64 [1]) an output after the parts (ir.ShapeRules#splitParts)
                                AttrSpec.flag("rest"))               // 1: the last part is the bound's rest past the parts ONNX lists, whose sum the run checks (ir.BoundedFlows#split)
                        .shapes(ShapeRules::split).view(OpSpec.ViewRule.SPLIT).kernels(Kernels.TRANSPOSE, Kernels.CHECK_EXTENT, Kernels.SPLIT_BOUNDED).carries(BoundedFlows.SPLIT)
                        .doc("one strided copy per output; outputs may be views of the input where every extent before axis is 1")
                        .lower(LayoutOps::split).onnx(LayoutOps::importSplit, "num_outputs").build(),
                OpDefinition.op(OpKinds.COPY, 1, 1).shape(ShapeRules::sameAsFirst).inPlace(0).kernels(Kernels.COPY).flops(OpSpec.NO_ARITHMETIC).doc("a device-to-device copy")
                        .lower((op, l) -> List.of(copy(op, l, op.inputs().get(0)))).build(),
                extentKind(OpKinds.RESHAPE).attrs(AttrSpec.ints("shape_given", -1, Long.MAX_VALUE, "none: not imported from ONNX"))
                        .onnx(LayoutOps::importReshape, "allowzero").build(),
                extentKind(OpKinds.FLATTEN).onnx(n -> view(n, OpKinds.FLATTEN, flatten(n)), "axis").build(),
                viewKind(OpKinds.IDENTITY).onnx(n -> view(n, OpKinds.IDENTITY, n.input(0).shape())).build(),
                viewKind(DROPOUT).doc("inference: the identity").onnx(LayoutOps::dropoutView, "ratio", "seed", "is_test").build(),
                viewKind(SQUEEZE).attrs(AttrSpec.ints("axes", 0, MAX_RANK - 1, "none: matched by extent"))   // the input axes removed, named at ONNX import (ir.BoundedFlows#reshape)
                        .onnx(n -> named(n, SQUEEZE, squeeze(n), removedAxes(n))).build(),
                viewKind(UNSQUEEZE).attrs(AttrSpec.ints("axes", 0, MAX_RANK - 1, "none: matched by extent"))   // the output axes inserted, named at ONNX import (ir.BoundedFlows#reshape)
                        .onnx(n -> named(n, UNSQUEEZE, unsqueeze(n), insertedAxes(n))).build());
    }

    private static OpDefinition.Builder viewKind(String kind) {
        return OpDefinition.op(kind, 1, 1).view(OpSpec.ViewRule.WHOLE).inPlace(0).kernels(Kernels.COPY).carries(BoundedFlows.RESHAPE)
                .doc("same elements, new shape; as a view it issues no work, otherwise a copy").lower(LayoutOps::viewAsCopy);
    }

    /**
     * A view kind that may merge or split the bounded axis of a bounded input: with {@code extents} 1 (set by the
     * ONNX importer, {@code onnx.BoundedRewrites#withReshapeExtent}) output 1 is output 0's runtime extent, which
     * {@link Kernels#RESHAPE_EXTENT} writes ({@code ir.BoundedFlows#RESHAPE}).
     */
    private static OpDefinition.Builder extentKind(String kind) {
        return viewKind(kind).outputs(1, 2).attrs(AttrSpec.flag("extents")).internal("extents").kernels(Kernels.RESHAPE_EXTENT)
                .doc("merging or splitting a bounded axis (extents) reshape_extent writes the output's runtime extent").lower(LayoutOps::viewWithExtent);
    }

    /**
     * A view kind with {@code extents} ({@link #extentKind}): output 0 a copy where it is not a view, then, where the
     * output is bounded by its own extent (output 1), {@link Kernels#RESHAPE_EXTENT} from the input's.
     */
    private static List<KernelCall> viewWithExtent(Op op, OpLowering l) {
        List<KernelCall> calls = new ArrayList<>();
        String x = op.inputs().get(0), y = out(op);
        if (op.writesAtRuntime(0)) calls.add(copy(op, l, x));
        org.arenaplan.ir.Graph.Bounded bx = l.bounded(x), by = l.bounded(y);
        if (bx != null && by != null && op.outputs().size() > 1 && by.extent().equals(op.outputs().get(1))) {
            long[] xs = l.shape(op, x), rows = BoundedFlows.scaled(xs, bx.axis(), l.shape(op, y), by.axis());
            calls.add(l.call(op, Kernels.RESHAPE_EXTENT, List.of(l.read(bx.extent()), l.write(op.outputs().get(1))), new long[]{rows[0], rows[1], xs[bx.axis()]}));
        }
        return calls;
    }

    // ---- lowering ----

    /** {@link Kernels#COPY} of all of {@code x} into output 0 (same type). */
    static KernelCall copy(Op op, OpLowering l, String x) {
        DType t = l.sameType(op, x, out(op));
        return l.call(op, Kernels.COPY, List.of(l.read(x), l.write(out(op))), new long[]{l.elements(out(op)), t.bytes()});
    }

    /** A view kind not declared a view: a copy, when the size does not change. */
    static List<KernelCall> viewAsCopy(Op op, OpLowering l) {
        if (l.bytes(op.inputs().get(0)) != l.bytes(out(op)))
            throw fail(op, op.kind() + " that is not declared a view changes the size; declare it a view");
        return List.of(copy(op, l, op.inputs().get(0)));
    }

    private static List<KernelCall> concat(Op op, OpLowering l) {
        String y = out(op);
        long[] ys = l.shape(op, y);
        int axis = (int) OpAttrs.of(op).integer("axis");
        if (axis < 0) axis += ys.length;
        if (axis < 0 || axis >= ys.length) throw fail(op, "axis out of range for " + Arrays.toString(ys));
        long outer = product(Arrays.copyOf(ys, axis));
        long yInner = product(Arrays.copyOfRange(ys, axis, ys.length));
        org.arenaplan.ir.Graph.Bounded b = l.bounded(y);
        if (b != null && b.axis() == axis && op.outputs().size() > 1) return concatBounded(op, l, axis);
        List<KernelCall> calls = new ArrayList<>();
        long offset = 0;
        for (int j = 0; j < op.inputs().size(); j++) {
            String x = op.inputs().get(j);
            long xInner = l.elements(x) / Math.max(1, outer);
            if (op.readsAtRuntime(j)) {
                // With one outer row (always so when inputs are member slices) the call writes one
                // contiguous run of y: declared as exactly those bytes, so the member slices their
                // producers wrote keep their writes (the simulator's version stamps follow the
                // declared range). Otherwise it writes strided rows across y.
                KernelArg dst = outer == 1 ? l.writeAt(y, offset, xInner) : l.write(y);
                calls.add(l.call(op, Kernels.CONCAT_SLICE, List.of(l.read(x), dst),
                        new long[]{outer, xInner, yInner, outer == 1 ? 0 : offset, l.sameType(op, x, y).bytes()}));
            }
            offset += xInner;
        }
        return calls;
    }

    /**
     * Concat along the bounded axis, the outermost ({@code ir.BoundedFlows#CONCAT}): one {@link Kernels#CONCAT_BOUNDED}
     * per input, in order, each moving its actual rows after the rows output {@code k} (of the inputs before it)
     * counts and writing the rows so far to output k + 1, the last the output's runtime extent.
     */
    private static List<KernelCall> concatBounded(Op op, OpLowering l, int axis) {
        String y = out(op);
        long[] ys = l.shape(op, y);
        long per = product(Arrays.copyOfRange(ys, axis + 1, ys.length));
        List<KernelCall> calls = new ArrayList<>();
        for (int j = 0; j < op.inputs().size(); j++) {
            String x = op.inputs().get(j);
            org.arenaplan.ir.Graph.Bounded b = l.bounded(x);
            List<KernelArg> args = new ArrayList<>();
            if (j > 0) args.add(l.read(op.outputs().get(j)));
            if (b != null) args.add(l.read(b.extent()));
            args.addAll(List.of(l.read(x), l.write(y), l.write(op.outputs().get(j + 1))));
            calls.add(l.call(op, Kernels.CONCAT_BOUNDED, args, new long[]{l.shape(op, x)[axis], per, ys[axis], l.sameType(op, x, y).bytes(), j > 0 ? 1 : 0, b != null ? 1 : 0}));
        }
        return calls;
    }

    private static KernelCall transpose(Op op, OpLowering l) {
        String x = op.inputs().get(0), y = out(op);
        long[] xs = l.shape(op, x);
        int rank = xs.length;
        long[] perm;
        try {
            perm = OpAttrs.of(op).permutation(rank);
        } catch (GraphException e) {
            throw fail(op, e.getMessage());
        }
        org.arenaplan.ir.Graph.Bounded b = l.bounded(x);
        if (b != null) {   // compact at its actual shape, known only on the device (ir.OpSpec.BoundedFlow)
            long[] ints = new long[3 + 2 * rank];
            ints[0] = rank;
            ints[1] = b.axis();
            ints[2] = l.sameType(op, x, y).bytes();
            for (int d = 0; d < rank; d++) {
                ints[3 + d] = xs[d];
                ints[3 + rank + d] = perm[d];
            }
            return l.call(op, Kernels.TRANSPOSE_BOUNDED, List.of(l.read(b.extent()), l.read(x), l.write(y)), ints);
        }
        long[] xStride = new long[rank];
        long s = 1;
        for (int d = rank - 1; d >= 0; d--) { xStride[d] = s; s *= xs[d]; }
        long[] ints = new long[2 + 2 * rank];
        ints[0] = rank;
        ints[1 + 2 * rank] = l.sameType(op, x, y).bytes();
        for (int d = 0; d < rank; d++) {
            ints[1 + d] = xs[(int) perm[d]];
            ints[1 + rank + d] = xStride[(int) perm[d]];
        }
        return l.call(op, Kernels.TRANSPOSE, List.of(l.read(x), l.write(y)), ints);
    }

    /**
     * Split: output k holds, for each of the {@code outer} indices before the axis, {@code yInner_k}
     * consecutive elements starting {@code offset_k} into the input's row of {@code xInner}: one
     * strided copy (the transpose kernel over shape [outer, yInner_k], strides [xInner, 1]) per
     * computed output. Outputs declared views are not copied. Split along the bounded axis of a
     * bounded input into fixed parts first checks that its runtime extent is the bound, or with
     * {@code rest} the sum of the parts before the last ({@link Kernels#CHECK_EXTENT}); into the parts ONNX derives from the extent ({@code even}), one
     * {@link Kernels#SPLIT_BOUNDED} per part copies it and writes its extent.
     */
    private static List<KernelCall> split(Op op, OpLowering l) {
        String x = op.inputs().get(0);
        long[] xs = l.shape(op, x);
        long axis = OpAttrs.of(op).integer("axis");
        int a = (int) (axis < 0 ? axis + xs.length : axis);
        if (a < 0 || a >= xs.length) throw fail(op, "axis " + axis + " out of range for " + Arrays.toString(xs));
        long outer = product(Arrays.copyOf(xs, a)), xInner = product(Arrays.copyOfRange(xs, a, xs.length));
        List<KernelCall> calls = new ArrayList<>();
        org.arenaplan.ir.Graph.Bounded b = l.bounded(x);
        OpAttrs attrs = OpAttrs.of(op);
        int parts = ShapeRules.splitParts(attrs, op.outputs().size());
        if (b != null && b.axis() == a && attrs.integer("even") > 0) {   // parts derived from the actual extent, each with its own (ir.BoundedFlows#split)
            long per = xInner / Math.max(1, xs[a]);
            for (int k = 0; k < parts; k++) {
                String y = op.outputs().get(k);
                calls.add(l.call(op, Kernels.SPLIT_BOUNDED, List.of(l.read(b.extent()), l.read(x), l.write(y), l.write(op.outputs().get(parts + k))),
                        new long[]{k, parts, attrs.integer("even") - 1, per, l.shape(op, y)[a], xs[a], l.sameType(op, x, y).bytes()}));
            }
            return calls;
        }
        if (b != null && b.axis() == a) {   // fixed parts: they need the whole bound, or with a rest the parts before it
            long[] given = ShapeRules.splitExtents(attrs, xs, a, parts);
            long sum = Arrays.stream(given, 0, parts - (int) attrs.integer("rest")).sum();
            calls.add(l.call(op, Kernels.CHECK_EXTENT, List.of(l.read(b.extent())), new long[]{sum}));
        }
        long offset = 0;
        for (int k = 0; k < parts; k++) {
            String y = op.outputs().get(k);
            long yInner = outer == 0 ? 0 : l.elements(y) / outer;
            if (op.writesAtRuntime(k) && yInner > 0) {
                long span = (outer - 1) * xInner + yInner;
                calls.add(l.call(op, Kernels.TRANSPOSE, List.of(l.readAt(x, offset, span), l.write(y)), new long[]{2, outer, yInner, xInner, 1, l.sameType(op, x, y).bytes()}));
            }
            offset += yInner;
        }
        return calls;
    }

    // ---- ONNX ----

    private static Lowered importConcat(NodeContext n) {
        n.require(n.hasAttr("axis"), "attribute 'axis' is required");
        Value first = n.input(0);
        int axis = n.axis(n.integer("axis", 0), first.rank(), "axis");
        long[] out = first.shape();
        out[axis] = 0;
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < n.inputCount(); i++) {
            Value v = n.input(i);
            n.require(v.rank() == first.rank(), "input " + v + " has another rank than " + first);
            for (int d = 0; d < v.rank(); d++)
                n.require(d == axis || v.dim(d) == first.dim(d), "input " + v + " differs from " + first + " outside axis " + axis);
            n.require(out[axis] <= Long.MAX_VALUE - v.dim(axis), "the inputs' extents on axis " + axis + " sum past 2^63-1 (at input " + v + ")");
            out[axis] += v.dim(axis);
            inputs.add(v.name());
        }
        return op(n, OpKinds.CONCAT, inputs, out, Map.of("axis", (long) axis));
    }

    /**
     * Split: extents from the 'split' attribute before opset 13, from a constant input from 13; equal parts when absent.
     * A negative axis counts from the back at every version, as ONNX Runtime reads Split-2 (PyTorch exported
     * {@code chunk(2, dim=-1)} at opset 6 so: the backend test pytorch-converted/test_GLU).
     */
    private static Lowered importSplit(NodeContext n) {
        Value x = n.input(0);
        int axis = n.axis(n.integer("axis", 0), x.rank(), "axis");
        List<String> names = n.node().outputs();
        n.require(n.opset() < 13 || !n.hasAttr("split"), "attribute 'split' is input #1 from opset 13");
        long[] parts = n.opset() >= 13 ? (n.hasInput(1) ? n.constantInts(1, "split") : null) : n.ints("split", null);
        long derived = parts == null ? 1 : 0;   // even: parts derived from the extent (ir.BoundedFlows#split), 2 by num_outputs
        n.require(n.opset() >= 18 || !n.hasAttr("num_outputs"), "attribute 'num_outputs' needs opset 18");
        if (parts == null && n.hasAttr("num_outputs")) {
            // opset 18: ceil(extent / num_outputs) each, the last one smaller when it does not divide
            long k = n.integer("num_outputs", 0);
            derived = 2;
            n.require(k >= 1 && k == names.size(), "num_outputs " + k + " must be at least 1 and equal the number of outputs (" + names.size() + ")");
            long chunk = (x.dim(axis) + k - 1) / k;
            parts = new long[(int) k];
            for (int i = 0; i < k; i++) parts[i] = Math.max(0, Math.min(chunk, x.dim(axis) - i * chunk));
        } else {
            n.require(!n.hasAttr("num_outputs"), "give either input 'split' or attribute 'num_outputs', not both");
        }
        if (parts == null) {
            n.require(!names.isEmpty() && x.dim(axis) % names.size() == 0, "axis " + axis + " of " + x + " does not split into " + names.size() + " equal parts");
            parts = new long[names.size()];
            Arrays.fill(parts, x.dim(axis) / names.size());
        }
        n.require(parts.length == names.size(), "split " + Arrays.toString(parts) + " must have one extent per output (" + names.size() + ")");
        List<Value> outputs = new ArrayList<>();
        long sum = 0;
        for (int k = 0; k < parts.length; k++) {
            n.require(!names.get(k).isEmpty() && parts[k] >= 0, "output #" + k + " must be named and its extent " + parts[k] + " not negative");
            long[] shape = x.shape();
            shape[axis] = parts[k];
            outputs.add(new Value(names.get(k), x.dtype(), shape));
            sum += parts[k];
        }
        n.require(sum == x.dim(axis), "split " + Arrays.toString(parts) + " sums to " + sum + ", not to " + x.dim(axis));
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("split", parts);
        if (derived > 0) attrs.put("even", derived);
        return new Lowered(OpKinds.SPLIT, List.of(x.name()), outputs, attrs, false, List.of());
    }

    private static Lowered importTranspose(NodeContext n) {
        Value x = n.input(0);
        long[] perm = new long[x.rank()];
        for (int i = 0; i < perm.length; i++) perm[i] = perm.length - 1 - i;
        perm = n.ints("perm", perm);
        n.require(perm.length == x.rank(), "perm " + Arrays.toString(perm) + " must have " + x.rank() + " entries");
        boolean[] seen = new boolean[perm.length];
        long[] out = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            if (perm[i] < 0 || perm[i] >= perm.length || seen[(int) perm[i]])   // the message only on failure: per axis it was O(rank^2)
                throw n.error("perm " + Arrays.toString(perm) + " is not a permutation");
            seen[(int) perm[i]] = true;
            out[i] = x.dim((int) perm[i]);
        }
        return op(n, OpKinds.TRANSPOSE, List.of(x.name()), out, Map.of("perm", perm));
    }

    /**
     * Reshape as a view, with its shape input as written ({@code shape_given}: 0 copies, -1 infers), which
     * {@code ir.BoundedFlows#reshape} reads for a bounded input: the actual extent must reach the output
     * through a -1 or a 0 on its own axis, not through a constant that equals the upper bound.
     */
    private static Lowered importReshape(NodeContext n) {
        Lowered v = view(n, OpKinds.RESHAPE, reshape(n));
        return new Lowered(v.kind(), v.inputs(), v.outputs(), Map.of("shape_given", n.constantInts(1, "the shape")), v.view(), v.dropped());
    }

    /** Reshape's shape input: 0 copies the input's extent on that axis (unless allowzero, opset 14), one -1 takes the rest. */
    private static long[] reshape(NodeContext n) {
        Value x = n.input(0);
        long[] shape = n.constantInts(1, "the shape");
        boolean allowZero = n.opset() >= 14 && n.flag("allowzero", false);   // opset 14: 0 is an extent, not "copy"
        int unknown = -1;
        long known = 1;
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] == 0 && !allowZero) {
                n.require(i < x.rank(), "shape " + Arrays.toString(shape) + " copies axis " + i + " (0) but the input " + x + " has rank " + x.rank());
                shape[i] = x.dim(i);
            }
            if (shape[i] == -1) {
                n.require(unknown < 0, "shape " + Arrays.toString(shape) + " has more than one -1");
                unknown = i;
            } else {
                n.require(shape[i] > 0 || (shape[i] == 0 && x.elements() == 0), "shape " + Arrays.toString(shape) + " has invalid extent " + shape[i]);
                known = Math.multiplyExact(known, shape[i]);
            }
        }
        if (unknown >= 0) {
            n.require(known > 0 && x.elements() % known == 0, "shape " + Arrays.toString(shape) + " does not divide the " + x.elements() + " elements of " + x);
            shape[unknown] = x.elements() / known;
        }
        return shape;
    }

    /**
     * Dropout as inference runs it: output 0 a view of X; its bool mask (output 1) from Dropout-12
     * on all true, a constant (ONNX Dropout-12: output = scale * data * mask, an identity when
     * nothing is dropped; ONNX Runtime and onnx's reference agree). Before opset 12 the two
     * disagree (ONNX Runtime's Dropout-7/10 fill the mask with 0, onnx's reference with true) and
     * the spec gives no value: not produced, and a reader of it refused.
     */
    private static Lowered dropoutView(NodeContext n) {
        org.arenaplan.onnx.Lowered v = view(n, DROPOUT, dropout(n));
        List<String> outs = n.node().outputs();
        if (outs.size() < 2 || outs.get(1).isEmpty() || n.opset() < 12) return v;
        Value mask = new Value(outs.get(1), DType.BOOL, n.input(0).shape());
        return new Lowered(v.kind(), v.inputs(), v.outputs(), v.attrs(), v.view(), List.of(), Map.of(mask, 1.0));
    }

    /**
     * Dropout is the identity at inference; from opset 12 a constant training_mode input must be
     * false, or the ratio a constant 0 (Dropout-12: "If set to 0, the output would be a simple copy
     * of the input"; its default is 0.5). A constant ratio outside [0, 1) is refused (Dropout-12's
     * input ratio: "with value in [0, 1)"; ONNX Runtime fails such a run: "ratio must be in the range [0, 1)").
     */
    private static long[] dropout(NodeContext n) {
        double[] given = n.opset() >= 12 && n.hasInput(1) ? n.constantValues(1) : null;
        if (given != null)
            for (double r : given) n.require(r >= 0 && r < 1, "ratio (input #1 '" + n.input(1).name() + "') is " + r + "; Dropout's ratio lies in [0, 1)");
        if (n.opset() >= 12 && n.hasInput(2)) {
            boolean training = false;
            for (long t : n.constantInts(2, "training_mode")) training |= t != 0;
            if (training) {
                double[] ratio = n.hasInput(1) ? n.constantReals(1, "ratio") : new double[]{0.5};
                for (double r : ratio)
                    n.require(r == 0, "training_mode is true with ratio " + r + "; only inference Dropout or ratio 0 (an identity) is supported");
            }
        }
        return n.input(0).shape();
    }

    private static long[] flatten(NodeContext n) {
        Value x = n.input(0);
        long axis = n.integer("axis", 1);
        n.require(axis >= -x.rank() && axis <= x.rank(), "axis " + axis + " is out of range for rank " + x.rank());
        org.arenaplan.onnx.OlderOpsets.checkNegativeAxis(n, axis, "axis");
        int a = (int) (axis < 0 ? axis + x.rank() : axis);
        long outer = 1, inner = 1;
        for (int i = 0; i < x.rank(); i++) {
            if (i < a) outer *= x.dim(i);
            else inner *= x.dim(i);
        }
        return new long[]{outer, inner};
    }

    /** Axes come from the attribute before opset 13 and from input #1 from opset 13 on. */
    private static long[] axes(NodeContext n, boolean required) {
        if (n.opset() >= 13) {
            if (n.hasInput(1)) return n.constantInts(1, "axes");
            n.require(!required, "input 'axes' is required");
            return null;
        }
        long[] axes = n.ints("axes", null);
        n.require(axes != null || !required, "attribute 'axes' is required");
        return axes;
    }

    /**
     * Squeeze or Unsqueeze as a view, with the axes it removes or inserts (non-negative, ascending)
     * kept as its {@code axes}: where a bounded input's axis and axes of one element are alike, they
     * say which output axis is the bounded one ({@code ir.BoundedFlows#reshape}).
     */
    private static Lowered named(NodeContext n, String kind, long[] shape, long[] axes) {
        Lowered v = view(n, kind, shape);
        return new Lowered(v.kind(), v.inputs(), v.outputs(), Map.of("axes", axes), v.view(), v.dropped());
    }

    /** Unsqueeze's inserted output axes, non-negative and ascending (ONNX Unsqueeze-13: axes in [-r', r'-1], r' the output rank). */
    private static long[] insertedAxes(NodeContext n) {
        long[] axes = axes(n, true);
        int rank = n.input(0).rank() + axes.length;
        return java.util.stream.LongStream.of(axes).map(a -> n.axis(a, rank, "axis")).sorted().toArray();
    }

    /** Squeeze's removed input axes, non-negative and ascending (ONNX Squeeze-13: without axes, every axis of one element). */
    private static long[] removedAxes(NodeContext n) {
        Value x = n.input(0);
        long[] axes = axes(n, false);
        if (axes == null) return java.util.stream.IntStream.range(0, x.rank()).filter(i -> x.dim(i) == 1).asLongStream().toArray();
        return java.util.stream.LongStream.of(axes).map(a -> n.axis(a, x.rank(), "axis")).sorted().toArray();
    }

    private static long[] unsqueeze(NodeContext n) {
        Value x = n.input(0);
        long[] axes = axes(n, true);
        int rank = x.rank() + axes.length;
        boolean[] inserted = new boolean[rank];
        for (long a : axes) {
            int ax = n.axis(a, rank, "axis");
            n.require(!inserted[ax], "axis " + a + " is listed twice");
            inserted[ax] = true;
        }
        long[] out = new long[rank];
        for (int i = 0, j = 0; i < rank; i++) out[i] = inserted[i] ? 1 : x.dim(j++);
        return out;
    }

    private static long[] squeeze(NodeContext n) {
        Value x = n.input(0);
        long[] axes = axes(n, false);
        boolean[] removed = new boolean[x.rank()];
        if (axes == null) {
            for (int i = 0; i < x.rank(); i++) removed[i] = x.dim(i) == 1;
        } else {
            for (long a : axes) {
                int ax = n.axis(a, x.rank(), "axis");
                n.require(x.dim(ax) == 1, "axis " + a + " of " + x + " has extent " + x.dim(ax) + ", not 1");
                removed[ax] = true;
            }
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < x.rank(); i++) if (!removed[i]) out.add(x.dim(i));
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** Transpose: dX = Transpose(dY) by the inverse permutation (perm absent: the reversed axes, its own inverse). */
    private static void transposeGradient(Op op, String dy, Backward b) {
        String x = op.inputs().get(0);
        long[] perm = OpAttrs.of(op).intsOrNull("perm");
        int r = b.shape(x).length;
        long[] inv = new long[r];
        for (int d = 0; d < r; d++) {
            if (perm == null) inv[d] = r - 1 - d;
            else inv[(int) perm[d]] = d;
        }
        b.accumulate(x, b.transpose(x, dy, inv));
    }
}
