package org.arenaplan.device;

import java.util.Arrays;
import java.util.List;

/**
 * One kernel launch: a kernel name from {@link Kernels}, pointer arguments (inputs first, the
 * output last), integer and float scalars in the layout documented per name in {@link Kernels}.
 * {@code label} says which op issued it (for messages and traces).
 */
public record KernelCall(String name, List<KernelArg> pointers, long[] ints, double[] floats, String label) {
    public KernelCall {
        pointers = List.copyOf(pointers);
        ints = ints.clone();
        floats = floats.clone();
    }

    /** Pointer argument i (0-based; inputs first, the output last). */
    public KernelArg pointer(int i) {
        return pointers.get(i);
    }

    /** Integer scalar i (0-based), in the unit {@link Kernels} gives for this kernel's slot i (elements, dims, codes). */
    public long intArg(int i) {
        return ints[i];
    }

    /** Float scalar i (0-based), as {@link Kernels} documents this kernel's slot i (an op attribute such as alpha or epsilon). */
    public double floatArg(int i) {
        return floats[i];
    }

    @Override
    public long[] ints() {
        return ints.clone();
    }

    @Override
    public double[] floats() {
        return floats.clone();
    }

    @Override
    public String toString() {
        return name + "[" + label + "] ints=" + Arrays.toString(ints) + " floats=" + Arrays.toString(floats);
    }
}
