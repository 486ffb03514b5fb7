package org.arenaplan.plan.search;

import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Planner;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Problem;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * A heuristic planner asked to fit a capacity, which hands the problem to {@link SearchPlanner}
 * when its own arena misses: what {@code plan --capacity C} does for every planner but
 * {@code search}.
 *
 * <p>Steps: run the heuristic; if its arena fits, or the lower bound (most bytes live at once)
 * already exceeds the capacity so that nothing can fit, return it; otherwise say so through
 * {@code note} and run {@link SearchPlanner} with the same capacity and time limit, returning
 * its placement when it fits (or is smaller) and the heuristic's otherwise. Cost: the
 * heuristic's, plus at most the time limit when it misses.
 */
public final class CapacityFallback implements Planner {
    private final Planner heuristic;
    private final PlannerOptions options;
    private final Consumer<String> note;
    private SearchOutcome lastSearch;

    /**
     * @param options the capacity (must not be null) and the search's time limit
     * @param note    receives one line when the search is started and one with its outcome
     */
    public CapacityFallback(Planner heuristic, PlannerOptions options, Consumer<String> note) {
        if (options.capacity() == null) throw new IllegalArgumentException("a capacity fallback needs a capacity");
        this.heuristic = heuristic;
        this.options = options;
        this.note = note;
    }

    @Override
    public String name() {
        return heuristic.name();
    }

    /** The outcome of the last search this fallback ran, or null when the heuristic's arena answered. */
    public SearchOutcome lastSearch() {
        return lastSearch;
    }

    @Override
    public Placement place(Problem problem) {
        lastSearch = null;
        Placement first = heuristic.place(problem);
        long capacity = options.capacity();
        if (first.arenaBytes() <= capacity || problem.lowerBound() > capacity) return first;
        note.accept(String.format(Locale.ROOT, "%s's arena of %,d B misses the capacity of %,d B; trying --planner search for up to %s s (--time-limit)",
                first.planner(), first.arenaBytes(), capacity, seconds()));
        SearchOutcome s = new SearchPlanner(options).solve(problem);
        lastSearch = s;
        note.accept(String.format(Locale.ROOT, "search: %s, arena %,d B", describe(s.status()), s.placement().arenaBytes()));
        return s.placement().arenaBytes() < first.arenaBytes() ? s.placement() : first;
    }

    private String seconds() {
        return options.timeLimit() == null ? "unlimited" : String.format(Locale.ROOT, "%.3g", options.timeLimit().toMillis() / 1000.0);
    }

    static String describe(SearchStatus status) {
        return switch (status) {
            case FOUND_WITHIN_CAPACITY -> "found a placement within the capacity";
            case INFEASIBLE_PROVEN -> "proved that no placement fits the capacity";
            case TIMEOUT_NOT_FOUND -> "ran out of time without finding or refuting a placement within the capacity";
            case OPTIMAL, TIMEOUT_BEST_EFFORT -> status.name().toLowerCase(Locale.ROOT);
        };
    }
}
