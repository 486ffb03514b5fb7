// Storage types of the typed kernels (org.arenaplan.device.Kernels#typeInt): each kernel body is a
// template over the element type T its tensors hold; the f32 entry function instantiates it with
// float (typed_load and typed_store are then plain loads and stores, the f32 kernel's own code), and each typed
// entry function, named KERNEL_TYPE (conv2d_f16, softmax_f64, pool_u8; CudaKernelTable.entry picks
// it from the call's type int), with one of the types below. Numerics (ONNX Runtime's CPU rule for
// a node of a type that has only a float kernel, onnxruntime/core/optimizer/insert_cast_transformer.h):
// every element widened exactly to the compute type (f32 for f16, u8 and i8; f64 for f64), the f32
// kernel's sums and products in that type, the result rounded once on store (f16: to nearest even,
// dtypes.cuh's float_to_half; u8/i8: rint, clamped to the type's range, NaN 0, as the simulator's
// WideKernels.onBytes).
#pragma once
#include "dtypes.cuh"

struct half_t { unsigned short bits; };   // IEEE binary16, stored as its bits
struct u8_t { unsigned char bits; };
struct i8_t { signed char bits; };

// The type a kernel of storage type T computes in.
template <typename T> struct compute_of { typedef float type; };
template <> struct compute_of<double> { typedef double type; };

__device__ __forceinline__ float typed_load(const float* p, long long i) { return p[i]; }
__device__ __forceinline__ double typed_load(const double* p, long long i) { return p[i]; }
__device__ __forceinline__ float typed_load(const half_t* p, long long i) { return half_to_float(p[i].bits); }
__device__ __forceinline__ float typed_load(const u8_t* p, long long i) { return (float) p[i].bits; }
__device__ __forceinline__ float typed_load(const i8_t* p, long long i) { return (float) p[i].bits; }

__device__ __forceinline__ void typed_store(float* p, long long i, float v) { p[i] = v; }
__device__ __forceinline__ void typed_store(double* p, long long i, double v) { p[i] = v; }
__device__ __forceinline__ void typed_store(half_t* p, long long i, float v) { p[i].bits = float_to_half(v); }
__device__ __forceinline__ float rint_clamped(float v, float lo, float hi) {
    if (v != v) return 0.0f;
    float r = rintf(v);
    return r < lo ? lo : r > hi ? hi : r;
}
__device__ __forceinline__ void typed_store(u8_t* p, long long i, float v) { p[i].bits = (unsigned char) rint_clamped(v, 0.0f, 255.0f); }
__device__ __forceinline__ void typed_store(i8_t* p, long long i, float v) { p[i].bits = (signed char) rint_clamped(v, -128.0f, 127.0f); }


