package org.arenaplan.sim;

import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceGraph;
import org.arenaplan.device.DeviceStream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An instantiated capture of the simulator: the captured calls, replayed per launch with the same
 * stream and event structure on streams and events of the graph's own (as a CUDA graph's nodes run
 * on the driver's streams with the captured dependencies as edges). A launch on stream L: L records
 * a start event every graph stream waits on; the captured steps are issued in their captured order
 * (kernels and copies on their stream, each captured event replaced by the graph's own); every
 * graph stream records an end event L waits on. The replayed work goes through the simulator's
 * checks like any other, so a replay that reads bytes before their write is caught.
 */
final class SimGraph implements DeviceGraph {
    private final SimDevice device;
    private final List<SimCapture.Step> steps;
    private final List<DeviceStream> streams = new ArrayList<>();
    private final Map<SimEvent, DeviceEvent> events = new HashMap<>();
    private final DeviceEvent start;
    private final List<DeviceEvent> ends = new ArrayList<>();
    private final int workNodes;
    private boolean closed;

    SimGraph(SimDevice device, SimCapture capture, int id) {
        this.device = device;
        this.steps = List.copyOf(capture.steps);
        for (int s = 0; s < capture.streams.size(); s++) {
            streams.add(device.createStream("graph#" + id + "/s" + s));
            ends.add(device.createEvent());
        }
        this.start = device.createEvent();
        int work = 0;
        for (SimCapture.Step step : steps) {
            if (step instanceof SimCapture.Launch || step instanceof SimCapture.Copy) work++;
            if (step instanceof SimCapture.Record r) events.computeIfAbsent(r.event(), e -> device.createEvent());
        }
        this.workNodes = work;
    }

    SimDevice device() {
        return device;
    }

    /** Issues one replay after the work already on {@code launch}; {@code launch}'s later work waits for all of it. */
    void replay(DeviceStream launch) {
        if (closed) throw new org.arenaplan.device.DeviceException("graph launched after it was closed");
        device.recordEvent(start, launch);
        for (DeviceStream s : streams) device.waitEvent(s, start);
        for (SimCapture.Step step : steps) {
            DeviceStream s = streams.get(step.stream());
            if (step instanceof SimCapture.Launch l) device.launch(s, l.call());
            else if (step instanceof SimCapture.Copy c) device.copyOnDevice(s, c.src(), c.dst(), c.bytes(), c.tensor());
            else if (step instanceof SimCapture.Record r) device.recordEvent(events.get(r.event()), s);
            else if (step instanceof SimCapture.Wait w) device.waitEvent(s, events.get(w.event()));
        }
        for (int i = 0; i < streams.size(); i++) {
            device.recordEvent(ends.get(i), streams.get(i));
            device.waitEvent(launch, ends.get(i));
        }
    }

    @Override
    public int workNodes() {
        return workNodes;
    }

    @Override
    public int streams() {
        return streams.size();
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (DeviceStream s : streams) s.close();
    }
}
