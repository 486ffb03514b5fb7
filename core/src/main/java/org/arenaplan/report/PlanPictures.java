package org.arenaplan.report;

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
import java.util.List;
import java.util.Locale;

/**
 * Pictures of a plan: x = schedule position, y = byte offset, one rectangle per storage, with
 * the lower bound, the arena top and the live-bytes curve (drawn by {@link ArenaSvg}). Storages
 * are coloured by the stream of their first writer when the graph uses several streams,
 * otherwise by {@link Storage#kind()} (see {@link Charts}). The HTML page adds the stats, the
 * independent validator's verdict and every refused in-place or donation request.
 */
public final class PlanPictures {
    private PlanPictures() { }

    public static String svg(Plan plan) {
        return ArenaSvg.render(Charts.of(plan));
    }

    /** A placement of a CSV problem, which has no graph: one colour, buffers by id. */
    public static String svg(Problem problem, Placement placement) {
        return ArenaSvg.render(Charts.of(problem, placement));
    }

    /** The plan as text: a summary line and a bar per storage over the schedule (see {@link AsciiTimeline}). */
    public static String ascii(Plan plan) {
        return AsciiTimeline.render(plan);
    }

    public static String html(Plan plan) {
        PlanStats s = plan.stats();
        List<Violation> violations = PlanValidator.validate(plan);
        List<HtmlPage.Row> head = headline(s.arenaBytes(), s.lowerBoundBytes(), s.sumBytes());
        head.add(new HtmlPage.Row("storages", Integer.toString(s.storages())));
        head.add(new HtmlPage.Row("allocator calls per run (naive → planned)", s.allocCallsNaive() + " → " + s.allocCallsPlanned()));
        head.add(new HtmlPage.Row("planner", s.planner()));
        List<HtmlPage.Row> table = new ArrayList<>(head);
        table.add(new HtmlPage.Row("arena tensors", Integer.toString(s.tensors())));
        table.add(new HtmlPage.Row("ops", Integer.toString(plan.graph().opCount())));
        table.add(new HtmlPage.Row("streams", Integer.toString(plan.graph().streams().size())));
        table.add(new HtmlPage.Row("sync events", Integer.toString(plan.sync().events().size())));
        table.add(new HtmlPage.Row("alignment", plan.alignment() + " B"));
        table.add(new HtmlPage.Row("planning", String.format(Locale.ROOT, "%.1f ms", s.planningMs())));
        table.add(new HtmlPage.Row("validator", verdict(violations)));
        List<String> notes = new ArrayList<>();
        for (Refusal r : plan.refusals()) notes.add(r.toString());
        for (Violation v : violations) notes.add(v.toString());
        return HtmlPage.render("arenaplan: " + plan.graph().name(), head, svg(plan), table, "Refused requests and violations", notes);
    }

    public static String html(Problem problem, Placement placement) {
        List<Violation> violations = PlacementValidator.validate(problem, placement);
        List<HtmlPage.Row> head = headline(placement.arenaBytes(), problem.lowerBound(), problem.sumBytes());
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
        List<HtmlPage.Row> rows = new ArrayList<>();
        rows.add(new HtmlPage.Row("arena", ByteUnits.format(arena)));
        rows.add(new HtmlPage.Row("lower bound", ByteUnits.format(lowerBound)));
        rows.add(new HtmlPage.Row("arena / lower bound", lowerBound == 0 ? "1.000" : String.format(Locale.ROOT, "%.3f", (double) arena / lowerBound)));
        rows.add(new HtmlPage.Row("sum of sizes (no reuse)", ByteUnits.format(sum)));
        rows.add(new HtmlPage.Row("saved vs. sum", sum == 0 ? "0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * (sum - arena) / sum)));
        return rows;
    }

    private static String verdict(List<Violation> violations) {
        return violations.isEmpty() ? "valid (no violations)" : violations.size() + " violation(s), listed below";
    }
}
