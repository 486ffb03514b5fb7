package org.arenaplan.plan;

/**
 * A solution: one byte offset per buffer of a {@link Problem}. {@code arenaBytes} is
 * {@code max(offset + alignedSize)}. {@code provenOptimal} is true only when a planner proved
 * no smaller arena exists (reaching the lower bound proves it).
 */
public record Placement(long[] offsets, long arenaBytes, String planner, boolean provenOptimal) {
    /**
     * The note a planner's label carries when its time limit cut it short and it stacked the
     * buffers it had not placed (valid, not tight): {@code greedy-size (cut at the time limit)}.
     */
    public static final String CUT = "cut at the time limit";

    public Placement {
        offsets = offsets.clone();
    }

    /** Builds a placement, computing the arena from the offsets. */
    public static Placement of(Problem p, long[] offsets, String planner) {
        long arena = arenaOf(p, offsets);
        return new Placement(offsets, arena, planner, arena == p.lowerBound());
    }

    /**
     * {@code max(offset + alignedSize)} of a planner's offsets.
     *
     * @throws ArithmeticException when an end passes 2^63-1: a planner bug (planners' offsets are
     *                             ends of other buffers, bounded by {@link Problem#sumBytes()});
     *                             untrusted offsets go through {@link PlacementValidator#topOf}
     */
    public static long arenaOf(Problem p, long[] offsets) {
        long arena = 0;
        for (int i = 0; i < offsets.length; i++) arena = Math.max(arena, Math.addExact(offsets[i], p.alignedSize(i)));
        return arena;
    }

    public long offset(int i) {
        return offsets[i];
    }

    @Override
    public long[] offsets() {
        return offsets.clone();
    }
}
