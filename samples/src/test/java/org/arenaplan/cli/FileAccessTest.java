package org.arenaplan.cli;

import org.arenaplan.io.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A write that fails part-way ({@code ulimit -f}, a full disk) left the truncated file behind,
 * over the one that was there: {@code plan resnet50.csv --out r.json} under {@code ulimit -f 100}
 * exited 2 and left 100 KB of JSON that {@code validate} then called malformed (breaker).
 */
class FileAccessTest {
    @TempDir
    Path dir;

    private static final FileAccess.Writing FAILS_PART_WAY = w -> {
        w.write("partial ".repeat(4096));
        w.flush();
        throw new IOException("File too large");
    };

    private Stream<Path> files() throws IOException {
        return Files.list(dir);
    }

    @Test
    void aFailedWriteLeavesTheFileThatWasThereAndNothingElse() throws Exception {
        Path out = Files.writeString(dir.resolve("plan.json"), "old");
        assertThatThrownBy(() -> FileAccess.write(out, "--out", FAILS_PART_WAY))
                .isInstanceOf(InputException.class).hasMessage("--out " + out + ": cannot write: File too large");
        assertThat(Files.readString(out)).isEqualTo("old");
        try (Stream<Path> left = files()) {
            assertThat(left).containsExactly(out);
        }
    }

    @Test
    void aFailedWriteOfANewFileLeavesNoFile() throws Exception {
        Path out = dir.resolve("plan.svg");
        assertThatThrownBy(() -> FileAccess.write(out, "--svg", FAILS_PART_WAY)).isInstanceOf(InputException.class);
        try (Stream<Path> left = files()) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aWriteThatSucceedsReplacesTheFileAndLeavesNothingElse() throws Exception {
        Path out = Files.writeString(dir.resolve("s.csv"), "old");
        FileAccess.write(out, "--out", w -> w.write("new"));
        assertThat(Files.readString(out)).isEqualTo("new");
        try (Stream<Path> left = files()) {
            assertThat(left).containsExactly(out);
        }
    }
}
