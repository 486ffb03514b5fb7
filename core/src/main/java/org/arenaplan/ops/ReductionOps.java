package org.arenaplan.ops;

import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.exec.OpLowering;
import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.BoundedFlows;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphException;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.OpAttrs;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpSpec;
import org.arenaplan.ir.ShapeRules;
import org.arenaplan.onnx.Lowered;
import org.arenaplan.onnx.NodeContext;
import org.arenaplan.onnx.NodeLowering;
import org.arenaplan.onnx.Value;
import org.arenaplan.train.Backward;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.arenaplan.exec.OpLowering.fail;
import static org.arenaplan.exec.OpLowering.product;
import static org.arenaplan.ir.AttrSpec.MAX_RANK;

/**
 * The reductions (ReduceSum ... ReduceSumSquare, ArgMax, ArgMin), the softmax family (Softmax,
 * LogSoftmax, Hardmax), CumSum, CumProd and TopK, after the ONNX operator specifications
 * (https://onnx.ai/onnx/operators/). Kernels {@link Kernels#REDUCE}, {@link Kernels#SOFTMAX},
 * {@link Kernels#CUMSUM}, {@link Kernels#TOPK}. ONNX version differences (Changelog.md):
 * <ul>
 *   <li>ReduceSum takes its axes as input #1 from opset 13, the other Reduce ops from 18 (an
 *       attribute before); from then {@code noop_with_empty_axes} = 1 with no or empty axes makes
 *       the node an Identity (a view), else no axes reduce every axis; negative axes from 11.</li>
 *   <li>ArgMax/ArgMin: {@code select_last_index} from 12; negative axis from 11.</li>
 *   <li>Softmax, LogSoftmax, Hardmax: before 13 the input is coerced to 2-D at {@code axis}
 *       (default 1) and each row normalised; from 13 the one axis {@code axis} (default -1); a
 *       negative axis at every version, as ONNX Runtime reads it.</li>
 *   <li>TopK: K an attribute before 10, a constant input from 10; largest, sorted and a negative
 *       axis from 11; TopK-24 adds bfloat16 only. CumSum: axis a constant input (opset 11 on);
 *       CumProd (26) the same with a product ({@link Kernels#CUMSUM}'s product flag).</li>
 * </ul>
 * Constant operands (axes, K, CumSum's axis) must be known at import: initializers, Constants,
 * or inputs whose values the caller gave ({@code OnnxImporter.Options.withInputValues}).
 */
final class ReductionOps implements OpFamily {
    /** Kind names this family's code refers to beyond their definitions (those the core passes name are in ir.OpKinds). */
    static final String CUMSUM = "CumSum", CUMPROD = "CumProd", TOP_K = "TopK";

    /** The most dims (kept plus reduced, after merging) a reduce call may carry: CUDA takes 40 ints. */
    static final int MAX_REDUCE_DIMS = 17;

    @Override
    public List<OpDefinition> definitions() {
        return List.of(
                reduce(OpKinds.REDUCE_SUM, Kernels.R_SUM, "sum; also the gradient of a broadcast in training graphs"),
                reduce("ReduceMean", Kernels.R_MEAN, "mean (0 over an empty set, as ONNX Runtime)"),
                reduce("ReduceMax", Kernels.R_MAX, "maximum (-inf over an empty set; a NaN wins)"),
                reduce("ReduceMin", Kernels.R_MIN, "minimum (+inf over an empty set; a NaN wins)"),
                reduce("ReduceProd", Kernels.R_PROD, "product"),
                reduce("ReduceL1", Kernels.R_L1, "sum of |x|"),
                reduce("ReduceL2", Kernels.R_L2, "sqrt of the sum of x^2"),
                reduce("ReduceLogSum", Kernels.R_LOG_SUM, "log of the sum"),
                reduce("ReduceLogSumExp", Kernels.R_LOG_SUM_EXP, "log of the sum of exp(x), as max + log(sum(exp(x - max)))"),
                reduce("ReduceSumSquare", Kernels.R_SUM_SQUARE, "sum of x^2"),
                arg("ArgMax", Kernels.R_ARGMAX, "largest"),
                arg("ArgMin", Kernels.R_ARGMIN, "smallest"),
                softmax(OpKinds.SOFTMAX, Kernels.SOFTMAX_MODE, "exp(x - max) / sum(exp(x - max))").gradient(ReductionOps::softmaxGradient).build(),
                softmax("LogSoftmax", Kernels.LOG_SOFTMAX_MODE, "x - max - log(sum(exp(x - max)))").build(),
                softmax("Hardmax", Kernels.HARDMAX_MODE, "1 at the first largest element, 0 elsewhere").build(),
                OpDefinition.op(CUMSUM, 1, 1).attrs(AttrSpec.requiredAxis("axis"), AttrSpec.flag("exclusive"), AttrSpec.flag("reverse"))
                        .shape(ReductionOps::sameShape).kernels(Kernels.CUMSUM)
                        .doc("running sum along axis (exclusive: without the element itself; reverse: from the end); f32, f16, bf16, f64 and integer types")
                        .lower((op, l) -> List.of(cumulative(op, l, 0))).onnx("CumSum", 11, ReductionOps::importCumulative).build(),
                OpDefinition.op(CUMPROD, 1, 1).attrs(AttrSpec.requiredAxis("axis"), AttrSpec.flag("exclusive"), AttrSpec.flag("reverse"))
                        .shape(ReductionOps::sameShape).kernels(Kernels.CUMSUM)
                        .doc("running product along axis (exclusive: without the element itself, starting at 1; reverse: from the end); f32, f16, bf16, f64 and integer types (wrapping)")
                        .lower((op, l) -> List.of(cumulative(op, l, 1))).onnx(CUMPROD, 26, ReductionOps::importCumulative).build(),
                OpDefinition.op(TOP_K, 1, 1).outputs(2, 2).attrs(AttrSpec.axis("axis", -1), AttrSpec.requiredInteger("k", 0, Long.MAX_VALUE),
                                AttrSpec.integer("largest", 1, 0, 1), AttrSpec.integer("sorted", 1, 0, 1),
                                AttrSpec.flag("clamp_k"))   // 1: min(k, X's actual count along axis), X bounded there (onnx.BoundedRewrites#readsAtMost; ir.BoundedFlows#topK)
                        .shapes(ReductionOps::topKShape).kernels(Kernels.TOPK).carries(BoundedFlows::topK)
                        .doc("outputs Values and Indices (int64): the k largest (or smallest) along axis, sorted, equal values by lower index; "
                                + "f32, f16, bf16 and integer types; a bounded X along axis: its actual values only, k above their count an error (with clamp_k: min(k, their count), bounded)")
                        .lower((op, l) -> List.of(topK(op, l))).onnx(ReductionOps::importTopK).build());
    }

    private static OpDefinition reduce(String kind, int code, String what) {
        boolean exact = code == Kernels.R_SUM || code == Kernels.R_MAX || code == Kernels.R_MIN || code == Kernels.R_PROD;
        return OpDefinition.op(kind, 1, 1).attrs(AttrSpec.ints("axes", -MAX_RANK, MAX_RANK - 1, "every axis"), AttrSpec.integer("keepdims", 1, 0, 1))
                .shape(ReductionOps::reduceShape).kernels(Kernels.REDUCE).flops(OpSpec.PER_INPUT_ELEMENT).carries(BoundedFlows::reduce)
                .doc(what + " over axes (all when absent), each kept as 1 with keepdims; f32, f16, bf16, f64 and integer types ("
                        + (exact ? "in 64 bits, wrapping" : "in double, truncated toward zero") + "); a bounded X: its actual elements only")
                .lower((op, l) -> List.of(reduce(op, l, code))).onnx(ReductionOps::importReduce, "noop_with_empty_axes").build();
    }

    private static OpDefinition arg(String kind, int code, String what) {
        return OpDefinition.op(kind, 1, 1).attrs(AttrSpec.axis("axis", 0), AttrSpec.integer("keepdims", 1, 0, 1), AttrSpec.flag("select_last_index"))
                .shape(ReductionOps::argShape).kernels(Kernels.REDUCE).carries(BoundedFlows::arg)
                .doc("int64 index of the " + what + " element along axis (the first, or the last with select_last_index); any numeric type; "
                        + "a bounded X: its actual elements only, none along axis an error")
                .lower((op, l) -> List.of(reduce(op, l, code))).onnx(ReductionOps::importArg).build();
    }

    /** A kind of the softmax family (3 FLOPs per element: the maximum, the exponential and sum, the division); finished with {@code build()}. */
    private static OpDefinition.Builder softmax(String kind, int mode, String what) {
        return OpDefinition.op(kind, 1, 1).attrs(AttrSpec.axis("axis", -1), AttrSpec.flag("single_axis"))
                .shape(ReductionOps::softmaxShape).inPlace(0).kernels(Kernels.SOFTMAX).flops((a, in, out) -> 3 * OpSpec.FlopRule.elements(out[0])).carries(BoundedFlows::softmax)
                .doc(what + " over the axes from axis to the end taken together (ONNX before opset 13), or over axis alone with single_axis = 1 (from 13); "
                        + "a bounded X: its actual values only along its bounded axis")
                .computes(LinearAlgebraOps.FLOATS).lowerTyped((op, l) -> List.of(softmax(op, l, mode))).onnx(ReductionOps::importSoftmax);
    }

    // ---- shape rules ----

    /** The reduced axes of a rank-{@code rank} input: those listed (each once), or every axis when none are. */
    static boolean[] reducedAxes(long[] axes, int rank) {
        boolean[] reduced = new boolean[rank];
        if (axes == null || axes.length == 0) Arrays.fill(reduced, true);
        else for (long a : axes) {
            int d = ShapeRules.axis(a, rank, "axis");
            if (reduced[d]) throw new GraphException("axes " + Arrays.toString(axes) + " name axis " + d + " twice");
            reduced[d] = true;
        }
        return reduced;
    }

    /** The input's shape without the reduced axes, or with each as 1 when {@code keep}. */
    static long[] reducedShape(long[] x, boolean[] reduced, boolean keep) {
        long[] out = new long[x.length];
        int n = 0;
        for (int d = 0; d < x.length; d++) {
            if (!reduced[d]) out[n++] = x[d];
            else if (keep) out[n++] = 1;
        }
        return Arrays.copyOf(out, n);
    }

    static long[] reduceShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        return reducedShape(x, reducedAxes(attrs.intsOrNull("axes"), x.length), attrs.integer("keepdims") == 1);
    }

    static long[] argShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        if (x.length == 0) throw new GraphException("input must have rank 1 or more");
        int a = ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        if (x[a] == 0) throw new GraphException("axis " + a + " of " + Arrays.toString(x) + " is empty: no element to take the index of");
        boolean[] reduced = new boolean[x.length];
        reduced[a] = true;
        return reducedShape(x, reduced, attrs.integer("keepdims") == 1);
    }

    static long[] softmaxShape(OpAttrs attrs, long[][] in) {
        if (in[0].length == 0) throw new GraphException("input must have rank 1 or more");
        ShapeRules.axis(attrs.integer("axis"), in[0].length, "axis");
        return in[0].clone();
    }

    /** The input's shape; an {@code axis} attribute must name one of its axes, {@code axes} each one once. */
    static long[] sameShape(OpAttrs attrs, long[][] in) {
        long[] x = in[0];
        if (attrs.op().attrs().containsKey("axis")) {
            if (x.length == 0) throw new GraphException("input must have rank 1 or more");
            ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        }
        long[] axes = attrs.intsOrNull("axes");
        if (axes != null) reducedAxes(axes, x.length);
        return x.clone();
    }

    static long[][] topKShape(OpAttrs attrs, long[][] in, int outputs) {
        long[] x = in[0];
        if (x.length == 0) throw new GraphException("input must have rank 1 or more");
        int axis = ShapeRules.axis(attrs.integer("axis"), x.length, "axis");
        long k = attrs.integer("k");
        if (k > x[axis]) throw new GraphException("k = " + k + " is more than the " + x[axis] + " elements along axis " + axis + " of " + Arrays.toString(x));
        long[] y = x.clone();
        y[axis] = k;
        long[][] out = new long[outputs][];
        for (int j = 0; j < outputs; j++) out[j] = y.clone();
        return out;
    }

    // ---- lowering ----

    private static KernelCall reduce(Op op, OpLowering l, int code) {
        long[] xs = l.shape(op, op.inputs().get(0));
        boolean arg = code == Kernels.R_ARGMAX || code == Kernels.R_ARGMIN;
        OpAttrs at = OpAttrs.of(op);
        boolean[] reduced = new boolean[xs.length];
        long[] axes = arg ? new long[]{at.integer("axis")} : at.intsOrNull("axes");
        if (axes == null || axes.length == 0) Arrays.fill(reduced, true);
        else for (long a : axes) reduced[axis(op, a, xs.length)] = true;
        return reduce(op, l, code, reduced, arg ? at.integer("select_last_index") : 0L);
    }

    /**
     * GlobalMaxPool as ReduceMax over the spatial axes (2 on) of X [N, C, ...]: a NaN wins, as onnx.reference gives it
     * (ONNX Runtime 1.30 where the NaN comes last; the pool kernel's max skips NaNs, as MaxPool's window max in
     * onnx.reference does).
     */
    static KernelCall spatialMax(Op op, OpLowering l) {
        boolean[] reduced = new boolean[l.shape(op, op.inputs().get(0)).length];
        Arrays.fill(reduced, Math.min(2, reduced.length), reduced.length, true);
        return reduce(op, l, Kernels.R_MAX, reduced, 0L);
    }

    /** The reduce kernel's call: op {@code code} over the axes {@code reduced} of input 0 into output 0. */
    private static KernelCall reduce(Op op, OpLowering l, int code, boolean[] reduced, long selectLast) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        long[] xs = l.shape(op, x);
        DType t = l.dtype(x);
        boolean arg = code == Kernels.R_ARGMAX || code == Kernels.R_ARGMIN;
        if (arg && l.dtype(y) != DType.I64) throw fail(op, "output '" + y + "' is " + l.dtype(y).jsonName() + ", not int64");
        if (!arg) l.sameType(op, x, y);
        StridedWalk walk = new StridedWalk(xs, reduced, StridedWalk.contiguous(xs));
        int k = walk.keptDims(), r = walk.reducedDims();
        if (k + r > MAX_REDUCE_DIMS) throw fail(op, "input " + Arrays.toString(xs) + " has " + (k + r) + " dims to walk after merging; the reduce kernel takes at most " + MAX_REDUCE_DIMS);
        if (l.elements(y) != walk.keptCount()) throw fail(op, "output '" + y + "' must have " + walk.keptCount() + " elements, has " + l.elements(y));
        List<Long> ints = new ArrayList<>(List.of((long) code, (long) t.onnxCode(), selectLast, (long) k, (long) r));
        walk.appendKept(ints);
        walk.appendReduced(ints);
        Graph.Bounded b = l.bounded(x);   // ir.BoundedFlows#reduce: the kernel reduces X's actual (leading) elements only
        if (b == null) return l.call(op, Kernels.REDUCE, List.of(l.read(x), l.write(y)), StridedWalk.longs(ints));
        ints.add(product(Arrays.copyOfRange(xs, b.axis() + 1, xs.length)));
        ints.add(reduced[b.axis()] ? 1L : 0L);
        return l.call(op, Kernels.REDUCE, List.of(l.read(x), l.read(b.extent()), l.write(y)), StridedWalk.longs(ints));
    }

    static int axis(Op op, long axis, int rank) {
        int a = (int) (axis < 0 ? axis + rank : axis);
        if (a < 0 || a >= rank) throw fail(op, "axis " + axis + " is out of range for rank " + rank);
        return a;
    }

    private static KernelCall softmax(Op op, OpLowering l, int mode) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        long[] s = l.shape(op, x);
        OpAttrs at = OpAttrs.of(op);
        int a = axis(op, at.integer("axis"), s.length);
        long outer = product(Arrays.copyOf(s, a));
        boolean single = at.integer("single_axis") == 1;
        long n = single ? s[a] : product(Arrays.copyOfRange(s, a, s.length));
        long inner = single ? product(Arrays.copyOfRange(s, a + 1, s.length)) : 1;
        if (l.elements(y) != outer * n * inner) throw fail(op, "output '" + y + "' must have " + outer * n * inner + " elements");
        Graph.Bounded b = l.bounded(x);   // ir.BoundedFlows#softmax: along a normalised bounded axis the kernel normalises X's actual values only
        if (b == null || b.axis() < a || (single && b.axis() != a))
            return l.call(op, Kernels.SOFTMAX, List.of(l.read(x), l.write(y)), Kernels.withType(Kernels.SOFTMAX, new long[]{outer, n, inner, mode}, l.computeType(op).onnxCode()));
        long per = single ? 1 : product(Arrays.copyOfRange(s, b.axis() + 1, s.length));   // a lane's values to a step of the bounded axis
        return l.call(op, Kernels.SOFTMAX, List.of(l.read(x), l.read(b.extent()), l.write(y)), new long[]{outer, n, inner, mode, l.computeType(op).onnxCode(), per});
    }

    /** [outer, n, inner] around {@code axis} of {@code s}. */
    private static long[] around(long[] s, int axis) {
        return new long[]{product(Arrays.copyOf(s, axis)), s[axis], product(Arrays.copyOfRange(s, axis + 1, s.length))};
    }

    private static DType summable(Op op, OpLowering l, String x, boolean f64) {
        DType t = l.dtype(x);
        if ((t == DType.F64 && !f64) || t == DType.BOOL)
            throw fail(op, "'" + x + "' is " + t.jsonName() + "; " + op.kind() + " takes f32, f16, bf16" + (f64 ? ", f64" : "") + " or an integer type");
        return t;
    }

    /** {@link Kernels#CUMSUM}: a running sum ({@code product} 0) or product (1). */
    private static KernelCall cumulative(Op op, OpLowering l, int product) {
        String x = op.inputs().get(0), y = op.outputs().get(0);
        DType t = summable(op, l, x, true);
        l.sameType(op, x, y);
        long[] xs = l.shape(op, x);
        OpAttrs at = OpAttrs.of(op);
        long[] a = around(xs, axis(op, at.integer("axis"), xs.length));
        return l.call(op, Kernels.CUMSUM, List.of(l.read(x), l.write(y)), new long[]{a[0], a[1], a[2], at.integer("exclusive"), at.integer("reverse"), t.onnxCode(), product});
    }

    private static KernelCall topK(Op op, OpLowering l) {
        String x = op.inputs().get(0), v = op.outputs().get(0), i = op.outputs().get(1);
        DType t = summable(op, l, x, false);
        l.sameType(op, x, v);
        if (l.dtype(i) != DType.I64) throw fail(op, "Indices '" + i + "' is " + l.dtype(i).jsonName() + ", not int64");
        long[] xs = l.shape(op, x);
        OpAttrs at = OpAttrs.of(op);
        long[] a = around(xs, axis(op, at.integer("axis"), xs.length));
        long k = at.integer("k");
        if (k > a[1] || l.elements(v) != a[0] * k * a[2]) throw fail(op, "Values '" + v + "' must hold " + a[0] * k * a[2] + " elements for k = " + k);
        Graph.Bounded b = l.bounded(x);   // bounded along axis (ir.BoundedFlows.topK): the kernel ranks the actual values only
        List<KernelArg> args = b == null || b.axis() != axis(op, at.integer("axis"), xs.length) ? List.of(l.read(x), l.write(v), l.write(i))
                : List.of(l.read(x), l.read(b.extent()), l.write(v), l.write(i));
        long[] ints = {a[0], a[1], a[2], k, at.integer("largest"), t.onnxCode(), t.bytes()};
        if (at.integer("clamp_k") == 1) {   // k at most the actual count: the outputs bounded by X's extent (ir.BoundedFlows#topK)
            if (args.size() != 4) throw fail(op, "clamp_k needs X bounded along axis " + at.integer("axis"));
            ints = Arrays.copyOf(ints, 8);
            ints[7] = 1;
        }
        return l.call(op, Kernels.TOPK, args, ints);
    }

    // ---- ONNX ----

    private static Lowered importReduce(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 2);
        Value x = n.input(0);
        long since = n.opType().equals("ReduceSum") ? 13 : 18;
        long[] axes;
        if (n.opset() >= since) {
            n.require(!n.hasAttr("axes"), "attribute 'axes' is input #1 from opset " + since);
            axes = n.hasInput(1) ? n.constantInts(1, "axes") : new long[0];
            if (axes.length == 0 && n.flag("noop_with_empty_axes", false)) return NodeLowering.view(n, OpKinds.IDENTITY, x.shape());
        } else {
            n.require(!n.hasInput(1), "takes its axes as an attribute before opset " + since + ", not as input #1");
            n.require(!n.hasAttr("noop_with_empty_axes"), "attribute 'noop_with_empty_axes' needs opset " + since);
            axes = n.ints("axes", new long[0]);
        }
        boolean[] reduced = new boolean[x.rank()];
        if (axes.length == 0) Arrays.fill(reduced, true);
        long[] resolved = new long[axes.length];
        for (int i = 0; i < axes.length; i++) {
            int d = n.axis(axes[i], x.rank(), "axis");
            n.require(!reduced[d], "axes " + Arrays.toString(axes) + " name axis " + d + " twice");
            reduced[d] = true;
            resolved[i] = d;
        }
        checkType(n, x);
        boolean keep = n.flag("keepdims", true);
        Map<String, Object> attrs = new LinkedHashMap<>();
        if (axes.length > 0) attrs.put("axes", resolved);
        attrs.put("keepdims", keep ? 1L : 0L);
        return NodeLowering.op(n, n.kind(), List.of(x.name()), reducedShape(x.shape(), reduced, keep), attrs, x.dtype());
    }

    private static Lowered importArg(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 1);
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        int axis = n.axis(n.integer("axis", 0), x.rank(), "axis");
        n.require(x.dim(axis) > 0, "axis " + axis + " of " + x + " is empty: there is no index to return");
        n.require(n.opset() >= 12 || !n.hasAttr("select_last_index"), "attribute 'select_last_index' needs opset 12");
        long last = n.flag("select_last_index", false) ? 1 : 0;
        checkType(n, x);
        boolean keep = n.flag("keepdims", true);
        boolean[] reduced = new boolean[x.rank()];
        reduced[axis] = true;
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("keepdims", keep ? 1L : 0L);
        attrs.put("select_last_index", last);
        return NodeLowering.op(n, n.kind(), List.of(x.name()), reducedShape(x.shape(), reduced, keep), attrs, DType.I64);
    }

    /** Before opset 13 the dims from axis (default 1) on are normalised together; from 13 the one axis (default -1). */
    private static Lowered importSoftmax(NodeContext n) {
        FamilyImports.requireInputs(n, 1, 1);
        Value x = n.input(0);
        FamilyImports.requireComputed(n, x);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        boolean v13 = n.opset() >= 13;
        // a negative axis counts from the back at every version, as ONNX Runtime reads Softmax-1 (PyTorch exported
        // log_softmax(dim=-1) at opset 6 so: the backend test pytorch-converted/test_log_softmax_lastdim)
        int axis = n.axis(n.integer("axis", v13 ? -1 : 1), x.rank(), "axis");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("single_axis", v13 ? 1L : 0L);
        return NodeLowering.op(n, n.kind(), List.of(x.name()), x.shape(), attrs, x.dtype());
    }

    /** Every numeric type (bool too: ReduceMax/ReduceMin of bool are any/all). */
    private static void checkType(NodeContext n, Value x) {
        DType t = x.dtype();
        n.require(t.isFloat32Compute() || t == DType.F64 || t.isIntegral(),
                "input " + x + " is " + t.jsonName() + "; " + n.opType() + " computes f32, f16, bf16, f64 and the integer types");
    }

    /** CumSum (11) and CumProd (26): x, a constant axis input; exclusive, reverse. */
    private static Lowered importCumulative(NodeContext n) {
        FamilyImports.requireInputs(n, 2, 2);
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        DType t = x.dtype();
        n.require(t.isFloat32Compute() || t == DType.F64 || (t.isIntegral() && t != DType.BOOL),
                "input " + x + " is " + t.jsonName() + "; " + n.opType() + " computes f32, f16, bf16, f64 and integer types");
        long[] a = n.constantInts(1, "axis");
        n.require(a.length == 1, "axis (input #1) must hold one value, has " + a.length);
        int axis = n.axis(a[0], x.rank(), "axis");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("exclusive", n.flag("exclusive", false) ? 1L : 0L);
        attrs.put("reverse", n.flag("reverse", false) ? 1L : 0L);
        return NodeLowering.op(n, n.kind(), List.of(x.name()), x.shape(), attrs, t);
    }

    private static Lowered importTopK(NodeContext n) {
        Value x = n.input(0);
        n.require(x.rank() >= 1, "input " + x + " must have rank 1 or more");
        DType t = x.dtype();
        n.require(t.isFloat32Compute() || (t.isIntegral() && t != DType.BOOL),
                "input " + x + " is " + t.jsonName() + "; TopK computes f32, f16, bf16 and integer types");
        long k;
        if (n.opset() >= 10) {
            FamilyImports.requireInputs(n, 2, 2);
            n.require(!n.hasAttr("k"), "attribute 'k' is input #1 from opset 10");
            long[] kv = n.constantInts(1, "K");
            n.require(kv.length == 1, "K (input #1) must hold one value, has " + kv.length);
            k = kv[0];
        } else {
            FamilyImports.requireInputs(n, 1, 1);
            n.require(n.hasAttr("k"), "attribute 'k' is required");
            k = n.integer("k", 0);
        }
        n.require(n.opset() >= 11 || (!n.hasAttr("largest") && !n.hasAttr("sorted")), "attributes 'largest' and 'sorted' need opset 11");
        int axis = n.axis(n.integer("axis", -1), x.rank(), "axis");
        n.require(k >= 0 && k <= x.dim(axis), "K = " + k + " must be in [0, " + x.dim(axis) + "] (the extent of axis " + axis + " of " + x + ")");
        long[] shape = x.shape();
        shape[axis] = k;
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("axis", (long) axis);
        attrs.put("k", k);
        attrs.put("largest", n.flag("largest", true) ? 1L : 0L);
        attrs.put("sorted", n.flag("sorted", true) ? 1L : 0L);
        return new Lowered(TOP_K, List.of(x.name()),
                List.of(new Value(FamilyImports.outputName(n, 0), t, shape), new Value(FamilyImports.outputName(n, 1), DType.I64, shape)), attrs, false, List.of());
    }

    /** Softmax: dX = SoftmaxGrad(dY, Y) over the same axes, in place over dY (single_axis only over a last axis). */
    private static void softmaxGradient(Op op, String dy, Backward g) {
        long[] ys = g.shape(op.outputs().get(0));
        long axis = OpAttrs.of(op).integer("axis");
        int a = (int) (axis < 0 ? axis + ys.length : axis);
        boolean innerOnes = true;
        for (int d = a + 1; d < ys.length; d++) innerOnes &= ys[d] == 1;
        if (OpAttrs.of(op).integer("single_axis") == 1 && !innerOnes)
            throw new GraphException("op '" + op.name() + "' (Softmax): gradients need the axes from axis on taken together (single_axis = 0), or a last axis");
        String x = op.inputs().get(0);
        String dx = g.tensor(x, g.dtype(dy), g.shape(dy));
        g.op(TrainingOps.SOFTMAX_GRAD, dx).in(dy, op.outputs().get(0)).attr("axis", axis).inPlace().add();
        g.accumulate(x, dx);
    }
}
