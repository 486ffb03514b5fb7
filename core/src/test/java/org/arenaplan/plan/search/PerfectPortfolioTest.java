package org.arenaplan.plan.search;

import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.arenaplan.plan.search.PerfectFillTest.noSlack;
import static org.arenaplan.plan.search.PerfectFillTest.safetyDeadline;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link PerfectPortfolio}: several {@link PerfectFill} members at once, the first answer winning. */
class PerfectPortfolioTest {
    private static PerfectPortfolio.Outcome run(Problem p, long capacity, long nodeLimit, int members) {
        SearchInstance instance = new SearchInstance(p);
        return PerfectPortfolio.run(p, instance.time, instance.active, capacity, safetyDeadline(), nodeLimit, () -> false, members);
    }

    /** Any member's proof holds: three members decide small no-slack problems as the brute-force oracle does. */
    @Test
    void decidesSmallProblemsWithoutSlackLikeTheOracle() {
        int checked = 0;
        Set<Integer> winners = new HashSet<>();
        for (long seed = 1; seed <= 600; seed++) {
            Problem p = noSlack(seed, 6, 6, 8);
            if (p == null) continue;
            checked++;
            PerfectPortfolio.Outcome o = run(p, 6, Long.MAX_VALUE, 3);
            boolean fits = BruteForce.optimum(p) <= 6;
            assertThat(o.result()).as("seed %d", seed).isEqualTo(fits ? PerfectFill.FOUND : PerfectFill.NOT_FOUND);
            assertThat(o.winner()).isBetween(0, 2);
            winners.add(o.winner());
            if (fits) assertThat(PlacementValidator.validate(p, o.offsets(), 6, 6L)).as("seed %d", seed).isEmpty();
            else assertThat(o.offsets()).isNull();
        }
        assertThat(checked).isGreaterThan(200);
        assertThat(winners).as("members that won some").isNotEmpty();
    }

    /**
     * Every member is complete on its own: on no-slack problems of up to 30 buffers, members 1
     * and 2 alone (every run random, seeds of their own) decide each as member 0 does, found or
     * proven infeasible.
     */
    @Test
    void everyMemberAloneDecidesLikeTheFirst() {
        assertThat(PerfectFillTest.decideMidSizedProblemsAlike(3, PerfectFill::member, (fill, m) -> { })).isPositive();
    }

    @Test
    void findsBenchSizedPerfectPackings() {
        for (int k : new int[]{2, 5, 10, 13, 16, 20}) {
            int n = 150 + 5 * k;
            Problem p = PerfectPackings.generate(k + 1, n, 1 << 20, 1000, 1024);
            PerfectPortfolio.Outcome o = run(p, 1 << 20, Long.MAX_VALUE, 2);
            assertThat(o.result()).as("%d buffers, seed %d", n, k + 1).isEqualTo(PerfectFill.FOUND);
            assertThat(o.winner()).isBetween(0, 1);
            assertThat(PlacementValidator.validate(p, o.offsets(), 1 << 20, 1L << 20)).isEmpty();
        }
    }

    /**
     * The node limit bounds each member on its own: on a packing none finds within it, the
     * portfolio's nodes are the sum of what each member explores alone with that limit (each
     * stops at the same node on every run), and none wins.
     */
    @Test
    void theNodeLimitBoundsEachMember() {
        Problem p = PerfectPackings.generate(45, 370, 1 << 20, 1000, 1024);   // bench search --set perfect, instance 370-45
        long limit = 2000;
        PerfectPortfolio.Outcome o = run(p, 1 << 20, limit, 2);
        assertThat(o.result()).isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(o.winner()).isEqualTo(-1);
        assertThat(o.offsets()).isNull();
        long alone = 0;
        for (int m = 0; m < 2; m++) {
            SearchInstance instance = new SearchInstance(p);
            PerfectFill fill = new PerfectFill(p, instance.time, instance.active, 1 << 20, safetyDeadline(), limit, () -> false).member(m);
            assertThat(fill.run()).isEqualTo(PerfectFill.OUT_OF_TIME);
            assertThat(fill.nodes()).isBetween(limit, limit + 256);
            alone += fill.nodes();
        }
        assertThat(o.nodes()).isEqualTo(alone);
    }

    @Test
    void aCancelStopsEveryMember() {
        Problem p = PerfectPackings.generate(45, 370, 1 << 20, 1000, 1024);
        SearchInstance instance = new SearchInstance(p);
        PerfectPortfolio.Outcome o = PerfectPortfolio.run(p, instance.time, instance.active, 1 << 20, safetyDeadline(), Long.MAX_VALUE, () -> true, 3);
        assertThat(o.result()).isEqualTo(PerfectFill.OUT_OF_TIME);
        assertThat(o.winner()).isEqualTo(-1);
        assertThat(o.nodes()).isEqualTo(3);                // each read the flag at its first node
    }

    @Test
    void membersHaveSeedsOfTheirOwn() {
        Set<Long> seeds = new HashSet<>();
        for (int round = 1; round <= 1000; round++) seeds.add((long) round);          // member 0's
        for (int m = 1; m <= PerfectPortfolio.MAX_MEMBERS; m++)
            for (int round = 0; round < 1000; round++) assertThat(seeds.add(PerfectFill.memberSeed(m, round))).as("member %d, run %d", m, round).isTrue();
        assertThat(PerfectPortfolio.defaultMembers()).isBetween(1, PerfectPortfolio.MAX_MEMBERS);
        Problem p = null;
        for (long seed = 1; p == null; seed++) p = noSlack(seed, 6, 6, 8);
        Problem any = p;
        assertThatThrownBy(() -> run(any, 6, 10, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("members");
    }
}
