package org.arenaplan.plan;

import java.util.Arrays;

/**
 * The live-bytes curve of a problem: at each start time, the aligned bytes of every buffer
 * live there. Its maximum is the lower bound of any placement. Half-open intervals: a buffer
 * ending at t is not live at t. The planners read the one a {@link Problem} keeps
 * ({@code Problem.liveBytes}: computed once per problem).
 */
public final class LiveBytes {
    private final long[] times;   // distinct start times, ascending
    private final long[] bytes;   // bytes live at times[i]

    private LiveBytes(long[] times, long[] bytes) {
        this.times = times;
        this.bytes = bytes;
    }

    /** The curve of {@code p}: O(n log n) time for n buffers (the sorts), O(n) memory. */
    public static LiveBytes of(Problem p) {
        return of(p, GreedyPlacer.NO_DEADLINE);
    }

    /**
     * As {@link #of(Problem)}, over the problem's shared start and end orders.
     *
     * @throws Orders.TimeUp when {@code deadline} passes while they are sorted
     */
    static LiveBytes of(Problem p, long deadline) {
        int n = p.size();
        int[] byStart = p.startOrder(deadline);
        int[] byEnd = p.endOrder(deadline);
        long[] times = new long[n];
        long[] live = new long[n];
        int k = 0;
        long cur = 0;
        int e = 0;
        for (int s = 0; s < n; ) {
            long t = p.lower(byStart[s]);
            while (e < n && p.upper(byEnd[e]) <= t) cur -= p.alignedSize(byEnd[e++]);
            while (s < n && p.lower(byStart[s]) == t) cur += p.alignedSize(byStart[s++]);
            times[k] = t;
            live[k++] = cur;
        }
        return new LiveBytes(Arrays.copyOf(times, k), Arrays.copyOf(live, k));
    }

    /** The largest live bytes at any point: the lower bound, in bytes (0 for no buffer). */
    public long max() {
        long m = 0;
        for (long b : bytes) m = Math.max(m, b);
        return m;
    }

    /** The number of points: the distinct start times. */
    public int points() { return times.length; }

    /** Point i's time (a schedule position, or a CSV problem's time unit), ascending in i. */
    public long time(int i) { return times[i]; }

    /** The aligned bytes live at point i's time. */
    public long bytesAt(int i) { return bytes[i]; }

    /** Index of the last point whose time is {@code <= t}, or -1. */
    int indexAtOrBefore(long t) {
        int i = Arrays.binarySearch(times, t);
        return i >= 0 ? i : -i - 2;
    }
}
