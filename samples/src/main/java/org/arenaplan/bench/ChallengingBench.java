package org.arenaplan.bench;

import org.arenaplan.io.Printable;

import org.arenaplan.io.ProblemCsv;
import org.arenaplan.plan.BestPlanner;
import org.arenaplan.plan.Placement;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.PlannerOptions;
import org.arenaplan.plan.Problem;
import org.arenaplan.plan.search.PerfectPackings;
import org.arenaplan.plan.search.SearchOutcome;
import org.arenaplan.plan.search.SearchPlanner;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Benchmarks the {@code search} planner and prints a table, one row per instance:
 * <ul>
 *   <li>{@link Mode#CHALLENGING}: every {@code *.1048576.csv} under a directory (MiniMalloc's
 *       challenging instances), searched with capacity 1048576, beside MiniMalloc's published
 *       times;</li>
 *   <li>{@link Mode#REAL}: every {@code *.csv} under a directory (real traces), arena minimised,
 *       arena / lower bound for {@code best} and {@code search};</li>
 *   <li>{@link Mode#PERFECT}: {@value #PERFECT_COUNT} generated perfect packings of 150 to 395
 *       buffers (instance k: 150 + 5k buffers, seed {@code first} + k + 1, {@code first} 0 unless
 *       given; optimum = capacity by construction), searched at their capacity.</li>
 * </ul>
 * Every placement is checked by {@link PlacementValidator}. Times are wall-clock for the whole
 * planner (including its {@code best} start) and the process CPU time over the same span, which
 * shows how much of the machine the run actually had.
 */
public final class ChallengingBench {
    public enum Mode { CHALLENGING, REAL, PERFECT }

    public static final long CHALLENGING_CAPACITY = 1_048_576L;
    /** MiniMalloc's published solve times (seconds) on its challenging instances. */
    public static final Map<String, Double> MINIMALLOC_SECONDS = Map.of("A", 4.91, "C", 0.64, "E", 3.72, "G", 1.18, "I", 3.91, "K", 0.63);
    static final int PERFECT_COUNT = 50;

    private ChallengingBench() { }

    /**
     * Runs one mode and prints its table.
     *
     * @param dir  the problems directory (ignored for {@link Mode#PERFECT})
     * @return how many instances missed the target (within capacity, or arena/LB <= 1.001 for
     *         real traces) or failed validation
     */
    public static int run(PrintStream out, Mode mode, Path dir, Duration timeLimit) throws IOException {
        return run(out, mode, dir, timeLimit, (i, name) -> { });
    }

    /** Told before each instance is solved: its index (from 0) and name. */
    public interface Starting {
        void instance(int index, String name);
    }

    /** As {@link #run(PrintStream, Mode, Path, Duration)}, telling {@code starting} before each instance. */
    public static int run(PrintStream out, Mode mode, Path dir, Duration timeLimit, Starting starting) throws IOException {
        return run(out, mode, dir, timeLimit, 0, starting);
    }

    /**
     * As {@link #run(PrintStream, Mode, Path, Duration, Starting)}; {@code seed} shifts the
     * perfect packings' seeds (instance k gets {@code seed + k + 1}) for a set of instances
     * other than the default one (ignored by the other modes).
     */
    public static int run(PrintStream out, Mode mode, Path dir, Duration timeLimit, long seed, Starting starting) throws IOException {
        return run(out, mode, dir, new Limits(timeLimit, Long.MAX_VALUE), seed, starting);
    }

    /**
     * What each instance may use: {@code time} per instance (the whole planner, {@code best}
     * included) and {@code nodes}, the most exact-search nodes ({@link Long#MAX_VALUE}: no
     * limit; see {@link SearchPlanner#SearchPlanner(PlannerOptions, long)}). A node limit makes
     * the counts independent of the machine's load, as long as the time limit is not reached first.
     */
    public record Limits(Duration time, long nodes) { }

    /** As {@link #run(PrintStream, Mode, Path, Duration, long, Starting)}, with a node limit too. */
    public static int run(PrintStream out, Mode mode, Path dir, Limits limits, long seed, Starting starting) throws IOException {
        return switch (mode) {
            case CHALLENGING -> challenging(out, dir, limits, starting);
            case REAL -> real(out, dir, limits, starting);
            case PERFECT -> perfect(out, limits, seed, starting);
        };
    }

    /** How many instances {@link #run} would solve. */
    public static int instances(Mode mode, Path dir) throws IOException {
        return mode == Mode.PERFECT ? PERFECT_COUNT : csvs(dir, suffix(mode)).size();
    }

    /** The files a mode takes from its folder, as a glob. */
    public static String pattern(Mode mode) {
        return "*" + suffix(mode);
    }

    private static String suffix(Mode mode) {
        return mode == Mode.CHALLENGING ? ".1048576.csv" : ".csv";
    }

    private static int challenging(PrintStream out, Path dir, Limits limit, Starting starting) throws IOException {
        out.printf("%-9s %7s %9s %9s %6s %9s %-22s %9s %8s %8s %10s %9s %s%n",
                "instance", "buffers", "LB", "best", "b/cap", "search", "status", "nodes", "time_s", "cpu_s", "minimalloc", "ours/mm", "valid");
        int missed = 0;
        List<Path> files = csvs(dir, suffix(Mode.CHALLENGING));
        for (int k = 0; k < files.size(); k++) {
            Path f = files.get(k);
            starting.instance(k, f.getFileName().toString());
            Problem p = ProblemCsv.read(f, 1);
            long best = new BestPlanner().place(p).arenaBytes();
            Timed t = Timed.run(p, CHALLENGING_CAPACITY, limit);
            String name = f.getFileName().toString().replace(".1048576.csv", "");   // the row shows it escaped and cut (Printable.name): a file name from --dir
            Double theirs = MINIMALLOC_SECONDS.get(name);
            boolean valid = valid(p, t.outcome.placement());
            if (!valid || !t.outcome.fits()) missed++;
            out.printf(Locale.ROOT, "%-9s %7d %9d %9d %6.3f %9d %-22s %9d %8.2f %8.2f %10s %9s %s%n",
                    Printable.name(name), p.size(), p.lowerBound(), best, (double) best / CHALLENGING_CAPACITY, t.outcome.placement().arenaBytes(),
                    t.outcome.status(), t.outcome.nodes(), t.wallSeconds, t.cpuSeconds, theirs == null ? "-" : String.format(Locale.ROOT, "%.2f", theirs),
                    theirs == null ? "-" : String.format(Locale.ROOT, "%.2f", t.wallSeconds / theirs), valid ? "yes" : "NO");
        }
        return missed;
    }

    private static int real(PrintStream out, Path dir, Limits limit, Starting starting) throws IOException {
        out.printf("%-16s %7s %14s %10s %10s %-20s %8s %8s %s%n", "trace", "buffers", "LB", "best/LB", "search/LB", "status", "time_s", "cpu_s", "valid");
        int missed = 0;
        List<Path> files = csvs(dir, suffix(Mode.REAL));
        for (int k = 0; k < files.size(); k++) {
            Path f = files.get(k);
            starting.instance(k, f.getFileName().toString());
            Problem p = ProblemCsv.read(f, 1);
            long lb = p.lowerBound();
            long best = new BestPlanner().place(p).arenaBytes();
            Timed t = Timed.run(p, null, limit);
            boolean valid = valid(p, t.outcome.placement());
            double ratio = (double) t.outcome.placement().arenaBytes() / lb;
            if (!valid || ratio > 1.001) missed++;
            out.printf(Locale.ROOT, "%-16s %7d %14d %10.5f %10.5f %-20s %8.2f %8.2f %s%n", Printable.name(f.getFileName().toString().replace(".csv", "")),
                    p.size(), lb, (double) best / lb, ratio, t.outcome.status(), t.wallSeconds, t.cpuSeconds, valid ? "yes" : "NO");
        }
        return missed;
    }

    private static int perfect(PrintStream out, Limits limit, long seed, Starting starting) {
        out.printf("%-14s %7s %9s %9s %9s %-22s %9s %8s %8s %s%n", "instance", "buffers", "capacity", "best", "search", "status", "nodes", "time_s", "cpu_s", "valid");
        int missed = 0;
        int fitted = 0;
        for (int k = 0; k < PERFECT_COUNT; k++) {
            int n = 150 + 5 * k;
            String name = "perfect-" + n + "-" + (seed + k + 1);
            starting.instance(k, name);
            Problem p = PerfectPackings.generate(seed + k + 1, n, CHALLENGING_CAPACITY, 1000, 1024);
            long best = new BestPlanner().place(p).arenaBytes();
            Timed t = Timed.run(p, CHALLENGING_CAPACITY, limit);
            boolean valid = valid(p, t.outcome.placement());
            if (!valid || !t.outcome.fits()) missed++;
            else fitted++;
            out.printf(Locale.ROOT, "%-14s %7d %9d %9d %9d %-22s %9d %8.2f %8.2f %s%n", name, p.size(), CHALLENGING_CAPACITY,
                    best, t.outcome.placement().arenaBytes(), t.outcome.status(), t.outcome.nodes(), t.wallSeconds, t.cpuSeconds, valid ? "yes" : "NO");
        }
        out.printf(Locale.ROOT, "fitted %d of %d perfect packings within %.1f s each%s%n", fitted, PERFECT_COUNT, limit.time().toMillis() / 1000.0,
                (limit.nodes() == Long.MAX_VALUE ? "" : " and " + limit.nodes() + " search nodes")
                        + " (exact search on " + SearchPlanner.defaultThreads() + " thread(s)" + (limit.nodes() == Long.MAX_VALUE ? "" : ", each with the node limit") + ")");
        return missed;
    }

    /** No overlap, alignment or arena violation (the capacity is judged apart, by the status). */
    private static boolean valid(Problem p, Placement s) {
        return PlacementValidator.validate(p, s).isEmpty();
    }

    private static List<Path> csvs(Path dir, String suffix) throws IOException {
        String notAFolder = org.arenaplan.io.TextFiles.notAFolder("--dir", dir);
        if (notAFolder != null) throw new IOException(notAFolder);
        List<Path> csvs;
        try (Stream<Path> files = Files.list(dir)) {
            csvs = files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
        for (Path f : csvs) {                      // before any is read: a pipe no one writes would block the bench
            String pipe = org.arenaplan.io.TextFiles.notARegularFile("--dir", f);
            if (pipe != null) throw new org.arenaplan.io.InputException(pipe);
        }
        return csvs;
    }

    /** One planner run with its wall and process CPU time. */
    private record Timed(SearchOutcome outcome, double wallSeconds, double cpuSeconds) {
        static Timed run(Problem p, Long capacity, Limits limit) {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            SearchOutcome o = new SearchPlanner(new PlannerOptions(capacity, limit.time()), limit.nodes()).solve(p);
            return new Timed(o, (System.nanoTime() - t0) / 1e9, (os.getProcessCpuTime() - cpu0) / 1e9);
        }
    }

    /** {@code challenging|real|perfect [dir] [seconds] [seed]}; dir defaults to ../shared/problems/{challenging,real}. */
    public static void main(String[] args) throws IOException {
        Mode mode = args.length > 0 ? Mode.valueOf(args[0].toUpperCase(Locale.ROOT)) : Mode.CHALLENGING;
        Path dir = args.length > 1 ? Path.of(args[1]) : Path.of("../shared/problems", mode == Mode.REAL ? "real" : "challenging");
        Duration limit = Duration.ofMillis((long) (1000 * (args.length > 2 ? Double.parseDouble(args[2]) : 10)));
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 0;
        int missed = run(System.out, mode, dir, limit, seed, (i, name) -> { });
        System.out.println(missed == 0 ? "all instances met the target" : missed + " instance(s) missed the target");
        System.exit(missed == 0 ? 0 : 1);
    }
}
