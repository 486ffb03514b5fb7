package org.arenaplan.onnx;

import org.arenaplan.ir.Graph;
import org.arenaplan.ir.OpKinds;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.Problem;

import java.nio.file.Path;

/**
 * Measures ONNX models for the docs: each is imported with and without concat in place and
 * planned; a row holds the plan's numbers, the naive arena (the sum: nothing shared), and what
 * concat in place changed: the arena, the sum, and the live bytes at the worst Concat.
 * {@code main} prints the table for the files given.
 */
public final class ModelTable {
    /**
     * @param peakAtConcats          the most bytes live at any Concat's position, with concat in place
     * @param peakAtConcatsAsCopies  the same with every Concat a copy
     */
    public record Row(String model, int ops, int tensors, int storages, long sumBytes, long lowerBound, long arenaBytes,
                      String planner, boolean validates, int concats, int concatsInPlace,
                      long arenaAsCopies, long sumAsCopies, long peakAtConcats, long peakAtConcatsAsCopies) {

        /** Fraction of the naive arena (the sum of all storages) the plan saves. */
        public double savingVsNaive() {
            return sumBytes == 0 ? 0 : 1.0 - (double) arenaBytes / sumBytes;
        }

        public long concatArenaSaving() {
            return arenaAsCopies - arenaBytes;
        }
    }

    private ModelTable() { }

    /** @param opts import options; concat in place is measured on and off from them */
    public static Row measure(Path model, OnnxImporter.Options opts, ArenaPlanner.Options planOptions) {
        opts = opts.withConcatInPlace(true);
        Graph g = OnnxImporter.load(model, opts);
        Plan plan = ArenaPlanner.plan(g, planOptions);
        Plan copies = ArenaPlanner.plan(OnnxImporter.load(model, opts.withConcatInPlace(false)), planOptions);
        int concats = 0, inPlace = 0;
        for (var op : g.ops()) {
            if (!op.kind().equals(OpKinds.CONCAT)) continue;
            concats++;
            if (op.isStorageOnly()) inPlace++;
        }
        return new Row(model.getFileName().toString(), g.opCount(), plan.stats().tensors(), plan.stats().storages(), plan.stats().sumBytes(),
                plan.stats().lowerBoundBytes(), plan.arenaBytes(), plan.placement().planner(), PlanValidator.validate(plan).isEmpty(),
                concats, inPlace, copies.arenaBytes(), copies.stats().sumBytes(), peakAtConcats(plan), peakAtConcats(copies));
    }

    /** The most aligned bytes live at the schedule position of any Concat; 0 without Concats. */
    static long peakAtConcats(Plan plan) {
        Problem p = plan.problem();
        long peak = 0;
        for (int pos = 0; pos < plan.graph().opCount(); pos++) {
            if (!plan.graph().ops().get(pos).kind().equals(OpKinds.CONCAT)) continue;
            long live = 0;
            for (int i = 0; i < p.size(); i++) if (p.lower(i) <= pos && pos < p.upper(i)) live += p.alignedSize(i);
            peak = Math.max(peak, live);
        }
        return peak;
    }

    /** {@code [--no-elementwise-in-place] MODEL...}: prints the Markdown table. */
    public static void main(String[] args) {
        OnnxImporter.Options opts = OnnxImporter.Options.DEFAULT;
        System.out.println("| model | ops | tensors | storages | sum (naive) B | lower bound B | arena B | saving vs naive | planner | valid | concats in place | arena, concats as copies B | sum saved by concat in place B | live at worst Concat: copies -> in place B |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---|");
        for (String a : args) {
            if (a.equals("--no-elementwise-in-place")) {
                opts = opts.withElementwiseInPlace(false);
                continue;
            }
            Row r = measure(Path.of(a), opts, ArenaPlanner.Options.DEFAULT);
            System.out.printf("| %s | %d | %d | %d | %d | %d | %d | %.1f%% | %s | %s | %d/%d | %d | %d | %s |%n", r.model(), r.ops(), r.tensors(), r.storages(),
                    r.sumBytes(), r.lowerBound(), r.arenaBytes(), 100 * r.savingVsNaive(), r.planner(), r.validates() ? "yes" : "NO",
                    r.concatsInPlace(), r.concats(), r.arenaAsCopies(), r.sumAsCopies() - r.sumBytes(),
                    r.concats() == 0 ? "-" : r.peakAtConcatsAsCopies() + " -> " + r.peakAtConcats());
        }
    }
}
