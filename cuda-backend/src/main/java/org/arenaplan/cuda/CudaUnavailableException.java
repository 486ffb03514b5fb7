package org.arenaplan.cuda;

/** Why CUDA cannot be used here; its message is meant for the user as is. */
public final class CudaUnavailableException extends RuntimeException {
    public CudaUnavailableException(String message) {
        super(message);
    }

    public CudaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
