package org.arenaplan.hb;

import java.util.List;

/**
 * The events a multi-stream run records and waits on. Empty for one stream.
 *
 * @param events     the events, data and reuse
 * @param roundsCut  true when {@code --sync add}'s search for reuse events was cut, or never ran,
 *                   because the time limit had passed (a plan that could have had more of them)
 */
public record SyncPlan(List<SyncEvent> events, boolean roundsCut) {
    public static final SyncPlan NONE = new SyncPlan(List.of());

    public SyncPlan {
        events = List.copyOf(events);
    }

    /** Events whose search (if any) was not cut. */
    public SyncPlan(List<SyncEvent> events) {
        this(events, false);
    }
}
