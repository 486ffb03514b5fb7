package org.arenaplan.device;

/**
 * A GPU as the executors see it: memory, streams, events, kernel launches, copies and counters.
 * Implementations: the simulator ({@code org.arenaplan.sim.SimDevice}) and CUDA (cuda-backend).
 * Nothing above this interface knows which one runs; see {@code docs/device-spi.md}.
 *
 * <p>Ordering follows CUDA: work on one stream runs in issue order; work on different streams is
 * ordered only by events. Host calls return once the work is queued, except where stated.
 * Every handle is {@link AutoCloseable}; {@link #close()} reports allocations still live.
 * Implementations are safe for use by several host threads (one per executor).
 */
public interface Device extends AutoCloseable {

    /** Short name: "sim" or "cuda". */
    String name();

    /** One line for people: device model, memory, options. */
    String description();

    /** Synchronous allocation, like {@code cuMemAlloc}. {@code owner} is named in leak reports. */
    DeviceBuffer allocate(long bytes, String owner);

    /** Synchronous free, like {@code cuMemFree}: waits until every stream is idle, then frees. */
    void free(DeviceBuffer buffer);

    /**
     * Stream-ordered allocation, like {@code cuMemAllocAsync} on the default pool: the memory may
     * be used by work issued to {@code stream} after this call (other streams need an event).
     */
    DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner);

    /**
     * Stream-ordered free, like {@code cuMemFreeAsync}: the bytes return to the pool once the work
     * issued to {@code stream} before this call completes; the pool hands them out again only to
     * work ordered after that point (same stream, or an event dependency, or a completed free).
     */
    void freeAsync(DeviceBuffer buffer, DeviceStream stream);

    /** A new non-blocking stream. */
    DeviceStream createStream(String name);

    /** A new event (timing disabled). */
    DeviceEvent createEvent();

    /** {@code cuEventRecord}: the event completes when the work issued to {@code stream} so far completes. */
    void recordEvent(DeviceEvent event, DeviceStream stream);

    /** {@code cuStreamWaitEvent}: work issued to {@code stream} after this call starts after the event's last record completes. */
    void waitEvent(DeviceStream stream, DeviceEvent event);

    /** Queues one kernel on {@code stream}; see {@link KernelCall} and {@code docs/device-spi.md} for the names. */
    void launch(DeviceStream stream, KernelCall call);

    /**
     * Copies {@code src} to {@code dst}, ordered on {@code stream}; returns once the copy completed.
     * The bytes are the tensor's elements exactly as the device holds them (little-endian,
     * {@link org.arenaplan.ir.DType} per element; see {@link org.arenaplan.ir.TensorValue}).
     */
    void copyToDevice(DeviceStream stream, byte[] src, DevicePointer dst, String tensor);

    /** Copies {@code dst.length} bytes from {@code src}, ordered on {@code stream}; returns once the copy completed. */
    void copyToHost(DeviceStream stream, DevicePointer src, byte[] dst, String tensor);

    /**
     * The same as {@link #copyToDevice(DeviceStream, byte[], DevicePointer, String)} with the
     * written tensor described (the simulator checks reads against it).
     */
    default void copyToDevice(DeviceStream stream, byte[] src, KernelArg dst) {
        copyToDevice(stream, src, dst.pointer(), dst.tensor());
    }

    /**
     * The same as {@link #copyToHost(DeviceStream, DevicePointer, byte[], String)} with the tensors
     * whose writes the bytes must hold (the simulator checks them).
     */
    default void copyToHost(DeviceStream stream, KernelArg src, byte[] dst) {
        copyToHost(stream, src.pointer(), dst, src.tensor());
    }

    /** f32 values to the device: {@link #copyToDevice(DeviceStream, byte[], KernelArg)} of their bytes. */
    default void copyToDevice(DeviceStream stream, float[] src, KernelArg dst) {
        copyToDevice(stream, org.arenaplan.ir.TensorValue.ofFloats(null, src).bytes(), dst);
    }

    /** {@code dst.length} f32 values from the device: {@link #copyToHost(DeviceStream, KernelArg, byte[])} of their bytes. */
    default void copyToHost(DeviceStream stream, KernelArg src, float[] dst) {
        byte[] b = new byte[Math.multiplyExact(4, dst.length)];
        copyToHost(stream, src, b);
        java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(dst);
    }

    /** f32 values to the device (see {@link #copyToDevice(DeviceStream, float[], KernelArg)}). */
    default void copyToDevice(DeviceStream stream, float[] src, DevicePointer dst, String tensor) {
        copyToDevice(stream, src, KernelArg.write(dst, 4L * src.length, tensor));
    }

    /** f32 values from the device (see {@link #copyToHost(DeviceStream, KernelArg, float[])}). */
    default void copyToHost(DeviceStream stream, DevicePointer src, float[] dst, String tensor) {
        copyToHost(stream, KernelArg.read(src, 4L * dst.length, tensor), dst);
    }

    /** Queues a device-to-device copy of {@code bytes} on {@code stream}. */
    void copyOnDevice(DeviceStream stream, DevicePointer src, DevicePointer dst, long bytes, String tensor);

    /**
     * Starts capturing {@code origin} ({@code cuStreamBeginCapture}, thread-local mode; CUDA
     * Programming Guide, "CUDA Graphs", stream capture). From now on, work issued to a capturing
     * stream is recorded, not run; a stream joins the capture when it waits on an event recorded
     * on a capturing stream. Until {@link #endCapture}, the capturing thread may make no call that
     * synchronises or allocates ({@link #allocate}, {@link #free}, the async pair, host copies,
     * {@link #synchronize}): they throw {@link DeviceException}.
     *
     * @throws DeviceException where the device cannot capture (the default), or a capture is already running
     */
    default void beginCapture(DeviceStream origin) {
        throw new DeviceException(name() + " device cannot capture streams into a graph");
    }

    /**
     * Ends the capture begun on {@code origin} and instantiates it ({@code cuStreamEndCapture},
     * {@code cuGraphInstantiate}). Every stream that joined must have been joined back: its last
     * captured work is followed by an event record that {@code origin} waits on.
     *
     * @throws DeviceException when no capture runs on {@code origin}, or a joined stream was not joined back
     *                         ({@code CUDA_ERROR_STREAM_CAPTURE_UNJOINED}); the capture is ended either way
     */
    default DeviceGraph endCapture(DeviceStream origin) {
        throw new DeviceException(name() + " device cannot capture streams into a graph");
    }

    /**
     * Queues one replay of {@code graph} on {@code stream} ({@code cuGraphLaunch}): it starts after
     * the work issued to {@code stream} before, and work issued to {@code stream} after it starts
     * after all of the graph's work. Replays of one graph run one after the other.
     */
    default void launchGraph(DeviceGraph graph, DeviceStream stream) {
        throw new DeviceException(name() + " device cannot launch graphs");
    }

    /**
     * Device memory this process holds now, in bytes, as the device sees it: on CUDA the fall of
     * free memory ({@code cuMemGetInfo}) since the device opened, which includes the driver's
     * rounding, pool caches and driver-internal allocations; on the simulator its model of them.
     * -1 where not known. May cost a driver call: not for timed loops.
     */
    default long heldBytes() {
        return -1;
    }

    /** Blocks until every stream is idle ({@code cuCtxSynchronize}). */
    void synchronize();

    /** A snapshot of the counters since the device opened (peaks since the last {@link #resetPeaks()}). */
    DeviceCounters counters();

    /** Starts a new peak measurement at the current live and reserved bytes. */
    void resetPeaks();

    /**
     * Waits for all streams, frees everything, closes streams and events. Throws
     * {@link DeviceLeakException} naming every allocation that was still live (after freeing it).
     */
    @Override
    void close();
}
