package org.arenaplan.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The generators' bad arguments and unwritable outputs: one line naming the argument or file, exit code 2. */
class GeneratorMainTest {
    @TempDir
    Path dir;

    private static String[] run(GeneratorMain.Body body) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = GeneratorMain.run("Tool", body, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[]{Integer.toString(rc), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void aBadNumberOrARangeNamesTheArgument() {
        String[] r = run(() -> GeneratorMain.intArg(new String[]{"abc"}, 0, "BUFFERS", 1, 9));
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).isEqualTo("Tool: BUFFERS must be a whole number, got 'abc'" + System.lineSeparator());
        r = run(() -> GeneratorMain.intArg(new String[]{"10"}, 0, "WIDTH", 1, 9));
        assertThat(r[1]).startsWith("Tool: WIDTH must be between 1 and 9, got 10").doesNotContain("Exception");
        r = run(() -> GeneratorMain.intArg(new String[]{"99999999999"}, 0, "LAYERS", 1, 9));
        assertThat(r[1]).startsWith("Tool: LAYERS must be between 1 and 9");
    }

    @Test
    void anUnwritableOutputNamesTheFile() {
        Path missing = dir.resolve("no/such/out.csv");
        String[] r = run(() -> Files.writeString(missing, "x"));
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).isEqualTo("Tool: cannot write " + missing + ": its folder does not exist" + System.lineSeparator());
        r = run(() -> Files.writeString(dir, "x"));
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).startsWith("Tool: cannot write " + dir).doesNotContain("Exception");
    }

    @Test
    void aWideTraceTooWideForItsBuffersIsRefusedByTheGeneratorsOwnCheck() {
        String[] r = run(() -> {
            String[] args = {"100", "200", "42", dir.resolve("w.csv").toString()};
            int buffers = GeneratorMain.intArg(args, 0, "BUFFERS", 2, Integer.MAX_VALUE);
            GeneratorMain.intArg(args, 1, "WIDTH", 1, buffers / 2);
        });
        assertThat(r[1]).startsWith("Tool: WIDTH must be between 1 and 50, got 200");
        assertThat(run(() -> { })[0]).isEqualTo("0");
    }
}
