package org.arenaplan.sim;

import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceLeakException;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.Devices;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimDeviceTest {

    private static KernelCall copy(String label, DeviceBuffer from, String src, DeviceBuffer to, String dst) {
        return new KernelCall(Kernels.COPY, List.of(KernelArg.read(from.base(), 64, src), KernelArg.write(to.base(), 64, dst)),
                new long[]{16, 4}, new double[0], label);
    }

    @Test
    void closingWithLiveAllocationsReportsEachOwner() {
        SimDevice d = SimDevice.open(DeviceOptions.DEFAULT);
        d.allocate(128, "arena of test");
        DeviceBuffer freed = d.allocate(64, "freed one");
        freed.close();
        assertThatThrownBy(d::close).isInstanceOf(DeviceLeakException.class)
                .hasMessageContaining("arena of test (128 B)").hasMessageNotContaining("freed one");
    }

    @Test
    void aRaceIsNamedWithTensorReaderWritersAndStreams() {
        // Stream A writes 'x' then, issued later, overwrites it with 'y'; stream B reads 'x' without waiting.
        SimDevice d = SimDevice.tracing();
        DeviceStream a = d.createStream("A"), b = d.createStream("B");
        DeviceBuffer src = d.allocate(64, "src"), buf = d.allocate(64, "buf"), out = d.allocate(64, "out");
        DeviceEvent e = d.createEvent();
        d.launch(a, copy("produce", src, "s", buf, "x"));
        d.recordEvent(e, a);
        d.waitEvent(b, e);
        d.launch(b, copy("consume", buf, "x", out, "o"));
        d.launch(a, copy("overwrite", src, "s", buf, "y"));
        Interleavings.Result r = Interleavings.explore(d.recorded(), 1000);
        assertThat(r.hazard()).isNotNull();
        assertThat(r.hazard().getMessage()).contains("premature reuse", "'consume' (stream B)", "reads x",
                "expecting the write of 'produce' (writing x, stream A)", "overwritten by 'overwrite' (writing y, stream A)");
        assertThat(r.hazard().found().tensor()).isEqualTo("y");
    }

    @Test
    void theSameRaceOrderedByAnEventIsProvenSafe() {
        SimDevice d = SimDevice.tracing();
        DeviceStream a = d.createStream("A"), b = d.createStream("B");
        DeviceBuffer src = d.allocate(64, "src"), buf = d.allocate(64, "buf"), out = d.allocate(64, "out");
        DeviceEvent produced = d.createEvent(), consumed = d.createEvent();
        d.launch(a, copy("produce", src, "s", buf, "x"));
        d.recordEvent(produced, a);
        d.waitEvent(b, produced);
        d.launch(b, copy("consume", buf, "x", out, "o"));
        d.recordEvent(consumed, b);
        d.waitEvent(a, consumed);
        d.launch(a, copy("overwrite", src, "s", buf, "y"));
        Interleavings.Result r = Interleavings.explore(d.recorded(), 1000);
        assertThat(r.hazard()).isNull();
        assertThat(r.complete()).isTrue();
    }

    @Test
    void aLiveRaceIsCaught() {
        // B is busy with a long gemm when 'consume' is queued; A overwrites the bytes meanwhile.
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream a = d.createStream("A"), b = d.createStream("B");
            int n = 400;
            DeviceBuffer big = d.allocate(4L * n * n, "big"), big2 = d.allocate(4L * n * n, "big2");
            DeviceBuffer src = d.allocate(64, "src"), buf = d.allocate(64, "buf"), out = d.allocate(64, "out");
            d.launch(a, copy("produce", src, "s", buf, "x"));
            a.synchronize();
            d.launch(b, new KernelCall(Kernels.GEMM, List.of(KernelArg.read(big.base(), 4L * n * n, "m"), KernelArg.read(big.base(), 4L * n * n, "m"),
                    KernelArg.write(big2.base(), 4L * n * n, "m2")), new long[]{1, n, n, n, 0, 0, 0, 0, 0, 0, 0, 0}, new double[]{1, 0}, "slow"));
            d.launch(b, copy("consume", buf, "x", out, "o"));
            d.launch(a, copy("overwrite", src, "s", buf, "y"));
            assertThatThrownBy(d::synchronize).isInstanceOf(PrematureReuseException.class).hasMessageContaining("'consume' (stream B)");
            for (DeviceBuffer x : List.of(big, big2, src, buf, out)) x.close();
        }
    }

    @Test
    void aLaunchMayOverwriteItsInputOnlyInPlaceAndExactly() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream s = d.createStream("S");
            DeviceBuffer buf = d.allocate(128, "buf");
            d.copyToDevice(s, new float[32], KernelArg.write(buf.base(), 128, "x"));
            d.launch(s, new KernelCall(Kernels.UNARY, List.of(KernelArg.read(buf.base(), 128, "x"), KernelArg.write(buf.base(), 128, "y")),
                    new long[]{32, Kernels.RELU, 1}, new double[0], "relu in place"));
            d.synchronize();
            assertThat(d.hazards()).isEmpty();
            d.launch(s, new KernelCall(Kernels.GEMM, List.of(KernelArg.read(buf.base(), 64, "y"), KernelArg.read(buf.base(), 64, "y"),
                    KernelArg.write(buf.at(32), 64, "z")), new long[]{1, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0}, new double[]{1, 0}, "gemm over its input"));
            assertThatThrownBy(d::synchronize).isInstanceOf(PrematureReuseException.class)
                    .hasMessageContaining("'gemm over its input' (writing z, stream S) overwrites bytes [32, 64)")
                    .hasMessageContaining("which the same launch reads (kernel gemm");
            buf.close();
        }
    }

    @Test
    void copiesMoveBytesBetweenHostAndDeviceAndWithinTheDevice() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream s = d.createStream("S");
            DeviceBuffer a = d.allocate(64, "a"), b = d.allocate(64, "b");
            float[] in = new float[16];
            for (int i = 0; i < 16; i++) in[i] = i * 0.5f;
            d.copyToDevice(s, in, a.base(), "x");
            d.copyOnDevice(s, a.base(), b.base(), 64, "x");
            float[] out = new float[16];
            d.copyToHost(s, b.base(), out, "x");
            assertThat(out).containsExactly(in);
            assertThat(d.hazards()).isEmpty();
            a.close();
            b.close();
        }
    }

    @Test
    void poolReusesAcrossStreamsOnlyWhenOrdered() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream a = d.createStream("A"), b = d.createStream("B");
            DeviceBuffer x = d.allocateAsync(1000, a, "x");
            d.freeAsync(x, a);
            DeviceBuffer sameStream = d.allocateAsync(1000, a, "y");
            assertThat(block(sameStream)).as("same stream: the cached block at once").isSameAs(block(x));
            d.freeAsync(sameStream, a);
            a.synchronize();
            DeviceBuffer otherStream = d.allocateAsync(1000, b, "z");   // the free completed: may reuse
            d.freeAsync(otherStream, b);
            assertThat(d.counters().allocatorCalls()).isEqualTo(6);
        }
        SimDevice traced = SimDevice.tracing();   // nothing completes: another stream may not reuse
        DeviceStream a = traced.createStream("A"), b = traced.createStream("B");
        DeviceBuffer x = traced.allocateAsync(1000, a, "x");
        traced.freeAsync(x, a);
        DeviceBuffer y = traced.allocateAsync(1000, b, "y");
        assertThat(block(y)).isNotSameAs(block(x));
        traced.freeAsync(y, b);
    }

    private static SimBlock block(DeviceBuffer b) {
        return ((SimBuffer) b).block;
    }

    @Test
    void heldBytesModelTheDriversPagesAndThePoolsCache() {
        long mib = 1 << 20;
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream s = d.createStream("s");
            DeviceBuffer small1 = d.allocate(1000, "small1"), small2 = d.allocate(3000, "small2");
            assertThat(d.heldBytes()).as("two small allocations share one 2 MiB page").isEqualTo(2 * mib);
            DeviceBuffer large = d.allocate(3 * mib + 1, "large");
            assertThat(d.heldBytes()).as("a large one rounds up to 2 MiB pages").isEqualTo(2 * mib + 4 * mib);
            assertThat(d.counters().liveBytes()).isEqualTo(1000 + 3000 + 3 * mib + 1);
            small1.close();
            assertThat(d.heldBytes()).as("the page stays while small2 lives").isEqualTo(6 * mib);
            small2.close();
            large.close();
            assertThat(d.heldBytes()).isZero();
            DeviceBuffer p = d.allocateAsync(5000, s, "pooled");
            d.freeAsync(p, s);
            assertThat(d.heldBytes()).as("the pool caches the freed block").isEqualTo(2 * mib);
            assertThat(d.counters().liveBytes()).isZero();
            s.synchronize();
            assertThat(d.heldBytes()).as("release threshold 0: given back at the synchronization").isZero();
            assertThat(d.counters().peakReservedBytes()).isEqualTo(6 * mib);
        }
    }

    @Test
    void autoPicksAnAvailableDeviceAndSaysWhich() {
        Devices.Choice c = Devices.open("sim", DeviceOptions.DEFAULT);
        try (var d = c.device()) {
            assertThat(d.name()).isEqualTo("sim");
        }
        Devices.Choice auto = Devices.open("auto", DeviceOptions.DEFAULT);
        try (var d = auto.device()) {
            assertThat(auto.reason()).contains("auto picked '" + d.name() + "'");
        }
        assertThatThrownBy(() -> Devices.open("tpu", DeviceOptions.DEFAULT)).hasMessageContaining("unknown device 'tpu'");
    }

    /**
     * A kernel argument past one host array (2 GiB, as NonZero's upper bound int64 [16, 3^16] of a
     * 43 MB bool input reaches) is memory the simulator does not have: exit 3 naming the op and the
     * argument. It was an IllegalArgumentException from the allocation, an internal error (exit 1).
     */
    @Test
    void aKernelArgumentPastOneHostArrayIsOutOfMemoryNamingTheOp() {
        long big = 16L * 43_046_721 * 8;
        DeviceBuffer fake = new DeviceBuffer() {   // never allocated: the refusal comes before any byte is
            @Override public long bytes() { return big; }
            @Override public String owner() { return "test"; }
            @Override public boolean isLive() { return true; }
            @Override public void close() { }
        };
        KernelCall c = new KernelCall(Kernels.NONZERO, List.of(KernelArg.write(fake.at(0), big, "y")), new long[0], new double[0], "nz");
        assertThatThrownBy(() -> SimKernels.out(c, 0)).isInstanceOf(org.arenaplan.device.DeviceOutOfMemoryException.class)
                .hasMessage("'nz': kernel nonzero: argument y of 5,509,980,288 B is more than the simulator's kernels hold in one host array (2 GiB)");
    }
}
