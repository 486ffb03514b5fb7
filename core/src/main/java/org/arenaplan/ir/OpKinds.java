package org.arenaplan.ir;

/**
 * The names of the op kinds that code outside their definitions refers to: the executors'
 * coverage graphs and the GPU runner's, the ONNX importer's Concat and Slice handling, the
 * simulator's random graphs, the schedulers' test graphs, the backward pass
 * ({@code train.Backward}), the epilogue fusion ({@code ops.EpilogueFusion}) and the built-in models.
 * Every kind is declared, with its name, attributes, shape rule, aliasing, kernels, FLOPs,
 * lowering, gradient rule and ONNX import, by its definition in {@code org.arenaplan.ops}
 * (docs/adding-an-op.md); what each computes is its {@link OpSpec#summary()}, rendered in the
 * README's operator table. A name belongs here only while such code names it (OperatorsTest
 * checks both ways: each constant is a registry kind, and is used outside {@code ops}).
 *
 * <p>Names and attributes follow ONNX; arenaplan's own kinds are Copy and the training kinds
 * (ReluGrad and the gradient kernels, named as in ONNX Runtime's training ops or cuDNN's backward
 * calls). Tensors are row-major, images NCHW. Attribute values are {@code Long}, {@code Double},
 * {@code String}, {@code String[]}, {@code long[]} or {@code double[]}; importers resolve
 * defaults and {@code auto_pad} into explicit attributes, so kernels never guess.
 */
public final class OpKinds {
    public static final String MATMUL = "MatMul";
    /** arenaplan's own: ONNX Expand(X, Shape(Y)) with Y bounded, as the ONNX importer writes it ({@code ir.BoundedFlows#expandAs}). */
    public static final String EXPAND_AS = "ExpandAs";
    public static final String GEMM = "Gemm";
    public static final String CONV = "Conv";
    public static final String ADD = "Add";
    public static final String SUB = "Sub";
    public static final String MUL = "Mul";
    public static final String RELU = "Relu";
    public static final String SIGMOID = "Sigmoid";
    public static final String TANH = "Tanh";
    public static final String GELU = "Gelu";
    public static final String SOFTMAX = "Softmax";
    public static final String LAYER_NORM = "LayerNormalization";
    public static final String BATCH_NORM = "BatchNormalization";
    public static final String LRN = "LRN";
    public static final String FUSED_CONV = "FusedConv";
    public static final String FUSED_GEMM = "FusedGemm";
    public static final String MAX_POOL = "MaxPool";
    public static final String AVERAGE_POOL = "AveragePool";
    public static final String GLOBAL_AVERAGE_POOL = "GlobalAveragePool";
    public static final String CONCAT = "Concat";
    public static final String SPLIT = "Split";
    public static final String TRANSPOSE = "Transpose";
    public static final String COPY = "Copy";
    public static final String RESHAPE = "Reshape";
    public static final String FLATTEN = "Flatten";
    public static final String IDENTITY = "Identity";
    public static final String SLICE = "Slice";
    public static final String REDUCE_SUM = "ReduceSum";
    public static final String RELU_GRAD = "ReluGrad";

    private OpKinds() { }
}
