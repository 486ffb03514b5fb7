package org.arenaplan.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a placement against its problem, sharing no code with any planner. A sweep over time
 * keeps the live buffers in a map ordered by offset; live buffers are pairwise disjoint (that
 * is the invariant checked), so a newcomer need only be compared with its two neighbours in
 * offset order. O(n log n). Extra (non-interval) conflicts are checked pair by pair.
 *
 * <p>Offsets are not trusted: a buffer whose end {@code offset + alignedSize} passes 2^63-1 is an
 * {@link Violation.Kind#OUT_OF_ARENA} violation, and every end is computed saturating at
 * {@code Long.MAX_VALUE}, so an overflowing offset cannot wrap around and drop out of a check.
 */
public final class PlacementValidator {
    private PlacementValidator() { }

    public static List<Violation> validate(Problem p, Placement s) {
        return validate(p, s.offsets(), s.arenaBytes(), null);
    }

    /**
     * @param arena    the arena size claimed by the solution (checked against every buffer's end)
     * @param capacity the capacity the arena must fit in, or null
     */
    public static List<Violation> validate(Problem p, long[] offsets, long arena, Long capacity) {
        List<Violation> out = new ArrayList<>();
        int n = p.size();
        if (offsets.length != n) {
            out.add(new Violation(Violation.Kind.MISSING_BUFFER, List.of(), -1, 0, 0,
                    "the solution has " + offsets.length + " offsets for " + n + " buffers"));
            return out;
        }
        long top = topOf(p, offsets);
        for (int i = 0; i < n; i++) {
            long o = offsets[i];
            long end = end(p, offsets, i);
            boolean overflows = o > Long.MAX_VALUE - p.alignedSize(i);
            if (overflows) {
                out.add(new Violation(Violation.Kind.OUT_OF_ARENA, List.of(p.id(i)), -1, o, end,
                        "buffer '" + p.id(i) + "' at offset " + o + " with " + p.alignedSize(i) + " B ends past 2^63-1, beyond any arena"));
            } else if (o < 0) {
                out.add(new Violation(Violation.Kind.NEGATIVE_OFFSET, List.of(p.id(i)), -1, o, end,
                        "buffer '" + p.id(i) + "' has negative offset " + o));
            } else if (o % p.alignment() != 0) {
                out.add(new Violation(Violation.Kind.MISALIGNED, List.of(p.id(i)), -1, o, end,
                        "buffer '" + p.id(i) + "' at offset " + o + " is not a multiple of the alignment " + p.alignment()));
            }
            if (end > arena && !overflows) {
                out.add(new Violation(Violation.Kind.OUT_OF_ARENA, List.of(p.id(i)), -1, o, end,
                        "buffer '" + p.id(i) + "' occupies [" + o + ", " + end + ") past the arena of " + arena + " bytes"));
            }
        }
        if (capacity != null && top > capacity) {
            out.add(new Violation(Violation.Kind.OVER_CAPACITY, List.of(), -1, capacity, top,
                    "the placement needs " + top + " bytes, more than the capacity of " + capacity));
        }
        sweep(p, offsets, out);
        for (int i = 0; i < n; i++) {
            for (int j : p.extraConflicts(i)) {
                if (j > i && !p.intervalsOverlap(i, j) && bytesOverlap(p, offsets, i, j)) out.add(overlap(p, offsets, i, j, -1));
            }
        }
        return out;
    }

    private static void sweep(Problem p, long[] offsets, List<Violation> out) {
        int n = p.size();
        int[] byStart = p.byLower();
        int[] byEnd = p.byUpper();
        TreeMap<Long, Integer> live = new TreeMap<>();
        int e = 0;
        for (int s = 0; s < n; s++) {
            int i = byStart[s];
            long t = p.lower(i);
            while (e < n && p.upper(byEnd[e]) <= t) {   // half-open: what ends at t is gone at t
                int j = byEnd[e++];
                live.remove(offsets[j], j);
            }
            if (p.alignedSize(i) == 0) continue;
            Map.Entry<Long, Integer> below = live.floorEntry(offsets[i]);
            Map.Entry<Long, Integer> above = live.ceilingEntry(offsets[i]);
            Integer clash = null;
            if (below != null && bytesOverlap(p, offsets, i, below.getValue())) clash = below.getValue();
            else if (above != null && bytesOverlap(p, offsets, i, above.getValue())) clash = above.getValue();
            if (clash != null) {
                out.add(overlap(p, offsets, clash, i, t));
            } else {
                live.put(offsets[i], i);
            }
        }
    }

    /**
     * {@code max(offset + alignedSize)} over the buffers (0 for none), the arena a placement
     * needs; {@code Long.MAX_VALUE} when some end passes 2^63-1.
     */
    public static long topOf(Problem p, long[] offsets) {
        long top = 0;
        for (int i = 0; i < offsets.length; i++) top = Math.max(top, end(p, offsets, i));
        return top;
    }

    /** {@code offset + alignedSize}, saturating at {@code Long.MAX_VALUE} (offsets are untrusted). */
    private static long end(Problem p, long[] offsets, int i) {
        long o = offsets[i];
        long size = p.alignedSize(i);
        return o > Long.MAX_VALUE - size ? Long.MAX_VALUE : o + size;
    }

    private static boolean bytesOverlap(Problem p, long[] offsets, int i, int j) {
        if (p.alignedSize(i) == 0 || p.alignedSize(j) == 0) return false;
        return offsets[i] < end(p, offsets, j) && offsets[j] < end(p, offsets, i);
    }

    private static Violation overlap(Problem p, long[] offsets, int i, int j, long at) {
        long from = Math.max(offsets[i], offsets[j]);
        long to = Math.min(end(p, offsets, i), end(p, offsets, j));
        return new Violation(Violation.Kind.OVERLAP, List.of(p.id(i), p.id(j)), at, from, to,
                "buffers '" + p.id(i) + "' [" + p.lower(i) + ", " + p.upper(i) + ") and '" + p.id(j) + "' [" + p.lower(j) + ", " + p.upper(j)
                        + ") conflict" + (at >= 0 ? " at time " + at : "") + " but share bytes [" + from + ", " + to + ")");
    }
}
