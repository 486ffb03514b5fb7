package org.arenaplan.plan.search;

import org.arenaplan.plan.BestPlanner;
import org.arenaplan.plan.ExactFinish;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Planner;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.SqueakyWheel;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The {@code search} planner: tight placement by exact search, started from the {@code best}
 * heuristics and never worse than them.
 *
 * <p>Steps:
 * <ol>
 *   <li>Run {@link BestPlanner}'s heuristics ({@link BestPlanner#heuristicsOnly()}: without its
 *       node-limited exact step, as the steps below search further): the incumbent. The lower
 *       bound is the most bytes live at once.</li>
 *   <li>With a capacity: the incumbent answers if it fits; a lower bound above the capacity
 *       proves it infeasible (as does a capacity the exact search refutes), and the arena is then
 *       minimised as without one (step 3), so the placement returned is this planner's smallest;
 *       otherwise {@link SqueakyWheel} tries to reach the capacity by
 *       reordering the greedy placer, and if it stalls the exact search decides
 *       ({@link CapacityProbes#fit}: the capacity and the lower bound searched in turns, since a
 *       placement within the lower bound fits too, and the search of one capacity can stall
 *       where a smaller one is found at once). A placement within the capacity is then lowered
 *       further as {@code best}'s last step lowers its own ({@link ExactFinish}: capacities from
 *       the lower bound up to the arena found, within that step's node limit and the time
 *       limit, on problems of at most {@value ExactFinish#MAX_BUFFERS} buffers and no extra
 *       conflicts): the capacity is a ceiling, not a target, so a fit with slack left below it
 *       is not the answer when a smaller one is found within that budget.</li>
 *   <li>Without one: {@link SqueakyWheel} lowers the incumbent towards the lower bound until it
 *       stalls (it is what reaches the bound on traces of tens of thousands of buffers, where
 *       the exact search thrashes); then {@link CapacityProbes#lower} searches the smallest
 *       capacity not refuted (the lower bound first, usually the optimum) and the midpoint
 *       between it and the incumbent's arena in turns. A search that finds a placement lowers
 *       the incumbent to that placement's arena; one that is refuted raises the proven lower
 *       bound. It stops when the incumbent meets the proven bound (optimal) or the time is
 *       spent.</li>
 * </ol>
 *
 * <p>Does not guarantee: an answer within the time limit (then the best placement found comes
 * back with a timeout status and {@code provenOptimal=false}). The search recurses once per
 * buffer, so it runs on its own thread with a stack sized to the problem.
 */
public final class SearchPlanner implements Planner {
    private final Long capacity;
    private final Duration timeLimit;
    private final long nodeLimit;
    private final int threads;
    /**
     * {@link #progressNote()}: set by the thread running {@link #solve}, read by any; formatted
     * only when read, so the planning thread pays nothing for it (the first String.format of a
     * JVM costs tens of milliseconds, which once fell just after the deadline).
     */
    private volatile Supplier<String> note = () -> "";

    /** @param options capacity (null: minimise the arena) and time limit (null: none) */
    public SearchPlanner(PlannerOptions options) {
        this(options, Long.MAX_VALUE);
    }

    /**
     * @param options   capacity (null: minimise the arena) and time limit (null: none)
     * @param nodeLimit the most exact-search nodes, over every capacity probed ({@link Long#MAX_VALUE}:
     *                  no limit); past it the search stops as at the time limit, with a timeout
     *                  status. Node counts do not depend on the machine's load, so a bench run
     *                  with a node limit gives the same answers on a busy machine as on a quiet one
     *                  (as long as the time limit is not reached first). A problem with no slack
     *                  is searched by {@link #defaultThreads()} threads, each with this limit.
     * @throws PlanningException when the capacity is negative or the node limit below 1
     */
    public SearchPlanner(PlannerOptions options, long nodeLimit) {
        this(options, nodeLimit, PerfectPortfolio.defaultMembers());
    }

    /**
     * @param options   capacity (null: minimise the arena) and time limit (null: none)
     * @param nodeLimit as in {@link #SearchPlanner(PlannerOptions, long)}; on a problem with no slack
     *                  it bounds the nodes of each thread of the portfolio on its own, and
     *                  {@link SearchOutcome#nodes()} counts those of every thread
     * @param threads   how many exact searches of a problem with no slack (a perfect packing) run at
     *                  once, with different orders, the first answer winning ({@code PerfectPortfolio});
     *                  the default is {@link #defaultThreads()}
     * @throws PlanningException when the capacity is negative, the node limit or the threads below 1
     */
    public SearchPlanner(PlannerOptions options, long nodeLimit, int threads) {
        if (nodeLimit < 1) throw new PlanningException("node limit must be at least 1, got " + nodeLimit);
        if (threads < 1) throw new PlanningException("threads must be at least 1, got " + threads);
        this.threads = threads;
        this.nodeLimit = nodeLimit;
        this.capacity = options.capacity();
        this.timeLimit = options.timeLimit();
        if (capacity != null && capacity < 0) throw new PlanningException("capacity must not be negative, got " + capacity);
    }

    /** How many exact searches of a problem with no slack run at once by default: one per available processor, at most 4. */
    public static int defaultThreads() {
        return PerfectPortfolio.defaultMembers();
    }

    @Override
    public String name() {
        return "search";
    }

    /** The best placement found; {@link #solve} tells whether it fits the capacity and whether it is proven. */
    @Override
    public Placement place(Problem problem) {
        return solve(problem).placement();
    }

    /** The phase (heuristics, squeaky-wheel round, capacity probe) and the incumbent's arena against the lower bound. */
    @Override
    public String progressNote() {
        return note.get();
    }

    /** The best placement found by the earlier of {@code deadline} and the planner's own limit. */
    @Override
    public Placement place(Problem problem, long deadline) {
        return solve(problem, deadline).placement();
    }

    public SearchOutcome solve(Problem problem) {
        return solve(problem, Long.MAX_VALUE);
    }

    /**
     * @param deadline a {@link System#nanoTime()} value, or {@link Long#MAX_VALUE} for none: the
     *                 search ends by it or by its own time limit, whichever comes first
     */
    public SearchOutcome solve(Problem problem, long deadline) {
        long own = deadline();
        if (deadline == Long.MAX_VALUE || own - deadline < 0) deadline = own;
        long began = System.nanoTime();
        long lb = problem.lowerBound();
        BestPlanner heuristics = BestPlanner.heuristicsOnly();
        note = () -> "best heuristics (" + heuristics.progressNote() + "), lower bound " + lb + " B";
        Placement best = heuristics.place(problem, deadline);
        long roundGuess = roundGuess(System.nanoTime() - began);
        // best cut at the deadline stacked what it had not placed: say so until something replaces it
        Placement incumbent = new Placement(best.offsets(), best.arenaBytes(), Placement.label(name(), " (", ")", best.cut()),
                best.arenaBytes() <= lb, best.cut());
        note = () -> "best heuristics: " + versus(best.arenaBytes(), lb);
        return capacity != null ? fitWithin(problem, incumbent, lb, deadline, roundGuess)
                : minimise(problem, incumbent, CapacityProbes.alignUp(lb, problem.alignment()), deadline, roundGuess);
    }

    private SearchOutcome fitWithin(Problem p, Placement incumbent, long lb, long deadline, long roundGuess) {
        if (incumbent.arenaBytes() <= capacity) return lowered(p, incumbent, lb, lb, deadline, 0);
        if (lb > capacity) return infeasible(minimise(p, incumbent, CapacityProbes.alignUp(lb, p.alignment()), deadline, roundGuess), 0);
        incumbent = squeak(p, incumbent, capacity, deadline, roundGuess);
        if (incumbent.arenaBytes() <= capacity) return lowered(p, incumbent, lb, lb, deadline, 0);
        long arena = incumbent.arenaBytes();
        CapacityProbes.Result r = CapacityProbes.fit(p, capacity, deadline, new CapacityProbes.Budget(nodeLimit, threads),
                (cap, probesLeft, a, bound) -> note = () -> "exact search for capacity " + capacity + " B, probing " + cap + " B; incumbent " + versus(arena, lb));
        if (r.offsets() != null) return lowered(p, Placement.of(p, r.offsets(), name()), lb, r.provenLowerBound(), deadline, r.nodes());
        long bound = outcomeBound(p, r.provenLowerBound(), lb);
        if (bound > capacity) return infeasible(minimise(p, incumbent, bound, deadline, roundGuess), r.nodes());
        return new SearchOutcome(SearchStatus.TIMEOUT_NOT_FOUND, incumbent, capacity, bound, r.nodes());
    }

    /**
     * The capacity is proven out of reach; the placement is still the smallest this planner
     * finds ({@code minimised}, searched as without a capacity), so that what is reported beside
     * the refusal (arena, fragmentation, "by search") is search's answer, not its starting point.
     */
    private SearchOutcome infeasible(SearchOutcome minimised, long nodes) {
        return new SearchOutcome(SearchStatus.INFEASIBLE_PROVEN, minimised.placement(), capacity, minimised.lowerBound(), nodes + minimised.nodes());
    }

    /**
     * A placement within the capacity, found after {@code nodes} exact-search nodes, lowered by
     * {@link ExactFinish}'s probes where that step applies: at most its node limit (and what is
     * left of this planner's), one thread, so deterministic unless the deadline passes first.
     * The outcome's lower bound is {@code proven} (no placement is smaller: a capacity the fit's
     * probes refuted, plus one unit) or a capacity the lowering refuted, plus one unit, where
     * that is above the lower bound aligned up, else the lower bound; the placement is proven
     * optimal where it meets that bound.
     */
    private SearchOutcome lowered(Problem p, Placement fit, long lb, long proven, long deadline, long nodes) {
        long limit = Math.min(ExactFinish.nodeLimit(p.size()), nodeLimit - nodes);
        Placement out = fit;
        if (limit >= 1 && !fit.cut() && ExactFinish.applies(p, fit.arenaBytes()) && fit.arenaBytes() > proven) {
            CapacityProbes.Result r = CapacityProbes.lower(p, fit.arenaBytes(), proven, deadline, new CapacityProbes.Budget(limit, 1),
                    (cap, probesLeft, arena, bound) -> note = () -> "fits capacity " + capacity + " B; probing " + cap + " B (" + probesLeft + " probe(s) left at most); incumbent " + versus(arena, bound));
            if (r.offsets() != null) out = Placement.of(p, r.offsets(), name());
            proven = r.provenLowerBound();
            nodes += r.nodes();
        }
        out = new Placement(out.offsets(), out.arenaBytes(), out.planner(), out.provenOptimal() || out.arenaBytes() <= proven, out.cut());
        long bound = outcomeBound(p, proven, lb);
        return new SearchOutcome(SearchStatus.FOUND_WITHIN_CAPACITY, out, capacity, bound, nodes);
    }

    /** The outcome's lower bound: {@code proven} (a refuted capacity plus one unit) where it is above the lower bound {@code lb} aligned up, else {@code lb} (bytes). */
    private static long outcomeBound(Problem p, long proven, long lb) {
        return proven > CapacityProbes.alignUp(lb, p.alignment()) ? proven : lb;
    }

    /** @param proven no placement is smaller than this, proven: the lower bound aligned up, or a refuted capacity plus one unit */
    private SearchOutcome minimise(Problem p, Placement incumbent, long proven, long deadline, long roundGuess) {
        if (incumbent.arenaBytes() > proven) incumbent = squeak(p, incumbent, proven, deadline, roundGuess);
        CapacityProbes.Result r = CapacityProbes.lower(p, incumbent.arenaBytes(), proven, deadline, new CapacityProbes.Budget(nodeLimit, threads),
                (cap, probesLeft, arena, bound) -> note = () -> "probing capacity " + cap + " B (" + probesLeft + " probe(s) left at most); incumbent " + versus(arena, bound));
        if (r.offsets() != null) incumbent = Placement.of(p, r.offsets(), name());
        boolean optimal = incumbent.arenaBytes() <= r.provenLowerBound();
        Placement out = new Placement(incumbent.offsets(), incumbent.arenaBytes(), incumbent.planner(), optimal, incumbent.cut());
        return new SearchOutcome(optimal ? SearchStatus.OPTIMAL : SearchStatus.TIMEOUT_BEST_EFFORT, out, null, r.provenLowerBound(), r.nodes());
    }

    /** Rounds of {@link SqueakyWheel} without a smaller arena after which the exact search takes over. */
    private static final int SQUEAKY_STALL_ROUNDS = 16;

    /**
     * How long one {@link SqueakyWheel} round (one greedy run) should take: {@link BestPlanner} ran
     * its heuristics in parallel in {@code bestNanos}, so its time times the share of its runs one
     * core did.
     */
    private static long roundGuess(long bestNanos) {
        int runs = BestPlanner.heuristics().size();
        return bestNanos * Math.min(runs, Runtime.getRuntime().availableProcessors()) / runs;
    }

    /** The incumbent, or the smaller placement {@link SqueakyWheel} finds aiming at {@code target}. */
    private Placement squeak(Problem p, Placement incumbent, long target, long deadline, long roundGuess) {
        long lb = p.lowerBound();
        SqueakyWheel.Result r = SqueakyWheel.improve(p, incumbent.offsets(), target, deadline, SQUEAKY_STALL_ROUNDS, roundGuess,
                (rounds, arena, bestArena) -> note = () -> "squeaky-wheel round " + rounds + ": best " + versus(Math.min(bestArena, incumbent.arenaBytes()), lb));
        return r.arena() < incumbent.arenaBytes() ? Placement.of(p, r.offsets(), name()) : incumbent;
    }

    /** "A B (r x lower bound)". */
    private static String versus(long arena, long lb) {
        return arena + " B (" + (lb == 0 ? "lower bound 0" : String.format(java.util.Locale.ROOT, "%.5f x lower bound", (double) arena / lb)) + ")";
    }

    private long deadline() {
        long now = System.nanoTime();
        if (timeLimit == null) return now + Long.MAX_VALUE / 2;
        long nanos = timeLimit.toNanos();
        return nanos > Long.MAX_VALUE / 2 ? now + Long.MAX_VALUE / 2 : now + nanos;
    }
}
