package org.arenaplan.device;

/**
 * The refusal of {@link Kernels#NMS} scores that leave the selection undefined: checked on the host
 * before launch for every device ({@code exec.LaunchChecks}), so the simulator and the CUDA kernel
 * (data_dependent.cuh) only ever order numbers. NonMaxSuppression takes the candidate boxes of a
 * class by descending score (ONNX Operators.md, NonMaxSuppression-11); onnx's reference
 * (onnx/reference/ops/op_non_max_suppression.py, {@code sorted} over {@code BoxInfo.__lt__}) and
 * ONNX Runtime (a {@code std::priority_queue} over the same comparison) sort with {@code <}, which
 * is no order once a score is NaN, so their selections depend on where the NaN sits. A NaN score
 * is a candidate only without score_threshold: with one, {@code score > threshold} drops it.
 */
public final class NmsScores {
    private NmsScores() { }

    /**
     * @param c      a non_max_suppression call (ints [B, N, C, center_point_box, hasScoreThreshold,
     *               perClass] as {@link Kernels#NMS} lays them out); {@code c.label()} names the op
     * @param scores the call's scores [B, C, N] f32, as the device holds them
     * @throws DataException naming the op and the first NaN score's [batch, class, box] when the
     *         call has no score_threshold
     */
    public static void check(KernelCall c, float[] scores) {
        if (c.intArg(4) == 1 || c.intArg(5) == 0) return;   // a score_threshold drops NaN; a bound of 0 selects nothing
        long n = c.intArg(1), classes = c.intArg(2);
        for (int k = 0; k < scores.length; k++)
            if (Float.isNaN(scores[k]))
                throw new DataException(String.format("'%s': non_max_suppression: score [%d, %d, %d] is NaN and no score_threshold drops it;"
                        + " the boxes of a class are taken by descending score, which NaN leaves undefined (onnx's reference and ONNX Runtime sort with <)",
                        c.label(), k / (classes * n), k / n % classes, k % n));
    }
}
