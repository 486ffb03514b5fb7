package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceCounters;
import org.arenaplan.device.DeviceStream;
import org.junit.jupiter.api.Test;

/** 1,000 rounds of every allocation mode: no growth of held device memory beyond the driver's granularity ({@link LeakWatch}). */
@GpuTest
class LeakGpuTest {

    @Test
    void thousandRoundsOfEveryAllocatorLeakNothing() {
        try (CudaDevice device = new CudaDevice(0); DeviceStream s = device.createStream("leak")) {
            round(device, s, 0);   // one round first: the driver sets up the pool and the kernels lazily
            LeakWatch watch = new LeakWatch(device);
            for (int i = 1; i <= 1000; i++) {
                round(device, s, i);
                if (i % 100 == 0) watch.checkpoint();
            }
            DeviceCounters c = device.counters();
            assertThat(c.liveBytes()).isZero();
            assertThat(c.allocations()).isEqualTo(c.frees()).isEqualTo(2002);
            assertThat(c.asyncAllocations()).isEqualTo(c.asyncFrees()).isEqualTo(1001);
            watch.assertNoGrowth("1,000 allocator rounds");
        }
    }

    private static void round(CudaDevice device, DeviceStream s, int i) {
        device.allocate(1 << 20, "arena").close();
        DeviceBuffer a = device.allocate(4096 + i, "per-tensor");
        device.free(a);
        DeviceBuffer p = device.allocateAsync(8192 + i, s, "pool");
        device.freeAsync(p, s);
    }
}
