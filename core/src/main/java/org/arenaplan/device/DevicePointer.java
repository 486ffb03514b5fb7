package org.arenaplan.device;

/**
 * An address on the device: a buffer and a byte offset into it (CUDA: the buffer's
 * {@code CUdeviceptr.withByteOffset(offset)}). Kernels take f32 pointers, so offsets used for
 * kernel arguments are multiples of 4.
 */
public record DevicePointer(DeviceBuffer buffer, long offset) {
    public DevicePointer {
        if (buffer == null) throw new IllegalArgumentException("device pointer without a buffer");
        if (offset < 0 || offset > buffer.bytes())
            throw new IllegalArgumentException("offset " + offset + " lies outside buffer of " + buffer.bytes() + " B owned by " + buffer.owner());
    }

    /**
     * The address {@code bytes} further into the same buffer.
     *
     * @throws IllegalArgumentException when the result lies before the buffer's start or past its end
     */
    public DevicePointer plus(long bytes) {
        return new DevicePointer(buffer, offset + bytes);
    }
}
