package org.arenaplan.hb;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Op;

/** One readable line per event, for reports and the command line. */
public final class SyncText {
    private SyncText() { }

    /**
     * For example {@code event 18: after 'b0_2_2' (#10, stream 2) -> before 'b0_3_0' (#13, stream 3), REUSE, saves 1,048,576 B}.
     */
    public static String line(Graph g, SyncEvent e) {
        Op from = g.ops().get(e.recordAfter());
        Op to = g.ops().get(e.waitBefore());
        return String.format(java.util.Locale.ROOT, "event %d: after '%s' (#%d, stream %d) -> before '%s' (#%d, stream %d), %s%s", e.id(), from.name(),
                e.recordAfter(), from.stream(), to.name(), e.waitBefore(), to.stream(), e.reason(),
                e.reason() == SyncEvent.Reason.REUSE ? String.format(java.util.Locale.ROOT, ", saves %,d B", e.bytesSaved()) : "");
    }
}
