package org.arenaplan.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The planners by name, as the command line and plan files spell them. */
public final class Planners {
    private static final Map<String, Function<PlannerOptions, Planner>> BY_NAME = new LinkedHashMap<>();

    static {
        register("best", o -> new BestPlanner(o.timeLimit()));
        register("greedy-size", o -> new GreedySizePlanner(o.timeLimit()));
        register("greedy-breadth", o -> new GreedyBreadthPlanner(o.timeLimit()));
        register("naive", o -> new NaivePlanner());
        register("search", org.arenaplan.plan.search.SearchPlanner::new);
    }

    private Planners() { }

    /** Adds a planner (used by modules that bring their own). */
    public static synchronized void register(String name, Function<PlannerOptions, Planner> factory) {
        BY_NAME.put(name, factory);
    }

    public static synchronized List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** As {@link #byName(String, PlannerOptions)} with the default options. */
    public static Planner byName(String name) {
        return byName(name, PlannerOptions.DEFAULT);
    }

    /**
     * A new planner of that name ({@link #names()}).
     *
     * @throws PlanningException for an unknown name, listing the known ones
     */
    public static synchronized Planner byName(String name, PlannerOptions options) {
        Function<PlannerOptions, Planner> f = BY_NAME.get(name);
        if (f == null) throw new PlanningException("unknown planner '" + name + "'; known: " + String.join(", ", BY_NAME.keySet()));
        return f.apply(options);
    }
}
