package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import jcuda.driver.CUdeviceptr;
import org.arenaplan.device.DeviceCounters;
import org.junit.jupiter.api.Test;

/** The CUDA device's accounting, without a GPU (a CUdeviceptr is a plain Java object until used). */
class AllocationLedgerTest {

    @Test
    void countsEveryCallAndNamesWhatIsStillLive() {
        AllocationLedger ledger = new AllocationLedger();
        CudaBuffer arena = new CudaBuffer(null, new CUdeviceptr(), 1000, "arena", false);
        CudaBuffer pooled = new CudaBuffer(null, new CUdeviceptr(), 300, "storage 'h'", true);
        ledger.allocated(arena);
        ledger.allocated(pooled);
        ledger.launched();
        ledger.freed(pooled, true);
        ledger.resetPeaks();
        DeviceCounters c = ledger.counters();
        assertThat(c.allocations()).isEqualTo(1);
        assertThat(c.asyncAllocations()).isEqualTo(1);
        assertThat(c.asyncFrees()).isEqualTo(1);
        assertThat(c.frees()).isZero();
        assertThat(c.allocatorCalls()).isEqualTo(3);
        assertThat(c.launches()).isEqualTo(1);
        assertThat(c.liveBytes()).isEqualTo(1000);
        assertThat(c.peakLiveBytes()).as("peak restarts at the live bytes").isEqualTo(1000);
        assertThat(ledger.live()).extracting(CudaBuffer::toString).containsExactly("arena (1000 B)");
    }
}
