package org.arenaplan.ir;

/** A graph that cannot be planned; the message names the op or tensor at fault. */
public class GraphException extends RuntimeException {
    public GraphException(String message) {
        super(message);
    }

    public GraphException(String message, Throwable cause) {
        super(message, cause);
    }
}
