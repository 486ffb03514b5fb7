package org.arenaplan.cli;

import org.arenaplan.io.Printable;
import org.arenaplan.liveness.Refusal;
import org.arenaplan.plan.PlanStats;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The short table {@code plan} prints: sizes, bounds, allocator calls, time, refusals. */
final class SummaryTable {
    private SummaryTable() { }

    /** @param importerHints the graph's in-place hints are the ONNX importer's own (see {@link #refusalLines}) */
    static void print(PrintWriter out, String label, long alignment, PlanStats s, boolean provenOptimal, Long capacity, List<Refusal> refusals,
                      boolean importerHints) {
        out.println(Printable.of("plan of " + label + " by " + s.planner() + ", alignment " + alignment));
        row(out, "storages", String.valueOf(s.storages()));
        row(out, "tensors", String.valueOf(s.tensors()));
        row(out, "sum", bytes(s.sumBytes()));
        row(out, "lower bound", bytes(s.lowerBoundBytes()));
        row(out, "arena", bytes(s.arenaBytes()));
        row(out, "arena / LB", ratio(s) + optimalNote(s, provenOptimal));
        row(out, "saved vs sum", String.format(Locale.ROOT, "%.1f %%", 100 * s.savedFraction()));
        if (capacity != null) row(out, "capacity", bytes(capacity) + (s.arenaBytes() <= capacity ? "  (fits)" : "  (EXCEEDED)"));
        row(out, "alloc calls / run", "naive " + s.allocCallsNaive() + ", planned " + s.allocCallsPlanned() + " (the arena, allocated once)");
        row(out, "planning", String.format(Locale.ROOT, "%.1f ms", s.planningMs()));
        for (String line : refusalLines(refusals, importerHints)) out.println(line);
        out.flush();
    }

    /**
     * The "refused" row and, under it, one line per refused request (an in-place hint of a graph
     * JSON or a built-in model, a donation). Where {@code importerHints} (an ONNX model, whose
     * format has no in-place hints: every one is arenaplan's own, the importer's over an elementwise
     * op's input 0, {@code docs/onnx.md}, or a gradient rule's under {@code --train}) the in-place
     * refusals are counted in one line instead, the first as an example: the user asked for none of
     * them, and a declined one costs nothing (the output keeps bytes of its own).
     * {@code plan --out FILE.json} lists every one ({@code refusals}).
     */
    static List<String> refusalLines(List<Refusal> refusals, boolean importerHints) {
        List<String> lines = new java.util.ArrayList<>();
        lines.add(String.format(Locale.ROOT, "  %-18s %s", "refused", refusals.isEmpty() ? "none" : refusals.size() + (refusals.size() == 1 ? " request" : " requests")));
        List<Refusal> importers = importerHints ? refusals.stream().filter(r -> r.kind() == Refusal.Kind.IN_PLACE).toList() : List.of();
        for (Refusal r : refusals)
            if (!importers.contains(r)) lines.add("    " + Printable.of(r.toString()));   // names from the user's files: no newline or ESC reaches the terminal
        if (!importers.isEmpty())
            lines.add("    " + Printable.of("in-place hints arenaplan made itself (an ONNX model declares none), not taken: " + importers.size()
                    + " (each output keeps bytes of its own; plan --out FILE.json lists them), e.g. " + importers.get(0).request() + ": " + importers.get(0).reason()));
        return lines;
    }

    /**
     * Why the arena is optimal, or "": it equals the lower bound, or (above it) {@code search}
     * refuted every smaller capacity, as where the conflicts of several streams make the bytes live
     * at once unreachable.
     */
    static String optimalNote(PlanStats s, boolean provenOptimal) {
        if (s.arenaBytes() <= s.lowerBoundBytes()) return "  (optimal: arena = lower bound)";
        if (provenOptimal) return "  (optimal: every smaller arena proven infeasible)";
        // four decimals print 1.0000 for an arena a few bytes above a bound of gigabytes: say it is above
        return ratio(s).equals("1.0000") ? String.format(Locale.ROOT, "  (%,d B above the lower bound; not proven optimal)", s.arenaBytes() - s.lowerBoundBytes()) : "";
    }

    private static String ratio(PlanStats s) {
        return String.format(Locale.ROOT, "%.4f", s.ratio());
    }

    private static void row(PrintWriter out, String name, String value) {
        out.printf(Locale.ROOT, "  %-18s %s%n", name, value);
    }

    /** {@code 201,326,592 B (192.0 MiB)}. */
    static String bytes(long b) {
        String exact = String.format(Locale.ROOT, "%,d B", b);
        if (b < 1024) return exact;
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = b;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return exact + String.format(Locale.ROOT, " (%.1f %s)", v, units[u]);
    }
}
