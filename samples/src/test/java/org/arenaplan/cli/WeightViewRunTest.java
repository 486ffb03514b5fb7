package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A graph JSON view of a weight ({@code v = Identity(w)} declared a view) plans (a view of a weight
 * costs no arena bytes) but the executors keep weights outside the arena: {@code run} refuses it
 * in every mode with one line naming the op, the view and the weight, exit 2. Found by review
 * (breaker8): it was exit 1, "internal error", an IllegalArgumentException or a NullPointerException.
 */
class WeightViewRunTest {
    @TempDir
    Path dir;

    private static final String GRAPH = """
            {"format": "arenaplan-graph/1", "name": "wv",
             "tensors": [{"name": "x", "dtype": "f32", "shape": [4]}, {"name": "w", "dtype": "f32", "shape": [4]},
                         {"name": "v", "dtype": "f32", "shape": [4]}, {"name": "u", "dtype": "f32", "shape": [2, 2]}, {"name": "y", "dtype": "f32", "shape": [2, 2]}],
             "inputs": [{"name": "x"}], "outputs": ["y"],
             "ops": [{"name": "vw", "kind": "Identity", "inputs": ["w"], "outputs": ["v"], "views": [{"output": 0, "input": 0, "byte_offset": 0}]},
                     {"name": "vv", "kind": "Reshape", "inputs": ["v"], "outputs": ["u"], "views": [{"output": 0, "input": 0, "byte_offset": 0}]},
                     {"name": "ad", "kind": "Add", "inputs": ["u", "u"], "outputs": ["y"]}],
             "weights": [{"name": "w", "fill": 1.0}]}
            """;

    @Test
    void aViewOfAWeightIsRefusedByRunInEveryModeAndPlanned() throws Exception {
        Path g = dir.resolve("wv.json");
        Files.writeString(g, GRAPH);
        assertThat(Cli.run("plan", g.toString()).code()).isEqualTo(0);
        for (String mode : new String[] {"planned", "per-tensor", "pool", "graph"}) {
            Cli r = Cli.run("run", g.toString(), "--device", "sim", "--mode", mode);
            assertThat(r.code()).as(mode).isEqualTo(2);
            assertThat(r.err()).as(mode).contains("op 'vw' (Identity): 'v' is declared a view of weight 'w'").doesNotContain("internal error").doesNotContain("Exception");
        }
    }
}
