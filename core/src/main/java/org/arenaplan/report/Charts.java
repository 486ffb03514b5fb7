package org.arenaplan.report;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Storage;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncText;
import org.arenaplan.plan.PeakExplanation;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.Problem;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a plan, or a bare problem and placement, into an {@link ArenaChart}: one box per storage
 * at its offset over its live interval, coloured by stream (several streams) or by
 * {@link Storage#kind()} (one stream), with a tooltip naming the tensors it holds.
 */
final class Charts {
    /** Tensor names listed in one tooltip before "+N more". */
    private static final int TOOLTIP_MEMBERS = 8;
    private static final String GRAPH_INPUT = "graph input";

    private Charts() { }

    static ArenaChart of(Plan plan) {
        Graph g = plan.graph();
        Problem p = plan.problem();
        boolean byStream = g.streams().size() > 1;
        List<Storage> storages = plan.storages();
        String[] classOf = new String[storages.size()];
        for (Storage s : storages) classOf[s.id()] = byStream ? streamClass(g, s) : s.kind();
        List<ArenaChart.Legend> legend = new ArrayList<>();
        Map<String, Integer> colourOf = new HashMap<>();
        Set<String> present = new HashSet<>(Arrays.asList(classOf));
        for (String cls : byStream ? streamOrder(classOf) : Palette.KINDS) {
            if (!present.contains(cls)) continue;
            colourOf.put(cls, legend.size());
            legend.add(new ArenaChart.Legend(cls, colourFor(cls, byStream)));
        }
        List<ArenaChart.Box> boxes = new ArrayList<>(storages.size());
        for (Storage s : storages) {
            int i = s.id();
            boxes.add(new ArenaChart.Box(p.lower(i), p.upper(i), plan.storageOffset(i), p.alignedSize(i), colourOf.get(classOf[i]), s.name()));
        }
        String title = g.name() + ": " + storages.size() + " storages, " + g.opCount() + " ops, planner " + plan.placement().planner();
        List<String> lanes = new ArrayList<>();
        List<ArenaChart.Event> events = new ArrayList<>();
        if (!plan.sync().events().isEmpty()) {
            List<Integer> streams = g.streams();
            for (int st : streams) lanes.add("stream " + st);
            for (SyncEvent e : plan.sync().events()) {
                events.add(new ArenaChart.Event(e.recordAfter(), streams.indexOf(g.ops().get(e.recordAfter()).stream()), e.waitBefore(),
                        streams.indexOf(g.ops().get(e.waitBefore()).stream()), e.reason() == SyncEvent.Reason.REUSE, SyncText.line(g, e)));
            }
        }
        return new ArenaChart(title, "schedule position", 0, g.opCount(), boxes,
                k -> tooltip(plan, storages.get(k), classOf[storages.get(k).id()]), legend, plan.stats().lowerBoundBytes(), plan.arenaBytes(), LiveCurve.of(p),
                storages.isEmpty() ? null : peak(PeakExplanation.of(plan), plan.problem()), lanes, events);
    }

    /** The peak column, its boxes, and a marker at each last reader that keeps one of them. */
    static ArenaChart.Peak peak(PeakExplanation x, Problem p) {
        java.util.Set<Integer> at = new java.util.HashSet<>();
        List<ArenaChart.Marker> readers = new ArrayList<>();
        for (PeakExplanation.Live l : x.live()) {
            at.add(l.storage());
            if (l.keeper() == PeakExplanation.Keeper.LAST_READER)
                readers.add(new ArenaChart.Marker(l.readerPosition(), l.offset(), p.alignedSize(l.storage()),
                        "'" + l.reader() + "' (#" + l.readerPosition() + ") is the last reader of " + l.name()
                                + (l.through().isEmpty() ? "" : " (through " + String.join(" -> ", l.through()) + ")")
                                + ": it keeps these bytes from being reused until it runs"));
        }
        String label = "peak " + (x.op() == null ? "at " + x.instant() : "#" + x.instant() + " '" + x.op() + "'");
        return new ArenaChart.Peak(x.instant(), label, at, readers);
    }

    static ArenaChart of(Problem p, Placement placement) {
        if (placement.offsets().length != p.size()) {
            throw new IllegalArgumentException("the placement has " + placement.offsets().length + " offsets for " + p.size() + " buffers");
        }
        List<ArenaChart.Box> boxes = new ArrayList<>(p.size());
        long start = p.size() == 0 ? 0 : Long.MAX_VALUE;
        long end = 0;
        for (int i = 0; i < p.size(); i++) {
            start = Math.min(start, p.lower(i));
            end = Math.max(end, p.upper(i));
            boxes.add(new ArenaChart.Box(p.lower(i), p.upper(i), placement.offset(i), p.alignedSize(i), 0, p.id(i)));
        }
        String title = p.size() + " buffers, planner " + placement.planner();
        return new ArenaChart(title, "time", start, end, boxes,
                i -> p.id(i) + "\n" + ByteUnits.exact(p.bytes(i)) + " at offset " + placement.offset(i) + "\nlive [" + p.lower(i) + ", " + p.upper(i) + ")", List.of(new ArenaChart.Legend("buffer", Palette.PLAIN)),
                p.lowerBound(), placement.arenaBytes(), LiveCurve.of(p), p.size() == 0 ? null : peak(PeakExplanation.of(p, placement), p), List.of(), List.of());
    }

    /** The stream of the storage's first writer; graph inputs have no writer. */
    private static String streamClass(Graph g, Storage s) {
        return s.writers().length == 0 ? GRAPH_INPUT : "stream " + g.ops().get(s.writers()[0]).stream();
    }

    private static List<String> streamOrder(String[] classes) {
        TreeMap<Integer, String> streams = new TreeMap<>();
        for (String c : classes) if (!c.equals(GRAPH_INPUT)) streams.put(streamOf(c), c);
        List<String> order = new ArrayList<>(streams.values());
        order.add(GRAPH_INPUT);
        return order;
    }

    private static int streamOf(String streamClass) {
        return Integer.parseInt(streamClass.substring("stream ".length()));
    }

    private static String colourFor(String cls, boolean byStream) {
        if (!byStream) return Palette.kindColour(cls);
        return cls.equals(GRAPH_INPUT) ? Palette.INPUT_GREY : Palette.streamColour(streamOf(cls));
    }

    private static String tooltip(Plan plan, Storage s, String cls) {
        long offset = plan.storageOffset(s.id());
        long alignedBytes = plan.problem().alignedSize(s.id());
        StringBuilder b = new StringBuilder(s.name()).append(" (").append(cls).append(")\n")
                .append(ByteUnits.exact(s.bytes())).append(" at offset ").append(offset);
        if (alignedBytes != s.bytes()) b.append(", occupies ").append(alignedBytes).append(" B aligned");
        b.append("\nlive [").append(s.start()).append(", ").append(s.end()).append(')');
        if (s.members().size() > 1) {
            b.append("\ntensors:");
            int shown = 0;
            for (Map.Entry<String, Long> m : s.members().entrySet()) {
                if (shown++ == TOOLTIP_MEMBERS) {
                    b.append(" +").append(s.members().size() - TOOLTIP_MEMBERS).append(" more");
                    break;
                }
                b.append(' ').append(m.getKey());
                if (m.getValue() != 0) b.append("@+").append(m.getValue());
            }
        }
        return b.toString();
    }
}
