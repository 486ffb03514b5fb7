package org.arenaplan.device;

/**
 * How to open a device.
 *
 * @param seed          seed of the simulator's launch delays (ignored by CUDA)
 * @param maxDelayNanos the simulator's largest random delay per launch; 0 for none (ignored by CUDA)
 * @param ordinal       which GPU (ignored by the simulator)
 */
public record DeviceOptions(long seed, long maxDelayNanos, int ordinal) {
    public static final DeviceOptions DEFAULT = new DeviceOptions(1, 0, 0);

    public DeviceOptions withSeed(long s) {
        return new DeviceOptions(s, maxDelayNanos, ordinal);
    }

    public DeviceOptions withMaxDelayNanos(long d) {
        return new DeviceOptions(seed, d, ordinal);
    }
}
