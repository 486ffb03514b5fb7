package org.arenaplan.cli;

import org.arenaplan.io.GraphJson;
import org.arenaplan.io.PlanJson;
import org.arenaplan.io.ProblemCsv;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.models.BuiltinModels;
import org.arenaplan.onnx.OnnxImporter;
import org.arenaplan.plan.PlacementValidator;
import org.arenaplan.plan.Problem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every malformed input is bad input: seeded mutants ({@link Mutants}) of valid graph JSON, CSV
 * problems, solution CSVs, plan JSON and ONNX files go through the command line's entry point
 * ({@code plan}, {@code validate}) or, for plan JSON, through {@link PlanJson#read} (which
 * {@code validate PROBLEM.csv PLAN.json} uses) and the command line's one exception mapping
 * ({@link ExitCodes#of}).
 *
 * <p>Each case must end as one of: exit 2 with one line naming the file; accepted (exit 0; a
 * plan is re-checked by {@code plan}'s own validator); for {@code validate}, a verdict (0 or 1)
 * that an exact, brute-force check of the solution agrees with. Failures: an exception or
 * internal error, a case running past {@link #PER_CASE_SECONDS}, a mutant that every correct
 * reader must refuse being accepted, or an error that is not one line naming the file. The
 * counts are printed; a failing case is reproducible from its reader and index alone.
 */
class ReaderFuzzTest {
    private static final long SEED = 20261130L;
    private static final int PER_CASE_SECONDS = 20;
    private static final Path ONNX_LIGHT = sharedModels();

    enum Verdict { CLEAN_ERROR, ACCEPTED, JUDGED_INVALID, CRASH, HANG, WRONGLY_ACCEPTED, WRONG_VERDICT, UNCLEAR_ERROR }

    private static final Map<String, Map<Verdict, Integer>> COUNTS = new java.util.LinkedHashMap<>();
    private static ExecutorService runner;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        runner = daemonRunner();
    }

    @AfterAll
    static void report() {
        runner.shutdownNow();
        Map<Verdict, Integer> total = new EnumMap<>(Verdict.class);
        StringBuilder s = new StringBuilder("reader fuzz (seed " + SEED + "):\n");
        for (Map.Entry<String, Map<Verdict, Integer>> e : COUNTS.entrySet()) {
            s.append(String.format(Locale.ROOT, "  %-14s %s%n", e.getKey(), e.getValue()));
            e.getValue().forEach((v, n) -> total.merge(v, n, Integer::sum));
        }
        s.append(String.format(Locale.ROOT, "  %-14s %s", "all", total));
        System.out.println(s);
    }

    private static ExecutorService daemonRunner() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-case");
            t.setDaemon(true);
            return t;
        });
    }

    /** One mutant run: its verdict and what it printed. */
    private record Result(Verdict verdict, String detail) { }

    /** Runs the cases of one reader, tallies them and fails listing every bad case. */
    private void fuzz(String reader, int cases, Function<Integer, Result> oneCase) {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            int index = i;
            Future<Result> f = runner.submit(() -> oneCase.apply(index));
            Result r;
            try {
                r = f.get(PER_CASE_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                f.cancel(true);
                runner.shutdownNow();
                runner = daemonRunner();
                r = new Result(Verdict.HANG, "ran past " + PER_CASE_SECONDS + " s");
            } catch (Exception e) {
                r = new Result(Verdict.CRASH, "escaped: " + e.getCause());
            }
            counts.merge(r.verdict(), 1, Integer::sum);
            if (r.verdict().compareTo(Verdict.CRASH) >= 0) {
                bad.add(reader + " #" + i + " " + r.verdict() + ": " + r.detail());
                keep();
            }
        }
        COUNTS.put(reader, counts);
        assertThat(bad).as(reader + " mutants that did not end as a clean error or a correct acceptance").isEmpty();
    }

    /** With FUZZ_KEEP=DIR, the files of failing cases are copied there to reproduce them by hand. */
    private void keep() {
        String to = System.getenv("FUZZ_KEEP");
        if (to == null) return;
        try (var files = Files.list(dir)) {
            Files.createDirectories(Path.of(to));
            for (Path f : files.toList()) Files.copy(f, Path.of(to).resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Path write(String name, byte[] bytes) {
        try {
            Path f = dir.resolve(name);
            Files.write(f, bytes);
            return f;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The verdict on one command line run over {@code file}: exit 2 must be one line naming the
     * file; exit 0 is an acceptance, wrong when the mutant must be refused.
     */
    private static Result judge(Cli r, Path file, Mutants.Mutant m) {
        String what = outcome(m, r);
        if (r.code() == ExitCodes.BAD_INPUT) return cleanError(r.err(), file, what);
        if (r.code() == ExitCodes.OK) return new Result(m.mustReject() ? Verdict.WRONGLY_ACCEPTED : Verdict.ACCEPTED, what);
        return new Result(Verdict.CRASH, what);
    }

    /** The mutation and how the run ended, short enough to list many. */
    private static String outcome(Mutants.Mutant m, Cli r) {
        String err = r.err().strip();
        return m.what() + " -> exit " + r.code() + (err.isEmpty() ? "" : ": " + (err.length() > 400 ? err.substring(0, 400) + "..." : err));
    }

    private static Result cleanError(String err, Path file, String what) {
        List<String> lines = err.lines().toList();
        boolean oneLine = lines.size() == 1 && lines.get(0).startsWith("arenaplan: ");
        boolean namesFile = err.contains(file.getFileName().toString());
        boolean noInternals = !err.contains("internal error") && !err.contains("Exception") && !err.contains("\tat ");
        return new Result(oneLine && namesFile && noInternals ? Verdict.CLEAN_ERROR : Verdict.UNCLEAR_ERROR, what);
    }

    // ---- seeds ----

    /** The first {@code shared/models/onnx-light} walking up from the module (beside a worktree too), else {@code ../shared/...}. */
    private static Path sharedModels() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared").resolve("models").resolve("onnx-light");
            if (Files.isDirectory(candidate)) return candidate;
        }
        return Path.of("..", "shared", "models", "onnx-light");
    }

    /** A random valid problem of 12 buffers (seeded). */
    private static String problemCsv(Random r) {
        StringBuilder s = new StringBuilder("id,lower,upper,size\n");
        for (int i = 0; i < 12; i++) {
            int lo = r.nextInt(10);
            s.append("b").append(i).append(',').append(lo).append(',').append(lo + 1 + r.nextInt(6)).append(',').append(1 + r.nextInt(4096)).append('\n');
        }
        return s.toString();
    }

    private static List<String> graphSeeds() throws Exception {
        List<String> seeds = new ArrayList<>();
        for (String m : List.of("chain", "mlp", "transformer", "inception", "unet", "train-mlp")) {
            seeds.add(GraphJson.toString(BuiltinModels.build(m, Map.of())));
        }
        seeds.add(GraphJson.toString(PlanCommandTest.graph()));
        Path conv = Files.createTempFile("conv", ".onnx");
        try {
            Files.write(conv, onnxSeed("conv.onnx"));
            seeds.add(GraphJson.toString(OnnxImporter.load(conv, Map.of())));
        } finally {
            Files.delete(conv);
        }
        return seeds;
    }

    private static byte[] onnxSeed(String name) throws Exception {
        try (InputStream in = ReaderFuzzTest.class.getResourceAsStream("/fuzz/" + name)) {
            return in.readAllBytes();
        }
    }

    private static boolean attrValue(String path) {
        return path.matches("\\$\\.ops\\[\\d+]\\.attrs\\..+");
    }

    // ---- the readers ----

    @Test
    void csvProblems() {
        List<String> seeds = List.of(problemCsv(new Random(SEED)), problemCsv(new Random(SEED + 1)),
                "id,lower,upper,size\nb0,5,8,4\nb1,0,2,3\nb2,4,8,5\nb3,1,4,2\nb4,0,5,3\nb5,3,4,2\nb6,2,3,4\n");
        fuzz("csv problem", 150, i -> {
            Mutants mu = new Mutants(SEED + i);
            byte[] seed = seeds.get(i % seeds.size()).getBytes(StandardCharsets.UTF_8);
            int kind = mu.nextInt(20);
            Mutants.Mutant m = kind < 13 ? mu.csv(new String(seed, StandardCharsets.UTF_8), false)
                    : kind < 16 ? mu.bitFlips(seed) : kind < 19 ? mu.truncation(seed, false) : Mutants.byteOrderMark(seed);
            Path f = write("p" + i + ".csv", m.bytes());
            return judge(Cli.run("plan", f.toString()), f, m);
        });
    }

    @Test
    void solutionCsvs() {
        String problem = problemCsv(new Random(SEED + 2));
        Path p = write("problem.csv", problem.getBytes(StandardCharsets.UTF_8));
        Path s = dir.resolve("solution.csv");
        assertThat(Cli.run("plan", p.toString(), "--out", s.toString()).code()).isZero();
        byte[] solution = readAll(s);
        fuzz("solution csv", 150, i -> {
            Mutants mu = new Mutants(SEED + 1000 + i);
            boolean mutateProblem = mu.nextInt(5) == 0;
            byte[] seed = mutateProblem ? problem.getBytes(StandardCharsets.UTF_8) : solution;
            int kind = mu.nextInt(20);
            Mutants.Mutant m = kind < 14 ? mu.csv(new String(seed, StandardCharsets.UTF_8), !mutateProblem)
                    : kind < 17 ? mu.bitFlips(seed) : kind < 19 ? mu.truncation(seed, false) : Mutants.byteOrderMark(seed);
            Path mp = mutateProblem ? write("mp" + i + ".csv", m.bytes()) : p;
            Path ms = mutateProblem ? s : write("ms" + i + ".csv", m.bytes());
            Cli r = Cli.run("validate", mp.toString(), ms.toString());
            Path file = mutateProblem ? mp : ms;
            if (r.code() == ExitCodes.BAD_INPUT) return cleanError(r.err(), file, outcome(m, r));
            if (r.code() != ExitCodes.OK && r.code() != ExitCodes.INVALID || r.err().contains("internal error"))
                return new Result(Verdict.CRASH, outcome(m, r));
            if (m.mustReject()) return new Result(Verdict.WRONGLY_ACCEPTED, outcome(m, r));
            boolean valid = exactlyValid(mp, ms);
            if (valid != (r.code() == ExitCodes.OK))
                return new Result(Verdict.WRONG_VERDICT, outcome(m, r) + "; the exact check says " + (valid ? "valid" : "invalid") + ", validate printed: " + r.out());
            return new Result(valid ? Verdict.ACCEPTED : Verdict.JUDGED_INVALID, m.what());
        });
    }

    @Test
    void graphJson() throws Exception {
        List<String> seeds = graphSeeds();
        fuzz("graph json", 220, i -> {
            Mutants mu = new Mutants(SEED + 2000 + i);
            String text = seeds.get(i % seeds.size());
            byte[] seed = text.getBytes(StandardCharsets.UTF_8);
            int kind = mu.nextInt(20);
            Mutants.Mutant m = kind < 12 ? mu.json(text, ReaderFuzzTest::attrValue, OpRegistry::knows) : kind < 15 ? mu.jsonText(text)
                    : kind < 17 ? mu.bitFlips(seed) : kind < 19 ? mu.truncation(seed, true) : Mutants.byteOrderMark(seed);
            Path f = write("g" + i + ".json", m.bytes());
            return planThenRun(f, m);
        });
    }

    @Test
    void planJson() {
        List<String> seeds = new ArrayList<>();
        Path p = write("problem.csv", problemCsv(new Random(SEED + 3)).getBytes(StandardCharsets.UTF_8));
        String[][] plans = {{p.toString()}, {"--model", "mlp"}, {"--model", "inception", "--streams", "2", "--sync", "add"}};
        for (int k = 0; k < plans.length; k++) {
            Path out = dir.resolve("plan" + k + ".json");
            List<String> args = new ArrayList<>(List.of("plan"));
            args.addAll(List.of(plans[k]));
            args.addAll(List.of("--out", out.toString()));
            Cli r = Cli.run(args.toArray(new String[0]));
            assertThat(r.code()).as(r.toString()).isZero();
            seeds.add(new String(readAll(out), StandardCharsets.UTF_8));
        }
        fuzz("plan json", 150, i -> {
            Mutants mu = new Mutants(SEED + 3000 + i);
            String text = seeds.get(i % seeds.size());
            byte[] seed = text.getBytes(StandardCharsets.UTF_8);
            int kind = mu.nextInt(20);
            Mutants.Mutant m = kind < 12 ? mu.json(text, path -> false, k -> false) : kind < 15 ? mu.jsonText(text)
                    : kind < 17 ? mu.bitFlips(seed) : kind < 19 ? mu.truncation(seed, true) : Mutants.byteOrderMark(seed);
            Path f = write("plan" + i + ".json", m.bytes());
            return readPlan(f, m);
        });
    }

    private static final Pattern ARENA = Pattern.compile("arena +([0-9,]+) B");
    /** Accepted graphs whose arena is at most this are also run on the simulator (its memory is on this JVM's heap). */
    private static final long RUN_UP_TO_BYTES = 1L << 20;

    /**
     * {@code plan}, then for an accepted graph small enough, {@code run} on the simulator: a graph
     * that plans must also run, or be refused as bad input, never crash an executor.
     */
    private static Result planThenRun(Path f, Mutants.Mutant m) {
        Cli planned = Cli.run("plan", f.toString());
        Result r = judge(planned, f, m);
        if (r.verdict() != Verdict.ACCEPTED) return r;
        Matcher arena = ARENA.matcher(planned.out());
        if (!arena.find() || Long.parseLong(arena.group(1).replace(",", "")) > RUN_UP_TO_BYTES) return r;
        Cli ran = Cli.run("run", f.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1");
        if (ran.code() == ExitCodes.OK) return r;
        return ran.code() == ExitCodes.BAD_INPUT ? cleanError(ran.err(), f, "run: " + outcome(m, ran)) : new Result(Verdict.CRASH, "run: " + outcome(m, ran));
    }

    /** What {@code validate} does with a plan file: read it, rebuild its problem, validate its offsets. */
    private static Result readPlan(Path f, Mutants.Mutant m) {
        try {
            PlanJson.PlanDocument doc = FileAccess.read(f, "PLAN.json", PlanJson::read);
            Problem problem = doc.problem();
            boolean valid = PlacementValidator.validate(problem, doc.offsets(), doc.arenaBytes(), null).isEmpty();
            if (m.mustReject()) return new Result(Verdict.WRONGLY_ACCEPTED, m.what());
            return new Result(valid ? Verdict.ACCEPTED : Verdict.JUDGED_INVALID, m.what());
        } catch (Exception e) {
            ExitCodes.Failure failure = ExitCodes.of(e, "arenaplan");
            if (failure.code() != ExitCodes.BAD_INPUT) return new Result(Verdict.CRASH, m.what() + " -> " + e);
            return cleanError("arenaplan: " + failure.message() + "\n", f, m.what() + " -> " + failure.message());
        }
    }

    @Test
    void onnxModels() throws Exception {
        List<byte[]> seeds = new ArrayList<>(List.of(onnxSeed("conv.onnx"), onnxSeed("mix.onnx")));
        for (String light : List.of("light_bvlc_alexnet.onnx", "light_zfnet512.onnx")) {
            if (Files.exists(ONNX_LIGHT.resolve(light))) seeds.add(Files.readAllBytes(ONNX_LIGHT.resolve(light)));
        }
        System.out.println("onnx fuzz: " + seeds.size() + " seeds" + (seeds.size() == 2 ? " (" + ONNX_LIGHT + " not found: the two committed ones only)" : ""));
        fuzz("onnx", 220, i -> {
            Mutants mu = new Mutants(SEED + 4000 + i);
            byte[] seed = seeds.get(i % seeds.size());
            int kind = mu.nextInt(20);
            Mutants.Mutant m = kind < 13 ? mu.protobuf(seed) : kind < 17 ? mu.bitFlips(seed) : mu.truncation(seed, false);
            Path f = write("m" + i + ".onnx", m.bytes());
            return planThenRun(f, m);
        });
    }

    // ---- the exact check of a solution ----

    /**
     * Brute force over all pairs in exact arithmetic: the solution has the problem's rows, every
     * offset is at least 0 and every end at most 2^63-1, and no two buffers live at once share a byte.
     */
    private static boolean exactlyValid(Path problemFile, Path solutionFile) {
        Problem p;
        ProblemCsv.Parsed s;
        try {
            p = ProblemCsv.read(problemFile, 1);
            s = ProblemCsv.readSolution(solutionFile, 1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Problem sp = s.problem();
        if (sp.size() != p.size()) return false;
        Map<String, Integer> row = new HashMap<>();
        for (int j = 0; j < sp.size(); j++) row.put(sp.id(j), j);
        BigInteger[] from = new BigInteger[p.size()], to = new BigInteger[p.size()];
        BigInteger limit = BigInteger.valueOf(Long.MAX_VALUE);
        for (int i = 0; i < p.size(); i++) {
            Integer j = row.get(p.id(i));
            if (j == null || sp.lower(j) != p.lower(i) || sp.upper(j) != p.upper(i) || sp.bytes(j) != p.bytes(i)) return false;
            from[i] = BigInteger.valueOf(s.offsets()[j]);
            to[i] = from[i].add(BigInteger.valueOf(p.bytes(i)));
            if (from[i].signum() < 0 || to[i].compareTo(limit) > 0) return false;
        }
        for (int a = 0; a < p.size(); a++) {
            for (int b = a + 1; b < p.size(); b++) {
                boolean together = p.lower(a) < p.upper(b) && p.lower(b) < p.upper(a);
                boolean shareBytes = p.bytes(a) > 0 && p.bytes(b) > 0 && from[a].compareTo(to[b]) < 0 && from[b].compareTo(to[a]) < 0;
                if (together && shareBytes) return false;
            }
        }
        return true;
    }

    private static byte[] readAll(Path f) {
        try {
            return Files.readAllBytes(f);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
