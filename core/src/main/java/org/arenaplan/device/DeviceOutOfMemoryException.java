package org.arenaplan.device;

/**
 * The device cannot hold an allocation: the CUDA driver's {@code CUDA_ERROR_OUT_OF_MEMORY}, or
 * more than the simulator can hold on the Java heap. Not a bug and not malformed input: the
 * graph needs more memory than this device has. The command line exits 3 on it, as for a
 * placement that does not fit {@code --capacity}.
 */
public final class DeviceOutOfMemoryException extends DeviceException {
    public DeviceOutOfMemoryException(String message) {
        super(message);
    }
}
