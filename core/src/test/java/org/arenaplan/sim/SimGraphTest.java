package org.arenaplan.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.arenaplan.device.DeviceBuffer;
import org.arenaplan.device.DeviceEvent;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.DeviceGraph;
import org.arenaplan.device.DeviceOptions;
import org.arenaplan.device.DeviceStream;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.junit.jupiter.api.Test;

/** The simulator's stream capture follows CUDA's rules, and a graph replays what was captured. */
class SimGraphTest {
    private static KernelCall relu(DeviceBuffer from, DeviceBuffer to, int n) {
        return new KernelCall(Kernels.UNARY, List.of(KernelArg.read(from.base(), 4L * n, "x"), KernelArg.write(to.base(), 4L * n, "y")),
                new long[] {n, Kernels.RELU, 1}, new double[0], "relu");
    }

    @Test
    void aCapturedForkJoinReplaysOnEveryLaunchAndNothingRunsAtCapture() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT.withMaxDelayNanos(50_000))) {
            DeviceStream a = d.createStream("a"), b = d.createStream("b");
            DeviceEvent fork = d.createEvent(), join = d.createEvent();
            DeviceBuffer x = d.allocate(16, "x"), y = d.allocate(16, "y"), z = d.allocate(16, "z");
            d.copyToDevice(a, new float[] {-1, 2, -3, 4}, x.base(), "x");
            d.beginCapture(a);
            d.recordEvent(fork, a);
            d.waitEvent(b, fork);                 // b joins the capture
            d.launch(b, relu(x, y, 4));
            d.recordEvent(join, b);
            d.waitEvent(a, join);                 // and is joined back
            d.copyOnDevice(a, y.base(), z.base(), 16, "y");
            DeviceGraph g = d.endCapture(a);
            assertThat(g.workNodes()).isEqualTo(2);
            assertThat(g.streams()).isEqualTo(2);
            assertThat(d.counters().launches()).as("capture runs nothing").isZero();
            float[] out = new float[4];
            for (int i = 0; i < 3; i++) {
                d.launchGraph(g, a);
                d.copyToHost(a, z.base(), out, "y");
                assertThat(out).containsExactly(0, 2, 0, 4);
            }
            assertThat(d.counters().launches()).isEqualTo(3);
            assertThat(d.hazards()).isEmpty();
            g.close();
            x.close();
            y.close();
            z.close();
        }
    }

    @Test
    void aStreamNotJoinedBackEndsTheCaptureWithAnError() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream a = d.createStream("a"), b = d.createStream("b");
            DeviceEvent fork = d.createEvent();
            DeviceBuffer x = d.allocate(16, "x"), y = d.allocate(16, "y");
            d.beginCapture(a);
            d.recordEvent(fork, a);
            d.waitEvent(b, fork);
            d.launch(b, relu(x, y, 4));
            assertThatThrownBy(() -> d.endCapture(a)).isInstanceOf(DeviceException.class).hasMessageContaining("not joined back");
            d.beginCapture(a);   // the failed end still ended the capture
            d.endCapture(a).close();
            x.close();
            y.close();
        }
    }

    @Test
    void aCapturingThreadMayNotAllocateOrSynchronize() {
        try (SimDevice d = SimDevice.open(DeviceOptions.DEFAULT)) {
            DeviceStream a = d.createStream("a");
            d.beginCapture(a);
            assertThatThrownBy(() -> d.allocate(64, "arena")).hasMessageContaining("cuMemAlloc").hasMessageContaining("capturing");
            assertThatThrownBy(() -> d.allocateAsync(64, a, "t")).hasMessageContaining("cuMemAllocAsync");
            assertThatThrownBy(d::synchronize).hasMessageContaining("cuCtxSynchronize");
            assertThatThrownBy(() -> d.beginCapture(a)).hasMessageContaining("already capturing");
            d.endCapture(a).close();
            d.allocate(64, "after").close();
        }
    }
}
