package org.arenaplan.plan;

import java.time.Duration;

/**
 * Knobs that planners use: a capacity the arena must fit in (null: minimise; used by search)
 * and a time limit (null: none) that every planner but {@code naive} honours: past it, search
 * returns its best placement so far and the greedy heuristics stack what they have not placed
 * (see {@link GreedyPlacer}). The default limit is 10 s.
 */
public record PlannerOptions(Long capacity, Duration timeLimit) {
    public static final PlannerOptions DEFAULT = new PlannerOptions(null, Duration.ofSeconds(10));

    public PlannerOptions withCapacity(Long c) {
        return new PlannerOptions(c, timeLimit);
    }

    public PlannerOptions withTimeLimit(Duration d) {
        return new PlannerOptions(capacity, d);
    }
}
