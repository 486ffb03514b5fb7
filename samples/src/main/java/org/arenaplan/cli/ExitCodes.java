package org.arenaplan.cli;

import org.arenaplan.device.DeviceOutOfMemoryException;
import org.arenaplan.device.DeviceUnavailableException;
import org.arenaplan.device.DataException;
import org.arenaplan.exec.ExecutionException;
import org.arenaplan.io.InputException;
import org.arenaplan.io.TextFiles;
import org.arenaplan.ir.GraphException;
import org.arenaplan.plan.PlanningException;

import java.io.UncheckedIOException;

/**
 * The command line's exit codes, and the one place that maps an exception escaping a command to
 * its exit code and the line printed for it.
 */
final class ExitCodes {
    /** Planned (within the capacity when one was given) / the solution is valid. */
    static final int OK = 0;
    /** {@code validate}: the solution breaks a rule. {@code run}: outputs differ. Any command: an internal error. */
    static final int INVALID = 1;
    /** Bad input or usage: malformed file, unknown planner or model, unwritable output. */
    static final int BAD_INPUT = 2;
    /** No placement within the capacity was found; for {@code run}/{@code bench}: the device is unavailable or has too little memory. */
    static final int NO_PLACEMENT = 3;
    /** The device asked for (e.g. {@code --device cuda}) cannot be used here; the same code as {@link #NO_PLACEMENT}. */
    static final int DEVICE_UNAVAILABLE = NO_PLACEMENT;

    /** What a failed command ends with: its exit code and the one line printed after {@code "arenaplan: "}. */
    record Failure(int code, String message) {
        boolean internal() {
            return code == INVALID;
        }
    }

    private ExitCodes() { }

    /**
     * Maps an exception that escaped a command: 3 for no placement, an unavailable device or one
     * with too little memory (its memory is a capacity too); 2 for
     * bad input or usage (the exception's message names the file and the field, op or tensor);
     * anything else is an internal error, exit 1 (a bug: bad input must never end here).
     *
     * @param command the qualified command name, for the usage hint ({@code "arenaplan plan"})
     */
    static Failure of(Exception e, String command) {
        if (e instanceof NoPlacementException || e instanceof DeviceUnavailableException) return new Failure(NO_PLACEMENT, e.getMessage());
        if (e instanceof DeviceOutOfMemoryException) return new Failure(NO_PLACEMENT, "the device cannot hold the run: " + e.getMessage());
        if (e instanceof UsageException) return new Failure(BAD_INPUT, e.getMessage() + " (see '" + command + " --help')");
        if (e instanceof InputException || e instanceof GraphException || e instanceof PlanningException
                || e instanceof ExecutionException   // a graph the executors cannot run (unknown op kind, wrong dtype...)
                || e instanceof DataException)   // data its op does not define (an index out of range, an integer division by zero)
            return new Failure(BAD_INPUT, e.getMessage());
        if (e instanceof UncheckedIOException u) return new Failure(BAD_INPUT, TextFiles.reason(u.getCause()));
        return new Failure(INVALID, "internal error: " + e);
    }
}
