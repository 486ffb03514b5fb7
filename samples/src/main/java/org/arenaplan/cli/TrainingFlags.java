package org.arenaplan.cli;

import org.arenaplan.ir.Graph;
import org.arenaplan.train.Gradients;
import org.arenaplan.train.Recompute;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * The training flags {@code plan} and {@code run} share: {@code --train} plans the training step
 * (forward, then the backward pass of {@link Gradients}); {@code --recompute} and
 * {@code --memory-budget} choose activations to recompute in it ({@link Recompute}).
 */
final class TrainingFlags {
    @Option(names = "--train", description = "Plan one training step: the forward graph, then its backward pass (gradients of every trainable weight as outputs).")
    boolean train;

    @Option(names = "--recompute", paramLabel = "MODE", defaultValue = "none",
            description = "With --train: none; sqrt = checkpoint every sqrt(n)-th cut activation, recompute the rest (Chen et al. 2016); auto = the least extra FLOPs this greedy finds that fits --memory-budget (default: ${DEFAULT-VALUE}).")
    String recompute;

    @Option(names = "--memory-budget", paramLabel = "BYTES",
            description = "With --recompute auto: the lower bound of the arena must fit in BYTES; exit 3, naming the smallest budget that fits, when no choice does.")
    Long budget;

    /** Time --recompute auto may search (the bounded first steps always run). */
    private static final Duration PRUNING = Duration.ofSeconds(30);

    /** The graph to plan, and what recomputation chose (null without --train). */
    record Outcome(Graph graph, Recompute.Result recompute) { }

    Outcome apply(Graph forward, long alignment) {
        String mode = recompute.toLowerCase(Locale.ROOT);
        if (!mode.equals("none") && !mode.equals("auto") && !mode.equals("sqrt"))
            throw new UsageException("--recompute " + recompute + ": expected none, auto or sqrt");
        if (!train && (!mode.equals("none") || budget != null)) throw new UsageException("--recompute and --memory-budget need --train");
        if (mode.equals("auto") != (budget != null)) throw new UsageException("--recompute auto and --memory-budget BYTES go together");
        if (budget != null && budget < 0) throw new UsageException("--memory-budget must not be negative, got " + budget);
        if (!train) return new Outcome(forward, null);
        Gradients.Training t = Gradients.of(forward);
        Recompute.Result r;
        switch (mode) {
            case "sqrt" -> r = Recompute.sqrtN(t, alignment);
            case "auto" -> {
                try {
                    r = Recompute.forBudget(t, budget, alignment, PRUNING);
                } catch (Recompute.BudgetException e) {
                    throw new NoPlacementException(e.getMessage());
                }
            }
            default -> r = Recompute.none(t, alignment);
        }
        return new Outcome(r.graph(), r);
    }

    static void print(Outcome o, PrintWriter out) {
        for (String line : lines(o)) out.println(line);
    }

    static void print(Outcome o, PrintStream out) {
        for (String line : lines(o)) out.println(line);
    }

    /**
     * {@code training step: F forward ops, B backward ops, S FLOPs}, then with recomputation
     * {@code recompute: METHOD, N tensors, X extra FLOPs (P % of the step), lower bound A B -> B B}
     * and the tensors, one line.
     */
    private static String[] lines(Outcome o) {
        Recompute.Result r = o.recompute();
        if (r == null) return new String[0];
        String step = String.format(Locale.ROOT, "training step: %,d FLOPs, lower bound %,d B without recomputation", r.stepFlops(), r.peakWithout());
        if (r.method().equals("none")) return new String[]{step};
        return new String[]{step,
                String.format(Locale.ROOT, "recompute: %s, %d tensors, %,d extra FLOPs (%.1f %% of the step), lower bound %,d B -> %,d B (x%.3f)",
                        r.method(), r.recomputed().size(), r.extraFlops(), 100 * r.extraFraction(), r.peakWithout(), r.peak(),
                        r.peakWithout() == 0 ? 1.0 : (double) r.peak() / r.peakWithout()),
                "recomputed: " + (r.recomputed().isEmpty() ? "none" : String.join(" ", r.recomputed()))};
    }
}
