package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run} says which in-place requests its plan did not take, as {@code plan} does (it said
 * nothing, so a run user never learnt a hint was dropped), and {@code run --strict} refuses a
 * hint the op's kernels cannot honour before anything runs, as {@code plan --strict} does.
 */
class RunRefusalsCliTest {
    @TempDir
    Path dir;

    /** x -> Relu -> a -> KIND (in place over a) -> y. */
    private Path graph(String kind) throws Exception {
        Path f = dir.resolve(kind + ".json");
        Files.writeString(f, """
                {"format": "arenaplan-graph/1",
                 "tensors": [{"name": "x", "dtype": "f32", "shape": [4, 8]}, {"name": "a", "dtype": "f32", "shape": [4, 8]},
                             {"name": "y", "dtype": "f32", "shape": [SHAPE]}],
                 "inputs": [{"name": "x"}], "outputs": ["y"],
                 "ops": [{"name": "r", "kind": "Relu", "inputs": ["x"], "outputs": ["a"]},
                         {"name": "t", "kind": "KIND", "inputs": ["a"], "outputs": ["y"], "inplace": [{"output": 0, "input": 0}]}]}
                """.replace("KIND", kind).replace("SHAPE", kind.equals("Transpose") ? "8, 4" : "4, 8"));
        return f;
    }

    @Test
    void aRefusedHintIsListedAndStrictRefusesItBeforeRunning() throws Exception {
        Path f = graph("Transpose");
        String refusal = "in-place refused: op 't' writing 'y' over 'a': Transpose cannot run in place";
        Cli run = Cli.run("run", f.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1");
        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out()).as(run.toString()).contains("  refused            1 request\n    " + refusal);
        Cli strict = Cli.run("run", f.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1", "--strict");
        assertThat(strict.code()).as(strict.toString()).isEqualTo(2);
        assertThat(strict.err().strip()).as(strict.toString()).startsWith("arenaplan: " + f + ": " + refusal).doesNotContain("\n");
        assertThat(strict.out()).as("nothing ran").doesNotContain("planned ");
    }

    @Test
    void aTakenHintIsNotListed() throws Exception {
        Path f = graph("Sigmoid");
        for (String[] extra : new String[][]{{}, {"--strict"}}) {
            String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("run", f.toString(), "--device", "sim", "--mode", "planned", "--iterations", "1"),
                    java.util.stream.Stream.of(extra)).toArray(String[]::new);
            Cli run = Cli.run(args);
            assertThat(run.code()).as(run.toString()).isZero();
            assertThat(run.out()).as(run.toString()).doesNotContain("refused");
        }
    }
}
