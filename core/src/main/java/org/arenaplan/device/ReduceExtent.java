package org.arenaplan.device;

/**
 * The actual elements of a {@link Kernels#REDUCE} call over x bounded (the call's extent pointer,
 * {@code ir.BoundedFlows#reduce}), and its refusal where an ArgMax or ArgMin reduces the bounded
 * axis of a run that holds no element along it: ONNX ArgMax-13 has no index to return over an
 * empty axis, and ONNX Runtime 1.30 fails such a run ("Non-zero status code returned while running
 * ArgMax node"). The other reductions give their empty value (sum 0, max -inf, ...), as ONNX Runtime
 * does. Checked on the host before the launch for every device ({@code exec.LaunchChecks}); the
 * simulator's kernel checks again, CUDA's traps.
 */
public final class ReduceExtent {
    private ReduceExtent() { }

    /**
     * @param c      a reduce call with x's runtime extent (3 pointers; ints as {@link Kernels#REDUCE} lays them out); {@code c.label()} names the op
     * @param extent the runtime extent of x, as the device holds it
     * @return the count of x's actual (leading) elements
     * @throws DataException naming the op where an ArgMax or ArgMin reduces the bounded axis and no element is actual
     */
    public static long check(KernelCall c, long extent) {
        long[] ints = c.ints();
        int k = (int) ints[3], r = (int) ints[4], at = 5 + 2 * (k + r);
        long total = 1;
        for (int d = 0; d < k; d++) total *= ints[5 + d];
        for (int d = 0; d < r; d++) total *= ints[5 + 2 * k + d];
        long actual = BoundedIndices.actualElements(extent, ints[at], total);
        int op = (int) ints[0];
        if (actual == 0 && ints[at + 1] == 1 && (op == Kernels.R_ARGMAX || op == Kernels.R_ARGMIN))
            throw new DataException(String.format("'%s': %s: its input holds no element along the reduced axis in this run (the runtime extent of its bounded input is %d);"
                    + " there is no index to return, and ONNX Runtime fails such a run", c.label(), op == Kernels.R_ARGMAX ? "ArgMax" : "ArgMin", extent));
        return actual;
    }
}
