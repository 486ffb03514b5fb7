package org.arenaplan.device;

/**
 * A kernel met a value its op does not define: the run's data is at fault (a graph input given
 * with {@code run --input}, or a constant of the model), not the device, so the command line
 * reports it as bad input (exit 2) naming the op. ONNX makes these errors: an index outside the
 * axis it indexes ({@link IndexOutOfRangeException}: Gather, GatherElements, NegativeLogLikelihoodLoss's
 * target, RoiAlign's batch_indices, MaxUnpool's I), an integer Div or Mod by zero (ONNX Runtime
 * fails such a run: "Integer division by zero").
 */
public class DataException extends DeviceException {
    /** @param message names the op, the value and its element position */
    public DataException(String message) {
        super(message);
    }
}
