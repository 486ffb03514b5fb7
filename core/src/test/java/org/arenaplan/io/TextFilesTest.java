package org.arenaplan.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.StringWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextFilesTest {
    @TempDir
    Path dir;

    /** Text over several 64 KiB pieces: ASCII lines, and two- to four-byte characters that straddle the pieces' edges. */
    private static byte[] text(int bytes, long seed) {
        Random r = new Random(seed);
        StringBuilder b = new StringBuilder();
        String[] chars = {"a", "7", "\n", "é", "→", "😀", " ", "\""};
        while (b.toString().getBytes(StandardCharsets.UTF_8).length < bytes) {
            for (int i = 0; i < 4096; i++) b.append(chars[r.nextInt(chars.length)]);
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The streamed check finds the byte the whole-file decoder finds, with the same message, wherever it lies. */
    @Test
    void theStreamedUtf8CheckNamesTheByteTheWholeFileDecoderNames() throws Exception {
        Random r = new Random(3);
        for (int k = 0; k < 40; k++) {
            byte[] b = text(200_000, k);
            Path f = dir.resolve("t" + k + ".json");
            Files.write(f, b);
            TextFiles.requireUtf8(f);   // valid: no error, also where characters straddle the pieces
            assertThat(TextFiles.read(f)).hasSize(new String(b, StandardCharsets.UTF_8).length());
            int at = k < 3 ? (1 << 16) * (k + 1) - 1 + k % 2 : r.nextInt(b.length);   // first: at the pieces' edges
            b[at] = (byte) (k % 3 == 0 ? 0xFF : k % 3 == 1 ? 0x80 : 0xC3);   // invalid alone, a stray continuation, or a lead byte cut short
            Files.write(f, b);
            String whole = null;
            try {
                TextFiles.read(f);
            } catch (InputException e) {
                whole = e.getMessage();
            }
            if (whole == null) continue;   // 0xC3 before a continuation byte can still decode
            assertThatThrownBy(() -> TextFiles.requireUtf8(f)).as("byte %d", at).hasMessage(whole);
            assertThatThrownBy(() -> drain(TextFiles.reader(f))).isInstanceOf(CharacterCodingException.class);
        }
    }

    @Test
    void theReaderDropsOneByteOrderMark() throws Exception {
        Path f = dir.resolve("bom.json");
        Files.write(f, "\uFEFF{}".getBytes(StandardCharsets.UTF_8));
        assertThat(drain(TextFiles.reader(f))).isEqualTo("{}").isEqualTo(TextFiles.read(f));
    }

    /** A plan file with a syntax error and, after it, a byte that is not UTF-8: the byte is reported, as when the file was decoded whole first. */
    @Test
    void aPlanFileWithABadByteIsRefusedForTheByteFirst() throws Exception {
        StringWriter w = new StringWriter();
        org.arenaplan.plan.Problem p = new org.arenaplan.plan.Problem(new String[]{"a", "b"}, new long[]{0, 1}, new long[]{2, 3}, new long[]{8, 8}, 1);
        var placement = org.arenaplan.plan.Planners.byName("greedy-size").place(p);
        PlanJson.write(p, placement, new org.arenaplan.plan.PlanStats("greedy-size", 16, 16, 16, 2, 2, 4, 1, 1.0), w);
        byte[] good = w.toString().getBytes(StandardCharsets.UTF_8);
        Path f = dir.resolve("p.json");
        Files.write(f, good);
        assertThat(PlanJson.read(f).offsets()).containsExactly(placement.offsets());
        byte[] bad = w.toString().replace("\"id\" : 1", "\"id\" : 1,,").getBytes(StandardCharsets.UTF_8);
        bad[bad.length - 3] = (byte) 0xFF;
        Files.write(f, bad);
        assertThatThrownBy(() -> PlanJson.read(f)).isInstanceOf(InputException.class)
                .hasMessageMatching("cannot read .*p\\.json: line \\d+ is not UTF-8 text \\(byte 0xFF at byte offset " + (bad.length - 3) + "\\); save the file as UTF-8");
        Files.write(f, w.toString().replace("\"id\" : 1", "\"id\" : 1,,").getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> PlanJson.read(f)).hasMessageContaining("malformed JSON");
    }

    private static String drain(BufferedReader r) throws Exception {
        try (r) {
            StringBuilder b = new StringBuilder();
            char[] buf = new char[8192];
            for (int n; (n = r.read(buf)) > 0; ) b.append(buf, 0, n);
            return b.toString();
        }
    }
}
