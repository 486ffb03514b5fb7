package org.arenaplan.hb;

import java.util.List;

/** The events a multi-stream run records and waits on. Empty for one stream. */
public record SyncPlan(List<SyncEvent> events) {
    public static final SyncPlan NONE = new SyncPlan(List.of());

    public SyncPlan {
        events = List.copyOf(events);
    }
}
