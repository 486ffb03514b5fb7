package org.arenaplan.plan.search;

import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Lowers an incumbent arena by probing capacities with the exact search ({@link CapacitySearch}):
 * the minimising loop shared by the {@code search} planner and the last step of {@code best}.
 *
 * <p>Steps: probe capacities between the proven lower bound and the incumbent's arena, the
 * lower bound first (usually the optimum), then bisecting. A probe that finds a placement
 * lowers the incumbent to that placement's arena; one that is refuted raises the proven lower
 * bound; one that runs out of time or nodes only narrows where later probes look. It stops when
 * the incumbent meets the proven bound (optimal), when the nodes are spent, or at the deadline.
 * The tables of {@link SearchInstance} are built once, on the first probe; a problem too large
 * for them ({@link SearchInstance.TooLarge}) is not probed.
 *
 * <p>Deterministic when the deadline is not reached: with {@link Budget#shareTime()} false and
 * one perfect-packing member ({@link Budget#members()}), every probe ends by its node count, which
 * does not depend on the machine's load (the node limit is read every 256 nodes at most, the
 * same nodes each time).
 */
public final class CapacityProbes {
    /**
     * @param nodeLimit the most exact-search nodes over every probe ({@link Long#MAX_VALUE}: none)
     * @param members   perfect-packing searches run at once on a probe with no slack ({@link PerfectPortfolio}); 1 is deterministic
     * @param shareTime whether each probe gets only a share of the time left (the time left over the probes still possible),
     *                  so that a hard probe does not take all of it (the clock then decides where the next one looks)
     */
    public record Budget(long nodeLimit, int members, boolean shareTime) { }

    /**
     * @param offsets          the placement of the smallest arena found, or null when no probe beat the incumbent
     * @param arena            its arena (the incumbent's when none did), bytes
     * @param provenLowerBound no valid placement is smaller: the lower bound aligned up, or a refuted capacity plus one alignment unit
     * @param nodes            exact-search nodes explored over every probe
     */
    public record Result(long[] offsets, long arena, long provenLowerBound, long nodes) { }

    /** Told before each probe: its capacity, the probes left at most, the incumbent's arena and the proven bound (bytes). */
    @FunctionalInterface
    public interface ProbeListener {
        void probing(long capacity, long probesLeft, long arena, long proven);
    }

    private CapacityProbes() { }

    /**
     * @param arena    the incumbent's arena in bytes (a valid placement's: the result is never above it)
     * @param deadline a {@link System#nanoTime()} value by which the probes end
     * @throws PlanningException when the calling thread is interrupted during a probe
     */
    public static Result lower(Problem p, long arena, long deadline, Budget budget, ProbeListener listener) {
        long unit = p.alignment();
        long proven = alignUp(p.lowerBound(), unit);   // no placement is smaller than this, proven
        long probeFrom = proven;                        // smallest capacity worth probing (raised by timeouts too)
        long[] found = null;
        long nodes = 0;
        boolean first = true;
        SearchInstance instance = null;   // built on the first probe, shared by the others
        while (arena > proven && probeFrom < arena && nodes < budget.nodeLimit() && System.nanoTime() - deadline < 0) {
            long hi = arena - unit;   // the largest capacity that would improve
            long cap = first ? probeFrom : alignDown(probeFrom + (hi - probeFrom) / 2, unit);
            first = false;
            long probesLeft = 1 + (64 - Long.numberOfLeadingZeros((hi - probeFrom) / unit + 1));
            if (instance == null) {
                try {
                    instance = new SearchInstance(p, deadline);
                } catch (SearchInstance.OutOfTime | SearchInstance.TooLarge e) {
                    break;
                }
            }
            long now = System.nanoTime();
            long share = budget.shareTime() ? Math.max(1, (deadline - now) / probesLeft) : Long.MAX_VALUE;
            listener.probing(cap, probesLeft, arena, proven);
            CapacitySearch search;
            try {
                search = new CapacitySearch(instance, cap, deadline - now < share ? deadline : now + share);
                search.limitNodes(budget.nodeLimit() - nodes);
                search.perfectMembers(budget.members());
            } catch (SearchInstance.OutOfTime e) {
                break;
            }
            CapacitySearch.Result r = onBigStack(p, search);
            nodes += search.nodes();
            switch (r) {
                case FOUND -> {
                    found = search.solution();
                    arena = org.arenaplan.plan.Placement.arenaOf(p, found);
                }
                case INFEASIBLE -> {
                    proven = Math.max(proven, cap + unit);
                    probeFrom = Math.max(probeFrom, cap + unit);
                }
                case TIMEOUT -> probeFrom = cap + unit;
            }
        }
        return new Result(found, arena, proven, nodes);
    }

    /**
     * Runs the search on a thread whose stack holds one frame chain per buffer. If the caller is
     * interrupted, the search is cancelled and a {@link PlanningException} is thrown.
     */
    static CapacitySearch.Result onBigStack(Problem p, CapacitySearch search) {
        AtomicReference<CapacitySearch.Result> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long stack = Math.max(16L << 20, 2048L * p.size());
        Thread t = new Thread(null, () -> {
            try {
                result.set(search.run());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "arenaplan-search", stack);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            search.cancel();
            Thread.currentThread().interrupt();
            throw new PlanningException("search interrupted");
        }
        Throwable e = failure.get();
        if (e instanceof RuntimeException re) throw re;
        if (e instanceof Error err) throw err;
        return result.get();
    }

    /** {@code v} rounded up to a multiple of {@code unit} (bytes). */
    public static long alignUp(long v, long unit) {
        long r = v % unit;
        return r == 0 ? v : v + unit - r;
    }

    private static long alignDown(long v, long unit) {
        return v - v % unit;
    }
}
