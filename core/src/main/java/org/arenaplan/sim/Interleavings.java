package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Exhaustive check of a traced run ({@link SimDevice#tracing()}): tries every order in which the
 * streams' work may complete that stream order and the events allow, and checks versions in each
 * (the same check as the live simulator). So "safe" is proven for that run, not sampled.
 *
 * <p>Steps, per phase of the trace (host synchronizations split phases):
 * <ol>
 *   <li>Run event records and enabled waits at once: they touch no memory, so their order
 *       relative to other streams changes no version a read sees.</li>
 *   <li>Branch on which stream's next work item completes next (work items are atomic; an
 *       overlap of two items is caught by one of the two orders it allows).</li>
 *   <li>At the end of a phase keep the distinct version states and start the next phase from each.</li>
 * </ol>
 * Does not: reduce commuting work items (cost is the number of interleavings, so keep runs small),
 * or model kernels that race within one item.
 */
public final class Interleavings {

    /**
     * @param interleavings complete orders checked, summed over phases and their start states
     * @param hazard        the first hazard found (exploration stops there), or null
     * @param complete      false when the limit stopped the search early
     */
    public record Result(long interleavings, PrematureReuseException hazard, boolean complete) { }

    private final long limit;
    private long count;
    private PrematureReuseException hazard;

    private Interleavings(long limit) {
        this.limit = limit;
    }

    /** Explores up to {@code limit} complete interleavings of the trace. */
    public static Result explore(SimTrace trace, long limit) {
        Interleavings x = new Interleavings(limit);
        Set<Map<SimBlock, VersionMap>> starts = new LinkedHashSet<>();
        starts.add(new HashMap<>());
        long total = 0;
        for (List<List<SimTask>> phase : trace.phases()) {
            Set<Map<SimBlock, VersionMap>> ends = new LinkedHashSet<>();
            for (Map<SimBlock, VersionMap> s : starts) {
                x.count = 0;
                x.dfs(phase, new int[phase.size()], new HashMap<>(), s, ends);
                total += x.count;
                if (x.hazard != null || x.count >= limit) return new Result(total, x.hazard, x.hazard != null);
            }
            starts = ends;
        }
        return new Result(total, null, true);
    }

    private void dfs(List<List<SimTask>> streams, int[] pos, Map<SimEvent, Long> done, Map<SimBlock, VersionMap> versions,
                     Set<Map<SimBlock, VersionMap>> ends) {
        runEventTasks(streams, pos, done);
        boolean finished = true;
        boolean moved = false;
        for (int s = 0; s < streams.size(); s++) {
            if (pos[s] >= streams.get(s).size()) continue;
            finished = false;
            if (!(streams.get(s).get(pos[s]) instanceof SimTask.Work w)) continue;
            moved = true;
            PrematureReuseException e = VersionCheck.check(w, b -> versions.getOrDefault(b, EMPTY), false);
            if (e != null) {
                hazard = e;
                return;
            }
            Map<SimBlock, VersionMap> next = new HashMap<>(versions);
            for (SimTask.Write wr : w.writes()) next.put(wr.block(), next.getOrDefault(wr.block(), EMPTY).copy());
            VersionCheck.applyWrites(w, next::get);
            int[] p2 = pos.clone();
            p2[s]++;
            dfs(streams, p2, new HashMap<>(done), next, ends);
            if (hazard != null || count >= limit) return;
        }
        if (finished) {
            count++;
            ends.add(versions);
        } else if (!moved) {
            throw new DeviceException("deadlock in traced run: every unfinished stream waits on an event that is never recorded");
        }
    }

    private static final VersionMap EMPTY = new VersionMap();

    /** Runs records, and waits whose record has run, until none is at a stream's head. */
    private static void runEventTasks(List<List<SimTask>> streams, int[] pos, Map<SimEvent, Long> done) {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int s = 0; s < streams.size(); s++) {
                while (pos[s] < streams.get(s).size()) {
                    SimTask t = streams.get(s).get(pos[s]);
                    if (t instanceof SimTask.Record r) {
                        done.merge(r.event(), r.serial(), Math::max);
                    } else if (t instanceof SimTask.Wait w) {
                        if (done.getOrDefault(w.event(), 0L) < w.serial()) break;
                    } else {
                        break;
                    }
                    pos[s]++;
                    progress = true;
                }
            }
        }
    }

}
