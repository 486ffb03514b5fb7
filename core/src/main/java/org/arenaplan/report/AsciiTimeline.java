package org.arenaplan.report;

import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A plan as plain text for a terminal: a summary line, then one row per storage (highest offset
 * first, as in the picture) with its bytes, offset and a bar marking its live interval over the
 * schedule. One column per schedule position when they fit in {@link #MAX_COLUMNS}, otherwise
 * each column covers several positions and is marked when the storage is live in any of them.
 * Only the {@link #MAX_ROWS} largest storages get a row; the last line says how many are left out.
 */
final class AsciiTimeline {
    static final int MAX_COLUMNS = 64;
    static final int MAX_ROWS = 40;

    private AsciiTimeline() { }

    static String render(Plan plan) {
        PlanStats s = plan.stats();
        StringBuilder b = new StringBuilder();
        b.append(plan.graph().name()).append(": arena ").append(ByteUnits.format(s.arenaBytes()))
                .append(", lower bound ").append(ByteUnits.format(s.lowerBoundBytes()))
                .append(", sum ").append(ByteUnits.format(s.sumBytes()))
                .append(" (").append(s.storages()).append(" storages, planner ").append(s.planner()).append(")\n");
        List<Storage> shown = new ArrayList<>(plan.storages());
        shown.sort(Comparator.comparingLong((Storage st) -> plan.problem().alignedSize(st.id())).reversed());
        int hidden = Math.max(0, shown.size() - MAX_ROWS);
        shown = new ArrayList<>(shown.subList(0, shown.size() - hidden));
        shown.sort(Comparator.comparingLong((Storage st) -> plan.storageOffset(st.id())).reversed()
                .thenComparingInt(Storage::start));
        int span = Math.max(1, plan.graph().opCount());
        int columns = Math.min(span, MAX_COLUMNS);
        int nameWidth = 7;
        for (Storage st : shown) nameWidth = Math.max(nameWidth, Math.min(24, st.name().length()));
        b.append(pad("storage", nameWidth)).append("  ").append(pad("bytes", 10)).append(pad("offset", 10))
                .append(" 0").append(" ".repeat(Math.max(1, columns - String.valueOf(span).length()))).append(span).append('\n');
        for (Storage st : shown) {
            String name = st.name().length() > nameWidth ? st.name().substring(0, nameWidth - 1) + "~" : st.name();
            b.append(pad(name, nameWidth)).append("  ").append(pad(ByteUnits.format(st.bytes()), 10))
                    .append(pad(ByteUnits.format(plan.storageOffset(st.id())), 10)).append('|');
            for (int c = 0; c < columns; c++) {
                long from = (long) c * span / columns;
                long to = (long) (c + 1) * span / columns;   // column c covers positions [from, to)
                b.append(st.start() < to && from < st.end() ? '#' : ' ');
            }
            b.append("|\n");
        }
        if (hidden > 0) b.append("... ").append(hidden).append(" smaller storages not shown\n");
        return b.toString();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
