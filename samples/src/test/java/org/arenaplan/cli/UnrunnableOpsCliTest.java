package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code plan} of a graph whose declared element types an op's rule contradicts (Sigmoid of f32
 * declared to write i64): {@code run} refuses it, so {@code plan} says so in the executors' own
 * words (a warning; the plan of the declared sizes goes on), and {@code plan --strict} refuses it
 * (exit 2). Before, {@code plan} planned it silently and even reasoned about its sizes.
 */
class UnrunnableOpsCliTest {
    @TempDir
    Path dir;

    /** x -> Relu -> a -> Sigmoid -> b (declared B) -> y = Neg(b). */
    private Path graph(String b) throws Exception {
        Path f = dir.resolve("g.json");
        Files.writeString(f, """
                {"format": "arenaplan-graph/1",
                 "tensors": [{"name": "x", "dtype": "f32", "shape": [64]}, {"name": "a", "dtype": "f32", "shape": [64]},
                             {"name": "b", "dtype": "B", "shape": [64]}, {"name": "y", "dtype": "B", "shape": [64]}],
                 "inputs": [{"name": "x"}], "outputs": ["y"],
                 "ops": [{"name": "r", "kind": "Relu", "inputs": ["x"], "outputs": ["a"]},
                         {"name": "ip", "kind": "Sigmoid", "inputs": ["a"], "outputs": ["b"]},
                         {"name": "n", "kind": "Neg", "inputs": ["b"], "outputs": ["y"]}]}
                """.replace("\"B\"", "\"" + b + "\""));
        return f;
    }

    @Test
    void aContradictedElementTypeIsAWarningAndAnErrorUnderStrict() throws Exception {
        Path f = graph("i64");
        String why = "op 'ip' (Sigmoid): output 'b' is i64; Sigmoid of f32 writes f32";
        Cli warned = Cli.run("plan", f.toString());
        assertThat(warned.code()).as(warned.toString()).isZero();
        assertThat(warned.err().strip()).as(warned.toString())
                .isEqualTo("arenaplan: warning: " + f + ": run would refuse " + why + " (planned as declared; --strict refuses it)");
        assertThat(warned.out()).contains("storages");
        Cli strict = Cli.run("plan", f.toString(), "--strict");
        assertThat(strict.code()).as(strict.toString()).isEqualTo(2);
        assertThat(strict.err().strip()).as(strict.toString()).startsWith("arenaplan: " + f + ": " + why).doesNotContain("\n")
                .doesNotContain("Exception", "internal error");
        Cli run = Cli.run("run", f.toString(), "--device", "sim");
        assertThat(run.code()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains(why);
    }

    @Test
    void aGraphRunCanExecutePlansSilently() throws Exception {
        Path f = graph("f32");
        for (Cli r : new Cli[]{Cli.run("plan", f.toString()), Cli.run("plan", f.toString(), "--strict")}) {
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.err()).as(r.toString()).isEmpty();
        }
    }
}
