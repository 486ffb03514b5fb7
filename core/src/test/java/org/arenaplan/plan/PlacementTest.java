package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cut flag and the label's cut note always agree; {@link Placement#label} spells the planners' labels. */
class PlacementTest {
    private static final long[] TWO = {0, 8};

    @Test
    void aFlagWithoutTheNoteOrANoteWithoutTheFlagIsRefused() {
        assertThatThrownBy(() -> new Placement(TWO, 16, "search", false, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'search'");
        assertThatThrownBy(() -> new Placement(TWO, 16, "search (cut at the time limit)", false))
                .as("the constructor without the flag means not cut").isInstanceOf(IllegalArgumentException.class);
        assertThat(new Placement(TWO, 16, "search (cut at the time limit)", false, true).cut()).isTrue();
        assertThat(new Placement(TWO, 16, "by hand", false).cut()).isFalse();
    }

    @Test
    void theLabelAddsTheCutNoteAfterTheOthersBetweenThePlannersBrackets() {
        assertThat(Placement.label("greedy-size", " (", ")", false, "")).isEqualTo("greedy-size");
        assertThat(Placement.label("greedy-size", " (", ")", true, "")).isEqualTo("greedy-size (cut at the time limit)");
        assertThat(Placement.label("greedy-size", " (", ")", true, "swept")).isEqualTo("greedy-size (swept, cut at the time limit)");
        assertThat(Placement.label("best", "(", ")", false, "area", "swept")).isEqualTo("best(area, swept)");
        assertThat(Placement.label("best", "(", ")", true, "area", "")).isEqualTo("best(area, cut at the time limit)");
        assertThat(Placement.label("search", " (", ")", true)).isEqualTo("search (cut at the time limit)");
    }
}
