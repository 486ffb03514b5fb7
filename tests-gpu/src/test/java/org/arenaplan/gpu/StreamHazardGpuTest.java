package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.junit.jupiter.api.Test;

/**
 * Premature reuse made real: a slow reader of X on one stream, and a writer reusing X's bytes on
 * another. With the event the sync plan would place (record after the reader, wait before the
 * writer) the reader sees the old values; without it the writer overtakes the reader and the
 * output is corrupted, which is what the simulator's version check flags.
 */
@GpuTest
class StreamHazardGpuTest {
    private static final int N = 1 << 16;
    private static final long SLOW = 400_000_000L;   // clock cycles, about 0.2 s on a 2 GHz GPU

    private static float[] runReaderAndWriter(boolean guarded) {
        try (CudaDevice device = new CudaDevice(0);
             DeviceStream readerStream = device.createStream("reader");
             DeviceStream writerStream = device.createStream("writer");
             DeviceEvent readDone = device.createEvent()) {
            float[] old = new float[N], fresh = new float[N];
            Arrays.fill(old, 1f);
            Arrays.fill(fresh, 2f);
            DeviceBuffer x = device.allocate(4L * N, "x (shared slot)");
            DeviceBuffer y = device.allocate(4L * N, "y (reader output)");
            DeviceBuffer z = device.allocate(4L * N, "z (writer input)");
            device.copyToDevice(readerStream, old, x.base(), "x");
            device.copyToDevice(writerStream, fresh, z.base(), "z");
            device.launch(readerStream, new KernelCall(CudaDevice.SLOW_COPY,
                    List.of(KernelArg.read(x.base(), 4L * N, "x"), KernelArg.write(y.base(), 4L * N, "y")), new long[] {N, SLOW}, new double[0], "slow reader"));
            if (guarded) {
                device.recordEvent(readDone, readerStream);
                device.waitEvent(writerStream, readDone);
            }
            device.launch(writerStream, new KernelCall(Kernels.COPY,
                    List.of(KernelArg.read(z.base(), 4L * N, "z"), KernelArg.write(x.base(), 4L * N, "x reused")), new long[] {N, 4}, new double[0], "writer"));
            float[] out = new float[N];
            device.copyToHost(readerStream, y.base(), out, "y");
            device.synchronize();
            x.close();
            y.close();
            z.close();
            return out;
        }
    }

    @Test
    void guardedPlanReadsTheOldValues() {
        float[] out = runReaderAndWriter(true);
        for (float v : out) assertThat(v).isEqualTo(1f);
    }

    @Test
    void unguardedReuseCorruptsTheReader() {
        float[] out = runReaderAndWriter(false);
        long corrupted = 0;
        for (float v : out) if (v == 2f) corrupted++;
        System.out.println("[gpu tests] unguarded reuse: " + corrupted + " of " + N + " values overwritten before the slow reader read them");
        assertThat(corrupted).as("the writer on the other stream overtakes the slow reader").isPositive();
    }
}
