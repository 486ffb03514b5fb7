package org.arenaplan.plan;

/**
 * Places every buffer of a problem at a fixed offset so that conflicting buffers share no byte.
 * Implementations are deterministic: the same problem gives the same placement.
 */
public interface Planner {
    String name();

    Placement place(Problem problem);
}
