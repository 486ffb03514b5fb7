package org.arenaplan.sim;

/**
 * The version a write gives the bytes it covers: a number unique per device, and who wrote it.
 *
 * @param label  the launch's label (the op) or "copy to device"
 * @param tensor the tensor written
 */
public record WriteStamp(long version, String tensor, String label, String stream) {
    public String describe() {
        return "'" + label + "' (writing " + tensor + ", stream " + stream + ")";
    }
}
