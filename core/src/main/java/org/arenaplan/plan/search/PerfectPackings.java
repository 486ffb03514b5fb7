package org.arenaplan.plan.search;

import org.arenaplan.plan.PlanningException;
import org.arenaplan.plan.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Problems whose optimum is known by construction: a {@code capacity x horizon} rectangle
 * (bytes x time) is cut into rectangles by guillotine cuts, and each rectangle becomes a buffer
 * (its time range the interval, its height the size). Every instant is then covered exactly, so
 * the lower bound and the optimum both equal the capacity. The same seed gives the same problem;
 * buffer ids are shuffled so their order is no hint.
 */
public final class PerfectPackings {
    private record Rect(long t0, long t1, long b0, long b1) {
        boolean splittable(long unit) {
            return t1 - t0 >= 2 || b1 - b0 >= 2 * unit;
        }
    }

    /** A generated problem and the packing it was cut from: {@code offsets[i]} for buffer i, bytes. */
    public record Packed(Problem problem, long[] offsets) { }

    private PerfectPackings() { }

    /** As {@link #generatePacked}, without the packing. */
    public static Problem generate(long seed, int buffers, long capacity, long horizon, long alignment) {
        return generatePacked(seed, buffers, capacity, horizon, alignment).problem();
    }

    /**
     * @param buffers   how many buffers to cut (fewer if the rectangle runs out of room)
     * @param capacity  bytes; a positive multiple of {@code alignment}
     * @param horizon   time steps, at least 1
     * @return the problem (its lower bound and optimum both {@code capacity}) with the packing it
     *         was cut from, which fills every instant from 0 to {@code capacity}
     * @throws PlanningException when the capacity is not a positive multiple of the alignment,
     *         or the horizon or buffer count is below 1
     */
    public static Packed generatePacked(long seed, int buffers, long capacity, long horizon, long alignment) {
        if (alignment < 1 || capacity <= 0 || capacity % alignment != 0)
            throw new PlanningException("capacity must be a positive multiple of the alignment, got " + capacity + " and " + alignment);
        if (horizon < 1 || buffers < 1) throw new PlanningException("horizon and buffers must be at least 1, got " + horizon + " and " + buffers);
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Rect> rects = new ArrayList<>(List.of(new Rect(0, horizon, 0, capacity)));
        for (int attempts = 0; rects.size() < buffers && attempts < 20 * buffers; attempts++) {
            int k = rnd.nextInt(rects.size());
            Rect r = rects.get(k);
            if (!r.splittable(alignment)) continue;
            boolean inTime = r.b1() - r.b0() < 2 * alignment || (r.t1() - r.t0() >= 2 && rnd.nextBoolean());
            if (inTime) {
                long t = r.t0() + 1 + rnd.nextLong(r.t1() - r.t0() - 1);
                rects.set(k, new Rect(r.t0(), t, r.b0(), r.b1()));
                rects.add(new Rect(t, r.t1(), r.b0(), r.b1()));
            } else {
                long units = (r.b1() - r.b0()) / alignment;
                long b = r.b0() + alignment * (1 + rnd.nextLong(units - 1));
                rects.set(k, new Rect(r.t0(), r.t1(), r.b0(), b));
                rects.add(new Rect(r.t0(), r.t1(), b, r.b1()));
            }
        }
        for (int i = rects.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            Rect t = rects.get(i);
            rects.set(i, rects.get(j));
            rects.set(j, t);
        }
        int n = rects.size();
        String[] ids = new String[n];
        long[] lower = new long[n];
        long[] upper = new long[n];
        long[] sizes = new long[n];
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            Rect r = rects.get(i);
            ids[i] = "p" + i;
            lower[i] = r.t0();
            upper[i] = r.t1();
            sizes[i] = r.b1() - r.b0();
            offsets[i] = r.b0();
        }
        return new Packed(new Problem(ids, lower, upper, sizes, alignment), offsets);
    }
}
