package org.arenaplan.hb;

/** How the planner may order streams to reuse bytes. */
public enum SyncMode {
    /** Reuse bytes only where the data events already order the accesses. */
    NONE,
    /** The planner may add events (last reader's stream to next writer's stream) that save bytes. */
    ADD;

    /**
     * Parses {@code none} or {@code add}, as the command line spells them (any case).
     *
     * @throws IllegalArgumentException for any other word, naming the known ones
     */
    public static SyncMode parse(String s) {
        for (SyncMode m : values()) if (m.name().equalsIgnoreCase(s)) return m;
        throw new IllegalArgumentException("unknown sync mode '" + s + "'; known: none, add");
    }
}
