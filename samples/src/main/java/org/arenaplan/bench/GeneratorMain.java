package org.arenaplan.bench;

import org.arenaplan.io.TextFiles;
import org.arenaplan.plan.PlanningException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * The command-line contract of the generators in this package ({@link WideTraceCsv},
 * {@link MlpOnnx}): a bad argument or an output that cannot be written gives one line naming the
 * argument or the file, and exit code 2, as the {@code arenaplan} command does; never a stack
 * trace.
 */
final class GeneratorMain {
    private GeneratorMain() { }

    /** Thrown for an argument that is out of range or not a number; its message names it. */
    static final class BadArgument extends RuntimeException {
        BadArgument(String message) {
            super(message, null, false, false);
        }
    }

    interface Body {
        void run() throws IOException;
    }

    /**
     * Runs {@code body}; a bad argument, a planning refusal or an I/O failure prints one line to
     * {@code err} and gives 2, else 0: the generators' exit code.
     */
    static int run(String tool, Body body, PrintStream err) {
        try {
            body.run();
            return 0;
        } catch (BadArgument | PlanningException e) {
            err.println(tool + ": " + e.getMessage());
        } catch (NoSuchFileException e) {
            err.println(tool + ": cannot write " + e.getFile() + ": its folder does not exist");
        } catch (IOException e) {
            String file = e instanceof FileSystemException f && f.getFile() != null ? " " + f.getFile() : "";
            err.println(tool + ": cannot write" + file + ": " + TextFiles.reason(e));
        }
        return 2;
    }

    /** {@link #run(String, Body, PrintStream)} to standard error, exiting with 2 on failure. */
    static void runOrExit(String tool, Body body) {
        if (run(tool, body, System.err) != 0) System.exit(2);
    }

    /** Argument {@code i} as an int in [min, max]; {@code name} names it in the error. */
    static int intArg(String[] args, int i, String name, int min, int max) {
        long v = longArg(args, i, name);
        if (v < min || v > max) throw new BadArgument(name + " must be between " + min + " and " + max + ", got " + args[i]);
        return (int) v;
    }

    /** Argument {@code i} as a long; {@code name} names it in the error. */
    static long longArg(String[] args, int i, String name) {
        try {
            return Long.parseLong(args[i]);
        } catch (NumberFormatException e) {
            throw new BadArgument(name + " must be a whole number, got '" + args[i] + "'");
        }
    }
}
