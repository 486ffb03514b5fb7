package org.arenaplan.onnx;

import org.arenaplan.ir.AttrSpec;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.OpChecks;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Shape inference and attribute resolution, one ONNX op at a time, for opsets
 * {@link #MIN_OPSET}..{@link #MAX_OPSET}. Each op maps to an {@link OpKinds} kind carrying
 * exactly the attributes that kind documents, defaults filled in, so kernels never guess.
 *
 * <p>Version differences of the supported ops between opsets 9 and 21 (ONNX Changelog.md):
 * Squeeze/Unsqueeze axes and Split sizes move from attribute to input at 13; Softmax normalises
 * one axis from 13; Reshape gains {@code allowzero} at 14; BatchNormalization gains
 * {@code training_mode} at 14; Split gains {@code num_outputs} at 18; AveragePool gains
 * {@code dilations} at 19; Cast gains {@code saturate} at 19 (float8 only). The other changes in
 * that range only widen type constraints.
 *
 * <p>Not handled: ops outside {@link #SUPPORTED}, training-mode outputs (BatchNormalization's
 * running statistics, Dropout's mask when read), Softmax over one inner axis at opset 13
 * (the shared kind normalises over all axes from {@code axis} on), dilated pools.
 */
final class NodeLowering {
    static final long MIN_OPSET = 9;
    static final long MAX_OPSET = 21;

    /** Op types lowered by {@link #lower}; ConstantOfShape and Constant become weights in the importer. */
    static final Set<String> SUPPORTED = union(List.of(ReductionNodes.SUPPORTED, NormalizationNodes.SUPPORTED), "Conv", "Relu", "Sigmoid", "Tanh", "LRN", "MaxPool", "AveragePool", "GlobalAveragePool",
            "Reshape", "Flatten", "Gemm", "MatMul", "Dropout", "Softmax", "BatchNormalization", "Unsqueeze", "Squeeze",
            "Add", "Sub", "Mul", "Div", "Sum", "Concat", "Split", "Transpose", "Identity", "Cast", "Where", "Equal", "Gather");

    private static Set<String> union(List<Set<String>> families, String... types) {
        Set<String> s = new java.util.HashSet<>();
        families.forEach(s::addAll);
        s.addAll(List.of(types));
        return Set.copyOf(s);
    }

    /**
     * ONNX attributes an op type may carry besides those of its registry kind: resolved or
     * consumed at import (auto_pad into pads, Flatten's axis into the shape), or training-time
     * settings inference ignores; and those of the op types the importer turns into weights
     * (ConstantOfShape, Constant, and Cast of a weight, folded). Any other attribute is an error,
     * never silently dropped.
     */
    private static final Map<String, Set<String>> ONNX_ONLY_ATTRS = withFamilies(List.of(ReductionNodes.ONNX_ONLY_ATTRS, NormalizationNodes.ONNX_ONLY_ATTRS),
            Map.entry("Conv", Set.of("auto_pad")),
            Map.entry("MaxPool", Set.of("auto_pad", "dilations", "storage_order")),
            Map.entry("AveragePool", Set.of("auto_pad", "dilations")),
            Map.entry("Split", Set.of("num_outputs")),
            Map.entry("BatchNormalization", Set.of("momentum", "spatial", "training_mode")),
            Map.entry("Flatten", Set.of("axis")),
            Map.entry("Squeeze", Set.of("axes")),
            Map.entry("Unsqueeze", Set.of("axes")),
            Map.entry("Reshape", Set.of("allowzero")),
            Map.entry("Dropout", Set.of("ratio", "seed", "is_test")),
            Map.entry("ConstantOfShape", Set.of("value")),
            Map.entry("Constant", Set.of("value", "value_int", "value_ints", "value_float", "value_floats", "value_string", "value_strings", "sparse_value")),
            Map.entry("Cast", Set.of("to", "saturate")));

    @SafeVarargs
    private static Map<String, Set<String>> withFamilies(List<Map<String, Set<String>>> families, Map.Entry<String, Set<String>>... entries) {
        Map<String, Set<String>> m = new java.util.HashMap<>();
        families.forEach(m::putAll);
        for (Map.Entry<String, Set<String>> e : entries) m.put(e.getKey(), e.getValue());
        return Map.copyOf(m);
    }

    private NodeLowering() { }

    static Lowered lower(NodeContext n) {
        return switch (n.opType()) {
            case "Conv" -> conv(n);
            case "MaxPool", "AveragePool" -> pool(n);
            case "GlobalAveragePool" -> globalPool(n);
            case "Relu", "Sigmoid", "Tanh" -> op(n, n.opType(), List.of(n.input(0).name()), n.input(0).shape(), Map.of());
            case "LRN" -> lrn(n);
            case "BatchNormalization" -> batchNorm(n);
            case "Add", "Sub", "Mul", "Div", "Sum" -> broadcast(n);
            case "Gemm" -> gemm(n);
            case "MatMul" -> matmul(n);
            case "Concat" -> concat(n);
            case "Transpose" -> transpose(n);
            case "Split" -> split(n);
            case "Reshape" -> view(n, reshape(n));
            case "Flatten" -> view(n, flatten(n));
            case "Unsqueeze" -> view(n, unsqueeze(n));
            case "Squeeze" -> view(n, squeeze(n));
            case "Identity" -> view(n, n.input(0).shape());
            case "Dropout" -> view(n, dropout(n));
            case "Cast" -> cast(n);
            case "Where" -> where(n);
            case "Equal" -> equal(n);
            case "Gather" -> gather(n);
            default -> {
                if (ReductionNodes.SUPPORTED.contains(n.opType())) yield ReductionNodes.lower(n);
                if (NormalizationNodes.SUPPORTED.contains(n.opType())) yield NormalizationNodes.lower(n);
                throw n.error("unsupported op '" + n.opType() + "'");
            }   // UnsupportedNodes lists these before any node is lowered
        };
    }

    /** Op types the importer turns into weights rather than lowering. */
    static final Set<String> AS_WEIGHTS = Set.of("Constant", "ConstantOfShape");

    /**
     * The node's attributes that are neither one its registry kind declares nor one of
     * {@link #ONNX_ONLY_ATTRS}, in file order (empty for op types outside both); checked for every
     * node before any is lowered, folded or turned into a weight.
     */
    static List<String> unknownAttributes(OnnxModel.Node node) {
        Set<String> allowed = allowedAttributes(node.opType());
        List<String> unknown = new ArrayList<>();
        if (allowed == null) return unknown;                 // unsupported op: the dispatch in lower says so
        for (String name : node.attributes().keySet()) if (!allowed.contains(name)) unknown.add(name);
        return unknown;
    }

    /** The refusal of attribute {@code name} on an op of type {@code opType}, naming what the op takes (and the likely intended one). */
    static String unknownAttributeMessage(String opType, String name) {
        return OpChecks.unknownAttribute(name, allowedAttributes(opType), opType);
    }

    /** The attribute names op type {@code opType} takes, or null for an op type neither the registry nor the importer knows. */
    private static Set<String> allowedAttributes(String opType) {
        OpSpec spec = OpRegistry.get(opType);
        if (spec == null && !ONNX_ONLY_ATTRS.containsKey(opType)) return null;
        Set<String> allowed = new java.util.LinkedHashSet<>();
        if (spec != null) for (AttrSpec a : spec.attrs()) allowed.add(a.name());
        allowed.addAll(ONNX_ONLY_ATTRS.getOrDefault(opType, Set.of()));
        return allowed;
    }

    private static Lowered op(NodeContext n, String kind, List<String> inputs, long[] shape, Map<String, Object> attrs) {
        return op(n, kind, inputs, shape, attrs, n.input(0).dtype());
    }

    static Lowered op(NodeContext n, String kind, List<String> inputs, long[] shape, Map<String, Object> attrs, DType dtype) {
        return new Lowered(kind, inputs, List.of(output(n, shape, dtype)), attrs, false, extraOutputs(n));
    }

    private static Value output(NodeContext n, long[] shape) {
        return output(n, shape, n.input(0).dtype());
    }

    private static Value output(NodeContext n, long[] shape, DType dtype) {
        n.require(!n.node().outputs().isEmpty() && !n.node().outputs().get(0).isEmpty(), "has no output");
        for (long d : shape) n.require(d >= 0, "inferred a negative dimension in shape " + Arrays.toString(shape) + " from inputs " + n.shapes());
        return new Value(n.node().outputs().get(0), dtype, shape);
    }

    /** Outputs past the first: optional training-time outputs this importer does not produce. */
    private static List<String> extraOutputs(NodeContext n) {
        List<String> out = n.node().outputs();
        List<String> dropped = new ArrayList<>();
        for (int k = 1; k < out.size(); k++) if (!out.get(k).isEmpty()) dropped.add(out.get(k));
        return dropped;
    }

    /** The node as an Identity: output 0 a view of input 0. */
    static Lowered identity(NodeContext n) {
        return new Lowered(OpKinds.IDENTITY, List.of(n.input(0).name()), List.of(output(n, n.input(0).shape())), Map.of(), true, extraOutputs(n));
    }

    /** Requires between {@code min} and {@code max} inputs (omitted optional ones counted). */
    static void requireInputs(NodeContext n, int min, int max) {
        n.require(n.inputCount() >= min && n.inputCount() <= max, "has " + n.inputCount() + " inputs; " + n.opType() + " takes "
                + (min == max ? "" + min : min + " to " + max));
    }

    private static Lowered view(NodeContext n, long[] shape) {
        Value in = n.input(0);
        Value out = output(n, shape);
        n.require(out.elements() == in.elements(), "output shape " + Arrays.toString(shape) + " holds " + out.elements()
                + " elements but the input " + in + " holds " + in.elements());
        return new Lowered(viewKind(n.opType()), List.of(in.name()), List.of(out), Map.of(), true, extraOutputs(n));
    }

    private static String viewKind(String opType) {
        return switch (opType) {
            case "Reshape" -> OpKinds.RESHAPE;
            case "Flatten" -> OpKinds.FLATTEN;
            case "Unsqueeze" -> OpKinds.UNSQUEEZE;
            case "Squeeze" -> OpKinds.SQUEEZE;
            case "Dropout" -> OpKinds.DROPOUT;
            default -> OpKinds.IDENTITY;
        };
    }

    private static long[] spatial(NodeContext n, Value x) {
        n.require(x.rank() >= 3, "input " + x + " must be N, C and at least one spatial dimension");
        return Arrays.copyOfRange(x.shape(), 2, x.rank());
    }

    private static Lowered conv(NodeContext n) {
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

    private static Lowered pool(NodeContext n) {
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

    private static Lowered globalPool(NodeContext n) {
        Value x = n.input(0);
        long[] out = new long[x.rank()];
        Arrays.fill(out, 1);
        spatial(n, x);
        out[0] = x.dim(0);
        out[1] = x.dim(1);
        return op(n, OpKinds.GLOBAL_AVERAGE_POOL, List.of(x.name()), out, Map.of());
    }

    private static Lowered lrn(NodeContext n) {
        n.require(n.hasAttr("size"), "attribute 'size' is required");
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("size", n.integer("size", 0));
        attrs.put("alpha", n.real("alpha"));
        attrs.put("beta", n.real("beta"));
        attrs.put("bias", n.real("bias"));
        return op(n, OpKinds.LRN, List.of(n.input(0).name()), n.input(0).shape(), attrs);
    }

    private static Lowered batchNorm(NodeContext n) {
        Value x = n.input(0);
        n.require(x.rank() >= 2, "input " + x + " must have a channel axis");
        n.require(n.integer("training_mode", 0) == 0, "training_mode=1 (batch statistics) is not supported; only inference BatchNormalization");
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Value p = n.input(i);
            if (i > 0) n.require(p.rank() == 1 && p.dim(0) == x.dim(1), "input #" + i + " " + p + " must be [" + x.dim(1) + "]");
            inputs.add(p.name());
        }
        return op(n, OpKinds.BATCH_NORM, inputs, x.shape(), Map.of("epsilon", n.real("epsilon")));
    }

    private static Lowered broadcast(NodeContext n) {
        n.require(n.inputCount() >= (n.opType().equals("Sum") ? 1 : 2), "needs " + (n.opType().equals("Sum") ? "at least one input" : "two inputs"));
        return op(n, n.opType(), names(n, 0, n.inputCount()), broadcastAll(n, 0, n.inputCount()), Map.of());
    }

    /** The names of inputs from..to-1, which must share input {@code from}'s element type (ONNX type constraint T). */
    private static List<String> names(NodeContext n, int from, int to) {
        List<String> inputs = new ArrayList<>();
        for (int i = from; i < to; i++) {
            n.require(n.input(i).dtype() == n.input(from).dtype(), "input " + n.input(from) + " is " + n.input(from).dtype().jsonName()
                    + " but " + n.input(i) + " is " + n.input(i).dtype().jsonName() + "; they must have one type");
            inputs.add(n.input(i).name());
        }
        return inputs;
    }

    /** The broadcast shape of inputs from..to-1. */
    private static long[] broadcastAll(NodeContext n, int from, int to) {
        long[] shape = n.input(from).shape();
        for (int i = from + 1; i < to; i++) shape = broadcast(n, shape, n.input(i).shape());
        return shape;
    }

    /** ONNX Cast: attribute 'to' (a TensorProto.DataType) is the output's type; 'saturate' (opset 19) concerns float8 only. */
    private static Lowered cast(NodeContext n) {
        n.require(n.hasAttr("to"), "attribute 'to' is required");
        long to = n.integer("to", 0);
        DType t = DType.ofOnnx((int) to);
        n.require(t != null, "attribute to=" + to + " is an element type arenaplan does not support");
        return op(n, OpKinds.CAST, List.of(n.input(0).name()), n.input(0).shape(), Map.of("to", (long) t.onnxCode()), t);
    }

    /** ONNX Where(condition: bool, X, Y): broadcast over all three; X's type. */
    private static Lowered where(NodeContext n) {
        n.require(n.inputCount() == 3, "needs three inputs (condition, X, Y)");
        n.require(n.input(0).dtype() == DType.BOOL, "condition " + n.input(0) + " is " + n.input(0).dtype().jsonName() + ", not bool");
        List<String> inputs = new ArrayList<>(List.of(n.input(0).name()));
        inputs.addAll(names(n, 1, 3));
        return op(n, OpKinds.WHERE, inputs, broadcastAll(n, 0, 3), Map.of(), n.input(1).dtype());
    }

    /** ONNX Equal(A, B) to bool, broadcasting. */
    private static Lowered equal(NodeContext n) {
        n.require(n.inputCount() == 2, "needs two inputs");
        return op(n, OpKinds.EQUAL, names(n, 0, 2), broadcastAll(n, 0, 2), Map.of(), DType.BOOL);
    }

    /** ONNX Gather: output data.shape[:axis] + indices.shape + data.shape[axis+1:]; axis may be negative from opset 11. */
    private static Lowered gather(NodeContext n) {
        Value data = n.input(0), idx = n.input(1);
        n.require(data.rank() >= 1, "data " + data + " must have rank 1 or more");
        n.require(idx.dtype() == DType.I64 || idx.dtype() == DType.I32, "indices " + idx + " are " + idx.dtype().jsonName() + ", not int64 or int32");
        int axis = n.axis(n.integer("axis", 0), data.rank(), "axis");
        long[] ds = data.shape(), is = idx.shape();
        long[] out = new long[ds.length - 1 + is.length];
        System.arraycopy(ds, 0, out, 0, axis);
        System.arraycopy(is, 0, out, axis, is.length);
        System.arraycopy(ds, axis + 1, out, axis + is.length, ds.length - axis - 1);
        return op(n, OpKinds.GATHER, List.of(data.name(), idx.name()), out, Map.of("axis", (long) axis));
    }

    /** Numpy (multidirectional) broadcasting. */
    static long[] broadcast(NodeContext n, long[] a, long[] b) {
        int r = Math.max(a.length, b.length);
        long[] out = new long[r];
        for (int i = 0; i < r; i++) {
            long da = i < r - a.length ? 1 : a[i - (r - a.length)];
            long db = i < r - b.length ? 1 : b[i - (r - b.length)];
            n.require(da == db || da == 1 || db == 1, "shapes " + Arrays.toString(a) + " and " + Arrays.toString(b) + " do not broadcast (inputs " + n.shapes() + ")");
            out[i] = da == 1 ? db : da;
        }
        return out;
    }

    private static Lowered gemm(NodeContext n) {
        Value a = n.input(0), b = n.input(1);
        n.require(a.rank() == 2 && b.rank() == 2, "A " + a + " and B " + b + " must be matrices");
        long transA = n.integer("transA"), transB = n.integer("transB");
        long m = transA != 0 ? a.dim(1) : a.dim(0), k = transA != 0 ? a.dim(0) : a.dim(1);
        long kb = transB != 0 ? b.dim(1) : b.dim(0), nn = transB != 0 ? b.dim(0) : b.dim(1);
        n.require(k == kb, "inner dimensions differ: op(A) is [" + m + ", " + k + "], op(B) is [" + kb + ", " + nn + "] (transA=" + transA + ", transB=" + transB + ")");
        List<String> inputs = new ArrayList<>(List.of(a.name(), b.name()));
        long[] out = {m, nn};
        if (n.hasInput(2)) {
            long[] c = n.input(2).shape();
            n.require(Arrays.equals(broadcast(n, out, c), out), "C " + n.input(2) + " does not broadcast to [" + m + ", " + nn + "]");
            inputs.add(n.input(2).name());
        } else {
            n.require(n.opset() >= 11, "input C is required before opset 11");
        }
        Map<String, Object> attrs = new LinkedHashMap<>();
        attrs.put("transA", transA != 0 ? 1L : 0L);
        attrs.put("transB", transB != 0 ? 1L : 0L);
        attrs.put("alpha", n.real("alpha"));
        attrs.put("beta", n.real("beta"));
        return op(n, OpKinds.GEMM, inputs, out, attrs);
    }

    private static Lowered matmul(NodeContext n) {
        long[] a = n.input(0).shape(), b = n.input(1).shape();
        n.require(a.length >= 1 && b.length >= 1, "inputs must not be scalars (" + n.shapes() + ")");
        long[] pa = a.length == 1 ? new long[]{1, a[0]} : a;
        long[] pb = b.length == 1 ? new long[]{b[0], 1} : b;
        long k = pa[pa.length - 1];
        n.require(k == pb[pb.length - 2], "inner dimensions differ (" + n.shapes() + ")");
        long[] batch = broadcast(n, Arrays.copyOf(pa, pa.length - 2), Arrays.copyOf(pb, pb.length - 2));
        List<Long> out = new ArrayList<>();
        for (long d : batch) out.add(d);
        if (a.length > 1) out.add(pa[pa.length - 2]);
        if (b.length > 1) out.add(pb[pb.length - 1]);
        return op(n, OpKinds.MATMUL, List.of(n.input(0).name(), n.input(1).name()), out.stream().mapToLong(Long::longValue).toArray(), Map.of());
    }

    private static Lowered concat(NodeContext n) {
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
            out[axis] += v.dim(axis);
            inputs.add(v.name());
        }
        return op(n, OpKinds.CONCAT, inputs, out, Map.of("axis", (long) axis));
    }

    /** Split: extents from the 'split' attribute before opset 13, from a constant input from 13; equal parts when absent. */
    private static Lowered split(NodeContext n) {
        Value x = n.input(0);
        int axis = n.axis(n.integer("axis", 0), x.rank(), "axis");
        List<String> names = n.node().outputs();
        n.require(n.opset() < 13 || !n.hasAttr("split"), "attribute 'split' is input #1 from opset 13");
        long[] parts = n.opset() >= 13 ? (n.hasInput(1) ? n.constantInts(1, "split") : null) : n.ints("split", null);
        n.require(n.opset() >= 18 || !n.hasAttr("num_outputs"), "attribute 'num_outputs' needs opset 18");
        if (parts == null && n.hasAttr("num_outputs")) {
            // opset 18: ceil(extent / num_outputs) each, the last one smaller when it does not divide
            long k = n.integer("num_outputs", 0);
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
        return new Lowered(OpKinds.SPLIT, List.of(x.name()), outputs, attrs, false, List.of());
    }

    private static Lowered transpose(NodeContext n) {
        Value x = n.input(0);
        long[] perm = new long[x.rank()];
        for (int i = 0; i < perm.length; i++) perm[i] = perm.length - 1 - i;
        perm = n.ints("perm", perm);
        n.require(perm.length == x.rank(), "perm " + Arrays.toString(perm) + " must have " + x.rank() + " entries");
        boolean[] seen = new boolean[perm.length];
        long[] out = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            n.require(perm[i] >= 0 && perm[i] < perm.length && !seen[(int) perm[i]], "perm " + Arrays.toString(perm) + " is not a permutation");
            seen[(int) perm[i]] = true;
            out[i] = x.dim((int) perm[i]);
        }
        return op(n, OpKinds.TRANSPOSE, List.of(x.name()), out, Map.of("perm", perm));
    }

    /** Reshape's shape input: 0 copies the input's extent on that axis (unless allowzero, opset 14), one -1 takes the rest. */
    private static long[] reshape(NodeContext n) {
        Value x = n.input(0);
        long[] shape = n.constantInts(1, "the shape");
        boolean allowZero = n.opset() >= 14 && n.integer("allowzero", 0) != 0;   // opset 14: 0 is an extent, not "copy"
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

    /** Dropout is the identity at inference; from opset 12 a constant training_mode input must be false. */
    private static long[] dropout(NodeContext n) {
        if (n.opset() >= 12 && n.hasInput(2)) {
            for (long t : n.constantInts(2, "training_mode")) n.require(t == 0, "training_mode is true; only inference Dropout (an identity) is supported");
        }
        return n.input(0).shape();
    }

    private static long[] flatten(NodeContext n) {
        Value x = n.input(0);
        long axis = n.integer("axis", 1);
        n.require(axis >= -x.rank() && axis <= x.rank(), "axis " + axis + " is out of range for rank " + x.rank());
        n.require(axis >= 0 || n.opset() >= 11, "negative axis needs opset 11");
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

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
