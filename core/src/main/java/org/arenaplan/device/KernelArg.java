package org.arenaplan.device;

import java.util.List;

/**
 * One pointer argument of a kernel call or copy, with what is done to it. A real GPU uses only
 * {@link #pointer()}; the simulator uses the rest to check every read against the writes it
 * depends on.
 *
 * @param bytes   bytes touched from the pointer on
 * @param tensor  how messages name the bytes (tensor, storage)
 * @param sources for a write, the one tensor whose data it writes; for a read, the tensors whose
 *                writes the bytes must hold (a view's base, a concatenation's member slices)
 */
public record KernelArg(DevicePointer pointer, long bytes, Access access, String tensor, List<String> sources) {
    public enum Access { READ, WRITE }

    public KernelArg {
        if (bytes < 0 || pointer.offset() + bytes > pointer.buffer().bytes())
            throw new IllegalArgumentException("argument " + tensor + ": " + bytes + " B at offset " + pointer.offset()
                    + " overrun buffer of " + pointer.buffer().bytes() + " B owned by " + pointer.buffer().owner());
        sources = List.copyOf(sources);
        if (sources.isEmpty()) throw new IllegalArgumentException("argument " + tensor + " names no source tensor");
        if (access == Access.WRITE && sources.size() != 1) throw new IllegalArgumentException("a write argument names exactly one tensor: " + sources);
    }

    /** An argument whose data is {@code tensor}'s own. */
    public KernelArg(DevicePointer pointer, long bytes, Access access, String tensor) {
        this(pointer, bytes, access, tensor, List.of(tensor));
    }

    /**
     * A read of {@code bytes} bytes from {@code p} of {@code tensor}'s own data.
     *
     * @throws IllegalArgumentException when the bytes overrun {@code p}'s buffer or are negative
     */
    public static KernelArg read(DevicePointer p, long bytes, String tensor) {
        return new KernelArg(p, bytes, Access.READ, tensor);
    }

    /**
     * A read of {@code bytes} bytes from {@code p} that must hold the writes of {@code sources}.
     *
     * @throws IllegalArgumentException when the bytes overrun {@code p}'s buffer or are negative, or {@code sources} is empty
     */
    public static KernelArg read(DevicePointer p, long bytes, String tensor, List<String> sources) {
        return new KernelArg(p, bytes, Access.READ, tensor, sources);
    }

    /**
     * A write of {@code bytes} bytes from {@code p} with {@code tensor}'s data.
     *
     * @throws IllegalArgumentException when the bytes overrun {@code p}'s buffer or are negative
     */
    public static KernelArg write(DevicePointer p, long bytes, String tensor) {
        return new KernelArg(p, bytes, Access.WRITE, tensor);
    }

    /**
     * A write of {@code bytes} bytes from {@code p}, named {@code tensor} in messages, with {@code source}'s data.
     *
     * @throws IllegalArgumentException when the bytes overrun {@code p}'s buffer or are negative
     */
    public static KernelArg write(DevicePointer p, long bytes, String tensor, String source) {
        return new KernelArg(p, bytes, Access.WRITE, tensor, List.of(source));
    }
}
