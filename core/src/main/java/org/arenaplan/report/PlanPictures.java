package org.arenaplan.report;

import org.arenaplan.ir.Graph;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.Violation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Pictures of a plan: x = schedule position, y = byte offset, one rectangle per storage, with
 * the lower bound, the arena top and the live-bytes curve (see {@link ArenaSvg}). Storages are
 * coloured by the stream of their first writer when the graph uses several streams, otherwise
 * by {@link Storage#kind()}. The HTML page adds the stats, the validator's verdict and every
 * refused in-place or donation request.
 */
public final class PlanPictures {
    /** Tensor names listed in one tooltip before "+N more". */
    private static final int TOOLTIP_MEMBERS = 8;

    private PlanPictures() { }

    public static String svg(Plan plan) {
        return ArenaSvg.render(chartOf(plan));
    }

    /** A placement of a CSV problem, which has no graph: one colour, buffers by id. */
    public static String svg(Problem problem, Placement placement) {
        return ArenaSvg.render(chartOf(problem, placement));
    }

    public static String html(Plan plan) {
        PlanStats s = plan.stats();
        List<Violation> violations = PlanValidator.validate(plan);
        String name = plan.graph().name();
        List<HtmlPage.Row> table = new ArrayList<>(headline(s.arenaBytes(), s.lowerBoundBytes(), s.sumBytes()));
        table.add(new HtmlPage.Row("planner", s.planner()));
        table.add(new HtmlPage.Row("storages", Integer.toString(s.storages())));
        table.add(new HtmlPage.Row("arena tensors", Integer.toString(s.tensors())));
        table.add(new HtmlPage.Row("ops", Integer.toString(plan.graph().opCount())));
        table.add(new HtmlPage.Row("streams", Integer.toString(plan.graph().streams().size())));
        table.add(new HtmlPage.Row("sync events", Integer.toString(plan.sync().events().size())));
        table.add(new HtmlPage.Row("alignment", plan.alignment() + " B"));
        table.add(new HtmlPage.Row("allocator calls per run, naive", Long.toString(s.allocCallsNaive())));
        table.add(new HtmlPage.Row("allocator calls per run, planned", Long.toString(s.allocCallsPlanned())));
        table.add(new HtmlPage.Row("planning", String.format(Locale.ROOT, "%.1f ms", s.planningMs())));
        table.add(new HtmlPage.Row("validator", verdict(violations)));
        List<String> notes = new ArrayList<>();
        for (Refusal r : plan.refusals()) notes.add(r.toString());
        for (Violation v : violations) notes.add(v.toString());
        List<HtmlPage.Row> head = new ArrayList<>(headline(s.arenaBytes(), s.lowerBoundBytes(), s.sumBytes()));
        head.add(new HtmlPage.Row("storages", Integer.toString(s.storages())));
        head.add(new HtmlPage.Row("allocator calls per run (naive → planned)", s.allocCallsNaive() + " → " + s.allocCallsPlanned()));
        head.add(new HtmlPage.Row("planner", s.planner()));
        return HtmlPage.render("arenaplan: " + name, head, svg(plan), table, "Refused requests and violations", notes);
    }

    public static String html(Problem problem, Placement placement) {
        List<Violation> violations = PlacementValidator.validate(problem, placement);
        List<HtmlPage.Row> head = new ArrayList<>(headline(placement.arenaBytes(), problem.lowerBound(), problem.sumBytes()));
        head.add(new HtmlPage.Row("buffers", Integer.toString(problem.size())));
        head.add(new HtmlPage.Row("planner", placement.planner()));
        List<HtmlPage.Row> table = new ArrayList<>(head);
        table.add(new HtmlPage.Row("alignment", problem.alignment() + " B"));
        table.add(new HtmlPage.Row("proven optimal", Boolean.toString(placement.provenOptimal())));
        table.add(new HtmlPage.Row("validator", verdict(violations)));
        List<String> notes = new ArrayList<>();
        for (Violation v : violations) notes.add(v.toString());
        return HtmlPage.render("arenaplan: " + problem.size() + " buffers", head, svg(problem, placement), table, "Violations", notes);
    }

    private static List<HtmlPage.Row> headline(long arena, long lowerBound, long sum) {
        return List.of(
                new HtmlPage.Row("arena", ByteUnits.format(arena)),
                new HtmlPage.Row("lower bound", ByteUnits.format(lowerBound)),
                new HtmlPage.Row("arena / lower bound", lowerBound == 0 ? "1.000" : String.format(Locale.ROOT, "%.3f", (double) arena / lowerBound)),
                new HtmlPage.Row("sum of sizes (no reuse)", ByteUnits.format(sum)),
                new HtmlPage.Row("saved vs. sum", sum == 0 ? "0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * (sum - arena) / sum)));
    }

    private static String verdict(List<Violation> violations) {
        return violations.isEmpty() ? "valid (no violations)" : violations.size() + " violation(s), listed below";
    }

    static ArenaChart chartOf(Plan plan) {
        Graph g = plan.graph();
        Problem p = plan.problem();
        boolean byStream = g.streams().size() > 1;
        List<ArenaChart.Legend> legend = new ArrayList<>();
        Map<String, Integer> colourOf = new HashMap<>();
        List<Storage> storages = plan.storages();
        String[] classOf = new String[storages.size()];
        for (Storage s : storages) classOf[s.id()] = byStream ? streamClass(g, s) : s.kind();
        List<String> order = byStream ? streamOrder(classOf) : Palette.KINDS;
        Set<String> present = new HashSet<>(Arrays.asList(classOf));
        for (String cls : order) {
            if (!present.contains(cls)) continue;
            colourOf.put(cls, legend.size());
            legend.add(new ArenaChart.Legend(cls, colourFor(cls, byStream)));
        }
        List<ArenaChart.Box> boxes = new ArrayList<>(storages.size());
        for (Storage s : storages) {
            int i = s.id();
            boxes.add(new ArenaChart.Box(p.lower(i), p.upper(i), plan.storageOffset(i), p.alignedSize(i),
                    colourOf.get(classOf[i]), tooltip(s, classOf[i], plan.storageOffset(i), p.alignedSize(i)), s.name()));
        }
        String title = g.name() + ": " + storages.size() + " storages, " + g.opCount() + " ops, planner " + plan.placement().planner();
        return new ArenaChart(title, "schedule position", 0, g.opCount(), boxes, legend, p.lowerBound(), plan.arenaBytes(), LiveCurve.of(p));
    }

    static ArenaChart chartOf(Problem p, Placement placement) {
        List<ArenaChart.Box> boxes = new ArrayList<>(p.size());
        long start = p.size() == 0 ? 0 : Long.MAX_VALUE;
        long end = 0;
        for (int i = 0; i < p.size(); i++) {
            start = Math.min(start, p.lower(i));
            end = Math.max(end, p.upper(i));
            String tip = p.id(i) + "\n" + ByteUnits.exact(p.bytes(i)) + " at offset " + placement.offset(i)
                    + "\nlive [" + p.lower(i) + ", " + p.upper(i) + ")";
            boxes.add(new ArenaChart.Box(p.lower(i), p.upper(i), placement.offset(i), p.alignedSize(i), 0, tip, p.id(i)));
        }
        String title = p.size() + " buffers, planner " + placement.planner();
        return new ArenaChart(title, "time", start, end, boxes, List.of(new ArenaChart.Legend("buffer", Palette.PLAIN)),
                p.lowerBound(), placement.arenaBytes(), LiveCurve.of(p));
    }

    /** The stream of the storage's first writer; graph inputs have no writer. */
    private static String streamClass(Graph g, Storage s) {
        return s.writers().length == 0 ? "graph input" : "stream " + g.ops().get(s.writers()[0]).stream();
    }

    private static List<String> streamOrder(String[] classes) {
        TreeMap<Integer, String> streams = new TreeMap<>();
        for (String c : classes) if (c.startsWith("stream ")) streams.put(Integer.parseInt(c.substring(7)), c);
        List<String> order = new ArrayList<>(streams.values());
        order.add("graph input");
        return order;
    }

    private static String colourFor(String cls, boolean byStream) {
        if (!byStream) return Palette.kindColour(cls);
        if (cls.equals("graph input")) return Palette.INPUT_GREY;
        return Palette.streamColour(Integer.parseInt(cls.substring(7)));
    }

    private static String tooltip(Storage s, String cls, long offset, long alignedBytes) {
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
