package org.arenaplan.report;

import org.arenaplan.plan.Problem;

import java.util.Arrays;

/**
 * The aligned bytes live at every instant, as a step function: {@code bytes[i]} holds from
 * {@code times[i]} to {@code times[i + 1]}. Unlike {@link org.arenaplan.plan.LiveBytes}, which
 * samples only the instants where a buffer starts (enough for its maximum), this one also
 * steps down where a buffer ends, so a drawn curve never shows bytes that are already free.
 * Its maximum is the problem's lower bound.
 */
record LiveCurve(long[] times, long[] bytes) {

    static LiveCurve of(Problem p) {
        int n = p.size();
        long[][] events = new long[2 * n][];
        for (int i = 0; i < n; i++) {
            events[2 * i] = new long[]{p.lower(i), p.alignedSize(i)};
            events[2 * i + 1] = new long[]{p.upper(i), -p.alignedSize(i)};
        }
        Arrays.sort(events, (a, b) -> Long.compare(a[0], b[0]));
        long[] times = new long[2 * n];
        long[] bytes = new long[2 * n];
        int k = 0;
        long live = 0;
        for (int e = 0; e < events.length; ) {
            long t = events[e][0];
            while (e < events.length && events[e][0] == t) live += events[e++][1];
            times[k] = t;
            bytes[k++] = live;
        }
        return new LiveCurve(Arrays.copyOf(times, k), Arrays.copyOf(bytes, k));
    }

    long max() {
        long m = 0;
        for (long b : bytes) m = Math.max(m, b);
        return m;
    }
}
