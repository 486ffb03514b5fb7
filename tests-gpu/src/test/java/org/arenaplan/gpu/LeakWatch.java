package org.arenaplan.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.arenaplan.cuda.CudaDevice;

/**
 * Leak check on free device memory ({@code cuMemGetInfo}) that tolerates the driver's granularity
 * but not growth: checkpoints taken during a long loop (after the device is synchronized) may
 * move by at most one allocation granularity (a page the driver's suballocator keeps or lets go)
 * from the first checkpoint, and the last may not exceed the first by more than that. So a
 * loop of 1,000 runs is caught when it leaks more than granularity / 900 bytes per run (about
 * 2.3 KiB with 2 MiB pages); the allocation ledger catches any leak of arenaplan's own exactly.
 */
final class LeakWatch {
    private final CudaDevice cuda;
    private final long granularity;
    private final List<Long> held = new ArrayList<>();

    LeakWatch(CudaDevice cuda) {
        this.cuda = cuda;
        this.granularity = cuda.allocationGranularity();
    }

    /** Synchronizes the device and notes the held bytes. */
    void checkpoint() {
        cuda.synchronize();
        held.add(cuda.heldBytes());
    }

    void assertNoGrowth(String what) {
        assertThat(held).as(what + ": checkpoints").hasSizeGreaterThanOrEqualTo(2);
        long first = held.get(0);
        System.out.println("[gpu tests] " + what + ": device memory held at each checkpoint " + held + " B (granularity " + granularity + " B)");
        for (long h : held) assertThat(h - first).as(what + ": held bytes against the first checkpoint " + held).isLessThanOrEqualTo(granularity);
        assertThat(held.get(held.size() - 1) - first).as(what + ": growth over the loop").isLessThanOrEqualTo(granularity);
    }
}
