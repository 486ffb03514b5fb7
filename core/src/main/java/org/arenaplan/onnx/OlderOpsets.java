package org.arenaplan.onnx;

import java.util.HashMap;
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
 * {@code spatial = 1}: accepted at 1 (dropped) and refused otherwise. Max, Min, Mean and Sum
 * before 8 (no broadcasting), Upsample-7 (scales as an attribute), Scan-8 and every version
 * before 6 that carries the legacy {@code broadcast}/{@code consumed_inputs} attributes are
 * refused by this rule.
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
            + "LeakyRelu=6 Less=7 Log=6 LogSoftmax=1 Loop=1 LpNormalization=1 LpPool=2 MatMul=1 Max=8 MaxPool=1 "
            + "MaxRoiPool=1 MaxUnpool=9 Mean=8 MeanVarianceNormalization=9 Min=8 Mul=7 Multinomial=7 Neg=6 "
            + "NonZero=9 Not=1 OneHot=9 Or=7 PRelu=7 Pad=2 Pow=7 RNN=7 RandomNormal=1 RandomNormalLike=1 "
            + "RandomUniform=1 RandomUniformLike=1 Reciprocal=6 ReduceL1=1 ReduceL2=1 ReduceLogSum=1 "
            + "ReduceLogSumExp=1 ReduceMax=1 ReduceMean=1 ReduceMin=1 ReduceProd=1 ReduceSum=1 ReduceSumSquare=1 "
            + "Relu=6 Reshape=5 Scan=9 Scatter=9 Selu=6 Shape=1 Shrink=9 Sigmoid=6 Sign=9 Sin=7 Sinh=9 Size=1 "
            + "Slice=1 Softmax=1 Softplus=1 Softsign=1 SpaceToDepth=1 Split=2 Sqrt=6 Squeeze=1 Sub=7 Sum=8 Tan=7 "
            + "Tanh=6 TfIdfVectorizer=9 Tile=6 TopK=1 Transpose=1 Unsqueeze=1 Upsample=9 Where=9 Xor=7 ");

    private OlderOpsets() { }

    private static Map<String, Integer> parse(String s) {
        Map<String, Integer> m = new HashMap<>();
        for (String kv : s.trim().split(" +")) {
            int eq = kv.indexOf('=');
            m.put(kv.substring(0, eq), Integer.parseInt(kv.substring(eq + 1)));
        }
        return m;
    }

    /**
     * A default-domain node of a model at {@code opset < 9}, as the opset-9 import reads it
     * (BatchNormalization's {@code spatial = 1} dropped); the node itself at opset 9 and later
     * and for other domains.
     *
     * @throws OnnxException (through {@code n.error}) naming the node and both versions
     */
    static OnnxModel.Node adapt(OnnxModel.Node node, NodeContext n, long opset) {
        if (opset >= 9 || !(node.domain().isEmpty() || node.domain().equals("ai.onnx"))) return node;
        Integer oldest = OLDEST.get(node.opType());
        if (oldest == null) return node;   // no such op at opset 9: the import refuses it as it does at any opset
        if (opset < oldest)
            throw n.error(node.opType() + " at opset " + opset + " predates " + node.opType() + "-" + oldest
                    + ", the oldest version whose meaning arenaplan imports (it reads opset 9 and later, and older opsets where an op means what it means at 9);"
                    + " convert the model to opset 9 or later (onnx.version_converter.convert_version)");
        if (!node.opType().equals("BatchNormalization") || !node.attributes().containsKey("spatial")) return node;
        Object spatial = node.attributes().get("spatial").value();
        if (!Long.valueOf(1).equals(spatial))
            throw n.error("attribute 'spatial' = " + spatial + ": BatchNormalization-9 (the version arenaplan imports) means spatial = 1 only");
        Map<String, OnnxModel.Attribute> attrs = new HashMap<>(node.attributes());
        attrs.remove("spatial");
        return new OnnxModel.Node(node.name(), node.opType(), node.domain(), node.inputs(), node.outputs(), attrs);
    }
}
