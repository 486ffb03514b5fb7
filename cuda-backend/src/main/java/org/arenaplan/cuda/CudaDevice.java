package org.arenaplan.cuda;

import static org.arenaplan.cuda.Driver.check;

import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceCounters;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DeviceGraph;
import org.arenaplan.device.DeviceLeakException;
import org.arenaplan.device.DevicePointer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

/**
 * The device SPI over the CUDA driver API (JCuda). Steps at open: {@link Cuda#ensureAvailability()},
 * retain device {@code ordinal}'s primary context, load the kernel fatbin with
 * {@code cuModuleLoadData}, look up every kernel, and pick cuBLAS for {@code gemm} when it loads.
 *
 * <ul>
 *   <li>Every public method first makes the primary context current on the calling thread.</li>
 *   <li>{@link #allocate}/{@link #free}: {@code cuMemAlloc}/{@code cuMemFree}; free synchronises
 *       the context first, as the SPI requires. {@link #allocateAsync}/{@link #freeAsync}:
 *       {@code cuMemAllocAsync}/{@code cuMemFreeAsync} on the device's default pool.</li>
 *   <li>Streams are non-blocking; events have timing disabled except {@link #createTimingEvent()}.</li>
 *   <li>Host copies go through one {@link PinnedStaging} buffer, one copy at a time.</li>
 * </ul>
 * <p>Stream capture ({@link #beginCapture}) is thread-local; kernels and copies captured are counted
 * as launches when the graph is launched. Accounting is the {@link AllocationLedger}'s: its
 * {@code reservedBytes} equal the live bytes (JCuda 12.6 cannot query a memory pool's attributes);
 * what the device really holds is {@link #heldBytes()}, the fall of free memory since open.
 * cuBLAS results are not bit-identical to the tiled kernel.
 */
public final class CudaDevice implements Device {
    /**
     * A test-only kernel beyond the convention: ptrs [x, y], ints [n, cycles]; busy-waits about
     * {@code cycles} clock cycles, then copies n values (a deliberately slow reader).
     */
    public static final String SLOW_COPY = "slow_copy";

    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    private final CUmodule module = new CUmodule();
    private final java.util.Map<String, CUfunction> functions = new java.util.HashMap<>();
    private final ThreadLocal<Boolean> bound = ThreadLocal.withInitial(() -> false);
    private final String description;
    private final CublasGemm cublas;
    /** gemm and conv2d (group 1) on the TF32 tensor-core kernels (off by default). */
    private final boolean tf32;

    private final AllocationLedger ledger = new AllocationLedger();
    private final List<CudaStream> streams = new ArrayList<>();
    private final List<CudaEvent> events = new ArrayList<>();
    private final PinnedStaging staging = new PinnedStaging();
    private final List<CudaGraph> graphs = new ArrayList<>();
    private final long granularity;
    private final long freeAtOpen;
    private boolean closed;

    /** The capture begun on this thread: its origin, streams that joined, kernels and copies captured. */
    private static final class Capture {
        final CudaStream origin;
        final java.util.Set<CudaStream> streams = new java.util.LinkedHashSet<>();
        int work;

        Capture(CudaStream origin) {
            this.origin = origin;
            streams.add(origin);
        }
    }

    private final ThreadLocal<Capture> capture = new ThreadLocal<>();

    /** Opens GPU {@code ordinal}; throws {@link CudaUnavailableException} where CUDA is unavailable. */
    public CudaDevice(int ordinal) {
        this(ordinal, false);
    }

    /**
     * Opens GPU {@code ordinal}; with {@code tf32}, gemm and conv2d (group 1) run on the TF32
     * tensor-core kernels (tf32.cuh: inputs rounded to a 10-bit mantissa, FP32 accumulation), so
     * their results differ from FP32's and the simulator's ({@code DeviceOptions.tf32()}).
     */
    public CudaDevice(int ordinal, boolean tf32) {
        this.tf32 = tf32;
        Cuda.ensureAvailability();
        JCudaDriver.setExceptionsEnabled(false);
        check(JCudaDriver.cuInit(0), "cuInit", "the driver");
        check(JCudaDriver.cuDeviceGet(device, ordinal), "cuDeviceGet", "GPU " + ordinal);
        check(JCudaDriver.cuDevicePrimaryCtxRetain(context, device), "cuDevicePrimaryCtxRetain", "GPU " + ordinal);
        try {
            bind();
            check(JCudaDriver.cuModuleLoadData(module, KernelImage.load().fatbin()), "cuModuleLoadData", "kernels.fatbin");
            for (String name : CudaKernelTable.entries()) {
                CUfunction f = new CUfunction();
                check(JCudaDriver.cuModuleGetFunction(f, module, name), "cuModuleGetFunction", "kernel " + name);
                functions.put(name, f);
            }
        } catch (RuntimeException e) {
            JCudaDriver.cuDevicePrimaryCtxRelease(device);
            throw e;
        }
        this.granularity = allocationGranularity(ordinal);
        this.freeAtOpen = memoryInfo()[0];
        CudaInfo info = Cuda.info();
        boolean useCublas = !tf32 && Cuda.cublasEnabled();
        this.cublas = useCublas ? new CublasGemm() : null;
        this.description = info.deviceName() + " (GPU " + ordinal + ", compute capability " + info.computeCapability() + ", "
                + (info.totalMemory() >> 20) + " MiB, driver CUDA " + KernelImage.driverVersionName(info.driverVersion())
                + ", allocation granularity " + (granularity >= 1 << 20 ? (granularity >> 20) + " MiB" : granularity + " B") + "), gemm: "
                + (tf32 ? "TF32 tensor cores (--tf32; conv2d with group 1 too)"
                : useCublas ? "cuBLAS" : "arenaplan tiled kernel" + (info.cublas() ? " (cuBLAS turned off)" : " (" + info.cublasNote() + ")"));
    }

    /** Makes the primary context current on this thread (once per thread). */
    private void bind() {
        if (!bound.get()) {
            check(JCudaDriver.cuCtxSetCurrent(context), "cuCtxSetCurrent", "the primary context");
            bound.set(true);
        }
    }

    /** {@code cuMemGetAllocationGranularity} (minimum) of device memory on GPU {@code ordinal}: the driver's physical page. */
    private static long allocationGranularity(int ordinal) {
        jcuda.driver.CUmemAllocationProp prop = new jcuda.driver.CUmemAllocationProp();
        prop.type = jcuda.driver.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location = new jcuda.driver.CUmemLocation(jcuda.driver.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE, ordinal);
        long[] g = new long[1];
        check(JCudaDriver.cuMemGetAllocationGranularity(g, prop, jcuda.driver.CUmemAllocationGranularity_flags.CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                "cuMemGetAllocationGranularity", "GPU " + ordinal);
        return g[0];
    }

    /** The driver's allocation granularity in bytes ({@code cuMemGetAllocationGranularity}, minimum). */
    public long allocationGranularity() {
        return granularity;
    }

    /**
     * The fall of free device memory ({@code cuMemGetInfo}) since this device opened (after its
     * context and kernels were loaded): what the process took since, as the driver rounds and
     * caches it, including driver-internal allocations (graph instantiation, lazy kernel set-up) and
     * any other process's use of the same GPU meanwhile. One driver call.
     */
    @Override
    public long heldBytes() {
        return freeAtOpen - memoryInfo()[0];
    }

    @Override
    public String name() { return "cuda"; }

    @Override
    public String description() { return description; }

    // ---- memory ------------------------------------------------------------------------------

    @Override
    public DeviceBuffer allocate(long bytes, String owner) {
        bind();
        forbidInCapture("cuMemAlloc of " + owner);
        CUdeviceptr p = new CUdeviceptr();
        check(JCudaDriver.cuMemAlloc(p, Math.max(bytes, 1)), "cuMemAlloc", bytes + " B for " + owner);
        CudaBuffer b = new CudaBuffer(this, p, bytes, owner, false);
        ledger.allocated(b);
        return b;
    }

    @Override
    public DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner) {
        bind();
        forbidInCapture("cuMemAllocAsync of " + owner);
        CUdeviceptr p = new CUdeviceptr();
        check(JCudaDriver.cuMemAllocAsync(p, Math.max(bytes, 1), cuda(stream).stream), "cuMemAllocAsync", bytes + " B for " + owner);
        CudaBuffer b = new CudaBuffer(this, p, bytes, owner, true);
        ledger.allocated(b);
        return b;
    }

    @Override
    public void free(DeviceBuffer buffer) {
        bind();
        CudaBuffer b = own(buffer);
        forbidInCapture("cuMemFree of " + b);
        if (!b.markFreed()) throw new DeviceException("buffer " + b + " freed twice");
        check(JCudaDriver.cuCtxSynchronize(), "cuCtxSynchronize", "freeing " + b);   // the SPI's free waits for every stream
        check(b.async() ? JCudaDriver.cuMemFreeAsync(b.rawPointer(), null) : JCudaDriver.cuMemFree(b.rawPointer()),
                b.async() ? "cuMemFreeAsync" : "cuMemFree", b.toString());
        ledger.freed(b, false);
    }

    @Override
    public void freeAsync(DeviceBuffer buffer, DeviceStream stream) {
        bind();
        CudaBuffer b = own(buffer);
        forbidInCapture("cuMemFreeAsync of " + b);
        if (!b.markFreed()) throw new DeviceException("buffer " + b + " freed twice");
        check(JCudaDriver.cuMemFreeAsync(b.rawPointer(), cuda(stream).stream), "cuMemFreeAsync", b.toString());
        ledger.freed(b, true);
    }

    private CudaBuffer own(DeviceBuffer buffer) {
        if (buffer instanceof CudaBuffer b && b.device() == this) return b;
        throw new DeviceException("buffer " + buffer + " does not belong to this CUDA device");
    }

    private CUdeviceptr address(DevicePointer p) {
        return own(p.buffer()).address(p.offset());
    }

    // ---- streams and events ------------------------------------------------------------------

    @Override
    public DeviceStream createStream(String name) {
        bind();
        CUstream s = new CUstream();
        check(JCudaDriver.cuStreamCreate(s, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate", "stream " + name);
        CudaStream stream = new CudaStream(this, name, s);
        synchronized (this) {
            streams.add(stream);
        }
        return stream;
    }

    @Override
    public DeviceEvent createEvent() {
        return event(CUevent_flags.CU_EVENT_DISABLE_TIMING);
    }

    /** An event that records a time stamp, for {@link #elapsedMillis}. */
    public DeviceEvent createTimingEvent() {
        return event(CUevent_flags.CU_EVENT_DEFAULT);
    }

    private DeviceEvent event(int flags) {
        bind();
        CUevent e = new CUevent();
        check(JCudaDriver.cuEventCreate(e, flags), "cuEventCreate", "an event");
        CudaEvent event = new CudaEvent(this, e);
        synchronized (this) {
            events.add(event);
        }
        return event;
    }

    /** Milliseconds of device time between two completed timing events. */
    public float elapsedMillis(DeviceEvent start, DeviceEvent end) {
        bind();
        float[] ms = new float[1];
        check(JCudaDriver.cuEventElapsedTime(ms, cuda(start).event, cuda(end).event), "cuEventElapsedTime", "timing events");
        return ms[0];
    }

    @Override
    public void recordEvent(DeviceEvent event, DeviceStream stream) {
        bind();
        check(JCudaDriver.cuEventRecord(cuda(event).event, cuda(stream).stream), "cuEventRecord", "stream " + stream.name());
    }

    @Override
    public void waitEvent(DeviceStream stream, DeviceEvent event) {
        bind();
        CudaStream s = cuda(stream);
        check(JCudaDriver.cuStreamWaitEvent(s.stream, cuda(event).event, 0), "cuStreamWaitEvent", "stream " + stream.name());
        Capture c = capture.get();
        if (c != null && isCapturing(s)) c.streams.add(s);   // waiting on a captured event joined it
    }

    // ---- graphs ------------------------------------------------------------------------------

    /** {@code cuStreamBeginCapture} in thread-local mode: only this thread's unsafe calls are refused meanwhile. */
    @Override
    public void beginCapture(DeviceStream origin) {
        bind();
        if (capture.get() != null) throw new DeviceException("this thread is already capturing stream " + capture.get().origin.name());
        CudaStream s = cuda(origin);
        check(JCudaDriver.cuStreamBeginCapture(s.stream, jcuda.driver.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                "cuStreamBeginCapture", "stream " + origin.name());
        capture.set(new Capture(s));
    }

    /** {@code cuStreamEndCapture}, then {@code cuGraphInstantiate}; the capture ends even when either fails. */
    @Override
    public DeviceGraph endCapture(DeviceStream origin) {
        bind();
        Capture c = capture.get();
        CudaStream s = cuda(origin);
        if (c == null || c.origin != s) throw new DeviceException("no capture was begun on stream " + origin.name() + " by this thread");
        capture.remove();
        jcuda.driver.CUgraph graph = new jcuda.driver.CUgraph();
        check(JCudaDriver.cuStreamEndCapture(s.stream, graph), "cuStreamEndCapture",
                "stream " + origin.name() + " (every stream that joined must be joined back)");
        jcuda.driver.CUgraphExec exec = new jcuda.driver.CUgraphExec();
        int r = JCudaDriver.cuGraphInstantiate(exec, graph, 0);
        if (r != jcuda.driver.CUresult.CUDA_SUCCESS) {
            JCudaDriver.cuGraphDestroy(graph);
            check(r, "cuGraphInstantiate", "the graph captured on stream " + origin.name());
        }
        CudaGraph g = new CudaGraph(this, graph, exec, c.work, c.streams.size());
        synchronized (this) {
            graphs.add(g);
        }
        return g;
    }

    /** {@code cuGraphLaunch}; counts the graph's kernels and copies as launches. */
    @Override
    public void launchGraph(DeviceGraph graph, DeviceStream stream) {
        bind();
        if (!(graph instanceof CudaGraph g) || g.device != this || g.isClosed())
            throw new DeviceException("graph is closed or does not belong to this CUDA device");
        check(JCudaDriver.cuGraphLaunch(g.exec, cuda(stream).stream), "cuGraphLaunch", "stream " + stream.name());
        ledger.launched(g.workNodes());
    }

    void destroy(CudaGraph g) {
        bind();
        check(JCudaDriver.cuGraphExecDestroy(g.exec), "cuGraphExecDestroy", "a graph");
        check(JCudaDriver.cuGraphDestroy(g.graph), "cuGraphDestroy", "a graph");
        synchronized (this) {
            graphs.remove(g);
        }
    }

    private static boolean isCapturing(CudaStream s) {
        int[] status = new int[1];
        check(JCudaDriver.cuStreamIsCapturing(s.stream, status), "cuStreamIsCapturing", "stream " + s.name());
        return status[0] == jcuda.driver.CUstreamCaptureStatus.CU_STREAM_CAPTURE_STATUS_ACTIVE;
    }

    /** Thread-local capture forbids this thread calls that allocate or synchronise; say which instead of the driver's code. */
    private void forbidInCapture(String call) {
        Capture c = capture.get();
        if (c != null) throw new DeviceException(call + " while stream " + c.origin.name() + " is capturing (CUDA: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)");
    }

    void synchronize(CudaStream s) {
        bind();
        check(JCudaDriver.cuStreamSynchronize(s.stream), "cuStreamSynchronize", "stream " + s.name());
    }

    void synchronize(CudaEvent e) {
        bind();
        check(JCudaDriver.cuEventSynchronize(e.event), "cuEventSynchronize", "an event");
    }

    boolean query(CudaEvent e) {
        bind();
        return JCudaDriver.cuEventQuery(e.event) == jcuda.driver.CUresult.CUDA_SUCCESS;
    }

    void destroy(CudaStream s) {
        bind();
        check(JCudaDriver.cuStreamSynchronize(s.stream), "cuStreamSynchronize", "closing stream " + s.name());
        if (cublas != null) cublas.forget(s.stream);
        check(JCudaDriver.cuStreamDestroy(s.stream), "cuStreamDestroy", "stream " + s.name());
        synchronized (this) {
            streams.remove(s);
        }
    }

    void destroy(CudaEvent e) {
        bind();
        check(JCudaDriver.cuEventDestroy(e.event), "cuEventDestroy", "an event");
        synchronized (this) {
            events.remove(e);
        }
    }

    private CudaStream cuda(DeviceStream s) {
        if (s instanceof CudaStream c && !c.isClosed()) return c;
        throw new DeviceException("stream " + (s == null ? "null" : s.name()) + " is closed or not a CUDA stream");
    }

    private static CudaEvent cuda(DeviceEvent e) {
        if (e instanceof CudaEvent c) return c;
        throw new DeviceException("event " + e + " is not a CUDA event");
    }

    // ---- kernels and copies ------------------------------------------------------------------

    @Override
    public void launch(DeviceStream stream, KernelCall call) {
        bind();
        CudaStream s = cuda(stream);
        CudaKernelTable.Spec spec = CudaKernelTable.spec(call);
        if (cublas != null && call.name().equals(Kernels.GEMM) && CublasGemm.handles(call)) {
            cublas.gemm(this, s.stream, call, pointers(call, spec));
        } else {
            launchKernel(s.stream, call, spec);
        }
        countLaunch();
    }

    /** A launch issued during this thread's capture is a node of the graph, counted when the graph launches. */
    private void countLaunch() {
        Capture c = capture.get();
        if (c != null) c.work++;
        else ledger.launched();
    }

    /** Launches the fatbin's kernel for {@code call} (also used by the cuBLAS path to broadcast C). */
    void launchKernel(CUstream stream, KernelCall call, CudaKernelTable.Spec spec) {
        CUdeviceptr[] ptrs = pointers(call, spec);
        Pointer[] params = new Pointer[spec.slots() + 2];
        for (int i = 0; i < spec.slots(); i++) params[i] = Pointer.to(ptrs[i]);
        long[] ints = java.util.Arrays.copyOf(call.ints(), CudaKernelTable.MAX_INTS);
        double[] floats = java.util.Arrays.copyOf(call.floats(), CudaKernelTable.MAX_FLOATS);
        params[spec.slots()] = Pointer.to(ints);
        params[spec.slots() + 1] = Pointer.to(floats);
        String entry = CudaKernelTable.entry(call, tf32);
        CudaKernelTable.Geometry g = CudaKernelTable.geometry(entry, call, spec);
        check(JCudaDriver.cuLaunchKernel(functions.get(entry), g.gridX(), g.gridY(), g.gridZ(), g.blockX(), g.blockY(), 1,
                0, stream, Pointer.to(params), null), "cuLaunchKernel", "kernel " + entry + " of op " + call.label());
    }

    /** The driver addresses in the kernel's slot order; an omitted optional slot is a null pointer. */
    private CUdeviceptr[] pointers(KernelCall call, CudaKernelTable.Spec spec) {
        CUdeviceptr[] ptrs = new CUdeviceptr[spec.slots()];
        List<KernelArg> args = call.pointers();
        for (int i = 0; i < args.size(); i++) ptrs[CudaKernelTable.slotOf(spec, call.ints(), args.size(), i)] = address(args.get(i).pointer());
        for (int i = 0; i < ptrs.length; i++) if (ptrs[i] == null) ptrs[i] = new CUdeviceptr();
        return ptrs;
    }

    @Override
    public void copyToDevice(DeviceStream stream, byte[] src, DevicePointer dst, String tensor) {
        bind();
        forbidInCapture("copy of " + tensor + " to the device");
        CudaStream s = cuda(stream);
        long bytes = src.length;
        checkExtent(dst, bytes, tensor);
        synchronized (staging) {
            staging.bytes(bytes).put(src);
            check(JCudaDriver.cuMemcpyHtoDAsync(address(dst), staging.reserve(bytes), bytes, s.stream), "cuMemcpyHtoDAsync", "tensor " + tensor);
            check(JCudaDriver.cuStreamSynchronize(s.stream), "cuStreamSynchronize", "copying tensor " + tensor);
        }
    }

    @Override
    public void copyToHost(DeviceStream stream, DevicePointer src, byte[] dst, String tensor) {
        bind();
        forbidInCapture("copy of " + tensor + " to the host");
        CudaStream s = cuda(stream);
        long bytes = dst.length;
        checkExtent(src, bytes, tensor);
        synchronized (staging) {
            check(JCudaDriver.cuMemcpyDtoHAsync(staging.reserve(bytes), address(src), bytes, s.stream), "cuMemcpyDtoHAsync", "tensor " + tensor);
            check(JCudaDriver.cuStreamSynchronize(s.stream), "cuStreamSynchronize", "copying tensor " + tensor);
            staging.bytes(bytes).get(dst);
        }
    }

    @Override
    public void copyOnDevice(DeviceStream stream, DevicePointer src, DevicePointer dst, long bytes, String tensor) {
        bind();
        checkExtent(src, bytes, tensor);
        checkExtent(dst, bytes, tensor);
        check(JCudaDriver.cuMemcpyDtoDAsync(address(dst), address(src), bytes, cuda(stream).stream), "cuMemcpyDtoDAsync", "tensor " + tensor);
        Capture c = capture.get();
        if (c != null) c.work++;
    }

    /** Fills {@code bytes} from {@code dst} with the 32-bit pattern {@code bits}, ordered on {@code stream} (poisoning freed memory in tests). */
    public void fill(DeviceStream stream, DevicePointer dst, long bytes, int bits) {
        bind();
        checkExtent(dst, bytes, "fill");
        check(JCudaDriver.cuMemsetD32Async(address(dst), bits, bytes / 4, cuda(stream).stream), "cuMemsetD32Async", "fill of " + dst.buffer());
    }

    private static void checkExtent(DevicePointer p, long bytes, String tensor) {
        if (p.offset() + bytes > p.buffer().bytes()) {
            throw new DeviceException("copy of tensor " + tensor + " (" + bytes + " B at offset " + p.offset() + ") overruns buffer " + p.buffer());
        }
    }

    // ---- whole device ------------------------------------------------------------------------

    @Override
    public void synchronize() {
        bind();
        forbidInCapture("cuCtxSynchronize");
        check(JCudaDriver.cuCtxSynchronize(), "cuCtxSynchronize", "the device");
    }

    /** {@code cuMemGetInfo}: free and total device memory, in bytes. */
    public long[] memoryInfo() {
        bind();
        long[] free = new long[1], total = new long[1];
        check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo", "the device");
        return new long[] {free[0], total[0]};
    }

    @Override
    public DeviceCounters counters() {
        return ledger.counters();
    }

    @Override
    public void resetPeaks() {
        ledger.resetPeaks();
    }

    @Override
    public void close() {
        List<String> leaks = new ArrayList<>();
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        bind();
        try {
            JCudaDriver.cuCtxSynchronize();
            for (CudaBuffer b : ledger.live()) {
                leaks.add(b.toString());
                free(b);
            }
            List<CudaGraph> openGraphs;
            synchronized (this) {
                openGraphs = new ArrayList<>(graphs);
            }
            for (CudaGraph g : openGraphs) g.close();
            List<CudaStream> openStreams;
            List<CudaEvent> openEvents;
            synchronized (this) {
                openStreams = new ArrayList<>(streams);
                openEvents = new ArrayList<>(events);
            }
            for (CudaStream s : openStreams) s.close();
            for (CudaEvent e : openEvents) e.close();
            if (cublas != null) cublas.close();
            synchronized (staging) {
                staging.close();
            }
            JCudaDriver.cuModuleUnload(module);
        } finally {
            JCudaDriver.cuDevicePrimaryCtxRelease(device);
        }
        if (!leaks.isEmpty()) throw new DeviceLeakException("cuda", leaks);
    }
}
