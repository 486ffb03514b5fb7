package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a newcomer trying to break the command line found: inputs that ran out of memory or time,
 * or were accepted although no GPU could honour them. Each is now exit 2 with one line naming the
 * flag or file.
 */
class BreakerInputTest {
    @TempDir
    Path dir;

    private static void oneLine(Cli r, String... parts) {
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).as(r.toString()).startsWith("arenaplan: ").doesNotContain("\n").contains(parts)
                .doesNotContain("Exception", "internal error", "\tat ");
    }

    /** {@code --layers 100000000} used to build and plan for minutes until the heap ran out; refused before anything is built. */
    @Test
    void aBuiltInModelsCountOptionsAreBoundedUpFront() {
        oneLine(Cli.run("plan", "--model", "unet", "--depth", "31"), "option --depth must be a positive integer of at most 30");
        oneLine(Cli.run("plan", "--model", "mlp", "--layers", "100000000"), "model 'mlp': option --layers must be a positive integer of at most 10000", "got '100000000'");
        oneLine(Cli.run("plan", "--model", "train-mlp", "--layers", "10001"), "option --layers must be a positive integer of at most 10000");
        oneLine(Cli.run("run", "--model", "transformer", "--layers", "2147483647"), "model 'transformer': option --layers must be a positive integer of at most 1000");
        oneLine(Cli.run("plan", "--model", "resnet", "--blocks", "10000000"), "option --blocks must be a positive integer of at most 10000");
        oneLine(Cli.run("plan", "--model", "inception", "--branches", "1000000"), "option --branches must be a positive integer of at most 1000");
        // these two died with an OutOfMemoryError and a stack trace while wiring the edges
        oneLine(Cli.run("plan", "--model", "randwire", "--nodes", "2147483647"), "model 'randwire': option --nodes must be a positive integer of at most 10000");
        oneLine(Cli.run("plan", "--model", "randwire", "--k", "1000"), "option --k must be a positive integer of at most 100");
        oneLine(Cli.run("plan", "--model", "randwire-er", "--nodes", "100000"), "model 'randwire-er': option --nodes must be a positive integer of at most 1000");
        Cli help = Cli.run("plan", "--model", "mlp", "--help");
        assertThat(help.out()).as(help.toString()).contains("--layers     3 (at most 10000)").contains("--width      256\n");
        Cli atLimit = Cli.run("plan", "--model", "unet", "--depth", "30", "--image", "1073741824", "--channels", "1");
        assertThat(atLimit.code()).as("the limit itself is allowed: the byte size is what fails here").isEqualTo(2);
        assertThat(atLimit.err()).contains("cannot be built with these options").contains("overflows a long");
    }

    /** CUDA alignments are powers of two; {@code --align 3} used to be accepted and planned. */
    @Test
    void alignmentMustBeAPowerOfTwoWhereverItIsGiven() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\na,0,2,4\nb,1,3,4\n");
        Path sol = dir.resolve("s.csv");
        Files.writeString(sol, "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,12\n");
        oneLine(Cli.run("plan", csv.toString(), "--align", "3"), "--align must be a power of two", "got 3");
        oneLine(Cli.run("plan", "--model", "chain", "--align", "384"), "--align must be a power of two", "got 384");
        oneLine(Cli.run("plan", csv.toString(), "--align", "0"), "--align must be a power of two", "got 0");
        oneLine(Cli.run("plan", csv.toString(), "--align", "-256"), "--align must be a power of two", "got -256");
        oneLine(Cli.run("validate", csv.toString(), sol.toString(), "--align", "6"), "--align must be a power of two", "got 6");
        Cli ok = Cli.run("validate", csv.toString(), sol.toString(), "--align", "4");
        assertThat(ok.code()).as(ok.toString()).isZero();
        Cli big = Cli.run("plan", csv.toString(), "--align", Long.toString(1L << 40));
        assertThat(big.code()).as(big.toString()).isZero();
        assertThat(big.out()).contains("alignment " + (1L << 40));
    }

    /** A plan JSON's alignment is a power of two too (arenaplan writes nothing else). */
    @Test
    void aPlanJsonWithAnAlignmentOtherThanAPowerOfTwoIsRefused() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\na,0,2,4\nb,1,3,4\n");
        Path json = dir.resolve("plan.json");
        Cli planned = Cli.run("plan", csv.toString(), "--align", "4", "--out", json.toString());
        assertThat(planned.code()).as(planned.toString()).isZero();
        String text = Files.readString(json);
        assertThat(text).contains("\"alignment\" : 4");
        Files.writeString(json, text.replace("\"alignment\" : 4", "\"alignment\" : 3"));
        oneLine(Cli.run("validate", csv.toString(), json.toString()), json.toString(), "$.alignment", "must be a power of two");
    }

    /**
     * An input too large for the Java heap ends in one line and exit 2, never an
     * OutOfMemoryError's stack trace: a JVM with a 32 MiB heap plans a randwire-er graph with
     * 1000 nodes wired to each other (half a million edges, about 400 MB of heap).
     */
    @Test
    void aHeapTooSmallForTheInputIsOneLineNotAStackTrace() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-cp", System.getProperty("java.class.path"), ArenaplanCli.class.getName(),
                "plan", "--model", "randwire-er", "--nodes", "1000", "--p", "1"));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).as(err).isEqualTo(2);
        assertThat(err).doesNotContain("\n").doesNotContain("\tat ", "OutOfMemoryError", "Exception")
                .startsWith("arenaplan: plan: the input needs more than the ").contains("MiB of Java heap", "-Xmx");
    }

    /**
     * On several streams {@code plan} prices concurrency by planning again (on one stream, and
     * with the data events alone); with {@code --planner search} that ran silently for up to two
     * more time limits. It now shows its progress as the plan does. (The search of this 66-storage
     * graph runs to its time limit, past the 1 s before progress shows.)
     */
    @Test
    void pricingConcurrencyShowsItsProgress() {
        Cli r = Cli.run("plan", "--model", "randwire", "--streams", "4", "--planner", "search", "--time-limit", "1.5");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).as(r.toString()).contains("pricing concurrency (1 stream, then --sync none): planning 66 buffers with search: still running after 1 s");
        assertThat(r.out()).contains("price of concurrency: 4 streams");
        // run's planning and pricing were silent (and took its planner's default 10 s each: run had no --time-limit)
        Cli run = Cli.run("run", "--model", "randwire", "--streams", "4", "--planner", "search", "--time-limit", "1.5", "--mode", "planned", "--iterations", "1", "--device", "sim");
        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.err()).as(run.toString()).contains("planning 66 buffers with search: still running after 1 s")
                .contains("pricing concurrency (1 stream, then --sync none): planning 66 buffers with search: still running after 1 s");
    }

    /**
     * {@code plan p.csv --out p.csv} replaced the problem by its solution, and
     * {@code run --output r.pb --expect r.pb} wrote the outputs over the reference, then said they
     * matched it (exit 0 whatever the reference held). An output that is an input is refused first.
     */
    @Test
    void anOutputThatIsAnInputOfTheCommandIsRefusedBeforeItIsOverwritten() throws Exception {
        Path csv = dir.resolve("p.csv");
        String problem = "id,lower,upper,size\na,0,2,4\nb,1,3,4\n";
        Files.writeString(csv, problem);
        oneLine(Cli.run("plan", csv.toString(), "--out", csv.toString()), "--out " + csv + ": this file is also an input of the command", "give another name");
        oneLine(Cli.run("plan", csv.toString(), "--svg", csv.toString()), "--svg " + csv + ": this file is also an input");
        oneLine(Cli.run("plan", csv.toString(), "--out", dir.resolve(".").resolve("p.csv").toString()), "this file is also an input");
        assertThat(Files.readString(csv)).isEqualTo(problem);

        Path ref = dir.resolve("ref.pb");
        Cli first = Cli.run("run", "--model", "chain", "--dim", "8", "--mode", "planned", "--iterations", "1", "--output", ref.toString());
        assertThat(first.code()).as(first.toString()).isZero();
        byte[] reference = Files.readAllBytes(ref);
        oneLine(Cli.run("run", "--model", "chain", "--dim", "8", "--mode", "planned", "--iterations", "1", "--output", ref.toString(), "--expect", ref.toString()),
                "--output " + ref + ": this file is also an input of the command (" + ref + ")");
        oneLine(Cli.run("run", "--model", "chain", "--dim", "8", "--mode", "planned", "--iterations", "1", "--json", ref.toString(), "--expect", "y=" + ref),
                "--json " + ref + ": this file is also an input of the command (" + ref + ")");
        assertThat(Files.readAllBytes(ref)).isEqualTo(reference);
    }

    /** breaker11: {@code plan p.csv --out s.csv --svg s.csv} wrote the SVG over the solution (exit 0); {@code --schedule-time-limit -5} passed with a CSV. */
    @Test
    void twoOutputFlagsNamingOneFileAndABadScheduleLimitAreRefusedBeforeAnyWork() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\na,0,2,4\nb,1,3,4\n");
        Path same = dir.resolve("s.csv");
        oneLine(Cli.run("plan", csv.toString(), "--out", same.toString(), "--svg", same.toString()), "--svg " + same + ": this file is also --out's", "give each its own name");
        oneLine(Cli.run("plan", csv.toString(), "--svg", same.toString(), "--html", dir.resolve(".").resolve("s.csv").toString()), "this file is also --svg's");
        Path link = Files.createSymbolicLink(dir.resolve("linked"), dir);   // one file through a linked folder
        oneLine(Cli.run("plan", csv.toString(), "--out", same.toString(), "--html", link.resolve("s.csv").toString()), "this file is also --out's");
        assertThat(Files.exists(same)).isFalse();
        for (String limit : new String[]{"0", "-5"})
            oneLine(Cli.run("plan", csv.toString(), "--schedule-time-limit", limit), "--schedule-time-limit");
        assertThat(Cli.run("plan", csv.toString(), "--out", same.toString(), "--svg", dir.resolve("s.svg").toString()).code()).isZero();
    }

    /** {@code run --json} on a full disk said only "No space left on device"; the line now names the flag and file. */
    @Test
    void aJsonReportThatCannotBeWrittenNamesTheFlagAndFile() {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full), "no /dev/full here");
        oneLine(Cli.run("run", "--model", "chain", "--dim", "8", "--mode", "planned", "--iterations", "1", "--json", full.toString()),
                "--json /dev/full: cannot write: ");
    }

    /** A graph JSON listing an output twice was planned silently (graph inputs listed twice were refused already). */
    @Test
    void aGraphOutputListedTwiceIsRefused() throws Exception {
        Path g = dir.resolve("g.json");
        Files.writeString(g, Files.readString(Path.of("../docs/examples/tiny.json")).replaceFirst("\"outputs\": \\[\"y\"\\]", "\"outputs\": [\"y\", \"y\"]"));
        assertThat(Files.readString(g)).contains("[\"y\", \"y\"]");
        oneLine(Cli.run("plan", g.toString()), g.toString(), "graph output 'y' listed twice");
    }

    /**
     * {@code --rtol 1e400} (or {@code --atol Infinity}) was read as an infinite tolerance and every
     * finite output "matched" its reference, exit 0 (review). Refused before anything runs.
     */
    @Test
    void anInfiniteToleranceIsRefusedBeforeTheRun() {
        for (String flag : new String[]{"--rtol", "--atol"})
            for (String value : new String[]{"1e400", "Infinity"})
                oneLine(Cli.run("run", "--model", "chain", "--device", "sim", "--expect", "y=" + dir.resolve("y.pb"), flag, value),
                        "--rtol and --atol must be finite", "Infinity");
    }

    /** review: {@code stress --exhaustive --streams 64} ran on 3 streams, exit 0; the flag it cannot honour is refused now. */
    @Test
    void exhaustiveStressRefusesAStreamCountItCannotHonour() {
        oneLine(Cli.run("stress", "--exhaustive", "--graphs", "1", "--streams", "64"), "--exhaustive runs its small graphs on 2 or 3 streams, so --streams 64 would not be honoured");
        oneLine(Cli.run("stress", "--exhaustive", "--graphs", "1", "--streams", "1"), "so --streams 1 would not be honoured");
        Cli two = Cli.run("stress", "--exhaustive", "--graphs", "1", "--streams", "2");
        assertThat(two.code()).as(two.toString()).isZero();
        assertThat(two.out()).contains("1 random graphs on 2 streams");
        Cli unset = Cli.run("stress", "--exhaustive", "--graphs", "1");   // the default --streams 4 is not the user's: the README's command runs
        assertThat(unset.code()).as(unset.toString()).isZero();
    }

    /** review2: {@code run p.csv} (and plan's graph-only flags on one) said "a CSV problem has no ops" without naming the file. */
    @Test
    void aCsvProblemWhereOpsAreNeededIsRefusedNamingTheFile() throws Exception {
        Path csv = dir.resolve("p.csv");
        Files.writeString(csv, "id,lower,upper,size\na,0,2,4\n");
        oneLine(Cli.run("run", csv.toString()), "PROBLEM.csv " + csv + ": run needs a graph (GRAPH.json, MODEL.onnx or --model); a CSV problem has no ops");
        oneLine(Cli.run("plan", csv.toString(), "--train"), "PROBLEM.csv " + csv + ": --schedule, --train and --fuse need a graph");
        oneLine(Cli.run("plan", csv.toString(), "--streams", "2"), "PROBLEM.csv " + csv + ": --streams and --sync need a graph");
    }

    /** review2: {@code --train} on train-mlp, already a training step, said "gradients need transA = transB = 0" of a backward Gemm. */
    @Test
    void trainingAGraphThatIsAlreadyATrainingStepSaysSo() {
        for (String command : new String[]{"plan", "run"})
            oneLine(Cli.run(command, "--model", "train-mlp", "--train"), "--train: graph 'train-mlp' is already a training step (op 'bwd", "a backward-pass op",
                    "plan this one without --train");
        Cli plain = Cli.run("plan", "--model", "train-mlp");
        assertThat(plain.code()).as(plain.toString()).isZero();
    }
}
