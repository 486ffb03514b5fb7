package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Without a GPU (CI, this machine) the probe and doctor explain why, in words, without a stack trace. */
class DoctorTest {

    @Test
    void probeGivesAReasonWhenUnavailable() {
        assumeFalse(Cuda.isAvailable(), "a usable GPU is present; this test covers machines without one");
        assertThat(Cuda.unavailabilityCause()).isNotNull();
        assertThat(Cuda.unavailabilityCause().getMessage()).isNotBlank();
        assertThat(Cuda.info().nativesResource()).as("JCuda natives jar on the test classpath").isNotNull();
    }

    @Test
    void doctorExplainsItselfWithoutAGpu() {
        assumeFalse(Cuda.isAvailable(), "a usable GPU is present; this test covers machines without one");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean available = Doctor.report(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String report = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertThat(available).isFalse();
        assertThat(report).contains("java:", "jcuda natives:", "kernels:", "cuda driver:", "cuBLAS:", "auto picks:    sim (cuda unavailable)")
                .contains("cuda:          unavailable: " + Cuda.unavailabilityCause().getMessage())
                .contains("sm_90")
                .doesNotContain("Exception", "\tat ");
    }

    @Test
    void aJCudaLinkErrorIsCutToTheLineNamingTheMissingLibrary() {
        String message = "Error while loading native library \"JCublas2-12.6.0-linux-x86_64\"\n"
                + "Stack trace from the attempt to load the library as a file:\n"
                + "java.lang.UnsatisfiedLinkError: no JCublas2-12.6.0-linux-x86_64 in java.library.path: /usr/lib\n"
                + "\tat java.base/java.lang.ClassLoader.loadLibrary(ClassLoader.java:2434)\n"
                + "java.lang.UnsatisfiedLinkError: /tmp/libJCublas2-12.6.0-linux-x86_64.so: libcublas.so.12: cannot open shared object file\n"
                + "\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)\n";
        assertThat(Cuda.linkFailure(new UnsatisfiedLinkError(message)))
                .isEqualTo("/tmp/libJCublas2-12.6.0-linux-x86_64.so: libcublas.so.12: cannot open shared object file");
        assertThat(Cuda.linkFailure(new NoClassDefFoundError("Could not initialize class jcuda.driver.JCudaDriver")))
                .isEqualTo("NoClassDefFoundError: Could not initialize class jcuda.driver.JCudaDriver");
    }

    @Test
    void ensureAvailabilityThrowsTheCauseInWords() {
        assumeFalse(Cuda.isAvailable(), "a usable GPU is present; this test covers machines without one");
        try {
            Cuda.ensureAvailability();
            throw new AssertionError("ensureAvailability passed without CUDA");
        } catch (CudaUnavailableException e) {
            assertThat(e.getMessage()).isEqualTo(Cuda.unavailabilityCause().getMessage());
        }
    }
}
