package org.arenaplan.cli;

import org.arenaplan.hb.SyncEvent;
import org.arenaplan.hb.SyncMode;
import org.arenaplan.hb.SyncText;
import org.arenaplan.io.GraphJson;
import org.arenaplan.onnx.OnnxImporter;
import org.arenaplan.onnx.ShapeSweep;
import org.arenaplan.io.PlanJson;
import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.ArenaPlanner;
import org.arenaplan.plan.PeakExplanation;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Plan;
import org.arenaplan.plan.PlanValidator;
import org.arenaplan.plan.PlanStats;
import org.arenaplan.plan.Planner;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Planners;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.StreamPlanner;
import org.arenaplan.plan.Violation;
import org.arenaplan.report.PlanPictures;
import org.arenaplan.schedule.Schedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Unmatched;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code arenaplan plan}: reads a graph, a CSV problem or a built-in model, places it with the
 * chosen planner, prints the summary table and writes the asked-for files.
 *
 * <p>Steps: resolve the input; check the flags and output folders (before any long planning);
 * plan (a graph through {@link ArenaPlanner}, a CSV problem straight through the planner);
 * re-check the result with the independent validator (a planner bug is an internal error,
 * never a silently wrong file); print the table; exit 3 when the arena exceeds the capacity (nothing is written then;
 * with a capacity that a planner other than {@code search} misses, and that the lower bound does
 * not rule out, {@code plan} plans again with {@code search} within {@code --time-limit});
 * otherwise write {@code --out}, {@code --svg}, {@code --html}.
 */
@Command(name = "plan", sortOptions = false, mixinStandardHelpOptions = true,
        customSynopsis = {
                "arenaplan plan (GRAPH.json | PROBLEM.csv | MODEL.onnx",
                "                | --model NAME [--OPTION VALUE...])",
                "               [--planner NAME] [--align BYTES] [--capacity BYTES]",
                "               [--time-limit SECONDS] [--streams N] [--sync none|add]",
                "               [--schedule file|memory] [--schedule-time-limit SECONDS]",
                "               [--fuse none|epilogues]",
                "               [--train [--recompute none|sqrt|auto] [--memory-budget BYTES]]",
                "               [--dim NAME=V1,V2,...]... [--worst-case] [--donate-inputs]",
                "               [--input NAME=FILE.pb]... [--out FILE.json|FILE.csv]",
                "               [--svg FILE] [--html FILE] [--strict] [--debug]"},
        description = {"Plans one arena for a graph, a minimalloc CSV problem or a built-in model.",
                "Exit codes: 0 planned (within --capacity when given), 2 bad input or usage, 3 no placement within the capacity",
                "(or no recomputation within --memory-budget)."})
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Diagnostics diagnostics;

    @Option(names = "--model", paramLabel = "NAME", description = "Plan a built-in model; its options (e.g. --layers 4) follow.")
    String model;

    @Option(names = "--planner", paramLabel = "NAME", defaultValue = "best", description = "Planner: one of ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            completionCandidates = PlannerNames.class)
    String planner;

    @Option(names = "--align", paramLabel = "BYTES", description = "Offset alignment (default: 256 for graphs and models, 1 for CSV problems).")
    Long align;

    @Option(names = "--capacity", paramLabel = "BYTES", description = "The arena must fit in BYTES (a CSV's NAME.NUMBER.csv name gives one too); a planner other than search that misses hands over to search within --time-limit.")
    Long capacity;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "Time limit of every planner but naive, and of the search tried when --capacity is missed (default: 10); past it the best placement so far comes back. On several streams the price of concurrency plans up to twice more, each within it too.")
    Double timeLimit;

    @Mixin
    StreamFlags streamFlags;

    @Mixin
    ScheduleFlags scheduleFlags;

    @Mixin
    TrainingFlags trainingFlags;

    @Mixin
    FusionFlags fusionFlags;

    @Option(names = "--dim", paramLabel = "NAME=V1,V2,...", description = "An ONNX model's dynamic dim (or INPUT.AXIS); several values plan every shape (plans cached per shape). With --model, --dim V is the model's own option.")
    List<String> dims = new ArrayList<>();

    @Option(names = "--donate-inputs", description = "ONNX models: graph inputs are donated, so their bytes may be reused after their last read.")
    boolean donateInputs;

    @Option(names = "--input", paramLabel = "NAME=FILE.pb", description = "ONNX models: graph input NAME's value from a TensorProto file, for the shape operands "
            + "read at import (a Reshape's shape, Slice's starts, ... given as graph inputs), as run --input gives it; the plan then holds for that value. "
            + "A sequence or optional input needs its value (a SequenceProto or OptionalProto file): its length and element shapes are fixed at import.")
    List<String> inputFiles = new ArrayList<>();

    @Option(names = "--worst-case", description = "With --dim values: one plan sized for the largest shape, and the bytes it wastes at each smaller one.")
    boolean worstCase;

    @Option(names = "--out", paramLabel = "FILE", converter = FileToWrite.class, description = "Write the plan: FILE.json (plan JSON) or FILE.csv (minimalloc solution); - writes to stdout (plan JSON, or the solution CSV for a CSV problem) and the report to stderr.")
    Path out;

    @Option(names = "--strict", description = "A refused donation, or an in-place hint the op's kernel cannot honour, is an error (exit 2) instead of a refusal;"
            + " so is an op kind that is a near miss of a registry kind (Tranpose), or an op run would refuse (Sigmoid declared to write i64), each otherwise a warning.")
    boolean strict;

    @Option(names = "--svg", paramLabel = "FILE", converter = FileToWrite.class, description = "Write a picture of the plan (SVG).")
    Path svg;

    @Option(names = "--html", paramLabel = "FILE", converter = FileToWrite.class, description = "Write a page with the picture, why the peak is what it is, and the stats (HTML).")
    Path html;

    @Unmatched
    List<String> words = new ArrayList<>();

    /** {@code --input}: ONNX models only, each NAME=FILE.pb (plan has no graph yet to give an unnamed file to). */
    private void checkInputFlags() {
        if (inputFiles.isEmpty()) return;
        if (model != null || words.isEmpty() || !words.get(0).endsWith(".onnx"))
            throw new UsageException("--input applies to ONNX models (values of graph inputs that shape operands read at import); run takes graph inputs' values for any graph");
        for (String spec : inputFiles)
            if (spec.indexOf('=') <= 0) throw new UsageException("--input " + spec + ": plan needs NAME=FILE.pb (the graph input it gives)");
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stderr = spec.commandLine().getErr();
        // With --out - the plan itself goes to stdout, so the report moves to stderr.
        PrintWriter stdout = outToStdout() ? stderr : spec.commandLine().getOut();
        ArenaplanCli.refuseUnknownOptions(words, model, spec);
        if (align != null) Alignment.of(align);
        Map<String, List<Long>> dimValues = Dims.parse(Dims.routeToModel(model, dims, words));
        checkInputFlags();
        if (worstCase || Dims.sweeps(dimValues)) {
            if (!inputFiles.isEmpty()) throw new UsageException("--input plans one graph; it does not apply to several --dim values or --worst-case");
            if (scheduleFlags.given() || trainingFlags.train || fusionFlags.given())
                throw new UsageException("--schedule memory, --train and --fuse plan one graph; they do not apply to several --dim values or --worst-case");
            return sweep(dimValues, stdout);
        }
        TensorFiles.checkBeforeWork(inputFiles);   // as run does: an empty name or a missing file is refused before the graph is built
        PlanInput input = PlanInput.resolve(words, model, Dims.single(dimValues), donateInputs, TensorFiles.named(inputFiles, words, model));
        if (!inputFiles.isEmpty()) TensorFiles.inputs(input.graph(), input.edges(), inputFiles);   // each names a graph input, of its type and shape
        checkFlags(input);
        NearMissKinds.check(input, strict, stderr);
        UnrunnableOps.check(input, strict, stderr);
        Long cap = capacity;
        if (cap == null && !input.isGraph()) cap = ProblemCsv.capacityFromName(input.csv());
        PlannerOptions options = PlannerOptions.DEFAULT.withCapacity(cap);
        if (timeLimit != null) options = options.withTimeLimit(Seconds.of("--time-limit", timeLimit));
        Outcome outcome = plan(input, planner, options, stderr);
        if (cap != null && outcome.stats().arenaBytes() > cap && outcome.stats().lowerBoundBytes() <= cap && !"search".equals(planner))
            outcome = trySearch(input, outcome, options, stderr);
        requireValid(outcome.plan() != null ? PlanValidator.validate(outcome.plan())
                : PlacementValidator.validate(outcome.problem(), outcome.placement()), outcome.stats().planner());
        refuseCsvOnStreams(outcome);
        SummaryTable.print(stdout, input.label(), outcome.problem().alignment(), outcome.stats(), outcome.placement().provenOptimal(),
                cap, outcome.plan() == null ? List.of() : outcome.plan().refusals(), input.importerHints());
        fusionFlags.print(stdout);
        if (outcome.training() != null) TrainingFlags.print(outcome.training(), stdout);
        if (outcome.schedule() != null) ScheduleFlags.print(outcome.schedule(), stdout);
        if (outcome.plan() != null) streamFlags.print(outcome.plan().graph(), stdout);
        if (outcome.plan() != null && outcome.plan().graph().streams().size() > 1) printStreams(outcome.plan(), options, stdout, stderr);
        stdout.println(outcome.plan() != null ? PeakExplanation.of(outcome.plan()).text() : PeakExplanation.of(outcome.problem(), outcome.placement()).text());
        stdout.flush();
        if (cap != null && outcome.stats().arenaBytes() > cap) {
            stderr.println("arenaplan: no placement within the capacity of " + cap + " B was found by " + outcome.stats().planner()
                    + " (arena " + outcome.stats().arenaBytes() + " B)" + noneExists(outcome, cap) + "; nothing written");
            return ExitCodes.NO_PLACEMENT;
        }
        writeOutputs(outcome, stdout);
        return ExitCodes.OK;
    }

    /**
     * Why no placement within {@code cap} exists, or "" where the lower bound does not rule one
     * out. With {@code --sync none} the plan's lower bound holds the storages no event orders
     * against the peak, which {@code --sync add} may order: then none exists with this sync mode only.
     */
    private String noneExists(Outcome outcome, long cap) {
        long lb = outcome.stats().lowerBoundBytes();
        if (lb <= cap) return "";
        long unordered = outcome.plan() == null || streamFlags.mode() != SyncMode.NONE ? 0 : PeakExplanation.of(outcome.plan()).streamBytes();
        if (unordered > 0 && lb - unordered <= cap)
            return "; none exists with --sync none: its lower bound of " + lb + " B holds " + unordered
                    + " B of storages that no event orders against the peak; --sync add may order them";
        return "; none exists: no placement is smaller than the lower bound of " + lb + " B";
    }

    /** A plan of either input: {@code plan} and {@code schedule} are null for a CSV problem. */
    /** @param extra a CSV problem's columns besides the format's own, for the written solution */
    private record Outcome(Plan plan, Problem problem, Placement placement, PlanStats stats, Schedule schedule, TrainingFlags.Outcome training,
                           ProblemCsv.Extra extra) {
        Outcome(Plan plan, Problem problem, Placement placement, PlanStats stats, Schedule schedule, TrainingFlags.Outcome training) {
            this(plan, problem, placement, stats, schedule, training, ProblemCsv.Extra.NONE);
        }
    }

    private ArenaPlanner.Options graphOptions(PlannerOptions options) {
        long alignment = align == null ? ArenaPlanner.CUDA_ALIGNMENT : align;
        return ArenaPlanner.Options.DEFAULT.withPlanner(planner).withAlignment(alignment).withStrict(strict).withPlannerOptions(options);
    }

    private Outcome plan(PlanInput input, String plannerName, PlannerOptions options, PrintWriter stderr) {
        Planner watched = new WatchedPlanner("planning", Planners.byName(plannerName, options), stderr);
        return input.isGraph() ? planGraph(input, watched, options) : planProblem(input, watched);
    }

    /**
     * A heuristic's arena missed the capacity, which the lower bound does not rule out: plan
     * again with {@code search} (same capacity, {@code --time-limit} per placement it is asked
     * for), saying so on stderr, and keep the smaller arena.
     */
    private Outcome trySearch(PlanInput input, Outcome missed, PlannerOptions options, PrintWriter stderr) {
        stderr.printf(Locale.ROOT, "arenaplan: %s's arena of %,d B misses the capacity of %,d B; trying --planner search (--time-limit %s s)%n",
                missed.stats().planner(), missed.stats().arenaBytes(), options.capacity(), seconds(options.timeLimit()));
        stderr.flush();
        Outcome searched = plan(input, "search", options, stderr);
        boolean fits = searched.stats().arenaBytes() <= options.capacity();
        stderr.printf(Locale.ROOT, "arenaplan: search: arena %,d B, %s%n", searched.stats().arenaBytes(),
                fits ? "within the capacity" : "still over the capacity");
        stderr.flush();
        return searched.stats().arenaBytes() < missed.stats().arenaBytes() ? searched : missed;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.3g", d.toMillis() / 1000.0);
    }

    private Outcome planGraph(PlanInput input, Planner watched, PlannerOptions options) {
        ArenaPlanner.Options graphOptions = graphOptions(options);
        return input.blamingInput(g -> {
            TrainingFlags.Outcome training = trainingFlags.apply(fusionFlags.apply(g, trainingFlags.train), graphOptions.alignment());
            Schedule schedule = scheduleFlags.apply(training.graph(), graphOptions.alignment());
            Plan plan = StreamPlanner.plan(schedule.graph(), streamFlags.count(), streamFlags.mode(), graphOptions, watched);
            return new Outcome(plan, plan.problem(), plan.placement(), plan.stats(), schedule, training);
        });
    }

    /** {@code --dim NAME=V1,V2,...} on an ONNX model: one plan per shape, or one worst-case plan. */
    private int sweep(Map<String, List<Long>> dimValues, PrintWriter stdout) {
        if (model != null || words.size() != 1 || !words.get(0).toLowerCase(Locale.ROOT).endsWith(".onnx"))
            throw new UsageException("several --dim values and --worst-case need one MODEL.onnx");
        if (dimValues.isEmpty()) throw new UsageException("--worst-case needs --dim NAME=V1,V2,...");
        if (capacity != null || streamFlags.given())
            throw new UsageException("--capacity, --streams and --sync plan one shape; they do not apply to several --dim values or --worst-case");
        if (!worstCase && (out != null || svg != null || html != null))
            throw new UsageException("--out, --svg and --html write one plan, and several --dim values make one per shape;"
                    + " add --worst-case to write the one plan sized for the largest shape, or give one value per --dim");
        checkFiles();
        PlannerOptions options = timeLimit == null ? PlannerOptions.DEFAULT : PlannerOptions.DEFAULT.withTimeLimit(Seconds.of("--time-limit", timeLimit));
        ShapeSweep sweep = new ShapeSweep(Path.of(words.get(0)), OnnxImporter.Options.DEFAULT.withDonateInputs(donateInputs), graphOptions(options));
        if (!worstCase) {
            for (ShapeSweep.Row r : sweep.perShape(dimValues))
                stdout.printf(Locale.ROOT, "%s arena %,d B, lower bound %,d B%n", r.dims(), r.arenaBytes(), r.plan().stats().lowerBoundBytes());
            stdout.println(sweep.cachedPlans() + " plans cached, one per shape");
        } else {
            ShapeSweep.WorstCase w = sweep.worstCase(dimValues);
            stdout.printf(Locale.ROOT, "worst case %s: one arena of %,d B%s%n", w.largest(), w.plan().arenaBytes(),
                    w.concatsAsCopies() ? " (concats as copies: in place depends on the shape)" : "");
            for (ShapeSweep.Row r : w.rows())
                stdout.printf(Locale.ROOT, "%s own arena %,d B, wasted by the worst-case plan %,d B%s%n", r.dims(), r.arenaBytes(), r.wastedBytes(),
                        r.fitsWorstCase() ? "" : " — DOES NOT FIT the worst-case offsets");
            writeOutputs(new Outcome(w.plan(), w.plan().problem(), w.plan().placement(), w.plan().stats(), null, null), stdout);
        }
        stdout.flush();
        return ExitCodes.OK;
    }

    /**
     * The price of concurrency and every event, one line each. The price plans the graph up to
     * twice more (on one stream; with the data events alone), with the same planner and
     * {@code --time-limit} each, showing its progress as the plan does.
     */
    private void printStreams(Plan plan, PlannerOptions options, PrintWriter stdout, PrintWriter stderr) {
        Planner watched = WatchedPlanner.pricing(Planners.byName(planner, options), stderr);
        stdout.println(StreamPlanner.price(plan, graphOptions(options), watched).summary());
        stdout.println("events (" + plan.sync().events().size() + "):");
        for (SyncEvent e : plan.sync().events()) stdout.println("  " + org.arenaplan.io.Printable.of(SyncText.line(plan.graph(), e)));
    }

    private Outcome planProblem(PlanInput input, Planner watched) {
        long alignment = align == null ? 1 : align;
        ProblemCsv.Parsed read = FileAccess.read(input.csv(), "PROBLEM.csv", f -> ProblemCsv.readWithColumns(f, alignment));
        Problem problem = read.problem();
        long t0 = System.nanoTime();
        Placement placement = watched.place(problem);
        double ms = (System.nanoTime() - t0) / 1e6;
        int n = problem.size();
        // A per-buffer allocator mallocs and frees every buffer once per run.
        PlanStats stats = new PlanStats(placement.planner(), placement.arenaBytes(), problem.sumBytes(), problem.lowerBound(),
                n, n, 2L * n, n == 0 ? 0 : 1, ms);
        return new Outcome(null, problem, placement, stats, null, null, read.extra());
    }

    private void checkFlags(PlanInput input) {
        if (capacity != null && capacity < 0) throw new UsageException("--capacity must not be negative, got " + capacity);
        if (timeLimit != null) Seconds.of("--time-limit", timeLimit);
        scheduleFlags.check();
        checkFiles();
        streamFlags.count();
        streamFlags.mode();
        if ((scheduleFlags.given() || trainingFlags.train || fusionFlags.given()) && !input.isGraph())
            throw new UsageException(input.csvNeedsAGraph("--schedule, --train and --fuse need"));
        if (streamFlags.given() && !input.isGraph())
            throw new UsageException(input.csvNeedsAGraph("--streams and --sync need"));
        checkPlannerName(planner);
    }

    /** {@code --out}, {@code --svg} and {@code --html}: a known kind of file, in a folder that exists, before any work. */
    private void checkFiles() {
        if (out != null && !outToStdout()) {
            FileAccess.refuseFolder(out, "--out");   // before the name's ending: a folder's name says nothing of it
            String name = out.getFileName().toString().toLowerCase(Locale.ROOT);
            if (!name.endsWith(".json") && !name.endsWith(".csv"))
                throw new UsageException("--out " + out + ": the name must end in .json (plan JSON) or .csv (minimalloc solution)");
            FileAccess.checkWritable(out, "--out");
        }
        if (out != null && !outToStdout()) FileAccess.checkNotAnInput(out, "--out", words);
        String[] flags = {"--out", "--svg", "--html"};
        Path[] files = {out != null && outToStdout() ? null : out, svg, html};
        for (int a = 0; a < files.length; a++)
            for (int b = a + 1; b < files.length; b++)
                if (files[a] != null && files[b] != null && FileAccess.resolved(files[a]).equals(FileAccess.resolved(files[b])))
                    throw new UsageException(flags[b] + " " + files[b] + ": this file is also " + flags[a] + "'s; one would overwrite the other, so give each its own name");
        for (Path picture : new Path[]{svg, html}) {
            if (picture == null) continue;
            String flag = picture == svg ? "--svg" : "--html";
            FileAccess.checkWritable(picture, flag);
            FileAccess.checkNotAnInput(picture, flag, words);
        }
    }

    /** A --planner value is usage: an unknown name is exit 2 before any work. */
    static void checkPlannerName(String planner) {
        if (!Planners.names().contains(planner))
            throw new UsageException("unknown planner '" + planner + "'; known: " + String.join(", ", Planners.names()));
    }

    /**
     * {@code --out FILE.csv} of a plan whose ops ended on several streams: refused before the
     * report is printed (whether {@code --streams N} fills more than one stream is only known
     * once the ops are assigned, so this cannot be checked with the other flags).
     */
    private void refuseCsvOnStreams(Outcome o) {
        if (out == null || o.plan() == null) return;
        boolean json = outToStdout() || out.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        int streams = o.plan().graph().streams().size();
        if (!json && streams > 1)
            throw new UsageException("--out " + out + ": a plan on " + streams + " streams reuses bytes across streams only where happens-before "
                    + "allows, which a minimalloc CSV (intervals of schedule positions) cannot hold: a placement valid for the CSV could reuse bytes "
                    + "that another stream still reads; write --out FILE.json (it keeps the events and the conflicts)");
    }

    private void writeOutputs(Outcome o, PrintWriter stdout) {
        if (out != null) {
            // To stdout: plan JSON for a graph, the solution CSV for a CSV problem (the input's own kind).
            boolean json = outToStdout() ? o.plan() != null : out.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
            if (!json) checkCsvIds(o.problem());
            FileAccess.Writing body = json
                    ? w -> {
                        if (o.plan() != null) PlanJson.write(o.plan(), o.schedule(), w);
                        else PlanJson.write(o.problem(), o.placement(), o.stats(), w);
                    }
                    : w -> ProblemCsv.writeSolution(o.problem(), o.placement(), o.extra(), w);
            if (outToStdout()) {
                FileAccess.writeTo(spec.commandLine().getOut(), body);
            } else {
                FileAccess.write(out, "--out", body);
                stdout.println("wrote " + out);
            }
        }
        if (svg != null) {
            FileAccess.write(svg, "--svg", w -> {
                if (o.plan() != null) PlanPictures.svg(o.plan(), w);
                else PlanPictures.svg(o.problem(), o.placement(), w);
            });
            stdout.println("wrote " + svg);
        }
        if (html != null) {
            FileAccess.write(html, "--html", w -> {
                if (o.plan() != null) PlanPictures.html(o.plan(), w);
                else PlanPictures.html(o.problem(), o.placement(), w);
            });
            stdout.println("wrote " + html);
        }
        stdout.flush();
    }

    private boolean outToStdout() {
        return out != null && out.toString().equals("-");
    }

    /** An id the CSV would not read back as written ({@link ProblemCsv#unwritableId}): a comma, spaces around it, ... */
    private void checkCsvIds(Problem p) {
        for (int i = 0; i < p.size(); i++) {
            String why = ProblemCsv.unwritableId(p.id(i));
            if (why != null)
                throw new UsageException("--out " + out + ": the name of storage '" + org.arenaplan.io.Printable.name(p.id(i)) + "' " + why + "; use --out FILE.json");
        }
    }

    /** Lists the planner names for the help text. */
    static final class PlannerNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Planners.names().iterator();
        }
    }

    /**
     * A plan the independent validator rejects is a planner bug, never a result: an internal
     * error naming the planner and the first violation (exit 1), checked by {@code plan} and by
     * {@code run} before anything reaches a device.
     */
    static void requireValid(List<Violation> violations, String planner) {
        if (!violations.isEmpty())
            throw new IllegalStateException(planner + " produced an invalid plan (" + violations.size() + " violations), first: " + violations.get(0));
    }
}
