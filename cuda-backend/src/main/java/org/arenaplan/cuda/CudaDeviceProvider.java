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

    /** "no NVIDIA driver (libcuda.so.1 not found)" rather than the loader's paths; {@code doctor} prints them. */
    @Override
    public String unavailabilityBrief() {
        String full = unavailabilityCause();
        if (full == null) return null;
        if (full.startsWith("the CUDA driver library") && full.contains("libcuda.so.1: cannot open shared object file"))
            return "no NVIDIA driver here (libcuda.so.1 not found; 'arenaplan doctor' explains)";
        return full.length() <= 120 ? full : full.substring(0, 117) + "... ('arenaplan doctor' explains)";
    }

    @Override
    public Device open(DeviceOptions options) {
        return new CudaDevice(options.ordinal(), options.tf32());
    }
}
