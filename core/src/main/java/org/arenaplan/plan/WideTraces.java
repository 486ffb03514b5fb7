package org.arenaplan.plan;

import java.util.SplittableRandom;

/**
 * Synthetic wide traces: tens of thousands to millions of buffers with thousands live at once,
 * shaped like a training step (the IOPDDL contest graphs, MLPerf traces): one buffer starts per
 * schedule position, and
 * <ul>
 *   <li>half are temporaries, dead a few positions later (lifetime 1 + geometric, mean 3);</li>
 *   <li>{@code width / 10} are persistent (weights, optimiser state): live from near the start
 *       to the end;</li>
 *   <li>{@code width / 2} are saved activations: made in the first half (forward) and freed at
 *       the mirrored position of the second half (backward), so they nest;</li>
 *   <li>the rest live an exponentially distributed time whose mean makes them contribute about
 *       {@code 0.4 width} live buffers at any instant.</li>
 * </ul>
 * So about {@code width} buffers are live at the middle of the trace (the most, usually; the
 * exact figure is whatever {@link #maxLive} reports). Sizes come from a palette of 48 sizes
 * drawn log-uniformly from 256 B to 16 MiB (real traces repeat a few shapes many times), small
 * ones more often, plus one buffer in ten of an arbitrary size; saved activations are 4x larger.
 * The same arguments give the same problem.
 */
public final class WideTraces {
    private static final int PALETTE = 48;

    private WideTraces() { }

    /**
     * @param buffers how many buffers (at least 1)
     * @param width   about how many are live at once (at least 1, at most {@code buffers / 2})
     * @param seed    the {@link java.util.SplittableRandom} seed: the same seed gives the same problem
     * @throws PlanningException when {@code buffers} or {@code width} is out of those ranges
     */
    public static Problem generate(long seed, int buffers, int width) {
        if (buffers < 1 || width < 1 || width > Math.max(1, buffers / 2))
            throw new PlanningException("need 1 <= width <= buffers / 2, got " + buffers + " buffers and width " + width);
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] palette = new long[PALETTE];
        for (int k = 0; k < PALETTE; k++) palette[k] = logUniform(rnd, 8, 24);
        java.util.Arrays.sort(palette);
        int n = buffers;
        long horizon = n + 1L;
        int persistent = width / 10;
        int saved = width / 2;
        int temps = n / 2;
        int medium = Math.max(1, n - persistent - saved - temps);
        double mediumMean = Math.max(4, 0.4 * width * (double) horizon / medium);
        // Which positions get the persistent and saved buffers: spread evenly.
        String[] ids = new String[n];
        long[] lower = new long[n];
        long[] upper = new long[n];
        long[] sizes = new long[n];
        long persistEvery = Math.max(1, n / Math.max(1, persistent) / 20);   // all in the first twentieth
        long savedEvery = Math.max(1, (n / 2) / Math.max(1, saved));
        int persistLeft = persistent, savedLeft = saved;
        for (int i = 0; i < n; i++) {
            ids[i] = "w" + i;
            long t = i;
            lower[i] = t;
            long size = rnd.nextInt(10) == 0 ? 1 + rnd.nextLong(1L << 20) : palette[(int) Math.min(PALETTE - 1, (long) (PALETTE * Math.pow(rnd.nextDouble(), 2)))];
            long end;
            if (persistLeft > 0 && i % persistEvery == 0) {
                persistLeft--;
                end = horizon;
            } else if (savedLeft > 0 && t < n / 2 && i % savedEvery == 1 % savedEvery) {
                savedLeft--;
                end = Math.min(horizon, Math.max(t + 1, n - t + rnd.nextInt(8)));
                size *= 4;
            } else if (rnd.nextBoolean()) {
                end = t + 1 + geometric(rnd, 3);
            } else {
                end = t + 1 + (long) (-mediumMean * Math.log(1 - rnd.nextDouble()));
            }
            upper[i] = Math.min(horizon, end);
            sizes[i] = size;
        }
        return new Problem(ids, lower, upper, sizes, 1);
    }

    /** The most buffers live at one instant (a sweep over starts and ends). */
    public static int maxLive(Problem p) {
        int[] byStart = p.byLower();
        int[] byEnd = p.byUpper();
        int live = 0, most = 0, e = 0;
        for (int s = 0; s < byStart.length; s++) {
            long t = p.lower(byStart[s]);
            while (e < byEnd.length && p.upper(byEnd[e]) <= t) {
                e++;
                live--;
            }
            most = Math.max(most, ++live);
        }
        return most;
    }

    private static long logUniform(SplittableRandom rnd, int fromBits, int toBits) {
        return Math.max(1, Math.round(Math.pow(2, fromBits + rnd.nextDouble() * (toBits - fromBits))));
    }

    private static long geometric(SplittableRandom rnd, double mean) {
        return (long) Math.floor(Math.log(1 - rnd.nextDouble()) / Math.log(1 - 1 / mean));
    }
}
