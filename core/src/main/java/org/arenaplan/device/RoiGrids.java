package org.arenaplan.device;

/**
 * The sampling geometry of each roi of a {@link Kernels#ROI_ALIGN} call, and the refusal of rois
 * that no device runs: checked on the host before launch for every device
 * ({@code exec.LaunchChecks}), so the simulator and the CUDA kernel (detection.cuh) only ever see
 * rois whose grids are finite and bounded. The geometry is onnx's
 * (onnx/reference/ops/op_roi_align.py); the simulator's kernel computes its outputs from it.
 */
public final class RoiGrids {
    private RoiGrids() { }

    /**
     * The most bilinear samples one roi_align launch may take: 2^36, tens of minutes on the
     * simulator. Real detectors take millions to a few billion (1,000 rois x 256 channels x 7 x 7
     * bins x a 15 x 15 adaptive grid is 2.8e9); a huge {@code sampling_ratio} or a huge roi with
     * the adaptive grid (ratio 0) asks for up to 2^62 per bin, which would run for years. Within
     * it, every count of detection.cuh's loops fits a 64-bit integer.
     */
    public static final double MAX_SAMPLES = 0x1p36;

    /**
     * Roi {@code roi}'s geometry as onnx's op_roi_align.py computes it: {start h, start w, roi h,
     * roi w, bin h, bin w, grid h, grid w} (the grid: sampling_ratio, or ceil(roi extent / output
     * extent) when it is 0; a grid of a non-finite extent saturates as Java's (long) cast does).
     *
     * @param c    a roi_align call (ints and floats as {@link Kernels#ROI_ALIGN} lays them out)
     * @param rois the call's rois [R, 4] f32, (x1, y1, x2, y2) per roi
     */
    public static double[] geometry(KernelCall c, float[] rois, int roi) {
        long oh = c.intArg(5), ow = c.intArg(6), ratio = c.intArg(7);
        boolean half = c.intArg(9) == 1;
        double scale = c.floatArg(0), shift = half ? 0.5 : 0.0;
        double startW = rois[4 * roi] * scale - shift, startH = rois[4 * roi + 1] * scale - shift;
        double endW = rois[4 * roi + 2] * scale - shift, endH = rois[4 * roi + 3] * scale - shift;
        double roiW = endW - startW, roiH = endH - startH;
        if (!half) {
            roiW = larger(roiW, 1.0);
            roiH = larger(roiH, 1.0);
        }
        long gridH = ratio > 0 ? ratio : (long) Math.ceil(roiH / oh), gridW = ratio > 0 ? ratio : (long) Math.ceil(roiW / ow);
        return new double[]{startH, startW, roiH, roiW, roiH / oh, roiW / ow, gridH, gridW};
    }

    /**
     * Refuses the call when a roi coordinate is NaN or infinite (its bins and grid are undefined;
     * ONNX Runtime refuses such rois too), or when the sampling grids over all rois exceed
     * {@link #MAX_SAMPLES}, naming the largest roi's grid.
     *
     * @param c    a roi_align call; {@code c.label()} names the op in the message
     * @param rois the call's rois [R, 4] f32, as the device holds them
     * @throws DataException naming the op and the roi
     */
    public static void check(KernelCall c, float[] rois) {
        double binsPerRoi = (double) c.intArg(1) * c.intArg(5) * c.intArg(6);
        double total = 0, worst = -1;
        int worstRoi = 0;
        double[] worstGrid = null;
        for (int roi = 0; roi < rois.length / 4; roi++) {
            for (int k = 0; k < 4; k++)
                if (!Float.isFinite(rois[4 * roi + k]))
                    throw new DataException(String.format("'%s': roi %d is [%s, %s, %s, %s]: a coordinate that is not finite", c.label(), roi,
                            rois[4 * roi], rois[4 * roi + 1], rois[4 * roi + 2], rois[4 * roi + 3]));
            double[] g = geometry(c, rois, roi);
            double samples = g[6] * g[7];
            total += samples * binsPerRoi;
            if (samples > worst) {
                worst = samples;
                worstRoi = roi;
                worstGrid = g;
            }
        }
        if (total > MAX_SAMPLES)
            throw new DataException(String.format("'%s': roi_align would take %.3g bilinear samples, more than the simulator's 2^36 (roi %d: a %.0f x %.0f grid in each bin, sampling_ratio %d%s)",
                    c.label(), total, worstRoi, worstGrid[6], worstGrid[7], c.intArg(7), c.intArg(7) == 0 ? ", adaptive: ceil(roi extent / output extent)" : ""));
    }

    /** b if it is above a, else a: Python's max(a, b) (the reference's), and detection.cuh's {@code detection_larger}. */
    public static double larger(double a, double b) {
        return b > a ? b : a;
    }
}
