package org.arenaplan.report;

/** Axis tick spacing: round numbers that give about the number of ticks asked for. */
final class Ticks {
    private Ticks() { }

    /** A power of two of bytes, so ticks land on 64 MiB, 128 MiB... rather than 50 MB. */
    static long byteStep(long max, int ticks) {
        long raw = Math.max(1, max / Math.max(1, ticks));
        long step = Long.highestOneBit(raw);
        return step < raw ? step << 1 : step;
    }

    /** 1, 2 or 5 times a power of ten. */
    static long decimalStep(long span, int ticks) {
        int n = Math.max(1, ticks);
        long raw = Math.max(1, span / n + (span % n > 0 ? 1 : 0));   // ceil(span / n); span + n - 1 overflowed near 2^63
        long pow = 1;
        while (pow <= raw / 10) pow *= 10;
        for (long m : new long[]{1, 2, 5}) {
            if (m * pow >= raw) return m * pow;
        }
        return pow <= Long.MAX_VALUE / 10 ? 10 * pow : Long.MAX_VALUE;
    }
}
