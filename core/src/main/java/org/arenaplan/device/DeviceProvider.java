package org.arenaplan.device;

/**
 * A device implementation found with {@link java.util.ServiceLoader} (as DJL finds engines):
 * listed in {@code META-INF/services/org.arenaplan.device.DeviceProvider}. Providers must be
 * cheap to construct and must not load native code before {@link #isAvailable()} is called.
 */
public interface DeviceProvider {
    /** "sim", "cuda". */
    String name();

    /** Higher wins for {@code auto} among available providers (sim 0, cuda 100). */
    int priority();

    boolean isAvailable();

    /** Why {@link #isAvailable()} is false; null when available. */
    String unavailabilityCause();

    Device open(DeviceOptions options);
}
