package org.arenaplan.sim;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceCounters;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DeviceGraph;
import org.arenaplan.device.DeviceLeakException;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A multi-stream GPU in plain Java that catches premature reuse.
 *
 * <p>Steps of every launch or copy:
 * <ol>
 *   <li>At issue (host thread): take, for each byte it reads, the latest issued write of the
 *       tensors its data comes from (the argument's sources: the tensor, a view's base, the
 *       member slices of a concatenation); give each byte it writes a fresh version.</li>
 *   <li>On the stream's worker thread, after a seeded random delay: check that every byte read
 *       holds that same write in the {@code actual} map, stamp the writes, compute with the Java
 *       kernel ({@link SimKernels}), then check the reads again (a writer that started meanwhile
 *       is caught too) and that no other write stamped this one's bytes meanwhile (two writes
 *       racing on the same bytes leave a mix, whatever the last stamp says).</li>
 *   <li>A mismatch is recorded as a {@link PrematureReuseException} naming the tensor, the
 *       reader, the writer found and the one expected, with streams; the next host
 *       synchronization throws the first one.</li>
 * </ol>
 * In tracing mode ({@link #tracing}) nothing runs: the work is recorded for {@link Interleavings}
 * to try every order the events allow. Stream capture follows CUDA's rules ({@link SimCapture});
 * a captured graph replays the captured calls with their stream and event structure
 * ({@link SimGraph}), through the same checks. Does not model: device memory limits, kernel concurrency
 * within one stream, timing.
 */
public final class SimDevice implements Device {
    private final Object lock = new Object();   // guards allocator, version maps, live set
    private final DeviceOptions options;
    private final SimTrace trace;
    private final SimAllocator allocator = new SimAllocator();
    private final Set<SimBuffer> live = new LinkedHashSet<>();
    private final Set<SimQueue> streams = Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<PrematureReuseException> hazards = Collections.synchronizedList(new ArrayList<>());
    private final List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong launches = new AtomicLong();
    private long nextVersion;                  // guarded by lock
    private int nextStream;                    // guarded by lock
    private int nextEvent;                     // guarded by lock
    private int hazardsReported;               // guarded by hazards
    private SimCapture capture;                // guarded by lock; null when no capture runs
    private int nextGraph;                     // guarded by lock
    private boolean closed;

    private SimDevice(DeviceOptions options, boolean tracing) {
        this.options = options;
        this.trace = tracing ? new SimTrace() : null;
    }

    /** A live simulator: stream threads, seeded delays up to {@code options.maxDelayNanos()}. */
    public static SimDevice open(DeviceOptions options) {
        return new SimDevice(options, false);
    }

    /** A simulator that records work instead of running it (kernels are not computed). */
    public static SimDevice tracing() {
        return new SimDevice(DeviceOptions.DEFAULT, true);
    }

    @Override public String name() { return "sim"; }

    @Override
    public String description() {
        return "simulated device (" + (trace != null ? "tracing" : "seed " + options.seed() + ", delays up to " + options.maxDelayNanos() / 1000 + " us") + ")";
    }

    SimTrace trace() {
        if (trace == null) throw new IllegalStateException("not a tracing simulator");
        return trace;
    }

    /** The recorded work of a tracing simulator. */
    public SimTrace recorded() {
        return trace();
    }

    /** Every hazard detected so far. */
    public List<PrematureReuseException> hazards() {
        synchronized (hazards) {
            return List.copyOf(hazards);
        }
    }

    // ---- memory ----

    @Override
    public DeviceBuffer allocate(long bytes, String owner) {
        requirePositive(bytes, owner);
        synchronized (lock) {
            forbidInCapture("cuMemAlloc of " + owner);
            return track(new SimBuffer(this, allocator.allocate(bytes), bytes, owner));
        }
    }

    @Override
    public void free(DeviceBuffer buffer) {
        SimBuffer b = own(buffer);
        synchronized (lock) {
            forbidInCapture("cuMemFree of " + b.owner());
        }
        synchronize();   // cuMemFree waits for the whole device
        synchronized (lock) {
            if (!b.isLive()) throw new DeviceException("double free of " + b);
            b.kill();
            live.remove(b);
            allocator.free(b.block, b.bytes());
        }
    }

    @Override
    public DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner) {
        requirePositive(bytes, owner);
        SimQueue q = queue(stream);
        synchronized (lock) {
            forbidInCapture("cuMemAllocAsync of " + owner);
            return track(new SimBuffer(this, allocator.allocateAsync(bytes, q), bytes, owner));
        }
    }

    @Override
    public void freeAsync(DeviceBuffer buffer, DeviceStream stream) {
        SimBuffer b = own(buffer);
        SimQueue q = queue(stream);
        synchronized (lock) {
            forbidInCapture("cuMemFreeAsync of " + b.owner());
            if (!b.isLive()) throw new DeviceException("double free of " + b);
            b.kill();
            live.remove(b);
            allocator.freeAsync(b.block, b.bytes(), q, q.issued());
        }
    }

    private SimBuffer track(SimBuffer b) {
        if (closed) throw new DeviceException("device is closed");
        live.add(b);
        return b;
    }

    private static void requirePositive(long bytes, String owner) {
        if (bytes <= 0) throw new DeviceException("allocation of " + bytes + " B for " + owner + ": size must be positive");
    }

    // ---- streams and events ----

    @Override
    public DeviceStream createStream(String name) {
        SimQueue q;
        synchronized (lock) {
            int index = nextStream++;
            q = trace != null ? new TraceStream(this, name)
                    : new SimStream(this, name, options.seed() * 1_000_003L + index, options.maxDelayNanos());
        }
        streams.add(q);
        return q;
    }

    void forget(SimQueue q) {
        streams.remove(q);
    }

    @Override
    public DeviceEvent createEvent() {
        synchronized (lock) {
            return new SimEvent(nextEvent++);
        }
    }

    @Override
    public void recordEvent(DeviceEvent event, DeviceStream stream) {
        SimEvent e = event(event);
        SimQueue q = queue(stream);
        synchronized (lock) {
            if (capture != null && capture.captures(q)) {
                capture.record(q, e);
                return;
            }
        }
        q.submit(new SimTask.Record(e, e.nextRecord()));
    }

    @Override
    public void waitEvent(DeviceStream stream, DeviceEvent event) {
        SimEvent e = event(event);
        SimQueue q = queue(stream);
        synchronized (lock) {
            if (capture != null && capture.recorded(e)) {
                capture.await(q, e);
                return;
            }
            if (capture != null && capture.captures(q))
                throw new DeviceException("capturing stream " + q.name() + " waits on an event recorded outside the capture (CUDA: CUDA_ERROR_STREAM_CAPTURE_ISOLATION)");
        }
        q.submit(new SimTask.Wait(e, e.lastRecord()));
    }

    // ---- graphs ----

    @Override
    public void beginCapture(DeviceStream origin) {
        SimQueue q = queue(origin);
        synchronized (lock) {
            if (capture != null) throw new DeviceException("stream " + capture.origin.name() + " is already capturing; one capture at a time");
            capture = new SimCapture(q, Thread.currentThread());
        }
    }

    @Override
    public DeviceGraph endCapture(DeviceStream origin) {
        SimQueue q = queue(origin);
        SimCapture c;
        int id;
        synchronized (lock) {
            if (capture == null || capture.origin != q) throw new DeviceException("no capture was begun on stream " + q.name());
            c = capture;
            capture = null;
            id = nextGraph++;
        }
        c.checkJoined();
        return new SimGraph(this, c, id);
    }

    @Override
    public void launchGraph(DeviceGraph graph, DeviceStream stream) {
        if (!(graph instanceof SimGraph g) || g.device() != this) throw new DeviceException("graph does not belong to this simulator");
        SimQueue q = queue(stream);
        synchronized (lock) {
            if (capture != null && capture.captures(q)) throw new DeviceException("launching a graph into a capture is not supported");
        }
        g.replay(q);
    }

    /** CUDA forbids a capturing thread calls that allocate or synchronise (thread-local capture mode). */
    private void forbidInCapture(String call) {
        if (capture != null && capture.thread == Thread.currentThread())
            throw new DeviceException(call + " while stream " + capture.origin.name() + " is capturing (CUDA: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)");
    }

    // ---- work ----

    @Override
    public void launch(DeviceStream stream, KernelCall call) {
        SimQueue q = queue(stream);
        synchronized (lock) {
            if (capture != null && capture.captures(q)) {
                capture.launch(q, call);
                return;
            }
        }
        Runnable compute = trace != null ? () -> { } : SimKernels.bind(call);
        submitWork(q, call.label(), call.pointers(), compute, call.name());
        launches.incrementAndGet();
    }

    @Override
    public void copyToDevice(DeviceStream stream, byte[] src, DevicePointer dst, String tensor) {
        copyToDevice(stream, src, KernelArg.write(dst, src.length, tensor));
    }

    @Override
    public void copyToDevice(DeviceStream stream, byte[] src, KernelArg dst) {
        SimQueue q = queue(stream);
        synchronized (lock) {
            forbidInCapture("copy of " + dst.tensor() + " to the device");
        }
        if (dst.bytes() != src.length) throw new DeviceException("copy of " + dst.tensor() + ": " + src.length + " B for " + dst.bytes() + " B");
        byte[] copy = src.clone();
        DevicePointer p = dst.pointer();
        submitWork(q, "copy to device", List.of(dst), () -> block(p).write(p.offset(), copy, 0, copy.length), Kernels.COPY);
        q.synchronize();
        rethrow();
    }

    @Override
    public void copyToHost(DeviceStream stream, DevicePointer src, byte[] dst, String tensor) {
        copyToHost(stream, KernelArg.read(src, dst.length, tensor), dst);
    }

    @Override
    public void copyToHost(DeviceStream stream, KernelArg src, byte[] dst) {
        SimQueue q = queue(stream);
        synchronized (lock) {
            forbidInCapture("copy of " + src.tensor() + " to the host");
        }
        if (src.bytes() != dst.length) throw new DeviceException("copy of " + src.tensor() + ": " + src.bytes() + " B into " + dst.length + " B");
        DevicePointer p = src.pointer();
        submitWork(q, "copy to host", List.of(src), () -> block(p).read(p.offset(), dst.length).get(dst), Kernels.COPY);
        q.synchronize();
        rethrow();
    }

    @Override
    public void copyOnDevice(DeviceStream stream, DevicePointer src, DevicePointer dst, long bytes, String tensor) {
        SimQueue q = queue(stream);
        synchronized (lock) {
            if (capture != null && capture.captures(q)) {
                capture.copy(q, src, dst, bytes, tensor);
                return;
            }
        }
        List<KernelArg> args = List.of(KernelArg.read(src, bytes, tensor), KernelArg.write(dst, bytes, tensor));
        submitWork(q, "copy on device", args, () -> block(src).copyTo(src.offset(), block(dst), dst.offset(), bytes), Kernels.COPY);
    }

    /**
     * Issue-time bookkeeping. A read expects, per byte, the latest issued write of any of its
     * source tensors (taken before this task's own writes); a write gets a fresh version and
     * becomes its tensor's latest write on those bytes.
     */
    private void submitWork(SimQueue q, String label, List<KernelArg> args, Runnable compute, String kernel) {
        List<SimTask.Read> reads = new ArrayList<>();
        List<SimTask.Write> writes = new ArrayList<>();
        synchronized (lock) {
            for (KernelArg a : args) {
                SimBuffer b = own(a.pointer().buffer());
                if (!b.isLive()) throw new DeviceException("'" + label + "' uses " + a.tensor() + " in a freed " + b);
                long from = a.pointer().offset();
                long to = from + a.bytes();
                if (a.access() == KernelArg.Access.READ)
                    reads.add(new SimTask.Read(b.block, from, to, a.tensor(), b.owner(), expected(b.block, a.sources(), from, to)));
            }
            for (KernelArg a : args) {
                if (a.access() != KernelArg.Access.WRITE) continue;
                SimBuffer b = own(a.pointer().buffer());
                long from = a.pointer().offset();
                WriteStamp stamp = new WriteStamp(++nextVersion, a.tensor(), label, q.name());
                writes.add(new SimTask.Write(b.block, from, from + a.bytes(), stamp));
                b.block.issuedBy.computeIfAbsent(a.sources().get(0), k -> new VersionMap()).write(from, from + a.bytes(), stamp);
            }
            report(overlapInLaunch(reads, writes, kernel, args));
        }
        q.submit(new SimTask.Work(label, q.name(), reads, writes, compute));
    }

    /**
     * A launch that writes bytes it reads is a hazard unless its kernel works in place and the
     * write is exactly the read (same bytes): known at issue, whatever the timing.
     */
    private static PrematureReuseException overlapInLaunch(List<SimTask.Read> reads, List<SimTask.Write> writes, String kernel, List<KernelArg> args) {
        for (SimTask.Write w : writes) {
            for (SimTask.Read r : reads) {
                if (r.block() != w.block() || r.to() <= w.from() || w.to() <= r.from()) continue;
                boolean exact = r.from() == w.from() && r.to() == w.to();
                if (exact && Kernels.IN_PLACE.contains(kernel)) continue;
                String owner = r.owner();
                return PrematureReuseException.overlapInLaunch(owner, Math.max(r.from(), w.from()), Math.min(r.to(), w.to()), r.tensor(), w.stamp(), kernel);
            }
        }
        return null;
    }

    /** Per byte of [from, to), the most recent issued write among the source tensors. */
    private static List<VersionMap.Segment> expected(SimBlock block, List<String> sources, long from, long to) {
        if (sources.size() == 1) {
            VersionMap m = block.issuedBy.get(sources.get(0));
            return m == null ? List.of() : m.read(from, to);
        }
        List<VersionMap.Segment> all = new ArrayList<>();
        for (String s : sources) {
            VersionMap m = block.issuedBy.get(s);
            if (m != null) all.addAll(m.read(from, to));
        }
        all.sort(java.util.Comparator.comparingLong(seg -> seg.stamp().version()));
        VersionMap merged = new VersionMap();
        for (VersionMap.Segment seg : all) merged.write(seg.start(), seg.end(), seg.stamp());
        return merged.read(from, to);
    }

    /** Runs one task on a live stream's worker thread. */
    void execute(SimTask task) {
        try {
            if (task instanceof SimTask.Record r) {
                r.event().complete(r.serial());
            } else if (task instanceof SimTask.Wait w) {
                w.event().await(w.serial());
            } else if (task instanceof SimTask.Work w) {
                synchronized (lock) {
                    report(VersionCheck.check(w, b -> b.actual, false));
                    VersionCheck.applyWrites(w, b -> b.actual);
                }
                w.compute().run();
                synchronized (lock) {
                    PrematureReuseException e = VersionCheck.check(w, b -> b.actual, true);
                    report(e != null ? e : VersionCheck.checkWrites(w, b -> b.actual, "device memory"));
                }
            }
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }

    private void report(PrematureReuseException e) {
        if (e != null) hazards.add(e);
    }

    @Override
    public void synchronize() {
        synchronized (lock) {
            forbidInCapture("cuCtxSynchronize");
        }
        if (trace != null) {
            trace.barrier();
            return;
        }
        List<SimQueue> all;
        synchronized (streams) {
            all = new ArrayList<>(streams);
        }
        for (SimQueue q : all) q.synchronize();
        rethrow();
        afterSynchronize();
    }

    /** Throws the first kernel failure, or the first hazard not yet thrown. */
    private void rethrow() {
        synchronized (failures) {
            if (!failures.isEmpty()) {
                RuntimeException e = failures.get(0);
                failures.clear();
                throw e;
            }
        }
        synchronized (hazards) {
            if (hazardsReported < hazards.size()) {
                PrematureReuseException e = hazards.get(hazardsReported);
                hazardsReported = hazards.size();
                throw e;
            }
        }
    }

    /** The held bytes of the allocator's model ({@link SimAllocator}). */
    @Override
    public long heldBytes() {
        synchronized (lock) {
            return allocator.held();
        }
    }

    /** A stream or the device synchronized: the pool gives back what its release threshold (0) lets go. */
    void afterSynchronize() {
        synchronized (lock) {
            allocator.trimPool();
        }
    }

    @Override
    public DeviceCounters counters() {
        synchronized (lock) {
            return allocator.counters(launches.get());
        }
    }

    @Override
    public void resetPeaks() {
        synchronized (lock) {
            allocator.resetPeaks();
        }
    }

    @Override
    public void close() {
        if (closed) return;
        List<SimQueue> all;
        synchronized (streams) {
            all = new ArrayList<>(streams);
        }
        for (SimQueue q : all) q.close();
        List<String> leaks = new ArrayList<>();
        synchronized (lock) {
            closed = true;
            for (SimBuffer b : live) {
                leaks.add(b.owner() + " (" + b.bytes() + " B)");
                b.kill();
            }
            live.clear();
        }
        if (!leaks.isEmpty()) throw new DeviceLeakException("sim", leaks);
    }

    // ---- helpers ----

    private SimBuffer own(DeviceBuffer buffer) {
        if (!(buffer instanceof SimBuffer b) || b.device() != this) throw new DeviceException(buffer + " does not belong to this simulator");
        return b;
    }

    private SimQueue queue(DeviceStream s) {
        if (!(s instanceof SimQueue q) || !streams.contains(q)) throw new DeviceException("stream " + s.name() + " does not belong to this simulator (or is closed)");
        return q;
    }

    private static SimEvent event(DeviceEvent e) {
        if (!(e instanceof SimEvent se)) throw new DeviceException("event does not belong to the simulator");
        return se;
    }

    /** The memory a pointer points into; its {@code offset()} is also the offset into the block. */
    static SimBlock block(DevicePointer p) {
        return ((SimBuffer) p.buffer()).block;
    }
}
