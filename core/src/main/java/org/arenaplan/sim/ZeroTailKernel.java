package org.arenaplan.sim;

import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelArg;
import org.arenaplan.device.KernelCall;
import org.arenaplan.device.Kernels;

/**
 * The simulator's {@link Kernels#ZERO_TAIL} (layout there): zeroes the tail of a bounded tensor
 * ({@code ir.OpSpec.BoundedFlow}) past the n * per elements its runtime extent n covers. CUDA's
 * twin is bounded.cuh's {@code zero_tail}.
 */
final class ZeroTailKernel {
    private ZeroTailKernel() { }

    /** The computation of {@code c}, or null when it is not {@link Kernels#ZERO_TAIL}. */
    static Runnable bind(KernelCall c) {
        if (!c.name().equals(Kernels.ZERO_TAIL)) return null;
        SimKernels.need(c, 2, 3);
        long per = c.intArg(0), total = c.intArg(1);
        int es = SimKernels.elementBytes(c, 2);
        if (per < 0 || total < 0) throw new DeviceException("'" + c.label() + "': kernel " + c.name() + ": per " + per + " and total " + total + " must not be negative");
        if (c.pointer(0).bytes() != 8 || c.pointer(1).bytes() != total * es)
            throw new DeviceException("'" + c.label() + "': kernel " + c.name() + ": takes an extent of 8 B and y of " + total * es + " B, got "
                    + c.pointer(0).bytes() + " B and " + c.pointer(1).bytes() + " B");
        return () -> {
            long n = SimKernels.in(c, 0).getLong(0);
            long start = n < 0 ? 0 : per == 0 ? total : Math.min(total, n > total / per ? total : n * per);
            if (start >= total) return;
            KernelArg y = c.pointer(1);
            int bytes = Math.toIntExact((total - start) * es);
            SimDevice.block(y.pointer()).write(y.pointer().offset() + start * es, new byte[bytes], 0, bytes);
        };
    }
}
