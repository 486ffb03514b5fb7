package org.arenaplan.cuda;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceProvider;

/** {@code cuda} for {@link org.arenaplan.device.Devices}: priority 100, so {@code auto} prefers it where {@link Cuda#isAvailable()}. */
public final class CudaDeviceProvider implements DeviceProvider {
    @Override
    public String name() { return "cuda"; }

    @Override
    public int priority() { return 100; }

    @Override
    public boolean isAvailable() { return Cuda.isAvailable(); }

    @Override
    public String unavailabilityCause() {
        Throwable t = Cuda.unavailabilityCause();
        return t == null ? null : t.getMessage();
    }

    @Override
    public Device open(DeviceOptions options) {
        return new CudaDevice(options.ordinal());
    }
}
