package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceGraph;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.plan.Plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The planned run replayed from a captured graph (CUDA Programming Guide, "CUDA Graphs"). Every
 * address is fixed by the plan, so one inference is captured once at load and each iteration
 * launches the graph instead of issuing its kernels one by one.
 *
 * <p>Steps at load: the arena and lowering of {@link PlannedExecutor}; begin capture on the first
 * stream (the origin); fork: record an event on the origin that every other stream waits on
 * (they join the capture); issue every op exactly as the planned run does, with the plan's events;
 * join: every other stream records an event the origin waits on; end capture and instantiate.
 * Per iteration: inputs in on the origin, one graph launch on it, outputs out after it completes.
 * Allocator calls per iteration: 0, as planned; host calls per iteration: one launch.
 *
 * <p>The per-tensor baseline cannot be captured: {@code cuMemAlloc}/{@code cuMemFree} are not
 * stream-ordered and synchronise the device, which capture forbids. The pool baseline could be,
 * as graph memory nodes ({@code cuMemAllocAsync} in capture, CUDA 11.4+), which this project does
 * not implement.
 */
public final class GraphExecutor extends PlannedExecutor {
    private final List<DeviceEvent> forkJoin = new ArrayList<>();
    private final DeviceGraph captured;

    public GraphExecutor(Device device, Plan plan, WeightRegion weights) {
        super(device, plan, weights, "graph");
        DeviceGraph g = null;
        try {
            g = capture();
        } catch (RuntimeException e) {
            closeForkJoin();
            super.close();
            throw e;
        }
        this.captured = g;
    }

    private DeviceGraph capture() {
        DeviceStream origin = copyStream();
        List<DeviceStream> others = new ArrayList<>(streams());
        others.remove(origin);
        for (int i = 0; i < 1 + others.size(); i++) forkJoin.add(device.createEvent());
        device.beginCapture(origin);
        boolean ended = false;
        try {
            device.recordEvent(forkJoin.get(0), origin);
            for (DeviceStream s : others) device.waitEvent(s, forkJoin.get(0));
            super.issueOps();
            for (int i = 0; i < others.size(); i++) {
                device.recordEvent(forkJoin.get(i + 1), others.get(i));
                device.waitEvent(origin, forkJoin.get(i + 1));
            }
            ended = true;
            return device.endCapture(origin);
        } finally {
            if (!ended) endQuietly(origin);
        }
    }

    /** Ends a failed capture so that the origin stream is usable again; the first failure is the one reported. */
    private void endQuietly(DeviceStream origin) {
        try {
            device.endCapture(origin).close();
        } catch (RuntimeException ignored) {
            // the capture was already ended or invalidated; the original exception propagates
        }
    }

    /**
     * Capture cannot copy to the host: the captured calls are the planned run's, whose data
     * {@link LaunchChecks} checks there ({@link Executors#run} runs one planned iteration first
     * where graph replay is the only mode).
     */
    @Override
    protected boolean checksData() {
        return false;
    }

    @Override
    protected void issueOps() {
        device.launchGraph(captured, copyStream());
    }

    private void closeForkJoin() {
        for (DeviceEvent e : forkJoin) e.close();
    }

    @Override
    public void close() {
        try {
            if (captured != null) captured.close();
            closeForkJoin();
        } finally {
            super.close();
        }
    }
}
