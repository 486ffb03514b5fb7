package org.arenaplan.cuda;

import static org.arenaplan.cuda.Driver.check;

import java.nio.ByteBuffer;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * One page-locked host buffer ({@code cuMemAllocHost}) that host-device copies go through, so
 * that {@code cuMemcpy*Async} really is asynchronous. Grows to the largest copy (at least 1 MiB);
 * callers hold its lock from filling it until the copy completed.
 */
final class PinnedStaging implements AutoCloseable {
    private Pointer pinned;
    private long bytes;

    /** The pinned memory, at least {@code need} bytes. */
    Pointer reserve(long need) {
        if (bytes < need) {
            release();
            Pointer p = new Pointer();
            long size = Math.max(need, 1 << 20);
            check(JCudaDriver.cuMemAllocHost(p, size), "cuMemAllocHost", size + " B of pinned staging memory");
            pinned = p;
            bytes = size;
        }
        return pinned;
    }

    /** A view of the first {@code need} bytes of the pinned memory. */
    ByteBuffer bytes(long need) {
        return reserve(need).getByteBuffer(0, need);
    }

    private void release() {
        if (pinned != null) check(JCudaDriver.cuMemFreeHost(pinned), "cuMemFreeHost", "the staging buffer");
        pinned = null;
        bytes = 0;
    }

    @Override
    public void close() {
        release();
    }
}
