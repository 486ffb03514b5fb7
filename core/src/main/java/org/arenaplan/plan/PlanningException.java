package org.arenaplan.plan;

/** A problem that cannot be planned as asked (bad sizes, no placement within a capacity...). */
public class PlanningException extends RuntimeException {
    public PlanningException(String message) {
        super(message);
    }
}
