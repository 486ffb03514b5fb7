package org.arenaplan.exec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link AllClose} is numpy's allclose: |a - r| <= atol + rtol*|r|, with the worst element's index. */
class AllCloseTest {
    @Test
    void aSmallValueOffByFloat32RoundingMatchesWithTheDefaults() {
        // the case a per-element relative check rejected: -3.2e-4 off by 1.75e-7
        AllClose c = AllClose.compare(new float[]{-3.2e-4f + 1.75e-7f, 10f}, new float[]{-3.2e-4f, 10.001f}, AllClose.DEFAULT_RTOL, AllClose.DEFAULT_ATOL);
        assertThat(c.ok()).isTrue();
        assertThat(c.mismatches()).isZero();
    }

    @Test
    void theBoundIsAtolPlusRtolTimesTheReference() {
        assertThat(AllClose.compare(new float[]{1.5f}, new float[]{1f}, 0.25, 0.25).ok()).isTrue();
        assertThat(AllClose.compare(new float[]{1.5f}, new float[]{1f}, 0.25, 0.24).ok()).isFalse();
        assertThat(AllClose.compare(new float[]{0f}, new float[]{1e-9f}, 0, 0).ok()).isFalse();
    }

    @Test
    void theWorstElementIsReportedWithItsIndex() {
        float[] want = new float[12], got = new float[12];
        got[7] = 0.5f;
        got[2] = 0.1f;
        AllClose c = AllClose.compare(got, want, 1e-3, 1e-5);
        assertThat(c.ok()).isFalse();
        assertThat(c.mismatches()).isEqualTo(2);
        assertThat(c.worstIndex()).isEqualTo(7);
        assertThat(c.describe(new long[]{3, 4})).startsWith("worst element [1, 3]: 0.5").contains("2 of 12 outside");
    }

    @Test
    void integerTensorsAreComparedExactlyWhateverTheTolerance() {
        org.arenaplan.ir.TensorValue a = org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{3}, 5, (1L << 53) + 1, 9);
        org.arenaplan.ir.TensorValue b = org.arenaplan.ir.TensorValue.ofLongs(org.arenaplan.ir.DType.I64, new long[]{3}, 5, 1L << 53, 9);
        AllClose c = AllClose.compare(a, b, 1, 1);
        assertThat(c.ok()).isFalse();
        assertThat(c.worstIndex()).isEqualTo(1);
        assertThat(c.describe(new long[]{3})).isEqualTo("first difference at [1]: 9007199254740993 vs 9007199254740992 (integers compared exactly), 1 of 3 differ");
        assertThat(AllClose.compare(a, a, 0, 0).ok()).isTrue();
    }

    @Test
    void nanMatchesNanAndInfinitiesMustAgree() {
        assertThat(AllClose.compare(new float[]{Float.NaN, Float.POSITIVE_INFINITY}, new float[]{Float.NaN, Float.POSITIVE_INFINITY}, 0, 0).ok()).isTrue();
        assertThat(AllClose.compare(new float[]{Float.NEGATIVE_INFINITY}, new float[]{Float.POSITIVE_INFINITY}, 1, 1).ok()).isFalse();
        assertThat(AllClose.compare(new float[]{1f}, new float[]{Float.NaN}, 1, 1).ok()).isFalse();
    }

    /** NaN vs NaN matched but was described as "|a-r| NaN > NaN", a contradiction in the line that says it matched. */
    @Test
    void equalNansAreDescribedAsEqual() {
        AllClose nan = AllClose.compare(new float[]{Float.NaN, Float.NaN}, new float[]{Float.NaN, Float.NaN}, 1e-3, 1e-5);
        assertThat(nan.ok()).isTrue();
        assertThat(nan.describe(new long[]{2})).isEqualTo("worst element [0]: NaN vs NaN (NaN and infinities compared exactly: equal), 0 of 2 outside");
        AllClose off = AllClose.compare(new float[]{2f, Float.NEGATIVE_INFINITY}, new float[]{2f, Float.POSITIVE_INFINITY}, 1e-3, 1e-5);
        assertThat(off.describe(new long[]{2})).isEqualTo("worst element [1]: -Infinity vs Infinity (NaN and infinities compared exactly: different), 1 of 2 outside");
    }

    /** An infinite tolerance accepted 1e30 against 0 as "within" (review: {@code --rtol 1e400} reads as Infinity). */
    @Test
    void anInfiniteToleranceIsRefusedNotTakenAsAcceptingEverything() {
        for (double[] t : new double[][]{{Double.POSITIVE_INFINITY, 0}, {0, Double.POSITIVE_INFINITY}, {Double.NaN, 0}, {-1, 0}})
            assertThatThrownBy(() -> AllClose.compare(new float[]{1e30f}, new float[]{0f}, t[0], t[1]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tolerances must be finite and >= 0");
    }
    /**
     * newcomer: {@code --rtol 1e308 --atol 1e308} printed the bound as Infinity (atol + rtol*|r| overflowed),
     * and float64 values whose difference overflowed matched whatever the tolerance (Infinity / Infinity is NaN,
     * never above 1). Both are now computed exactly: numpy's verdict where its float64 difference is finite.
     */
    @Test
    void aBoundOrDifferencePastTheLargestDoubleIsComputedExactly() {
        AllClose huge = AllClose.compare(new double[]{1, 5}, new double[]{2, 2}, 1e308, 1e308);
        assertThat(huge.ok()).isTrue();
        assertThat(huge.describe(new long[]{2})).isEqualTo("worst element [1]: 5.00000000 vs 2.00000000 (|a-r| 3.00 <= 3.00e+308 = atol 1e+308 + rtol 1e+308*|r|), 0 of 2 outside");
        double big = 1.7e308;
        AllClose tooFar = AllClose.compare(new double[]{big}, new double[]{-big}, 1.5, 0);   // |a-r| 3.4e308 > 1.5 * 1.7e308
        assertThat(tooFar.ok()).isFalse();
        assertThat(tooFar.describe(new long[]{1})).contains("(|a-r| 3.40e+308 > 2.55e+308 = atol 0e+00 + rtol 2e+00*|r|), 1 of 1 outside");
        assertThat(AllClose.compare(new double[]{big}, new double[]{-big}, 2.5, 0).ok()).isTrue();
    }

    /** newcomer: {@code --rtol -0.0} printed "rtol -0e+00"; -0.0 is 0 (numpy takes it so), and a zero difference prints as 0. */
    @Test
    void negativeZeroToleranceIsZeroAndAZeroDifferencePrintsAsZero() {
        AllClose c = AllClose.compare(new float[]{0.5f}, new float[]{0.5f}, -0.0, -0.0);
        assertThat(c.ok()).isTrue();
        assertThat(c.describe(new long[]{1})).isEqualTo("worst element [0]: 0.500000000 vs 0.500000000 (|a-r| 0 <= 0 = atol 0e+00 + rtol 0e+00*|r|), 0 of 1 outside");
    }
}
