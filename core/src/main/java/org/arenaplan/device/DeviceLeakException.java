package org.arenaplan.device;

import java.util.List;

/** Thrown by {@link Device#close()} when allocations were still live; lists each one. */
public final class DeviceLeakException extends DeviceException {
    private final List<String> leaks;

    public DeviceLeakException(String device, List<String> leaks) {
        super(device + " closed with " + leaks.size() + " live allocation(s): " + String.join("; ", leaks));
        this.leaks = List.copyOf(leaks);
    }

    /** One entry per leaked allocation: owner and size. */
    public List<String> leaks() {
        return leaks;
    }
}
