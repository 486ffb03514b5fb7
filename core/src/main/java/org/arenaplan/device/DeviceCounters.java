package org.arenaplan.device;

/**
 * Counter snapshot. {@code liveBytes} is what callers asked for and hold (requested bytes);
 * {@code reservedBytes} is the device memory held for them where the device accounts for it: the
 * simulator's model of the driver's rounding and the pool's cache ({@code SimAllocator}); the CUDA
 * device reports its live bytes there and measures held memory with {@link Device#heldBytes()}.
 */
public record DeviceCounters(long allocations, long frees, long asyncAllocations, long asyncFrees,
                             long launches, long liveBytes, long peakLiveBytes,
                             long reservedBytes, long peakReservedBytes) {

    /** Calls into the allocator: synchronous and stream-ordered allocations and frees. */
    public long allocatorCalls() {
        return allocations + frees + asyncAllocations + asyncFrees;
    }

    /** Counts accrued since {@code earlier} (peaks and live bytes are kept as they are now). */
    public DeviceCounters since(DeviceCounters earlier) {
        return new DeviceCounters(allocations - earlier.allocations, frees - earlier.frees,
                asyncAllocations - earlier.asyncAllocations, asyncFrees - earlier.asyncFrees,
                launches - earlier.launches, liveBytes, peakLiveBytes, reservedBytes, peakReservedBytes);
    }
}
