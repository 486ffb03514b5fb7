package org.arenaplan.cli;

import org.arenaplan.io.PlanJson;
import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.Violation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code arenaplan validate}: checks a minimalloc solution from any tool with the independent
 * {@link PlacementValidator}.
 *
 * <p>Steps: read the problem and the solution (a minimalloc CSV, or the plan JSON of
 * {@code plan PROBLEM.csv --out PLAN.json}, whose storages are the rows: name, start, end, bytes,
 * offset; read streamed, see {@link PlanJson#read}); match the solution's rows to the problem's by id
 * (each must appear once, with the problem's lower, upper and size); take the arena as
 * {@code max(offset + size)} (an end past 2^63-1 is a violation, never a wrapped number); run the validator with the capacity from {@code --capacity} or
 * the problem's {@code NAME.NUMBER.csv} name; print OK or every violation.
 */
@Command(name = "validate", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Checks a minimalloc solution CSV (the problem's rows plus an offset column), or the plan JSON that 'plan PROBLEM.csv --out PLAN.json' wrote, against its problem.",
                "Exit codes: 0 valid, 1 invalid, 2 bad input or usage."})
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Diagnostics diagnostics;

    @Parameters(index = "0", paramLabel = "PROBLEM.csv", description = "The problem: id,lower,upper,size.")
    Path problemFile;

    @Parameters(index = "1", paramLabel = "SOLUTION.csv|PLAN.json", description = "The solution: id,lower,upper,size,offset; or a plan JSON (a name ending in .json), one storage per buffer.")
    Path solutionFile;

    @Option(names = "--capacity", paramLabel = "BYTES", description = "The arena must fit in BYTES (default: the NUMBER of a NAME.NUMBER.csv problem).")
    Long capacity;

    @Option(names = "--align", paramLabel = "BYTES", description = "Every offset must be a multiple of BYTES, every size rounded up to it (default: a plan JSON's alignment, else 1).")
    Long align;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (align != null) Alignment.of(align);
        if (capacity != null && capacity < 0) throw new UsageException("--capacity must not be negative, got " + capacity);
        long given = align == null ? 1 : align;
        if (isPlanJson(problemFile))
            throw new UsageException("PROBLEM.csv: " + problemFile + " is a JSON file; validate checks a placement against a problem CSV (id,lower,upper,size), "
                    + "such as 'plan GRAPH.json --out P.csv' writes with the offsets (a graph's plan, events included, is checked by plan itself)");
        Problem problem = FileAccess.read(problemFile, "PROBLEM.csv", f -> ProblemCsv.read(f, given));
        int events = 0;
        ProblemCsv.Parsed solution;
        if (isPlanJson(solutionFile)) {
            PlanJson.PlanDocument plan = FileAccess.read(solutionFile, "PLAN.json", PlanJson::read);
            Problem rows = problem;   // asked only for the message of a plan refused, so a scan
            plan.requireOneBufferPerStorage(solutionFile.toString(), problemFile.toString(),
                    id -> java.util.stream.IntStream.range(0, rows.size()).anyMatch(i -> rows.id(i).equals(id)));
            events = plan.events().size();
            solution = fromPlan(plan);
        } else {
            solution = FileAccess.read(solutionFile, "SOLUTION.csv", f -> ProblemCsv.readSolution(f, given));
        }
        long planAlignment = solution.problem().alignment();
        if (align == null && planAlignment != given) {                    // a plan JSON records the alignment it was made with
            problem = FileAccess.read(problemFile, "PROBLEM.csv", f -> ProblemCsv.read(f, planAlignment));
        }
        Long cap = capacity != null ? capacity : ProblemCsv.capacityFromName(problemFile);

        List<Violation> violations = new ArrayList<>();
        long[] offsets = matchRows(problem, solution, violations);
        long arena = 0;
        if (violations.isEmpty()) {
            arena = PlacementValidator.topOf(problem, offsets);
            violations.addAll(PlacementValidator.validate(problem, offsets, arena, cap));
        }

        if (violations.isEmpty()) {
            long lb = problem.lowerBound();
            out.printf(Locale.ROOT, "OK: %d buffers, arena %d B, lower bound %d B, arena/LB %.4f%s%n", problem.size(), arena, lb,
                    lb == 0 ? 1.0 : (double) arena / lb, cap == null ? "" : ", within capacity " + cap + " B");
            if (events > 0)
                out.println("note: the plan's " + events + " sync event(s) are not checked here: validate checks the placement against the problem's intervals only; "
                        + "bytes reused across streams are safe only where an event orders them, which plan checks with the graph");
            out.flush();
            return ExitCodes.OK;
        }
        out.println("INVALID: " + violations.size() + (violations.size() == 1 ? " violation" : " violations"));
        for (Violation v : violations) out.println("  " + v);
        out.flush();
        return ExitCodes.INVALID;
    }

    private static boolean isPlanJson(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
    }

    /** A plan's storages as solution rows: id = name, lower = start, upper = end, size = bytes (not rounded up), and the offset. */
    private static ProblemCsv.Parsed fromPlan(PlanJson.PlanDocument plan) {
        return new ProblemCsv.Parsed(plan.problem(), plan.offsets());
    }

    /**
     * The solution's offsets in the problem's row order. Rows the problem lacks, rows missing from
     * the solution and rows whose interval or size differ are violations (and the placement is
     * then not checked: it would not be the problem's).
     */
    private long[] matchRows(Problem problem, ProblemCsv.Parsed solution, List<Violation> violations) {
        Problem sp = solution.problem();
        Map<String, Integer> rowOf = new HashMap<>();
        for (int j = 0; j < sp.size(); j++) rowOf.put(sp.id(j), j);
        long[] offsets = new long[problem.size()];
        for (int i = 0; i < problem.size(); i++) {
            String id = problem.id(i);
            Integer j = rowOf.remove(id);
            if (j == null) {
                violations.add(missing(id, "buffer '" + id + "' of the problem has no row in the solution"));
                continue;
            }
            offsets[i] = solution.offsets()[j];
            if (sp.lower(j) != problem.lower(i) || sp.upper(j) != problem.upper(i) || sp.bytes(j) != problem.bytes(i)) {
                violations.add(new Violation(Violation.Kind.ROW_MISMATCH, List.of(id), -1, 0, 0, "buffer '" + id + "' is [" + sp.lower(j) + ", " + sp.upper(j) + ") " + sp.bytes(j) + " B in the solution but ["
                        + problem.lower(i) + ", " + problem.upper(i) + ") " + problem.bytes(i) + " B in the problem"));
            }
        }
        for (String extra : rowOf.keySet()) violations.add(missing(extra, "the solution names buffer '" + extra + "', which the problem does not have"));
        return offsets;
    }

    private static Violation missing(String id, String message) {
        return new Violation(Violation.Kind.MISSING_BUFFER, List.of(id), -1, 0, 0, message);
    }
}
