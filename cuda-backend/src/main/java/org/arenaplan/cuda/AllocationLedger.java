package org.arenaplan.cuda;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.arenaplan.device.DeviceCounters;

/**
 * Who owns which device bytes, and the SPI's counters, in the manner of Arrow's allocator: every
 * live allocation is recorded with its owner, so what is still here when the device closes is a
 * leak that can be named. Launches are counted here too, so one snapshot has everything.
 *
 * <p>Invariant: {@code liveBytes} is the sum of the sizes of {@code live}.
 */
final class AllocationLedger {
    private final Set<CudaBuffer> live = new LinkedHashSet<>();
    private long allocations, frees, asyncAllocations, asyncFrees, launches, liveBytes, peakLiveBytes;

    synchronized void allocated(CudaBuffer b) {
        if (b.async()) asyncAllocations++; else allocations++;
        live.add(b);
        liveBytes += b.bytes();
        peakLiveBytes = Math.max(peakLiveBytes, liveBytes);
    }

    /** {@code async}: freed stream-ordered ({@code cuMemFreeAsync} on the caller's stream). */
    synchronized void freed(CudaBuffer b, boolean async) {
        if (async) asyncFrees++; else frees++;
        live.remove(b);
        liveBytes -= b.bytes();
    }

    synchronized void launched() {
        launches++;
    }

    synchronized void launched(int n) {
        launches += n;
    }

    /** The CUDA device cannot see a pool's cache, so reserved bytes are the live bytes. */
    synchronized DeviceCounters counters() {
        return new DeviceCounters(allocations, frees, asyncAllocations, asyncFrees, launches, liveBytes, peakLiveBytes, liveBytes, peakLiveBytes);
    }

    synchronized void resetPeaks() {
        peakLiveBytes = liveBytes;
    }

    synchronized List<CudaBuffer> live() {
        return List.copyOf(live);
    }
}
