package org.arenaplan.exec;

import java.util.Arrays;
import java.util.Locale;

/**
 * numpy's {@code allclose}: element-wise {@code |a - r| <= atol + rtol * |r|}, {@code r} the
 * reference (numpy.isclose's documented formula; it is not symmetric). NaN matches NaN and an
 * infinity matches the same infinity (numpy with {@code equal_nan=True}).
 *
 * <p>The defaults accept float32 rounding between implementations (another summation order,
 * fused multiply-add, another exp/erf): {@link #DEFAULT_RTOL} 1e-3 and {@link #DEFAULT_ATOL}
 * 1e-5, those of the ONNX backend node tests' float32 comparisons ({@code onnx/backend/test/runner},
 * rtol 1e-3, atol 1e-7) with the absolute floor raised so that an output near zero may carry the
 * rounding of the larger values it was computed from.
 *
 * @param worstIndex the row-major index of the element with the largest {@code |a-r| / (atol + rtol*|r|)}, -1 when empty
 */
public record AllClose(boolean ok, long count, long mismatches, int worstIndex, double got, double want, double absDiff,
                       double rtol, double atol) {
    public static final double DEFAULT_RTOL = 1e-3;
    public static final double DEFAULT_ATOL = 1e-5;

    /** Compares {@code got} with the reference {@code want} (same length). */
    public static AllClose compare(float[] got, float[] want, double rtol, double atol) {
        double[] g = new double[got.length], w = new double[want.length];
        for (int i = 0; i < g.length; i++) g[i] = got[i];
        for (int i = 0; i < w.length; i++) w[i] = want[i];
        return compare(g, w, rtol, atol);
    }

    /** Compares {@code got} with the reference {@code want} (same length), elements of any type widened to double. */
    public static AllClose compare(double[] got, double[] want, double rtol, double atol) {
        if (got.length != want.length) throw new IllegalArgumentException(got.length + " values vs " + want.length);
        if (rtol < 0 || atol < 0 || Double.isNaN(rtol) || Double.isNaN(atol)) throw new IllegalArgumentException("tolerances must be >= 0: rtol " + rtol + ", atol " + atol);
        int worst = -1;
        double worstRatio = -1;
        long bad = 0;
        for (int i = 0; i < got.length; i++) {
            double a = got[i], r = want[i];
            double diff, ratio;
            if (Double.isNaN(a) || Double.isNaN(r) || Double.isInfinite(a) || Double.isInfinite(r)) {
                boolean same = Double.compare(a, r) == 0;
                diff = same ? 0 : Double.POSITIVE_INFINITY;
                ratio = same ? 0 : Double.POSITIVE_INFINITY;
            } else {
                diff = Math.abs(a - r);
                double allowed = atol + rtol * Math.abs(r);
                ratio = diff == 0 ? 0 : allowed == 0 ? Double.POSITIVE_INFINITY : diff / allowed;
            }
            if (ratio > 1) bad++;
            if (ratio > worstRatio) {
                worstRatio = ratio;
                worst = i;
            }
        }
        return worst < 0 ? new AllClose(true, 0, 0, -1, 0, 0, 0, rtol, atol)
                : new AllClose(bad == 0, got.length, bad, worst, got[worst], want[worst], Math.abs(got[worst] - want[worst]), rtol, atol);
    }

    /** The multi-dimensional index of flat element {@code flat} in row-major {@code dims}, e.g. {@code [0, 17]}. */
    public static String index(long[] dims, long flat) {
        if (dims == null || dims.length == 0) return "[" + flat + "]";
        long[] idx = new long[dims.length];
        for (int a = dims.length - 1; a >= 0; a--) {
            long d = Math.max(1, dims[a]);
            idx[a] = flat % d;
            flat /= d;
        }
        return Arrays.toString(idx);
    }

    /**
     * One line: how many elements are outside the tolerance and the worst one, e.g.
     * {@code worst element [0, 17]: 0.12345 vs 0.12346 (|a-r| 1.0e-05 <= 1.1e-04 = atol 1e-05 + rtol 1e-03*|r|), 0 of 1000 outside}.
     */
    public String describe(long[] dims) {
        if (worstIndex < 0) return "no elements";
        double allowed = atol + rtol * Math.abs(want);
        return String.format(Locale.ROOT, "worst element %s: %.9g vs %.9g (|a-r| %.3g %s %.3g = atol %.0e + rtol %.0e*|r|), %d of %d outside",
                index(dims, worstIndex), got, want, absDiff, absDiff <= allowed ? "<=" : ">", allowed, atol, rtol, mismatches, count);
    }
}
