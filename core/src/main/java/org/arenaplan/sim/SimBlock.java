package org.arenaplan.sim;

import org.arenaplan.device.DeviceOutOfMemoryException;

/**
 * One piece of simulated device memory: f32 words and version maps. {@code issuedBy} holds, per
 * tensor, the last write of that tensor's data issued to each byte (updated by the host at issue
 * time); {@code actual} holds what each byte holds as the streams really run. A read must find in
 * {@code actual} the latest issued write of the tensors its data comes from.
 */
final class SimBlock {
    final int id;
    final long bytes;
    final float[] words;
    final java.util.Map<String, VersionMap> issuedBy = new java.util.HashMap<>();
    final VersionMap actual = new VersionMap();

    SimBlock(int id, long bytes) {
        if (bytes / 4 >= Integer.MAX_VALUE - 8)
            throw new DeviceOutOfMemoryException("simulated allocation of " + bytes + " B exceeds the simulator's 8 GiB per-allocation limit");
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (bytes > free)   // the words live on the Java heap: refuse rather than die of an OutOfMemoryError
            throw new DeviceOutOfMemoryException("simulated allocation of " + bytes + " B exceeds the " + free + " B left on the Java heap that holds the simulator's memory (raise -Xmx)");
        this.id = id;
        this.bytes = bytes;
        this.words = new float[(int) ((bytes + 3) / 4)];
    }
}
