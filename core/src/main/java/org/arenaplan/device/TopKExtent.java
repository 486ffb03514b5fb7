package org.arenaplan.device;

/**
 * The refusal of a {@link Kernels#TOPK} call over x bounded along its axis (the call's extent
 * pointer) whose k exceeds the actual values of a lane: ONNX TopK-11 takes k of at most the axis's
 * extent, and ONNX Runtime fails such a run ("k argument [k] should not be greater than specified
 * axis dim value [n]"). Checked on the host before the launch for every device
 * ({@code exec.LaunchChecks}); the simulator's kernel checks again, CUDA's traps.
 */
public final class TopKExtent {
    private TopKExtent() { }

    /**
     * @param c      a topk call (ints [outer, n, inner, k, ...] as {@link Kernels#TOPK} lays them out); {@code c.label()} names the op
     * @param extent the runtime extent of x along the axis, as the device holds it
     * @return the count of actual values per lane, min(max(extent, 0), n)
     * @throws DataException naming the op, k and that count when k exceeds it (but with clamp, ints[7] 1:
     *                       k is then min(k, that count), a TopK by min(c, Shape(X)[axis]))
     */
    public static long check(KernelCall c, long extent) {
        long m = Math.min(Math.max(extent, 0), c.intArg(1)), k = c.intArg(3);
        if (k > m && !clamped(c))
            throw new DataException(String.format("'%s': TopK: k = %d is more than the %d values along its axis in this run (the runtime extent of its bounded input X);"
                    + " ONNX TopK takes k of at most the axis's extent", c.label(), k, m));
        return m;
    }

    /** Whether the topk call {@code c} writes min(k, the actual count) per lane (ints[7] 1, {@link Kernels#TOPK}). */
    public static boolean clamped(KernelCall c) {
        return c.ints().length > 7 && c.intArg(7) == 1;
    }
}
