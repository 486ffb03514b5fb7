package org.arenaplan.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The committed kernel fatbin ({@code kernels.fatbin}) and its stamp ({@code kernels.fatbin.properties}:
 * hash of the CUDA sources, nvcc version and flags, hash of the fatbin, the driver it needs).
 * Plain Java: loading it touches no JCuda class.
 */
public final class KernelImage {
    static final String FATBIN = "kernels.fatbin";
    static final String STAMP = "kernels.fatbin.properties";

    private final byte[] fatbin;
    private final Properties stamp;

    private KernelImage(byte[] fatbin, Properties stamp) {
        this.fatbin = fatbin;
        this.stamp = stamp;
    }

    /** Reads both resources from the classpath; a missing one is an {@link IllegalStateException} naming it. */
    public static KernelImage load() {
        Properties p = new Properties();
        try (InputStream s = open(STAMP)) {
            p.load(s);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + STAMP, e);
        }
        try (InputStream s = open(FATBIN)) {
            return new KernelImage(s.readAllBytes(), p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + FATBIN, e);
        }
    }

    private static InputStream open(String name) {
        InputStream s = KernelImage.class.getResourceAsStream(name);
        if (s == null) throw new IllegalStateException("resource org/arenaplan/cuda/" + name + " is missing from the classpath");
        return s;
    }

    public byte[] fatbin() {
        return fatbin.clone();
    }

    public String sourcesSha256() {
        return stamp.getProperty("sources.sha256");
    }

    public String fatbinSha256() {
        return stamp.getProperty("fatbin.sha256");
    }

    public String nvccVersion() {
        return stamp.getProperty("nvcc.version");
    }

    /**
     * The lowest driver API version ({@code cuDriverGetVersion} units, 1000 * major + 10 * minor)
     * that loads this fatbin: the CUDA version of the nvcc that built it, since nvcc 13 emits PTX
     * 9.0 and SASS that older drivers reject.
     */
    public int requiredDriverVersion() {
        String[] v = nvccVersion().split("\\.");
        return Integer.parseInt(v[0]) * 1000 + Integer.parseInt(v[1]) * 10;
    }

    /** "12.4" for 12040. */
    public static String driverVersionName(int version) {
        return version / 1000 + "." + (version % 1000) / 10;
    }

    /** A one-line summary such as {@code 412 KiB: sm_80 sm_90 compute_90 (nvcc 13.0.88)}. */
    public String describe() {
        StringBuilder s = new StringBuilder().append(fatbin.length / 1024).append(" KiB:");
        for (Fatbin.Entry e : Fatbin.entries(fatbin)) s.append(' ').append(e.archName());
        return s.append(" (nvcc ").append(nvccVersion()).append(')').toString();
    }
}
