package org.arenaplan.plan;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.liveness.Refusal;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamPlannerTest {
    private static final ArenaPlanner.Options OPTS = ArenaPlanner.Options.DEFAULT;

    /** A on stream 0, last read by r; B on stream 1, written after r in the schedule but not ordered after it. */
    static Graph reuseNeedsAnEdge() {
        return new GraphBuilder("reuse-needs-an-edge")
                .tensor("x", 1024).input("x").tensor("A", 4096).tensor("R", 256).tensor("B", 4096)
                .op("a", "Relu").in("x").out("A").stream(0).add()
                .op("r", "ReduceSum").in("A").out("R").stream(0).add()
                .op("b", "Relu").in("x").out("B").stream(1).add()
                .output("R").output("B").build();
    }

    @Test
    void oneStreamIsThePlainPlannerWithNoEvents() {
        Graph g = StreamsRegressionMatrixTest.viewChain(0);
        Plan s = StreamPlanner.plan(g, 0, SyncMode.ADD, OPTS);
        Plan p = ArenaPlanner.plan(g, OPTS);
        assertThat(s.placement().offsets()).isEqualTo(p.placement().offsets());
        assertThat(s.sync().events()).isEmpty();
        assertThat(s.problem().hasExtraConflicts()).isFalse();
        Plan collapsed = StreamPlanner.plan(reuseNeedsAnEdge(), 1, SyncMode.NONE, OPTS);
        assertThat(collapsed.graph().streams()).containsExactly(0);
        assertThat(collapsed.arenaBytes()).isEqualTo(1024 + 4096 + 256);
    }

    @Test
    void theArenaPlannerPlansAMultiStreamGraphWithItsDataEventsAndProvenReuse() {
        Graph g = StreamsRegressionMatrixTest.viewChain(1);
        Plan p = ArenaPlanner.plan(g, OPTS);
        assertThat(p.sync().events()).extracting(SyncEvent::reason).containsExactly(SyncEvent.Reason.DATA);
        assertThat(p.problem().hasExtraConflicts()).isTrue();
        assertThat(PlanValidator.validate(p)).isEmpty();
    }

    @Test
    void withoutAddedEventsUnorderedStoragesStayApart() {
        Plan none = StreamPlanner.plan(reuseNeedsAnEdge(), 0, SyncMode.NONE, OPTS);
        assertThat(none.arenaBytes()).isEqualTo(1024 + 4096 + 256 + 4096);
        assertThat(none.sync().events()).isEmpty();
        assertThat(PlanValidator.validate(none)).isEmpty();
        ConcurrencyPrice price = StreamPlanner.price(none, OPTS);
        assertThat(price).isEqualTo(new ConcurrencyPrice(2, 1024 + 4096 + 256, 1024 + 4096 + 256 + 4096, 1024 + 4096 + 256 + 4096, 0, 0, 0, 0, 1, false));
        assertThat(price.summary()).contains("arena, 2 streams").contains("+4,096 B").contains("events, for reuse    : 0");
    }

    @Test
    void aPriceFromCutPlacementsSaysItIsNotThePrice() {
        // A planner whose time limit has passed stacks what it has not placed: comparing such
        // arenas would print a price of concurrency that the graph does not have.
        Graph g = reuseNeedsAnEdge();
        ArenaPlanner.Options cutOpts = OPTS.withPlanner("greedy-size").withPlannerOptions(new PlannerOptions(null, java.time.Duration.ZERO));
        Plan plan = StreamPlanner.plan(g, 0, SyncMode.NONE, cutOpts);
        ConcurrencyPrice cut = StreamPlanner.price(plan, cutOpts);
        assertThat(plan.placement().cut()).isTrue();
        assertThat(cut.cut()).isTrue();
        assertThat(cut.summary().lines().findFirst().orElseThrow()).endsWith("(a plan compared here was cut at the time limit: not the price)");
        assertThat(cut.line()).endsWith("(a plan compared here was cut at the time limit: not the price)");
        ConcurrencyPrice whole = StreamPlanner.price(StreamPlanner.plan(g, 0, SyncMode.NONE, OPTS.withPlanner("greedy-size")), OPTS.withPlanner("greedy-size"));
        assertThat(whole.cut()).isFalse();
        assertThat(whole.summary()).doesNotContain("cut at the time limit");
    }

    @Test
    void syncAddRecordsTheEdgeThatSavesBytesWithItsSaving() {
        Graph g = reuseNeedsAnEdge();
        Plan add = StreamPlanner.plan(g, 0, SyncMode.ADD, OPTS);
        assertThat(add.sync().events()).containsExactly(new SyncEvent(0, 1, 2, SyncEvent.Reason.REUSE, 4096));
        assertThat(add.arenaBytes()).isEqualTo(1024 + 4096 + 256);
        assertThat(add.addressOf("B")).isEqualTo(add.addressOf("A"));
        assertThat(PlanValidator.validate(add)).isEmpty();
        ConcurrencyPrice price = StreamPlanner.price(add, OPTS);
        assertThat(price.reuseEvents()).isEqualTo(1);
        assertThat(price.bytesSaved()).isEqualTo(4096);
        assertThat(price.arenaSyncNone()).isEqualTo(1024 + 4096 + 256 + 4096);
        assertThat(price.ratio()).isEqualTo(1.0);
    }

    @Test
    void syncAddChoosesEdgesWithBestWhenThePlannerIsNotAGreedyOne() {
        int[] calls = {0};
        Planner slow = new Planner() {
            @Override public String name() { return "slow-search"; }
            @Override public Placement place(Problem p) {
                calls[0]++;
                return new BestPlanner().place(p);
            }
        };
        Plan add = StreamPlanner.plan(reuseNeedsAnEdge(), 0, SyncMode.ADD, OPTS, slow);
        assertThat(calls[0]).as("the plan with data events, then the final one").isEqualTo(2);
        assertThat(add.arenaBytes()).isEqualTo(1024 + 4096 + 256);
        assertThat(PlanValidator.validate(add)).isEmpty();
    }

    @Test
    void syncAddWithACapacityAddsOnlyTheEventsNeededToFit() {
        Graph g = org.arenaplan.hb.StreamGraphsForTests.inceptionLike(3, 4);
        Plan none = StreamPlanner.plan(g, 4, SyncMode.NONE, OPTS);
        Plan all = StreamPlanner.plan(g, 4, SyncMode.ADD, OPTS);
        long capacity = (none.arenaBytes() + all.arenaBytes()) / 2;
        Plan fit = StreamPlanner.plan(g, 4, SyncMode.ADD, OPTS.withPlannerOptions(OPTS.plannerOptions().withCapacity(capacity)));
        long reuse = fit.sync().events().stream().filter(e -> e.reason() == SyncEvent.Reason.REUSE).count();
        long reuseAll = all.sync().events().stream().filter(e -> e.reason() == SyncEvent.Reason.REUSE).count();
        assertThat(fit.arenaBytes()).isLessThanOrEqualTo(capacity).isGreaterThanOrEqualTo(all.arenaBytes());
        assertThat(reuse).isPositive().isLessThan(reuseAll);
        assertThat(PlanValidator.validate(fit)).isEmpty();
        Plan roomy = StreamPlanner.plan(g, 4, SyncMode.ADD, OPTS.withPlannerOptions(OPTS.plannerOptions().withCapacity(none.arenaBytes())));
        assertThat(roomy.sync().events()).as("it fits already: no event added").isEqualTo(none.sync().events());
    }

    @Test
    void inPlaceFoldingAcrossStreamsNeedsEveryEarlierReaderOrderedFirst() {
        Graph g = new GraphBuilder("in-place-across-streams")
                .tensor("x", 1024).input("x").tensor("A", 1024).tensor("R", 1024).tensor("G", 1024)
                .op("a", "Relu").in("x").out("A").stream(0).add()
                .op("r", "Relu").in("A").out("R").stream(1).add()
                .op("g", "Gelu").in("A").out("G").inPlace().stream(0).add()
                .output("R").output("G").build();
        Plan twoStreams = StreamPlanner.plan(g, 0, SyncMode.NONE, OPTS);
        assertThat(twoStreams.refusals()).extracting(Refusal::reason)
                .containsExactly("reader 'r' of 'A' (stream 1) is not ordered before this op (stream 0)");
        assertThat(twoStreams.lifetimes().storageOf("G")).isNotEqualTo(twoStreams.lifetimes().storageOf("A"));
        assertThat(PlanValidator.validate(twoStreams)).isEmpty();
        Plan oneStream = StreamPlanner.plan(g.withStreams(p -> 0), 0, SyncMode.NONE, OPTS);
        assertThat(oneStream.refusals()).isEmpty();
        assertThat(oneStream.lifetimes().storageOf("G")).isEqualTo(oneStream.lifetimes().storageOf("A"));
    }

    @Test
    void assignedStreamsAreReportedWithTheirDataEvents() {
        Graph g = org.arenaplan.hb.StreamGraphsForTests.inceptionLike(2, 4);
        Plan plan = StreamPlanner.plan(g, 4, SyncMode.NONE, OPTS);
        assertThat(plan.graph().streams()).containsExactly(0, 1, 2, 3);
        assertThat(plan.sync().events()).isNotEmpty().allMatch(e -> e.reason() == SyncEvent.Reason.DATA);
        assertThat(PlanValidator.validate(plan)).isEmpty();
        assertThat(StreamPlanner.price(plan, OPTS).dataEvents()).isEqualTo(plan.sync().events().size());
    }
}
