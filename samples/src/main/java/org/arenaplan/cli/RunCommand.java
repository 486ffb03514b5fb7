package org.arenaplan.cli;

import org.arenaplan.device.DeviceOptions;
import org.arenaplan.exec.AllClose;
import org.arenaplan.exec.RunReport;
import org.arenaplan.io.InputException;
import org.arenaplan.io.Printable;
import org.arenaplan.io.TextFiles;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.schedule.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code arenaplan run}: plans a graph or model, then runs it planned, replayed from a captured graph, per-tensor and with a
 * stream-ordered pool on a device (CUDA when available, else the simulator, saying which) and
 * prints peak bytes, allocator calls and time per iteration side by side.
 */
@Command(name = "run", sortOptions = false, mixinStandardHelpOptions = true,
        customSynopsis = {
                "arenaplan run (--model NAME [--OPTION VALUE...] | GRAPH.json",
                "              | MODEL.onnx)",
                "              [--device auto|sim|cuda] [--tf32]",
                "              [--mode planned|per-tensor|pool|graph|all]",
                "              [--planner NAME] [--time-limit SECONDS] [--streams N]",
                "              [--sync none|add] [--iterations K] [--warmup W] [--json FILE]",
                "              [--schedule file|memory] [--schedule-time-limit SECONDS]",
                "              [--fuse none|epilogues]",
                "              [--train [--recompute none|sqrt|auto] [--memory-budget BYTES]]",
                "              [--dim NAME=V]... [--input [NAME=]FILE.pb]... [--output PATH]",
                "              [--expect [NAME=]REF.pb]... [--rtol R] [--atol A]",
                "              [--donate-inputs] [--strict] [--debug]"},
        description = {"Runs a plan on a device next to the per-tensor and pool baselines.",
                "Inputs are seeded random values unless --input gives a TensorProto file.",
                "Exit codes: 0 outputs equal across modes (and to --expect), 1 outputs differ, 2 bad input or usage,",
                "3 CUDA unavailable (--device cuda), the device cannot hold the run, or no recomputation fits --memory-budget."})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Diagnostics diagnostics;

    @Option(names = "--model", paramLabel = "NAME", description = "Run a built-in model; its options follow.")
    String model;

    @Option(names = "--device", paramLabel = "NAME", defaultValue = "auto", description = "auto (CUDA when available, else the simulator), sim or cuda (default: ${DEFAULT-VALUE}).")
    String device;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "all", description = "planned, per-tensor, pool, graph (the planned run replayed from a captured graph) or all (default: ${DEFAULT-VALUE}).")
    String mode;

    @Mixin
    StreamFlags streamFlags;

    @Mixin
    ScheduleFlags scheduleFlags;

    @Mixin
    FusionFlags fusionFlags;

    @Mixin
    TrainingFlags trainingFlags;

    @Option(names = "--planner", paramLabel = "NAME", defaultValue = "best", description = "Planner (default: ${DEFAULT-VALUE}).")
    String planner;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "Time limit of the planner, as plan's --time-limit (default: 10).")
    Double timeLimit;

    @Option(names = "--tf32", description = "CUDA only: gemm and conv (group 1) on TF32 tensor cores (inputs rounded to a 10-bit mantissa, FP32 accumulation; results differ from FP32's, see docs/cuda.md). Off by default; the simulator ignores it.")
    boolean tf32;

    @Option(names = "--iterations", paramLabel = "K", defaultValue = "3", description = "Iterations per mode (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "" + RunReport.DEFAULT_WARMUP,
            description = "Untimed iterations per mode before the K timed ones, as bench's --warmup; their outputs are compared too (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--json", paramLabel = "FILE", converter = FileToWrite.class, description = "Also write the report as JSON (with outputs_equal).")
    Path json;

    @Option(names = "--dim", paramLabel = "NAME=V", description = "An ONNX model's dynamic dim (or INPUT.AXIS). With --model, --dim V is the model's own option.")
    List<String> dims = new ArrayList<>();

    @Option(names = "--input", paramLabel = "[NAME=]FILE.pb", description = "A graph input from a TensorProto file (NAME= may be left out when the graph has one input, or when the TensorProto names the input); "
            + "an ONNX model's sequence or optional input from a SequenceProto or OptionalProto file (NAME= required), bound at import: one tensor input per element, NAME[0], NAME[1], ...")
    List<String> inputFiles = new ArrayList<>();

    @Option(names = "--output", paramLabel = "PATH", description = "Write the outputs as TensorProto files (an ONNX model's sequence or optional output as a SequenceProto or OptionalProto): PATH itself for one output, PATH/NAME.pb for several.")
    Path output;

    @Option(names = "--expect", paramLabel = "[NAME=]REF.pb", description = "Compare output NAME (NAME= may be left out when the graph has one output, or when the TensorProto names the output) with a reference TensorProto "
            + "like numpy's allclose: |a - r| <= atol + rtol*|r| (integer outputs exactly); a sequence or optional output with a SequenceProto or OptionalProto, element by element. Repeat for several outputs.")
    List<String> expect = new ArrayList<>();

    @Option(names = "--rtol", paramLabel = "R", defaultValue = "" + AllClose.DEFAULT_RTOL, description = "Relative tolerance of --expect (default: ${DEFAULT-VALUE}).")
    double rtol;

    @Option(names = "--atol", paramLabel = "A", defaultValue = "" + AllClose.DEFAULT_ATOL, description = "Absolute tolerance of --expect (default: ${DEFAULT-VALUE}).")
    double atol;

    @Option(names = "--strict", description = "As plan's --strict: a refused donation, an in-place hint the op's kernel cannot honour, or an op kind that is a near miss of a registry kind, is an error (exit 2) before anything runs; without it the run goes on and lists the refused requests.")
    boolean strict;

    @Option(names = "--donate-inputs", description = "ONNX models: graph inputs are donated, so their bytes may be reused after their last read.")
    boolean donateInputs;

    @Unmatched
    List<String> words = new ArrayList<>();

    /** Runs longer than this show progress on stderr. */
    private static final java.time.Duration QUIET = java.time.Duration.ofSeconds(2);
    private static final java.time.Duration LINE_EVERY = java.time.Duration.ofSeconds(5);

    @Override
    public Integer call() throws Exception {
        ArenaplanCli.refuseUnknownOptions(words, model, spec);
        if (words.isEmpty() && model == null) throw new UsageException("missing input: give GRAPH.json, MODEL.onnx or --model NAME");   // not plan's PROBLEM.csv: run needs ops
        scheduleFlags.check();
        TensorFiles.checkBeforeWork(inputFiles);   // a built-in model or a graph JSON reads its inputs after planning: refused here, not then
        TensorFiles.Given given = model == null ? TensorFiles.named(inputFiles, words, model) : TensorFiles.Given.NONE;   // an ONNX model's shape operands may read them
        Map<String, Long> dimValues = TensorFiles.withDimsOfInputs(Dims.single(Dims.parse(Dims.routeToModel(model, dims, words))), inputFiles, words, model, given);
        PlanInput input = PlanInput.resolve(words, model, dimValues, donateInputs, given);
        if (!input.isGraph()) throw new UsageException(input.csvNeedsAGraph("run needs"));
        if (iterations < 1) throw new UsageException("--iterations must be at least 1, got " + iterations);
        if (warmup < 0) throw new UsageException("--warmup must be at least 0, got " + warmup);
        if ((long) warmup + iterations > Integer.MAX_VALUE)
            throw new UsageException("--warmup " + warmup + " plus --iterations " + iterations + " make more than 2147483647 (2^31-1) runs per mode");
        if (!List.of("auto", "sim", "cuda").contains(device)) throw new UsageException("--device " + device + ": expected auto, sim or cuda");
        if (!List.of("planned", "per-tensor", "pool", "graph", "all").contains(mode)) throw new UsageException("--mode " + mode + ": expected planned, per-tensor, pool, graph or all");
        if (json != null) FileAccess.checkWritable(json, "--json");
        picocli.CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        if (expect.isEmpty() && (parsed.hasMatchedOption("--rtol") || parsed.hasMatchedOption("--atol")))
            throw new UsageException("--rtol and --atol are --expect's tolerances; without --expect [NAME=]REF.pb nothing is compared");
        String typedOutput = parsed.hasMatchedOption("--output") ? parsed.matchedOption("--output").originalStringValues().get(0) : null;
        TensorFiles.checkPaths(input.graph(), input.edges(), output, typedOutput, expect, rtol, atol);   // before planning and running, not after
        List<String> readFrom = new ArrayList<>(words);
        readFrom.addAll(inputFiles);
        readFrom.addAll(expect);
        if (json != null) FileAccess.checkNotAnInput(json, "--json", readFrom);
        if (output != null && !output.toString().equals("-"))
            for (Path f : TensorFiles.outputFiles(input.graph(), input.edges(), output).values()) {
                FileAccess.checkNotAnInput(f, "--output", readFrom);
                if (json != null && FileAccess.resolved(f).equals(FileAccess.resolved(json)))   // as plan refuses --out and --svg on one file
                    throw new UsageException("--json " + json + ": this file is also --output's; one would overwrite the other, so give each its own name");
            }
        PlanCommand.checkPlannerName(planner);
        ArenaPlanner.Options options = ArenaPlanner.Options.DEFAULT.withPlanner(planner).withStrict(strict)
                .withPlannerOptions(timeLimit == null ? PlannerOptions.DEFAULT : PlannerOptions.DEFAULT.withTimeLimit(Seconds.of("--time-limit", timeLimit)));
        TrainingFlags.Outcome training = input.blamingInput(g -> trainingFlags.apply(fusionFlags.apply(g, trainingFlags.train), options.alignment()));
        Schedule schedule = input.blamingInput(g -> scheduleFlags.apply(training.graph(), options.alignment()));
        java.io.PrintWriter err = spec.commandLine().getErr();
        Plan plan = input.blamingInput(g -> StreamPlanner.plan(schedule.graph(), streamFlags.count(), streamFlags.mode(), options,
                new WatchedPlanner("planning", Planners.byName(planner, options.plannerOptions()), err)));
        PlanCommand.requireValid(org.arenaplan.plan.PlanValidator.validate(plan), plan.stats().planner());
        TensorFiles.Fed fed = TensorFiles.inputs(plan.graph(), input.edges(), inputFiles);
        Map<String, TensorValue> inputs = fed.values();
        if (!inputFiles.isEmpty() || !expect.isEmpty())   // real data meant: an input left out is said, not silently random
            for (String name : fed.random())
                err.println("arenaplan: warning: input '" + Printable.of(name) + "' is not given (--input " + Printable.of(name) + "=FILE.pb), so it holds seeded random values");
        PrintStream out = Streams.stdout(spec);
        RunReport.Report report = Progress.during("run: " + plan.graph().name() + ", " + mode + " mode(s) x " + iterations + " iteration(s)",
                QUIET, LINE_EVERY, spec.commandLine().getErr(), () -> input.blamingInput(g -> RunReport.run(plan, device, DeviceOptions.DEFAULT.withTf32(tf32), mode, warmup, iterations, inputs, out)));
        if (tf32 && !report.tf32()) out.println("--tf32: ignored on the simulator, which computes in FP32");
        fusionFlags.print(out);
        TrainingFlags.print(training, out);
        ScheduleFlags.print(schedule, out);
        streamFlags.print(plan.graph(), out);
        if (!plan.refusals().isEmpty()) SummaryTable.refusalLines(plan.refusals(), input.importerHints()).forEach(out::println);   // a hint the run did not take is said, as plan says it
        if (plan.graph().streams().size() > 1)
            out.println(StreamPlanner.price(plan, options, WatchedPlanner.pricing(Planners.byName(planner, options.plannerOptions()), err)).line());
        if (json != null) {
            try {
                RunReport.writeJson(report, json);
            } catch (java.io.UncheckedIOException e) {
                throw new InputException("--json " + json + ": cannot write: " + TextFiles.reason(e.getCause()), e);
            }
        }
        if (output != null) TensorFiles.writeOutputs(plan.graph(), input.edges(), report.outputs(), output, out);
        boolean matches = TensorFiles.matchReferences(plan.graph(), input.edges(), report.outputs(), expect, rtol, atol, out);
        out.flush();
        return report.outputsEqual() && matches ? ExitCodes.OK : ExitCodes.INVALID;
    }
}
