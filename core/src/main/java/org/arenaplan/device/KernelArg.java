package org.arenaplan.device;

/**
 * One pointer argument of a kernel call with what the kernel does to it. A real GPU uses only
 * {@link #pointer()}; the simulator uses the byte extent, the access and the tensor name to
 * check every read against the writes it must see.
 *
 * @param bytes  bytes the kernel may touch from the pointer on
 * @param tensor the tensor the bytes hold (for messages), never null
 */
public record KernelArg(DevicePointer pointer, long bytes, Access access, String tensor) {
    public enum Access { READ, WRITE }

    public KernelArg {
        if (bytes < 0 || pointer.offset() + bytes > pointer.buffer().bytes())
            throw new IllegalArgumentException("argument '" + tensor + "': " + bytes + " B at offset " + pointer.offset()
                    + " overrun buffer of " + pointer.buffer().bytes() + " B owned by " + pointer.buffer().owner());
    }

    public static KernelArg read(DevicePointer p, long bytes, String tensor) {
        return new KernelArg(p, bytes, Access.READ, tensor);
    }

    public static KernelArg write(DevicePointer p, long bytes, String tensor) {
        return new KernelArg(p, bytes, Access.WRITE, tensor);
    }
}
