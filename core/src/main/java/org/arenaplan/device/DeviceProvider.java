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

    /**
     * The cause in a few words, for the one line {@code auto} prints on every run (the full
     * cause is for {@code doctor}); by default the full cause.
     */
    default String unavailabilityBrief() {
        return unavailabilityCause();
    }

    Device open(DeviceOptions options);
}
