package org.arenaplan.sim;

import org.arenaplan.device.DeviceCounters;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Memory of the simulator, with the reuse rules of CUDA's allocators, a model of what the device
 * holds for them, and the counters.
 * <ul>
 *   <li>Synchronous: a freed block (the device was idle at the free) may back any later
 *       allocation of the same size, as the driver reuses addresses.</li>
 *   <li>Stream-ordered pool: a block freed on stream S is cached; an allocation on S may take it
 *       at once (stream order puts the free before); an allocation on another stream only once
 *       the free has completed on S (opportunistic reuse). Blocks are rounded to 512 B.</li>
 * </ul>
 * <p>Held bytes ({@code reservedBytes} of the counters) model the CUDA driver, whose physical
 * allocation granularity is 2 MiB pages on current GPUs ({@code cuMemGetAllocationGranularity}):
 * <ul>
 *   <li>a synchronous allocation under 1 MiB is rounded to 512 B and placed in a shared 2 MiB page
 *       (bump order, no reuse of holes); a page is held until its last allocation is freed;</li>
 *   <li>a larger one holds its size rounded up to 2 MiB;</li>
 *   <li>the pool holds its blocks (handed out and cached) rounded up to whole 2 MiB pages; with the
 *       default release threshold of 0 it gives cached blocks whose free completed back at the next
 *       synchronization ({@link #trimPool()}; CUDA: {@code CU_MEMPOOL_ATTR_RELEASE_THRESHOLD}).</li>
 * </ul>
 * A model, not the driver: the real suballocation thresholds are not documented; on CUDA the held
 * bytes are measured instead. Does not: split or coalesce blocks, or follow event dependencies for
 * reuse. Not thread-safe; the device's lock guards it.
 */
final class SimAllocator {
    static final long POOL_GRANULE = 512;
    static final long PAGE = 2L << 20;
    static final long SMALL = 1L << 20;

    private record Cached(SimBlock block, SimQueue freedOn, long freeTicket) { }

    /** A 2 MiB page shared by small synchronous allocations. */
    private static final class Page {
        long used;
        int live;
    }

    private final Map<Long, ArrayDeque<SimBlock>> freedSync = new HashMap<>();
    private final List<Cached> pool = new ArrayList<>();
    private final Map<SimBlock, Page> pageOf = new IdentityHashMap<>();
    private Page open;
    private int nextBlock;
    private long allocations, frees, asyncAllocations, asyncFrees;
    private long live, peakLive;
    private long syncHeld, poolBytes, peakHeld;

    SimBlock allocate(long bytes) {
        allocations++;
        ArrayDeque<SimBlock> same = freedSync.get(bytes);
        SimBlock b = same == null || same.isEmpty() ? new SimBlock(nextBlock++, bytes) : same.pop();
        if (bytes < SMALL) {
            long rounded = roundUp(bytes, POOL_GRANULE);
            if (open == null || open.used + rounded > PAGE) {
                open = new Page();
                syncHeld += PAGE;
            }
            open.used += rounded;
            open.live++;
            pageOf.put(b, open);
        } else {
            syncHeld += roundUp(bytes, PAGE);
        }
        live += bytes;
        peaks();
        return b;
    }

    void free(SimBlock b, long bytes) {
        frees++;
        freedSync.computeIfAbsent(b.bytes, k -> new ArrayDeque<>()).push(b);
        live -= bytes;
        Page p = pageOf.remove(b);
        if (p == null) {
            syncHeld -= roundUp(b.bytes, PAGE);
        } else if (--p.live == 0) {
            syncHeld -= PAGE;
            if (p == open) open = null;
        }
    }

    SimBlock allocateAsync(long bytes, SimQueue stream) {
        asyncAllocations++;
        long rounded = roundUp(bytes, POOL_GRANULE);
        SimBlock found = takeCached(rounded, stream, true);
        if (found == null) found = takeCached(rounded, stream, false);
        if (found == null) {
            found = new SimBlock(nextBlock++, rounded);
            poolBytes += rounded;
        }
        live += bytes;
        peaks();
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

    /** At a synchronization: the pool releases the cached blocks whose free has completed (release threshold 0). */
    void trimPool() {
        for (Iterator<Cached> it = pool.iterator(); it.hasNext(); ) {
            Cached c = it.next();
            if (c.freedOn.completed() >= c.freeTicket) {
                it.remove();
                poolBytes -= c.block.bytes;
            }
        }
    }

    /** The device memory the model says is held: small-allocation pages, rounded large allocations, the pool's pages. */
    long held() {
        return syncHeld + roundUp(poolBytes, PAGE);
    }

    private void peaks() {
        peakLive = Math.max(peakLive, live);
        peakHeld = Math.max(peakHeld, held());
    }

    private static long roundUp(long bytes, long granule) {
        return (bytes + granule - 1) / granule * granule;
    }

    void resetPeaks() {
        peakLive = live;
        peakHeld = held();
    }

    DeviceCounters counters(long launches) {
        return new DeviceCounters(allocations, frees, asyncAllocations, asyncFrees, launches, live, peakLive, held(), peakHeld);
    }
}
