package org.arenaplan.exec;

import org.arenaplan.device.DeviceCounters;
import org.arenaplan.ir.TensorValue;

import java.util.Map;

/**
 * One iteration of an executor.
 *
 * @param counters device counters accrued during the iteration (peaks over the iteration)
 */
public record RunResult(String mode, Map<String, TensorValue> outputs, DeviceCounters counters, long nanos) { }
