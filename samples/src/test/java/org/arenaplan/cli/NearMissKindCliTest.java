package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A misspelt op kind in graph JSON ("Tranpose") is opaque, so its in-place hint would be granted
 * where the real kind's is refused: {@code plan} warns (one line, the plan goes on), {@code plan
 * --strict} refuses it (exit 2), {@code run} names the near miss when it refuses the kind. A custom
 * kind no registry kind is near plans silently, with and without {@code --strict}.
 */
class NearMissKindCliTest {
    @TempDir
    Path dir;

    /** x -> Relu -> a -> KIND (in place over a) -> y. */
    private Path graph(String kind) throws Exception {
        Path f = dir.resolve("g.json");
        Files.writeString(f, """
                {"format": "arenaplan-graph/1",
                 "tensors": [{"name": "x", "dtype": "f32", "shape": [4, 8]}, {"name": "a", "dtype": "f32", "shape": [4, 8]},
                             {"name": "y", "dtype": "f32", "shape": [8, 4]}],
                 "inputs": [{"name": "x"}], "outputs": ["y"],
                 "ops": [{"name": "r", "kind": "Relu", "inputs": ["x"], "outputs": ["a"]},
                         {"name": "t", "kind": "KIND", "inputs": ["a"], "outputs": ["y"], "inplace": [{"output": 0, "input": 0}]}]}
                """.replace("KIND", kind));
        return f;
    }

    private static void oneLine(Cli r, int code, String... parts) {
        assertThat(r.code()).as(r.toString()).isEqualTo(code);
        assertThat(r.err().strip()).as(r.toString()).startsWith("arenaplan: ").doesNotContain("\n").contains(parts)
                .doesNotContain("Exception", "internal error", "\tat ");
    }

    @Test
    void aNearMissIsRefusedUnderStrictAndWarnedAboutWithout() throws Exception {
        Path f = graph("Tranpose");
        oneLine(Cli.run("plan", f.toString(), "--strict"), 2,
                f + ": op 't' (Tranpose, position 1): unknown op kind 'Tranpose'; did you mean 'Transpose'?", "--strict refuses");
        Cli warned = Cli.run("plan", f.toString());
        oneLine(warned, 0, "arenaplan: warning: " + f + ": op 't' (Tranpose, position 1): unknown op kind 'Tranpose'; did you mean 'Transpose'?");
        assertThat(warned.out()).contains("refused            none");   // planned as before: an opaque kind's hint is trusted
    }

    @Test
    void aKindThatDiffersOnlyInCaseIsANearMiss() throws Exception {
        Path f = graph("transpose");
        oneLine(Cli.run("plan", f.toString(), "--strict"), 2, "op 't' (transpose, position 1): unknown op kind 'transpose'; did you mean 'Transpose'?");
    }

    @Test
    void aCustomKindPlansSilentlyWithAndWithoutStrict() throws Exception {
        for (String kind : new String[]{"MyFusedThing", "custom.Tranpose"}) {
            Path f = graph(kind);
            for (Cli r : new Cli[]{Cli.run("plan", f.toString()), Cli.run("plan", f.toString(), "--strict")}) {
                assertThat(r.code()).as(r.toString()).isZero();
                assertThat(r.err()).as(r.toString()).isEmpty();
                assertThat(r.out()).contains("refused            none");
            }
        }
    }

    @Test
    void runSaysTheSameWhenItRefusesTheKind() throws Exception {
        Path f = graph("Tranpose");
        oneLine(Cli.run("run", f.toString(), "--device", "sim"), 2,
                f + ": op 't' (Tranpose): unknown op kind 'Tranpose'; known kinds are those of org.arenaplan.ir.OpRegistry", "; did you mean 'Transpose'?");
    }

    /**
     * x -> KIND (output a view of x: no device work) -> v -> Relu -> y. run lowered a storage-only
     * op to nothing without looking at its kind, so a misspelt view kind ran unnamed while a
     * misspelt computing kind was refused; now both are refused alike (any kind outside the
     * registry, as docs/cli.md says), and plan still only warns.
     */
    @Test
    void runRefusesAnUnknownKindAlsoWhenTheOpIsOnlyAView() throws Exception {
        Path f = dir.resolve("view.json");
        for (String kind : new String[]{"Reshap", "MyAlias"}) {
            Files.writeString(f, """
                    {"format": "arenaplan-graph/1",
                     "tensors": [{"name": "x", "dtype": "f32", "shape": [4, 2]}, {"name": "v", "dtype": "f32", "shape": [8]}, {"name": "y", "dtype": "f32", "shape": [8]}],
                     "inputs": [{"name": "x"}], "outputs": ["y"],
                     "ops": [{"name": "view", "kind": "KIND", "inputs": ["x"], "outputs": ["v"], "views": [{"output": 0, "input": 0, "byte_offset": 0}]},
                             {"name": "act", "kind": "Relu", "inputs": ["v"], "outputs": ["y"]}]}
                    """.replace("KIND", kind));
            oneLine(Cli.run("run", f.toString(), "--device", "sim", "--iterations", "1"), 2,
                    f + ": op 'view' (" + kind + "): unknown op kind '" + kind + "'; known kinds are those of org.arenaplan.ir.OpRegistry",
                    kind.equals("Reshap") ? "; did you mean 'Reshape'?" : "OpRegistry (the README's operator table)");
            assertThat(Cli.run("plan", f.toString()).code()).as("plan trusts an opaque view").isZero();
        }
    }
}
