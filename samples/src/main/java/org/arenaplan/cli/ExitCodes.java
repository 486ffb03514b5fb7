package org.arenaplan.cli;

/** The command line's exit codes. */
final class ExitCodes {
    /** Planned (within the capacity when one was given) / the solution is valid. */
    static final int OK = 0;
    /** {@code validate}: the solution breaks a rule. Any command: an internal error. */
    static final int INVALID = 1;
    /** Bad input or usage: malformed file, unknown planner or model, unwritable output. */
    static final int BAD_INPUT = 2;
    /** No placement within the capacity was found. */
    static final int NO_PLACEMENT = 3;

    private ExitCodes() { }
}
