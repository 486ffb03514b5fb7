package org.arenaplan.gpu;

import org.arenaplan.cuda.CudaDevice;
import org.arenaplan.device.ForwardingDevice;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceStream;

/**
 * A CUDA device that fills every allocation with NaN when it is handed out and again just before
 * it is freed (ordered on the freeing stream), so that a read of memory a run does not own shows
 * up as NaN in the outputs instead of a plausible stale value.
 */
final class PoisoningDevice extends ForwardingDevice {
    static final int NAN_BITS = Float.floatToRawIntBits(Float.NaN);
    private final CudaDevice cuda;
    private final DeviceStream poisonStream;

    PoisoningDevice(CudaDevice cuda) {
        super(cuda);
        this.cuda = cuda;
        this.poisonStream = cuda.createStream("poison");
    }

    private void poisonNow(DeviceBuffer b) {
        cuda.fill(poisonStream, b.base(), b.bytes() / 4 * 4, NAN_BITS);
        poisonStream.synchronize();
    }

    @Override
    public DeviceBuffer allocate(long bytes, String owner) {
        DeviceBuffer b = super.allocate(bytes, owner);
        poisonNow(b);
        return b;
    }

    @Override
    public DeviceBuffer allocateAsync(long bytes, DeviceStream stream, String owner) {
        DeviceBuffer b = super.allocateAsync(bytes, stream, owner);
        cuda.fill(stream, b.base(), b.bytes() / 4 * 4, NAN_BITS);
        return b;
    }

    @Override
    public void free(DeviceBuffer buffer) {
        cuda.synchronize();   // the SPI's free waits for every stream: poison only after the last access
        poisonNow(buffer);
        super.free(buffer);
    }

    @Override
    public void freeAsync(DeviceBuffer buffer, DeviceStream stream) {
        cuda.fill(stream, buffer.base(), buffer.bytes() / 4 * 4, NAN_BITS);
        super.freeAsync(buffer, stream);
    }

    @Override
    public void close() {
        poisonStream.close();
        super.close();
    }
}
