package org.arenaplan.cli;

import org.arenaplan.io.InputException;
import org.arenaplan.io.TextFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/** File reading and writing whose failures are one line naming the file. */
final class FileAccess {
    private FileAccess() { }

    interface Reading<T> {
        T read(Path file) throws IOException;
    }

    interface Writing {
        void write(Writer w) throws IOException;
    }

    /**
     * Reads {@code file} with {@code reader}; a folder is {@link TextFiles#folderNotFile}'s line, a
     * named pipe, socket or device {@link TextFiles#notARegularFile}'s (never opened: a pipe no one
     * writes would block), any other failure {@code cannot read FILE: REASON} ({@link TextFiles#reason}).
     *
     * @param what the argument or option that named the file, as the synopsis writes it ({@code PROBLEM.csv})
     */
    static <T> T read(Path file, String what, Reading<T> reader) {
        refuseFolder(file, what);
        String pipe = TextFiles.notARegularFile(what, file);
        if (pipe != null) throw new InputException(pipe);
        try {
            return reader.read(file);
        } catch (IOException e) {
            throw new InputException("cannot read " + file + ": " + TextFiles.reason(e), e);
        }
    }

    /**
     * Writes {@code file}; a failure (a full disk, a folder made there meanwhile) is
     * {@code FLAG FILE: cannot write: REASON}, as {@link #checkWritable}'s lines, and leaves the
     * file that was there (or none): a regular file is written beside and moved over it once
     * complete ({@link #writeReplacing}); a device or pipe is written as it is.
     *
     * @param flag the option that named the file ({@code --svg})
     */
    static void write(Path file, String flag, Writing body) {
        try {
            Path target = Files.exists(file) ? file.toRealPath() : file;   // a link's target is replaced, not the link
            if (Files.exists(target) && !Files.isRegularFile(target)) {
                writeDirectly(target, body);   // a device or a pipe (--svg /dev/stdout): written as it is
                return;
            }
            writeReplacing(target, body);
        } catch (IOException e) {
            throw new InputException(flag + " " + file + ": cannot write: " + TextFiles.reason(e), e);
        }
    }

    private static void copyPermissions(Path from, Path to) throws IOException {
        if (Files.getFileStore(to).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class))
            Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
    }

    private static void writeDirectly(Path file, Writing body) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            body.write(w);
        }
    }

    /**
     * Writes a hidden file beside {@code target} and moves it over {@code target} once complete,
     * so a write that fails part-way (a full disk, {@code ulimit -f}) or is interrupted (Ctrl-C)
     * leaves the file that was there, or none, and no partial one; the hidden file is deleted on
     * every path (on Ctrl-C by the JVM's exit).
     */
    private static void writeReplacing(Path target, Writing body) throws IOException {
        Path folder = target.toAbsolutePath().getParent();
        // createFile, not createTempFile: the file gets the umask's permissions (createTempFile's are the owner's alone)
        Path temp;
        try {
            String name = target.getFileName().toString();   // cut so that the hidden name stays within a file system's 255 bytes
            temp = Files.createFile(folder.resolve("." + (name.length() > 100 ? name.substring(0, 100) : name) + "."
                    + ProcessHandle.current().pid() + "." + System.nanoTime() + ".part"));
        } catch (java.nio.file.AccessDeniedException e) {
            writeDirectly(target, body);   // a writable file in a folder that takes no new file: written in place, as before
            return;
        }
        temp.toFile().deleteOnExit();
        try {
            if (Files.exists(target)) copyPermissions(target, temp);   // as an overwrite keeps them
            writeDirectly(temp, body);
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Refuses a folder named where a file is read or written, with {@link TextFiles#folderNotFile}'s
     * line (exit 2).
     *
     * @param what the option or argument that named it ({@code --out}, {@code PROBLEM.csv})
     */
    static void refuseFolder(Path file, String what) {
        String line = TextFiles.folderNotFile(what, file);
        if (line != null) throw new InputException(line);
    }

    /** Writes to an already open writer (standard output), which stays open. */
    static void writeTo(Writer target, Writing body) {
        try {
            body.write(target);
            target.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fails early (before long planning) when the output's folder does not exist, when the output
     * is a folder ({@link TextFiles#folderNotFile}), or when the name is {@code -}: only {@code plan --out -} means standard output, and a file named
     * {@code -} written for any other flag would surprise.
     */
    static void checkWritable(Path file, String flag) {
        if (file.toString().equals("-"))
            throw new UsageException(flag + " -: this flag writes a file (only plan --out - writes to standard output); give a file name");
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !java.nio.file.Files.isDirectory(dir))
            throw new InputException(flag + " " + file + ": cannot write: folder " + dir + " does not exist");
        refuseFolder(file, flag);
    }

    /**
     * Refuses an output that is one of the command's input files (the same file by any path or
     * link): writing it would destroy that input, and {@code run --output R.pb --expect R.pb}
     * compared the outputs with themselves and said they matched.
     *
     * @param inputs the words and flag values that name input files ({@code NAME=FILE} is read
     *               both whole and after its first {@code =}); those that name no file are skipped
     */
    static void checkNotAnInput(Path output, String flag, List<String> inputs) {
        if (!java.nio.file.Files.isRegularFile(output)) return;
        for (String word : inputs) {
            int eq = word.indexOf('=');
            for (String name : eq < 0 ? List.of(word) : List.of(word, word.substring(eq + 1))) {
                if (sameFile(output, name))
                    throw new UsageException(flag + " " + output + ": this file is also an input of the command (" + name + "); writing it would overwrite that input, so give another name");
            }
        }
    }

    /**
     * Where {@code file} lies once links are followed: its folder's real path (and the file's own,
     * when it exists) so that two names of one file, through a linked folder or a linked file,
     * compare equal; the absolute normalised path where the folder cannot be read.
     */
    static Path resolved(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        try {
            if (java.nio.file.Files.exists(abs)) return abs.toRealPath();
            Path dir = abs.getParent();
            return dir == null ? abs : dir.toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            return abs;   // a folder that does not exist: checkWritable reports it
        }
    }

    private static boolean sameFile(Path output, String name) {
        try {
            Path p = Path.of(name);
            return java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isSameFile(output, p);
        } catch (java.nio.file.InvalidPathException | IOException e) {
            return false;   // not a file name, or one that cannot be read: its reader reports it
        }
    }
}
