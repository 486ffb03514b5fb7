package org.arenaplan.plan;

import java.util.StringJoiner;

/**
 * A solution: one byte offset per buffer of a {@link Problem}. {@code arenaBytes} is
 * {@code max(offset + alignedSize)}. {@code provenOptimal} is true only when a planner proved
 * no smaller arena exists (reaching the lower bound proves it).
 *
 * <p>Invariant, checked by the constructor: {@code cut} is true exactly when the label
 * {@code planner} carries {@link #CUT}. Planners build the label with {@link #label}, from the
 * same flag, and read {@link #cut()}, never the label.
 */
public record Placement(long[] offsets, long arenaBytes, String planner, boolean provenOptimal, boolean cut) {
    /**
     * The note a planner's label carries when its time limit cut it short and it stacked the
     * buffers it had not placed (valid, not tight): {@code greedy-size (cut at the time limit)}.
     * A printed contract: the planner line, the plan JSON's {@code planner} field.
     */
    public static final String CUT = "cut at the time limit";

    /** @throws IllegalArgumentException when {@code cut} and the label disagree (a planner bug) */
    public Placement {
        offsets = offsets.clone();
        if (cut != planner.contains(CUT)) {
            throw new IllegalArgumentException("planner label '" + planner + "' disagrees with cut=" + cut);
        }
    }

    /** A placement not cut by a deadline. */
    public Placement(long[] offsets, long arenaBytes, String planner, boolean provenOptimal) {
        this(offsets, arenaBytes, planner, provenOptimal, false);
    }

    /** Builds a placement not cut by a deadline, computing the arena from the offsets. */
    public static Placement of(Problem p, long[] offsets, String planner) {
        return of(p, offsets, planner, false);
    }

    /**
     * Builds a placement, computing the arena from the offsets.
     *
     * @param planner the label, from {@link #label} with the same {@code cut}
     */
    public static Placement of(Problem p, long[] offsets, String planner, boolean cut) {
        long arena = arenaOf(p, offsets);
        return new Placement(offsets, arena, planner, reachesLowerBound(p, arena, cut), cut);
    }

    /**
     * Whether {@code arena} is at the problem's lower bound (which proves it optimal). A placement
     * cut at its deadline is compared only with a lower bound already computed: the bound's two
     * sorts and sweep (about half a second for 620,000 buffers in a cold JVM) would run past the
     * deadline, for a claim a stacked placement almost never earns.
     */
    static boolean reachesLowerBound(Problem p, long arena, boolean cut) {
        return arena <= (cut ? p.knownLowerBound() : p.lowerBound());
    }

    /**
     * A planner's label: {@code name}, then the non-empty {@code notes} and, when {@code cut},
     * {@link #CUT}, joined by ", " between {@code open} and {@code close}; just {@code name} when
     * no note applies. The one place a label gets the cut note:
     * {@code label("greedy-size", " (", ")", true, "swept")} is
     * {@code greedy-size (swept, cut at the time limit)}, {@code label("best", "(", ")", false, "area", "")}
     * is {@code best(area)}.
     */
    public static String label(String name, String open, String close, boolean cut, String... notes) {
        StringJoiner joined = new StringJoiner(", ", open, close).setEmptyValue("");
        for (String n : notes) if (!n.isEmpty()) joined.add(n);
        if (cut) joined.add(CUT);
        return name + joined;
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

    /**
     * Whether the planner stopped at its deadline and stacked the buffers it had not placed yet
     * one above another, above the placed ones: the placement is valid, but not tight (its arena
     * may be far above what the planner finds given the time). Also true where the deadline cut
     * a later step of a heuristic that runs several (a second sweep of {@code greedy-breadth} or
     * {@code greedy-size}) and an earlier step's complete placement was kept: its arena may be
     * above what the planner gives without a limit. The label then carries {@link #CUT}.
     */
    @Override
    public boolean cut() {
        return cut;
    }

    /** Buffer i's offset from the arena's base, in bytes. */
    public long offset(int i) {
        return offsets[i];
    }

    @Override
    public long[] offsets() {
        return offsets.clone();
    }
}
