package org.arenaplan.models;

import org.arenaplan.ir.Graph;

import java.util.Map;

/** One built-in model: its name, a one-line summary, its options with defaults, and its graph. */
interface Model {
    String name();

    String summary();

    /** Option name (without dashes) to default value, in the order help lists them; {@code dtype} is added by {@link BuiltinModels}. */
    Map<String, String> defaults();

    Graph build(ModelOptions options);
}
