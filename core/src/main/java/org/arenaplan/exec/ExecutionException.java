package org.arenaplan.exec;

/** An op cannot be run: a missing shape, an unsupported attribute, a non-f32 tensor. Names the op. */
public final class ExecutionException extends RuntimeException {
    public ExecutionException(String message) {
        super(message);
    }
}
