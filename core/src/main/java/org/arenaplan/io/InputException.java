package org.arenaplan.io;

/** Malformed input (a file, a flag); the message names the file, line and field at fault. */
public class InputException extends RuntimeException {
    public InputException(String message) {
        super(message);
    }

    public InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
