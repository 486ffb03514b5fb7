package org.arenaplan.gpu;

import java.util.List;
import java.util.Random;
import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.ForwardingDevice;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;

/**
 * The GPU twin of the simulator's random launch delays: before a seeded random share of launches,
 * queues on the same stream a spin of random length ({@code slow_copy} of one value between two
 * scratch words, up to {@code maxCycles} clock cycles), so that the streams' work interleaves
 * differently than the test kernels' microseconds would let it. A missing event then shows as
 * different outputs instead of passing unnoticed. Spins are counted as launches.
 */
final class JitterDevice extends ForwardingDevice {
    private final Random random;
    private final double share;
    private final long maxCycles;
    private final DeviceBuffer scratch;

    JitterDevice(CudaDevice cuda, long seed, double share, long maxCycles) {
        super(cuda);
        this.random = new Random(seed);
        this.share = share;
        this.maxCycles = maxCycles;
        this.scratch = cuda.allocate(8, "jitter scratch");
    }

    @Override
    public void launch(DeviceStream stream, KernelCall call) {
        long cycles;
        synchronized (random) {
            cycles = random.nextDouble() < share ? 1 + (long) (random.nextDouble() * maxCycles) : 0;
        }
        if (cycles > 0) {
            super.launch(stream, new KernelCall(CudaDevice.SLOW_COPY, List.of(KernelArg.read(scratch.at(0), 4, "jitter"),
                    KernelArg.write(scratch.at(4), 4, "jitter")), new long[] {1, cycles}, new double[0], "jitter before " + call.label()));
        }
        super.launch(stream, call);
    }

    @Override
    public void close() {
        scratch.close();
        super.close();
    }
}
