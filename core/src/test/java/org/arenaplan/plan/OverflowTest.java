package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sizes and offsets near 2^63: refused where they enter, never wrapped around where they are checked. */
class OverflowTest {
    private static final long MAX = Long.MAX_VALUE;

    private static Problem twoLiveTogether(long size) {
        return new Problem(new String[]{"a", "b"}, new long[]{0, 0}, new long[]{1, 1}, new long[]{size, size}, 1);
    }

    @Test
    void sizesSummingPast2To63AreRefusedNamingTheBuffer() {
        assertThatThrownBy(() -> twoLiveTogether(MAX)).isInstanceOf(PlanningException.class)
                .hasMessageContaining("buffer 'b'").hasMessageContaining("sum past 2^63-1");
        assertThatThrownBy(() -> new Problem(new String[]{"a"}, new long[]{0}, new long[]{1}, new long[]{MAX}, 256))
                .hasMessageContaining("overflows when aligned to 256");
        assertThat(twoLiveTogether(MAX / 2).sumBytes()).isEqualTo(MAX - 1);
    }

    /** 50 B past 2^63 only as rounded up to --align 2^62: the line blamed the CSV's size field alone (breaker). */
    @Test
    void sizesSummingPast2To63OnlyOnceAlignedSayTheAlignment() {
        assertThatThrownBy(() -> new Problem(new String[]{"a", "b"}, new long[]{0, 0}, new long[]{1, 1}, new long[]{100, 50}, 1L << 62))
                .hasMessage("buffer 'b' (50 B): the sizes, each rounded up to the alignment 4611686018427387904 B, sum past 2^63-1 B, more than any arena can hold");
    }

    @Test
    void aNegativeLowerIsRefused() {
        assertThatThrownBy(() -> new Problem(new String[]{"a"}, new long[]{-1}, new long[]{1}, new long[]{4}, 1))
                .isInstanceOf(PlanningException.class).hasMessageContaining("negative lower");
    }

    @Test
    void anOffsetWhoseEndWrapsIsAViolationNotAHole() {
        Problem p = twoLiveTogether(4);
        long[] offsets = {0, MAX - 1};
        assertThat(PlacementValidator.topOf(p, offsets)).isEqualTo(MAX);
        List<Violation> v = PlacementValidator.validate(p, offsets, PlacementValidator.topOf(p, offsets), null);
        assertThat(v).extracting(Violation::kind).containsExactly(Violation.Kind.OUT_OF_ARENA);
        assertThat(v.get(0).message()).contains("ends past 2^63-1");
        // Both ends past 2^63-1 and overlapping: both overflows and the overlap are reported.
        List<Violation> both = PlacementValidator.validate(p, new long[]{MAX - 2, MAX - 3}, MAX, null);
        assertThat(both).extracting(Violation::kind).contains(Violation.Kind.OUT_OF_ARENA, Violation.Kind.OVERLAP);
        // Ending exactly at 2^63-1 is representable and, without a capacity, valid.
        assertThat(PlacementValidator.validate(p, new long[]{0, MAX - 4}, MAX, null)).isEmpty();
        assertThat(PlacementValidator.validate(p, new long[]{0, MAX - 4}, MAX, 8L)).extracting(Violation::kind)
                .containsExactly(Violation.Kind.OVER_CAPACITY);
    }

    @Test
    void aPlannersArenaIsComputedExactly() {
        assertThatThrownBy(() -> Placement.arenaOf(twoLiveTogether(4), new long[]{0, MAX - 1})).isInstanceOf(ArithmeticException.class);
    }
}
