package org.arenaplan.device;

/**
 * The refusal of a {@link Kernels#CHECK_EXTENT} call: a Split of a bounded tensor along its bounded
 * axis into parts of fixed extents ({@code ir.BoundedFlows#split}; a loop traced over a
 * data-dependent count, as torch's {@code for e in x.nonzero()}, exports one part per element of
 * that run), whose runtime extent is not the parts' sum: ONNX Split needs the parts to sum to the
 * axis's extent, and ONNX Runtime fails such a run ("Cannot split using values in 'split'
 * attribute"). Checked on the host before the launch for every device ({@code exec.LaunchChecks});
 * the simulator's kernel checks again, CUDA's traps.
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
}
