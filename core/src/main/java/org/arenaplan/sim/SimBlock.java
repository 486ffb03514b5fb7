package org.arenaplan.sim;

/**
 * One piece of simulated device memory: f32 words, and two version maps. {@code issued} is what
 * each byte holds if the work ran in issue order (updated by the host at issue time); {@code
 * actual} is what it holds as the streams really run. A read whose two views differ is a hazard.
 */
final class SimBlock {
    final int id;
    final long bytes;
    final float[] words;
    final VersionMap issued = new VersionMap();
    final VersionMap actual = new VersionMap();

    SimBlock(int id, long bytes) {
        if (bytes / 4 >= Integer.MAX_VALUE - 8) throw new org.arenaplan.device.DeviceException("simulated allocation of " + bytes + " B exceeds the simulator's 8 GiB per-allocation limit");
        this.id = id;
        this.bytes = bytes;
        this.words = new float[(int) ((bytes + 3) / 4)];
    }
}
