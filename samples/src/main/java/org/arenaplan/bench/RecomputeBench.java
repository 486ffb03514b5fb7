package org.arenaplan.bench;

import org.arenaplan.models.BuiltinModels;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.train.Gradients;
import org.arenaplan.train.Recompute;

import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench recompute}: training steps of depth 8, 24 and 48 (the transformer block stack, the
 * ResNet and the MLP), their lower bound without recomputation, with √n checkpointing and with
 * {@code --recompute auto} at 50 % of the first, each with its extra FLOPs as a share of the
 * step's and the time the choice took.
 */
public final class RecomputeBench {
    private RecomputeBench() { }

    /** The models and their options; the depth option is set per row. */
    private static Map<String, Map<String, String>> models() {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        m.put("transformer", Map.of("seq", "128", "batch", "4"));
        m.put("resnet", Map.of("batch", "4"));
        m.put("mlp", Map.of("batch", "2048"));
        return m;
    }

    public static void run(PrintStream out, int[] depths, Duration timeLimit) {
        out.printf(Locale.ROOT, "%-12s %5s %13s | %13s %7s | %13s %7s %8s%n", "model", "depth", "no recompute", "sqrt(n)", "extra", "auto at 50%", "extra", "time s");
        for (Map.Entry<String, Map<String, String>> e : models().entrySet()) {
            for (int depth : depths) {
                Map<String, String> o = new LinkedHashMap<>(e.getValue());
                o.put(e.getKey().equals("resnet") ? "blocks" : "layers", Integer.toString(depth));
                Gradients.Training t = Gradients.of(BuiltinModels.build(e.getKey(), o));
                long a = ArenaPlanner.CUDA_ALIGNMENT;
                Recompute.Result none = Recompute.none(t, a);
                Recompute.Result sqrt = Recompute.sqrtN(t, a);
                long budget = none.peak() / 2;
                long t0 = System.nanoTime();
                String auto;
                try {
                    Recompute.Result r = Recompute.forBudget(t, budget, a, timeLimit);
                    auto = String.format(Locale.ROOT, "%,13d %6.1f%%", r.peak(), 100 * r.extraFraction());
                } catch (Recompute.BudgetException x) {
                    auto = String.format(Locale.ROOT, "%13s %7s", "none fits", ">=" + x.smallestBytes() / 1024 + "K");
                }
                double s = (System.nanoTime() - t0) / 1e9;
                out.printf(Locale.ROOT, "%-12s %5d %,13d | %,13d %6.1f%% | %s %8.1f%n", e.getKey(), depth, none.peak(), sqrt.peak(),
                        100 * sqrt.extraFraction(), auto, s);
            }
        }
        out.println("bytes: lower bound of the arena (alignment 256); extra: recomputed FLOPs over the training step's; auto's budget: 50 % of no recompute");
        exact(out, timeLimit);
    }

    /**
     * Small training steps whose candidate units (at most 12) can all be enumerated: auto's extra
     * FLOPs beside the least possible ({@link Recompute#exact}) at 90, 75 and 60 % of the bound.
     */
    private static void exact(PrintStream out, Duration timeLimit) {
        Map<String, Map<String, String>> small = new LinkedHashMap<>();
        small.put("mlp", Map.of("layers", "6", "width", "16", "batch", "64"));
        small.put("mlp ", Map.of("layers", "8", "width", "16", "batch", "512"));
        small.put("resnet", Map.of("blocks", "1", "channels", "4", "image", "16", "classes", "3"));
        small.put("resnet ", Map.of("blocks", "2", "channels", "4", "image", "16", "classes", "3", "batch", "4"));
        out.printf(Locale.ROOT, "%n%-12s %-40s %7s %14s %14s%n", "small model", "options", "budget", "exact extra", "auto extra");
        for (Map.Entry<String, Map<String, String>> e : small.entrySet()) {
            Gradients.Training t = Gradients.of(BuiltinModels.build(e.getKey().trim(), e.getValue()));
            long a = ArenaPlanner.CUDA_ALIGNMENT;
            long without = Recompute.none(t, a).peak();
            for (int pct : new int[]{90, 75, 60}) {
                long budget = without * pct / 100;
                String exact, auto;
                try {
                    Recompute.Result x = Recompute.exact(t, budget, a, 12);
                    exact = String.format(Locale.ROOT, "%,d", x.extraFlops());
                } catch (Recompute.BudgetException x) {
                    exact = "none fits";
                } catch (IllegalArgumentException x) {
                    exact = "too many units";
                }
                try {
                    auto = String.format(Locale.ROOT, "%,d", Recompute.forBudget(t, budget, a, timeLimit).extraFlops());
                } catch (Recompute.BudgetException x) {
                    auto = "none fits";
                }
                out.printf(Locale.ROOT, "%-12s %-40s %6d%% %14s %14s%n", e.getKey().trim(), new java.util.TreeMap<>(e.getValue()), pct, exact, auto);
            }
        }
    }
}
