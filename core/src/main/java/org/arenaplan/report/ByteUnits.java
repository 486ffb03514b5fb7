package org.arenaplan.report;

/** Byte counts as people read them: binary units, at most three significant digits. */
final class ByteUnits {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ByteUnits() { }

    static String format(long bytes) {
        if (bytes < 1024) return bytes + " B";
        int u = 0;
        double v = bytes;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
        long scale = decimals == 0 ? 1 : decimals == 1 ? 10 : 100;
        long scaled = Math.round(v * scale);
        StringBuilder b = new StringBuilder().append(scaled / scale);
        long frac = scaled % scale;
        if (frac != 0) {
            String f = Long.toString(scale + frac).substring(1);   // keeps leading zeros: 5 of 100 -> "05"
            int len = f.length();
            while (f.charAt(len - 1) == '0') len--;                  // frac != 0, so a digit stays
            b.append('.').append(f, 0, len);
        }
        return b.append(' ').append(UNITS[u]).toString();
    }

    /** The short form followed by the exact count, e.g. {@code 64 MiB (67108864 B)}. */
    static String exact(long bytes) {
        return bytes < 1024 ? bytes + " B" : format(bytes) + " (" + bytes + " B)";
    }

    /** True when the short forms of two different counts read the same ("1.4 GiB" and "1.4 GiB"): show exact bytes then. */
    static boolean hidesGap(long a, long b) {
        return a != b && format(a).equals(format(b));
    }
}
