// Kernels of ops that carry a bounded tensor (ir.OpSpec.BoundedFlow): zero_tail. Argument layout:
// org.arenaplan.device.Kernels; the simulator's twin is org.arenaplan.sim.ZeroTailKernel.
#pragma once
#include "common.cuh"

// ints: per, total, es. Elements n * per .. total of y (es bytes each) set to zero, n = extent[0]
// clamped to [0, total / per]; one thread per element of the whole tensor (grid-stride), the head left as it is.
extern "C" __global__ void zero_tail(const long long* extent, void* y, Ints ints, Floats) {
    long long per = ints.v[0], total = ints.v[1];
    int es = (int) ints.v[2];
    long long n = extent[0];
    long long start = n < 0 ? 0 : per == 0 ? total : n > total / per ? total : n * per;
    FOR_EACH_ITEM(i, total) {
        if (i < start) continue;
        switch (es) {
            case 1: ((unsigned char*) y)[i] = 0; break;
            case 2: ((unsigned short*) y)[i] = 0; break;
            case 4: ((unsigned int*) y)[i] = 0; break;
            default: ((unsigned long long*) y)[i] = 0; break;
        }
    }
}
