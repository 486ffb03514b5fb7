package org.arenaplan.plan;

import org.arenaplan.plan.search.CapacityProbes;

/**
 * {@link BestPlanner}'s last step: on a small problem whose heuristics left the arena above the
 * lower bound, the exact search of the {@code search} planner ({@link CapacityProbes}: the lower
 * bound and the midpoint below the incumbent in turns) under a node limit, keeping its placement where it is smaller.
 * MiniMalloc (Moffitt, ASPLOS 2023) shows such a search closes the gap on problems of hundreds
 * of buffers within thousands of nodes; XLA's heap simulator likewise runs its costlier
 * algorithms only below a size. The {@code search} planner runs the same step, with the same
 * rule and node limit, after it finds a placement within a given capacity
 * ({@code SearchPlanner}), so that {@code search --capacity} does not stop at the first fit.
 *
 * <p>When it runs: the problem has at most {@value #MAX_BUFFERS} buffers and no extra conflicts,
 * and the heuristics' arena is above the lower bound aligned up (a plan already at its lower
 * bound is left as it is; so is one the time limit cut). Skipping costs a comparison or two, so
 * the wide traces of thousands of buffers pay nothing. Extra conflicts (several streams) are
 * left out: the streams planner places many problems under one time limit, the lower bound
 * ignores those conflicts (so the first probe is often infeasible), and the search cannot split
 * such a problem in time; on {@code plan --model randwire --streams 4} the step spent the limit
 * and the arena rose from 301,568 to 502,528 B.
 *
 * <p>Deterministic: at most {@link #nodeLimit} search nodes over every probe, counted, not
 * timed, and one search thread (a perfect packing's portfolio has one member), so the same
 * problem gets the same placement whatever the machine's load and core count, unless the time
 * limit passes first (then the probes stop there and the smallest arena found so far stands).
 *
 * <p>Cost: building the search tables once (O(n + overlapping pairs + buffer-section pairs)),
 * plus at most {@link #nodeLimit} nodes; a node costs about O(n + sections) (where a placement
 * splits the timeline the pieces are ranked again, O(n + d log sections) for d buffers
 * overlapping what was placed since the last ranking: {@code Preorder}), which is why the limit falls as
 * 1/n: {@value #NODE_LIMIT} nodes up to 400 buffers, {@value #NODE_WORK} / n above (8,000 at
 * 1,000 buffers, 4,000 at 2,000), still twice the n nodes of a search that never backtracks.
 * Where it closes the gap it mostly needs n nodes (every ONNX export measured but swin3d_t).
 * Measured at load averages 9-15 on 2 cores (docs/search.md, {@code CapacityProbes}): a step that
 * ends at its limit took 0.3-0.6 s of process CPU at 1,000-2,000 buffers (wide traces, warm
 * JVM; up to 1.1 s in a fresh one, JIT included) and added 0.1-0.6 s of planning wall time to
 * swin3d_t (364-406 buffers) and MiniMalloc's A and E; on resnet50 (1,042 buffers, closed in
 * 1,042 nodes) {@code plan}'s planning time went from 0.4-0.6 s to 1.4-2.1 s while every piece
 * was sorted afresh at every split; ranking pieces incrementally took the step to about half of
 * that time ({@code ExactFinishBench}, docs/search.md). A probe without
 * slack (every instant at the capacity) allocates the perfect-packing tables, 40 to 56 MiB.
 */
public final class ExactFinish {
    /** Problems with more buffers skip the step. */
    public static final int MAX_BUFFERS = 2_000;
    /** Exact-search nodes over every probe of a problem of at most {@value #NODE_WORK} / {@value #NODE_LIMIT} buffers. */
    static final long NODE_LIMIT = 20_000;
    /** Nodes times buffers that a larger problem may spend: its node limit is this over its buffers. */
    static final long NODE_WORK = 8_000_000;
    /** The note of {@code best}'s label when the step's placement wins: {@code best(exact search)}. */
    static final String LABEL = "exact search";

    private ExactFinish() { }

    /** Whether the step runs on a problem whose heuristics reached {@code arena} bytes, not cut. */
    public static boolean applies(Problem p, long arena) {
        return p.size() <= MAX_BUFFERS && !p.hasExtraConflicts() && arena > CapacityProbes.alignUp(p.lowerBound(), p.alignment());
    }

    /** The most search nodes the step spends on a problem of {@code buffers} buffers: {@value #NODE_LIMIT}, or {@value #NODE_WORK} / buffers when that is smaller. */
    public static long nodeLimit(int buffers) {
        return Math.min(NODE_LIMIT, NODE_WORK / Math.max(1, buffers));
    }

    /**
     * Probes capacities below {@code arena} (bytes) with the exact search, by {@code deadline}
     * (a {@link System#nanoTime()} value) and within {@link #nodeLimit} nodes.
     *
     * @param listener told before each probe (a progress note)
     */
    static CapacityProbes.Result lower(Problem p, long arena, long deadline, CapacityProbes.ProbeListener listener) {
        return CapacityProbes.lower(p, arena, CapacityProbes.alignUp(p.lowerBound(), p.alignment()), deadline, new CapacityProbes.Budget(nodeLimit(p.size()), 1), listener);
    }
}
