package org.arenaplan.cuda;

import java.util.Locale;

/** Where JCuda keeps its native libraries inside its jars; found by resource name, without loading JCuda. */
final class NativeLibraries {
    static final String JCUDA_VERSION = "12.6.0";

    private NativeLibraries() { }

    /** JCuda's platform suffix, e.g. {@code linux-x86_64}. */
    static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String o = os.contains("linux") ? "linux" : os.contains("windows") ? "windows" : os.contains("mac") ? "apple" : os;
        String a = arch.equals("amd64") || arch.equals("x86_64") ? "x86_64" : arch;
        return o + "-" + a;
    }

    static String expectedDriverResource() {
        return library("JCudaDriver");
    }

    static String library(String name) {
        String prefix = platform().startsWith("windows") ? "" : "lib";
        String ext = platform().startsWith("windows") ? ".dll" : platform().startsWith("apple") ? ".dylib" : ".so";
        return "lib/" + prefix + name + "-" + JCUDA_VERSION + "-" + platform() + ext;
    }

    /** The driver binding's resource name when it is on the classpath, else null. */
    static String jcudaDriverResource() {
        String r = expectedDriverResource();
        return NativeLibraries.class.getClassLoader().getResource(r) == null ? null : r;
    }

    /** Whether the cuBLAS binding's native library is on the classpath. */
    static boolean jcublasPresent() {
        return NativeLibraries.class.getClassLoader().getResource(library("JCublas2")) != null;
    }
}
