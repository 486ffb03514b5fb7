package org.arenaplan.device;

/** A device call failed: out of memory, a freed buffer used, an unknown kernel, a driver error. */
public class DeviceException extends RuntimeException {
    public DeviceException(String message) {
        super(message);
    }

    public DeviceException(String message, Throwable cause) {
        super(message, cause);
    }
}
