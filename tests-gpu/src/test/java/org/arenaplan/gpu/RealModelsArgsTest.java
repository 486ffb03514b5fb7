package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU runner's command line on wrong input: one line naming the argument, exit 2, never a
 * stack trace ({@code --iterations abc} and {@code --json} into a missing folder were
 * NumberFormatException and FileNotFoundException traces; an empty folder was a silent success).
 */
class RealModelsArgsTest {
    @TempDir
    Path dir;

    private static String[] run(Path folder) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = RealModels.bench(new GpuRunner.Flags("bench-real", new String[]{folder.toString(), "--device", "sim"}, true), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new String[]{String.valueOf(code), bytes.toString(StandardCharsets.UTF_8).strip()};
    }

    @Test
    void aFileIsSaidToBeAFileNotAMissingFolder() throws Exception {
        Path file = Files.writeString(dir.resolve("m.meta.json"), "{}");
        assertThat(run(file)).containsExactly("2", "bench-real " + file + ": a file, not a folder");
        Path missing = dir.resolve("nope");
        assertThat(run(missing)).containsExactly("2", "bench-real " + missing + ": no such folder");
    }

    @Test
    void anEmptyFolderIsNotASuccessAndAMalformedDescriptionIsSkippedSayingWhy() throws Exception {
        assertThat(run(dir)).containsExactly("2", "bench-real " + dir + ": no NAME.meta.json in it; nothing to run");
        Files.writeString(dir.resolve("m.meta.json"), "{\"file\": ");
        String[] r = run(dir);
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains("m.meta.json: cannot read: ").doesNotContain("Exception", "\tat ");
    }

    @Test
    void wrongFlagsAreOneLineNamingTheFlag() throws Exception {
        String d = dir.toString();
        String[][] cases = {
                {"--iterations abc", "bench-real: --iterations abc: expected a whole number of at least 1"},
                {"--iterations 0", "bench-real: --iterations 0: expected a whole number of at least 1"},
                {"--iterations", "bench-real: --iterations needs a value"},
                {"--bogus", "bench-real: unknown option '--bogus'"},
                {"--device gpu", "bench-real: --device gpu: expected cuda or sim"},
                {"--device sim --device sim", "bench-real: --device given twice"},
                {"--json " + dir.resolve("nope").resolve("r.json"), "bench-real: --json " + dir.resolve("nope").resolve("r.json") + ": cannot write: folder "},
                {"--json " + d, "bench-real: --json " + d + ": a folder, not a file"}};
        for (String[] c : cases) {
            String[] args = (d + " " + c[0]).split(" ");
            assertThatThrownBy(() -> new GpuRunner.Flags("bench-real", args, true)).as(c[0]).isInstanceOf(GpuRunner.BadUsage.class).hasMessageStartingWith(c[1]);
        }
        assertThatThrownBy(() -> new GpuRunner.Flags("bench-real", new String[]{"--device", "sim"}, true)).hasMessageStartingWith("bench-real: give the folder first");
        assertThatThrownBy(() -> new GpuRunner.Flags("bench", new String[]{"--warmup", "-1"}, false)).hasMessage("bench: --warmup -1: expected a whole number of at least 0");
    }
}
