package org.arenaplan.plan;

import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;

import static org.arenaplan.plan.Fixtures.MiB;
import static org.arenaplan.plan.Fixtures.plan;
import static org.arenaplan.plan.Fixtures.textbookChain;
import static org.assertj.core.api.Assertions.assertThat;

class TextbookChainTest {
    @Test
    void greedyPacksTheChainIntoThreeSlotsAtTheLowerBound() {
        Plan p = plan(textbookChain(false, false), "greedy-size");
        assertThat(p.stats().sumBytes()).isEqualTo(384 * MiB);
        assertThat(p.stats().lowerBoundBytes()).isEqualTo(192 * MiB);
        assertThat(p.arenaBytes()).isEqualTo(192 * MiB);
        Set<Long> slots = new TreeSet<>();
        for (String t : new String[]{"x", "a", "b", "c", "d", "y"}) slots.add(p.addressOf(t));
        assertThat(slots).containsExactly(0L, 64 * MiB, 128 * MiB);
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void inPlaceBiasAndGeluAddWithDonatedInputNeedOnly128MiB() {
        Plan p = plan(textbookChain(true, true), "greedy-size");
        assertThat(p.refusals()).isEmpty();
        assertThat(p.storages()).hasSize(4);          // x, a=b=c, d, y
        assertThat(p.addressOf("b")).isEqualTo(p.addressOf("a"));
        assertThat(p.addressOf("c")).isEqualTo(p.addressOf("a"));
        assertThat(p.stats().lowerBoundBytes()).isEqualTo(128 * MiB);
        assertThat(p.arenaBytes()).isEqualTo(128 * MiB);
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void inPlaceAloneKeepsTheCallerOwnedInputAliveTo192MiB() {
        Plan p = plan(textbookChain(true, false), "best");
        assertThat(p.storages()).hasSize(4);
        assertThat(p.arenaBytes()).isEqualTo(192 * MiB);
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void naiveIsTheSumAndReportsAllocatorCalls() {
        Plan p = plan(textbookChain(false, false), "naive");
        assertThat(p.arenaBytes()).isEqualTo(384 * MiB);
        assertThat(p.stats().allocCallsNaive()).isEqualTo(12);
        assertThat(p.stats().allocCallsPlanned()).isEqualTo(1);
        assertThat(p.stats().ratio()).isEqualTo(2.0);
    }
}
