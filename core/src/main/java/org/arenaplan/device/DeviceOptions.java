package org.arenaplan.device;

/**
 * How to open a device.
 *
 * @param seed          seed of the simulator's launch delays (ignored by CUDA)
 * @param maxDelayNanos the simulator's largest random delay per launch; 0 for none (ignored by CUDA)
 * @param ordinal       which GPU (ignored by the simulator)
 * @param tf32          CUDA only, off by default: gemm and conv2d (group 1) on TF32 tensor cores,
 *                      inputs rounded to a 10-bit mantissa, products summed in FP32 (NVIDIA's
 *                      TensorFloat-32; bound in docs/cuda.md), so results differ from FP32's; the
 *                      simulator ignores it and computes in FP32
 */
public record DeviceOptions(long seed, long maxDelayNanos, int ordinal, boolean tf32) {
    public static final DeviceOptions DEFAULT = new DeviceOptions(1, 0, 0, false);

    public DeviceOptions(long seed, long maxDelayNanos, int ordinal) {
        this(seed, maxDelayNanos, ordinal, false);
    }

    /** @param s seed of the simulator's launch delays (ignored by CUDA) */
    public DeviceOptions withSeed(long s) {
        return new DeviceOptions(s, maxDelayNanos, ordinal, tf32);
    }

    /** @param d the simulator's largest random delay per launch, in nanoseconds; 0 for none (ignored by CUDA) */
    public DeviceOptions withMaxDelayNanos(long d) {
        return new DeviceOptions(seed, d, ordinal, tf32);
    }

    public DeviceOptions withTf32(boolean on) {
        return new DeviceOptions(seed, maxDelayNanos, ordinal, on);
    }
}
