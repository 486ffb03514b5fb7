package org.arenaplan.plan;

/**
 * Places every buffer of a problem at a fixed offset so that conflicting buffers share no byte.
 * Implementations are deterministic: the same problem gives the same placement.
 */
public interface Planner {
    /** The name {@code --planner} and {@link Planners#byName} take. */
    String name();

    /**
     * A placement of every buffer of {@code problem}: an offset in bytes from the arena's base per
     * buffer (index i is buffer i), a multiple of the problem's alignment; conflicting buffers share
     * no byte. Each planner's class comment gives its steps and its cost in time and memory.
     */
    Placement place(Problem problem);

    /**
     * As {@link #place(Problem)}, returning by the earlier of {@code deadline} and the planner's
     * own time limit, with a valid placement (cut short where the planner says so in its label).
     * For callers that plan several times under one limit ({@link StreamPlanner}). The default
     * ignores the deadline: for planners whose work is too small to cut ({@code naive}).
     *
     * @param deadline a {@link System#nanoTime()} value, or {@link Long#MAX_VALUE} for none
     */
    default Placement place(Problem problem, long deadline) {
        return place(problem);
    }

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
