package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.KernelCall;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One running stream capture of the simulator, with CUDA's rules (CUDA Programming Guide, "CUDA
 * Graphs", "Creating a Graph Using Stream Capture"): the origin captures; a stream joins when it
 * waits on an event recorded in the capture; at the end every joined stream must have been joined
 * back (its last captured step followed by a record the origin waits on). Records the SPI calls
 * in issue order with their stream's index; {@link SimGraph} replays them. Guarded by the
 * device's lock.
 */
final class SimCapture {
    /** A captured SPI call on stream number {@code stream} (0 = the origin). */
    sealed interface Step {
        int stream();
    }

    record Launch(int stream, KernelCall call) implements Step { }

    record Copy(int stream, DevicePointer src, DevicePointer dst, long bytes, String tensor) implements Step { }

    record Record(int stream, SimEvent event) implements Step { }

    record Wait(int stream, SimEvent event) implements Step { }

    final SimQueue origin;
    final Thread thread;
    final List<SimQueue> streams = new ArrayList<>();
    final List<Step> steps = new ArrayList<>();
    private final Map<SimEvent, Integer> lastRecord = new HashMap<>();   // event -> index of its last captured record

    SimCapture(SimQueue origin, Thread thread) {
        this.origin = origin;
        this.thread = thread;
        streams.add(origin);
    }

    boolean captures(SimQueue q) {
        return streams.contains(q);
    }

    boolean recorded(SimEvent e) {
        return lastRecord.containsKey(e);
    }

    void launch(SimQueue q, KernelCall call) {
        steps.add(new Launch(streams.indexOf(q), call));
    }

    void copy(SimQueue q, DevicePointer src, DevicePointer dst, long bytes, String tensor) {
        steps.add(new Copy(streams.indexOf(q), src, dst, bytes, tensor));
    }

    void record(SimQueue q, SimEvent e) {
        lastRecord.put(e, steps.size());
        steps.add(new Record(streams.indexOf(q), e));
    }

    /** {@code q} waits on an event recorded in the capture: it joins the capture if it was outside. */
    void await(SimQueue q, SimEvent e) {
        if (!streams.contains(q)) streams.add(q);
        steps.add(new Wait(streams.indexOf(q), e));
    }

    /** Throws unless every stream that joined is joined back into the origin after its last step. */
    void checkJoined() {
        for (int s = 1; s < streams.size(); s++) {
            int last = -1;
            for (int i = 0; i < steps.size(); i++) if (steps.get(i).stream() == s) last = i;
            boolean joined = false;
            for (int i = last + 1; i < steps.size() && !joined; i++) {
                if (steps.get(i) instanceof Wait w && w.stream() == 0) {
                    Integer r = lastRecord.get(w.event());
                    joined = r != null && r >= last && steps.get(r).stream() == s && r < i;
                }
            }
            if (!joined) {
                throw new DeviceException("stream capture of " + origin.name() + " ended with stream " + streams.get(s).name()
                        + " not joined back (its last captured work is not followed by an event the origin waits on;"
                        + " CUDA: CUDA_ERROR_STREAM_CAPTURE_UNJOINED)");
            }
        }
    }
}
