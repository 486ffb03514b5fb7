package org.arenaplan.plan;

import java.time.Duration;

/**
 * Knobs that some planners use: a capacity the arena must fit in (null: minimise) and a time
 * limit for search.
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
