package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench-real DIR} with a DIR that is no folder: exit 2 and the command line's wording (TextFiles.notAFolder). */
class RealModelsArgsTest {
    @TempDir
    Path dir;

    private static String[] run(Path folder) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = RealModels.bench(new GpuRunner.Flags(new String[]{folder.toString(), "--device", "sim"}, true), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new String[]{String.valueOf(code), bytes.toString(StandardCharsets.UTF_8).strip()};
    }

    @Test
    void aFileIsSaidToBeAFileNotAMissingFolder() throws Exception {
        Path file = Files.writeString(dir.resolve("m.meta.json"), "{}");
        assertThat(run(file)).containsExactly("2", "bench-real " + file + ": a file, not a folder");
        Path missing = dir.resolve("nope");
        assertThat(run(missing)).containsExactly("2", "bench-real " + missing + ": no such folder");
    }
}
