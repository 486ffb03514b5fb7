package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;
import org.arenaplan.ir.OpRegistry;
import org.arenaplan.ir.OpSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The registry's kernel names are real: each is a kernel of the device convention that the
 * simulator implements (the CUDA backend's tests check its table and fatbin the same way), and
 * an op kind may run in place exactly when every kernel it lowers to works in place.
 */
class RegistryKernelsTest {

    @Test
    void everyRegistryKernelIsInTheConventionAndTheSimulator() {
        List<String> known = new java.util.ArrayList<>(Kernels.ALL);
        known.addAll(Kernels.SIM_ONLY);   // empty today: a kernel the CUDA fatbin lacks (not in ALL, which every device implements)
        assertThat(known).containsAll(OpRegistry.kernels());
        assertThat(Kernels.ALL).containsAll(Kernels.TRAINING);
        for (String k : OpRegistry.kernels()) {
            // No arguments: a known kernel complains about its arguments, an unknown one about its name.
            KernelCall empty = new KernelCall(k, List.of(), new long[40], new double[4], "probe");
            assertThatThrownBy(() -> SimKernels.bind(empty)).as(k).isInstanceOf(DeviceException.class)
                    .hasMessageNotContaining("unknown kernel");
        }
    }

    @Test
    void aKindRunsInPlaceExactlyWhenItsKernelsDo() {
        for (OpSpec o : OpRegistry.all()) {
            boolean kernelsInPlace = Kernels.IN_PLACE.containsAll(o.kernels());
            if (o.runsInPlace()) assertThat(kernelsInPlace).as(o.kind()).isTrue();
            // IsNaN and IsInf write bool from a float: the output never has the input's bytes, whatever the kernel allows
            boolean typeChanges = o.kind().equals("IsNaN") || o.kind().equals("IsInf");
            if (o.view() == OpSpec.ViewRule.NONE && !typeChanges) assertThat(o.runsInPlace()).as(o.kind()).isEqualTo(kernelsInPlace);
        }
    }
}
