// The one translation unit nvcc compiles into kernels.fatbin (see build-fatbin.sh).
// Kernel names and argument layouts: org.arenaplan.device.Kernels.
#include "elementwise.cuh"
#include "gemm.cuh"
#include "normalize.cuh"
#include "image.cuh"
#include "image_nd.cuh"
#include "layout.cuh"
#include "index.cuh"
#include "reduce.cuh"
#include "normalization.cuh"
#include "recurrent.cuh"
#include "signal.cuh"
#include "quantized.cuh"
