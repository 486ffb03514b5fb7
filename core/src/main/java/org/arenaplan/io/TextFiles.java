package org.arenaplan.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CoderResult;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Opens the text files arenaplan reads (graph JSON, plan JSON, CSV problems and solutions):
 * UTF-8, with a leading byte-order mark (U+FEFF, which spreadsheet programs write) dropped.
 * Bytes that are not UTF-8 are an {@link InputException} naming the file, the line and the
 * byte, never the decoder's "Input length = 1".
 */
public final class TextFiles {
    private static final char BOM = '\uFEFF';

    private TextFiles() { }

    /**
     * The whole file as text, without a leading byte-order mark.
     *
     * @throws InputException naming the file, the line, the byte and its offset where a byte is not UTF-8
     * @throws IOException when the file cannot be read
     */
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

    /**
     * {@link #read} as a reader.
     *
     * @throws InputException where a byte is not UTF-8, as {@link #read}
     * @throws IOException when the file cannot be read
     */
    public static BufferedReader open(Path file) throws IOException {
        return new BufferedReader(new StringReader(read(file)));
    }

    /**
     * The file as a reader that decodes as it is read, for files too large to hold as one string
     * (a plan JSON of a million storages is 348 MB): a leading byte-order mark dropped; a byte
     * that is not UTF-8 stops the reader with a {@link CharacterCodingException}, which
     * {@link #requireUtf8} turns into the message {@link #read} gives.
     *
     * @throws IOException when the file cannot be opened
     */
    public static BufferedReader reader(Path file) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder()), 1 << 16);
        try {
            r.mark(1);
            if (r.read() != BOM) r.reset();
            return r;
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /**
     * Refuses a file with a byte that is not UTF-8 with {@link #read}'s message (the line, the byte
     * and its offset), reading it in 64 KiB pieces.
     *
     * @throws InputException at the first byte that is not UTF-8
     * @throws IOException when the file cannot be read
     */
    public static void requireUtf8(Path file) throws IOException {
        CharsetDecoder d = decoder();
        ByteBuffer in = ByteBuffer.allocate(1 << 16).flip();
        CharBuffer out = CharBuffer.allocate(1 << 16);
        long base = 0;   // the file offset of in's index 0
        long line = 1;
        boolean eof = false;
        try (InputStream s = Files.newInputStream(file)) {
            while (true) {
                if (!eof) {
                    base += in.position();
                    in.compact();
                    int n = s.read(in.array(), in.position(), in.remaining());
                    if (n < 0) eof = true;
                    else in.position(in.position() + n);
                    in.flip();
                }
                int from = in.position();
                CoderResult r = d.decode(in, out, eof);
                for (int i = from; i < in.position(); i++) if (in.get(i) == '\n') line++;
                out.clear();
                if (r.isError()) {
                    throw new InputException(String.format("cannot read %s: line %d is not UTF-8 text (byte 0x%02X at byte offset %d); save the file as UTF-8",
                            file, line, in.get(in.position()) & 0xff, base + in.position()));
                }
                if (eof && r.isUnderflow()) return;
            }
        }
    }

    private static CharsetDecoder decoder() {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
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

    /** What every command says of a folder named where a file is read or written. */
    public static final String FOLDER_NOT_FILE = "a folder, not a file";
    /** What every command says of a file named where a folder is read or written. */
    public static final String FILE_NOT_FOLDER = "a file, not a folder";

    /**
     * The one line every command gives for a folder named where a file is read or written
     * ({@code --svg out: a folder, not a file}, {@code PROBLEM.csv d.csv: a folder, not a file};
     * an empty name, which Java takes for the working folder: {@code --svg '': the name is empty;
     * give a file}), or null when {@code file} is not a folder (a missing file is left to its reader).
     *
     * @param what the option or argument that named it, as the synopsis writes it ({@code --svg},
     *             {@code --input x=}, {@code PROBLEM.csv}); the path follows it after a space,
     *             or directly when {@code what} ends in '='
     */
    public static String folderNotFile(String what, Path file) {
        if (file.toString().isEmpty()) return named(what, "''") + ": the name is empty; give a file";   // Java takes "" for the working folder
        return Files.isDirectory(file) ? named(what, file.toString()) + ": " + FOLDER_NOT_FILE : null;
    }

    /** What every command says of a named pipe, a socket or a device named where a file is read. */
    public static final String NOT_A_REGULAR_FILE = "a pipe, socket or device, not a regular file (arenaplan reads a file whole, by its size: give a file)";

    /**
     * The one line every reader gives for a named pipe, a socket or a device named where a file is
     * read ({@code --input x=/tmp/fifo: a pipe, socket or device, not a regular file ...}), or null
     * for a regular file, a folder or a missing file (left to {@link #folderNotFile} and the
     * reader). Only the attributes are read: opening a named pipe that no process writes would
     * block forever, and a pipe's size reads 0, which a reader took for an empty file.
     *
     * @param what as for {@link #folderNotFile}
     */
    public static String notARegularFile(String what, Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class).isOther() ? named(what, file.toString()) + ": " + NOT_A_REGULAR_FILE : null;
        } catch (IOException e) {
            return null;                                 // missing or unreadable: the reader says which
        }
    }

    /**
     * The one line every command gives for a path named where a folder is read: {@code WHAT
     * PATH: no such folder}, {@code ...: a file, not a folder}, {@code ...: not a folder} (a
     * device or pipe), {@code WHAT '': the name is empty; give a folder}, or null when
     * {@code folder} is a folder.
     *
     * @param what as for {@link #folderNotFile}
     */
    public static String notAFolder(String what, Path folder) {
        if (folder.toString().isEmpty()) return named(what, "''") + ": the name is empty; give a folder";   // as the working folder it would read the wrong one
        if (Files.isDirectory(folder)) return null;
        String why = !Files.exists(folder) ? "no such folder" : Files.isRegularFile(folder) ? FILE_NOT_FOLDER : "not a folder";
        return named(what, folder.toString()) + ": " + why;
    }

    private static String named(String what, String path) {
        return what.isEmpty() ? path : what.endsWith("=") ? what + path : what + " " + path;
    }

    /**
     * The phrase a one-line error gives for why a file could not be read or written: "no such
     * file or folder", "permission denied", "not UTF-8 text (...)", {@link #FOLDER_NOT_FILE}
     * for a folder, else the operating system's reason or the exception's message.
     */
    public static String reason(IOException e) {
        if (e instanceof CharacterCodingException) return "not UTF-8 text (a malformed byte sequence)";
        if (e instanceof NoSuchFileException) return "no such file or folder";
        if (e instanceof FileSystemException f && f.getFile() != null && isFolder(f.getFile())) return FOLDER_NOT_FILE;
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static boolean isFolder(String name) {
        try {
            return Files.isDirectory(Path.of(name));
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }
}
