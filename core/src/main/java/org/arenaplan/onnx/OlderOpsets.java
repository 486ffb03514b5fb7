package org.arenaplan.onnx;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Models of the default ONNX domain at opsets 1..8, imported where every node's operator means
 * there what it means at opset 9 (the oldest opset arenaplan imports whole): a model exported at
 * opset 7 of And, Conv or Relu is the same model at opset 9. Rule: at opset {@code v < 9} a node
 * of op type T is imported when the schema of T in force at {@code v} is no older than
 * {@link #OLDEST}{@code [T]}, the oldest version whose meaning the opset-9 import covers; else it
 * is refused naming the node, both versions and the way out (onnx's version converter).
 *
 * <p>{@code OLDEST[T]} is the version of T's schema at opset 9 (onnx 1.23.1:
 * {@code onnx.defs.get_schema(T, 9, "").since_version} for every op type defined at opset 9),
 * lowered where ONNX's Changelog lists the changes up to opset 9 as new element types only:
 * Cast 6, Constant 1, Flatten 1, Greater 7, Less 7, MatMul 1; where the older
 * version is a subset: MaxPool 1 (MaxPool-8 adds the Indices output and storage_order), AveragePool 1
 * (AveragePool-1 divides by the elements "exclude pad", AveragePool-7's {@code count_include_pad = 0} default);
 * BatchNormalization 7, whose {@code spatial} attribute BatchNormalization-9 removed, meaning
 * {@code spatial = 1}: accepted at 1 (dropped) and refused otherwise; BatchNormalization 6, whose
 * {@code is_test = 1} is the inference BatchNormalization-7 computes (dropped; 0, training, refused),
 * and Dropout 1 and 6 alike; version 1 of the {@link #CONSUMED_INPUTS} ops, which is version 6
 * with that hint (dropped; Selu-1's own defaults of alpha and gamma filled in).
 * Rewritten into their opset-9 form: Max, Min, Mean and Sum 6 (no broadcasting: inputs of one
 * shape, checked by {@link #checkShapes}, which Max-8 etc. compute alike); Upsample-7, whose
 * {@code scales} attribute becomes Upsample-9's constant {@code scales} input; the legacy broadcast
 * of Add, Sub, Mul, Div 6 and Pow, And, Or, Xor, Equal, Greater, Less 1 ({@link #legacyBroadcast});
 * Gemm 1 and 6 ({@code broadcast} dropped: C broadcast to [M, N] as Gemm-7 always does, or C of
 * [M, N] with broadcast = 0, checked); PRelu 6 ({@link #preluSix}). Scan-8, whose
 * batch axis Scan-9 dropped, is unrolled by its own rule ({@code ControlFlow}). Reshape-1
 * ({@code shape} an attribute) is refused by this rule. ONNX Runtime runs none of these versions
 * (AveragePool-1, BatchNormalization-6, Add-6, Gemm-6, PRelu-6, Pow-1 and every version 1 with
 * {@code consumed_inputs} are "not implemented" in 1.30); the ONNX backend tests pytorch-converted
 * and pytorch-operator, exported by PyTorch at opset 6, hold their outputs, and the version-1 ops
 * are checked against their version 6 (ONNX Runtime runs Relu-6, Sigmoid-6, ...) and the schema's
 * formula (Selu-1). One fact here spans opsets 9 and 10 too: {@link #checkNegativeAxis}.
 */
public final class OlderOpsets {
    /** The oldest opset whose default-domain operators arenaplan reads, with this rule. */
    static final long MIN_OPSET = 1;

    private static final Map<String, Integer> OLDEST = parse(
            "Abs=1 Acos=7 Acosh=9 Add=1 And=1 ArgMax=1 ArgMin=1 Asin=7 Asinh=9 Atan=7 Atanh=9 AveragePool=1 "
            + "BatchNormalization=1 Cast=6 Ceil=1 Clip=1 Compress=9 Concat=4 Constant=1 ConstantOfShape=9 Conv=1 "
            + "ConvTranspose=1 Cos=7 Cosh=9 DepthToSpace=1 Div=1 Dropout=1 Elu=1 Equal=1 Erf=9 Exp=1 Expand=8 "
            + "EyeLike=9 Flatten=1 Floor=1 GRU=7 Gather=1 Gemm=1 GlobalAveragePool=1 GlobalLpPool=2 GlobalMaxPool=1 "
            + "Greater=1 HardSigmoid=1 Hardmax=1 Identity=1 If=1 InstanceNormalization=1 IsNaN=9 LRN=1 LSTM=7 "
            + "LeakyRelu=1 Less=1 Log=1 LogSoftmax=1 Loop=1 LpNormalization=1 LpPool=2 MatMul=1 Max=1 MaxPool=1 "
            + "MaxRoiPool=1 MaxUnpool=9 Mean=1 MeanVarianceNormalization=9 Min=1 Mul=1 Multinomial=7 Neg=1 "
            + "NonZero=9 Not=1 OneHot=9 Or=1 PRelu=1 Pad=2 Pow=1 RNN=7 RandomNormal=1 RandomNormalLike=1 "
            + "RandomUniform=1 RandomUniformLike=1 Reciprocal=1 ReduceL1=1 ReduceL2=1 ReduceLogSum=1 "
            + "ReduceLogSumExp=1 ReduceMax=1 ReduceMean=1 ReduceMin=1 ReduceProd=1 ReduceSum=1 ReduceSumSquare=1 "
            + "Relu=1 Reshape=5 Scan=8 Scatter=9 Selu=1 Shape=1 Shrink=9 Sigmoid=1 Sign=9 Sin=7 Sinh=9 Size=1 "
            + "Slice=1 Softmax=1 Softplus=1 Softsign=1 SpaceToDepth=1 Split=2 Sqrt=1 Squeeze=1 Sub=1 Sum=1 Tan=7 "
            + "Tanh=1 TfIdfVectorizer=9 Tile=6 TopK=1 Transpose=1 Unsqueeze=1 Upsample=7 Where=9 Xor=1 ");

    private OlderOpsets() { }

    private static Map<String, Integer> parse(String s) {
        Map<String, Integer> m = new HashMap<>();
        for (String kv : s.trim().split(" +")) {
            int eq = kv.indexOf('=');
            m.put(kv.substring(0, eq), Integer.parseInt(kv.substring(eq + 1)));
        }
        return m;
    }

    /** What a rewrite asks of the importer. */
    interface Rewrites {
        /** A constant the importer makes for a rewritten node (Upsample-7's scales); returns its name. */
        String floats(String want, float[] values);

        /** The shape of a value imported before the node; null where no value has the name. */
        long[] shape(String value);

        /** Imports {@code Unsqueeze(input)} with {@code axes} (Unsqueeze-1's attribute) as a node named {@code node}; returns its output. */
        String unsqueeze(String node, String input, long[] axes);
    }

    /**
     * The op types that refuse a negative axis before opset 11, where ONNX made negative axes the
     * rule (Squeeze-1: "List of non-negative integers"): Flatten, whose shape inference in ONNX
     * Runtime 1.30 fails at opsets 1..10 with "Invalid value(-1) for attribute 'axis'". Every other
     * op with an axis attribute arenaplan imports before opset 11 (ArgMax, ArgMin, Concat, the
     * Reduce ops, Squeeze, Unsqueeze, Slice-1's axes and Slice-10's axes input,
     * MeanVarianceNormalization-9, Compress-9, Scatter-9, Scan-9's scan_input_axes and
     * scan_output_axes) ONNX Runtime 1.30 runs with a negative axis, counted from the back
     * (Unsqueeze's against the output's rank), giving what the axis plus the rank gives, at every
     * opset of 1..10 the op exists at (checked 3 December with onnx.helper models; Softmax,
     * LogSoftmax, Hardmax, Split, Gather, TopK, LpNormalization and OneHot document or default to
     * one anyway). This fact alone spans opsets 9 and 10 too.
     */
    private static final java.util.Set<String> NON_NEGATIVE_AXIS_BEFORE_11 = java.util.Set.of("Flatten");

    /**
     * Refuses a negative {@code axis} of a default-domain node before opset 11 whose op type
     * {@link #NON_NEGATIVE_AXIS_BEFORE_11} names; takes it for every other op (counted from the
     * back by the caller). Read by every axis the importer normalises ({@link NodeContext#axis}).
     *
     * @throws OnnxException (through {@code n.error}) naming the node, the attribute ({@code what}) and its value
     */
    public static void checkNegativeAxis(NodeContext n, long axis, String what) {
        if (axis < 0 && n.opset() < 11 && n.node().inDefaultDomain() && NON_NEGATIVE_AXIS_BEFORE_11.contains(n.opType()))
            throw n.error(what + " " + axis + " is negative, which " + n.opType() + " takes from opset 11 (" + n.opType()
                    + "-11: counted from the back); ONNX Runtime refuses it before 11 too (\"Invalid value(" + axis + ") for attribute 'axis'\")");
    }

    /**
     * The op types whose version 1 carries {@code consumed_inputs} and is, without it, their
     * version 6 (onnx 1.23.1's schemas, {@code get_schema(T, 1)} against {@code get_schema(T, 6)}:
     * the same inputs, outputs and attributes; Abs, Add, Div, Mul, Neg and Sub 6 add integer
     * types; Selu-1's defaults are rounder; Clip-1's absent bounds are the type's, see
     * {@code ElementwiseImport.clip}). The attribute is "legacy optimization attribute" in every
     * schema, a hint that an input may be overwritten in place, which ONNX removed at opset 6 and
     * which does not change what a node computes: onnx's version converter turns version 1 into 6
     * by deleting it ({@code version_converter/adapters/remove_consumed_inputs.h}), and so does
     * {@link #adapt} (arenaplan's own in-place hints are its importer's). Reshape-1, whose
     * {@code shape} attribute became an input at 5, is not one of them: it is refused. ONNX Runtime
     * 1.30 implements none of these version-1 ops ("Could not find an implementation for Relu(1)").
     */
    private static final java.util.Set<String> CONSUMED_INPUTS = java.util.Set.of("Abs", "Add", "BatchNormalization", "Ceil", "Clip", "Div",
            "Dropout", "Elu", "Exp", "Floor", "HardSigmoid", "InstanceNormalization", "LeakyRelu", "Log", "Max", "Mean", "Min", "Mul", "Neg",
            "PRelu", "Reciprocal", "Relu", "Selu", "Sigmoid", "Sqrt", "Sub", "Sum", "Tanh");

    /** The variadic ops whose versions before 8 take inputs of one shape only. */
    private static final java.util.Set<String> NO_BROADCAST_BEFORE_8 = java.util.Set.of("Max", "Min", "Mean", "Sum");

    /**
     * Max, Min, Mean and Sum before opset 8 take inputs of one shape (no broadcasting), which
     * their opset-8 form computes alike; other shapes make no valid model there.
     *
     * @param ins the node's input values (null for an omitted one)
     * @throws OnnxException naming the node and both shapes
     */
    static void checkShapes(OnnxModel.Node node, List<Value> ins, NodeContext n, long opset) {
        if (opset >= 8 || !NO_BROADCAST_BEFORE_8.contains(node.opType()) || !node.inDefaultDomain()) return;
        for (Value v : ins)
            if (v != null && !java.util.Arrays.equals(v.shape(), ins.get(0).shape()))
                throw n.error("inputs " + ins.get(0) + " and " + v + " differ in shape; " + node.opType() + " at opset " + opset
                        + " takes inputs of one shape (broadcasting from " + node.opType() + "-8)");
    }

    /**
     * Refuses a default-domain node whose version at {@code opset} is older than {@link #OLDEST}
     * allows; the importer runs it over every node before checking attributes, so an old
     * version's own attributes ({@code broadcast}, {@code consumed_inputs}) are not reported as
     * unknown.
     *
     * @throws OnnxException (through {@code n.error}) naming the node and both versions
     */
    static void checkVersion(OnnxModel.Node node, NodeContext n, long opset) {
        if (opset >= 9 || !node.inDefaultDomain()) return;
        Integer oldest = OLDEST.get(node.opType());
        if (oldest != null && opset < oldest)
            throw n.error(node.opType() + " at opset " + opset + " predates " + node.opType() + "-" + oldest
                    + ", the oldest version whose meaning arenaplan imports (it reads opset 9 and later, and older opsets where an op means what it means at 9);"
                    + " convert the model to opset 9 or later (onnx.version_converter.convert_version)");
    }

    /**
     * A default-domain node of a model at {@code opset < 9}, as the opset-9 import reads it
     * (BatchNormalization's {@code spatial = 1} dropped, Upsample-7's scales made an input by
     * {@code constants}); the node itself at opset 9 and later and for other domains.
     *
     * @throws OnnxException (through {@code n.error}) naming the node and both versions
     */
    static OnnxModel.Node adapt(OnnxModel.Node node, NodeContext n, long opset, Rewrites rewrites) {
        if (opset >= 9 || !node.inDefaultDomain()) return node;
        if (!OLDEST.containsKey(node.opType())) return node;   // no such op at opset 9: the import refuses it as it does at any opset
        checkVersion(node, n, opset);
        String op = node.opType();
        if (opset < 6 && CONSUMED_INPUTS.contains(op)) node = without(node, "consumed_inputs");
        if (opset < 6 && op.equals("Selu")) node = withDefault(withDefault(node, "alpha", 1.6732f), "gamma", 1.0507f);
        if (op.equals("Upsample")) return upsampleSeven(node, n, rewrites);
        if (opset < 7 && LEGACY_BROADCAST.contains(op)) return legacyBroadcast(node, n, rewrites);
        if (opset < 7 && op.equals("Gemm")) return gemmSix(node, n, rewrites);
        if (opset < 7 && op.equals("PRelu")) return preluSix(node, n, rewrites);
        if (opset < 7 && op.equals("AveragePool") && node.attributes().containsKey("count_include_pad"))
            throw n.error("attribute 'count_include_pad' is AveragePool-7's; AveragePool-1 has none and leaves the padding out (count_include_pad 0)");
        if (opset < 7 && op.equals("Dropout")) return without(testMode(node, n, opset), "is_test");
        if (!op.equals("BatchNormalization")) return node;
        if (opset < 7) testMode(node, n, opset);
        Object spatial = node.attributes().containsKey("spatial") ? node.attributes().get("spatial").value() : 1L;
        if (!Long.valueOf(1).equals(spatial))
            throw n.error("attribute 'spatial' = " + spatial + ": BatchNormalization-9 (the version arenaplan imports) means spatial = 1 only");
        return without(node, "spatial", "is_test");
    }

    /**
     * BatchNormalization and Dropout before version 7 (1 and 6) compute at inference with
     * {@code is_test = 1} what version 7 computes; their default 0 is training mode.
     *
     * @throws OnnxException naming the node and the attribute where {@code is_test} is not 1
     */
    private static OnnxModel.Node testMode(OnnxModel.Node node, NodeContext n, long opset) {
        Object isTest = attr(node, "is_test", 0L);
        String op = node.opType();
        if (!Long.valueOf(1).equals(isTest))
            throw n.error("attribute 'is_test' = " + isTest + " (training mode, the default of " + op + "-" + (opset < 6 ? 1 : 6) + "): arenaplan imports the inference "
                    + op + "-7 computes, is_test = 1");
        return node;
    }

    /** {@code node} with the FLOAT attribute {@code name} set to {@code value} where the node gives none (a version's own default). */
    private static OnnxModel.Node withDefault(OnnxModel.Node node, String name, float value) {
        if (node.attributes().containsKey(name)) return node;
        Map<String, OnnxModel.Attribute> attrs = new HashMap<>(node.attributes());
        attrs.put(name, new OnnxModel.Attribute(name, OnnxModel.Attribute.FLOAT, (double) value));
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), node.inputs(), node.outputs(), attrs);
    }

    /** The binary ops whose versions before 7 broadcast B to A only where attribute {@code broadcast} is 1, aligned at {@code axis}. */
    private static final java.util.Set<String> LEGACY_BROADCAST =
            java.util.Set.of("Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less");

    /**
     * Add-6 (and Sub, Mul, Div 6; Pow, And, Or, Xor, Equal, Greater, Less 1) as its opset-7 form:
     * with {@code broadcast = 0} B has A's shape; with 1, B has one element, or its shape is the
     * part of A's starting at {@code axis} (default: A's last axes, "suffix matching"), and B is
     * unsqueezed at its end so that numpy broadcasting (version 7) aligns it there (A [2, 3, 4, 5],
     * B [3, 4], axis 1: B becomes [3, 4, 1]). Source: the version-6 schema ("limited broadcast
     * support"). A negative {@code axis} is refused: the schema does not define it, Caffe2's
     * {@code ComputeLegacyBroadcastSizes} (caffe2/operators/elementwise_ops_utils.cc), where the
     * legacy broadcast came from, reads -1 as suffix matching and refuses any other negative, a
     * count from the back would read -1 as A's last axis, and ONNX Runtime 1.30 runs no version
     * of these ops before 7 ("Could not find an implementation for Add(6)"). Where the schema says "1-dim expansion doesn't work yet", an extent 1 of B is
     * expanded here: PyTorch exported {@code [2, 3] + [2, 1]} so at axis 0, and the backend test
     * {@code test_operator_add_size1_broadcast} holds the expanded sum.
     *
     * @throws OnnxException naming the node, both shapes and the axis where B does not fit; naming the node and the attribute for a negative axis
     */
    private static OnnxModel.Node legacyBroadcast(OnnxModel.Node node, NodeContext n, Rewrites rewrites) {
        n.require(node.inputs().size() == 2, node.opType() + " takes two inputs, got " + node.inputs().size());
        long[] a = rewrites.shape(node.inputs().get(0)), b = rewrites.shape(node.inputs().get(1));
        OnnxModel.Node plain = without(node, "broadcast", "axis");
        if (a == null || b == null) return plain;   // a missing input: the import refuses it naming the value
        String shapes = "A " + java.util.Arrays.toString(a) + " and B " + java.util.Arrays.toString(b);
        if (!Long.valueOf(1).equals(attr(node, "broadcast", 0L))) {
            if (!java.util.Arrays.equals(a, b))
                throw n.error(shapes + " differ in shape and attribute 'broadcast' is 0: " + node.opType() + " before version 7 broadcasts only with broadcast = 1");
            return plain;
        }
        long axis = (Long) attr(node, "axis", (long) (a.length - b.length));
        if (axis < 0)
            throw n.error("attribute 'axis' = " + axis + " is negative, which the legacy broadcast of " + node.opType() + " before version 7 does not define"
                    + " (Caffe2, where it came from, reads -1 as suffix matching, numpy's convention the last axis; ONNX Runtime implements no version of it); give the axis of A where B starts, at least 0");
        long elements = 1;
        for (long d : b) elements *= d;
        if (elements == 1 && b.length <= a.length) return plain;
        boolean fits = axis >= 0 && axis + b.length <= a.length;
        for (int i = 0; fits && i < b.length; i++) fits = b[i] == a[(int) axis + i] || b[i] == 1;
        if (!fits)
            throw n.error(shapes + ": B's shape does not fit the part of A's starting at axis " + axis
                    + (node.attributes().containsKey("axis") ? "" : " (suffix matching)") + " (each extent equal, or 1), the only broadcast of " + node.opType() + " before version 7");
        int trailing = (int) (a.length - axis - b.length);
        if (trailing == 0) return plain;
        long[] axes = new long[trailing];
        for (int i = 0; i < trailing; i++) axes[i] = b.length + i;
        String aligned = rewrites.unsqueeze(node.name() + "/broadcast_axis", node.inputs().get(1), axes);
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), List.of(node.inputs().get(0), aligned), node.outputs(), plain.attributes());
    }

    /** Gemm-1 and 6: C broadcast with {@code broadcast = 1}, as Gemm-7 always does; with 0 (the default), C must be [M, N]. */
    private static OnnxModel.Node gemmSix(OnnxModel.Node node, NodeContext n, Rewrites rewrites) {
        OnnxModel.Node plain = without(node, "broadcast");
        if (Long.valueOf(1).equals(attr(node, "broadcast", 0L)) || node.inputs().size() < 3) return plain;
        long[] a = rewrites.shape(node.inputs().get(0)), b = rewrites.shape(node.inputs().get(1)), c = rewrites.shape(node.inputs().get(2));
        if (a == null || b == null || c == null || a.length != 2 || b.length != 2) return plain;   // the Gemm-9 import refuses these naming the value
        long m = Long.valueOf(1).equals(attr(node, "transA", 0L)) ? a[1] : a[0];
        long nn = Long.valueOf(1).equals(attr(node, "transB", 0L)) ? b[0] : b[1];
        if (!java.util.Arrays.equals(c, new long[]{m, nn}))
            throw n.error("C " + java.util.Arrays.toString(c) + " is not [M, N] = [" + m + ", " + nn
                    + "] and attribute 'broadcast' is 0: Gemm before version 7 broadcasts C only with broadcast = 1");
        return plain;
    }

    /**
     * PRelu-6: a slope of one element is shared, a slope of X's shape is elementwise (the schema);
     * a 1-D slope of X's channel extent (axis 1, X of rank 3 or more) is one slope per channel,
     * Caffe2's PRelu, which ONNX's PRelu-6 came from and PyTorch exported {@code nn.PReLU(C)} to (the
     * backend tests {@code test_PReLU_*d_multiparam}): it is unsqueezed to [C, 1, ...] for PRelu-7's
     * numpy broadcasting. Any other slope is read as PRelu-7 reads it (broadcast to X).
     */
    private static OnnxModel.Node preluSix(OnnxModel.Node node, NodeContext n, Rewrites rewrites) {
        n.require(node.inputs().size() == 2, "PRelu takes two inputs, got " + node.inputs().size());
        long[] x = rewrites.shape(node.inputs().get(0)), slope = rewrites.shape(node.inputs().get(1));
        if (x == null || slope == null || x.length < 3 || slope.length != 1 || slope[0] != x[1] || slope[0] == 1) return node;
        long[] axes = new long[x.length - 2];
        for (int i = 0; i < axes.length; i++) axes[i] = 1 + i;
        String perChannel = rewrites.unsqueeze(node.name() + "/slope_per_channel", node.inputs().get(1), axes);
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), List.of(node.inputs().get(0), perChannel), node.outputs(), node.attributes());
    }

    /**
     * The attributes of {@code node}'s version at {@code opset} that {@link #adapt} reads and
     * removes (Upsample-7's scales, version 1's consumed_inputs, BatchNormalization-6's is_test and spatial, Dropout-6's is_test, the legacy
     * broadcast and axis, Gemm-6's broadcast), so the opset-9 attribute check does not call them unknown.
     */
    static java.util.Set<String> ownAttributes(OnnxModel.Node node, long opset) {
        if (opset >= 9 || !node.inDefaultDomain()) return java.util.Set.of();
        String op = node.opType();
        java.util.Set<String> own = new java.util.HashSet<>();
        if (op.equals("Upsample")) own.add("scales");
        if (opset < 6 && CONSUMED_INPUTS.contains(op)) own.add("consumed_inputs");
        if (opset < 7 && LEGACY_BROADCAST.contains(op)) own.addAll(List.of("broadcast", "axis"));
        if (opset < 7 && op.equals("Gemm")) own.add("broadcast");
        if (opset < 7 && op.equals("BatchNormalization")) own.addAll(List.of("is_test", "spatial"));
        if (opset < 7 && op.equals("Dropout")) own.add("is_test");
        return own;
    }

    private static Object attr(OnnxModel.Node node, String name, Object absent) {
        OnnxModel.Attribute a = node.attributes().get(name);
        return a == null ? absent : a.value();
    }

    private static OnnxModel.Node without(OnnxModel.Node node, String... names) {
        Map<String, OnnxModel.Attribute> attrs = new HashMap<>(node.attributes());
        for (String name : names) attrs.remove(name);
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), node.inputs(), node.outputs(), attrs);
    }

    /** Upsample-7 (opsets 7, 8): X and the attribute scales, as Upsample-9: X and a constant scales input. */
    private static OnnxModel.Node upsampleSeven(OnnxModel.Node node, NodeContext n, Rewrites constants) {
        OnnxModel.Attribute a = node.attributes().get("scales");
        n.require(a != null && a.value() instanceof double[], "attribute 'scales' (FLOATS) is required by Upsample-7");
        n.require(node.inputs().size() == 1, "Upsample-7 takes one input (scales is an attribute), got " + node.inputs().size());
        double[] d = (double[]) a.value();
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
        String scales = constants.floats(node.name() + "/scales", f);
        Map<String, OnnxModel.Attribute> attrs = new HashMap<>(node.attributes());
        attrs.remove("scales");
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), List.of(node.inputs().get(0), scales), node.outputs(), attrs);
    }
}
