package org.arenaplan.onnx;

import org.arenaplan.device.Kernels;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The long sums of MatMul, Gemm, Conv (2-D, grouped, 3-D) and ConvTranspose are blocked
 * ({@link Kernels#SUM_BLOCK}: a partial sum per 64 values of k, the partial sums added into the
 * total), end to end through import, lowering and the simulator. Each model sums 128 terms: 1 at
 * k = 0, zeros, then 64 terms of half an ulp of 1 at k = 64..127. The exact sum (what a float64
 * evaluation gives) is 1 + 64 ulp/2 = 1 + 2^-18 in f32, and the blocked sum
 * gets it exactly (the second block's partial sum is exact, then one addition). A single running
 * sum from k = 0 gives 1: each half ulp added to 1 rounds back to 1 (ties to even).
 */
class BlockedSumTest {
    private static final int F32 = 1;
    private static final int K = 2 * Kernels.SUM_BLOCK;   // two blocks

    @TempDir
    Path dir;

    /** Half an ulp of 1 in f32: 2^-24. */
    private static final double HALF_ULP = Math.ulp(1f) / 2;

    /** The k-th term's first factor (the second is 1): 1 at k = 0, half an ulp of 1 in the second block (k = 64..127), else 0. */
    private static double term(int k) {
        return k == 0 ? 1 : k >= Kernels.SUM_BLOCK ? HALF_ULP : 0;
    }

    /** {@code copies} runs of the K terms (one per channel group), shaped {@code shape}. */
    private static TensorValue terms(int copies, long... shape) {
        double[] v = new double[K * copies];
        for (int i = 0; i < v.length; i++) v[i] = term(i % K);
        return TensorValue.ofDoubles(DType.F32, shape, v);
    }

    private static TensorValue ones(int n, long... shape) {
        double[] v = new double[n];
        java.util.Arrays.fill(v, 1);
        return TensorValue.ofDoubles(DType.F32, shape, v);
    }

    /** Every element of the model's output y is the exact sum 1 + 2^-18. */
    private void exact(TinyOnnx m, Map<String, TensorValue> in) throws Exception {
        double want = 1 + Kernels.SUM_BLOCK * HALF_ULP;
        TensorValue y = OnnxOpRuns.run(dir, m, in).get("y");
        assertThat(y.dtype()).isEqualTo(DType.F32);
        for (int i = 0; i < y.doubles().length; i++) assertThat(y.getDouble(i)).as("y[%d]", i).isEqualTo(want);
    }

    @Test
    void matMulAndGemmSumTheirKInBlocks() throws Exception {
        // MatMul: B stored [K, N] (the simulator's row-update loop)
        exact(new TinyOnnx().opset(13).input(F32, "a", 2L, (long) K).input(F32, "b", (long) K, 3L).output(F32, "y", 2L, 3L)
                .node("mm", "MatMul", List.of("a", "b"), List.of("y")), Map.of("a", terms(2, 2, K), "b", ones(K * 3, K, 3)));
        // Gemm with transB: B stored [N, K] (the simulator's dot-product loop), alpha 1, beta 0
        exact(new TinyOnnx().opset(13).input(F32, "a", 2L, (long) K).input(F32, "b", 3L, (long) K).output(F32, "y", 2L, 3L)
                .node("g", "Gemm", List.of("a", "b"), List.of("y"), "transB", 1L), Map.of("a", terms(2, 2, K), "b", ones(K * 3, 3, K)));
    }

    @Test
    void convAndConvTransposeSumTheirChannelsInBlocks() throws Exception {
        // 2-D Conv (conv2d, group 1): 128 input channels of 2 x 2, a 1 x 1 kernel of ones
        exact(new TinyOnnx().opset(13).input("x", 1L, (long) K, 2L, 2L).input("w", 1L, (long) K, 1L, 1L).output("y", 1L, 1L, 2L, 2L)
                .node("c", "Conv", List.of("x", "w"), List.of("y")), Map.of("x", channels(1, 4, 1, K, 2, 2), "w", ones(K, 1, K, 1, 1)));
        // grouped 2-D Conv (conv2d, group 2): 2 x 128 channels
        exact(new TinyOnnx().opset(13).input("x", 1L, 2L * K, 2L, 2L).input("w", 2L, (long) K, 1L, 1L).output("y", 1L, 2L, 2L, 2L)
                .node("c", "Conv", List.of("x", "w"), List.of("y"), "group", 2L), Map.of("x", channels(2, 4, 1, 2 * K, 2, 2), "w", ones(2 * K, 2, K, 1, 1)));
        // 2-D Conv with a 2 x 2 kernel over 32 channels (k = (c, kh, kw): the terms by kernel position)
        exact(new TinyOnnx().opset(13).input("x", 1L, (long) K / 4, 2L, 2L).input("w", 1L, (long) K / 4, 2L, 2L).output("y", 1L, 1L, 1L, 1L)
                .node("c", "Conv", List.of("x", "w"), List.of("y")), Map.of("x", terms(1, 1, K / 4, 2, 2), "w", ones(K, 1, K / 4, 2, 2)));
        // 3-D Conv (conv_nd)
        exact(new TinyOnnx().opset(13).input("x", 1L, (long) K, 1L, 2L, 1L).input("w", 1L, (long) K, 1L, 1L, 1L).output("y", 1L, 1L, 1L, 2L, 1L)
                .node("c", "Conv", List.of("x", "w"), List.of("y")), Map.of("x", channels(1, 2, 1, K, 1, 2, 1), "w", ones(K, 1, K, 1, 1, 1)));
        // ConvTranspose (conv_nd): w is C x M x 1 x 1
        exact(new TinyOnnx().opset(13).input("x", 1L, (long) K, 2L, 2L).input("w", (long) K, 1L, 1L, 1L).output("y", 1L, 1L, 2L, 2L)
                .node("ct", "ConvTranspose", List.of("x", "w"), List.of("y")), Map.of("x", channels(1, 4, 1, K, 2, 2), "w", ones(K, K, 1, 1, 1)));
    }

    /** An NCHW (or NCDHW) f32 input whose channel c of each group of K holds term(c) at every one of its {@code plane} pixels. */
    private static TensorValue channels(int groups, int plane, long... shape) {
        double[] v = new double[groups * K * plane];
        for (int c = 0; c < groups * K; c++)
            for (int p = 0; p < plane; p++) v[c * plane + p] = term(c % K);
        return TensorValue.ofDoubles(DType.F32, shape, v);
    }
}
