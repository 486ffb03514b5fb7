package org.arenaplan.device;

/**
 * One device allocation. Every buffer has an owner (named in leak reports); {@link #close()}
 * frees it synchronously (as {@link Device#free}). A freed buffer may not be used again.
 */
public interface DeviceBuffer extends AutoCloseable {
    long bytes();

    String owner();

    /** False once freed (synchronously or stream-ordered). */
    boolean isLive();

    /** A pointer {@code offset} bytes into this buffer. */
    default DevicePointer at(long offset) {
        return new DevicePointer(this, offset);
    }

    /** A pointer to the first byte. */
    default DevicePointer base() {
        return at(0);
    }

    @Override
    void close();
}
