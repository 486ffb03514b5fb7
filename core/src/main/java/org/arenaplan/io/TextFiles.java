package org.arenaplan.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens the text files arenaplan reads (graph JSON, plan JSON, CSV problems and solutions):
 * UTF-8, with a leading byte-order mark (U+FEFF, which spreadsheet programs write) dropped.
 * Bytes that are not UTF-8 are an {@link InputException} naming the file, the line and the
 * byte, never the decoder's "Input length = 1".
 */
public final class TextFiles {
    private static final char BOM = '\uFEFF';

    private TextFiles() { }

    /** The whole file as text, without a leading byte-order mark. */
    public static String read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        String text;
        try {
            text = d.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw notUtf8(file, bytes);
        }
        return !text.isEmpty() && text.charAt(0) == BOM ? text.substring(1) : text;
    }

    /** {@link #read} as a reader. */
    public static BufferedReader open(Path file) throws IOException {
        return new BufferedReader(new StringReader(read(file)));
    }

    /** Finds the first byte that does not decode and says where it is. */
    private static InputException notUtf8(Path file, byte[] bytes) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length + 1);
        d.decode(in, out, true);   // stops at the first malformed sequence
        int bad = in.position();
        int line = 1;
        for (int i = 0; i < bad; i++) if (bytes[i] == '\n') line++;
        return new InputException(String.format("cannot read %s: line %d is not UTF-8 text (byte 0x%02X at byte offset %d); save the file as UTF-8",
                file, line, bytes[bad] & 0xff, bad));
    }
}
