package org.arenaplan.cuda;

import java.io.PrintStream;
import org.arenaplan.device.DeviceProvider;
import org.arenaplan.device.Devices;

/**
 * {@code arenaplan doctor}: what this machine offers for running plans. Reads only the probe's
 * {@link CudaInfo}, so it never touches JCuda itself and explains itself on machines without a GPU.
 */
public final class Doctor {
    private Doctor() { }

    /** Prints the report; returns whether CUDA is available. */
    public static boolean report(PrintStream out) {
        CudaInfo info = Cuda.info();
        out.println("java:          " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ", " + System.getProperty("java.home") + ")");
        out.println("os:            " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        out.println("jcuda natives: " + (info.nativesResource() == null
                ? "not found (" + NativeLibraries.expectedDriverResource() + " is not on the classpath)"
                : "found " + info.nativesResource() + " (JCuda " + NativeLibraries.JCUDA_VERSION + ")"));
        out.println("kernels:       " + kernels());
        out.println("cuda driver:   " + (info.driverVersion() == 0 ? "not loaded" : "CUDA " + KernelImage.driverVersionName(info.driverVersion()) + " (" + info.driverVersion() + ")"));
        out.println("devices:       " + info.deviceCount());
        out.println("device 0:      " + (info.deviceName() == null ? "-"
                : info.deviceName() + ", compute capability " + info.computeCapability() + ", " + mib(info.totalMemory()) + " MiB"));
        out.println("cuBLAS:        " + (info.cublas() ? "yes (JCublas2 " + NativeLibraries.JCUDA_VERSION + ")"
                : "no: " + info.cublasNote() + (info.available() ? "; GEMM/MatMul use arenaplan's tiled kernel" : "")));
        if (info.available()) {
            out.println("cuda:          available");
        } else {
            out.println("cuda:          unavailable: " + info.cause().getMessage());
        }
        out.println("auto picks:    " + autoPick());
        return info.available();
    }

    /** What {@code --device auto} would open: the available provider of highest priority, and why not the others. */
    private static String autoPick() {
        StringBuilder skipped = new StringBuilder();
        for (DeviceProvider p : Devices.providers()) {
            if (p.isAvailable()) return p.name() + (skipped.length() == 0 ? "" : " (" + skipped + ")");
            if (skipped.length() > 0) skipped.append("; ");
            skipped.append(p.name()).append(" unavailable");
        }
        return "nothing: no device provider is available" + (skipped.length() == 0 ? " on the classpath" : " (" + skipped + ")");
    }

    private static String kernels() {
        try {
            KernelImage k = KernelImage.load();
            return k.describe() + ", needs driver >= CUDA " + KernelImage.driverVersionName(k.requiredDriverVersion());
        } catch (RuntimeException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    private static long mib(long bytes) {
        return bytes >> 20;
    }
}
