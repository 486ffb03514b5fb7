package org.arenaplan.sim;

import org.arenaplan.device.DeviceCounters;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Memory of the simulator, with the reuse rules of CUDA's allocators and the counters.
 * <ul>
 *   <li>Synchronous: a freed block (the device was idle at the free) may back any later
 *       allocation of the same size, as the driver reuses addresses.</li>
 *   <li>Stream-ordered pool: a block freed on stream S is cached; an allocation on S may take it
 *       at once (stream order puts the free before); an allocation on another stream only once
 *       the free has completed on S (opportunistic reuse). Blocks are rounded to 512 B.</li>
 * </ul>
 * Does not: split or coalesce blocks, trim the pool, or follow event dependencies for reuse.
 * Not thread-safe; the device's lock guards it.
 */
final class SimAllocator {
    static final long POOL_GRANULE = 512;

    private record Cached(SimBlock block, SimQueue freedOn, long freeTicket) { }

    private final Map<Long, ArrayDeque<SimBlock>> freedSync = new HashMap<>();
    private final List<Cached> pool = new ArrayList<>();
    private int nextBlock;
    private long allocations, frees, asyncAllocations, asyncFrees;
    private long live, peakLive, reserved, peakReserved;

    SimBlock allocate(long bytes) {
        allocations++;
        ArrayDeque<SimBlock> same = freedSync.get(bytes);
        SimBlock b = same == null || same.isEmpty() ? new SimBlock(nextBlock++, bytes) : same.pop();
        take(bytes, b.bytes);
        return b;
    }

    void free(SimBlock b, long bytes) {
        frees++;
        freedSync.computeIfAbsent(b.bytes, k -> new ArrayDeque<>()).push(b);
        live -= bytes;
        reserved -= b.bytes;
    }

    SimBlock allocateAsync(long bytes, SimQueue stream) {
        asyncAllocations++;
        long rounded = (bytes + POOL_GRANULE - 1) / POOL_GRANULE * POOL_GRANULE;
        SimBlock found = takeCached(rounded, stream, true);
        if (found == null) found = takeCached(rounded, stream, false);
        if (found == null) {
            found = new SimBlock(nextBlock++, rounded);
            reserved += rounded;
            peakReserved = Math.max(peakReserved, reserved);
        }
        live += bytes;
        peakLive = Math.max(peakLive, live);
        return found;
    }

    /** A cached block of that size freed on {@code stream} (sameStream) or whose free has completed. */
    private SimBlock takeCached(long rounded, SimQueue stream, boolean sameStream) {
        for (Iterator<Cached> it = pool.iterator(); it.hasNext(); ) {
            Cached c = it.next();
            if (c.block.bytes != rounded) continue;
            boolean ordered = sameStream ? c.freedOn == stream : c.freedOn.completed() >= c.freeTicket;
            if (ordered) {
                it.remove();
                return c.block;
            }
        }
        return null;
    }

    void freeAsync(SimBlock b, long bytes, SimQueue stream, long ticket) {
        asyncFrees++;
        live -= bytes;
        pool.add(new Cached(b, stream, ticket));
    }

    private void take(long bytes, long blockBytes) {
        live += bytes;
        reserved += blockBytes;
        peakLive = Math.max(peakLive, live);
        peakReserved = Math.max(peakReserved, reserved);
    }

    void resetPeaks() {
        peakLive = live;
        peakReserved = reserved;
    }

    DeviceCounters counters(long launches) {
        return new DeviceCounters(allocations, frees, asyncAllocations, asyncFrees, launches, live, peakLive, reserved, peakReserved);
    }
}
