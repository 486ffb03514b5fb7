package org.arenaplan.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The work a traced run issued, per stream, cut into phases at host synchronizations (a phase
 * completes entirely before the next starts).
 */
public final class SimTrace {
    private final List<Map<TraceStream, List<SimTask>>> phases = new ArrayList<>();

    SimTrace() {
        phases.add(new LinkedHashMap<>());
    }

    synchronized void add(TraceStream s, SimTask t) {
        phases.get(phases.size() - 1).computeIfAbsent(s, k -> new ArrayList<>()).add(t);
    }

    synchronized void barrier() {
        if (!phases.get(phases.size() - 1).isEmpty()) phases.add(new LinkedHashMap<>());
    }

    /** Per phase, each stream's tasks in issue order. */
    synchronized List<List<List<SimTask>>> phases() {
        List<List<List<SimTask>>> out = new ArrayList<>();
        for (Map<TraceStream, List<SimTask>> p : phases) {
            if (p.isEmpty()) continue;
            List<List<SimTask>> streams = new ArrayList<>();
            for (List<SimTask> l : p.values()) streams.add(List.copyOf(l));
            out.add(streams);
        }
        return out;
    }

    /** Work items (kernels and copies) recorded. */
    public synchronized int workCount() {
        int n = 0;
        for (Map<TraceStream, List<SimTask>> p : phases)
            for (List<SimTask> l : p.values()) for (SimTask t : l) if (t instanceof SimTask.Work) n++;
        return n;
    }
}
