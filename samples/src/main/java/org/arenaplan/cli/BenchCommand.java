package org.arenaplan.cli;

import org.arenaplan.io.Printable;

import org.arenaplan.bench.ChallengingBench;
import org.arenaplan.bench.RecomputeBench;
import org.arenaplan.bench.ScheduleBench;
import org.arenaplan.cuda.Cuda;
import org.arenaplan.cuda.CudaDeviceProvider;
import org.arenaplan.cuda.DeviceBench;
import org.arenaplan.exec.RunReport;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.io.InputException;
import org.arenaplan.io.TextFiles;
import org.arenaplan.ir.Graph;
import org.arenaplan.models.BuiltinModels;
import org.arenaplan.sim.SimDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code arenaplan bench}: the measurements that go into the README, printed as ratios side by
 * side in one run. {@code models} (default): every built-in model planned vs per-tensor vs pool
 * on a device (CUDA events for device time on a GPU). {@code search}: the search planner on the
 * challenging, real or perfect-packing placement problems. {@code schedule}: the lower bound at
 * the file order vs the memory-aware order ({@link ScheduleBench}). {@code recompute}: training
 * steps without recomputation, with √n checkpointing and under a 50 % budget ({@link RecomputeBench}).
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
        customSynopsis = {
                "arenaplan bench [models] [--device auto|cuda|sim] [--tf32]",
                "                [--iterations K] [--warmup W] [--json FILE]",
                "arenaplan bench search [--set challenging|real|perfect] [--dir DIR]",
                "                [--time-limit SECONDS] [--node-limit N] [--seed S]",
                "arenaplan bench schedule [--dir DIR] [--time-limit SECONDS]",
                "arenaplan bench recompute [--time-limit SECONDS]"},
        description = {"Benchmarks: built-in models planned vs per-tensor vs pool on a device, or the search planner on placement problems.",
                "Exit codes: 0 done (search: every instance met its target), 1 search missed a target, 2 bad usage, 3 the asked-for device is unavailable."})
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "WHAT", defaultValue = "models", description = "models, search, schedule or recompute (default: ${DEFAULT-VALUE}).")
    String what;

    @Option(names = "--device", paramLabel = "NAME", defaultValue = "auto",
            description = "auto (CUDA when usable, else the simulator, saying so), cuda (exit 3 without CUDA) or sim, for models (default: ${DEFAULT-VALUE}).")
    String device;

    @Option(names = "--tf32", description = "For models on CUDA: gemm and conv (group 1) on TF32 tensor cores (off by default; see docs/cuda.md).")
    boolean tf32;

    @Option(names = "--iterations", paramLabel = "K", defaultValue = "20", description = "Timed iterations per model and mode (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "" + RunReport.DEFAULT_WARMUP, description = "Untimed iterations first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--json", paramLabel = "FILE", converter = FileToWrite.class, description = "Also write the models table as JSON.")
    Path json;

    @Option(names = "--set", paramLabel = "SET", defaultValue = "challenging", description = "For search: challenging, real or perfect (default: ${DEFAULT-VALUE}).")
    String set;

    @Option(names = "--dir", paramLabel = "DIR", description = "For search: the folder of CSV problems (default: ../shared/problems/SET); for schedule: of ONNX models (default: ../shared/models).")
    Path dir;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0",
            description = "For search --set perfect: instance k is generated with seed S + k + 1, so another S gives 50 other packings (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--time-limit", paramLabel = "SECONDS", defaultValue = "10", description = "For search: time limit per problem; for schedule and recompute: per graph (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--node-limit", paramLabel = "N",
            description = "For search: also stop each problem's exact search after about N nodes, so counts do not depend on the machine's load (default: none); a perfect packing's search runs one thread per processor (at most 4), each with this limit.")
    Long nodeLimit;

    /** The options each kind of bench reads (the synopsis'); another one given is refused, not silently ignored. */
    private static final Map<String, List<String>> OPTIONS = Map.of(
            "models", List.of("--device", "--tf32", "--iterations", "--warmup", "--json"),
            "search", List.of("--set", "--dir", "--time-limit", "--node-limit", "--seed"),
            "schedule", List.of("--dir", "--time-limit"),
            "recompute", List.of("--time-limit"));

    /**
     * Refuses an option that {@code what} does not read (e.g. {@code bench recompute --set real},
     * {@code bench models --time-limit 5}), and {@code --seed} but with {@code search --set perfect}.
     *
     * @throws UsageException naming the option and the options that kind reads
     */
    private void refuseOptionsNotRead() {
        List<String> reads = OPTIONS.get(what);
        if (reads == null) return;   // an unknown kind is refused by name
        picocli.CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        for (picocli.CommandLine.Model.OptionSpec o : parsed.matchedOptions()) {
            String name = o.longestName();
            if (!reads.contains(name))
                throw new UsageException("bench " + what + " does not read " + name + ", which would be ignored; its options: " + String.join(", ", reads));
        }
        if (what.equals("search") && parsed.hasMatchedOption("--seed") && !set.equals("perfect"))
            throw new UsageException("--seed generates --set perfect's packings; --set " + set + " reads its problems from files, so --seed would be ignored");
    }

    @Override
    public Integer call() throws Exception {
        PrintStream out = Streams.stdout(spec);
        refuseOptionsNotRead();
        try {
            return switch (what) {
                case "models" -> models(out);
                case "search" -> search(out);
                case "schedule" -> {
                    if (dir != null) {   // the default folder may be absent; a named one must not, nor be without models (as bench search's)
                        requireFolder(dir, "--dir", "of ONNX models for bench schedule");
                        if (ScheduleBench.onnxModels(dir).isEmpty())
                            throw new UsageException("--dir " + dir + ": no ONNX models in it (*.onnx, in it or below); leave out --dir for the built-in graphs alone");
                    }
                    Path models = dir != null ? dir : Path.of("..", "shared", "models");
                    List<ScheduleBench.Skipped> skipped = ScheduleBench.run(out, models, limit());
                    if (!skipped.isEmpty()) {   // the table holds the rest, but a bench that left a graph out did not do what it was asked: exit 2
                        ScheduleBench.Skipped first = skipped.get(0);
                        throw new InputException("bench schedule skipped " + skipped.size() + (skipped.size() == 1 ? " graph" : " graphs")
                                + " (the table holds the rest): " + (first.why().startsWith(first.name()) ? "" : first.name() + ": ") + first.why() + (skipped.size() > 1 ? "; the others are on the skipped lines above" : ""));
                    }
                    yield ExitCodes.OK;
                }
                case "recompute" -> {
                    RecomputeBench.run(out, new int[]{8, 24, 48}, limit());
                    yield ExitCodes.OK;
                }
                default -> throw new UsageException("bench " + what + ": expected models, search, schedule or recompute");
            };
        } finally {
            out.flush();
        }
    }

    private int models(PrintStream out) throws Exception {
        if (iterations < 1 || warmup < 0) throw new UsageException("--iterations must be >= 1 and --warmup >= 0");
        if (json != null) FileAccess.checkWritable(json, "--json");
        Map<String, Graph> models = new LinkedHashMap<>();
        for (String m : BuiltinModels.names()) models.put(m, BuiltinModels.build(m, Map.of()));
        List<DeviceBench.Row> rows;
        PrintStream progress = Streams.stderr(spec);
        String chosen = device;
        if (device.equals("auto")) {
            chosen = Cuda.isAvailable() ? "cuda" : "sim";
            if (!Cuda.isAvailable()) out.println("bench: auto picked the simulator (cuda unavailable: " + new CudaDeviceProvider().unavailabilityBrief() + ")");
        }
        switch (chosen) {
            case "cuda" -> {
                if (!Cuda.isAvailable()) {
                    out.println("bench: CUDA unavailable: " + Cuda.unavailabilityCause().getMessage());
                    out.println("bench: run './arenaplan bench --device sim' for the simulator's figures (its times say nothing about a GPU)");
                    return ExitCodes.DEVICE_UNAVAILABLE;
                }
                rows = DeviceBench.onCuda(models, warmup, iterations, progress, tf32);
            }
            case "sim" -> {
                out.println("bench on the simulated device: allocator calls and peak bytes are real, times are the simulator's, not a GPU's");
                if (tf32) out.println("--tf32: ignored on the simulator, which computes in FP32");
                try (Device d = SimDevice.open(DeviceOptions.DEFAULT)) {
                    rows = DeviceBench.run(d, DeviceBench.IterationTimer.NONE, models, warmup, iterations, progress);
                }
            }
            default -> throw new UsageException("--device " + device + ": expected auto, cuda or sim");
        }
        DeviceBench.printTable(rows, out);
        if (json != null) DeviceBench.writeJson(rows, json);
        return ExitCodes.OK;
    }

    /**
     * Refuses a folder to read that is not one, with {@link TextFiles#notAFolder}'s
     * line: "no such folder" when nothing is there, "a file, not a folder" when it names a file,
     * "not a folder" for anything else.
     *
     * @param what {@code --dir} when the user named the folder, or {@code the default folder} when
     *             {@code --dir} was left out (the hint then says how to choose another)
     * @param hint what the folder is for, printed in parentheses
     * @throws UsageException (exit 2) naming the path
     */
    static void requireFolder(Path folder, String what, String hint) {
        String line = TextFiles.notAFolder(what, folder);
        if (line != null) throw new UsageException(line + " (" + hint + ")");
    }

    private Duration limit() {
        return Seconds.of("--time-limit", timeLimit);
    }

    private int search(PrintStream out) throws Exception {
        ChallengingBench.Mode mode = switch (set) {
            case "challenging" -> ChallengingBench.Mode.CHALLENGING;
            case "real" -> ChallengingBench.Mode.REAL;
            case "perfect" -> ChallengingBench.Mode.PERFECT;
            default -> throw new UsageException("--set " + set + ": expected challenging, real or perfect");
        };
        Duration limit = limit();
        if (nodeLimit != null && nodeLimit < 1) throw new UsageException("--node-limit must be at least 1, got " + nodeLimit);
        if (mode == ChallengingBench.Mode.PERFECT && dir != null)
            throw new UsageException("--dir " + dir + ": --set perfect generates its packings (choose them with --seed); it reads no folder");
        Path folder = dir != null ? dir : Path.of("..", "shared", "problems", set);
        if (mode != ChallengingBench.Mode.PERFECT)
            requireFolder(folder, dir != null ? "--dir" : "the default folder",
                    "the shared problems live in ../shared/problems beside the repository" + (dir != null ? "" : "; choose another with --dir DIR"));
        int instances = ChallengingBench.instances(mode, folder);
        if (instances == 0)
            throw new UsageException("--dir " + folder + ": no problems in it (" + ChallengingBench.pattern(mode) + "); nothing to search");
        int missed;
        try (Progress progress = Progress.open("bench search", instances, spec.commandLine().getErr())) {
            missed = ChallengingBench.run(out, mode, folder, new ChallengingBench.Limits(limit, nodeLimit == null ? Long.MAX_VALUE : nodeLimit), seed, (i, name) -> {
                progress.stepTo(i);
                progress.note(Printable.name(name) + " (" + (i + 1) + "/" + instances + ", up to " + timeLimit + " s)");
            });
            progress.stepTo(instances);
        }
        out.println(missed == 0 ? "all instances met the target" : missed + " instance(s) missed the target");
        return missed == 0 ? ExitCodes.OK : ExitCodes.INVALID;
    }
}
