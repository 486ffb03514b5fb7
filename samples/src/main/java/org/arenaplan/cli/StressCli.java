package org.arenaplan.cli;

import org.arenaplan.sim.Stress;
import org.arenaplan.sim.StressCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * {@code arenaplan stress}: random graphs with view chains, branches and in-place ops on random
 * streams, planned and run on the simulator with random delays and per-byte version checks.
 * The last line is exactly {@code premature_reuses=K runs=N}.
 */
@Command(name = "stress", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Runs random multi-stream graphs planned on the simulator and counts premature reuses.",
                "The last line is exactly 'premature_reuses=K runs=N'. Exit codes: 0 when K = 0 and no output was wrong, 1 otherwise, 2 bad usage.",
                "--unsafe swaps in a deliberately wrong planner (reuse by schedule position only): it must be caught."})
final class StressCli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Diagnostics diagnostics;

    @Option(names = "--graphs", paramLabel = "N", defaultValue = "200", description = "Random graphs to run (default: ${DEFAULT-VALUE}).")
    int graphs;

    @Option(names = "--streams", paramLabel = "S", defaultValue = "4", description = "Compute streams (default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--seed", paramLabel = "X", defaultValue = "1", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--unsafe", description = "Use the deliberately wrong planner (measures the detector's sensitivity).")
    boolean unsafe;

    @Option(names = "--exhaustive", description = "Small graphs (3-8 ops, 2-3 streams); try every interleaving the events allow instead of random delays.")
    boolean exhaustive;

    @Override
    public Integer call() {
        if (graphs < 1) throw new UsageException("--graphs must be at least 1, got " + graphs);
        if (streams < 1) throw new UsageException("--streams must be at least 1, got " + streams);
        if (exhaustive && spec.commandLine().getParseResult().hasMatchedOption("--streams") && (streams < 2 || streams > 3))   // Stress.Options.exhaustive clamps to [2, 3]
            throw new UsageException("--exhaustive runs its small graphs on 2 or 3 streams, so --streams " + streams + " would not be honoured; give 2 or 3, or leave --streams out");
        PrintStream out = Streams.stdout(spec);
        // Progress goes to stderr (a bar on a terminal, plain lines otherwise), so stdout still ends with the contract line.
        try (Progress progress = Progress.open("stress", graphs, spec.commandLine().getErr())) {
            int code = StressCommand.run(graphs, streams, seed, unsafe, exhaustive, Stress::defaultPlan, out, progress::stepTo);
            out.flush();
            return code;
        }
    }
}
