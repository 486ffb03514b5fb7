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
 * Cast 6, Constant 1, Flatten 1, Gemm 7, Greater 7, Less 7, MatMul 1, PRelu 7; where the older
 * version is a subset: MaxPool 1 (MaxPool-8 adds the Indices output and storage_order); and
 * BatchNormalization 7, whose {@code spatial} attribute BatchNormalization-9 removed, meaning
 * {@code spatial = 1}: accepted at 1 (dropped) and refused otherwise. Two older versions are
 * rewritten into their opset-9 form: Max, Min, Mean and Sum 6 (no broadcasting: inputs of one
 * shape, checked by {@link #checkShapes}, which Max-8 etc. compute alike) and Upsample-7, whose
 * {@code scales} attribute becomes Upsample-9's constant {@code scales} input. Scan-8, whose
 * batch axis Scan-9 dropped, is unrolled by its own rule ({@code ControlFlow}). Every
 * version before 6 that carries the legacy {@code broadcast}/{@code consumed_inputs} attributes
 * are refused by this rule.
 */
final class OlderOpsets {
    /** The oldest opset whose default-domain operators arenaplan reads, with this rule. */
    static final long MIN_OPSET = 1;

    private static final Map<String, Integer> OLDEST = parse(
            "Abs=6 Acos=7 Acosh=9 Add=7 And=7 ArgMax=1 ArgMin=1 Asin=7 Asinh=9 Atan=7 Atanh=9 AveragePool=7 "
            + "BatchNormalization=7 Cast=6 Ceil=6 Clip=6 Compress=9 Concat=4 Constant=1 ConstantOfShape=9 Conv=1 "
            + "ConvTranspose=1 Cos=7 Cosh=9 DepthToSpace=1 Div=7 Dropout=7 Elu=6 Equal=7 Erf=9 Exp=6 Expand=8 "
            + "EyeLike=9 Flatten=1 Floor=6 GRU=7 Gather=1 Gemm=7 GlobalAveragePool=1 GlobalLpPool=2 GlobalMaxPool=1 "
            + "Greater=7 HardSigmoid=6 Hardmax=1 Identity=1 If=1 InstanceNormalization=6 IsNaN=9 LRN=1 LSTM=7 "
            + "LeakyRelu=6 Less=7 Log=6 LogSoftmax=1 Loop=1 LpNormalization=1 LpPool=2 MatMul=1 Max=6 MaxPool=1 "
            + "MaxRoiPool=1 MaxUnpool=9 Mean=6 MeanVarianceNormalization=9 Min=6 Mul=7 Multinomial=7 Neg=6 "
            + "NonZero=9 Not=1 OneHot=9 Or=7 PRelu=7 Pad=2 Pow=7 RNN=7 RandomNormal=1 RandomNormalLike=1 "
            + "RandomUniform=1 RandomUniformLike=1 Reciprocal=6 ReduceL1=1 ReduceL2=1 ReduceLogSum=1 "
            + "ReduceLogSumExp=1 ReduceMax=1 ReduceMean=1 ReduceMin=1 ReduceProd=1 ReduceSum=1 ReduceSumSquare=1 "
            + "Relu=6 Reshape=5 Scan=8 Scatter=9 Selu=6 Shape=1 Shrink=9 Sigmoid=6 Sign=9 Sin=7 Sinh=9 Size=1 "
            + "Slice=1 Softmax=1 Softplus=1 Softsign=1 SpaceToDepth=1 Split=2 Sqrt=6 Squeeze=1 Sub=7 Sum=6 Tan=7 "
            + "Tanh=6 TfIdfVectorizer=9 Tile=6 TopK=1 Transpose=1 Unsqueeze=1 Upsample=7 Where=9 Xor=7 ");

    private OlderOpsets() { }

    private static Map<String, Integer> parse(String s) {
        Map<String, Integer> m = new HashMap<>();
        for (String kv : s.trim().split(" +")) {
            int eq = kv.indexOf('=');
            m.put(kv.substring(0, eq), Integer.parseInt(kv.substring(eq + 1)));
        }
        return m;
    }

    /** A constant the importer makes for a rewritten node (Upsample-7's scales); returns its name. */
    interface Constants {
        String floats(String want, float[] values);
    }

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
    static OnnxModel.Node adapt(OnnxModel.Node node, NodeContext n, long opset, Constants constants) {
        if (opset >= 9 || !node.inDefaultDomain()) return node;
        if (!OLDEST.containsKey(node.opType())) return node;   // no such op at opset 9: the import refuses it as it does at any opset
        checkVersion(node, n, opset);
        if (node.opType().equals("Upsample")) return upsampleSeven(node, n, constants);
        if (!node.opType().equals("BatchNormalization") || !node.attributes().containsKey("spatial")) return node;
        Object spatial = node.attributes().get("spatial").value();
        if (!Long.valueOf(1).equals(spatial))
            throw n.error("attribute 'spatial' = " + spatial + ": BatchNormalization-9 (the version arenaplan imports) means spatial = 1 only");
        Map<String, OnnxModel.Attribute> attrs = new HashMap<>(node.attributes());
        attrs.remove("spatial");
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), node.inputs(), node.outputs(), attrs);
    }

    /** Upsample-7 (opsets 7, 8): X and the attribute scales, as Upsample-9: X and a constant scales input. */
    private static OnnxModel.Node upsampleSeven(OnnxModel.Node node, NodeContext n, Constants constants) {
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
