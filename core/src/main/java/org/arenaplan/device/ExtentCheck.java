package org.arenaplan.device;

/**
 * The runtime extent of a Split of a bounded tensor along its bounded axis, checked on the host
 * before the launch for every device ({@code exec.LaunchChecks}; the simulator's kernels check
 * again, CUDA's trap). A {@link Kernels#CHECK_EXTENT} call: parts of fixed extents
 * ({@code ir.BoundedFlows#split}; a loop traced over a data-dependent count, as torch's
 * {@code for e in x.nonzero()}, exports one part per element of that run), whose runtime extent
 * must be the parts' sum: ONNX Split needs the parts to sum to the axis's extent, and ONNX Runtime
 * fails such a run ("Cannot split using values in 'split' attribute"). A
 * {@link Kernels#SPLIT_BOUNDED} call: parts ONNX derives from the actual extent n without 'split'
 * ({@link #parts}), which ONNX Runtime 1.30 fails where they do not take n. A {@link Kernels#RESHAPE_EXTENT}
 * call: a Reshape that merges or splits the bounded axis ({@link #reshaped}), which ONNX Runtime fails where the
 * actual elements do not fill whole rows of the output.
 */
public final class ExtentCheck {
    private ExtentCheck() { }

    /**
     * @param c      a check_extent call (ints [parts' sum]); {@code c.label()} names the op
     * @param extent the runtime extent, as the device holds it
     * @throws DataException naming the op, the extent and the sum where they differ
     */
    public static void check(KernelCall c, long extent) {
        long sum = c.intArg(0);
        if (extent != sum)
            throw new DataException(String.format("'%s': Split: its parts sum to %d, but its input holds %d along the split axis in this run (the runtime extent of its "
                    + "bounded input); ONNX Split needs the parts to sum to the axis's extent", c.label(), sum, extent));
    }

    /**
     * The parts of a split_bounded call ({@link Kernels#SPLIT_BOUNDED}: ints [part, parts, mode, per,
     * rows, bound, es]) over the runtime extent {@code extent}, as ONNX Runtime 1.30 splits n =
     * min(max(extent, 0), bound) rows: mode 0 (before opset 18, equal parts) n / parts each, failing
     * unless parts divides n (n = 0 gives empty parts; "Input cannot be split evenly on selected
     * axis"); mode 1 (Split-18's num_outputs) ceil(n / parts) each and the rest last, failing where
     * n &lt; parts ("Invalid num_outputs value") or the rest is not positive ("Split size 2 exceeds
     * the remaining size of the selected axis, 0": n = 4 into 3).
     *
     * @return [the first row of part {@code part}, its row count]
     * @throws DataException naming the op, n and the parts where ONNX Runtime fails the run
     */
    public static long[] parts(KernelCall c, long extent) {
        long part = c.intArg(0), parts = c.intArg(1), mode = c.intArg(2);
        long n = Math.min(Math.max(extent, 0), c.intArg(5));
        long each = mode == 0 ? n / parts : (n + parts - 1) / parts, last = n - (parts - 1) * each;
        if (mode == 0 ? n % parts != 0 : n < parts || last <= 0)
            throw new DataException(String.format("'%s': Split: its input holds %d along the split axis in this run (the runtime extent of its bounded input), which %s; "
                    + "ONNX Runtime fails such a run", c.label(), n, mode == 0 ? "does not split into " + parts + " equal parts"
                    : "num_outputs " + parts + " does not split into " + (parts - 1) + " parts of ceil(" + n + " / " + parts + ") = " + each + " and a non-empty rest"));
        return new long[]{part * each, part == parts - 1 ? last : each};
    }

    /**
     * The output rows of a reshape_extent call ({@link Kernels#RESHAPE_EXTENT}: ints [mul, div, bound]) over the
     * runtime extent {@code extent}: n = min(max(extent, 0), bound) input rows of mul elements each, n * mul / div
     * output rows of div elements each (ONNX Reshape: the -1 axis takes the elements the others leave).
     *
     * @throws DataException naming the op, n and the row size where div does not divide n * mul, as ONNX Runtime
     *         fails such a run ("The input tensor cannot be reshaped to the requested shape")
     */
    public static long reshaped(KernelCall c, long extent) {
        long mul = c.intArg(0), div = c.intArg(1), n = Math.min(Math.max(extent, 0), c.intArg(2));
        if (n * mul % div != 0)
            throw new DataException(String.format("'%s': Reshape: its input holds %d rows of %d elements in this run (the runtime extent of its bounded input), "
                    + "%d elements, which do not fill rows of %d; ONNX Runtime fails such a run", c.label(), n, mul, n * mul, div));
        return n * mul / div;
    }
}
