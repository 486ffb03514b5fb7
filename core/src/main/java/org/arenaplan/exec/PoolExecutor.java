package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.liveness.Storage;
import org.arenaplan.plan.Plan;

import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Baseline: stream-ordered allocation ({@code cuMemAllocAsync}) of each storage on the stream of
 * its first write, and stream-ordered free ({@code cuMemFreeAsync}) on the stream of its last
 * access. Cross-stream order is made explicit with events, as CUDA requires of pool users:
 * <ul>
 *   <li>after allocating, every other stream that touches the storage waits on the allocating stream;</li>
 *   <li>before freeing, the freeing stream waits on every other stream that touched it.</li>
 * </ul>
 * Does not: minimise those events (one per stream pair and storage, recorded at issue time).
 */
public final class PoolExecutor extends PerStorageExecutor {
    private final Map<DeviceStream, DeviceEvent> marks = new IdentityHashMap<>();

    public PoolExecutor(Device device, Plan plan, WeightRegion weights) {
        super(device, plan, weights, "pool");
        try {
            for (DeviceStream s : streams()) marks.put(s, device.createEvent());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    protected DeviceBuffer acquire(Storage s, int position) {
        DeviceStream home = position < 0 ? copyStream() : streamOf(position);
        DeviceBuffer b = device.allocateAsync(sizeOf(s), home, "storage '" + s.name() + "' (" + label + ")");
        Set<DeviceStream> others = touching(s);
        others.remove(home);
        if (!others.isEmpty()) {
            DeviceEvent e = marks.get(home);
            device.recordEvent(e, home);
            for (DeviceStream o : others) device.waitEvent(o, e);
        }
        return b;
    }

    @Override
    protected void release(Storage s, DeviceBuffer b, int position) {
        int last = lastAccess(s);
        DeviceStream home = last < 0 ? copyStream() : streamOf(last);
        for (DeviceStream o : touching(s)) {
            if (o == home) continue;
            DeviceEvent e = marks.get(o);
            device.recordEvent(e, o);
            device.waitEvent(home, e);
        }
        device.freeAsync(b, home);
    }

    /** Streams of every op that writes or reads the storage, and the copy stream for inputs and outputs. */
    private Set<DeviceStream> touching(Storage s) {
        Set<DeviceStream> out = new LinkedHashSet<>();
        if (s.graphInput() || s.graphOutput()) out.add(copyStream());
        for (int w : s.writers()) out.add(streamOf(w));
        for (int r : s.readers()) out.add(streamOf(r));
        return out;
    }

    private static int lastAccess(Storage s) {
        int last = -1;
        for (int w : s.writers()) last = Math.max(last, w);
        for (int r : s.readers()) last = Math.max(last, r);
        return last;
    }

    @Override
    public void close() {
        try {
            for (DeviceEvent e : marks.values()) e.close();
        } finally {
            super.close();
        }
    }
}
