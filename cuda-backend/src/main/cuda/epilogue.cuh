// The fused epilogue of conv2d, conv2d_igemm and gemm (Kernels.ACTIVATION_* codes, chosen by the
// lowering when a Relu is the only reader of the op's output): the activation applied to the
// finished f32 value, with the formula of the unary kernel's relu (elementwise_math.cuh), so a
// fused run equals the unfused Conv/Gemm followed by Relu bit for bit.
#pragma once

#define ACTIVATION_NONE 0
#define ACTIVATION_RELU 1

__device__ __forceinline__ float apply_activation(float v, int activation) {
    if (activation == ACTIVATION_RELU) return v < 0 ? 0.0f : v;   // a NaN and -0 stay (as elementwise_math.cuh's relu)
    return v;
}

// The same for gemm_f64 (typed.cuh), whose Y is computed in double.
__device__ __forceinline__ double apply_activation(double v, int activation) {
    if (activation == ACTIVATION_RELU) return v < 0 ? 0.0 : v;
    return v;
}
