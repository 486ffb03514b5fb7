package org.arenaplan.cli;

/**
 * The {@code --align BYTES} flag of {@code plan} and {@code validate}, checked once: a power of
 * two from 1 to 2^62. CUDA's alignments are powers of two ({@code cuMemAlloc} returns 256-byte
 * aligned pointers, CUDA C++ Programming Guide, "Device Memory Accesses"), and an offset aligned
 * to one stays aligned inside an arena that starts at a multiple of it.
 */
final class Alignment {
    private Alignment() { }

    /**
     * @return {@code bytes}
     * @throws UsageException naming the flag when {@code bytes} is not a power of two
     */
    static long of(long bytes) {
        if (bytes < 1 || Long.bitCount(bytes) != 1)
            throw new UsageException("--align must be a power of two (1, 2, 4, ... 256 ...) of bytes, got " + bytes);
        return bytes;
    }
}
