package org.arenaplan.device;

/**
 * The device asked for cannot be used on this machine (no driver, no GPU, kernels that do not
 * load); the message carries the provider's probe cause and is meant for the user as is. The
 * command line exits 3 on it.
 */
public final class DeviceUnavailableException extends DeviceException {
    public DeviceUnavailableException(String message) {
        super(message);
    }
}
