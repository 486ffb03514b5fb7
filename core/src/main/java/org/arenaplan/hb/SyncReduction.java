package org.arenaplan.hb;

import org.arenaplan.ir.Graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Drops the events that the others already imply, keeping happens-before exactly as it was.
 * Needed once events are added for reuse: an added event can make a data event redundant.
 *
 * <p>Steps, for each op p in schedule order, over the events waited before p:
 * <ol>
 *   <li>drop an event whose recorder p's stream already knows complete (earlier events and
 *       stream order);</li>
 *   <li>drop an event whose recorder another kept event's recorder completes after (per
 *       stream only the latest recorder can matter; among equal ones a DATA event is kept);</li>
 *   <li>keep the rest, in their order, and renumber all kept events 0, 1, ... .</li>
 * </ol>
 * Every dropped event's order still holds through the kept ones, so the happens-before of the
 * result equals that of the input. Per op, greedy: not a global minimum.
 */
public final class SyncReduction {
    private SyncReduction() { }

    public static List<SyncEvent> reduce(Graph g, List<SyncEvent> events) {
        HappensBefore.of(g, events);   // refuses malformed events with a clear message
        List<List<SyncEvent>> at = new ArrayList<>();
        for (int p = 0; p < g.opCount(); p++) at.add(new ArrayList<>(0));
        for (SyncEvent e : events) at.get(e.waitBefore()).add(e);
        HappensBefore.Builder clocks = new HappensBefore.Builder(g);
        List<SyncEvent> kept = new ArrayList<>();
        for (int p = 0; p < g.opCount(); p++) {
            List<SyncEvent> here = new ArrayList<>();
            for (SyncEvent e : at.get(p)) {
                int q = e.recordAfter();
                if (clocks.lane(q) == clocks.lane(p) || clocks.knownComplete(p, clocks.lane(q)) >= q) continue;
                here.add(e);
            }
            here.sort(Comparator.comparingInt(SyncEvent::recordAfter).reversed().thenComparing(e -> e.reason() != SyncEvent.Reason.DATA));
            List<SyncEvent> chosen = new ArrayList<>();
            for (SyncEvent e : here) {
                boolean implied = false;
                for (SyncEvent c : chosen) {
                    if (clocks.completedWith(c.recordAfter(), clocks.lane(e.recordAfter())) >= e.recordAfter()) implied = true;
                }
                if (!implied) chosen.add(e);
            }
            for (SyncEvent e : at.get(p)) {
                if (!chosen.contains(e)) continue;
                kept.add(new SyncEvent(kept.size(), e.recordAfter(), p, e.reason(), e.bytesSaved()));
                clocks.waitFor(p, e.recordAfter());
            }
            clocks.issue(p);
        }
        return kept;
    }
}
