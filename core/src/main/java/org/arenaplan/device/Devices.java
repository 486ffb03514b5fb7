package org.arenaplan.device;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** Picks a device by name: {@code auto} (the available provider of highest priority), {@code sim}, {@code cuda}. */
public final class Devices {
    /** An opened device and one line saying why it was chosen. */
    public record Choice(Device device, String reason) { }

    private Devices() { }

    public static List<DeviceProvider> providers() {
        List<DeviceProvider> all = new ArrayList<>();
        ServiceLoader.load(DeviceProvider.class).forEach(all::add);
        all.sort(Comparator.comparingInt(DeviceProvider::priority).reversed());
        return all;
    }

    /**
     * Opens the device called {@code name}, or for {@code auto} the available one of highest priority.
     *
     * @throws DeviceUnavailableException when the named device (or, for auto, every device) is unavailable; the message gives the probe's cause
     * @throws DeviceException            for an unknown name
     */
    public static Choice open(String name, DeviceOptions options) {
        List<DeviceProvider> all = providers();
        if ("auto".equals(name)) {
            StringBuilder skipped = new StringBuilder();
            for (DeviceProvider p : all) {
                if (p.isAvailable()) {
                    return new Choice(p.open(options), "auto picked '" + p.name() + "'" + (skipped.length() == 0 ? "" : " (" + skipped + ")"));
                }
                if (skipped.length() > 0) skipped.append("; ");
                skipped.append(p.name()).append(" unavailable: ").append(p.unavailabilityBrief());
            }
            throw new DeviceUnavailableException("no device available" + (skipped.length() == 0 ? "" : ": " + skipped));
        }
        for (DeviceProvider p : all) {
            if (!p.name().equals(name)) continue;
            if (!p.isAvailable()) throw new DeviceUnavailableException("device '" + name + "' is not available: " + p.unavailabilityCause());
            return new Choice(p.open(options), "device '" + name + "' as requested");
        }
        List<String> names = all.stream().map(DeviceProvider::name).toList();
        throw new DeviceException("unknown device '" + name + "'; known: auto, " + String.join(", ", names));
    }
}
