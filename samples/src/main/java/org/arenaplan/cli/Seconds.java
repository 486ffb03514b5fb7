package org.arenaplan.cli;

import java.time.Duration;

/**
 * A time limit given in seconds on the command line ({@code --time-limit},
 * {@code --schedule-time-limit}), checked once: positive, and at most {@link #MAX} s so that a
 * deadline ({@link System#nanoTime()} plus the limit in nanoseconds) stays inside a long.
 */
final class Seconds {
    /** 10^9 s (about 31.7 years): 10^18 ns, half of what a long holds past any {@code nanoTime()}. */
    static final double MAX = 1e9;

    private Seconds() { }

    /**
     * @param flag    the option's name, for the message
     * @param seconds the value given
     * @return the limit, rounded to whole milliseconds (0 ms for under half of one: a limit already passed)
     * @throws UsageException when {@code seconds} is not in (0, {@link #MAX}]
     */
    static Duration of(String flag, double seconds) {
        if (!(seconds > 0)) throw new UsageException(flag + " must be a positive number of seconds, got " + seconds);
        if (seconds > MAX) throw new UsageException(flag + " must be at most 1e9 seconds (about 31.7 years), got " + seconds);
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
