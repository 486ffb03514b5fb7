package org.arenaplan.schedule;

import java.util.Locale;

/** Which op order a plan uses: the graph file's, or one chosen to lower the peak of live bytes. */
public enum ScheduleMode {
    FILE, MEMORY;

    /** {@code file} or {@code memory}, any case. */
    public static ScheduleMode parse(String s) {
        for (ScheduleMode m : values()) if (m.name().equalsIgnoreCase(s.trim())) return m;
        throw new IllegalArgumentException("unknown schedule '" + s + "'; expected file or memory");
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
