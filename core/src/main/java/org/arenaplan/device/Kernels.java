package org.arenaplan.device;

import java.util.List;

/**
 * The kernel names every device implements, with their argument layout. Data is row-major and
 * f32 unless the call names an element type: {@code dtype} is an ONNX {@code TensorProto.DataType}
 * code ({@link org.arenaplan.ir.DType#onnxCode()}), {@code es} an element size in bytes (1, 2, 4
 * or 8) for kernels that only move elements. f16 and bf16 are computed in f32 and rounded back;
 * integers in 64 bits and stored in their width (wrapping); element conversions are
 * {@link org.arenaplan.ir.DType}'s. Pointer arguments are listed inputs first, output last;
 * {@code ints} are {@code long}s, {@code floats} are {@code double}s narrowed to f32 by the
 * kernel where it computes. Element counts and strides are in elements, not bytes. Outputs may
 * alias inputs only where stated ("in place allowed"). Results must not depend on how work is
 * split across threads except where a note says the order of a reduction is fixed.
 *
 * <ul>
 * <li>{@link #UNARY} ptrs [x, y]; ints [n, op, dtype, (ydtype)]; floats [(alpha), (beta)]: y = op(x),
 *     elementwise; ydtype (0 or absent: dtype) is y's type, bool for is_nan and is_inf. Floats
 *     (f64, f32, f16, bf16) are computed in double and rounded once to y's type; integers in 64
 *     bits, stored in their width. The op codes ({@link #RELU} ...; the ONNX operator of the same
 *     name unless said) and the types each takes: {@code sim.ElementwiseMath}, which defines them
 *     once for the simulator (the CUDA kernels implement the same formulas in elementwise_math.cuh).
 *     In place allowed.</li>
 * <li>{@link #BINARY} ptrs [a, b, y]; ints [op, rank, shape[rank], aStride[rank], bStride[rank], dtype, (bDtype)]
 *     where shape is y's shape and a stride of 0 broadcasts; y is contiguous; a and y have
 *     type dtype, b has bDtype (0 or absent: dtype; differs only for pow). op: {@link #ADD} ...
 *     {@link #SHIFT_RIGHT} ({@code sim.ElementwiseMath} defines each once). Floats are computed
 *     in double and rounded once; integers in 64 bits (wrapping); a zero integer divisor (div,
 *     mod) is an error (the simulator throws, CUDA traps). In place allowed (y may equal a or b
 *     when that operand is not broadcast).</li>
 * <li>{@link #GEMM} ptrs [A, B, (C), Y]; ints [batch, M, N, K, transA, transB, batchStrideA,
 *     batchStrideB, hasC, cBatchStride, cRowStride, cColStride, (activation)]; floats [alpha, beta].
 *     Y[b] (M x N, contiguous, batch stride M*N) = act(alpha * op(A[b]) op(B[b]) + beta * C[b]),
 *     act the fused epilogue's {@code ACTIVATION_*} (absent: none).
 *     op(A)(i,k) = A[i*K+k] or, transposed, A[k*M+i]; op(B)(k,j) = B[k*N+j] or, transposed,
 *     B[j*K+k]; C(b,i,j) = C[b*cBatchStride + i*cRowStride + j*cColStride] (0 strides broadcast).
 *     C is present only when hasC = 1. The sum over k runs k = 0..K-1 in f32, blocked ({@link #SUM_BLOCK}).</li>
 * <li>{@link #SOFTMAX} ptrs [x, (extent), y]; ints [outer, n, inner, mode, (type, per)]: x and y are outer x n x inner;
 *     each of the outer * inner lanes of n values (stride inner) is normalised on its own, in
 *     index order: mode 0 softmax y = exp(x - max) / sum (the sum in f32), 1 log-softmax
 *     y = x - max - log(sum) (the sum in double), 2 hardmax y = 1 at the first largest element, else 0.
 *     With extent (x bounded along an axis among the normalised ones, every axis before it of one element,
 *     held compactly: {@code ir.BoundedFlows#softmax}; the type int then always present) only each lane's
 *     first m = {@code BoundedIndices#actualElements(extent, per, n)} values are normalised, per the lane's
 *     values to a step of the bounded axis (1 where it is the normalised axis), and the lane's other values are 0
 *     (a lane of no actual value is all 0). In place allowed.</li>
 * <li>{@link #REDUCE} ptrs [x, (extent), y]; ints [op, dtype, selectLast, K, R, keptShape[K], keptStride[K],
 *     redShape[R], redStride[R], (per, spans)]: y (contiguous, one element per index of keptShape) =
 *     the reduction of the x elements at sum(kept_d * keptStride[d]) + sum(red_d * redStride[d]),
 *     visited in row-major order of redShape. op: 0 sum, 1 mean, 2 max, 3 min, 4 prod, 5 L1,
 *     6 L2, 7 log-sum, 8 log-sum-exp (max + log(sum(exp(x - max)))), 9 sum of squares,
 *     10 argmax, 11 argmin (y int64, the first extreme index along the one reduced axis, or
 *     the last when selectLast = 1). x and y have type dtype (y int64 for 10, 11); floats
 *     accumulate in double from the empty value (0; 1 for prod; -inf/+inf for max/min, where a
 *     NaN wins) and round once; integers (ops 0, 2, 3, 4, 10, 11) in 64 bits, wrapping, max and
 *     min from the type's lowest and highest value (bool and int64: those of 64 bits). The mean of
 *     no element is 0, as ONNX Runtime 1.30 gives it. With extent (x bounded, held compactly, the
 *     bounded axis's per elements to a step and every axis before it of one element: x's first
 *     {@code BoundedIndices#actualElements(extent, per, numel(x))} elements actual) only actual
 *     elements take part (the mean divides by their count); spans 1 where the bounded axis is among
 *     the reduced ones, where argmax and argmin over no actual element are an error
 *     ({@code ReduceExtent}: the simulator throws, CUDA traps).</li>
 * <li>{@link #NORMALIZE} ptrs [x, (scale), (bias), y, (mean), (invstd)], present as the has* ints
 *     say; ints [mode, hasScale, hasBias, hasMean, hasInvStd, K, R, keptShape[K], keptStride[K],
 *     scaleKeptStride[K], biasKeptStride[K], redShape[R], redStride[R], scaleRedStride[R],
 *     biasRedStride[R]]; floats [epsilon]. For each index of keptShape (one group), its elements
 *     are those of {@link #REDUCE}'s walk (row-major over redShape); y has x's layout. In double,
 *     in index order: mode 0 y = (x - mean) / sqrt(var + eps) (biased variance, two passes),
 *     1 y = (x - mean) / (sqrt(var) + eps) (MeanVarianceNormalization), 2 y = x / sum|x|,
 *     3 y = x / sqrt(sum x^2) (LpNormalization; a group whose norm is 0 gives 0, not 0/0, as
 *     onnx/reference/ops/op_lp_normalization.py), 4 y = x / sqrt(mean(x^2) + eps) (RMSNormalization,
 *     onnx/reference/ops/op_rms_normalization.py); then times scale and plus bias where present
 *     (their elements at the strides given; 0 broadcasts). mean and invstd (modes 0, 1: the mean
 *     and the factor applied) are contiguous over the groups.</li>
 * <li>{@link #CUMSUM} ptrs [x, y]; ints [outer, n, inner, exclusive, reverse, dtype, product]: along each lane
 *     of n values (stride inner), y = the running sum, or product when product is 1 (excluding the
 *     element itself when exclusive, which starts at 0, or 1 for a product; from the end when
 *     reverse); floats in double rounded per output, integers in 64 bits (wrapping).</li>
 * <li>{@link #TOPK} ptrs [x, (extent), values, indices]; ints [outer, n, inner, k, largest, dtype, es, (clamp)]: per lane
 *     of n values (stride inner), the k first in the order larger (smallest: smaller) value first,
 *     then lower index; values [outer, k, inner] of x's type, indices int64. With extent (int64 [1],
 *     the runtime extent of x bounded along the TopK axis, outer 1), only each lane's first
 *     m = min(max(extent, 0), n) values are ranked, and k above m is an error (the simulator
 *     throws, CUDA traps; ONNX Runtime refuses k above the axis's extent), unless clamp is 1: then
 *     the first min(k, m) of each lane are written (a TopK by min(c, the count), its outputs bounded
 *     by the extent; outer 1), the rest left to zero_tail.</li>
 * <li>{@link #EINSUM} ptrs [a, (b), y]; ints [operands, dtype, L, O, extents[L], aStride[L], bStride[L]]:
 *     y (contiguous over the first O letters) = for each index of them, the sum over the other
 *     L - O letters (row-major) of the product of a[sum idx_l * aStride[l]] and, with two
 *     operands, b[...]; a repeated letter's strides add up (the diagonal), 0 broadcasts. In double
 *     from 0, rounded once; f32, f16, bf16 or f64.</li>
 * <li>{@link #DFT} ptrs [x, (window), y]; ints [outer, n, inner, inC, L, bins, mode, frames, frameStep,
 *     frameLength, hasWindow, dtype]: x is [outer, n, inner, inC] (inC 1: real, 2: complex), y is
 *     [outer, frames, bins, inner, 2] (mode {@link #DFT_IRFFT}: [outer, L, inner, 1]). Modes
 *     {@link #DFT_FORWARD} and {@link #DFT_INVERSE}: bin k of frame f = sum over t &lt; L of
 *     x[f frameStep + t] (zero where t &ge; frameLength or past n) times window[t] (when hasWindow)
 *     times e^(-+2 pi i k t / L), the inverse scaled by 1/L. {@link #DFT_IRFFT} (numpy irfft):
 *     y[t] = (1/L) sum over k &lt; min(n, L/2 + 1) of c_k Re(x[k] e^(2 pi i k t / L)), c_k = 1 at k = 0
 *     and k = L/2, else 2. In double, angles from (k t mod L), rounded once; f32, f16, bf16, f64.</li>
 * <li>{@link #QMATMUL} ptrs [a, b, aZp, bZp, (aScale, bScale, yScale, yZp), y]; ints [batch, M, K, N,
 *     aBatched, bBatched, then the 9 quantization ints]: a is [batch or 1, M, K], b [batch or 1, K, N],
 *     y [batch, M, N]; acc = sum over k of (a[m, k] - aZp[m or 0]) (b[k, n] - bZp[n or 0]) in 64 bits.
 *     The quantization ints: [aType, bType, yType, requantize, aZpPerRow, bZpPerColumn, aScalePerRow,
 *     bScalePerColumn, scaleType]; a and b uint8 or int8 (their zero points likewise). requantize = 0:
 *     y = acc as int32 (wrapping). requantize = 1 (the scale pointers present): s = aScale * bScale,
 *     rounded to scaleType (f32, f16, bf16), then s / yScale rounded likewise; y = acc s + yZp (in
 *     double), rounded half to even, saturated to yType (uint8 or int8).</li>
 * <li>{@link #QCONV} ptrs [x, w, xZp, wZp, (xScale, wScale, yScale, yZp), (bias), y]; ints [the 9
 *     quantization ints of {@link #QMATMUL} (rows: 1, columns: the output channels M), then
 *     {@link #CONV_ND}'s ints with transposed = 0]: acc = the Conv sum of (x - xZp) (w - wZp[m or 0])
 *     in 64 bits, plus bias[m] (int32, when hasBias), then y as {@link #QMATMUL}'s.</li>
 * <li>{@link #QUANTIZE_RANGE} ptrs [x, yScale, yZeroPoint]; ints [n]: x is n f32 values, yScale one
 *     f32, yZeroPoint one uint8 (ONNX DynamicQuantizeLinear-11, as onnx/reference/ops/
 *     op_dynamic_quantize_linear.py): max = max(0, max(x)), min = min(0, min(x)) (a NaN wins both);
 *     yScale = (max == min ? 1 : max - min) / 255 in f32; yZeroPoint = rint(0 - min / yScale) (f32,
 *     half to even), clamped to [0, 255] first (NaN to 0). A whole-tensor reduction: CUDA runs it in
 *     one block (min and max are exact, so any order gives the same bits).</li>
 * <li>{@link #REVERSE_SEQUENCE} ptrs [x, lens, y]; ints [d0, d1, inner, timeAxis, es, lensDtype]: x and y
 *     are d0 x d1 x inner elements of es bytes; the batch axis is the other of 0 and 1; y[t, b] =
 *     x[lens[b] - 1 - t, b] for t &lt; lens[b], else x[t, b] (with t on timeAxis). lens int64, each in
 *     [0, steps]: outside is an error (CUDA: a trap).</li>
 * <li>{@link #TFIDF} ptrs [x, y]; ints [rows, C, dtype, outSize, mode, maxSkip, hasWeights, G, then per
 *     n-gram g: size_g, index_g, items_g...]; floats: weights[outSize] when hasWeights: x is rows x C
 *     int64 or int32 tokens, y rows x outSize f32. count[r, o] = over the n-grams g with index_g = o,
 *     the number of (start s, gap d) with items_g[j] = x[r, s + j d] for every j and s + (size_g - 1) d
 *     &lt; C, d from 1 to maxSkip + 1 (only d = 1 for size 1). y = count (mode 0, TF), count &gt; 0 ?
 *     weight : 0 (1, IDF), weight count (2, TFIDF), weight = weights[o] or 1.</li>
 * <li>{@link #TREE_ENSEMBLE} ptrs [x, table, scores, (label)]; ints [rows, F, xDtype, scoresDtype, nodes,
 *     entries, setValues, trees, targets, aggregate, post, classifier, baseCount, binaryCase, allPositive]
 *     (ai.onnx.ml TreeEnsemble, TreeEnsembleRegressor, TreeEnsembleClassifier; ops.TreeTable builds the
 *     table): x is rows x F (f32, f64, f16, int64 or int32, widened to double), table f64: nodes x 8
 *     [mode, feature, value, trueNode, falseNode, missingTracksTrue, a, b] (mode 0..6 BRANCH_LEQ, LT, GTE,
 *     GT, EQ, NEQ, MEMBER: true when x[feature] compares so with value, or is in setValues[a, a + b) for
 *     MEMBER, or is NaN with missingTracksTrue = 1; mode 7 a leaf whose entries are [a, a + b)), then
 *     entries x 2 [target, weight], setValues, trees roots (node indices), baseCount base values and, for a
 *     classifier, targets class labels. Per row, in double, each tree is walked from its root and its leaf's
 *     entries aggregated per target (aggregate 0 average, 1 sum, 2 min, 3 max; a target no leaf reached has
 *     none) in tree order, then finalized as ONNX Runtime's tree_ensemble_aggregator.h does: a regressor
 *     (classifier 0) adds the base values (one target: base[0] when baseCount is 1; several: base[j] when
 *     baseCount = targets) and applies post (0 none, 1 softmax, 2 logistic, 3 softmax_zero, 4 probit; one
 *     target: probit only); a classifier (1; sums) picks the label (label, int64) and writes its class
 *     scores, with the two-class rules (binaryCase: the weights name one class; allPositive: none is
 *     negative) documented at {@code sim.TreeKernels}. Scores are rounded once to scoresDtype (f32, f64, f16).</li>
 * <li>{@link #NLL_LOSS} ptrs [x, target, (weight), loss, (logprob)]; ints [softmax, N, C, D, reduction,
 *     hasIgnore, ignoreIndex, hasWeight, hasLogProb, targetDtype]: x is [N, C, D] log-probabilities
 *     or, with softmax = 1, scores whose log-softmax over C (in double; written to logprob when
 *     present) is taken; target [N, D] int64/int32; per sample loss = -logp[target] * weight[target]
 *     (0 with weight 0 where target = ignoreIndex; a target outside [0, C) is an error: the
 *     simulator throws, CUDA traps). reduction 0 none (loss [N, D]), 1 sum, 2 mean (sum over the
 *     summed weights), the sums in double over n, then d.</li>
 * <li>{@link #BATCHNORM} ptrs [x, scale, bias, mean, var, y]; ints [N, C, spatial]; floats
 *     [epsilon]: y = (x - mean[c]) / sqrt(var[c] + eps) * scale[c] + bias[c]. In place allowed.</li>
 * <li>{@link #BATCHNORM_RUNNING} ptrs [x, mean, var, runningMean, (runningVar)]; ints [N, C, spatial];
 *     floats [momentum]: per channel c, the batch mean m and biased variance v of x's N x spatial
 *     values of c (in double, in index order, two passes: the mean, then the squared deviations
 *     from it); runningMean[c] = mean[c] * momentum + m * (1 - momentum), runningVar[c] = var[c] *
 *     momentum + v * (1 - momentum), in double, stored as f32 (ONNX BatchNormalization-15 in
 *     training mode). One thread per channel.</li>
 * <li>{@link #CONV2D} ptrs [x, w, (b), y]; ints [N, C, H, W, M, OH, OW, KH, KW, strideH,
 *     strideW, padTop, padLeft, dilationH, dilationW, group, hasBias, (activation)]: x is N x C x H x W, w is
 *     M x (C/group) x KH x KW, y is N x M x OH x OW; bias b has M values when hasBias = 1.
 *     The sum runs over input channel, then kh, then kw, in f32, starting from 0 (a tap in the
 *     padding is no term), blocked ({@link #SUM_BLOCK}); bias added last, then the fused epilogue's {@code ACTIVATION_*} (absent: none).</li>
 * <li>{@link #CONV_ND} ptrs [x, w, (b), y]; ints [rank, N, C, M, group, hasBias, transposed, then per
 *     spatial axis d (rank of them, 1 to 3): in_d, out_d, k_d, stride_d, padBegin_d, dilation_d]: x is
 *     N x C x in..., y is N x M x out...; bias b has M values when hasBias = 1. transposed = 0 (ONNX
 *     Conv): w is M x C/group x k..., y[n, m, o] = sum over the group's c, then the kernel positions
 *     (row-major), of x[n, c, o*stride - padBegin + k*dilation] * w[m, c', k]. transposed = 1 (ONNX
 *     ConvTranspose): w is C x M/group x k..., y[n, m, o] = the same sum of x[n, c, i] * w[c, m', k]
 *     over the i with i*stride - padBegin + k*dilation = o. Positions outside x contribute nothing;
 *     the sum runs in f32 from 0, blocked ({@link #SUM_BLOCK}), the bias added last.</li>
 * <li>{@link #POOL} ptrs [x, y]; ints [rank, planes, mode, countIncludePad, p, then per spatial axis
 *     (1 to 3): in_d, out_d, k_d, stride_d, padBegin_d, padEnd_d, dilation_d]: x is planes x in...,
 *     y planes x out...; the window of output o on axis d holds the positions o*stride - padBegin +
 *     j*dilation, j &lt; k. mode 0 max (-inf over an empty window), 1 average: the sum over the
 *     positions inside x divided by their count, or with countIncludePad = 1 by the count of
 *     positions inside [-padBegin, in + padEnd); 2 Lp: (sum of |x|^p over the positions inside x)^(1/p).
 *     Global pooling is k = in, no padding. Sums run over the window in row-major order, in f32.</li>
 * <li>{@link #POOL_INDICES} ptrs [x, indices]; ints as {@link #POOL}'s (mode 0) then storageOrder:
 *     ONNX MaxPool's Indices (int64): for each window, the flat index into x (plane * plane size +
 *     the position in the plane, row-major, or column-major with storageOrder = 1) of its first
 *     maximum in window order.</li>
 * <li>{@link #RESIZE} ptrs [x, y]; ints [rank, mode, coordinateMode, nearestMode, excludeOutside,
 *     antialias, then per axis: in_d, out_d, scale_d, roiStart_d, roiEnd_d] where scale and roi are
 *     IEEE-754 double bits ({@link Double#doubleToRawLongBits}); floats [cubicCoeffA,
 *     extrapolationValue]. ONNX Resize (opset 19) of x (shape in...) to y (shape out...): mode 0
 *     nearest, 1 linear, 2 cubic; coordinateMode 0 half_pixel, 1 half_pixel_symmetric,
 *     2 pytorch_half_pixel, 3 align_corners, 4 asymmetric, 5 tf_half_pixel_for_nn,
 *     6 tf_crop_and_resize; nearestMode 0 round_prefer_floor, 1 round_prefer_ceil, 2 floor, 3 ceil.
 *     Per axis the output coordinate maps to an input coordinate and taps with weights (as onnx's
 *     reference op_resize.py: the taps left of a whole coordinate are preferred, indices clamp to
 *     the edge, excludeOutside drops taps outside x and renormalises, antialias widens linear and
 *     cubic filters by 1/scale when downsampling); y = sum over the taps' product of
 *     weight * x, in f64, rounded to f32 once. With tf_crop_and_resize a coordinate outside
 *     [0, in - 1] on any axis gives extrapolationValue.</li>
 * <li>{@link #COL2IM} ptrs [x, y]; ints [rank, N, C, then per spatial axis (1 to 3): image_d, blocks_d,
 *     k_d, stride_d, padBegin_d, dilation_d]: ONNX Col2Im. x is N x (C * prod k) x prod blocks, y is
 *     N x C x image...; y[n, c, o] = sum over the block positions q (row-major) and the blocks b with
 *     b*stride - padBegin + q*dilation = o of x[n, c * prod k + q, b], in f32 from 0.</li>
 * <li>{@link #AFFINE_GRID} ptrs [theta, grid]; ints [N, rank (2 or 3), then the spatial extents
 *     (H, W or D, H, W), alignCorners]: ONNX AffineGrid. theta is N x rank x (rank + 1); grid is
 *     N x spatial... x rank with grid[n, ..., k] = sum over j of theta[n, k, j] * base_j + theta[n, k, rank],
 *     base = (x, y[, z]) for the position's width, height[, depth] index i of extent e:
 *     -1 + 2i/(e - 1) with alignCorners (0 where e = 1), else -1 + (2i + 1)/e; in f64, rounded to f32.</li>
 * <li>{@link #GRID_SAMPLE} ptrs [x, grid, y]; ints [rank (2 or 3), N, C, in_d (rank of them), out_d
 *     (rank of them), mode (0 nearest, 1 linear, 2 cubic), padding (0 zeros, 1 border, 2 reflection),
 *     alignCorners]: ONNX GridSample-20. x is N x C x in..., grid N x out... x rank (the last entry
 *     indexes the first spatial axis), y N x C x out...; as onnx's reference op_grid_sample.py
 *     (nearest rounds half to even, as the ONNX node tests' outputs; cubic with a = -0.75), in f64,
 *     rounded to f32.</li>
 * <li>{@link #LRN} ptrs [x, y]; ints [N, C, spatial, size]; floats [alpha, beta, bias]:
 *     y = x / (bias + alpha/size * sum over c' in [c - floor((size-1)/2), c + ceil((size-1)/2)] of x[c']^2)^beta.</li>
 * <li>{@link #TRANSPOSE} ptrs [x, y]; ints [rank, shape[rank], stride[rank], es]: y (contiguous,
 *     given shape) at index (i0..ir) = x[sum i_d * stride[d]].</li>
 * <li>{@link #COPY} ptrs [x, y]; ints [n, es]: y = x, n elements. In place allowed.</li>
 * <li>{@link #CONCAT_SLICE} ptrs [x, y]; ints [outer, xInner, yInner, yOffset, es]:
 *     y[o*yInner + yOffset + i] = x[o*xInner + i] for o &lt; outer, i &lt; xInner
 *     (one call per concatenated input; writes only those elements of y).</li>
 * <li>{@link #CAST} ptrs [x, y]; ints [n, fromDtype, toDtype, saturate, roundMode]: y[i] = x[i] converted
 *     ({@link org.arenaplan.ir.DType#cast}; ONNX Cast); saturate (1 or 0; absent
 *     reads as 0, as the CUDA kernels' zero-padded ints do) for float8 and float8e8m0 results only;
 *     roundMode (0 up, absent too; 1 down; 2 nearest: {@link org.arenaplan.ir.Float8E8M0}) for float8e8m0 results only. x and y
 *     may be packed (uint4, int4, float4e2m1, uint2, int2: ceil(n * bits / 8) bytes, the first
 *     element in the low bits); a packed y is written whole bytes at a time.</li>
 * <li>{@link #GATHER} ptrs [data, indices, (extent), (indicesExtent), y]; ints [outer, axis, inner, n, es, indexDtype, (per)]:
 *     data is [outer, axis, inner], indices n values of int64 or int32, y [outer, n, inner]:
 *     y[o, j, k] = data[o, idx, k] with idx = indices[j], plus axis when negative (ONNX Gather).
 *     An index outside [-axis, axis) is an error (the simulator throws, CUDA traps). With extent
 *     (int64 [1], the runtime extent of data bounded along the gathered axis, outer 1; then ints
 *     end with per), an index is wrapped and checked against a = min(max(extent, 0), axis) instead
 *     (0 where nothing is kept: every index is then an error). With indicesExtent too (the
 *     indices bounded, per of them to one step of their bounded axis, per &ge; 1; per is 0
 *     without it), only the first {@link BoundedIndices#actualElements} indices are real: the
 *     rows of the rest (the tail's zeros, padding) are written as zeros, data not read.
 *     ({@link BoundedIndices}: the host's check before the launch.)</li>
 * <li>{@link #NONZERO} ptrs [x, extent (int64 [1]), y (int64)]; ints [n, rank, shape[rank], dtype]:
 *     x is n elements of shape[rank] (bool, an integer, f16, bf16, f32 or f64); with c the count of
 *     its non-zero elements (NaN non-zero, -0.0 zero), extent[0] = c and y[d * c + j] = coordinate d
 *     of the j-th non-zero element in row-major order, y zero from rank * c to its end (rank * n
 *     elements: the upper bound). ONNX NonZero. Serial (one thread).</li>
 * <li>{@link #COMPRESS} ptrs [x, condition (bool), extent (int64 [1]), y]; ints [outer, n, inner, m, es]:
 *     x is [outer, n, inner], condition m &le; n values; with c the count of true values among them,
 *     extent[0] = c and y[(o * c + j) * inner + i] = x[(o * n + s_j) * inner + i], s_j the j-th true
 *     condition, y zero from outer * c * inner to its end (outer * m * inner elements: the upper
 *     bound). ONNX Compress. Serial (one thread).</li>
 * <li>{@link #UNIQUE} ptrs [x, extent (int64 [1]), y, indices, inverse_indices, counts (int64)];
 *     ints [outer, n, inner, sorted, dtype, es, alongAxis] (alongAxis 1: ONNX's axis was given, 0: the
 *     flattened input; the kernels ignore it, the host check {@link UniqueSlices} reads it): x is [outer, n, inner], its n slices s (the elements
 *     x[o, s, i] in row-major order of (o, i)) compared element by element (integers by value,
 *     uint64 unsigned; floats by value, -0.0 equal to 0.0, a NaN equal to a NaN and above every
 *     number); with c the count of distinct slices, extent[0] = c, y [outer, c, inner] the first
 *     occurrence of each (ascending where sorted = 1, else in order of first occurrence),
 *     indices[j] its slice index, counts[j] how many slices equal it, inverse_indices[s] (n
 *     values) the j of slice s; y, indices and counts zero after their first c (y's upper bound
 *     outer * n * inner, theirs n). ONNX Unique. Serial (one thread).</li>
 * <li>{@link #NMS} ptrs [boxes (f32 [B, N, 4]), scores (f32 [B, C, N]), max_output_boxes_per_class
 *     (int64 [1]), iou_threshold (f32 [1]), score_threshold (f32 [1]), optional boxes' runtime extent (int64 [1];
 *     B = C = 1, boxes and scores bounded along N: only the first min(it, N) boxes are candidates), extent (int64 [1]),
 *     y (int64)]; ints [B, N, C, center_point_box, hasScoreThreshold, perClass]: for each batch b and class c in
 *     order, the boxes whose score exceeds score_threshold (every box when hasScoreThreshold is 0),
 *     by descending score (ties: lower index first), each kept unless its IoU with a box kept for
 *     (b, c) exceeds iou_threshold, at most max(max_output_boxes_per_class, 0) per class; row
 *     [b, c, box] of y per kept box, extent[0] the row count, y zero after (B * C * perClass rows).
 *     IoU in f32 as onnx's reference computes it (corners [y1, x1, y2, x2] in either order, or
 *     [x_center, y_center, width, height] where center_point_box = 1; 0 where the boxes do not
 *     overlap or an area is not positive). min(max_output_boxes_per_class, N) above perClass (from
 *     the value at import) is an error (the simulator throws, CUDA traps). ONNX NonMaxSuppression. Serial (one thread).</li>
 * <li>{@link #ZERO_TAIL} ptrs [extent (int64 [1]), y]; ints [per, total, es]: y holds total elements
 *     of es bytes, a bounded tensor ({@code ir.OpSpec.BoundedFlow}) whose actual n * per elements
 *     lead (n = extent[0], per the product of the extents but the bounded one); the elements from
 *     n * per to total are set to zero bytes (none where n * per &ge; total). Run after the kernels of
 *     an op that carries a bounded tensor, so its tail holds zeros as the data-dependent kernels
 *     leave theirs. Grid-stride, one thread per element.</li>
 * <li>{@link #CHECK_EXTENT} ptrs [extent (int64 [1])]; ints [sum]: stops the run unless extent[0] is
 *     sum ({@link ExtentCheck}: the simulator throws, CUDA traps); writes nothing. Launched by a Split
 *     of a bounded tensor along its bounded axis into parts of fixed extents summing to sum. One thread.</li>
 * <li>{@link #SPLIT_BOUNDED} ptrs [extent (int64 [1]), x, y, part extent (int64 [1])]; ints [part, parts,
 *     mode, per, rows, bound, es]: x holds a bounded tensor compactly, bound rows of per elements (es
 *     bytes each) along its bounded axis, the outermost, n = min(max(extent[0], 0), bound) of them
 *     actual; part {@code part} of the {@code parts} ONNX Split derives from n without 'split'
 *     ({@link ExtentCheck#parts}: mode 0, before opset 18, n / parts rows each; mode 1, Split-18's
 *     num_outputs, ceil(n / parts) each and the rest last) is copied to y's leading elements (y holds
 *     rows rows at its bound), the rest zero, and its row count written to the part extent. An n the parts do not take stops the run ({@link ExtentCheck}: the
 *     simulator throws, CUDA traps). Grid-stride, one thread per element of y's bound.</li>
 * <li>{@link #SLICE_BOUNDED} ptrs [extent (int64 [1]), x, y, y extent (int64 [1])]; ints [start terms (5),
 *     end terms (5), step, rows, bound, per, es]: x holds a bounded tensor compactly, bound rows of per
 *     elements (es bytes each) along its bounded axis, the outermost, n = min(max(extent[0], 0), bound) of
 *     them actual; the start and the end are floor((a n + b) / d) e + f of their terms (a, b, d, e, f;
 *     {@code ir.CountedSlice}), clamped to n as ONNX Slice clamps them; the rows Slice takes from the
 *     start to the end by step (not 0), at most rows of them, go to y's leading rows in order (y holds
 *     rows rows at its bound), the rest zero, and their count to the y extent. Grid-stride, one thread
 *     per element of y's bound (at least one: it writes the count).</li>
 * <li>{@link #CONCAT_BOUNDED} ptrs [(before (int64 [1])), (extent (int64 [1])), x, y, after (int64 [1])], present
 *     as hasBefore and hasExtent say; ints [rows, per, yRows, es, hasBefore, hasExtent]: one input of a Concat along
 *     the bounded axis, the outermost ({@code ir.BoundedFlows#CONCAT}): x holds rows rows of per elements (es bytes
 *     each) at its bound, c = min(max(extent[0], 0), rows) of them actual (all rows without extent: x known
 *     before the run); they go to y's rows o .. o + c - 1, o = min(max(before[0], 0), yRows) (0 without before:
 *     the first input), the rows of the earlier inputs, c cut to yRows - o; y's rows from o + c to yRows are
 *     zeroed (a later input's call writes its rows there), those before o are left as they are; after[0] = o + c,
 *     the next input's before, the last input's the output's runtime extent. Grid-stride, one thread per
 *     element of y's bound (at least one: it writes after).</li>
 * <li>{@link #RESHAPE_EXTENT} ptrs [extent (int64 [1]), y extent (int64 [1])]; ints [mul, div, bound]: a Reshape
 *     of a bounded tensor that merges or splits its bounded axis (every axis before it of one element, in x and
 *     in y: the same bytes, a view) holds n = min(max(extent[0], 0), bound) rows of x, that is n * mul / div rows
 *     of y, which go to the y extent ({@code x[m].view(-1)} of rows of 3: mul 3, div 1). Where div does not divide
 *     n * mul, ONNX Reshape has no shape for the run: it stops ({@link ExtentCheck#reshaped}: the simulator throws,
 *     CUDA traps). One thread.</li>
 * <li>{@link #TRANSPOSE_BOUNDED} ptrs [extent (int64 [1]), x, y]; ints [rank, axis, es, shape[rank],
 *     perm[rank]]: x holds a bounded tensor of upper-bound shape (total elements of es bytes)
 *     compactly, its actual shape s the bound with s[axis] = min(max(extent[0], 0), shape[axis]);
 *     y's first numel(s) elements are the actual tensor transposed (ONNX Transpose: y axis d is x
 *     axis perm[d]), row-major, and the rest zero. One thread per element of the bound (grid-stride).</li>
 * <li>{@link #WHERE} ptrs [cond, x, y, out]; ints [rank, shape[rank], condStride[rank],
 *     xStride[rank], yStride[rank], es]: out = cond != 0 ? x : y, broadcast as {@link #BINARY};
 *     cond is bool; x, y and out share one element type.</li>
 * <li>{@link #QUANTIZE} ptrs [x, scale, (zeroPoint), y]; ints [outer, axis, inner, mode, xDtype, yDtype, hasZeroPoint, saturate, block]:
 *     x and y are outer x axis x inner; scale (and the zero point, when hasZeroPoint = 1) hold axis
 *     values, element (o, a, i) using entry a. mode 0 quantizes (ONNX QuantizeLinear): x float
 *     (f32, f16, bf16; scale of x's type), y int8 or uint8 (the zero point's type):
 *     y = clamp(rint(x / scale) + zeroPoint) to y's range, x / scale computed in f32 and rounded
 *     half to even. mode 1 dequantizes (DequantizeLinear): x int8, uint8 or int32, y f32 (scale's
 *     type): y = (x - zeroPoint) * scale in f32. Float8: mode 0 with a float8 y (and zero point)
 *     writes x / scale + zeroPoint, computed in f32, as float8 by DType's one rounding to nearest
 *     even, with saturate (1 or 0, absent reads as 0) as ONNX Cast's; mode 1 takes float8 x (and
 *     zero point) with an f32, f16 or bf16 scale and y of the scale's type: y = (x - zeroPoint) * scale in f32.
 *     Packed types (DType.isPacked): mode 0 to uint4, int4, uint2, int2 saturates to the type's
 *     range, to float4e2m1 as float8 (saturating to +-6); mode 1 reads them as int8 and float8 are
 *     read. block (absent reads as 0) > 0 is blocked quantization: scale and zero point hold
 *     outer x ceil(axis / block) x inner values, element (o, a, i) using entry (o, a / block, i).</li>
 * <li>{@link #COMPARE} ptrs [a, b, y]; ints [op, rank, shape[rank], aStride[rank], bStride[rank],
 *     dtype]: y (bool) = a op b, broadcast as {@link #BINARY}; op: {@link #EQUAL}, {@link #LESS},
 *     {@link #GREATER}, {@link #LESS_OR_EQUAL}, {@link #GREATER_OR_EQUAL}. Floats compare as
 *     doubles (f16/bf16/f32 widened exactly), so a NaN is unequal to everything; integers as
 *     64-bit values.</li>
 * <li>{@link #RECURRENT} (ONNX LSTM, GRU, RNN; {@code ops.RecurrentOps}) ptrs [X, W, R, (B),
 *     (sequence_lens), (initial_h), (initial_c), (P), (Y), (Y_h), (Y_c)], each optional one there
 *     only when its presence flag is 1; ints [cell, seq, batch, input, H, dirs, reverse, layout,
 *     linearBeforeReset, inputForget, hasClip, act[6], present[8]]; floats [clip, alpha[6],
 *     beta[6]]. cell: 0 RNN, 1 GRU, 2 LSTM (G = 1, 3, 4 gates); dirs 1 or 2 (reverse = 1: the one
 *     direction runs backwards); layout 0: X [seq, batch, input], Y [seq, dirs, batch, H],
 *     states [dirs, batch, H]; layout 1: X [batch, seq, input], Y [batch, seq, dirs, H], states
 *     [batch, dirs, H]; present[k] flags B, sequence_lens (int32), initial_h, initial_c, P, Y, Y_h,
 *     Y_c; act[a*G' + i] is direction a's i-th activation code ({@code ops.RecurrentOps#ACTIVATIONS};
 *     G' = 3, 2, 1 per cell), with alpha[..], beta[..] at the same index. Per direction d and batch
 *     row b, the steps t = 0..len-1 (backwards for d = 1 or reverse; len = sequence_lens[b], else
 *     seq) compute from h (initial_h or 0) and, for LSTM, c (initial_c or 0) the ONNX equations:
 *     each gate's pre-activation is, in this order and in f32, sum_k x[k]*W[d][gate*H+j][k] +
 *     sum_k h[k]*R[d][gate*H+j][k] + Wb + Rb (LSTM: + P*c for i and f with the old c, for o with
 *     the new c); GRU's h gate uses r*h in R's sum, or with linearBeforeReset r*(sum + Rb); each
 *     clipped to [-clip, clip] when hasClip, then activated. Y at steps len..seq-1 is 0; Y_h (Y_c)
 *     is the state after the last step. A length outside [0, seq] is an error (the simulator
 *     throws, CUDA traps). One kernel for the whole sequence: no workspace in device memory.</li>
 * <li>{@link #ROTARY} (ONNX RotaryEmbedding; {@code ops.TransformerOps}) ptrs [x, cos, sin,
 *     (positions), y]; ints [B, S, H, D, rd, interleaved, hasPositions, strideB, strideH, strideS,
 *     cacheRows]: x and y f32 of one layout, element (b, h, s, d) at b*strideB + h*strideH +
 *     s*strideS + d; cos and sin f32 [rows, rd/2]; positions int64 [B, S] (row = positions[b, s],
 *     negative from the end; outside [0, cacheRows) an error: the simulator throws, CUDA traps),
 *     else row = b*S + s. d &gt;= rd: y = x; else with i = d/2 (interleaved: pairs (2i, 2i+1))
 *     or d mod rd/2 (halves (i, i + rd/2)), x1, x2 the pair, c, s the cache at [row, i], in f32:
 *     the first of the pair y = c*x1 - s*x2, the second y = s*x1 + c*x2
 *     (onnx/reference/ops/op_rotary_embedding.py).</li>
 * <li>{@link #ROI_ALIGN} (ONNX RoiAlign-10/16; {@code ops.DetectionOps}) ptrs [X, rois, batchIndices, Y];
 *     ints [N, C, H, W, R, OH, OW, samplingRatio, mode (0 avg, 1 max), halfPixel (1: shift -0.5)];
 *     floats [spatialScale]. X [N, C, H, W] f32, rois [R, 4] f32 (x1, y1, x2, y2), batchIndices [R]
 *     int64 (each in [0, N), else refused), Y [R, C, OH, OW] f32. As onnx/reference/ops/op_roi_align.py,
 *     in double: start = roi * scale - shift, size = end - start (at least 1 without halfPixel), bin =
 *     size / O, grid = samplingRatio or ceil(size / O) per axis, count = max(gridH * gridW, 1); sample
 *     (iy, ix) of bin (ph, pw) at y = startH + ph * binH + (iy + 0.5) * binH / gridH (x alike); a sample
 *     with y &lt; -1, y &gt; H, x &lt; -1 or x &gt; W weighs 0, else y, x clamped below at 0, low =
 *     (long) y, high = low + 1, both H-1 (and y = H-1) when low &gt;= H-1, weights (1-ly)(1-lx),
 *     (1-ly)lx, ly(1-lx), ly lx of the four corners. avg: the sum over samples (iy, then ix) of
 *     w1 v1 + w2 v2 + w3 v3 + w4 v4, divided by count; max: the largest over samples of max(w1 v1,
 *     w2 v2, w3 v3, w4 v4) (the weighted corners, as the reference and ONNX Runtime), 0 without
 *     samples. Rounded once to f32. Rois with a non-finite coordinate or over {@link RoiGrids#MAX_SAMPLES}
 *     samples in all are refused before launch ({@link RoiGrids#check}).</li>
 * <li>{@link #DEFORM_CONV} (ONNX DeformConv-19; {@code ops.DetectionOps}) ptrs [X, W, offset, (B),
 *     (mask), Y], B and mask present as the has* ints say; ints [N, C, H, W, M, OH, OW, KH, KW,
 *     strideH, strideW, padTop, padLeft, dilationH, dilationW, group, offsetGroup, hasBias, hasMask].
 *     X [N, C, H, W], W [M, C/group, KH, KW], offset [N, offsetGroup*KH*KW*2, OH, OW] (per tap
 *     (g, i, j): channel ((g*KH + i)*KW + j)*2 the row offset, +1 the column offset), B [M], mask
 *     [N, offsetGroup*KH*KW, OH, OW], all f32. Y[n, m, oh, ow] = B[m] + sum over c of m's group, then
 *     i, then j, of W[m, c, i, j] * mask * bilinear(X[n, c], h, w), h = oh*strideH - padTop +
 *     i*dilationH + rowOffset, w alike, the offset group of channel c being c / (C / offsetGroup);
 *     bilinear with each corner outside X read as 0 (onnx's reference: GridSample, align_corners 1,
 *     zeros padding; torchvision's deform_conv2d). In double from B (0 without), rounded once.</li>
 * <li>{@link #MAX_UNPOOL} (ONNX MaxUnpool-9/11; {@code ops.DetectionOps}) ints [phase, xElements,
 *     yElements, rank, inferred[rank], out[rank]]. Phase 0: ptrs [Y]: Y = 0. Phase 1: ptrs [X, I, Y]
 *     (Y written whole on the simulator, zeros and the scatter; on CUDA only the scattered
 *     elements, over phase 0's zeros: the same bytes): for each element e of X in order, flat index I[e] (int64, into the inferred
 *     shape [N, C, (in-1)*stride - pads + kernel ...]; outside [0, prod(inferred)) refused) is split
 *     over inferred and written at the same coordinates of Y's shape out (at least inferred on every
 *     axis: output_shape pads at the ends), Y[...] = X[e]; where two indices meet, the later
 *     element's value stays on the simulator (the reference's order) and either one on CUDA (MaxPool's
 *     indices name one input element, so its value). f32.</li>
 * <li>{@link #DET} (ONNX Det-11; {@code ops.LinearAlgebraOps}) ptrs [X, Y]; ints [batch, M]: X
 *     [batch, M, M] f32, Y [batch]: Gaussian elimination with partial pivoting in double (pivot: the
 *     first largest |a| of the column at or below the diagonal; a zero pivot gives 0; each row swap
 *     negates), the product of the pivots, rounded once to f32.</li>
 * <li>{@link #CAUSAL_CONV} (ONNX CausalConvWithState-27; {@code ops.StateSpaceOps}) ptrs [x, w,
 *     (bias), (past), y, (present)], present as the has* ints say; ints [B, C, L, K, hasBias,
 *     hasPast, activation (0 none, 1 silu), hasPresent, dtype (ONNX code of every tensor: f32, f16
 *     or bf16)]. x and y [B, C, L], w [C, 1, K], bias [C], past and present [B, C, K-1]. With
 *     seq(b, c, j) = past[b, c, j] for j &lt; K-1 (0 without past), x[b, c, j - (K-1)] after:
 *     y[b, c, t] = act(T(bias[c] + sum_k w[c, k] * seq(b, c, t + k))), the sum over k = 0..K-1 in
 *     double from 0, bias added last, rounded once to the type; silu: T(v * (1 / (1 + exp(-v))))
 *     with v the rounded sum, in double; present[b, c, i] = seq(b, c, L + i), the last K-1 of the
 *     padded sequence (the operator's function body in the ONNX spec: Concat, depthwise Conv,
 *     Slice).</li>
 * <li>{@link #LINEAR_ATTENTION} (ONNX LinearAttention-27; {@code ops.LinearAttentionOps}) ptrs [q, k,
 *     v, (past), (decay), (beta), out, (present)], present as the has* ints say; ints [B, T, Hq, Hkv,
 *     dk, dv, hasPast, hasDecay, decayPerKey, hasBeta, betaPerHead, hasPresent, tCode, sCode];
 *     floats [scale]. q [B, T, Hq*dk], k [B, T, Hkv*dk], v [B, T, Hkv*dv], out [B, T, Hq*dv],
 *     decay [B, T, Hkv*dk] (decayPerKey) or [B, T, Hkv], beta [B, T, Hkv] (betaPerHead) or
 *     [B, T, 1], all of type tCode; past and present [B, Hkv, dk, dv] of type sCode (f32, f16 or
 *     bf16 each). One item per state column (b, h, m): the column s[0..dk) is f32, starting at
 *     past (or 0); per step t, in order: with decay s[d] = f32(s[d] * exp(g)) (g the decay of d,
 *     or of the head); u = v[m], with beta u = f32(beta * (v[m] - r)), r = sum_d s[d] * k[d] in
 *     double from 0; s[d] = f32(s[d] + k[d] * u); then for each of the G = Hq/Hkv query heads
 *     h*G + j: out[m] = T(f32(scale * sum_d q[d] * s[d])), the sum in double from 0. present is
 *     the final column rounded to sCode (onnx/reference/ops/op_linear_attention.py: the state is
 *     f32 per step, query head i reads KV head i/G). The CUDA kernel keeps the column in
 *     registers, dk at most 256.</li>
 * <li>{@link #FLEX_ATTENTION} (ONNX FlexAttention, domain ai.onnx.preview version 1;
 *     {@code ops.FlexAttentionOps}) runs the stages of the operator from point {@code from} to
 *     point {@code to}: 0 = Q and K, 1 = scores, 2 = probabilities, 3 = Y (a score_mod or
 *     prob_mod subgraph runs between two calls, as ordinary kernels). ptrs [Q, K] (from 0) or
 *     [X] (from 1 or 2: scores or probabilities [B, Hq, L, S] of type cCode), then V when to is
 *     3, then the output (scores or probabilities of type cCode, or Y [B, Hq, L, Ev] of type
 *     tCode); ints [B, Hq, Hkv, L, S, E, Ev, from, to, tCode, cCode]; floats [f], the square root
 *     of the scale as the reference rounds it (f32, then tCode). Q [B, Hq, L, E], K [B, Hkv, S, E],
 *     V [B, Hkv, S, Ev] of type tCode (f32, f16, bf16 or f64); cCode (f32, f16, bf16 or f64) is
 *     softmax_precision. Query head h reads KV head h / (Hq/Hkv). As
 *     onnx/reference/ops/aionnx_preview/op_flex_attention.py: scores = C(T(sum_e T(q*f) * T(k*f))),
 *     the sum in double from 0 (numpy sums f16 in f32); probabilities per row of S: m = max,
 *     p = C(exp(C(s - m))), then p = C(p / C(sum p)), the sum in double (bf16: rounded to bf16 at
 *     every step, j ascending, as ml_dtypes' add reduction); Y = T(C(sum_s p * C(v))), the sum in
 *     double (bf16: a float32 sum, j ascending, not rounded to bf16, as ml_dtypes' matmul returns
 *     float32: Y = T(f32 sum)). C(x) of an f64 x: f16 rounded once (numpy's cast), bf16 through
 *     f32 (ml_dtypes'). A row whose scores are all -inf gives NaN, as the reference. The CUDA
 *     kernel runs a block per query row, its S scores in shared memory (S at most 4096).</li>
 * <li>{@link #ATTENTION} (ONNX Attention-23/24; {@code ops.TransformerOps}) ptrs [Q, K, V, (mask),
 *     (pastK), (pastV), (nonpad), Y, (presentK), (presentV), (qk)], present as the has* ints say;
 *     ints [B, Hq, Hkv, Sq, Skv, P, D, Dv, threeD, hasMask, maskBool, maskStrideB, maskStrideH,
 *     maskStrideQ, Tm, causal, hasPast, hasNonpad, hasPresentK, hasPresentV, hasQk, qkMode, leftWindow,
 *     rightWindow];
 *     floats [scale, softcap]. Q [B, Hq, Sq, D], K [B, Hkv, Skv, D], V [B, Hkv, Skv, Dv], Y
 *     [B, Hq, Sq, Dv] (threeD: [B, Sq, H*D] each, heads inner), past [B, Hkv, P, D|Dv], present
 *     [B, Hkv, T, D|Dv] = past then K (V) along the sequence (T = P + Skv), mask f32 or bool (one
 *     byte) with element (b, h, i, j) at b*maskStrideB + h*maskStrideH + i*maskStrideQ + j for
 *     j &lt; Tm, nonpad int64 [B], qk f32 [B, Hq, Sq, T]. Query head h reads key head h / (Hq/Hkv).
 *     Per query row (b, h, i), key j: bias (f32) = mask (j &gt;= Tm: -inf; bool: 0 or -inf) + (causal
 *     and j &gt; i + offset: -inf) + (outside the window: leftWindow &gt;= 0 and i + offset - j &gt;
 *     leftWindow, or rightWindow &gt;= 0 and j - i - offset &gt; rightWindow: -inf) + (hasNonpad and
 *     j &gt;= nonpad[b]: -inf), offset = P, else
 *     nonpad[b] - Sq with hasNonpad, else 0; raw = f32(scale * sum_d q*k in double); capped =
 *     softcap &gt; 0 ? f32(softcap * tanh(raw / softcap)) : raw; x = capped + bias; p = exp(x - max)
 *     / sum in double, rounded to f32, and 0 for the whole row when every bias is -inf (or the max
 *     is -inf); Y = sum_j p * v in f32, j ascending; qk = raw (qkMode 0), capped (1), x (2) or p (3).
 *     One thread per query row recomputing the scores in three passes: no workspace in device
 *     memory (onnx/reference/ops/op_attention.py).</li>
 * </ul>
 *
 * <p>Shape and index kernels ({@link #INDEX}; {@code sim.IndexKernels}, {@code index.cuh}):
 * <ul>
 * <li>{@link #STRIDED_COPY} ptrs [x, y]; ints [rank (at most 16), shape[rank], stride[rank], offset, es]:
 *     y (contiguous, given shape) at index (i0..ir) = x[offset + sum i_d * stride[d]]; strides may
 *     be negative (Slice with negative steps) or 0 (Expand, Tile's repeats).</li>
 * <li>{@link #PAD} ptrs [x, (value), y]; ints [rank (at most 8), yShape[rank], xShape[rank],
 *     begin[rank], mode, es]: y[i] = x[i - begin] where that is inside x; elsewhere by mode:
 *     0 constant (value[0], or zero bits when value is absent), 1 reflect (numpy 'reflect'),
 *     2 edge, 3 wrap. A negative begin crops.</li>
 * <li>{@link #TRILU} ptrs [x, y]; ints [batch, rows, cols, k, upper, es]: y = x where
 *     col - row &gt;= k (upper = 1) or col - row &lt;= k (upper = 0), else zero bits.</li>
 * <li>{@link #GATHER_ELEMENTS} ptrs [data, indices, y]; ints [rank, iShape[rank], dShape[rank],
 *     axis, es, indexDtype]: y (iShape) at c = data[c with c_axis = indices[c]] (negative from the end).</li>
 * <li>{@link #SCATTER_ELEMENTS} ptrs [y, indices, updates, (extent), y]; ints [rank, iShape[rank],
 *     dShape[rank], axis, reduction, es, dtype, indexDtype, (per)]: for each update c in order,
 *     y[c with c_axis = indices[c]] = y[...] (reduction) updates[c]; reduction 0 none, 1 add,
 *     2 mul, 3 max, 4 min (f16/bf16 in f32, integers in 64 bits; a NaN operand wins max and
 *     min). y is read and written (the lowering copies data into it first). In place allowed.
 *     With extent (int64 [1]; indices and updates bounded, {@code ir.BoundedFlows#scatterElements}):
 *     only their first min(max(extent[0], 0), numel / per) * per elements, per the elements of one
 *     row of the bounded axis.</li>
 * <li>{@link #GATHER_ND} ptrs [data, indices, (extent), (indicesExtent), y]; ints [batch, n, k, slice, dShape[k], es,
 *     indexDtype, (per)]: data is [batch, dShape..., slice], indices [batch, n, k], y [batch, n, slice];
 *     with extent (int64 [1], the runtime extent of data bounded along its axis 0; then ints end
 *     with per), the first index of each tuple is wrapped and checked against min(max(extent, 0),
 *     dShape[0]), not dShape[0]; with indicesExtent too (per tuples to one step of the indices'
 *     bounded axis), only the first {@link BoundedIndices#actualElements} tuples are real, the
 *     slices of the rest written as zeros, as {@link #GATHER}'s.</li>
 * <li>{@link #SCATTER_ND} ptrs [y, indices, updates, (extent), y]; ints [n, k, slice, dShape[k], reduction,
 *     es, dtype, indexDtype, (per)]: y is [dShape..., slice], indices [n, k], updates [n, slice];
 *     reductions as {@link #SCATTER_ELEMENTS}, updates applied in order. In place allowed. With
 *     extent (int64 [1]; indices and updates bounded, {@code ir.BoundedFlows#scatterNd}): only their
 *     first min(max(extent[0], 0), n / per) * per tuples, per the tuples of one row of the bounded axis.</li>
 * <li>{@link #TENSOR_SCATTER} ptrs [y, update, (writeIndices), y]; ints [batch, pre, max, seq, inner,
 *     circular, es, hasIndices, indexDtype]: y is [batch, pre, max, inner], update [batch, pre, seq,
 *     inner], writeIndices [batch] (int64; absent: all 0): y[b, p, w(s), i] = update[b, p, s, i] for s
 *     in order, w(s) = writeIndices[b] + s, modulo max when circular, else it must lie in [0, max)
 *     (ONNX TensorScatter-24). y is read and written (the lowering copies past_cache into it first).
 *     In place allowed.</li>
 * <li>{@link #ONEHOT} ptrs [indices, values, y]; ints [outer, depth, inner, indexDtype, es]:
 *     indices [outer, inner] of any numeric type (floats truncate), values [off, on], y [outer,
 *     depth, inner] = on where d equals the index (negative from the end), off elsewhere (also
 *     for every d of an index out of range).</li>
 * </ul>
 *
 * <p>Training kernels ({@link #TRAINING}; {@code sim.TrainingKernels}, CUDA's {@code training.cuh}, one
 * thread per output element or row, every sum in the order stated):
 * <ul>
 * <li>{@link #GELU_GRAD} ptrs [dy, x, dx]; ints [n]: dx = dy * (Phi(x) + x * phi(x)), Phi the
 *     normal CDF (erf based), phi its density, in double, rounded once. In place allowed (dx = dy).</li>
 * <li>{@link #SOFTMAX_GRAD} ptrs [dy, y, dx]; ints [rows, cols]: per row, dx = y * (dy - sum(dy * y)),
 *     in f32, the sum in column order. In place allowed (dx = dy).</li>
 * <li>{@link #LAYERNORM_GRAD} ptrs [dy, x, scale, dx]; ints [rows, cols]; floats [epsilon]: per row,
 *     with xhat = (x - mean) / sqrt(var + eps) and g = dy * scale,
 *     dx = (g - mean(g) - xhat * mean(g * xhat)) / sqrt(var + eps); in f32, sums in column order
 *     (mean, then the biased variance), 1 / sqrt(var + eps) in double rounded to f32 and multiplied.</li>
 * <li>{@link #CONV2D_BACKWARD_DATA} ptrs [dy, w, dx]; ints as {@link #CONV2D}'s first 16 (N, C, H, W,
 *     M, OH, OW, ...), group 1: dx = the gradient of conv2d's x, summed over m, then kh, then kw, in f32 from 0.</li>
 * <li>{@link #CONV2D_BACKWARD_FILTER} ptrs [x, dy, dw]; ints as {@link #CONV2D}'s first 16: dw =
 *     the gradient of conv2d's w, summed over n, then oh, then ow, in f32 from 0; group 1.</li>
 * </ul>
 *
 * <p>The optimizer kernel of the ONNX training optimizers (ai.onnx.preview.training Adagrad, Adam,
 * Momentum; {@code ops.OptimizerOps}), one call per tensor X, one thread per element:
 * <ul>
 * <li>{@link #OPTIMIZER} ptrs [r, t, x, g, s1, (s2), xNew, s1New, (s2New)] (s2 and s2New with mode
 *     {@link #OPTIMIZER_ADAM} only); ints [n, mode]; floats [norm_coefficient, alpha, beta, epsilon,
 *     decay_factor, norm_coefficient_post]. r is the f32 learning rate and t the int64 step count
 *     (scalars); x, g, s1, s2 and the outputs f32 of n elements. In double, each output rounded once
 *     to f32, with gr = norm_coefficient * x + g (the spec's formulas, onnx/reference/ops/aionnx_preview_training):
 *     {@link #OPTIMIZER_ADAGRAD} (s1 = H): h' = h + gr^2, x' = x - r / (1 + t * decay_factor) * gr / (sqrt(h') + epsilon);
 *     {@link #OPTIMIZER_ADAM} (s1 = V, s2 = H): v' = alpha v + (1 - alpha) gr, h' = beta h + (1 - beta) gr^2,
 *     r' = r sqrt(1 - beta^t) / (1 - alpha^t) when t &gt; 0 else r, x' = (1 - norm_coefficient_post) (x - r' v' / (sqrt(h') + epsilon));
 *     {@link #OPTIMIZER_MOMENTUM} and {@link #OPTIMIZER_NESTEROV} (s1 = V): v' = alpha v + b gr with b = beta when t &gt; 0
 *     else 1, x' = x - r v' (standard) or x - r (gr + alpha v') (nesterov). In place allowed (xNew = x,
 *     s1New = s1, s2New = s2): element i of every input is read before element i of any output is written.</li>
 * </ul>
 */
public final class Kernels {
    public static final String UNARY = "unary";
    public static final String BINARY = "binary_broadcast";
    public static final String GEMM = "gemm";
    public static final String SOFTMAX = "softmax";
    public static final String BATCHNORM = "batchnorm";
    public static final String BATCHNORM_RUNNING = "batchnorm_running";
    public static final String CONV2D = "conv2d";
    public static final String LRN = "lrn";
    public static final String CONV_ND = "conv_nd";
    public static final String POOL = "pool";
    public static final String RESIZE = "resize";
    public static final String COL2IM = "col2im";
    public static final String POOL_INDICES = "pool_indices";
    public static final String GRID_SAMPLE = "grid_sample";
    public static final String AFFINE_GRID = "affine_grid";
    public static final String TRANSPOSE = "transpose";
    public static final String COPY = "copy";
    public static final String CONCAT_SLICE = "concat_slice";
    public static final String CAST = "cast";
    public static final String GATHER = "gather";
    public static final String WHERE = "where";
    public static final String COMPARE = "compare";
    public static final String QUANTIZE = "quantize";
    public static final String RECURRENT = "recurrent";
    public static final String ROTARY = "rotary";
    public static final String ATTENTION = "attention";
    public static final String CAUSAL_CONV = "causal_conv";
    public static final String ROI_ALIGN = "roi_align";
    public static final String DEFORM_CONV = "deform_conv";
    public static final String MAX_UNPOOL = "max_unpool";
    public static final String DET = "det";
    public static final String LINEAR_ATTENTION = "linear_attention";
    public static final String FLEX_ATTENTION = "flex_attention";
    public static final String REDUCE = "reduce";
    public static final String NORMALIZE = "normalize";
    public static final String CUMSUM = "cumsum";
    public static final String TOPK = "topk";
    public static final String NLL_LOSS = "nll_loss";
    public static final String EINSUM = "einsum";
    public static final String DFT = "dft";
    public static final String QMATMUL = "qmatmul";
    public static final String QCONV = "qconv";
    public static final String QUANTIZE_RANGE = "quantize_range";
    public static final String REVERSE_SEQUENCE = "reverse_sequence";
    public static final String TFIDF = "tfidf";
    public static final String TREE_ENSEMBLE = "tree_ensemble";
    public static final String NONZERO = "nonzero";
    public static final String COMPRESS = "compress";
    public static final String UNIQUE = "unique";
    public static final String NMS = "non_max_suppression";
    public static final String ZERO_TAIL = "zero_tail";
    public static final String TRANSPOSE_BOUNDED = "transpose_bounded";
    public static final String CHECK_EXTENT = "check_extent";
    public static final String SPLIT_BOUNDED = "split_bounded";
    public static final String SLICE_BOUNDED = "slice_bounded";
    public static final String CONCAT_BOUNDED = "concat_bounded";
    public static final String RESHAPE_EXTENT = "reshape_extent";
    /** The largest rank of {@link #NONZERO}'s x: its ints hold 3 + rank values (the CUDA table passes at most 40). */
    public static final int NONZERO_MAX_RANK = 16;
    /** {@link #DFT} modes. */
    public static final int DFT_FORWARD = 0, DFT_INVERSE = 1, DFT_IRFFT = 2;

    public static final String STRIDED_COPY = "strided_copy";
    public static final String PAD = "pad";
    public static final String TRILU = "trilu";
    public static final String GATHER_ELEMENTS = "gather_elements";
    public static final String SCATTER_ELEMENTS = "scatter_elements";
    public static final String GATHER_ND = "gather_nd";
    public static final String SCATTER_ND = "scatter_nd";
    public static final String ONEHOT = "onehot";
    public static final String TENSOR_SCATTER = "tensor_scatter";

    /** Shape and index kernels: the simulator's {@code sim.IndexKernels}, CUDA's {@code index.cuh}. */
    public static final List<String> INDEX = List.of(STRIDED_COPY, PAD, TRILU, GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND, SCATTER_ND, ONEHOT, TENSOR_SCATTER);

    public static final String REDUCE_SUM = "reduce_sum";
    public static final String GELU_GRAD = "gelu_grad";
    public static final String SOFTMAX_GRAD = "softmax_grad";
    public static final String LAYERNORM_GRAD = "layernorm_grad";
    public static final String CONV2D_BACKWARD_DATA = "conv2d_backward_data";
    public static final String CONV2D_BACKWARD_FILTER = "conv2d_backward_filter";

    public static final String OPTIMIZER = "optimizer";
    /** {@link #OPTIMIZER} modes. */
    public static final int OPTIMIZER_ADAGRAD = 0, OPTIMIZER_ADAM = 1, OPTIMIZER_MOMENTUM = 2, OPTIMIZER_NESTEROV = 3;

    /** Kernels of training graphs (the gradient ops of {@code ops.TrainingOps}); every device implements them. */
    public static final List<String> TRAINING = List.of(GELU_GRAD, SOFTMAX_GRAD, LAYERNORM_GRAD,
            CONV2D_BACKWARD_DATA, CONV2D_BACKWARD_FILTER);

    /**
     * Kernels the simulator runs and the CUDA fatbin does not have (yet): the CUDA device refuses them
     * by name. None today: a kernel added to the simulator before its CUDA form is listed here, not in {@link #ALL}.
     */
    public static final List<String> SIM_ONLY = List.of();

    public static final List<String> ALL = List.of(UNARY, BINARY, GEMM, SOFTMAX, BATCHNORM, BATCHNORM_RUNNING,
            CONV2D, LRN, TRANSPOSE, COPY, CONCAT_SLICE, CAST, GATHER, WHERE, COMPARE,
            CONV_ND, POOL, POOL_INDICES, RESIZE, COL2IM, AFFINE_GRID, GRID_SAMPLE, REDUCE, NORMALIZE, CUMSUM, TOPK, NLL_LOSS, EINSUM,
            DFT, QMATMUL, QCONV, QUANTIZE_RANGE, REVERSE_SEQUENCE, TFIDF, TREE_ENSEMBLE,
            STRIDED_COPY, PAD, TRILU, GATHER_ELEMENTS, SCATTER_ELEMENTS, GATHER_ND, SCATTER_ND, ONEHOT, TENSOR_SCATTER, RECURRENT, QUANTIZE,
            ROTARY, ATTENTION, CAUSAL_CONV, LINEAR_ATTENTION, ROI_ALIGN, DEFORM_CONV, MAX_UNPOOL, DET,
            NONZERO, COMPRESS, UNIQUE, NMS, ZERO_TAIL, TRANSPOSE_BOUNDED, CHECK_EXTENT, SPLIT_BOUNDED, SLICE_BOUNDED, CONCAT_BOUNDED, RESHAPE_EXTENT, FLEX_ATTENTION, GELU_GRAD, SOFTMAX_GRAD, LAYERNORM_GRAD, CONV2D_BACKWARD_DATA, CONV2D_BACKWARD_FILTER, OPTIMIZER);

    /** Kernels whose output may be exactly one of their inputs (same pointer, same size; {@link #OPTIMIZER}: each output over its own input); no other overlap is allowed. */
    public static final java.util.Set<String> IN_PLACE = java.util.Set.of(UNARY, BINARY, SOFTMAX, BATCHNORM, COPY,
            GELU_GRAD, SOFTMAX_GRAD, SCATTER_ELEMENTS, SCATTER_ND, TENSOR_SCATTER, OPTIMIZER,
            RESHAPE_EXTENT);   // one thread reads the extent before it writes (Reshape runs in place: its copy over its input)

    /** {@link #UNARY} op codes (formulas and types: {@link ElementwiseMath}). */
    public static final int RELU = 0, SIGMOID = 1, TANH = 2, GELU = 3, IDENTITY = 4, ABS = 5, NEG = 6, EXP = 7, LOG = 8, SQRT = 9,
            RECIPROCAL = 10, FLOOR = 11, CEIL = 12, ROUND = 13, SIGN = 14, ERF = 15, SIN = 16, COS = 17, TAN = 18, ASIN = 19, ACOS = 20,
            ATAN = 21, SINH = 22, COSH = 23, ASINH = 24, ACOSH = 25, ATANH = 26, SOFTPLUS = 27, SOFTSIGN = 28, HARD_SIGMOID = 29,
            HARD_SWISH = 30, LEAKY_RELU = 31, ELU = 32, SELU = 33, CELU = 34, THRESHOLDED_RELU = 35, MISH = 36, GELU_TANH = 37,
            SHRINK = 38, CLIP = 39, NOT = 40, BITWISE_NOT = 41, IS_NAN = 42, IS_INF = 43, DIV_BY = 44, SWISH = 45, BINARIZER = 46;
    /**
     * The fused epilogue of {@link #CONV2D} and {@link #GEMM} (their last int): the activation applied
     * to each finished output, by the formula of {@link #UNARY}'s op of the same name, so that a
     * fused call equals the unfused op followed by that unary op bit for bit. The lowering picks it
     * ({@code exec.EpilogueFusion}); devices only apply it.
     */
    public static final int ACTIVATION_NONE = 0, ACTIVATION_RELU = 1;

    /**
     * The blocked summation of {@link #GEMM}, {@link #CONV2D} and {@link #CONV_ND}: the terms of
     * each output, indexed k = 0..K-1 (GEMM's k; a Conv's k = (input channel, kernel position)
     * row-major, a tap in the padding being no term), are summed in blocks of SUM_BLOCK consecutive
     * k: each block's terms into a partial sum from 0 in ascending k, and the partial sums, in
     * ascending order, into the total from 0, all in f32 (the f32 and f16 forms; f64 GEMM keeps one
     * running sum in f64, whose rounding is 2^-29 of f32's).
     * Blocking is what GEMM libraries that tile K do; it lowers the worst-case rounding error of a
     * K-term sum from about K u to about (SUM_BLOCK + K / SUM_BLOCK) u (N. Higham, "Accuracy and
     * Stability of Numerical Algorithms", 2nd ed., section 4.2, blocked summation). A multiple of
     * the CUDA kernels' k tile (16, gemm.cuh and conv_igemm.cuh), so a block ends at a tile's end.
     * A block with no term adds +0 to a total that is never -0 (in round to nearest a sum is -0
     * only when both addends are -0, IEEE 754-2019 section 6.3, and every sum here starts from +0),
     * so it changes no bit: a kernel may skip a block without terms. Measured on PyTorch exports
     * (docs/running.md, "Numerics"): fcn_resnet50's error against a float64 evaluation fell from
     * 3.3e-5 to 9.0e-6 (ONNX Runtime's: 8.7e-6).
     */
    public static final int SUM_BLOCK = 64;

    /**
     * The kernels that compute more than f32 ({@link #GEMM}, {@link #CONV2D}, {@link #CONV_ND},
     * {@link #POOL}, {@link #POOL_INDICES}, {@link #SOFTMAX}, {@link #ATTENTION}, {@link #NORMALIZE}:
     * x, scale, bias and y of the type, mean and invstd f32; {@link #RESIZE}) carry the ONNX
     * code of the element type they compute as one more int after their documented ones (after the
     * epilogue activation for gemm and conv2d, which is then always present); a call without it
     * computes f32, so every f32 call is unchanged. The ops that lower to them declare the types
     * ({@code ir.OpSpec#computes}). Numerics for f16: each operand widened to f32, every
     * sum and product in f32 as the f32 kernel runs it, the result rounded once to the type on
     * store, as ONNX Runtime's CPU provider computes a float16 node that has only a float kernel
     * (onnxruntime/core/optimizer/insert_cast_transformer.h: "insert cast node that casts float16
     * to float for cpu nodes"; Cast to f32, the f32 kernel, Cast back); f64 computes in double.
     * POOL max also takes uint8 and int8 (exact; an empty window gives the type's lowest value,
     * as ORT's int8/uint8 MaxPool-12). The CUDA fatbin has a form of each kernel for each of these
     * types (cuda-backend's typed.cuh: one entry function per type, the same numerics); the CUDA
     * device refuses a type it lacks by kernel and type name ({@link #simOnlyType}).
     *
     * @return the index of the type int in {@code ints}, or -1 for a kernel of one type
     */
    public static int typeInt(String kernel, long[] ints) {
        return switch (kernel) {
            case GEMM -> 13;
            case CONV2D -> 18;
            case SOFTMAX -> 4;
            case ATTENTION -> 24;
            case CONV_ND -> ints.length > 0 ? 7 + 6 * (int) ints[0] : -1;
            case POOL -> ints.length > 0 ? 5 + 7 * (int) ints[0] : -1;
            case POOL_INDICES -> ints.length > 0 ? 6 + 7 * (int) ints[0] : -1;
            case NORMALIZE -> ints.length > 6 ? 7 + 4 * (int) (ints[5] + ints[6]) : -1;
            case RESIZE -> ints.length > 0 ? 6 + 5 * (int) ints[0] : -1;
            default -> -1;
        };
    }

    /** The ONNX code of the element type {@code kernel}'s call computes ({@link #typeInt}): 1 (f32) when the call carries none. */
    public static long typeCode(String kernel, long[] ints) {
        int at = typeInt(kernel, ints);
        return at < 0 || ints.length <= at ? 1 : ints[at];
    }

    /**
     * {@code ints} with the type code appended at {@link #typeInt} when it is not f32 (code 1); f32 calls stay as they were.
     *
     * @param onnxCode the element type's ONNX {@code TensorProto.DataType} code
     * @throws IllegalArgumentException when {@code ints} already reaches past the type's slot
     */
    public static long[] withType(String kernel, long[] ints, long onnxCode) {
        if (onnxCode == 1) return ints;
        int at = typeInt(kernel, ints);
        if (at < ints.length) throw new IllegalArgumentException(kernel + ": " + ints.length + " ints, the type goes at " + at);
        long[] out = java.util.Arrays.copyOf(ints, at + 1);
        if (kernel.equals(GEMM) && ints.length == 12 || kernel.equals(CONV2D) && ints.length == 17) out[at - 1] = ACTIVATION_NONE;
        out[at] = onnxCode;
        return out;
    }

    /**
     * Whether {@code kernel}'s call computes a type other than f32 ({@link #typeInt}): a typed form of
     * the kernel, which a device must have for that type. The simulator computes every type listed at
     * {@link #typeInt}; the CUDA fatbin has the same typed forms (cuda-backend's
     * {@code CudaKernelTable.FATBIN_TYPES}) and refuses any other type by kernel, op and type name.
     */
    public static boolean simOnlyType(String kernel, long[] ints) {
        return typeCode(kernel, ints) != 1;
    }

    /**
     * {@code v} after the epilogue activation {@code code} ({@link #ACTIVATION_NONE} or {@link #ACTIVATION_RELU}).
     *
     * @throws DeviceException for any other code
     */
    public static float activation(int code, float v) {
        return switch (code) {
            case ACTIVATION_NONE -> v;
            case ACTIVATION_RELU -> (float) ElementwiseMath.unary(RELU, v, 0, 0);
            default -> throw new DeviceException("unknown epilogue activation " + code);
        };
    }

    /** {@link #BINARY} op codes (formulas and types: {@link ElementwiseMath}). */
    public static final int ADD = 0, SUB = 1, MUL = 2, DIV = 3, RELU_GRAD = 4, POW = 5, MOD = 6, FMOD = 7, MAXIMUM = 8, MINIMUM = 9,
            PRELU = 10, AND = 11, OR = 12, XOR = 13, BITWISE_AND = 14, BITWISE_OR = 15, BITWISE_XOR = 16, SHIFT_LEFT = 17, SHIFT_RIGHT = 18;
    /** {@link #COMPARE} op codes. */
    public static final int EQUAL = 0, LESS = 1, GREATER = 2, LESS_OR_EQUAL = 3, GREATER_OR_EQUAL = 4;
    /** {@link #RECURRENT} cells. */
    public static final int CELL_RNN = 0, CELL_GRU = 1, CELL_LSTM = 2;
    /** {@link #REDUCE} op codes. */
    public static final int R_SUM = 0, R_MEAN = 1, R_MAX = 2, R_MIN = 3, R_PROD = 4, R_L1 = 5, R_L2 = 6, R_LOG_SUM = 7, R_LOG_SUM_EXP = 8,
            R_SUM_SQUARE = 9, R_ARGMAX = 10, R_ARGMIN = 11;
    /** {@link #NORMALIZE} modes. */
    public static final int N_STANDARDIZE = 0, N_MVN = 1, N_L1 = 2, N_L2 = 3, N_RMS = 4;
    /** {@link #NLL_LOSS} reductions. */
    public static final int LOSS_NONE = 0, LOSS_SUM = 1, LOSS_MEAN = 2;
    /** {@link #SOFTMAX} modes. */
    public static final int SOFTMAX_MODE = 0, LOG_SOFTMAX_MODE = 1, HARDMAX_MODE = 2;
    /** {@link #POOL} modes. */
    public static final int MAX = 0, AVERAGE = 1, LP = 2;

    private Kernels() { }
}
