package org.arenaplan.gpu;

import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.ForwardingDevice;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

/** A CUDA device that runs the {@code copy} of the op named {@code slowOp} as the slow test kernel (same result, much later). */
final class SlowReaderDevice extends ForwardingDevice {
    private final String slowOp;
    private final long cycles;

    SlowReaderDevice(CudaDevice cuda, String slowOp, long cycles) {
        super(cuda);
        this.slowOp = slowOp;
        this.cycles = cycles;
    }

    @Override
    public void launch(DeviceStream stream, KernelCall call) {
        if (call.label().equals(slowOp) && call.name().equals(Kernels.COPY) && call.intArg(1) == 4) {   // slow_copy moves f32
            call = new KernelCall(CudaDevice.SLOW_COPY, call.pointers(), new long[] {call.intArg(0), cycles}, new double[0], call.label());
        }
        super.launch(stream, call);
    }
}
