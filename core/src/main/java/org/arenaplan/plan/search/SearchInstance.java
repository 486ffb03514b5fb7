package org.arenaplan.plan.search;

import org.arenaplan.plan.Problem;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * What every capacity probe on one problem shares, built once: the buffers that occupy bytes,
 * the time axis cut into sections, and each buffer's conflicts (interval overlaps plus the
 * problem's extra conflicts), zero-byte buffers left out since they can share any byte.
 *
 * <p>Memory is one int per (buffer, conflicting buffer) pair and two per (buffer, section it
 * spans) pair: about 740 MB for S_1 (86 M and 49 M pairs). Both counts are taken first, in
 * O(n log n), and a problem over {@value #MAX_CONFLICT_PAIRS} or {@value #MAX_SECTION_PAIRS}
 * is refused with {@link TooLarge} (wide traces of tens of thousands of buffers): the search
 * then keeps the heuristics' placement.
 */
final class SearchInstance {
    final Problem problem;
    final int[] active;
    final Timeline time;
    final int[][] conflicts;

    static final long MAX_CONFLICT_PAIRS = 100_000_000L;
    static final long MAX_SECTION_PAIRS = 60_000_000L;

    /** Thrown before building when the tables would exceed the limits above. */
    static final class TooLarge extends RuntimeException {
        TooLarge(String what) {
            super(what, null, false, false);
        }
    }

    /** Thrown while building when the deadline passes: large problems take seconds to prepare. */
    static final class OutOfTime extends RuntimeException {
        OutOfTime() {
            super("the time limit passed while preparing the search", null, false, false);
        }
    }

    /** Units of work (array slots written) between two clock reads while building: about a millisecond. */
    static final long CLOCK_WORK = 1 << 16;

    /**
     * Adds {@code units} to {@code work} and reads the clock once {@value #CLOCK_WORK} have
     * accumulated since the last read; returns the new count.
     *
     * @throws OutOfTime when the deadline has passed
     */
    static long checkClock(long work, long units, long deadline) {
        work += units;
        if (work < CLOCK_WORK) return work;
        if (System.nanoTime() - deadline > 0) throw new OutOfTime();
        return 0;
    }

    SearchInstance(Problem p) {
        this(p, Long.MAX_VALUE, false);
    }

    /** @param deadline a {@link System#nanoTime()} value; building past it throws {@link OutOfTime} */
    SearchInstance(Problem p, long deadline) {
        this(p, deadline, true);
    }

    private SearchInstance(Problem p, long deadline, boolean timed) {
        this.problem = p;
        this.active = IntStream.range(0, p.size()).filter(i -> p.alignedSize(i) > 0).toArray();
        long pairs = p.overlappingPairs();   // zero-byte buffers included: an upper bound
        if (pairs > MAX_CONFLICT_PAIRS) throw new TooLarge(pairs + " conflicting pairs");
        this.time = new Timeline(p, active, MAX_SECTION_PAIRS, timed ? deadline : System.nanoTime() + Long.MAX_VALUE / 2);
        this.conflicts = new int[p.size()][];
        int[] buf = new int[16];
        long work = 0;
        for (int i : active) {
            int[][] box = {buf};
            int[] k = {0};
            p.forEachConflict(i, j -> {
                if (p.alignedSize(j) == 0) return;
                if (k[0] == box[0].length) box[0] = Arrays.copyOf(box[0], k[0] * 2);
                box[0][k[0]++] = j;
            });
            buf = box[0];
            conflicts[i] = Arrays.copyOf(buf, k[0]);
            if (timed) work = checkClock(work, 1 + k[0], deadline);
        }
    }
}
