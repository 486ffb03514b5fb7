package org.arenaplan.cli;

/** The command was called wrongly (missing input, unknown option, bad flag value): exit code 2. */
final class UsageException extends RuntimeException {
    UsageException(String message) {
        super(message);
    }
}
