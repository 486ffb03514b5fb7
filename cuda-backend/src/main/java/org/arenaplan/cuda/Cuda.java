package org.arenaplan.cuda;

/**
 * Whether CUDA can run arenaplan's kernels here, probed once, in the style of Netty's {@code Epoll}.
 *
 * <p>Invariant: no class outside {@link CudaProbe} touches a JCuda class before {@link #isAvailable()}
 * says true. Where {@code libcuda.so.1} is missing, the first touch of {@code JCudaDriver} throws
 * {@link UnsatisfiedLinkError} and every later one {@link NoClassDefFoundError}; the probe keeps the
 * first as the cause. This class itself names no JCuda type, so loading it is always safe.
 */
public final class Cuda {
    private static final CudaInfo INFO = probeOnce();

    private Cuda() { }

    private static CudaInfo probeOnce() {
        String natives = NativeLibraries.jcudaDriverResource();
        if (natives == null) {
            return new CudaInfo(null, 0, 0, null, 0, null, false, "not checked without CUDA", new CudaUnavailableException(
                    "JCuda natives for " + NativeLibraries.platform() + " are not on the classpath (looked for "
                            + NativeLibraries.expectedDriverResource() + ")"));
        }
        try {
            return CudaProbe.probe(natives, KernelImage.load());
        } catch (LinkageError e) {
            String line = linkFailure(e);
            String why = line.contains("undefined symbol")
                    ? "the CUDA driver is older than JCuda " + NativeLibraries.JCUDA_VERSION + " needs (the kernels need CUDA 13): "
                    : "the CUDA driver library (libcuda.so.1, installed with the NVIDIA driver) cannot be loaded: ";
            return new CudaInfo(natives, 0, 0, null, 0, null, false, "not checked without CUDA", new CudaUnavailableException(why + line, e));
        } catch (RuntimeException e) {
            return new CudaInfo(natives, 0, 0, null, 0, null, false, "not checked without CUDA", new CudaUnavailableException(
                    "the CUDA probe failed: " + e, e));
        }
    }

    /**
     * The useful line of a JCuda link error: its message embeds whole stack traces of each load
     * attempt; the last "UnsatisfiedLinkError: ..." line names the missing library.
     */
    static String linkFailure(Throwable e) {
        String message = String.valueOf(e.getMessage());
        String found = null;
        for (String line : message.split("\\R")) {
            int at = line.indexOf("UnsatisfiedLinkError: ");
            if (at >= 0 && !line.contains("java.library.path")) found = line.substring(at + "UnsatisfiedLinkError: ".length());
        }
        return found != null ? found : e.getClass().getSimpleName() + ": " + message.lines().findFirst().orElse("");
    }

    /** True when a CUDA device is present, its driver is new enough and the kernels load on it. */
    public static boolean isAvailable() {
        return INFO.available();
    }

    /** Why CUDA is unavailable, or null when it is available. */
    public static Throwable unavailabilityCause() {
        return INFO.cause();
    }

    /** Throws {@link CudaUnavailableException} with the cause when CUDA is unavailable. */
    public static void ensureAvailability() {
        if (!isAvailable()) throw new CudaUnavailableException(INFO.cause().getMessage(), INFO.cause());
    }

    /** Everything the probe found (for {@code doctor}). */
    public static CudaInfo info() {
        return INFO;
    }

    /**
     * True when the FP32 {@code gemm} kernel goes through cuBLAS: the probe created a JCublas2
     * handle and the system property {@code arenaplan.cuda.cublas} is not {@code false}. (A device
     * opened with TF32 uses its tensor-core kernel instead; see {@link CudaDevice}.)
     */
    public static boolean cublasEnabled() {
        return INFO.cublas() && !"false".equals(System.getProperty("arenaplan.cuda.cublas"));
    }
}
