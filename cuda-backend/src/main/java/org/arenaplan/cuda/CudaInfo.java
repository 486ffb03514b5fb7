package org.arenaplan.cuda;

/**
 * What the availability probe found, step by step; later fields are empty when an earlier step
 * failed. Plain values only, so that reading it never touches a JCuda class.
 *
 * @param nativesResource the JCuda driver library inside the jar, or null when it is not on the classpath
 * @param driverVersion   {@code cuDriverGetVersion} (1000 * major + 10 * minor), 0 when unknown
 * @param deviceCount     devices the driver reports, 0 when unknown
 * @param deviceName      device 0's name, or null
 * @param totalMemory     device 0's memory in bytes, 0 when unknown
 * @param computeCapability device 0's "major.minor", or null
 * @param cublas          whether JCublas2 loaded and created a handle
 * @param cublasNote      why cuBLAS is not used, or null
 * @param cause           why CUDA is unavailable, or null when it is available
 */
public record CudaInfo(String nativesResource, int driverVersion, int deviceCount, String deviceName,
                       long totalMemory, String computeCapability, boolean cublas, String cublasNote,
                       Throwable cause) {

    public boolean available() {
        return cause == null;
    }
}
