package org.arenaplan.exec;

import org.arenaplan.ir.TensorValue;

import java.util.Map;

/** Runs a plan's graph on a device, one iteration per call. Closing releases its device memory and streams. */
public interface Executor extends AutoCloseable {
    /** "planned", "per-tensor", "pool" or "graph" ({@link Mode#cliName()}). */
    String mode();

    /** Copies the inputs in (each of its tensor's type and size), runs every op, copies the graph outputs out. */
    RunResult run(Map<String, TensorValue> inputs);

    @Override
    void close();
}
