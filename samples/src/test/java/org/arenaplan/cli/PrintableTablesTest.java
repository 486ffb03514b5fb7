package org.arenaplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tensor and op names come from the user's files, and {@code plan} prints them in its tables: the
 * peak's storages, the refused requests, the events. A name holding a newline, carriage return or
 * ESC is written as {@code \\uXXXX} there, as in error messages ({@code io.Printable}), so it can
 * neither break a table row nor rewrite the terminal ({@code ESC[2J} clears it).
 */
class PrintableTablesTest {
    @TempDir
    Path dir;

    private static final String TENSOR = "h\\n\\u001b[2Jevil", OP = "act\\r\\u001b[31mred", INPUT = "x\\u2028y";

    @Test
    void namesWithControlCharactersStayOnTheirRowAndNeverReachTheTerminalRaw() throws Exception {
        Path graph = dir.resolve("g.json");
        // x is a caller-owned input (not donated): the Relu's in-place request over it is refused and listed.
        Files.writeString(graph, """
                {"format": "arenaplan-graph/1", "name": "g",
                 "tensors": [{"name": "%3$s", "dtype": "f32", "shape": [256]}, {"name": "%1$s", "dtype": "f32", "shape": [256]},
                             {"name": "y", "dtype": "f32", "shape": [256]}],
                 "inputs": [{"name": "%3$s"}], "outputs": ["y"],
                 "ops": [{"name": "%2$s", "kind": "Relu", "inputs": ["%3$s"], "outputs": ["%1$s"], "inplace": [{"output": 0, "input": 0}]},
                         {"name": "out", "kind": "Gelu", "inputs": ["%1$s"], "outputs": ["y"], "stream": 1}]}
                """.formatted(TENSOR, OP, INPUT), StandardCharsets.UTF_8);
        Cli r = Cli.run("plan", graph.toString(), "--streams", "2");
        assertThat(r.code()).as(r.toString()).isZero();
        for (char c : r.out().replace("\n", "").toCharArray())
            assertThat(Character.isISOControl(c) || c == '\u2028').as("a control character in: " + r.out()).isFalse();
        assertThat(r.out()).contains("  h\\u000a\\u001b[2Jevil ")   // the peak's row, padded like the others
                .contains("in-place refused: op 'act\\u000d\\u001b[31mred' writing 'h\\u000a\\u001b[2Jevil' over 'x\\u2028y'");
        assertThat(r.out().lines().filter(l -> l.contains("h\\u000a")).count()).as(r.out()).isGreaterThanOrEqualTo(2);
    }

    /** A file name holding ESC reached the terminal raw in plan's title and in bench search's rows and progress (frontdoor helper). */
    @Test
    void fileNamesWithControlCharactersAreEscapedInTitlesRowsAndProgress() throws Exception {
        String csv = "id,lower,upper,size\nb1,0,3,4\n";
        Path problem = dir.resolve("p\u001b[31mred.csv");
        Files.writeString(problem, csv);
        Path folder = Files.createDirectory(dir.resolve("set"));
        Files.writeString(folder.resolve("c\u001b[2J.1048576.csv"), csv);
        for (Cli r : new Cli[]{Cli.run("plan", problem.toString()), Cli.run("bench", "search", "--dir", folder.toString(), "--time-limit", "1")}) {
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out() + r.err()).as(r.toString()).doesNotContain("\u001b");
        }
        assertThat(Cli.run("plan", problem.toString()).out()).contains("plan of " + dir.resolve("p\\u001b[31mred.csv") + " by ");
    }

    /** A 1 MB tensor or op name was printed whole in the peak rows and the refused requests (frontdoor helper): cut after 200 characters there. */
    @Test
    void aMegabyteNameIsCutInEveryRow() throws Exception {
        String op = "o".repeat(1_000_000), tensor = "t".repeat(1_000_000);
        Path graph = dir.resolve("long.json");
        Files.writeString(graph, """
                {"format": "arenaplan-graph/1", "name": "g",
                 "tensors": [{"name": "x", "dtype": "f32", "shape": [256]}, {"name": "%1$s", "dtype": "f32", "shape": [256]},
                             {"name": "y", "dtype": "f32", "shape": [256]}],
                 "inputs": [{"name": "x"}], "outputs": ["y"],
                 "ops": [{"name": "%2$s", "kind": "Relu", "inputs": ["x"], "outputs": ["%1$s"], "inplace": [{"output": 0, "input": 0}]},
                         {"name": "out", "kind": "Gelu", "inputs": ["%1$s"], "outputs": ["y"]},
                         {"name": "late", "kind": "Relu", "inputs": ["x"], "outputs": ["z"]}]}
                """.formatted(tensor, op).replace("{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [256]}]",
                "{\"name\": \"y\", \"dtype\": \"f32\", \"shape\": [256]}, {\"name\": \"z\", \"dtype\": \"f32\", \"shape\": [256]}]")
                .replace("\"outputs\": [\"y\"],", "\"outputs\": [\"y\", \"z\"],"), StandardCharsets.UTF_8);
        Cli r = Cli.run("plan", graph.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String shownOp = "o".repeat(200) + "… (1000000 chars)", shownTensor = "t".repeat(200) + "… (1000000 chars)";
        assertThat(r.out()).contains("in-place refused: op '" + shownOp + "' writing '" + shownTensor + "' over 'x': 'x' is a caller-owned graph input (not donated)")
                .contains("  " + shownTensor + " ");
        assertThat(r.out().lines().mapToInt(String::length).max().orElseThrow()).as("the longest line").isLessThan(1_000);
    }
}
