package org.arenaplan.cuda;

import static org.arenaplan.cuda.Driver.check;

import java.util.IdentityHashMap;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;
import jcuda.jcublas.JCublas2;
import jcuda.jcublas.cublasHandle;
import jcuda.jcublas.cublasOperation;
import jcuda.runtime.cudaStream_t;
import org.arenaplan.device.DeviceException;
import org.arenaplan.device.KernelCall;

/**
 * The {@code gemm} kernel through cuBLAS (only constructed when the probe created a JCublas2
 * handle). Steps per call: when C is present, broadcast beta * C into Y with the tiled kernel
 * (K = 0, so it computes exactly beta * C); then one {@code cublasSgemmStridedBatched} on the
 * caller's stream with beta 1 (or 0 without C). Row-major Y = op(A) op(B) is computed as the
 * column-major Y^T = op(B)^T op(A)^T.
 *
 * <p>One handle per stream, each with its own 4 MiB workspace ({@code cublasSetWorkspace}), so
 * streams never share scratch memory. The workspace is device infrastructure, not in the
 * executor's arena: the device never re-decides a plan. Not bit-identical to the tiled kernel.
 */
final class CublasGemm implements AutoCloseable {
    static final long WORKSPACE_BYTES = 4L << 20;

    private record Handle(cublasHandle handle, CUdeviceptr workspace) { }

    private final Map<CUstream, Handle> handles = new IdentityHashMap<>();

    CublasGemm() {
        JCublas2.setExceptionsEnabled(false);
    }

    /**
     * Whether cuBLAS runs {@code call}: f32 only (cublasSgemm; gemm_f16 and gemm_f64 are the tiled
     * kernel's typed forms), and not with a fused epilogue activation (int 12), which the tiled kernel applies.
     */
    static boolean handles(KernelCall call) {
        long[] ints = call.ints();
        if (org.arenaplan.device.Kernels.typeCode(org.arenaplan.device.Kernels.GEMM, ints) != 1) return false;
        return ints.length <= 12 || ints[12] == org.arenaplan.device.Kernels.ACTIVATION_NONE;
    }

    void gemm(CudaDevice device, CUstream stream, KernelCall call, CUdeviceptr[] p) {
        long[] i = call.ints();
        long batch = i[0], m = i[1], n = i[2], k = i[3];
        boolean transA = i[4] != 0, transB = i[5] != 0, hasC = i[8] != 0;
        float alpha = (float) call.floatArg(0);
        if (hasC) {
            long[] broadcast = i.clone();
            broadcast[3] = 0;
            device.launchKernel(stream, new KernelCall(call.name(), call.pointers(), broadcast, call.floats(), call.label() + " (beta*C)"),
                    CudaKernelTable.SPECS.get(call.name()));
        }
        float beta = hasC ? 1f : 0f;
        int r = JCublas2.cublasSgemmStridedBatched(handle(stream),
                transB ? cublasOperation.CUBLAS_OP_T : cublasOperation.CUBLAS_OP_N,
                transA ? cublasOperation.CUBLAS_OP_T : cublasOperation.CUBLAS_OP_N,
                Math.toIntExact(n), Math.toIntExact(m), Math.toIntExact(k), Pointer.to(new float[] {alpha}),
                p[1], Math.toIntExact(transB ? k : n), i[7],
                p[0], Math.toIntExact(transA ? m : k), i[6],
                Pointer.to(new float[] {beta}), p[3], Math.toIntExact(n), m * n, Math.toIntExact(batch));
        if (r != 0) throw new DeviceException("cublasSgemmStridedBatched failed for op " + call.label() + ": status " + r);
    }

    private synchronized cublasHandle handle(CUstream stream) {
        Handle h = handles.get(stream);
        if (h == null) {
            cublasHandle handle = new cublasHandle();
            if (JCublas2.cublasCreate(handle) != 0) throw new DeviceException("cublasCreate failed");
            CUdeviceptr workspace = new CUdeviceptr();
            check(JCudaDriver.cuMemAlloc(workspace, WORKSPACE_BYTES), "cuMemAlloc", "the cuBLAS workspace");
            JCublas2.cublasSetStream(handle, new cudaStream_t(stream));
            JCublas2.cublasSetWorkspace(handle, workspace, WORKSPACE_BYTES);
            h = new Handle(handle, workspace);
            handles.put(stream, h);
        }
        return h.handle();
    }

    /** Releases the handle and workspace of a stream about to be destroyed. */
    synchronized void forget(CUstream stream) {
        Handle h = handles.remove(stream);
        if (h != null) release(h);
    }

    private static void release(Handle h) {
        JCublas2.cublasDestroy(h.handle());
        JCudaDriver.cuMemFree(h.workspace());
    }

    @Override
    public synchronized void close() {
        handles.values().forEach(CublasGemm::release);
        handles.clear();
    }
}
