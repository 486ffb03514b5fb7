package org.arenaplan.sim;

import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceProvider;

/** The simulator as a {@link DeviceProvider}: always available, lowest priority for {@code auto}. */
public final class SimDeviceProvider implements DeviceProvider {
    @Override public String name() { return "sim"; }

    @Override public int priority() { return 0; }

    @Override public boolean isAvailable() { return true; }

    @Override public String unavailabilityCause() { return null; }

    @Override
    public Device open(DeviceOptions options) {
        return SimDevice.open(options);
    }
}
