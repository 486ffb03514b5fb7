package org.arenaplan.plan.search;

import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Probes capacities with the exact search ({@link CapacitySearch}): finds a first placement
 * within a capacity ({@link #fit}, the {@code search} planner with a capacity), and lowers an
 * incumbent arena ({@link #lower}: the {@code search} planner after a fit and without a
 * capacity, and the last step of {@code best}).
 *
 * <p>Steps: two capacities are searched at once, each a {@link CapacitySearch} of its own: the
 * smallest capacity not refuted (the lower bound aligned up first, usually the optimum, and
 * the tightest, so the best pruned) and a second one, the largest capacity asked for while no
 * placement is found ({@link #fit}'s capacity), else the midpoint between the two ends
 * (bisection). They take turns, one {@link CapacitySearch#round} of restarts each, so each
 * gets as many nodes as the other, up to one round (the budgets double from round to round). A
 * search that finds a placement lowers the incumbent to that placement's arena, and the second
 * capacity moves to the new midpoint; one that is refuted raises the proven lower bound, and
 * the capacities below it move up. It stops when the incumbent meets the proven bound
 * (optimal), when the nodes are spent, or at the deadline ({@link #fit}: also at its first
 * placement).
 *
 * <p>Why two at once: how long the exact search takes for one capacity varies wildly from one
 * capacity to the next, and not with the slack: on MiniMalloc's C (lower bound 1,039,360 B)
 * the search finds a placement within 1,227 nodes at its lower bound and 6,583 at 1,120,000 B,
 * but none in 1.6 million nodes at 1,110,000 B (docs/search.md). A placement within the lower
 * bound is within every capacity above it; searching it beside the capacity asked for bounds
 * the cost by about twice that of the easier of the two, where searching one capacity at a
 * time, until it ran out of its share, spent everything on one that stalls.
 *
 * <p>The tables of {@link SearchInstance} are built once, on the first probe; a problem too
 * large for them ({@link SearchInstance.TooLarge}) is not probed.
 *
 * <p>Deterministic when the deadline is not reached and one perfect-packing member is used
 * ({@link Budget#members()}): every search ends by its node count, which does not depend on the
 * machine's load (the node limit is read every 256 nodes at most, the same nodes each time).
 */
public final class CapacityProbes {
    /**
     * @param nodeLimit the most exact-search nodes over every probe ({@link Long#MAX_VALUE}: none)
     * @param members   perfect-packing searches run at once on a probe with no slack ({@link PerfectPortfolio}); 1 is deterministic
     */
    public record Budget(long nodeLimit, int members) { }

    /**
     * @param offsets          the placement of the smallest arena found, or null when none was (none beat the incumbent, or none fits)
     * @param arena            its arena (the incumbent's when none did), bytes
     * @param provenLowerBound no valid placement is smaller: the lower bound aligned up, or a refuted capacity plus one alignment unit
     * @param nodes            exact-search nodes explored over every probe
     */
    public record Result(long[] offsets, long arena, long provenLowerBound, long nodes) { }

    /** Told before each round of a probe: its capacity, the probes left at most, the incumbent's arena and the proven bound (bytes). */
    @FunctionalInterface
    public interface ProbeListener {
        void probing(long capacity, long probesLeft, long arena, long proven);
    }

    private CapacityProbes() { }

    /**
     * Lowers an incumbent.
     *
     * @param arena    the incumbent's arena in bytes (a valid placement's: the result is never above it)
     * @param proven   no placement is smaller, proven (at least the lower bound aligned up), bytes
     * @param deadline a {@link System#nanoTime()} value by which the probes end
     * @throws PlanningException when the calling thread is interrupted during a probe
     */
    public static Result lower(Problem p, long arena, long proven, long deadline, Budget budget, ProbeListener listener) {
        return probe(p, arena, Math.max(proven, alignUp(p.lowerBound(), p.alignment())), false, deadline, budget, listener);
    }

    /**
     * A first placement within {@code capacity} bytes (not lowered further): its offsets, or
     * null with the proven lower bound above the capacity when none fits, or within the capacity
     * when the nodes or the time ran out first.
     *
     * @param deadline a {@link System#nanoTime()} value by which the probes end
     * @throws PlanningException when the calling thread is interrupted during a probe
     */
    public static Result fit(Problem p, long capacity, long deadline, Budget budget, ProbeListener listener) {
        long unit = p.alignment();
        return probe(p, alignUp(capacity + 1, unit), alignUp(p.lowerBound(), unit), true, deadline, budget, listener);
    }

    /** One capacity under search. */
    private record Probe(long capacity, CapacitySearch search) { }

    /**
     * @param arena the smallest arena that would not improve (an incumbent's; {@code fit}: the
     *              capacity plus one, aligned up), bytes
     * @param first whether to stop at the first placement, searching the largest capacity below
     *              {@code arena} beside the smallest rather than the midpoint
     */
    private static Result probe(Problem p, long arena, long proven, boolean first, long deadline, Budget budget, ProbeListener listener) {
        long unit = p.alignment();
        long[] found = null;
        long nodes = 0;
        SearchInstance instance = null;   // built on the first probe, shared by the others
        Probe low = null, high = null;
        boolean turnOfLow = true;
        while (arena > proven && nodes < budget.nodeLimit() && System.nanoTime() - deadline < 0 && !(first && found != null)) {
            long top = arena - unit;   // the largest capacity that would improve (aligned: arenas and proven are)
            long second = first ? top : alignDown(proven + (top - proven) / 2, unit);
            try {
                if (instance == null) instance = new SearchInstance(p, deadline);
                if (low == null || low.capacity() != proven) low = new Probe(proven, search(instance, proven, deadline, budget));
                if (second <= proven) high = null;
                else if (high == null || high.capacity() != second) high = new Probe(second, search(instance, second, deadline, budget));
            } catch (SearchInstance.OutOfTime | SearchInstance.TooLarge e) {
                break;
            }
            Probe now = turnOfLow || high == null ? low : high;
            turnOfLow = now == high;
            listener.probing(now.capacity(), 1 + (64 - Long.numberOfLeadingZeros((top - proven) / unit + 1)), arena, proven);
            CapacitySearch search = now.search();
            long before = search.nodes();
            search.limitNodes(before + (budget.nodeLimit() - nodes));
            // alone (no capacity between it and the proven bound), a search runs to its end: on a
            // problem with no slack that is one PerfectFill run, whose table of refuted states
            // lasts through its restarts, rather than one afresh per round
            CapacitySearch.Result r = onBigStack(p, search, high == null ? CapacitySearch::run : CapacitySearch::round);
            nodes += search.nodes() - before;
            if (r == null) continue;   // the round ran out of its budget: the other's turn
            switch (r) {
                case FOUND -> {
                    found = search.solution();
                    arena = org.arenaplan.plan.Placement.arenaOf(p, found);
                }
                case INFEASIBLE -> proven = Math.max(proven, alignUp(now.capacity() + 1, unit));
                case TIMEOUT -> {
                    return new Result(found, arena, proven, nodes);
                }
            }
        }
        return new Result(found, arena, proven, nodes);
    }

    private static CapacitySearch search(SearchInstance instance, long capacity, long deadline, Budget budget) {
        CapacitySearch search = new CapacitySearch(instance, capacity, deadline);
        search.perfectMembers(budget.members());
        return search;
    }

    /**
     * Runs the search on a thread whose stack holds one frame chain per buffer. If the caller is
     * interrupted, the search is cancelled and a {@link PlanningException} is thrown.
     */
    static CapacitySearch.Result onBigStack(Problem p, CapacitySearch search) {
        return onBigStack(p, search, CapacitySearch::run);
    }

    /** {@code step} (a {@link CapacitySearch#round} or {@link CapacitySearch#run}) of the search on such a thread; its result may be null. */
    private static CapacitySearch.Result onBigStack(Problem p, CapacitySearch search, java.util.function.Function<CapacitySearch, CapacitySearch.Result> step) {
        AtomicReference<CapacitySearch.Result> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long stack = Math.max(16L << 20, 2048L * p.size());
        Thread t = new Thread(null, () -> {
            try {
                result.set(step.apply(search));
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
