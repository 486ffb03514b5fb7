package org.arenaplan.liveness;

import java.util.List;
import java.util.Map;

/**
 * One allocation in the arena: an alias root with every tensor that shares its bytes (views,
 * member slices, folded in-place results). It is live over the half-open schedule interval
 * {@code [start, end)}: from its first write to one past its last runtime read through any
 * member, or to {@code opCount} when it escapes (graph output) or is a caller-owned input.
 *
 * @param members    tensor name -> byte offset inside this storage
 * @param writers    schedule positions of ops that write any member, ascending
 * @param readers    schedule positions of ops that read any member at runtime, ascending
 */
public record Storage(int id, String name, long bytes, int start, int end,
                      Map<String, Long> members, int[] writers, int[] readers,
                      boolean graphInput, boolean donated, boolean graphOutput) {

    public Storage {
        members = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(members));
    }

    public List<String> memberNames() {
        return List.copyOf(members.keySet());
    }

    /** True when the caller owns these bytes past the run (a non-donated input or a graph output). */
    public boolean pinned() {
        return (graphInput && !donated) || graphOutput;
    }

    private static final String ACTIVATION = "activation";
    private static final String ALIASED = "aliased";
    private static final String OUTPUT = "output";
    private static final String INPUT = "input";
    private static final String DONATED_INPUT = "donated-input";

    /** Every value {@link #kind()} returns (the plan file's {@code kind}, read back by {@code validate}). */
    public static final List<String> KINDS = List.of(ACTIVATION, ALIASED, OUTPUT, INPUT, DONATED_INPUT);

    /** What the storage holds: one of {@link #KINDS}. */
    public String kind() {
        if (graphOutput) return OUTPUT;
        if (graphInput) return donated ? DONATED_INPUT : INPUT;
        if (members.size() > 1) return ALIASED;
        return ACTIVATION;
    }
}
