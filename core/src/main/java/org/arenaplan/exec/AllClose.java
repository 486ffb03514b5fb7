package org.arenaplan.exec;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;

import java.math.BigDecimal;
import java.math.MathContext;
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
 * <p>Tensors of an integral type (int64, uint64, bool, ...) are compared exactly by
 * {@link #compare(TensorValue, TensorValue, double, double)}, on their integer values: a double
 * holds an int64 exactly only up to 2^53, so widening them would let values that differ compare equal.
 *
 * @param worstIndex the row-major index of the element with the largest {@code |a-r| / (atol + rtol*|r|)} (integers:
 *                   the first that differs), -1 when empty
 * @param exact      integers compared exactly; {@code got} and {@code want} then hold the worst element's values
 *                   as text ({@code gotText}, {@code wantText}), the doubles only approximately
 */
public record AllClose(boolean ok, long count, long mismatches, int worstIndex, double got, double want, double absDiff,
                       double rtol, double atol, boolean exact, String gotText, String wantText) {
    public static final double DEFAULT_RTOL = 1e-3;
    public static final double DEFAULT_ATOL = 1e-5;

    /** Compares {@code got} with the reference {@code want} (same length). */
    public static AllClose compare(float[] got, float[] want, double rtol, double atol) {
        double[] g = new double[got.length], w = new double[want.length];
        for (int i = 0; i < g.length; i++) g[i] = got[i];
        for (int i = 0; i < w.length; i++) w[i] = want[i];
        return compare(g, w, rtol, atol);
    }

    /**
     * Compares {@code got} with the reference {@code want} (same length), elements of any type widened to double;
     * numpy's {@code allclose} rule, {@code |got - want| <= atol + rtol * |want|} (rtol a fraction, atol in the values' units).
     *
     * @throws IllegalArgumentException when the lengths differ, or a tolerance is negative, NaN or infinite (an infinite one would accept any value)
     */
    public static AllClose compare(double[] got, double[] want, double rtol, double atol) {
        if (got.length != want.length) throw new IllegalArgumentException(got.length + " values vs " + want.length);
        if (!(rtol >= 0 && rtol < Double.POSITIVE_INFINITY && atol >= 0 && atol < Double.POSITIVE_INFINITY))
            throw new IllegalArgumentException("tolerances must be finite and >= 0: rtol " + rtol + ", atol " + atol);
        rtol += 0.0;   // -0.0 is 0 (numpy takes it so), and prints as 0, not "-0e+00"
        atol += 0.0;
        int worst = -1;
        double worstRatio = -1, worstDiff = 0;
        long bad = 0;
        for (int i = 0; i < got.length; i++) {
            double a = got[i], r = want[i];
            double diff, ratio;
            if (Double.isNaN(a) || Double.isNaN(r) || Double.isInfinite(a) || Double.isInfinite(r)) {
                boolean same = Double.compare(a, r) == 0;
                diff = same ? 0 : Double.POSITIVE_INFINITY;
                ratio = same ? 0 : Double.POSITIVE_INFINITY;
            } else {
                Bound m = Bound.of(a, r, rtol, atol);
                diff = m.diff().doubleValue();
                ratio = m.ratio();
            }
            if (ratio > 1) bad++;
            if (ratio > worstRatio) {
                worstRatio = ratio;
                worstDiff = diff;   // 0 for equal NaNs or infinities, not |a - r| (NaN)
                worst = i;
            }
        }
        return worst < 0 ? new AllClose(true, 0, 0, -1, 0, 0, 0, rtol, atol, false, "", "")
                : new AllClose(bad == 0, got.length, bad, worst, got[worst], want[worst], worstDiff, rtol, atol, false,
                        String.format(Locale.ROOT, "%.9g", got[worst]), String.format(Locale.ROOT, "%.9g", want[worst]));
    }

    /**
     * Compares {@code got} with the reference {@code want}, of one element type and size (else
     * {@link IllegalArgumentException}): an integral type exactly, element by element on its
     * integer values (uint64 as unsigned; the tolerances are not used); a float type as
     * {@link #compare(double[], double[], double, double)}.
     */
    public static AllClose compare(TensorValue got, TensorValue want, double rtol, double atol) {
        if (got.dtype() != want.dtype() || got.elements() != want.elements())
            throw new IllegalArgumentException(got.elements() + " " + got.dtype().jsonName() + " values vs " + want.elements() + " " + want.dtype().jsonName());
        if (!got.dtype().isIntegral() && !got.dtype().isPackedInteger()) return compare(got.doubles(), want.doubles(), rtol, atol);
        long[] g = got.longs(), w = want.longs();
        int first = -1;
        long bad = 0;
        for (int i = 0; i < g.length; i++) {
            if (g[i] == w[i]) continue;
            bad++;
            if (first < 0) first = i;
        }
        if (g.length == 0) return new AllClose(true, 0, 0, -1, 0, 0, 0, 0, 0, true, "", "");
        int at = Math.max(first, 0);
        boolean u64 = got.dtype() == DType.U64;
        double gd = u64 ? DType.unsignedToDouble(g[at]) : g[at], wd = u64 ? DType.unsignedToDouble(w[at]) : w[at];
        return new AllClose(bad == 0, g.length, bad, at, gd, wd, Math.abs(gd - wd), 0, 0, true,
                u64 ? Long.toUnsignedString(g[at]) : Long.toString(g[at]), u64 ? Long.toUnsignedString(w[at]) : Long.toString(w[at]));
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
        if (exact) return ok ? "all " + count + " integers equal"
                : "first difference at " + index(dims, worstIndex) + ": " + gotText + " vs " + wantText + " (integers compared exactly), " + mismatches + " of " + count + " differ";
        if (!Double.isFinite(got) || !Double.isFinite(want))
            return String.format(Locale.ROOT, "worst element %s: %s vs %s (%s), %d of %d outside", index(dims, worstIndex), gotText, wantText,
                    ok ? "NaN and infinities compared exactly: equal" : "NaN and infinities compared exactly: different", mismatches, count);
        Bound m = Bound.of(got, want, rtol, atol);
        return String.format(Locale.ROOT, "worst element %s: %s vs %s (|a-r| %s %s %s = atol %.0e + rtol %.0e*|r|), %d of %d outside",
                index(dims, worstIndex), gotText, wantText, threeDigits(m.diff()), m.ratio() <= 1 ? "<=" : ">", threeDigits(m.allowed()),
                atol, rtol, mismatches, count);
    }

    /** Three significant digits ({@code 8.11e-08}, {@code 2.00e+308}), and 0 as {@code 0}. */
    private static String threeDigits(Number v) {
        return v.doubleValue() == 0 ? "0" : String.format(Locale.ROOT, "%.3g", v);
    }

    /**
     * One finite element's {@code |a - r|}, its bound {@code atol + rtol*|r|} and their ratio, in
     * float64 as numpy computes them; where either passes Double.MAX_VALUE (tolerances such as
     * 1e308, or float64 values near its largest) in exact arithmetic instead ({@link BigDecimal}),
     * so that the bound is a number, not Infinity. numpy's float64 bound then overflows to inf
     * and accepts every finite difference; the exact bound exceeds every finite float64 difference
     * as well, so the verdict is numpy's wherever numpy's difference is finite.
     */
    private record Bound(Number diff, Number allowed, double ratio) {
        static Bound of(double a, double r, double rtol, double atol) {
            double diff = Math.abs(a - r), allowed = atol + rtol * Math.abs(r);
            if (Double.isFinite(diff) && Double.isFinite(allowed))
                return new Bound(diff, allowed, diff == 0 ? 0 : allowed == 0 ? Double.POSITIVE_INFINITY : diff / allowed);
            BigDecimal d = new BigDecimal(a).subtract(new BigDecimal(r)).abs();
            BigDecimal b = new BigDecimal(atol).add(new BigDecimal(rtol).multiply(new BigDecimal(r).abs()));
            if (d.signum() == 0) return new Bound(d, b, 0);
            if (b.signum() == 0) return new Bound(d, b, Double.POSITIVE_INFINITY);
            double q = d.divide(b, MathContext.DECIMAL64).doubleValue();   // rounded: the side of 1 taken from the exact comparison
            return new Bound(d, b, d.compareTo(b) <= 0 ? Math.min(q, 1) : Math.max(q, Math.nextUp(1.0)));
        }
    }
}
