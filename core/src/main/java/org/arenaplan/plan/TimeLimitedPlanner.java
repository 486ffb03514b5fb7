package org.arenaplan.plan;

import java.time.Duration;

/**
 * A planner with a time limit of its own: every {@link #place} returns by the earlier of that
 * limit, counted from the call, and the deadline given. The limit is stated here once for
 * {@code greedy-size}, {@code greedy-breadth} and {@code best}.
 */
abstract class TimeLimitedPlanner implements Planner {
    private final Duration timeLimit;

    /** @param timeLimit how long one {@link #place} may take, or null for no limit */
    TimeLimitedPlanner(Duration timeLimit) {
        this.timeLimit = timeLimit;
    }

    @Override
    public final Placement place(Problem problem) {
        return place(problem, GreedyPlacer.NO_DEADLINE);
    }

    /**
     * @param deadline a {@link System#nanoTime()} value by which to return (the work cut short
     *                 there; the planner's own limit, if earlier, cuts it first), or
     *                 {@link GreedyPlacer#NO_DEADLINE}
     */
    @Override
    public final Placement place(Problem problem, long deadline) {
        return placeBy(problem, GreedyPlacer.earlier(deadline, GreedyPlacer.deadlineAfter(timeLimit)));
    }

    /** Places every buffer, returning by {@code deadline} (a {@link System#nanoTime()} value). */
    abstract Placement placeBy(Problem problem, long deadline);
}
