package org.arenaplan.plan;

/**
 * Places every buffer of a problem at a fixed offset so that conflicting buffers share no byte.
 * Implementations are deterministic: the same problem gives the same placement.
 */
public interface Planner {
    String name();

    Placement place(Problem problem);

    /**
     * What a running {@link #place} is doing now, in a few words for a progress display (for
     * the search planner: its phase, round or probe, and the incumbent against the lower bound);
     * empty where the planner does not say. Safe to call from another thread while
     * {@code place} runs.
     */
    default String progressNote() {
        return "";
    }
}
