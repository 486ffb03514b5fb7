package org.arenaplan.exec;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceCounters;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelCall;
import org.arenaplan.hb.SyncEvent;
import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.Tensor;
import org.arenaplan.ir.TensorValue;
import org.arenaplan.plan.Plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every executor does the same way: one device stream per graph stream (its own, so two
 * executors never share one), exactly the plan's events ({@code plan.sync()}), ops issued in
 * schedule order, inputs copied in on the first stream and outputs copied out after every stream
 * is idle (a data-dependent output with its actual shape: {@link OutputCopy}). Subclasses decide where tensors live.
 *
 * <p>Per iteration: {@link #beginIteration()}, inputs in, then {@link #issueOps()} (for each op:
 * {@link #beforeOp}, waits of events whose {@code waitBefore} is the op, its kernels, records of
 * events whose {@code recordAfter} is the op, {@link #afterOp}); then all streams synchronized,
 * outputs out, {@link #endIteration()}.
 */
abstract class AbstractExecutor implements Executor {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    protected final Device device;
    protected final Plan plan;
    protected final Graph graph;
    protected final WeightRegion weights;
    protected final String label;
    private final Map<Integer, DeviceStream> streams = new TreeMap<>();
    private final List<DeviceEvent> events = new ArrayList<>();
    private final List<List<DeviceEvent>> waitsBefore = new ArrayList<>();
    private final List<List<DeviceEvent>> recordsAfter = new ArrayList<>();
    private final DeviceStream copyStream;
    private final String mode;

    AbstractExecutor(Device device, Plan plan, WeightRegion weights, String mode) {
        HostArrays.check(plan.graph());   // once per executor, before a subclass allocates anything
        this.device = device;
        this.plan = plan;
        this.graph = plan.graph();
        this.weights = weights;
        this.mode = mode;
        this.label = mode + "#" + INSTANCES.incrementAndGet();
        int n = graph.opCount();
        for (int p = 0; p < n; p++) {
            waitsBefore.add(new ArrayList<>(0));
            recordsAfter.add(new ArrayList<>(0));
        }
        for (SyncEvent e : plan.sync().events()) {
            if (e.recordAfter() < 0 || e.waitBefore() >= n || e.recordAfter() >= e.waitBefore())
                throw new ExecutionException("sync event " + e.id() + " records after position " + e.recordAfter() + " and is waited before position "
                        + e.waitBefore() + ": the record must come first in a schedule of " + n + " ops");
        }
        try {
            for (int s : graph.streams()) streams.put(s, device.createStream(label + "/s" + s));
            if (streams.isEmpty()) streams.put(0, device.createStream(label + "/s0"));
            copyStream = streams.values().iterator().next();
            for (SyncEvent e : plan.sync().events()) {
                DeviceEvent ev = device.createEvent();
                events.add(ev);
                recordsAfter.get(e.recordAfter()).add(ev);
                waitsBefore.get(e.waitBefore()).add(ev);
            }
        } catch (RuntimeException e) {
            closeStreamsAndEvents();
            throw e;
        }
    }

    @Override
    public final String mode() {
        return mode;
    }

    protected final DeviceStream streamOf(int position) {
        return streams.get(graph.ops().get(position).stream());
    }

    protected final DeviceStream copyStream() {
        return copyStream;
    }

    protected final java.util.Collection<DeviceStream> streams() {
        return streams.values();
    }

    /** Where tensor {@code t} lives now (weights in the weight region). */
    protected abstract DevicePointer pointer(String t);

    protected void beginIteration() { }

    protected void beforeOp(int position) { }

    protected void afterOp(int position) { }

    protected void endIteration() { }

    /** The kernels of the op at {@code position} with the current addresses. */
    protected List<KernelCall> calls(int position) {
        return lowering().lower(graph.ops().get(position));
    }

    protected final OpLowering lowering() {
        return new OpLowering(graph, this::pointer, this::display);
    }

    /** How messages name a tensor: with its storage when it is an alias. */
    protected final String display(String t) {
        if (!plan.inArena(t)) return "weight '" + t + "'";
        String root = plan.storages().get(plan.lifetimes().storageOf(t)).name();
        return root.equals(t) ? "'" + t + "'" : "'" + t + "' (storage '" + root + "')";
    }

    /** Whether {@link #issueOps()} refuses a call's data before its launch ({@link LaunchChecks}); false while capturing a graph, which cannot copy to the host. */
    protected boolean checksData() {
        return true;
    }

    /**
     * Issues every op in schedule order: {@link #beforeOp}, waits of the plan's events due before
     * it, its kernels on its stream (each after {@link LaunchChecks#beforeLaunch}), records of the events due after it, {@link #afterOp}.
     */
    protected void issueOps() {
        for (int p = 0; p < graph.opCount(); p++) {
            DeviceStream s = streamOf(p);
            beforeOp(p);
            for (DeviceEvent e : waitsBefore.get(p)) device.waitEvent(s, e);
            for (KernelCall c : calls(p)) {
                if (checksData()) LaunchChecks.beforeLaunch(device, s, c);
                device.launch(s, c);
            }
            for (DeviceEvent e : recordsAfter.get(p)) device.recordEvent(e, s);
            afterOp(p);
        }
    }

    @Override
    public final RunResult run(Map<String, TensorValue> inputs) {
        for (String in : graph.inputs()) {
            TensorValue v = inputs.get(in);
            if (v == null) throw new ExecutionException("graph input '" + in + "' was not given");
            Tensor t = graph.tensor(in);
            DType want = t.dtype() == null ? DType.F32 : t.dtype();
            if (v.dtype() != want)
                throw new ExecutionException("graph input '" + in + "': " + v.dtype().jsonName() + " values given, " + want.jsonName() + " expected");
            if (v.byteCount() != t.bytes())
                throw new ExecutionException("graph input '" + in + "': " + v.elements() + " values given, " + (want.isPacked() ? t.elements() : t.bytes() / want.bytes()) + " expected");
        }
        device.resetPeaks();
        DeviceCounters before = device.counters();
        long t0 = System.nanoTime();
        beginIteration();
        OpLowering args = lowering();
        for (String in : graph.inputs()) device.copyToDevice(copyStream, inputs.get(in).bytes(), args.write(in));
        issueOps();
        for (DeviceStream s : streams.values()) s.synchronize();
        Map<String, TensorValue> out = new LinkedHashMap<>();
        for (String o : graph.outputs()) out.put(o, OutputCopy.read(device, copyStream, graph, args, o));
        endIteration();
        long nanos = System.nanoTime() - t0;
        return new RunResult(mode, out, device.counters().since(before), nanos);
    }

    @Override
    public void close() {
        closeStreamsAndEvents();
    }

    private void closeStreamsAndEvents() {
        for (DeviceStream s : streams.values()) s.close();
        for (DeviceEvent e : events) e.close();
    }
}
