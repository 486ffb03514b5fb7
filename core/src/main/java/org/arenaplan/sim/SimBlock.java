package org.arenaplan.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.arenaplan.device.DeviceOutOfMemoryException;

/**
 * One piece of simulated device memory: its bytes (in pages of {@value #PAGE} B, so one block may
 * exceed a Java array) and version maps. {@code issuedBy} holds, per tensor, the last write of
 * that tensor's data issued to each byte (updated by the host at issue time); {@code actual}
 * holds what each byte holds as the streams really run. A read must find in {@code actual} the
 * latest issued write of the tensors its data comes from.
 */
final class SimBlock {
    static final int PAGE = 1 << 30;

    final int id;
    final long bytes;
    private final byte[][] pages;
    final java.util.Map<String, VersionMap> issuedBy = new java.util.HashMap<>();
    final VersionMap actual = new VersionMap();

    SimBlock(int id, long bytes) {
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (bytes > free)   // the bytes live on the Java heap: refuse rather than die of an OutOfMemoryError
            throw new DeviceOutOfMemoryException("simulated allocation of " + bytes + " B exceeds the " + free + " B left on the Java heap that holds the simulator's memory (raise -Xmx)");
        this.id = id;
        this.bytes = bytes;
        int n = (int) Math.max(1, (bytes + PAGE - 1) / PAGE);
        pages = new byte[n][];
        for (int p = 0; p < n; p++) pages[p] = new byte[(int) Math.min(PAGE, bytes - (long) p * PAGE)];
    }

    /** A little-endian copy of {@code length} bytes from {@code offset}. */
    ByteBuffer read(long offset, int length) {
        byte[] out = new byte[length];
        copy(offset, out, 0, length, false);
        return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Stores {@code length} bytes of {@code src} from {@code srcOffset} at {@code offset}. */
    void write(long offset, byte[] src, int srcOffset, int length) {
        copy(offset, src, srcOffset, length, true);
    }

    /** Copies {@code length} bytes from {@code from} in this block to {@code to} in {@code dst} (ranges may overlap only when equal). */
    void copyTo(long from, SimBlock dst, long to, long length) {
        for (long done = 0; done < length; ) {
            long s = from + done, d = to + done;
            int n = (int) Math.min(length - done, Math.min(PAGE - s % PAGE, PAGE - d % PAGE));
            System.arraycopy(pages[(int) (s / PAGE)], (int) (s % PAGE), dst.pages[(int) (d / PAGE)], (int) (d % PAGE), n);
            done += n;
        }
    }

    private void copy(long offset, byte[] host, int hostOffset, int length, boolean toDevice) {
        for (int done = 0; done < length; ) {
            long at = offset + done;
            int n = (int) Math.min(length - done, PAGE - at % PAGE);
            byte[] page = pages[(int) (at / PAGE)];
            if (toDevice) System.arraycopy(host, hostOffset + done, page, (int) (at % PAGE), n);
            else System.arraycopy(page, (int) (at % PAGE), host, hostOffset + done, n);
            done += n;
        }
    }
}
