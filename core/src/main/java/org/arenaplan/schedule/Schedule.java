package org.arenaplan.schedule;

import org.arenaplan.ir.Graph;

/**
 * The order a plan uses and what it gained.
 *
 * @param graph           the graph in the chosen order (the input graph itself for the file order)
 * @param mode            what was asked
 * @param method          {@code file} (the file order kept: asked for, or nothing lower was found),
 *                        {@code exact} (proven least peak) or {@code heuristic} (best found in the time limit)
 * @param fileLowerBound  lower bound of the arena at the file order, bytes ({@link MemoryScheduler#lowerBound})
 * @param lowerBound      lower bound at the chosen order, bytes; never above {@code fileLowerBound}
 * @param provenOptimal   whether no order of the graph has a lower bound below {@code lowerBound}
 * @param planningMs      time spent choosing the order, ms
 */
public record Schedule(Graph graph, ScheduleMode mode, String method, long fileLowerBound, long lowerBound,
                       boolean provenOptimal, double planningMs) {

    /** Lower bound at the chosen order over the one at the file order; 1.0 when nothing was gained. */
    public double ratio() {
        return fileLowerBound == 0 ? 1.0 : (double) lowerBound / fileLowerBound;
    }

    /** One line for reports: {@code memory (exact, 3.1 ms): lower bound 1,024 B at the file order, 768 B at this order (x0.750)}. */
    public String summary() {
        return String.format(java.util.Locale.ROOT, "%s (%s%s, %.1f ms): lower bound %,d B at the file order, %,d B at this order (x%.3f)",
                mode.jsonName(), method, provenOptimal && !method.equals("exact") ? ", proven optimal" : "", planningMs,
                fileLowerBound, lowerBound, ratio());
    }
}
