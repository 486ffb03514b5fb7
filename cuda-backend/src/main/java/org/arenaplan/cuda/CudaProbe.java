package org.arenaplan.cuda;

import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import jcuda.jcublas.JCublas2;
import jcuda.jcublas.cublasHandle;

/**
 * The only code that touches JCuda before CUDA is known to work. Steps, each stopping at the first
 * failure with a cause that says what was found and what is needed:
 * <ol>
 *   <li>load the driver binding (fails with {@link UnsatisfiedLinkError} without libcuda.so.1);</li>
 *   <li>{@code cuInit}, driver version, device count;</li>
 *   <li>driver version against the one the fatbin needs;</li>
 *   <li>device 0's name, memory and compute capability;</li>
 *   <li>load the fatbin with {@code cuModuleLoadData} in device 0's primary context, then unload it;</li>
 *   <li>cuBLAS: create and destroy a JCublas2 handle (needs libcublas.so.12; failure only turns
 *       cuBLAS off).</li>
 * </ol>
 */
final class CudaProbe {
    private CudaProbe() { }

    static CudaInfo probe(String natives, KernelImage kernels) {
        JCudaDriver.setExceptionsEnabled(false);
        int r = JCudaDriver.cuInit(0);
        if (r != CUresult.CUDA_SUCCESS) {
            String why = r == CUresult.CUDA_ERROR_NO_DEVICE ? "no CUDA device found" : "the CUDA driver did not initialise";
            return failed(natives, 0, 0, why + " (cuInit: " + CUresult.stringFor(r) + ")");
        }
        int[] value = new int[1];
        JCudaDriver.cuDriverGetVersion(value);
        int driver = value[0];
        JCudaDriver.cuDeviceGetCount(value);
        int count = value[0];
        if (count == 0) return failed(natives, driver, 0, "no CUDA device found (driver " + KernelImage.driverVersionName(driver) + ")");
        int needed = kernels.requiredDriverVersion();
        if (driver < needed) {
            return failed(natives, driver, count, "the CUDA driver is too old for the kernels: found CUDA "
                    + KernelImage.driverVersionName(driver) + " (" + driver + "), need CUDA " + KernelImage.driverVersionName(needed)
                    + " (" + needed + ") because the fatbin was built by nvcc " + kernels.nvccVersion());
        }
        CUdevice device = new CUdevice();
        check(JCudaDriver.cuDeviceGet(device, 0), "cuDeviceGet");
        byte[] name = new byte[256];
        check(JCudaDriver.cuDeviceGetName(name, name.length, device), "cuDeviceGetName");
        String deviceName = new String(name, 0, nulTerminated(name), java.nio.charset.StandardCharsets.UTF_8);
        long[] mem = new long[1];
        check(JCudaDriver.cuDeviceTotalMem(mem, device), "cuDeviceTotalMem");
        String cc = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) + "."
                + attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        String loadError = loadKernels(device, kernels);
        if (loadError != null) {
            return new CudaInfo(natives, driver, count, deviceName, mem[0], cc, false, "not checked without usable CUDA",
                    new CudaUnavailableException("the kernels do not load on " + deviceName + " (compute capability " + cc
                            + ", driver " + KernelImage.driverVersionName(driver) + "; fatbin " + kernels.describe() + "): " + loadError));
        }
        String cublasNote = probeCublas();
        return new CudaInfo(natives, driver, count, deviceName, mem[0], cc, cublasNote == null, cublasNote, null);
    }

    private static CudaInfo failed(String natives, int driver, int count, String why) {
        return new CudaInfo(natives, driver, count, null, 0, null, false, "not checked without CUDA", new CudaUnavailableException(why));
    }

    private static String loadKernels(CUdevice device, KernelImage kernels) {
        CUcontext context = new CUcontext();
        int r = JCudaDriver.cuDevicePrimaryCtxRetain(context, device);
        if (r != CUresult.CUDA_SUCCESS) return "cuDevicePrimaryCtxRetain: " + CUresult.stringFor(r);
        try {
            r = JCudaDriver.cuCtxSetCurrent(context);
            if (r != CUresult.CUDA_SUCCESS) return "cuCtxSetCurrent: " + CUresult.stringFor(r);
            CUmodule module = new CUmodule();
            r = JCudaDriver.cuModuleLoadData(module, kernels.fatbin());
            if (r != CUresult.CUDA_SUCCESS) return "cuModuleLoadData: " + CUresult.stringFor(r);
            JCudaDriver.cuModuleUnload(module);
            return null;
        } finally {
            JCudaDriver.cuDevicePrimaryCtxRelease(device);
        }
    }

    /** Null when cuBLAS works, else why not (JCublas2 12.6.0 needs libcublas.so.12). */
    private static String probeCublas() {
        if (!NativeLibraries.jcublasPresent()) return "the JCublas natives are not on the classpath";
        try {
            JCublas2.setExceptionsEnabled(false);
            cublasHandle handle = new cublasHandle();
            int r = JCublas2.cublasCreate(handle);
            if (r != 0) return "cublasCreate returned " + r;
            JCublas2.cublasDestroy(handle);
            return null;
        } catch (LinkageError e) {
            return "JCublas2 " + NativeLibraries.JCUDA_VERSION + " cannot load libcublas.so.12 (" + Cuda.linkFailure(e) + ")";
        }
    }

    private static int attribute(CUdevice device, int attribute) {
        int[] v = new int[1];
        check(JCudaDriver.cuDeviceGetAttribute(v, attribute, device), "cuDeviceGetAttribute");
        return v[0];
    }

    private static int nulTerminated(byte[] s) {
        for (int i = 0; i < s.length; i++) if (s[i] == 0) return i;
        return s.length;
    }

    private static void check(int result, String call) {
        if (result != CUresult.CUDA_SUCCESS) throw new IllegalStateException(call + ": " + CUresult.stringFor(result));
    }
}
