package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * A folder named where a file is read or written, and a file named where a folder is read: one
 * wording for every command, option and argument ({@code WHAT PATH: a folder, not a file},
 * {@code WHAT PATH: a file, not a folder}, decided in {@code TextFiles}), exit 2, one line. Before,
 * the same mistake read "cannot read d.csv: Is a directory", "d.onnx: is a directory, not a file"
 * or "--svg out: cannot write: it is a folder" depending on the command.
 */
class FolderOrFileTest {
    @TempDir
    Path dir;

    private static void oneLine(Cli r, String line) {
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).as(r.toString()).doesNotContain("\n").startsWith("arenaplan: " + line)
                .doesNotContain("Exception", "internal error", "\tat ", "directory", "Is a");
    }

    /** x -> Relu -> a, x -> Gelu -> b: a graph with two outputs. */
    private Path twoOutputs() throws Exception {
        return Files.writeString(dir.resolve("two.json"), """
                {"format": "arenaplan-graph/1", "name": "two",
                 "tensors": [{"name": "x", "dtype": "f32", "shape": [4]}, {"name": "a", "dtype": "f32", "shape": [4]}, {"name": "b", "dtype": "f32", "shape": [4]}],
                 "inputs": [{"name": "x"}], "outputs": ["a", "b"],
                 "ops": [{"name": "r", "kind": "Relu", "inputs": ["x"], "outputs": ["a"]}, {"name": "g", "kind": "Gelu", "inputs": ["x"], "outputs": ["b"]}]}
                """);
    }

    @Test
    void aFolderWhereAFileGoesIsNamedTheSameWayByEveryCommandOptionAndArgument() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("out"));
        Path csvFolder = Files.createDirectory(dir.resolve("p.csv"));
        Path jsonFolder = Files.createDirectory(dir.resolve("g.json"));
        Path onnxFolder = Files.createDirectory(dir.resolve("m.onnx"));
        Path problem = Files.writeString(dir.resolve("ok.csv"), "id,lower,upper,size\nx,0,3,1024\n");
        String f = folder.toString();
        String isFolder = ": a folder, not a file";

        oneLine(Cli.run("plan", csvFolder.toString()), "PROBLEM.csv " + csvFolder + isFolder);
        oneLine(Cli.run("plan", jsonFolder.toString()), "GRAPH.json " + jsonFolder + isFolder);
        oneLine(Cli.run("plan", onnxFolder.toString()), "MODEL.onnx " + onnxFolder + isFolder);
        oneLine(Cli.run("plan", f), f + isFolder + "; expected GRAPH.json, PROBLEM.csv or MODEL.onnx");
        oneLine(Cli.run("run", jsonFolder.toString(), "--device", "sim"), "GRAPH.json " + jsonFolder + isFolder);
        oneLine(Cli.run("run", onnxFolder.toString(), "--device", "sim"), "MODEL.onnx " + onnxFolder + isFolder);
        oneLine(Cli.run("run", f, "--device", "sim"), f + isFolder);
        oneLine(Cli.run("validate", csvFolder.toString(), problem.toString()), "PROBLEM.csv " + csvFolder + isFolder);
        oneLine(Cli.run("validate", problem.toString(), csvFolder.toString()), "SOLUTION.csv " + csvFolder + isFolder);
        oneLine(Cli.run("validate", problem.toString(), jsonFolder.toString()), "PLAN.json " + jsonFolder + isFolder);
        for (String flag : new String[]{"--out", "--svg", "--html"}) oneLine(Cli.run("plan", problem.toString(), flag, f), flag + " " + f + isFolder);
        oneLine(Cli.run("plan", problem.toString(), "--out", jsonFolder.toString()), "--out " + jsonFolder + isFolder);

        String graph = twoOutputs().toString();
        oneLine(Cli.run("run", graph, "--device", "sim", "--json", f), "--json " + f + isFolder);
        oneLine(Cli.run("run", graph, "--device", "sim", "--input", f), "--input " + f + isFolder);
        oneLine(Cli.run("run", graph, "--device", "sim", "--input", "x=" + f), "--input x=" + f + isFolder);
        oneLine(Cli.run("run", graph, "--device", "sim", "--expect", "a=" + f), "--expect a=" + f + isFolder);
        oneLine(Cli.run("run", "--model", "mlp", "--device", "sim", "--expect", f), "--expect " + f + isFolder);
        oneLine(Cli.run("run", "--model", "mlp", "--device", "sim", "--output", f), "--output " + f + isFolder);
        oneLine(Cli.run("bench", "--device", "sim", "--json", f), "--json " + f + isFolder);
    }

    @Test
    void aFileWhereAFolderGoesIsNamedTheSameWay() throws Exception {
        Path file = Files.writeString(dir.resolve("problems.csv"), "id,lower,upper,size\nx,0,3,1024\n");
        oneLine(Cli.run("bench", "search", "--dir", file.toString()), "--dir " + file + ": a file, not a folder (");
        oneLine(Cli.run("bench", "schedule", "--dir", file.toString()), "--dir " + file + ": a file, not a folder (");
        oneLine(Cli.run("run", twoOutputs().toString(), "--device", "sim", "--output", file.toString()),
                "--output " + file + ": a file, not a folder (the graph has 2 outputs, so PATH is a folder of NAME.pb files)");
    }

    /** The user typed no --dir: the line must not say they did, and says how to choose another folder. */
    @Test
    void benchSearchsMissingDefaultFolderIsCalledTheDefaultNotDir() {
        Path fallback = Path.of("..", "shared", "problems", "real");
        assumeFalse(Files.isDirectory(fallback), "the default folder exists here: " + fallback.toAbsolutePath());
        Cli r = Cli.run("bench", "search", "--set", "real", "--time-limit", "1");
        oneLine(r, "the default folder " + fallback + ": no such folder (the shared problems live in ../shared/problems beside the repository; choose another with --dir DIR)");
        assertThat(r.err()).doesNotContain("--dir " + fallback);
    }

    /** An empty name ('', an unset shell variable) is the working folder to Java: it was called a folder, or searched as --dir. */
    @Test
    void anEmptyNameIsCalledEmptyNotTheWorkingFolder() throws Exception {
        Path problem = Files.writeString(dir.resolve("ok.csv"), "id,lower,upper,size\nx,0,3,1024\n");
        String graph = twoOutputs().toString();
        oneLine(Cli.run("plan", ""), "the input's name is empty (''); give GRAPH.json, PROBLEM.csv, MODEL.onnx or --model NAME");
        oneLine(Cli.run("validate", "", problem.toString()), "PROBLEM.csv '': the name is empty; give a file");
        oneLine(Cli.run("validate", problem.toString(), ""), "SOLUTION.csv '': the name is empty; give a file");
        for (String flag : new String[]{"--out", "--svg", "--html"}) oneLine(Cli.run("plan", problem.toString(), flag, ""), flag + " '': the name is empty; give a file");
        oneLine(Cli.run("run", graph, "--device", "sim", "--json", ""), "--json '': the name is empty; give a file");
        for (String flag : new String[]{"--expect", "--output"})
            oneLine(Cli.run("run", "--model", "mlp", "--device", "sim", flag, ""), flag + " '': the name is empty; give a file");
        oneLine(Cli.run("run", graph, "--device", "sim", "--output", ""), "--output '': the name is empty; give a folder");   // two outputs: PATH is a folder
        oneLine(Cli.run("run", graph, "--device", "sim", "--input", ""), "--input '': the name is empty; give --input FILE.pb or --input NAME=FILE.pb");
        oneLine(Cli.run("bench", "search", "--dir", ""), "--dir '': the name is empty; give a folder (");
        oneLine(Cli.run("bench", "schedule", "--dir", ""), "--dir '': the name is empty; give a folder (");
    }
}
