// Shared by every kernel. The calling convention (org.arenaplan.device.Kernels) passes the
// pointers in order, then all integer scalars as one struct of 64-bit values, then all float
// scalars as one struct of doubles (narrowed to f32 where a kernel computes with them).
// The Java side (CudaKernelTable) fills both structs from a KernelCall, padding with zeros.
#pragma once

#define ARENAPLAN_MAX_INTS 40
#define ARENAPLAN_MAX_FLOATS 4
#define ARENAPLAN_MAX_RANK 8

struct Ints { long long v[ARENAPLAN_MAX_INTS]; };
struct Floats { double v[ARENAPLAN_MAX_FLOATS]; };

// Every kernel but gemm covers its work items with a grid-stride loop, so any grid size is correct.
#define FOR_EACH_ITEM(i, n) \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)
