package org.arenaplan.plan.search;

import org.arenaplan.plan.Placement;

/**
 * What a {@link SearchPlanner} run found.
 *
 * @param status      how the run ended
 * @param placement   the best placement found; never null, and never worse than the {@code best} planner's
 *                    heuristics' ({@link org.arenaplan.plan.BestPlanner#heuristicsOnly()}) when they finished
 *                    within the time limit (past the limit they are cut short too).
 *                    With a capacity it may exceed it: see {@link #fits()}
 * @param capacity    the capacity asked for, or null when the arena was minimised
 * @param lowerBound  no valid placement has a smaller arena: the most bytes live at once, or a
 *                    capacity the search refuted plus one alignment unit
 * @param nodes       search nodes explored, over all probes and restarts
 */
public record SearchOutcome(SearchStatus status, Placement placement, Long capacity, long lowerBound, long nodes) {

    /** True when the placement satisfies the capacity (always true when none was asked). */
    public boolean fits() {
        return capacity == null || placement.arenaBytes() <= capacity;
    }
}
