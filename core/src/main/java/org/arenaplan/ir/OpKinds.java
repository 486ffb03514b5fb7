package org.arenaplan.ir;

/**
 * The names of the op kinds of {@link OpRegistry} that code outside their definition refers to
 * (each kind's attributes, shape rule, aliasing, kernels, lowering and ONNX import are declared
 * in {@code org.arenaplan.ops}); this list only says what they compute. Names and attributes follow
 * ONNX; tensors are row-major, float32 unless their dtype says otherwise, images NCHW. Kinds
 * marked "any type" run on every {@link DType} but f64 compute; the others compute f32 only (f16
 * and bf16 in f32, where marked). Attribute values are {@code Long}, {@code Double},
 * {@code String}, {@code String[]}, {@code long[]} or {@code double[]}. Importers resolve defaults and
 * {@code auto_pad} into explicit attributes, so kernels never guess.
 *
 * <ul>
 *   <li>{@link #MATMUL}: A[..., M, K] x B[..., K, N], leading dims broadcast.</li>
 *   <li>{@link #GEMM}: Y = alpha * op(A) * op(B) + beta * C; attrs transA, transB (0/1), alpha, beta; C optional, broadcast to [M, N].</li>
 *   <li>{@link #ADD}, {@link #SUB}, {@link #MUL}, {@link #DIV}: numpy broadcasting; {@link #SUM}: n-ary add, broadcasting.
 *       floats (f64, f32, f16, bf16) and the integer types (integer Div truncates toward zero); operands and output share one type.</li>
 *   <li>{@link #RELU} (also integers), {@link #SIGMOID}, {@link #TANH}, {@link #GELU} (attr approximate: none, erf based, or tanh): floats.</li>
 *   <li>The rest of the elementwise family ({@link #ABS} ... {@link #PRELU}): each documented in its registry entry
 *       ({@code ElementwiseOps}); its formula and element types in {@code device.ElementwiseMath}.</li>
 *   <li>{@link #CAST}: attr to (a {@link DType} ONNX code); any type to any type by {@link DType#cast} (ONNX Cast).</li>
 *   <li>{@link #WHERE}: inputs condition (bool), X, Y; output X where the condition holds, else Y;
 *       numpy broadcasting over all three; any type.</li>
 *   <li>{@link #EQUAL}: inputs A, B of one type, output bool; numpy broadcasting; any type.</li>
 *   <li>{@link #GATHER}: inputs data, indices (int64 or int32); attr axis (non-negative after import);
 *       output data.shape[:axis] + indices.shape + data.shape[axis+1:]; a negative index counts
 *       from the end of the axis; any type.</li>
 *   <li>{@link #SOFTMAX}, {@link #LOG_SOFTMAX}, {@link #HARDMAX}: attr axis (default -1); normalise over the dims from axis
 *       to the end, taken together (ONNX before opset 13), or over axis alone with single_axis = 1 (ONNX from 13).</li>
 *   <li>{@link #LAYER_NORM}: inputs X, scale, optional bias; attrs axis (default -1), epsilon (1e-5); outputs Y, optional Mean, InvStdDev.</li>
 *   <li>{@link #BATCH_NORM}: inputs X, scale, B, mean, var (inference); attr epsilon.</li>
 *   <li>{@link #CONV}: inputs X, W, optional B; attrs kernel_shape, strides, pads (begin..., end...), dilations, group.</li>
 *   <li>{@link #FUSED_CONV}, {@link #FUSED_GEMM} (ONNX Runtime's com.microsoft contrib ops of those names): Conv
 *       (1-D and 2-D images) or Gemm with attr activation (Relu) applied to each output; made by the epilogue
 *       fusion before planning ({@code ops.EpilogueFusion}), never imported.</li>
 *   <li>{@link #CONV_TRANSPOSE}: inputs X, W (C x M/group x kernel...), optional B; Conv's attrs plus output_padding
 *       (extra extent at the end of each axis); 1-D to 3-D images.</li>
 *   <li>{@link #MAX_POOL}, {@link #AVERAGE_POOL}, {@link #LP_POOL} (attr p): attrs kernel_shape, strides, pads, dilations,
 *       ceil_mode, count_include_pad; {@link #GLOBAL_AVERAGE_POOL}, {@link #GLOBAL_MAX_POOL}, {@link #GLOBAL_LP_POOL}
 *       (attr p); 1-D to 3-D images.</li>
 *   <li>{@link #RESIZE}: ONNX Resize (opset 19 semantics) with its scales, roi and output sizes resolved into attrs
 *       scales, roi, sizes (one per axis; roi starts then ends).</li>
 *   <li>{@link #LRN}: attrs size, alpha, beta, bias.</li>
 *   <li>{@link #CONCAT}: attr axis. With member declarations it does no work.</li>
 *   <li>{@link #TRANSPOSE}: attr perm.</li>
 *   <li>{@link #SPLIT}: attrs axis, split (extents along axis, default equal parts); one output per part; any type.
 *       Where every extent before axis is 1 its outputs may be declared views of the input.</li>
 *   <li>{@link #COPY}: a device-to-device copy of the input; any type. {@link #CONCAT}, {@link #TRANSPOSE} and the view kinds: any type.</li>
 *   <li>{@link #RELU_GRAD}: inputs dY, X; dX = dY where X &gt; 0, else 0 (training graphs).</li>
 *   <li>Training kinds (the gradient ops of {@code org.arenaplan.train.Gradients}; named as in ONNX
 *       Runtime's training ops or cuDNN's backward calls; their kernels run on the simulator only):
 *       {@link #REDUCE_SUM} (ONNX ReduceSum: attr axes, keepdims; runs on every device, like the other reductions),
 *       {@link #GELU_GRAD} (dY, X), {@link #SOFTMAX_GRAD} (dY, Y; attr axis),
 *       {@link #LAYER_NORM_GRAD} (dY, X, scale; attrs axis, epsilon; the gradient of X),
 *       {@link #CONV_BACKWARD_DATA} (dY, W; Conv's attrs; the gradient of X, group 1) and
 *       {@link #CONV_BACKWARD_FILTER} (X, dY; Conv's attrs; the gradient of W, group 1).</li>
 *   <li>View kinds ({@link OpRegistry#viewKinds()}): Reshape, Flatten, Identity, Dropout (inference), Squeeze,
 *       Unsqueeze, Slice along the outermost axis; declared as views, they issue no device work.</li>
 *   <li>Shape and index kinds, any type (ONNX semantics; attributes resolved at import): {@link #SLICE} (attrs starts,
 *       ends, axes, steps; any slice is a strided copy, whole leading rows may be a view), {@link #EXPAND} (attr shape),
 *       {@link #TILE} (repeats), {@link #PAD} (pads, negative ones crop; mode constant, reflect, edge, wrap; optional
 *       input constant_value), {@link #TRILU} (upper, k), {@link #GATHER_ELEMENTS} (axis), {@link #SCATTER_ELEMENTS}
 *       (axis, reduction), {@link #GATHER_ND} (batch_dims), {@link #SCATTER_ND} (reduction), {@link #ONE_HOT}
 *       (inputs indices, values [off, on]; attrs axis, depth), {@link #DEPTH_TO_SPACE} (blocksize, mode DCR or CRD),
 *       {@link #SPACE_TO_DEPTH} (blocksize).</li>
 * </ul>
 */
public final class OpKinds {
    public static final String MATMUL = "MatMul";
    public static final String GEMM = "Gemm";
    public static final String ADD = "Add";
    public static final String SUB = "Sub";
    public static final String MUL = "Mul";
    public static final String DIV = "Div";
    public static final String SUM = "Sum";
    public static final String RELU = "Relu";
    public static final String SIGMOID = "Sigmoid";
    public static final String TANH = "Tanh";
    public static final String GELU = "Gelu";
    public static final String SOFTMAX = "Softmax";
    public static final String LAYER_NORM = "LayerNormalization";
    public static final String BATCH_NORM = "BatchNormalization";
    public static final String CONV = "Conv";
    public static final String FUSED_CONV = "FusedConv";
    public static final String FUSED_GEMM = "FusedGemm";
    public static final String MAX_POOL = "MaxPool";
    public static final String AVERAGE_POOL = "AveragePool";
    public static final String GLOBAL_AVERAGE_POOL = "GlobalAveragePool";
    public static final String CONV_TRANSPOSE = "ConvTranspose";
    public static final String LP_POOL = "LpPool";
    public static final String GLOBAL_MAX_POOL = "GlobalMaxPool";
    public static final String GLOBAL_LP_POOL = "GlobalLpPool";
    public static final String RESIZE = "Resize";
    public static final String LRN = "LRN";
    public static final String CONCAT = "Concat";
    public static final String TRANSPOSE = "Transpose";
    public static final String SPLIT = "Split";
    public static final String COPY = "Copy";
    public static final String RELU_GRAD = "ReluGrad";
    public static final String CAST = "Cast";
    public static final String WHERE = "Where";
    public static final String EQUAL = "Equal";
    public static final String GATHER = "Gather";
    // The elementwise family beyond the above: each documented in its registry entry (ElementwiseOps).
    public static final String ABS = "Abs", NEG = "Neg", EXP = "Exp", LOG = "Log", SQRT = "Sqrt", RECIPROCAL = "Reciprocal", FLOOR = "Floor",
            CEIL = "Ceil", ROUND = "Round", SIGN = "Sign", ERF = "Erf", SIN = "Sin", COS = "Cos", TAN = "Tan", ASIN = "Asin", ACOS = "Acos",
            ATAN = "Atan", SINH = "Sinh", COSH = "Cosh", ASINH = "Asinh", ACOSH = "Acosh", ATANH = "Atanh", SOFTPLUS = "Softplus",
            SOFTSIGN = "Softsign", HARD_SIGMOID = "HardSigmoid", HARD_SWISH = "HardSwish", LEAKY_RELU = "LeakyRelu", ELU = "Elu",
            SELU = "Selu", CELU = "Celu", THRESHOLDED_RELU = "ThresholdedRelu", MISH = "Mish", SHRINK = "Shrink", IS_NAN = "IsNaN",
            IS_INF = "IsInf", NOT = "Not", BITWISE_NOT = "BitwiseNot", CLIP = "Clip", POW = "Pow", MOD = "Mod", MAX = "Max", MIN = "Min",
            MEAN = "Mean", LESS = "Less", GREATER = "Greater", LESS_OR_EQUAL = "LessOrEqual", GREATER_OR_EQUAL = "GreaterOrEqual",
            AND = "And", OR = "Or", XOR = "Xor", BIT_SHIFT = "BitShift", BITWISE_AND = "BitwiseAnd", BITWISE_OR = "BitwiseOr",
            BITWISE_XOR = "BitwiseXor", PRELU = "PRelu";
    public static final String REDUCE_SUM = "ReduceSum";
    public static final String GELU_GRAD = "GeluGrad";
    public static final String SOFTMAX_GRAD = "SoftmaxGrad";
    public static final String LAYER_NORM_GRAD = "LayerNormalizationGrad";
    public static final String CONV_BACKWARD_DATA = "ConvBackwardData";
    public static final String CONV_BACKWARD_FILTER = "ConvBackwardFilter";

    /** ONNX's recurrent layers ({@code ops.RecurrentOps}): several outputs, each optional. */
    public static final String LSTM = "LSTM";
    public static final String GRU = "GRU";
    public static final String RNN = "RNN";

    public static final String RESHAPE = "Reshape";
    public static final String FLATTEN = "Flatten";
    public static final String IDENTITY = "Identity";
    public static final String DROPOUT = "Dropout";
    public static final String SQUEEZE = "Squeeze";
    public static final String UNSQUEEZE = "Unsqueeze";
    public static final String SLICE = "Slice";

    // shape and index kinds (IndexShapeRules; kernels sim.IndexKernels, index.cuh)
    public static final String EXPAND = "Expand";
    public static final String TILE = "Tile";
    public static final String PAD = "Pad";
    public static final String TRILU = "Trilu";
    public static final String GATHER_ELEMENTS = "GatherElements";
    public static final String SCATTER_ELEMENTS = "ScatterElements";
    public static final String GATHER_ND = "GatherND";
    public static final String SCATTER_ND = "ScatterND";
    public static final String ONE_HOT = "OneHot";
    public static final String DEPTH_TO_SPACE = "DepthToSpace";
    public static final String SPACE_TO_DEPTH = "SpaceToDepth";
    // Reductions, normalisations, the softmax family and losses: documented in their registry entries (ReductionOps).
    public static final String REDUCE_MEAN = "ReduceMean", REDUCE_MAX = "ReduceMax", REDUCE_MIN = "ReduceMin", REDUCE_PROD = "ReduceProd",
            REDUCE_L1 = "ReduceL1", REDUCE_L2 = "ReduceL2", REDUCE_LOG_SUM = "ReduceLogSum", REDUCE_LOG_SUM_EXP = "ReduceLogSumExp",
            REDUCE_SUM_SQUARE = "ReduceSumSquare", ARG_MAX = "ArgMax", ARG_MIN = "ArgMin", LOG_SOFTMAX = "LogSoftmax", HARDMAX = "Hardmax",
            INSTANCE_NORM = "InstanceNormalization", GROUP_NORM = "GroupNormalization", MEAN_VARIANCE_NORM = "MeanVarianceNormalization",
            LP_NORM = "LpNormalization", CUMSUM = "CumSum", TOP_K = "TopK", SOFTMAX_CROSS_ENTROPY_LOSS = "SoftmaxCrossEntropyLoss",
            NLL_LOSS = "NegativeLogLikelihoodLoss";


    private OpKinds() { }
}
