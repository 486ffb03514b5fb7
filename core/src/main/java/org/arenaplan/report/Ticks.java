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
        long raw = Math.max(1, (span + ticks - 1) / Math.max(1, ticks));
        long pow = 1;
        while (pow * 10 <= raw) pow *= 10;
        for (long m : new long[]{1, 2, 5, 10}) {
            if (m * pow >= raw) return m * pow;
        }
        return 10 * pow;
    }
}
