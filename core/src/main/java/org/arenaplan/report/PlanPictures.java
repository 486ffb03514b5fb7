package org.arenaplan.report;

import org.arenaplan.liveness.Refusal;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.PeakExplanation;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.Violation;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Pictures of a plan: x = schedule position, y = byte offset, one rectangle per storage, with
 * the lower bound, the arena top and the live-bytes curve (drawn by {@link ArenaSvg}). Storages
 * are coloured by the stream of their first writer when the graph uses several streams,
 * otherwise by {@link Storage#kind()} (see {@link Charts}). The HTML page adds the stats, the
 * independent validator's verdict and every refused in-place or donation request.
 *
 * <p>Each picture is written to a {@link Writer} as it is drawn (the whole document is never one
 * string); the methods returning a {@code String} write to a {@link StringWriter}, byte for byte
 * the same text.
 */
public final class PlanPictures {
    private PlanPictures() { }

    /** The plan as an SVG document (x: schedule positions, y: byte offsets), as a string. */
    public static String svg(Plan plan) {
        return text(w -> svg(plan, w));
    }

    /**
     * Writes {@link #svg(Plan)} to {@code w} (left open).
     *
     * @throws IOException when the writer fails
     */
    public static void svg(Plan plan, Writer w) throws IOException {
        ArenaSvg.render(Charts.of(plan), w);
    }

    /** A placement of a CSV problem, which has no graph: one colour, buffers by id. */
    public static String svg(Problem problem, Placement placement) {
        return text(w -> svg(problem, placement, w));
    }

    /**
     * Writes {@link #svg(Problem, Placement)} to {@code w} (left open).
     *
     * @throws IOException when the writer fails
     */
    public static void svg(Problem problem, Placement placement, Writer w) throws IOException {
        ArenaSvg.render(Charts.of(problem, placement), w);
    }

    /** The plan as text: a summary line and a bar per storage over the schedule (see {@link AsciiTimeline}). */
    public static String ascii(Plan plan) {
        return AsciiTimeline.render(plan);
    }

    /** The plan as a self-contained HTML page (the SVG, the stats, the validator's verdict, the refusals), as a string. */
    public static String html(Plan plan) {
        return text(w -> html(plan, w));
    }

    /**
     * Writes {@link #html(Plan)} to {@code w} (left open).
     *
     * @throws IOException when the writer fails
     */
    public static void html(Plan plan, Writer w) throws IOException {
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
        HtmlPage.render("arenaplan: " + plan.graph().name(), head, out -> svg(plan, out), peakSection(PeakExplanation.of(plan)), table,
                "Refused requests and violations", notes, w);
    }

    /** A placement of a CSV problem as an HTML page, as {@link #html(Plan)} without a graph. */
    public static String html(Problem problem, Placement placement) {
        return text(w -> html(problem, placement, w));
    }

    /**
     * Writes {@link #html(Problem, Placement)} to {@code w} (left open).
     *
     * @throws IOException when the writer fails
     */
    public static void html(Problem problem, Placement placement, Writer w) throws IOException {
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
        HtmlPage.render("arenaplan: " + problem.size() + " buffers", head, out -> svg(problem, placement, out),
                problem.size() == 0 ? "" : peakSection(PeakExplanation.of(problem, placement)), table, "Violations", notes, w);
    }

    private static String text(HtmlPage.Picture body) {
        StringWriter w = new StringWriter();
        try {
            body.writeTo(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // a StringWriter does not throw
        }
        return w.toString();
    }

    /** Rows of the peak table before "... and N more". */
    static final int PEAK_ROWS = 60;

    /** "Why the peak is what it is": the instant, each storage there with what keeps it, and the split of the arena. */
    static String peakSection(PeakExplanation x) {
        StringBuilder b = new StringBuilder("<h2 id=\"why-peak\">Why the peak is what it is</h2>\n<p>");
        b.append(Xml.escape(String.format(Locale.ROOT, "At %s %d%s, %,d B are live in %d %s: the lower bound (the yellow column in the picture).",
                x.op() == null ? "time" : "schedule position", x.instant(), x.op() == null ? "" : " (op '" + x.op() + "', stream " + x.opStream() + ")",
                x.lowerBound(), x.live().size(), x.op() == null ? "buffers" : "storages")));
        b.append(" Each is outlined in black; ◆ marks the reader that keeps it from being released.</p>\n");
        b.append("<table>\n<tr><th>storage</th><th>bytes</th><th>offset</th><th>kept alive by</th></tr>\n");
        long rest = 0;
        for (int i = 0; i < x.live().size(); i++) {
            PeakExplanation.Live l = x.live().get(i);
            if (i >= PEAK_ROWS) {
                rest += l.alignedBytes();
                continue;
            }
            b.append("<tr><td>").append(Xml.escape(l.name())).append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", l.bytes()))
                    .append("</td><td class=\"num\">").append(String.format(Locale.ROOT, "%,d", l.offset())).append("</td><td>")
                    .append(l.keeper() == PeakExplanation.Keeper.LAST_READER ? "<span class=\"mark\">◆</span> " : "")
                    .append(Xml.escape(l.reason())).append("</td></tr>\n");
        }
        if (x.live().size() > PEAK_ROWS)
            b.append("<tr><td colspan=\"4\">").append(Xml.escape(String.format(Locale.ROOT, "... and %,d more (%,d B)", x.live().size() - PEAK_ROWS, rest)))
                    .append("</td></tr>\n");
        b.append("</table>\n<p>").append(Xml.escape(String.format(Locale.ROOT,
                "arena %,d B = needed at the peak %,d B + streams %,d B + alignment %,d B + fragmentation %,d B.", x.arena(), x.neededBytes(),
                x.streamBytes(), x.alignmentBytes(), x.fragmentationBytes()))).append("<br>\n").append(Xml.escape(x.gapCause())).append(".</p>\n");
        return b.toString();
    }

    private static List<HtmlPage.Row> headline(long arena, long lowerBound, long sum) {
        List<HtmlPage.Row> rows = new ArrayList<>();
        boolean exact = ByteUnits.hidesGap(lowerBound, arena);
        rows.add(new HtmlPage.Row("arena", exact ? String.format(Locale.ROOT, "%,d B", arena) : ByteUnits.format(arena)));
        rows.add(new HtmlPage.Row("lower bound", exact ? String.format(Locale.ROOT, "%,d B", lowerBound) : ByteUnits.format(lowerBound)));
        rows.add(new HtmlPage.Row("arena / lower bound", lowerBound == 0 ? "1.000" : String.format(Locale.ROOT, "%.3f", (double) arena / lowerBound)));
        if (arena != lowerBound) rows.add(new HtmlPage.Row("arena − lower bound", String.format(Locale.ROOT, "%,d B", arena - lowerBound)));
        rows.add(new HtmlPage.Row("sum of sizes (no reuse)", ByteUnits.format(sum)));
        rows.add(new HtmlPage.Row("saved vs. sum", sum == 0 ? "0%" : String.format(Locale.ROOT, "%.1f%%", 100.0 * (sum - arena) / sum)));
        return rows;
    }

    private static String verdict(List<Violation> violations) {
        return violations.isEmpty() ? "valid (no violations)" : violations.size() + " violation(s), listed below";
    }
}
