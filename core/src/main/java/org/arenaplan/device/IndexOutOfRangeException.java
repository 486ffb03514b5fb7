package org.arenaplan.device;

/**
 * A kernel read an index outside the axis it indexes (Gather, GatherElements, ScatterND, ...):
 * the run's data is at fault (a graph input or a constant of the model), not the device. ONNX
 * makes such an index an error ("out-of-bounds indices are an error", Gather and
 * GatherElements in the ONNX operator spec); the command line reports it as bad input.
 */
public final class IndexOutOfRangeException extends DataException {
    /** @param message names the op, the index, its element position and the axis extent */
    public IndexOutOfRangeException(String message) {
        super(message);
    }
}
