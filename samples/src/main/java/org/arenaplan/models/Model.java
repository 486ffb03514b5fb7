package org.arenaplan.models;

import org.arenaplan.ir.Graph;

import java.util.Map;

/** One built-in model: its name, a one-line summary, its options with defaults, and its graph. */
interface Model {
    String name();

    String summary();

    /** Option name (without dashes) to default value, in the order help lists them; {@code dtype} is added by {@link BuiltinModels}. */
    Map<String, String> defaults();

    /**
     * The largest value of each count option that repeats a part of the graph (layers, blocks,
     * nodes...): past it the graph would take minutes and gigabytes to build and plan, so the
     * option is refused up front, naming it. Options not listed may go up to 2^31-1 (a byte size
     * they make that overflows a long is refused when the graph is built).
     */
    default Map<String, Integer> limits() {
        return Map.of();
    }

    Graph build(ModelOptions options);
}
