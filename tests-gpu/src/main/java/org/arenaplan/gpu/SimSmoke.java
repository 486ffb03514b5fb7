package org.arenaplan.gpu;

import java.io.PrintStream;
import java.util.List;
import org.arenaplan.device.Device;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.Devices;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

/**
 * Proves a packed runtime can run the simulator: y = relu(a) on stream 1, z = y + b on stream 2
 * after an event, with random launch delays, compared with values computed here by hand.
 */
final class SimSmoke {
    private SimSmoke() { }

    static boolean run(PrintStream out) {
        Devices.Choice choice = Devices.open("sim", DeviceOptions.DEFAULT.withMaxDelayNanos(200_000));
        float[] a = {-2, -1, 0, 1, 2, 3}, b = {10, 20, 30, 40, 50, 60};
        float[] want = {10, 20, 30, 41, 52, 63};
        float[] got = new float[6];
        try (Device d = choice.device(); DeviceStream s1 = d.createStream("s1"); DeviceStream s2 = d.createStream("s2");
             DeviceEvent relued = d.createEvent()) {
            DeviceBuffer arena = d.allocate(3 * 32, "smoke arena");
            KernelArg ka = KernelArg.read(arena.at(0), 24, "a"), kb = KernelArg.read(arena.at(32), 24, "b");
            d.copyToDevice(s1, a, arena.at(0), "a");
            d.copyToDevice(s2, b, arena.at(32), "b");
            d.launch(s1, new KernelCall(Kernels.UNARY, List.of(ka, KernelArg.write(arena.at(64), 24, "y")), new long[] {6, Kernels.RELU, 1}, new double[0], "relu"));
            d.recordEvent(relued, s1);
            d.waitEvent(s2, relued);
            // z overwrites a's slot: a's last reader (relu) is ordered before it by the event.
            d.launch(s2, new KernelCall(Kernels.BINARY, List.of(KernelArg.read(arena.at(64), 24, "y"), kb, KernelArg.write(arena.at(0), 24, "z")),
                    new long[] {Kernels.ADD, 1, 6, 1, 1, 1}, new double[0], "add"));
            d.copyToHost(s2, arena.at(0), got, "z");
            arena.close();
            out.println("sim run on " + d.description() + " (" + choice.reason() + "): z = " + java.util.Arrays.toString(got));
        }
        boolean ok = java.util.Arrays.equals(got, want);
        out.println(ok ? "sim run ok" : "sim run WRONG: expected " + java.util.Arrays.toString(want));
        return ok;
    }
}
