package org.arenaplan.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11's cases as a new user meets them, with small graph JSON files: declared aliasing
 * and attributes that contradict the op registry are refused (case 1) or bad input, exit 2 with
 * one line naming the file, the op, the tensors and the byte ranges (cases 2-4, attributes).
 */
class DeclaredAliasingCliTest {
    @TempDir
    Path dir;

    private Path graph(String name, String tensors, String ops) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"format\": \"arenaplan-graph/1\", \"tensors\": [" + tensors + "], \"inputs\": [{\"name\": \"x\"}],"
                + " \"outputs\": [\"y\"], \"ops\": [" + ops + "]}");
        return f;
    }

    private static String t(String name, long... shape) {
        StringBuilder s = new StringBuilder("{\"name\": \"" + name + "\", \"dtype\": \"f32\", \"shape\": [");
        for (int i = 0; i < shape.length; i++) s.append(i == 0 ? "" : ", ").append(shape[i]);
        return s.append("]}").toString();
    }

    private static void badInput(Cli r, String... fragments) {
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip().lines().count()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).startsWith("arenaplan: ").doesNotContain("\tat ").doesNotContain("Exception");
        for (String f : fragments) assertThat(r.err()).as(r.toString()).contains(f);
    }

    @Test
    void case1InPlaceOnTransposeIsRefusedAndAnErrorUnderStrict() throws Exception {
        Path f = graph("t.json", t("x", 4, 8) + ", " + t("a", 4, 8) + ", " + t("y", 8, 4),
                "{\"name\": \"r\", \"kind\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"a\"]},"
                        + "{\"name\": \"t\", \"kind\": \"Transpose\", \"inputs\": [\"a\"], \"outputs\": [\"y\"], \"attrs\": {\"perm\": [1, 0]},"
                        + " \"inplace\": [{\"output\": 0, \"input\": 0}]}");
        Cli r = Cli.run("plan", f.toString());
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("refused            1 request")
                .contains("in-place refused: op 't' writing 'y' over 'a': Transpose cannot run in place: kernel 'transpose'");
        badInput(Cli.run("plan", f.toString(), "--strict"), f + ": in-place refused: op 't'", "Transpose cannot run in place");
    }

    @Test
    void case2TransposeDeclaredAViewIsBadInput() throws Exception {
        Path f = graph("v.json", t("x", 4, 8) + ", " + t("y", 8, 4),
                "{\"name\": \"t\", \"kind\": \"Transpose\", \"inputs\": [\"x\"], \"outputs\": [\"y\"], \"views\": [{\"output\": 0, \"input\": 0}]}");
        badInput(Cli.run("plan", f.toString()), "v.json: op 't' (Transpose, position 0): 'y' is declared a view of 'x' (bytes [0, 128) of it), but Transpose computes its output");
    }

    @Test
    void case3And4ConcatMembersNotWhereConcatWritesAreBadInput() throws Exception {
        String producers = "{\"name\": \"pa\", \"kind\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"a\"]},"
                + "{\"name\": \"pb\", \"kind\": \"Tanh\", \"inputs\": [\"x\"], \"outputs\": [\"b\"]},";
        Path axis1 = graph("axis1.json", t("x", 2, 1, 4) + ", " + t("a", 2, 1, 4) + ", " + t("b", 2, 1, 4) + ", " + t("y", 2, 2, 4),
                producers + "{\"name\": \"cat\", \"kind\": \"Concat\", \"inputs\": [\"a\", \"b\"], \"outputs\": [\"y\"], \"attrs\": {\"axis\": 1},"
                        + " \"members\": [{\"input\": 0, \"output\": 0, \"byte_offset\": 0}, {\"input\": 1, \"output\": 0, \"byte_offset\": 32}]}");
        badInput(Cli.run("plan", axis1.toString()), "axis1.json: op 'cat' (Concat, position 2)", "writes input 'a' to 2 separate byte ranges ([0, 16), [32, 48))");
        Path overlap = graph("overlap.json", t("x", 1, 4) + ", " + t("a", 1, 4) + ", " + t("b", 1, 4) + ", " + t("y", 2, 4),
                producers + "{\"name\": \"cat\", \"kind\": \"Concat\", \"inputs\": [\"a\", \"b\"], \"outputs\": [\"y\"], \"attrs\": {\"axis\": 0},"
                        + " \"members\": [{\"input\": 0, \"output\": 0, \"byte_offset\": 0}, {\"input\": 1, \"output\": 0, \"byte_offset\": 8}]}");
        badInput(Cli.run("plan", overlap.toString()), "overlap.json: op 'cat'", "'a' and 'b' share [8, 16)", "left unwritten: [24, 32)");
        badInput(Cli.run("run", overlap.toString(), "--device", "sim"), "overlap.json: op 'cat'");
    }

    @Test
    void misspeltWrongTypedAndOutOfRangeAttributesAndMissingInputsAreBadInput() throws Exception {
        String shapes = t("x", 1, 2, 8, 8) + ", " + t("y", 1, 2, 4, 4);
        String pool = "{\"name\": \"p\", \"kind\": \"MaxPool\", \"inputs\": [\"x\"], \"outputs\": [\"y\"], \"attrs\": ";
        badInput(Cli.run("plan", graph("a.json", shapes, pool + "{\"kernel_shape\": [2, 2], \"stride\": [2, 2]}}").toString()),
                "a.json: op 'p' (MaxPool, position 0): unknown attribute 'stride'", "(did you mean 'strides'?)");
        badInput(Cli.run("plan", graph("b.json", shapes, pool + "{\"kernel_shape\": [2, 2], \"strides\": [0, 0]}}").toString()),
                "attribute 'strides' [0, 0] holds 0, out of range [1, 2147483647]");
        badInput(Cli.run("plan", graph("c.json", shapes, pool + "{\"kernel_shape\": [2, 2], \"strides\": [2147483648, 2]}}").toString()),
                "out of range [1, 2147483647]");
        badInput(Cli.run("plan", graph("d.json", shapes, pool + "{\"kernel_shape\": [2, 2]}}").toString()),
                "output 'y' is declared [1, 2, 4, 4] but MaxPool of [1, 2, 8, 8] gives [1, 2, 7, 7]");
        badInput(Cli.run("plan", graph("e.json", t("x", 2, 2) + ", " + t("y", 4, 2),
                "{\"name\": \"c\", \"kind\": \"Concat\", \"inputs\": [\"x\", \"x\"], \"outputs\": [\"y\"], \"attrs\": {\"axis\": \"0\"}}").toString()),
                "attribute 'axis' must be an integer, got the string \"0\"");
        badInput(Cli.run("plan", graph("f.json", t("x", 2, 2) + ", " + t("y", 4, 2),
                "{\"name\": \"c\", \"kind\": \"Concat\", \"inputs\": [\"x\", \"x\"], \"outputs\": [\"y\"], \"attrs\": {\"axis\": 4294967297}}").toString()),
                "attribute 'axis' = 4294967297 is out of range");
        badInput(Cli.run("plan", graph("g.json", t("x", 2, 2) + ", " + t("y", 2, 2),
                "{\"name\": \"r\", \"kind\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"y\"]}, {\"name\": \"n\", \"kind\": \"Relu\", \"inputs\": [], \"outputs\": [\"z\"]}")
                .toString()), "g.json: op 'n'");
        Path noInputs = dir.resolve("h.json");
        Files.writeString(noInputs, "{\"format\": \"arenaplan-graph/1\", \"tensors\": [" + t("y", 2, 2) + "], \"outputs\": [\"y\"],"
                + " \"ops\": [{\"name\": \"n\", \"kind\": \"Relu\", \"inputs\": [], \"outputs\": [\"y\"]}]}");
        badInput(Cli.run("run", noInputs.toString(), "--device", "sim"), "h.json: op 'n' (Relu, position 0): has 0 inputs; Relu takes exactly 1");
    }
}
